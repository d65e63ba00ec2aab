"""Parity programs from a thirty-eighth hunt: complex numbers and FFTs in autograd.

The programs a student writes from PyTorch's "Autograd for Complex Numbers" note: complex leaves (``randn`` of
``cfloat``, ``torch.complex``, ``torch.polar``, ``view_as_complex`` / ``view_as_real`` round trips), real losses of
complex tensors and the conjugate Wirtinger gradients they print, ``backward`` on complex outputs, ``conj()`` views,
complex products and elementwise functions, ``torch.fft`` transforms with gradients (norms, lengths, real-to-complex
and back), spectral losses trained by SGD, ``stft`` / ``istft``, complex ``gradcheck``, ``torch.func`` transforms of
complex functions, dtype promotion with complex operands, and the printing of complex gradients. Programs marked
"fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- complex leaves and the conjugate Wirtinger gradient of real losses

PROGRAMS['cx_randn_leaf_abs_squared'] = PRE + r'''
torch.manual_seed(0)
z = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
print(z)
print(z.dtype, z.is_leaf, z.requires_grad, z.grad)
L = (z.abs() ** 2).sum()
print(L, L.grad_fn.name(), L.grad_fn.next_functions[0][0].name())
L.backward()
print(z.grad)
print(2 * z.detach())
print(torch.allclose(z.grad, 2 * z.detach()))
z.grad = None
L2 = (z * z.conj()).real.sum()
print(L2, L2.grad_fn.name())
L2.backward()
print(z.grad)
z.grad = None
L3 = z.abs().sum()
L3.backward()
print(z.grad, z.detach() / z.detach().abs())
z.grad = None
(z.real ** 2 + z.imag ** 2).sum().backward()
print(z.grad)
'''

PROGRAMS['cx_complex_from_real_parts'] = PRE + r'''
a = torch.tensor([1., -2., 0.5], requires_grad=True)
b = torch.tensor([0., 3., -1.5], requires_grad=True)
z = torch.complex(a, b)
print(z, z.grad_fn.name(), [(f.name(), i) for f, i in z.grad_fn.next_functions])
loss = (z.abs() + z.angle()).sum()
loss.backward()
print(a.grad, b.grad)
a.grad = b.grad = None
w = torch.complex(a, b) * torch.complex(torch.tensor(2.), torch.tensor(-1.))
w.real.sum().backward()
print(a.grad, b.grad)
E(lambda: torch.complex(a, b.double()))
E(lambda: torch.complex(torch.tensor([1, 2]), torch.tensor([3, 4])))
E(lambda: torch.complex(a.half(), b.half()))
E(lambda: torch.complex(z, z))
print(torch.complex(a.double(), b.double()).dtype)
print(torch.complex(a, torch.tensor(1.)))
E(lambda: torch.complex(a, torch.ones(2)))
'''

PROGRAMS['cx_polar_radius_angle_grads'] = PRE + r'''
import math
r = torch.tensor([1., 2., 0.5, 0.], requires_grad=True)
th = torch.tensor([0., math.pi / 2, -math.pi / 3, 1.], requires_grad=True)
z = torch.polar(r, th)
print(z)
print(z.grad_fn.name())
loss = (z.real + 2 * z.imag).sum()
loss.backward()
print(r.grad)
print(th.grad)
r.grad = th.grad = None
torch.polar(r, th).abs().sum().backward()
print(r.grad, th.grad)
E(lambda: torch.polar(r, th.double()))
E(lambda: torch.polar(torch.tensor([1, 2]), torch.tensor([0, 1])))
print(torch.polar(r.double().detach(), th.double().detach()))
E(lambda: torch.polar(torch.tensor([1.+1j]), torch.tensor([0.+0j])))
'''

PROGRAMS['cx_view_as_complex_round_trip_grads'] = PRE + r'''
torch.manual_seed(1)
x = torch.randn(4, 2, requires_grad=True)
z = torch.view_as_complex(x)
print(z, z.grad_fn.name(), z._base is x, z.is_leaf)
w = z * z
back = torch.view_as_real(w)
print(back.grad_fn.name(), back.shape)
back.sum().backward()
print(x.grad)
x.grad = None
torch.view_as_complex(x).abs().sum().backward()
print(x.grad)
E(lambda: torch.view_as_complex(torch.randn(4, 3)))
E(lambda: torch.view_as_complex(torch.randn(2, 4).t()))
E(lambda: torch.view_as_complex(torch.randn(4, 2, dtype=torch.float64)[::2].int()))
E(lambda: torch.view_as_real(torch.randn(3)))
print(torch.view_as_complex(torch.randn(4, 2, dtype=torch.float64)).dtype)
print(torch.view_as_complex(torch.randn(3, 4, 2)[:, 1]).shape)
'''

PROGRAMS['cx_view_as_real_leaf_and_inplace'] = PRE + r'''
z = torch.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
r = torch.view_as_real(z)
print(r, r.grad_fn.name(), r._base is z)
(r ** 2).sum().backward()
print(z.grad)
z.grad = None
E(lambda: torch.view_as_real(z.conj()))
print(torch.view_as_real(z.conj().resolve_conj()))
zz = z.detach().clone()
rv = torch.view_as_real(zz)
rv[:, 1] = 0.
print(zz)
y = z * 1
ry = torch.view_as_real(y)
ry.mul_(2)
print(y.grad_fn.name(), ry.grad_fn.name())
y.abs().sum().backward()
print(z.grad)
'''

PROGRAMS['cx_angle_grads_real_and_complex'] = PRE + r'''
z = torch.tensor([1 + 1j, -1 + 0j, 0j, -2 - 2j, 3j], requires_grad=True)
a = z.angle()
print(a, a.grad_fn.name())
a.sum().backward()
print(z.grad)
x = torch.tensor([-2., 0., 3., -0.], requires_grad=True)
ax = x.angle()
print(ax, ax.grad_fn.name())
ax.sum().backward()
print(x.grad)
x64 = torch.tensor([-1., 2.], dtype=torch.float64, requires_grad=True)
torch.angle(x64).sum().backward()
print(x64.grad)
print(torch.tensor([1, -1, 0]).angle())
print(torch.tensor([True, False]).angle())
'''

PROGRAMS['cx_backward_complex_scalar_errors'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
s = (z * z).sum()
print(s)
E(lambda: s.backward())
E(lambda: torch.autograd.grad(s, z))
s.backward(torch.tensor(1 + 0j), retain_graph=True)
print(z.grad)
z.grad = None
s.backward(torch.tensor(1j))
print(z.grad)
z.grad = None
t = (z * z).sum()
E(lambda: t.backward(torch.tensor(1.)))
E(lambda: t.backward(torch.tensor([1 + 0j])))
g, = torch.autograd.grad(t, z, torch.tensor(2 - 1j))
print(g)
u = z.abs().sum()
E(lambda: u.backward(torch.tensor(1 + 0j)))
'''

PROGRAMS['cx_grad_outputs_complex_nonscalar'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j, -0.5j], requires_grad=True)
y = z.exp()
v = torch.tensor([1 + 0j, 0 + 1j, 2 - 2j])
g, = torch.autograd.grad(y, z, grad_outputs=v, retain_graph=True)
print(g)
print(v * y.detach().conj())
g2, = torch.autograd.grad([y], [z], grad_outputs=[torch.ones_like(y)], retain_graph=True)
print(g2)
E(lambda: torch.autograd.grad(y, z))
E(lambda: torch.autograd.grad(y, z, grad_outputs=torch.ones(3)))
E(lambda: torch.autograd.grad(y, z, grad_outputs=torch.ones(2, dtype=torch.cfloat)))
y.backward(v)
print(z.grad)
x = torch.tensor([0.5, -1.], requires_grad=True)
w = x * (1 + 2j)
gx, = torch.autograd.grad(w, x, torch.tensor([1 - 1j, 1j]))
print(gx, gx.dtype)
'''

# ---- conj() views: the conjugate bit, resolve_conj, gradients and in-place writes through them

PROGRAMS['cx_conj_view_bits_and_grads'] = PRE + r'''
z = torch.tensor([1 + 2j, -1 - 1j, 0.5j], requires_grad=True)
c = z.conj()
print(c.is_conj(), z.is_conj(), c._base is z, c.grad_fn.name())
r = c.resolve_conj()
print(r.is_conj(), r.grad_fn.name() if r.grad_fn else None)
p = z.conj_physical()
print(p.is_conj(), p.grad_fn.name())
loss = (c * torch.tensor([1j, 2., 1 - 1j])).real.sum()
loss.backward()
print(z.grad)
z.grad = None
(c.conj() * c).real.sum().backward()
print(z.grad)
print(c.conj().is_conj(), c.conj()._base is z)
x = torch.tensor([1., 2.], requires_grad=True)
print(x.conj() is x, x.conj().is_conj(), x.conj_physical().grad_fn)
print(torch.is_conj(c), torch.resolve_conj(c).is_conj())
print(c.imag, c.imag.grad_fn.name())
'''

PROGRAMS['cx_conj_view_inplace_writes'] = PRE + r'''
base = torch.tensor([1 + 1j, 2 - 3j])
c = base.conj()
c.mul_(2)
print(base, c, c.is_conj())
c.add_(1j)
print(base)
c[0] = 5 + 5j
print(base)
a = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
y = a * 1
v = y.conj()
v.mul_(1j)
print(y.grad_fn.name(), v.grad_fn.name(), v.is_conj())
y.abs().sum().backward()
print(a.grad)
E(lambda: a.conj().mul_(2))
w = torch.zeros(2, dtype=torch.cfloat)
w.conj().copy_(torch.tensor([1j, 2 + 2j]))
print(w)
'''

PROGRAMS['cx_conj_view_in_products'] = PRE + r'''
torch.manual_seed(3)
A = torch.randn(2, 3, dtype=torch.cfloat, requires_grad=True)
B = torch.randn(3, 2, dtype=torch.cfloat)
H = A.conj().t()
print(H.is_conj(), H.shape)
out = A @ A.mH
print(out)
print(out.grad_fn.name())
out.diagonal().real.sum().backward()
print(A.grad)
A.grad = None
torch.mm(A, B.conj()).abs().sum().backward()
print(A.grad)
print(torch.mm(A.detach().conj(), B).is_conj())
print(torch.matmul(A.detach(), B).conj().is_conj())
print(torch.vdot(A.detach()[0], A.detach()[1]))
print(torch.dot(A.detach()[0].conj(), A.detach()[1]))
'''

# ---- complex products

PROGRAMS['cx_mm_bmm_einsum_grads'] = PRE + r'''
torch.manual_seed(4)
a = torch.randn(2, 3, 4, dtype=torch.cfloat, requires_grad=True)
b = torch.randn(2, 4, 2, dtype=torch.cfloat, requires_grad=True)
c = torch.bmm(a, b)
print(c.grad_fn.name(), c.shape)
c.abs().pow(2).sum().backward()
print(a.grad[0])
print(b.grad[1])
a.grad = b.grad = None
e = torch.einsum('bij,bjk->bik', a, b)
print(torch.equal(e, c))
e.real.sum().backward()
print(a.grad[1, 0], b.grad[0, :, 0])
x = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
y = torch.einsum('i,i->', x, x.conj())
print(y, y.grad_fn.name())
y.real.backward()
print(x.grad, 2 * x.detach())
'''

PROGRAMS['cx_matmul_real_complex_mix'] = PRE + r'''
torch.manual_seed(5)
W = torch.randn(3, 3, requires_grad=True)
z = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
E(lambda: W @ z)
y = W.to(torch.cfloat) @ z
print(y, y.grad_fn.name())
y.abs().sum().backward()
print(W.grad)
print(z.grad)
E(lambda: torch.mm(W, z.view(3, 1)))
E(lambda: torch.mv(W, z))
E(lambda: torch.matmul(z.double(), W))
print(torch.matmul(z, W.cfloat()).dtype, (W.cdouble() @ z.cdouble()).dtype)
'''

PROGRAMS['cx_linear_layer_complex_weights'] = PRE + r'''
torch.manual_seed(6)
lin = torch.nn.Linear(3, 2, dtype=torch.cfloat)
print(lin.weight.dtype, lin.bias.dtype)
print(lin.weight)
x = torch.randn(4, 3, dtype=torch.cfloat)
out = lin(x)
print(out.grad_fn.name())
loss = out.abs().pow(2).mean()
print(loss)
loss.backward()
print(lin.weight.grad)
print(lin.bias.grad)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
opt.step()
print(lin.bias)
E(lambda: lin(torch.randn(4, 3)))
'''

# ---- complex elementwise functions and their gradients

PROGRAMS['cx_exp_log_sqrt_grads'] = PRE + r'''
z = torch.tensor([1 + 1j, -2 + 0.5j, 0.3 - 0.7j], requires_grad=True)
for name in ['exp', 'log', 'sqrt', 'rsqrt', 'log2', 'log10', 'log1p', 'expm1']:
    z.grad = None
    y = getattr(torch, name)(z)
    y.abs().sum().backward()
    print(name, y.grad_fn.name(), y.detach(), z.grad)
'''

PROGRAMS['cx_trig_hyperbolic_grads'] = PRE + r'''
z = torch.tensor([0.5 + 0.25j, -1 + 2j, 1j], dtype=torch.cdouble, requires_grad=True)
for name in ['sin', 'cos', 'tan', 'sinh', 'cosh', 'tanh', 'asin', 'acos', 'atan', 'asinh', 'acosh', 'atanh']:
    z.grad = None
    y = getattr(torch, name)(z)
    (y * y.conj()).real.sum().backward()
    print(name, z.grad)
'''

PROGRAMS['cx_reciprocal_pow_sigmoid_grads'] = PRE + r'''
z = torch.tensor([1 + 1j, -0.5 + 2j, 2 - 0.1j], requires_grad=True)
y = z.reciprocal()
print(y, y.grad_fn.name())
y.real.sum().backward()
print(z.grad)
for e in [2, 3, 0.5, -1, 1 + 1j, 0]:
    z.grad = None
    w = z ** e
    w.abs().sum().backward()
    print(e, w.grad_fn.name(), z.grad)
z.grad = None
s = torch.sigmoid(z)
print(s, s.grad_fn.name())
s.imag.sum().backward()
print(z.grad)
z.grad = None
p = torch.pow(z, torch.tensor([2., 1., 0.5]))
p.abs().sum().backward()
print(z.grad)
'''

PROGRAMS['cx_pow_complex_exponent_grads'] = PRE + r'''
base = torch.tensor([2 + 1j, 0.5 - 0.5j], requires_grad=True)
ex = torch.tensor([1 - 1j, 2 + 0.5j], requires_grad=True)
y = base ** ex
print(y, y.grad_fn.name())
y.abs().sum().backward()
print(base.grad, ex.grad)
s = torch.tensor(2., requires_grad=True)
t = s ** ex
t.real.sum().backward()
print(s.grad, t.grad_fn.name())
ex.grad = None
u = 3 ** ex
u.imag.sum().backward()
print(ex.grad, u.grad_fn.name())
z = torch.tensor([0j, 1 + 0j], requires_grad=True)
(z ** 2).abs().sum().backward()
print(z.grad)
'''

PROGRAMS['cx_division_grads_and_by_zero'] = PRE + r'''
a = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
b = torch.tensor([0.5 - 1j, 2j], requires_grad=True)
q = a / b
print(q, q.grad_fn.name())
q.abs().sum().backward()
print(a.grad, b.grad)
a.grad = b.grad = None
r = a / 2
r.real.sum().backward()
print(a.grad)
x = torch.tensor([1., 2.], requires_grad=True)
w = x / b
print(w.dtype)
w.abs().sum().backward()
print(x.grad, b.grad)
print(torch.tensor([1 + 1j, 0j]) / torch.tensor([0j, 0j]))
print(torch.tensor([1 + 1j]) / 0)
print(torch.div(a.detach(), b.detach(), rounding_mode=None))
E(lambda: torch.div(a, b, rounding_mode='floor'))
E(lambda: a // b)
E(lambda: a % b)
'''

PROGRAMS['cx_where_and_masking'] = PRE + r'''
z = torch.tensor([1 + 1j, -2 + 0.5j, 0.1 - 3j, 2j], requires_grad=True)
mask = z.detach().abs() > 1.5
y = torch.where(mask, z * 2, z.conj())
print(y, y.grad_fn.name())
y.real.sum().backward()
print(z.grad)
z.grad = None
w = torch.where(mask, z, 0)
print(w)
w.abs().sum().backward()
print(z.grad)
z.grad = None
v = torch.where(mask, z, torch.tensor(1.))
print(v.dtype)
v.imag.sum().backward()
print(z.grad)
print(torch.where(torch.tensor([True, False]), torch.tensor([1 + 1j, 2j]), torch.tensor([0., 5.])))
print(z.detach()[mask], z.detach().masked_fill(~mask, 1j))
E(lambda: z.detach() > 0)
E(lambda: torch.where(z.detach(), 1, 0))
'''

# ---- torch.fft with gradients: norms, lengths, real-to-complex and back

PROGRAMS['fft_fft_ifft_norms_grads'] = PRE + r'''
torch.manual_seed(10)
x = torch.randn(6, dtype=torch.cfloat, requires_grad=True)
for norm in [None, 'backward', 'ortho', 'forward']:
    x.grad = None
    X = torch.fft.fft(x, norm=norm)
    (X.abs() ** 2).sum().backward()
    print(norm, X.grad_fn.name(), x.grad)
    x.grad = None
    torch.fft.ifft(x, norm=norm).real.sum().backward()
    print(x.grad)
'''

PROGRAMS['fft_n_shorter_longer_than_input'] = PRE + r'''
torch.manual_seed(11)
x = torch.randn(5, dtype=torch.cfloat, requires_grad=True)
for n in [3, 5, 8, 7]:
    x.grad = None
    X = torch.fft.fft(x, n=n)
    print(n, X.shape)
    X.abs().sum().backward()
    print(x.grad)
E(lambda: torch.fft.fft(x, n=0))
E(lambda: torch.fft.fft(x, n=-1))
E(lambda: torch.fft.fft(x, dim=1))
print(torch.fft.fft(torch.ones(1, dtype=torch.cfloat)))
'''

PROGRAMS['fft_rfft_irfft_even_odd_grads'] = PRE + r'''
torch.manual_seed(12)
for n in [8, 7]:
    x = torch.randn(n, requires_grad=True)
    X = torch.fft.rfft(x)
    print(n, X.shape, X.grad_fn.name())
    (X.abs() ** 2).sum().backward()
    print(x.grad)
    x.grad = None
    y = torch.fft.irfft(torch.fft.rfft(x), n=n)
    print(torch.allclose(y, x), y.grad_fn.name())
    (y * torch.arange(n)).sum().backward()
    print(x.grad)
Z = torch.randn(5, dtype=torch.cfloat, requires_grad=True)
y = torch.fft.irfft(Z)
print(y.shape)
y.pow(2).sum().backward()
print(Z.grad)
'''

PROGRAMS['fft_irfft_n_and_norm_grads'] = PRE + r'''
torch.manual_seed(13)
Z = torch.randn(4, dtype=torch.cfloat, requires_grad=True)
for n, norm in [(6, None), (7, 'ortho'), (4, 'forward'), (10, 'backward'), (3, 'ortho')]:
    Z.grad = None
    y = torch.fft.irfft(Z, n=n, norm=norm)
    (y * torch.linspace(-1, 1, n)).sum().backward()
    print(n, norm, y.shape, Z.grad)
E(lambda: torch.fft.irfft(Z, n=0))
E(lambda: torch.fft.irfft(torch.randn(1, dtype=torch.cfloat)))
E(lambda: torch.fft.irfft(Z, norm='sum'))
'''

PROGRAMS['fft_rfft_n_padding_truncation'] = PRE + r'''
torch.manual_seed(14)
x = torch.randn(2, 6, dtype=torch.float64, requires_grad=True)
for n in [4, 6, 9, 12]:
    x.grad = None
    X = torch.fft.rfft(x, n=n, dim=-1, norm='ortho')
    print(n, X.shape)
    X.real.sum().backward(retain_graph=True)
    print(x.grad)
E(lambda: torch.fft.rfft(x.cdouble()))
E(lambda: torch.fft.rfft(x.int()))
print(torch.fft.rfft(torch.arange(4)).dtype, torch.fft.fft(torch.arange(4)).dtype)
print(torch.fft.rfft(torch.arange(4)))
'''

PROGRAMS['fft_fft2_fftn_grads'] = PRE + r'''
torch.manual_seed(15)
img = torch.randn(4, 5, requires_grad=True)
F = torch.fft.fft2(img)
print(F.dtype, F.shape, F.grad_fn.name())
(F.abs() ** 2).sum().backward()
print(img.grad)
img.grad = None
G = torch.fft.fftn(img, s=(3, 6), norm='ortho')
print(G.shape)
G.abs().sum().backward()
print(img.grad)
img.grad = None
H = torch.fft.fftn(img, dim=(0,))
H.imag.sum().backward()
print(img.grad)
E(lambda: torch.fft.fft2(torch.randn(4)))
E(lambda: torch.fft.fftn(img, s=(3,), dim=(0, 1)))
E(lambda: torch.fft.fftn(img, dim=(0, 0)))
'''

PROGRAMS['fft_rfftn_irfftn_round_trip_grads'] = PRE + r'''
torch.manual_seed(16)
x = torch.randn(3, 4, 6, requires_grad=True)
X = torch.fft.rfftn(x, dim=(1, 2))
print(X.shape, X.grad_fn.name())
y = torch.fft.irfftn(X * 0.5, s=(4, 6), dim=(1, 2))
print(y.grad_fn.name(), torch.allclose(y, 0.5 * x, atol=1e-6))
(y ** 2).sum().backward()
print(x.grad[0])
x.grad = None
Y = torch.fft.rfft2(x, norm='forward')
Y.abs().sum().backward()
print(Y.shape, x.grad[1])
Zc = torch.randn(3, 3, dtype=torch.cfloat, requires_grad=True)
out = torch.fft.irfft2(Zc, s=(3, 5))
print(out.shape)
out.sum().backward()
print(Zc.grad)
'''

PROGRAMS['fft_hfft_ihfft_grads'] = PRE + r'''
torch.manual_seed(17)
z = torch.randn(4, dtype=torch.cfloat, requires_grad=True)
h = torch.fft.hfft(z)
print(h.shape, h.dtype, h.grad_fn.name())
(h * torch.arange(6.)).sum().backward()
print(z.grad)
z.grad = None
h7 = torch.fft.hfft(z, n=7, norm='ortho')
h7.pow(2).sum().backward()
print(h7, z.grad)
x = torch.randn(6, requires_grad=True)
ih = torch.fft.ihfft(x)
print(ih, ih.grad_fn.name())
ih.abs().sum().backward()
print(x.grad)
E(lambda: torch.fft.ihfft(z))
print(torch.allclose(torch.fft.hfft(torch.fft.ihfft(x), n=6), x.detach(), atol=1e-6))
'''

PROGRAMS['fft_fftshift_ifftshift_grads'] = PRE + r'''
x = torch.arange(10.).reshape(2, 5).requires_grad_()
s = torch.fft.fftshift(x)
print(s, s.grad_fn.name())
print(torch.fft.ifftshift(s))
print(torch.fft.fftshift(x, dim=1), torch.fft.fftshift(x, dim=(0,)))
(s * torch.arange(10.).reshape(2, 5)).sum().backward()
print(x.grad)
f = torch.fft.fftfreq(6)
print(f, torch.fft.fftshift(f))
print(torch.fft.rfftfreq(7, d=0.5))
print(torch.fft.fftfreq(5, 0.1, dtype=torch.float64))
z = torch.fft.fft(torch.ones(4, requires_grad=True))
zs = torch.fft.fftshift(z)
print(zs, zs.grad_fn.name())
E(lambda: torch.fft.fftfreq(0))
E(lambda: torch.fft.fftfreq(4, dtype=torch.int64))
'''

PROGRAMS['fft_spectral_loss_sgd_training'] = PRE + r'''
torch.manual_seed(18)
t = torch.linspace(0, 1, 16)
target = torch.sin(2 * torch.pi * 3 * t) + 0.5 * torch.cos(2 * torch.pi * 5 * t)
signal = torch.zeros(16, requires_grad=True)
opt = torch.optim.SGD([signal], lr=0.05)
T = torch.fft.rfft(target)
for step in range(6):
    opt.zero_grad()
    S = torch.fft.rfft(signal)
    loss = (S - T).abs().pow(2).mean()
    loss.backward()
    opt.step()
    print(step, loss.item())
print(signal)
print(torch.fft.rfft(signal.detach()).abs())
'''

PROGRAMS['fft_magnitude_loss_on_real_signal'] = PRE + r'''
torch.manual_seed(19)
x = torch.randn(2, 12, requires_grad=True)
opt = torch.optim.SGD([x], lr=0.1, momentum=0.9)
target_mag = torch.zeros(2, 7)
target_mag[:, 2] = 3.
for step in range(5):
    opt.zero_grad()
    mag = torch.fft.rfft(x, norm='ortho').abs()
    loss = torch.nn.functional.mse_loss(mag, target_mag)
    loss.backward()
    opt.step()
    print(step, f'{loss.item():.6f}', x.grad.norm().item())
print(x)
'''

# ---- stft / istft

PROGRAMS['stft_window_grads_and_shapes'] = PRE + r'''
torch.manual_seed(20)
x = torch.randn(64, requires_grad=True)
win = torch.hann_window(16)
S = torch.stft(x, n_fft=16, hop_length=4, window=win, return_complex=True)
print(S.shape, S.dtype, S.grad_fn.name())
(S.abs() ** 2).sum().backward()
print(x.grad[:8])
print(x.grad[-4:])
x.grad = None
S2 = torch.stft(x, 16, hop_length=8, window=win, center=False, return_complex=True, normalized=True)
print(S2.shape)
S2.abs().sum().backward()
print(x.grad[:6])
E(lambda: torch.stft(x, 16))
E(lambda: torch.stft(x, 16, return_complex=False).shape)
E(lambda: torch.stft(x, 128, return_complex=True))
'''

PROGRAMS['stft_istft_round_trip_grads'] = PRE + r'''
torch.manual_seed(21)
x = torch.randn(2, 40, dtype=torch.float64, requires_grad=True)
win = torch.hann_window(8, dtype=torch.float64)
S = torch.stft(x, 8, hop_length=2, window=win, return_complex=True)
y = torch.istft(S, 8, hop_length=2, window=win, length=40)
print(y.shape, y.grad_fn.name(), torch.allclose(y, x))
(y * torch.arange(40.)).sum().backward()
print(x.grad[0, :6])
print(x.grad[1, -3:])
Sc = torch.randn(5, 11, dtype=torch.cfloat, requires_grad=True)
z = torch.istft(Sc, 8, hop_length=2, window=torch.hann_window(8), onesided=True)
print(z.shape)
z.pow(2).sum().backward()
print(Sc.grad[:, 0])
'''

PROGRAMS['stft_onesided_false_and_complex_input'] = PRE + r'''
torch.manual_seed(22)
z = torch.randn(32, dtype=torch.cfloat, requires_grad=True)
S = torch.stft(z, 8, hop_length=4, window=torch.ones(8), return_complex=True)
print(S.shape)
S.real.sum().backward()
print(z.grad[:5])
E(lambda: torch.stft(z, 8, onesided=True, return_complex=True))
x = torch.randn(32, requires_grad=True)
S2 = torch.stft(x, 8, hop_length=4, onesided=False, return_complex=True, pad_mode='constant')
print(S2.shape)
S2.imag.sum().backward()
print(x.grad[:5])
E(lambda: torch.stft(x, 8, hop_length=0, return_complex=True))
E(lambda: torch.stft(x, 8, win_length=9, return_complex=True))
E(lambda: torch.stft(x, 8, window=torch.ones(5), return_complex=True))
'''

# ---- complex gradcheck

PROGRAMS['gc_complex_fast_and_slow_mode'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
torch.manual_seed(23)
z = torch.randn(3, dtype=torch.cdouble, requires_grad=True)
w = torch.randn(3, dtype=torch.cdouble, requires_grad=True)
for fast in [False, True]:
    print(gradcheck(lambda a, b: a * b.conj(), (z, w), fast_mode=fast))
    print(gradcheck(lambda a: torch.fft.fft(a, norm='ortho'), (z,), fast_mode=fast))
    print(gradcheck(lambda a: a.abs(), (z,), fast_mode=fast))
    print(gradcheck(lambda a: torch.view_as_real(a.exp()), (z,), fast_mode=fast))
    print(gradcheck(lambda a: torch.fft.irfft(a, n=4), (z,), fast_mode=fast))
print(gradgradcheck(lambda a: (a * a).sin(), (z,)))
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda t: torch.fft.rfft(t), (x,)))
print(gradcheck(lambda t: torch.fft.hfft(torch.fft.rfft(t)), (x,), fast_mode=True))
'''

PROGRAMS['gc_complex_wrong_gradient_is_caught'] = PRE + r'''
from torch.autograd import gradcheck
class BadConj(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return 2 * g * z  # missing conj
z = torch.tensor([1 + 1j, 0.5 - 2j], dtype=torch.cdouble, requires_grad=True)
for fast in [False, True]:
    try:
        gradcheck(BadConj.apply, (z,), fast_mode=fast)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
    print(gradcheck(BadConj.apply, (z,), fast_mode=fast, raise_exception=False))
class Good(BadConj):
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return 2 * g * z.conj()
print(gradcheck(Good.apply, (z,)), gradcheck(Good.apply, (z,), fast_mode=True))
E(lambda: gradcheck(lambda a: a * 2, (z.cfloat().detach().requires_grad_(),)))
'''

# ---- torch.func transforms of complex functions

PROGRAMS['func_grad_vjp_complex_inputs'] = PRE + r'''
from torch.func import grad, vjp, grad_and_value
z = torch.tensor([1 + 2j, -0.5 + 1j, 3 - 1j])
f = lambda t: (t * t.conj()).real.sum()
print(grad(f)(z))
print(grad(lambda t: t.abs().sum())(z))
print(grad(lambda t: torch.fft.fft(t).abs().pow(2).sum())(z))
g, v = grad_and_value(lambda t: t.angle().sum())(z)
print(g, v)
E(lambda: grad(lambda t: (t * t).sum())(z))
out, fn = vjp(torch.exp, z)
print(out)
print(fn(torch.ones_like(out)))
print(fn(torch.tensor([1j, 0j, 1 + 0j])))
out2, fn2 = vjp(lambda t: torch.fft.rfft(t), torch.tensor([1., 2., 3., 4.]))
print(out2, fn2(torch.ones_like(out2)))
'''

PROGRAMS['func_jacrev_jacfwd_complex'] = PRE + r'''
from torch.func import jacrev, jacfwd, jvp
x = torch.tensor([0.5, -1., 2.])
f = lambda t: torch.fft.rfft(t).abs()
print(jacrev(f)(x))
print(jacfwd(f)(x))
g = lambda t: torch.view_as_real(torch.polar(t, t))
print(jacrev(g)(x).shape, jacfwd(g)(x)[0])
z = torch.tensor([1 + 1j, 2 - 1j])
E(lambda: jacrev(lambda t: t * t)(z))
E(lambda: jacrev(lambda t: (t * t).abs())(z))
out, tan = jvp(lambda t: t.exp(), (z,), (torch.tensor([1 + 0j, 1j]),))
print(out, tan)
out, tan = jvp(lambda t: torch.fft.fft(t), (z,), (torch.ones_like(z),))
print(out, tan)
out, tan = jvp(lambda t: torch.fft.irfft(t), (z,), (torch.ones_like(z),))
print(out, tan)
'''

PROGRAMS['func_vmap_over_complex_fft'] = PRE + r'''
from torch.func import vmap, grad
torch.manual_seed(24)
xs = torch.randn(3, 8)
spec = vmap(lambda t: torch.fft.rfft(t, norm='ortho'))(xs)
print(spec.shape, torch.allclose(spec, torch.fft.rfft(xs, norm='ortho')))
energy = lambda t: torch.fft.rfft(t).abs().pow(2).sum()
gs = vmap(grad(energy))(xs)
print(gs)
zs = torch.randn(2, 4, dtype=torch.cfloat)
print(vmap(lambda t: (t.conj() * t).real.sum())(zs))
print(vmap(grad(lambda t: t.abs().sum()))(zs))
print(vmap(torch.fft.fftshift)(torch.arange(6.).reshape(2, 3)))
'''

# ---- mixing complex with float16 / float64 / integer operands

PROGRAMS['mix_promotion_with_complex_operands'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j])
print((z + torch.tensor([1., 2.], dtype=torch.float64)).dtype)
print((z * torch.tensor([1, 2])).dtype, (torch.tensor([1, 2]) * 1j).dtype)
print((torch.tensor([1., 2.], dtype=torch.float64) * 1j).dtype)
print((torch.tensor([1., 2.], dtype=torch.float16) * 1j).dtype)
print((torch.tensor([1., 2.], dtype=torch.bfloat16) + 1j).dtype)
print((z.cdouble() + torch.tensor([1.], dtype=torch.float16)).dtype)
print((z + torch.tensor(1., dtype=torch.float64)).dtype, (z + torch.tensor([1.], dtype=torch.float64)).dtype)
print((torch.tensor(1 + 1j, dtype=torch.cdouble) + torch.ones(2)).dtype)
print(torch.result_type(z, 2.5), torch.result_type(torch.ones(2, dtype=torch.float64), 1j))
print(torch.promote_types(torch.float16, torch.complex64), torch.promote_types(torch.float64, torch.complex64))
print(torch.promote_types(torch.int64, torch.complex32), torch.can_cast(torch.cfloat, torch.float))
print(torch.tensor([True, False]) * (2 + 1j))
print(torch.tensor([1, 2], dtype=torch.uint8) / (1 - 1j))
'''

# fixed: a half tensor's add_(1j) warned three times (complex32 operand casts) before PyTorch's cast error
PROGRAMS['mix_complex_inplace_cast_errors'] = PRE + r'''
x = torch.zeros(2)
E(lambda: x.add_(1j))
E(lambda: x.mul_(torch.tensor([1j, 1j])))
E(lambda: x.copy_(torch.tensor([1 + 1j, 2j])) )
print(x)
i = torch.tensor([1, 2])
E(lambda: i.add_(torch.tensor([0.5j, 1j])))
z = torch.zeros(2, dtype=torch.cfloat)
z.add_(torch.tensor([1, 2]))
z.mul_(torch.tensor([0.5, 2.], dtype=torch.float64))
print(z)
z += 1j
print(z)
E(lambda: torch.tensor([1j], requires_grad=True).add_(1))
h = torch.zeros(2, dtype=torch.half)
E(lambda: h.add_(1j))
print(torch.zeros(2).to(torch.cfloat) + 1j)
x[0] = 3
E(lambda: x.__setitem__(1, 1j))
print(x)
'''

# fixed: a float16 input's complex32 gradient was cast ("Casting complex values to real" warning), not its
# real part taken; abs of complex32 gave no allocation warning (PyTorch's complex temporary)
PROGRAMS['mix_grads_across_dtypes_with_complex'] = PRE + r'''
x64 = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
z = torch.tensor([1 + 1j, -1j], requires_grad=True)
y = x64 * z
print(y.dtype, y.grad_fn.name())
y.abs().sum().backward()
print(x64.grad, x64.grad.dtype)
print(z.grad, z.grad.dtype)
h = torch.tensor([0.5, 1.5], dtype=torch.float16, requires_grad=True)
w = h * 2j
print(w.dtype)
E(lambda: w.abs().sum().backward())
print(h.grad)
i = torch.tensor([1, 2])
v = z * i
v.real.sum().backward()
print(z.grad)
E(lambda: torch.tensor([1, 2], dtype=torch.int64, requires_grad=True))
E(lambda: torch.tensor([1j, 2], dtype=torch.complex32, requires_grad=True).abs())
'''

PROGRAMS['mix_complex_comparisons_and_unsupported'] = PRE + r'''
z = torch.tensor([1 + 1j, -2 + 0.5j, 0.1 - 3j])
E(lambda: z < 0)
E(lambda: z.max())
E(lambda: torch.sort(z))
E(lambda: z.clamp(min=0))
E(lambda: torch.relu(z))
E(lambda: torch.floor(z))
E(lambda: torch.sign(z))
print(torch.sgn(z))
print(z == z.conj(), z != 1 + 1j)
E(lambda: torch.maximum(z, z))
E(lambda: z.argmax())
E(lambda: torch.topk(z, 1))
print(torch.isclose(z, z + 1e-9), torch.isfinite(z), torch.isreal(z))
print(z.abs().argmax(), z[z.abs().argmax()])
E(lambda: torch.nn.functional.softmax(z, 0))
E(lambda: torch.atan2(z, z))
'''

# ---- printing complex gradients

PROGRAMS['pr_complex_grads_negative_zero_nan'] = PRE + r'''
z = torch.tensor([0j, -0.0 + 0j, 1j, -1 + 0j], requires_grad=True)
z.abs().sum().backward()
print(z.grad)
z.grad = None
z.sqrt().real.sum().backward()
print(z.grad)
z.grad = None
z.log().abs().sum().backward()
print(z.grad)
z.grad = None
(z * -1).real.sum().backward()
print(z.grad)
print(torch.tensor([complex('nan'), complex(float('inf'), -0.0)]))
print(torch.tensor([-0.0 - 0.0j, 0.0 - 0.0j]), -torch.tensor([0j]))
print(torch.tensor(complex(float('nan'), 1.)), torch.tensor(complex(1., float('-inf'))))
'''

PROGRAMS['pr_complex_tiny_huge_and_precision'] = PRE + r'''
z = torch.tensor([1e-10 + 1j, 3e8 - 2e-5j, 0.5 + 0j], requires_grad=True)
print(z)
(z * z).abs().sum().backward()
print(z.grad)
print(torch.tensor([1e-40 + 1e-40j]), torch.tensor([3.4e38 + 0j]) * 10)
torch.set_printoptions(precision=2)
print(z.grad)
print(torch.tensor([1.23456 + 6.54321j, -0.001 + 100j]))
torch.set_printoptions(precision=6, sci_mode=True)
print(z.detach())
print(torch.tensor([1.5 + 0.25j]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-10 + 1e10j]))
torch.set_printoptions(profile='default')
print(torch.tensor([1e-10 + 1e10j], dtype=torch.cdouble))
'''

PROGRAMS['pr_complex_grads_of_fft_summaries'] = PRE + r'''
torch.manual_seed(30)
x = torch.randn(1200, dtype=torch.cfloat, requires_grad=True)
X = torch.fft.fft(x, norm='ortho')
X.abs().sum().backward()
print(x.grad)
print(X)
torch.set_printoptions(threshold=5, edgeitems=2, linewidth=60)
print(x.grad.reshape(30, 40))
torch.set_printoptions(profile='default')
print(torch.fft.fft(torch.ones(7)))
print(torch.fft.ifft(torch.arange(5.)))
'''

# fixed: isreal of complex32 raised a NumPy TypeError; refused complex32 kernels gave no allocation warning first;
# mm's kernel name (addmm_impl_cpu_)
PROGRAMS['mix_half_times_1j_is_complex32'] = PRE + r'''
h = torch.tensor([0.5, -1.5, 2.], dtype=torch.float16, requires_grad=True)
w = h * 1j
print(w.dtype)
print(w.abs(), torch.isreal(w), torch.isreal(w + 1))
E(lambda: w.exp())
E(lambda: w.sum())
E(lambda: w / 2)
E(lambda: torch.mm(w.view(3, 1), w.view(1, 3)))
E(lambda: torch.dot(w, w))
E(lambda: torch.zeros(3, dtype=torch.float16).add_(1j))
E(lambda: torch.zeros(3, dtype=torch.float16).mul_(w))
(w.abs() * torch.tensor([1., 2., 3.], dtype=torch.float16)).sum().backward()
print(h.grad)
h.grad = None
v = h * torch.tensor(2 - 1j, dtype=torch.complex64)
print(v.dtype)
v.real.sum().backward()
print(h.grad)
'''

# ---- norms and reductions of complex tensors

PROGRAMS['cx_norms_of_complex_grads'] = PRE + r'''
z = torch.tensor([[3 + 4j, 1 - 1j], [0j, -2j]], requires_grad=True)
for f in [lambda t: torch.linalg.norm(t), lambda t: torch.linalg.vector_norm(t), lambda t: torch.linalg.vector_norm(t, 1),
          lambda t: torch.linalg.vector_norm(t, float('inf')), lambda t: torch.linalg.vector_norm(t, 3, dim=1),
          lambda t: torch.linalg.matrix_norm(t), lambda t: t.norm(), lambda t: torch.norm(t, dim=0)]:
    z.grad = None
    n = f(z)
    print(n, n.dtype)
    n.sum().backward()
    print(z.grad)
E(lambda: torch.linalg.vector_norm(z, dtype=torch.float32))
print(torch.linalg.vector_norm(z, dtype=torch.cdouble))
'''

PROGRAMS['cx_sum_mean_prod_cumsum_grads'] = PRE + r'''
z = torch.tensor([[1 + 1j, 2 - 1j, 0.5j], [-1 + 0j, 3 + 2j, 1 - 0.5j]], requires_grad=True)
for name in ['sum', 'mean', 'prod']:
    z.grad = None
    r = getattr(z, name)(dim=1)
    print(name, r, r.grad_fn.name())
    r.abs().sum().backward()
    print(z.grad)
for name in ['cumsum', 'cumprod']:
    z.grad = None
    r = getattr(torch, name)(z, dim=1)
    r.real.sum().backward()
    print(name, r.grad_fn.name(), z.grad)
z.grad = None
z.sum().real.backward()
print(z.grad)
z.grad = None
torch.trace(z[:, :2]).imag.backward()
print(z.grad)
print(z.detach().var(), z.detach().std(dim=1))
'''

PROGRAMS['cx_var_std_and_mean_grads'] = PRE + r'''
torch.manual_seed(31)
z = torch.randn(5, dtype=torch.cfloat, requires_grad=True)
v = z.var()
print(v, v.dtype, v.grad_fn.name())
v.backward()
print(z.grad)
z.grad = None
s = z.std(correction=0)
s.backward()
print(s, z.grad)
z.grad = None
m = z.mean()
print(m)
(m * m.conj()).real.backward()
print(z.grad)
vm = torch.var_mean(z.detach())
print(vm)
'''

PROGRAMS['cx_parameters_trained_with_adam'] = PRE + r'''
torch.manual_seed(32)
target = torch.tensor([1 + 2j, -0.5 + 0.5j, 3j])
p = torch.nn.Parameter(torch.zeros(3, dtype=torch.cfloat))
print(p)
opt = torch.optim.Adam([p], lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = (p - target).abs().pow(2).sum()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), p.grad)
print(p)
print(opt.state[p]['exp_avg'], opt.state[p]['exp_avg_sq'])
'''

PROGRAMS['cx_parameters_sgd_momentum_rmsprop'] = PRE + r'''
torch.manual_seed(33)
for cls, kw in [(torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True)), (torch.optim.RMSprop, dict(lr=0.01)),
                (torch.optim.AdamW, dict(lr=0.05, weight_decay=0.1)), (torch.optim.Adagrad, dict(lr=0.1))]:
    p = torch.nn.Parameter(torch.tensor([1 - 1j, 0.5 + 2j]))
    opt = cls([p], **kw)
    for _ in range(3):
        opt.zero_grad()
        (p * p.conj()).real.sum().backward()
        opt.step()
    print(cls.__name__, p.detach())
'''

# ---- more FFT: double backward, layouts, batches, dtypes, out=

PROGRAMS['fft_double_backward_create_graph'] = PRE + r'''
x = torch.tensor([0.5, -1., 2., 0.25, 1.5], dtype=torch.float64, requires_grad=True)
E1 = torch.fft.rfft(x).abs().pow(2).sum()
g, = torch.autograd.grad(E1, x, create_graph=True)
print(g, g.grad_fn.name())
g.pow(2).sum().backward()
print(x.grad)
z = torch.tensor([1 + 1j, 0.5 - 2j, -1j], requires_grad=True)
F = torch.fft.fft(z, norm='ortho')
gz, = torch.autograd.grad(F.abs().sum(), z, create_graph=True)
print(gz)
gz.abs().sum().backward()
print(z.grad)
'''

PROGRAMS['fft_noncontiguous_and_batched_dims'] = PRE + r'''
torch.manual_seed(34)
x = torch.randn(4, 6, requires_grad=True)
xt = x.t()
print(xt.is_contiguous())
F = torch.fft.fft(xt, dim=0)
print(F.shape)
F.abs().sum().backward()
print(x.grad)
x.grad = None
G = torch.fft.rfft(x[:, ::2], dim=1)
print(G.shape, G.is_contiguous())
G.real.sum().backward()
print(x.grad)
x.grad = None
H = torch.fft.fft(x.unsqueeze(0).expand(3, 4, 6), dim=-2)
H.imag.sum().backward()
print(x.grad)
print(torch.fft.fft(x.detach(), dim=-3 + 1).shape)
'''

PROGRAMS['fft_dtypes_int_double_half'] = PRE + r'''
i = torch.arange(6)
print(torch.fft.fft(i).dtype, torch.fft.rfft(i).dtype, torch.fft.ifft(i))
d = torch.arange(6, dtype=torch.float64, requires_grad=True)
D = torch.fft.rfft(d)
print(D.dtype, D)
D.abs().sum().backward()
print(d.grad)
E(lambda: torch.fft.fft(torch.ones(4, dtype=torch.float16)))
E(lambda: torch.fft.fft(torch.ones(4, dtype=torch.bfloat16)))
E(lambda: torch.fft.rfft(torch.ones(4, dtype=torch.float16)))
E(lambda: torch.fft.fft(torch.tensor([True, False])))
print(torch.fft.fft(torch.tensor(3.)) if False else torch.fft.fft(torch.ones(1)))
E(lambda: torch.fft.fft(torch.tensor(3.)))
E(lambda: torch.fft.fft(torch.ones(0)))
'''

PROGRAMS['fft_out_argument_and_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.])
out = torch.empty(4, dtype=torch.cfloat)
r = torch.fft.fft(x, out=out)
print(r is out, out)
out2 = torch.empty(3, dtype=torch.cfloat)
torch.fft.rfft(x, out=out2)
print(out2)
E(lambda: torch.fft.fft(x, out=torch.empty(4)))
E(lambda: torch.fft.rfft(x, out=torch.empty(3, dtype=torch.cdouble)))
y = torch.empty(6)
torch.fft.irfft(torch.tensor([1 + 0j, 2j, 3 + 0j, 1 + 0j]), out=y)
print(y)
xr = torch.tensor([1., 2., 3., 4.], requires_grad=True)
E(lambda: torch.fft.fft(xr, out=torch.empty(4, dtype=torch.cfloat)))
'''

PROGRAMS['fft_ifftn_irfftn_norm_and_s'] = PRE + r'''
torch.manual_seed(35)
Z = torch.randn(3, 4, dtype=torch.cfloat, requires_grad=True)
for norm in ['backward', 'ortho', 'forward']:
    Z.grad = None
    y = torch.fft.ifftn(Z, s=(4, 3), norm=norm)
    y.abs().sum().backward()
    print(norm, y.shape, Z.grad[0])
    Z.grad = None
    r = torch.fft.irfftn(Z, norm=norm)
    print(r.shape)
    (r * r).sum().backward()
    print(Z.grad[:, 0], Z.grad[:, -1])
Z.grad = None
i2 = torch.fft.ifft2(Z, s=(2, 2))
i2.real.sum().backward()
print(i2, Z.grad)
'''

PROGRAMS['fft_hfftn_ihfftn_grads'] = PRE + r'''
torch.manual_seed(36)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
ih = torch.fft.ihfftn(x)
print(ih.shape, ih.dtype, ih.grad_fn.name())
ih.abs().sum().backward()
print(x.grad)
z = torch.randn(3, 3, dtype=torch.cdouble, requires_grad=True)
h = torch.fft.hfftn(z, s=(3, 4))
print(h.shape, h.dtype)
(h * torch.arange(12.).reshape(3, 4)).sum().backward()
print(z.grad)
z.grad = None
h2 = torch.fft.hfft2(z, norm='ortho')
h2.pow(2).sum().backward()
print(h2.shape, z.grad[0])
'''

PROGRAMS['fft_convolution_theorem_grads'] = PRE + r'''
torch.manual_seed(37)
a = torch.randn(8, requires_grad=True)
k = torch.randn(8, requires_grad=True)
conv = torch.fft.irfft(torch.fft.rfft(a) * torch.fft.rfft(k), n=8)
direct = torch.stack([(a * k.flip(0).roll(i + 1)).sum() for i in range(8)])
print(torch.allclose(conv, direct, atol=1e-5))
print(conv)
conv.pow(2).sum().backward()
print(a.grad)
print(k.grad)
a.grad = k.grad = None
corr = torch.fft.irfft(torch.fft.rfft(a) * torch.fft.rfft(k).conj(), n=8)
corr.max().backward()
print(corr.argmax(), a.grad, k.grad)
'''

PROGRAMS['fft_power_spectrum_of_sine_grads'] = PRE + r'''
n = 32
t = torch.arange(n, dtype=torch.float64)
freq = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
sig = torch.sin(2 * torch.pi * freq * t / n)
P = torch.fft.rfft(sig).abs() ** 2 / n
print(P[:6])
print(P.argmax())
P[3].backward()
print(freq.grad)
freq.grad = None
P2 = torch.fft.rfft(torch.sin(2 * torch.pi * freq * t / n) * torch.hann_window(n, dtype=torch.float64))
P2.abs()[2:5].sum().backward()
print(freq.grad)
print(torch.fft.rfftfreq(n, d=1 / n)[:6])
'''

# ---- custom Functions, hooks and retain_grad on complex tensors

PROGRAMS['cx_custom_function_wirtinger_backward'] = PRE + r'''
class AbsSq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return (z * z.conj()).real
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return 2 * g * z
z = torch.tensor([1 + 2j, -0.5 + 1j], requires_grad=True)
y = AbsSq.apply(z)
print(y, y.grad_fn.name() if hasattr(y.grad_fn, 'name') else None)
y.sum().backward()
print(z.grad)
class ReturnsReal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z * 2
    @staticmethod
    def backward(ctx, g):
        return g.real
z.grad = None
E(lambda: ReturnsReal.apply(z).abs().sum().backward())
print(z.grad)
x = torch.tensor([1., 2.], requires_grad=True)
class GivesComplexGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * (1 + 1j)
E(lambda: GivesComplexGrad.apply(x).sum().backward())
print(x.grad)
'''

PROGRAMS['cx_hooks_and_retain_grad'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 0.5j], requires_grad=True)
w = z * (2 - 1j)
w.retain_grad()
seen = []
w.register_hook(lambda g: seen.append(g.clone()))
h = z.register_hook(lambda g: g * 1j)
loss = w.abs().sum()
loss.backward()
print(w.grad)
print(seen[0])
print(z.grad)
h.remove()
z.grad = None
E(lambda: (w.real ** 2).sum().backward())
w = z * (2 - 1j)
r = w.real
r.retain_grad()
(r ** 2).sum().backward()
print(r.grad, z.grad, w.grad)
z.register_post_accumulate_grad_hook(lambda p: print('acc', p.grad))
z.grad = None
(z.conj() * z).real.sum().backward()
'''

PROGRAMS['cx_linalg_det_inv_solve_grads'] = PRE + r'''
A = torch.tensor([[2 + 1j, 1 - 1j], [0.5j, 3 + 0j]], dtype=torch.cdouble, requires_grad=True)
b = torch.tensor([1 + 0j, 1j], dtype=torch.cdouble, requires_grad=True)
d = torch.linalg.det(A)
print(d, d.grad_fn.name())
d.abs().backward()
print(A.grad)
A.grad = None
inv = torch.linalg.inv(A)
inv.real.sum().backward()
print(A.grad)
A.grad = None
x = torch.linalg.solve(A, b)
print(x)
x.abs().pow(2).sum().backward()
print(A.grad, b.grad)
s, l = torch.linalg.slogdet(A)
print(s, l)
'''

PROGRAMS['cx_linalg_eigh_svd_qr_grads'] = PRE + r'''
torch.manual_seed(38)
M = torch.randn(3, 3, dtype=torch.cdouble)
H = (M + M.mH).requires_grad_()
w, V = torch.linalg.eigh(H)
print(w)
w.sum().backward()
print(H.grad)
H.grad = None
torch.linalg.eigvalsh(H)[-1].backward()
print(H.grad.abs())
X = torch.randn(3, 2, dtype=torch.cdouble, requires_grad=True)
S = torch.linalg.svdvals(X)
print(S)
S.sum().backward()
print(X.grad.abs())
Q, R = torch.linalg.qr(X.detach().requires_grad_())
print(R.diagonal())
'''

PROGRAMS['cx_autograd_functional_jacobian_complex'] = PRE + r'''
from torch.autograd.functional import jacobian, vjp, jvp, hessian
x = torch.tensor([1., 2.])
f = lambda t: torch.fft.rfft(t).abs()
print(jacobian(f, x))
z = torch.tensor([1 + 1j, 2j])
E(lambda: jacobian(lambda t: t * t, z))
print(vjp(lambda t: (t * t).abs(), z, torch.ones(2)))
out, jv = jvp(lambda t: (t * t.conj()).real, z, torch.tensor([1 + 0j, 1j]))
print(out, jv)
print(hessian(lambda t: torch.fft.rfft(t).abs().pow(2).sum(), x))
print(jacobian(lambda t: torch.view_as_real(torch.fft.fft(t)), torch.tensor([1., 0., -1.])))
'''

PROGRAMS['cx_autograd_note_examples'] = PRE + r'''
# The "Autograd for Complex Numbers" note: f(z) = c * z and real losses of it
c = torch.tensor(2 - 3j)
z = torch.tensor(1 + 1j, requires_grad=True)
y = c * z
y.backward(torch.tensor(1 + 0j))
print(z.grad, c.conj())
z.grad = None
L = (c * z).abs() ** 2
L.backward()
print(z.grad, 2 * c.abs() ** 2 * z.detach())
z.grad = None
(z.conj() * z).real.backward()
print(z.grad)
z.grad = None
z.real.backward()
print(z.grad)
z.grad = None
z.imag.backward()
print(z.grad)
z.grad = None
torch.view_as_real(z).sum().backward()
print(z.grad)
print(torch.autograd.grad(z.angle(), z))
'''

PROGRAMS['cx_grads_batched_and_vmap_complex'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j, -1j], requires_grad=True)
y = z * z
vs = torch.eye(3, dtype=torch.cfloat)
g, = torch.autograd.grad(y, z, vs, is_grads_batched=True)
print(g)
from torch.func import vmap, vjp
_, fn = vjp(lambda t: torch.fft.fft(t), z.detach())
print(vmap(fn)(vs))
x = torch.tensor([0.5, 1., -2.], requires_grad=True)
Y = torch.fft.rfft(x)
g2, = torch.autograd.grad(Y, x, torch.eye(2, dtype=torch.cfloat), is_grads_batched=True)
print(g2)
'''

PROGRAMS['cx_nn_functional_with_complex'] = PRE + r'''
import torch.nn.functional as F
z = torch.tensor([1 + 1j, -2 + 0.5j, 0.1 - 3j], requires_grad=True)
t = torch.tensor([1 + 0j, -2j, 0.5 + 0.5j])
E(lambda: F.mse_loss(z, t))
E(lambda: F.l1_loss(z, t))
print(F.mse_loss(torch.view_as_real(z), torch.view_as_real(t)))
E(lambda: F.relu(z))
print(torch.tanh(z), torch.sigmoid(z).grad_fn.name())
E(lambda: F.softmax(z, dim=0))
print(F.linear(z, torch.ones(2, 3, dtype=torch.cfloat)))
E(lambda: F.linear(z, torch.ones(2, 3)))
E(lambda: F.gelu(z))
E(lambda: F.silu(z))
print(F.normalize(z, dim=0))
F.normalize(z, dim=0).real.sum().backward()
print(z.grad)
E(lambda: F.cross_entropy(z.unsqueeze(0), torch.tensor([1])))
'''

# ---- creating complex tensors and getting numbers out

# fixed: linspace with a complex end and no dtype raised (PyTorch infers the default complex dtype)
PROGRAMS['cx_factories_and_random_complex'] = PRE + r'''
torch.manual_seed(40)
print(torch.randn(2, 2, dtype=torch.cfloat))
print(torch.rand(3, dtype=torch.cdouble))
z = torch.randn(3, dtype=torch.cfloat)
print(torch.randn_like(z), torch.rand_like(z))
print(torch.full((2,), 1j), torch.full((2,), 1 + 0j).dtype, torch.full((2,), 2.5, dtype=torch.cfloat))
print(torch.ones(2, dtype=torch.cfloat), torch.eye(2, dtype=torch.cdouble))
print(torch.linspace(0, 1j, 3), torch.linspace(1 + 1j, 2, 3, dtype=torch.cdouble))
E(lambda: torch.arange(0, 3, dtype=torch.cfloat))
E(lambda: torch.randint(0, 3, (2,), dtype=torch.cfloat))
print(torch.zeros_like(z, requires_grad=True), torch.empty(0, dtype=torch.cfloat))
print(torch.normal(torch.zeros(2, dtype=torch.cfloat), 1.))
print(torch.randn(2, dtype=torch.cfloat, requires_grad=True).abs().pow(2).mean())
'''

PROGRAMS['cx_numbers_out_of_complex_tensors'] = PRE + r'''
import numpy as np
z = torch.tensor([1 + 2j, -0.5j], requires_grad=True)
print(z[0].item(), complex(z[1]), z.tolist())
E(lambda: float(z[0]))
E(lambda: int(z[0]))
E(lambda: bool(z[0]))
print(bool(torch.tensor(0j)), bool(torch.tensor(1j)))
E(lambda: z.numpy())
print(z.detach().numpy(), z.detach().numpy().dtype)
c = z.detach().conj()
E(lambda: c.numpy())
print(c.resolve_conj().numpy())
a = np.array([1 + 1j, 2 - 2j], dtype=np.complex64)
t = torch.from_numpy(a)
t.mul_(2)
print(a, torch.as_tensor(a).dtype, torch.tensor(a.astype(np.complex128)).dtype)
print(torch.tensor([1, 2.5, 1j]).dtype, torch.tensor(1j).dtype, torch.tensor([[1j], [2]]))
print(f'{z[0].item():.2f}', round(abs(z[0].item()), 4))
'''

# fixed: ``z.real = ...`` / ``z.imag = ...`` raised AttributeError (PyTorch copies the value into the part's view)
PROGRAMS['cx_real_imag_setters_and_views'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 4j])
z.real = torch.tensor([10., 20.])
print(z)
z.imag.mul_(-1)
print(z)
z.imag[0] = 0.5
print(z)
E(lambda: setattr(z, 'imag', torch.tensor([1j, 2j])))
x = torch.tensor([1., 2.])
print(x.real is x, x.real.data_ptr() == x.data_ptr())
E(lambda: x.imag)
w = torch.tensor([1 + 1j, 2 + 2j], requires_grad=True)
v = w * 1
v.real.mul_(3)
print(v, v.grad_fn.name())
v.abs().sum().backward()
print(w.grad)
print(torch.real(w).grad_fn.name(), torch.imag(w).grad_fn.name())
'''

PROGRAMS['cx_stack_cat_index_grads'] = PRE + r'''
a = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
b = torch.tensor([0.5, -1.], requires_grad=True)
c = torch.cat([a, b])
print(c, c.dtype, c.grad_fn.name())
c.abs().sum().backward()
print(a.grad, b.grad)
a.grad = b.grad = None
s = torch.stack([a, b.to(torch.cfloat)], dim=1)
s[:, 0].imag.sum().backward()
print(s.shape, a.grad, b.grad)
a.grad = None
idx = a[[1, 1, 0]]
idx.real.sum().backward()
print(a.grad)
a.grad = None
g = torch.gather(a, 0, torch.tensor([1, 0, 1]))
(g * g).real.sum().backward()
print(a.grad)
m = torch.zeros(3, dtype=torch.cfloat).index_add(0, torch.tensor([0, 2]), a)
print(m)
'''

# fixed: linspace/logspace infer the complex dtype from complex ends and refuse a real dtype, as PyTorch
PROGRAMS['cx_linspace_logspace_complex_ends'] = PRE + r'''
print(torch.linspace(0, 1j, 3))
print(torch.linspace(1 + 1j, 2, 1), torch.linspace(1 + 1j, 2, 0))
E(lambda: torch.linspace(0, 1j, 3, dtype=torch.float32))
E(lambda: torch.linspace(0j, 1, 5, dtype=torch.int64))
E(lambda: torch.logspace(0, 1j, 3, dtype=torch.float64))
print(torch.logspace(0, 1j, 3))
E(lambda: torch.linspace(0, 1j, 3, out=torch.empty(3)))
print(torch.linspace(0, 2j, 3, dtype=torch.cdouble))
torch.set_default_dtype(torch.float64)
print(torch.linspace(0, 1j, 2).dtype)
E(lambda: torch.linspace(0, 1j, 3, dtype=torch.float32))
torch.set_default_dtype(torch.float32)
z = torch.linspace(0, 1 + 1j, 4).requires_grad_()
(z * z).abs().sum().backward()
print(z.grad)
'''

PROGRAMS['cx_forward_ad_dual_complex'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
z = torch.tensor([1 + 1j, 2 - 0.5j])
t = torch.tensor([1 + 0j, 1j])
with fwAD.dual_level():
    d = fwAD.make_dual(z, t)
    for f in [torch.exp, torch.sin, lambda u: u * u.conj(), lambda u: u.abs(), lambda u: u.angle(),
              lambda u: torch.fft.fft(u), lambda u: u.real, lambda u: torch.view_as_real(u)]:
        out = f(d)
        p, tan = fwAD.unpack_dual(out)
        print(p, tan)
    x = fwAD.make_dual(torch.tensor([1., 2., 3., 4.]), torch.tensor([1., 0., 0., -1.]))
    print(fwAD.unpack_dual(torch.fft.rfft(x)).tangent)
    print(fwAD.unpack_dual(torch.fft.irfft(torch.fft.rfft(x), n=4)).tangent)
'''

PROGRAMS['cx_shape_ops_roll_flip_pad_grads'] = PRE + r'''
z = torch.tensor([[1 + 1j, 2 - 1j, 3j], [-1 + 0j, 0.5 + 0.5j, 2 + 0j]], requires_grad=True)
w = torch.tensor([1., 2., 3.])
for f in [lambda t: t.roll(1, 1), lambda t: t.flip(0), lambda t: torch.nn.functional.pad(t, (1, 1)),
          lambda t: torch.diff(t, dim=1), lambda t: torch.outer(t[0], t[1]), lambda t: torch.kron(t, t[:1, :2]),
          lambda t: t.repeat(2, 1), lambda t: t.t().reshape(-1), lambda t: t.unfold(1, 2, 1)]:
    z.grad = None
    y = f(z)
    (y.abs() ** 2).sum().backward()
    print(y.shape, y.grad_fn.name(), z.grad[0])
E(lambda: torch.nn.functional.pad(z, (1, 1), mode='reflect'))
print(torch.trapezoid(z.detach(), dim=1), torch.cumsum(z.detach(), 0))
'''

PROGRAMS['cx_backward_inputs_and_accumulation'] = PRE + r'''
a = torch.tensor([1 + 1j, 2j], requires_grad=True)
b = torch.tensor([0.5, -1.], requires_grad=True)
y = (a * b).abs().sum()
y.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
y.backward(inputs=[b], retain_graph=True)
print(a.grad, b.grad)
y.backward(retain_graph=True)
print(a.grad, b.grad)
ga, gb = torch.autograd.grad(y, [a, b], retain_graph=True)
print(ga, gb)
a.grad.zero_()
print(a.grad)
E(lambda: setattr(a, 'grad', torch.zeros(2)))
y.backward()
print(a.grad)
E(lambda: setattr(a, 'grad', torch.zeros(3, dtype=torch.cfloat)))
'''

PROGRAMS['pr_complex_grads_set_printoptions'] = PRE + r'''
z = torch.tensor([1e-4 + 2j, -300 + 0.001j, 0.5 - 0.5j], requires_grad=True)
(z * z).abs().sum().backward()
print(z.grad)
torch.set_printoptions(precision=8)
print(z.grad)
print(torch.fft.fft(torch.tensor([1., 2., 3.])))
torch.set_printoptions(precision=1, sci_mode=False)
print(z.grad)
print(torch.tensor([1e-8 + 1e8j]))
torch.set_printoptions(precision=3, linewidth=40)
print(torch.fft.fft(torch.arange(6.)))
torch.set_printoptions(profile='full')
print(torch.fft.rfft(torch.arange(8.)))
torch.set_printoptions(profile='default')
print(torch.tensor([float('nan') + 0j, complex(0, float('nan')), complex(float('inf'), float('-inf'))]))
print(torch.tensor([-0.0 + 0j]).conj(), torch.tensor([0j]) * -1)
'''

# fixed: complex addcmul / addcdiv rounded as NumPy's complex multiply and divide, not as PyTorch's kernels (the
# last bits of about a quarter of the values)
PROGRAMS['cx_addcmul_addcdiv_bits_and_grads'] = PRE + r'''
torch.manual_seed(41)
a = torch.randn(21, dtype=torch.cfloat, requires_grad=True)
b = torch.randn(21, dtype=torch.cfloat)
c = torch.randn(21, dtype=torch.cfloat)
torch.set_printoptions(precision=10)
m = torch.addcmul(a, b, c, value=0.3)
print(torch.view_as_real(m.detach()).view(torch.int32)[:, 0])
print(m[:4])
d = torch.addcdiv(a, b, c, value=0.5)
print(torch.view_as_real(d.detach()).view(torch.int32)[:, 1])
(m.abs() + d.abs()).sum().backward()
print(a.grad[:3])
e = a.detach().clone()
e.addcmul_(b, c).addcdiv_(b, c, value=-2)
print(e[-3:])
torch.set_printoptions(profile='default')
print(torch.addcmul(torch.ones(3, dtype=torch.cdouble), b[:3].cdouble(), c[:3].cdouble(), value=1j))
'''

# fixed: complex linspace rounded its values in double (PyTorch: each part a fused multiply-add in the dtype's parts)
PROGRAMS['cx_linspace_complex_bits'] = PRE + r'''
a = torch.linspace(-1 - 2j, 3 + 0.5j, 27)
print(torch.view_as_real(a).view(torch.int32)[:, 0])
print(torch.view_as_real(a).view(torch.int32)[:, 1])
torch.set_printoptions(precision=10)
print(torch.linspace(0.1 + 0.3j, 0.7 - 0.2j, 6, dtype=torch.cfloat))
print(torch.linspace(1j, 1 / 3, 5, dtype=torch.cdouble))
torch.set_printoptions(profile='default')
z = torch.linspace(0, 1 + 1j, 9).requires_grad_()
(z * z).abs().sum().backward()
print(z.grad)
'''

# fixed: embedding of a complex weight that requires grad returned a result (PyTorch refuses complex autograd there)
PROGRAMS['cx_embedding_conv_pool_with_complex'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(42)
w = torch.randn(4, 2, dtype=torch.cfloat, requires_grad=True)
E(lambda: F.embedding(torch.tensor([5]), w))
E(lambda: F.embedding(torch.tensor([0, 3]), w))
E(lambda: torch.nn.Embedding(3, 2, dtype=torch.cfloat)(torch.tensor([1])))
with torch.no_grad():
    print(F.embedding(torch.tensor([0]), w))
print(F.embedding(torch.tensor([1]), w.detach()))
x = torch.randn(1, 1, 5, dtype=torch.cfloat, requires_grad=True)
k = torch.randn(1, 1, 2, dtype=torch.cfloat, requires_grad=True)
y = F.conv1d(x, k, padding=1)
print(y, y.grad_fn.name())
y.abs().sum().backward()
print(x.grad, k.grad)
E(lambda: F.conv1d(x, k.real))
E(lambda: F.avg_pool1d(x, 2))
E(lambda: F.max_pool1d(x, 2))
'''


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first forward-mode transform loads its jvp decompositions, which warn that torch.jit.script is
    deprecated, and its first run, ``backward(gradient)`` and optimizer import modules for seconds: done here, so
    that no program's output or time depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.func.jacfwd(torch.sin)(torch.ones(2))
        (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
        torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        run_both("import torch\n")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
