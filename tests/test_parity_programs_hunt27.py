"""Parity programs from a twenty-seventh hunt: tensor basics inside autograd programs.

What a student writes around the autograd calls while learning: advanced and boolean indexing and index assignment
(leaves under no_grad, non-leaves recorded as IndexPutBackward0 / CopySlices, index_put_ accumulate, masked_fill /
masked_scatter, broadcasting and bounds errors, index tensor dtypes, numbers out of a dtype's range), view chains
and their grad_fn names, ``_base`` / ``_is_view`` / strides, joins and splits with gradients, type promotion and
in-place cast errors, integer division and remainders (uint8 and bfloat16 included), complex powers with whole
exponents, creation functions, gradients at ties (where / clamp / max / sort / median / mode), cumulative ops, einsum
and matmul broadcasting, printing under ``set_printoptions``, Python protocols on tensors (``format``, ``+x``,
``pow(x, e, m)``, iteration) and item / tolist / numpy round trips. Each program must print exactly what PyTorch
prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- indexing and index assignment, views, joins and splits, promotion, creation, ties, cumulative ops, einsum

PROGRAMS['idx_bool_mask_nonleaf_grad'] = PRE + r'''
x = torch.arange(12., requires_grad=True)
y = x.reshape(3, 4) * 2
m = y > 7
print(m, m.dtype, m.sum(), m.sum().dtype)
z = y[m]
print(z, z.grad_fn, z.grad_fn.next_functions)
z2 = y[:, [0, 2]][m[:, :2]]
print(z2)
(z.sum() + (z2 ** 2).sum()).backward()
print(x.grad)
print(y[m].shape, y[~m].shape, y[m.nonzero(as_tuple=True)].shape)
E(lambda: y[m[:2]])
E(lambda: y[torch.tensor([True, False])])
'''

PROGRAMS['idx_put_nonleaf_accumulate'] = PRE + r'''
x = torch.zeros(5, requires_grad=True)
y = x * 1
idx = torch.tensor([0, 2, 2, 4])
v = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y2 = y.index_put((idx,), v, accumulate=True)
print(y2, y2.grad_fn.name())
y3 = y.index_put((idx[:3],), v[:3])
print(y3.grad_fn)
(y2 * torch.arange(5.)).sum().backward()
print(x.grad, v.grad)
y[idx] = v * 10
print(y, y.grad_fn, y._version)
E(lambda: y.sum().backward())
print(x.grad, v.grad)
E(lambda: x.index_put_((idx,), v))
'''

PROGRAMS['setitem_leaf_no_grad_then_train'] = PRE + r'''
w = torch.randn(3, 4).requires_grad_() if False else torch.full((3, 4), 0.5, requires_grad=True)
E(lambda: w.__setitem__(0, 1.))
with torch.no_grad():
    w[0] = 1.
    w[:, -1] = torch.tensor([7., 8., 9.])
    w[w > 5] *= -1
print(w, w.is_leaf, w.grad_fn, w._version)
loss = (w ** 2).sum()
loss.backward()
print(w.grad)
with torch.no_grad():
    w[1, [0, 0, 3]] = torch.tensor([1., 2., 3.])
print(w[1], w._version)
E(lambda: w[::-1])
def neg():
    t = torch.zeros(4)
    t[::-1] = 1
E(neg)
'''

PROGRAMS['setitem_broadcast_errors'] = PRE + r'''
a = torch.zeros(2, 3)
a[:, 1] = torch.tensor([5., 6.])
print(a)
a[0] = torch.tensor([[1., 2., 3.]])
print(a)
def bad1(): a[0] = torch.tensor([1., 2.])
def bad2(): a[:, 0] = torch.ones(3)
def bad3(): a[[0, 1]] = torch.ones(3, 3)
E(bad1); E(bad2); E(bad3)
x = torch.ones(2, 3, requires_grad=True)
y = x.clone()
y[:, 1:] = torch.tensor([10., 20.])
print(y, y.grad_fn)
y.backward(torch.ones(2, 3))
print(x.grad)
b = torch.zeros(3, dtype=torch.long)
b[1] = 2.7
b[2] = -1.9
print(b)
c = torch.zeros(3, dtype=torch.bool)
c[0] = 5
print(c)
'''

PROGRAMS['masked_fill_scatter_grads'] = PRE + r'''
x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]], requires_grad=True)
m = x < 0
y = x.masked_fill(m, 0.)
print(y, y.grad_fn)
v = torch.tensor(2.5, requires_grad=True)
y2 = x.masked_fill(m, v)
print(y2, y2.grad_fn)
src = torch.arange(10., 16.).reshape(2, 3).requires_grad_()
y3 = x.masked_scatter(m, src)
print(y3, y3.grad_fn)
(y.sum() + (y2 * 2).sum() + (y3 * 3).sum()).backward()
print(x.grad, v.grad, src.grad)
E(lambda: x.masked_fill(m, torch.tensor([1., 2.])))
E(lambda: x.masked_fill(m.int(), 0.))
print(x.masked_fill(torch.tensor(True), -1.))
'''

PROGRAMS['views_base_is_view_chain'] = PRE + r'''
x = torch.arange(24., requires_grad=True)
a = x.view(2, 3, 4)
b = a.permute(2, 0, 1)
c = b.transpose(0, 2)
d = c[1:, ::2]
e = d.unsqueeze(0).expand(2, -1, -1, -1)
for t in (a, b, c, d, e):
    print(t.shape, t.stride(), t.is_contiguous(), t._is_view(), t._base is x, t.grad_fn.name(), t.storage_offset())
f = e.flatten()
print(f.shape, f._is_view(), f._base is None, f.grad_fn.name())
g = a.unflatten(2, (2, 2))
print(g.shape, g.stride(), g.grad_fn.name())
f.sum().backward()
print(x.grad)
E(lambda: b.view(-1))
print(b.reshape(-1).grad_fn.name(), b.contiguous().view(-1).grad_fn.name())
'''

PROGRAMS['narrow_unfold_asstrided'] = PRE + r'''
x = torch.arange(10., requires_grad=True)
n = x.narrow(0, 2, 5)
u = n.unfold(0, 3, 1)
print(n.grad_fn, u.grad_fn, u.shape, u.stride(), u.storage_offset())
s = torch.as_strided(x, (3, 3), (2, 1), 1)
print(s, s.grad_fn)
(u.sum() + (s * s).sum()).backward()
print(x.grad)
E(lambda: x.narrow(0, 8, 5))
E(lambda: x.unfold(0, 11, 1))
E(lambda: x.unfold(1, 2, 1))
y = torch.arange(12.).reshape(3, 4)
print(y.unfold(1, 2, 2), y.unfold(0, 2, 1).shape, y.narrow(-1, torch.tensor(1), 2))
'''

PROGRAMS['cat_stack_split_grads'] = PRE + r'''
a = torch.tensor([[1., 2.]], requires_grad=True)
b = torch.tensor([[3., 4.], [5., 6.]], dtype=torch.float64, requires_grad=True)
c = torch.cat([a, b])
print(c, c.grad_fn, c.dtype)
s = torch.stack([a[0], b[1].float()], dim=1)
print(s, s.grad_fn)
parts = c.split([1, 2])
print([p.grad_fn.name() for p in parts], parts[1].grad_fn.next_functions)
ch = c.chunk(2, dim=1)
print(ch, len(c.chunk(5)))
ub = c.unbind(1)
print(ub[0].grad_fn)
(parts[1].sum() * 2 + ch[0].sum() + ub[1].prod() + s.sum()).backward()
print(a.grad, b.grad)
E(lambda: torch.cat([a, b.t()]))
E(lambda: torch.stack([a, b]))
E(lambda: torch.cat([]))
print(torch.cat([torch.tensor([]), a.detach().flatten()]))
'''

PROGRAMS['tensor_split_movedim'] = PRE + r'''
x = torch.arange(7., requires_grad=True)
ps = x.tensor_split(3)
print([p.shape for p in ps], ps[0].grad_fn)
qs = torch.tensor_split(x, [1, 5])
print(qs)
rs = torch.tensor_split(x, torch.tensor([2, 2, 6]))
print([r.tolist() for r in rs])
y = x[:6].reshape(1, 2, 3)
m = torch.movedim(y, (0, 1), (2, 0))
print(m.shape, m.stride(), m.grad_fn)
m2 = y.moveaxis(-1, 0)
print(m2.shape, m2.grad_fn)
(ps[1] * 3).sum().backward(retain_graph=True)
(m * torch.arange(6.).reshape(m.shape)).sum().backward()
print(x.grad)
E(lambda: torch.movedim(y, (0, 0), (1, 2)))
E(lambda: x.tensor_split(0))
print(torch.hsplit(torch.arange(6).reshape(2, 3), 3))
'''

PROGRAMS['promotion_int_float_scalar'] = PRE + r'''
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
print((i * f), (i * f).dtype, (i * f).grad_fn)
d = torch.tensor(2., dtype=torch.float64, requires_grad=True)
r = f + d
print(r, r.dtype, r.grad_fn.next_functions)
r.sum().backward()
print(f.grad, d.grad, d.grad.dtype)
h = torch.tensor([1., 2.], dtype=torch.float16)
print(h + torch.tensor([1., 1.]), h + 1.5, (h + torch.tensor(1., dtype=torch.float64)).dtype)
print(i / 2, i // 2, i % 2, (-i) // 2, (-i) % 2, i / i)
print(torch.tensor(7) / torch.tensor(2), torch.tensor(-7) // 2, torch.tensor(-7.) % 3, torch.tensor(7) % -3)
print(i ** 2, i ** -1 if False else None, i.float() ** -1, 2 ** i, 2.0 ** i)
E(lambda: i ** -1)
print(i == f, i < 2.5, (i > 1).dtype, True + i, torch.tensor(True) + torch.tensor(True))
'''

PROGRAMS['inplace_cast_errors'] = PRE + r'''
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
E(lambda: i.add_(f))
E(lambda: i.mul_(1.5))
E(lambda: i.div_(2))
print(i.floor_divide_(2), i)
E(lambda: torch.tensor([True]).add_(1))
b = torch.tensor([True, False])
b |= torch.tensor([False, False])
print(b)
x = torch.ones(3, requires_grad=True)
y = x * 2
y.add_(i)
print(y, y.grad_fn)
E(lambda: y.__iadd__(torch.tensor([1j, 1j, 1j])))
z = torch.zeros(3, dtype=torch.float16)
z += f
print(z, z.dtype)
E(lambda: torch.add(f, f, out=i))
'''

PROGRAMS['int_bool_requires_grad_errors'] = PRE + r'''
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.tensor([True], requires_grad=True))
E(lambda: torch.arange(3).requires_grad_())
E(lambda: torch.zeros(2, dtype=torch.int32, requires_grad=True))
E(lambda: torch.ones(2, dtype=torch.long).requires_grad_(False))
x = torch.arange(3.)
x.requires_grad = True
print(x.float().requires_grad, x.long().requires_grad, x.long().grad_fn, x.to(torch.int32).requires_grad)
print(x.double().grad_fn, x.half().grad_fn, x.bool().requires_grad)
E(lambda: setattr(torch.arange(2), 'requires_grad', True))
y = (x * 2).round().long()
print(y, y.requires_grad, (y.float() * x).grad_fn)
print(torch.argmax(x * 2).requires_grad, (x > 1).requires_grad, x.sign().requires_grad)
c = torch.tensor([1+2j], requires_grad=True)
print(c, c.requires_grad)
'''

PROGRAMS['creation_funcs_grad'] = PRE + r'''
print(torch.arange(0, 1, 0.25), torch.arange(5, 0, -2), torch.arange(3, dtype=torch.float64))
print(torch.linspace(0, 1, 5, requires_grad=True))
print(torch.logspace(0, 2, 3), torch.logspace(0, 3, 4, base=2))
print(torch.full((2, 2), 7), torch.full((2,), 1.5).dtype, torch.full((1,), True))
print(torch.eye(2, 3), torch.eye(3, dtype=torch.long))
x = torch.arange(1., 10.).reshape(3, 3).requires_grad_()
t1 = torch.tril(x, -1)
t2 = x.triu(1)
print(t1, t2.grad_fn)
d = torch.diag(x)
de = torch.diag_embed(torch.tensor([[1., 2.], [3., 4.]]), offset=1)
print(d, d.grad_fn, de, de.shape)
(t1.sum() + (t2 * 2).sum() + (d ** 2).sum()).backward()
print(x.grad)
E(lambda: torch.arange(0, 1, 0))
E(lambda: torch.linspace(0, 1, -1))
print(torch.linspace(1, 1, 1), torch.linspace(0, 1, 0), torch.arange(0))
'''

PROGRAMS['where_clamp_ties'] = PRE + r'''
x = torch.tensor([-1., 0., 1., 2., 2.], requires_grad=True)
y = torch.tensor([0., 0., 2., 2., 1.], requires_grad=True)
w = torch.where(x > y, x, y)
mx = torch.maximum(x, y)
mn = torch.minimum(x, y)
print(w.grad_fn, mx.grad_fn, mn.grad_fn)
(w + mx * 2 + mn * 3).sum().backward()
print(x.grad, y.grad)
x.grad = None
c = x.clamp(0., 1.)
c2 = x.clamp(min=torch.tensor([0., 0., 0., 2., 3.]))
print(c.grad_fn, c2.grad_fn)
(c.sum() + c2.sum()).backward()
print(x.grad)
x.grad = None
torch.max(x).backward()
print(x.grad)
x.grad = None
x.amax().backward()
print(x.grad)
'''

PROGRAMS['sort_topk_ties'] = PRE + r'''
x = torch.tensor([3., 1., 3., 2., 1.], requires_grad=True)
s = torch.sort(x)
print(s, s.values.grad_fn)
sd = x.sort(descending=True, stable=True)
print(sd.indices)
t = x.topk(2)
print(t, t.values.grad_fn)
a = x.argmax(), x.argmin()
print(a)
k = x.kthvalue(2)
md = x.median()
mo = x.mode()
print(k, md, md.grad_fn, mo)
(s.values * torch.arange(5.)).sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(t.values.sum() + k.values + md * 10 + mo.values * 100).backward()
print(x.grad)
print(torch.sort(torch.tensor([2, 1, 2])).indices, torch.tensor([[1., 5.], [5., 1.]]).max(dim=1))
'''

PROGRAMS['cumsum_cumprod_lcse'] = PRE + r'''
x = torch.tensor([1., 2., 0., 3.], requires_grad=True)
a = x.cumsum(0)
b = x.cumprod(0)
c = x.logcumsumexp(0)
print(a, b, c)
print(a.grad_fn, b.grad_fn, c.grad_fn)
(a.sum() + b.sum() + c.sum()).backward()
print(x.grad)
i = torch.tensor([1, 2, 3])
print(i.cumsum(0), i.cumsum(0).dtype, i.cumprod(0, dtype=torch.float64), torch.tensor([True, True]).cumsum(0))
y = torch.arange(6.).reshape(2, 3).requires_grad_()
z = y.cumsum(dim=-1)
z[:, -1].sum().backward()
print(y.grad)
E(lambda: x.cumsum(1))
print(torch.cummax(x.detach(), 0), torch.cummin(torch.tensor([2., 2., 1.]), 0))
'''

PROGRAMS['einsum_matmul_broadcast'] = PRE + r'''
A = torch.arange(6., requires_grad=True)
a = A.reshape(2, 3)
b = torch.arange(12.).reshape(2, 3, 2)
print(torch.matmul(a, b), torch.matmul(a, b).shape)
e = torch.einsum('ij,bjk->bik', a, b)
print(e.grad_fn)
o = torch.outer(A[:2], A[:3])
k = torch.kron(a, torch.ones(2, 1))
td = torch.tensordot(a, b, dims=([1], [1]))
print(o.shape, k, td.shape, td.grad_fn)
bm = torch.bmm(b.transpose(1, 2), a.expand(2, 2, 3).transpose(1, 2))
print(bm.shape, bm.grad_fn)
(e.sum() + o.sum() + k.sum() + td.sum() + bm.sum()).backward()
print(A.grad)
E(lambda: torch.matmul(a, a))
E(lambda: torch.bmm(a, a))
E(lambda: torch.einsum('ij,jk', a, a))
print(torch.einsum('ii', torch.eye(3)), torch.einsum('i,i->', A, A))
'''

# ---- printing (options, nan/inf, dtype suffixes, complex, summaries), item / tolist / numpy, Parameters, 0-dim and empty

PROGRAMS['print_opts_precision_sci'] = PRE + r'''
x = torch.tensor([1e-5, 1.0, 12345.678], requires_grad=True)
y = x * 3
print(y)
torch.set_printoptions(precision=2)
print(y, x.double())
torch.set_printoptions(sci_mode=False)
print(y, torch.tensor([1e-10, 1e10]))
torch.set_printoptions(sci_mode=True, precision=3)
print(torch.tensor([1., 2.]), torch.tensor(0.5, requires_grad=True))
torch.set_printoptions(profile='short')
print(torch.arange(2000.).reshape(40, 50) / 7)
torch.set_printoptions(profile='full')
print(torch.arange(30.).reshape(3, 10) * 1.1)
torch.set_printoptions(profile='default')
print(torch.arange(1001.))
y.sum().backward()
print(x.grad)
'''

PROGRAMS['print_linewidth_edge_threshold'] = PRE + r'''
torch.set_printoptions(linewidth=40)
w = torch.nn.Parameter(torch.linspace(-3, 3, 14).reshape(2, 7))
print(w)
print(w * 2)
torch.set_printoptions(threshold=5, edgeitems=1)
print(w, torch.arange(10))
print(torch.arange(24.).reshape(2, 3, 4).requires_grad_())
torch.set_printoptions(edgeitems=2, threshold=10, linewidth=80)
print(torch.arange(100).reshape(10, 10), torch.zeros(3, 0, 12))
torch.set_printoptions(profile='default')
print(torch.tensor([True, False] * 600))
'''

PROGRAMS['print_nan_inf_negzero'] = PRE + r'''
x = torch.tensor([float('nan'), float('inf'), -float('inf'), -0., 0., 1.5], requires_grad=True)
print(x)
y = x * 2
print(y)
print(torch.tensor([-0.]), torch.tensor([-0., 1.]), torch.tensor([float('nan')]), torch.tensor([1e-40]))
print(torch.tensor([1e-8, 1e8]), torch.tensor([0.1, 1e5]), torch.tensor([100000.0, 1.]), torch.tensor([1e16, 1.0]))
print(torch.tensor([1., float('nan'), 1e10]), torch.tensor([float('inf'), 2.]), torch.tensor([1.25, float('inf')]))
print(torch.tensor([123456789.]), torch.tensor([0.001, 0.0001]), torch.tensor([1e-4, 1e4]))
print(torch.tensor([[-0.5, float('nan')], [3e-3, -1e3]], dtype=torch.float64))
z = x.nan_to_num()
print(z, z.grad_fn)
(z * torch.arange(6.)).sum().backward()
print(x.grad)
'''

PROGRAMS['print_dtypes_suffix'] = PRE + r'''
print(torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True))
print(torch.tensor([1.5, -2.25], dtype=torch.bfloat16) * 3)
print(torch.tensor(1.0, dtype=torch.float64), torch.tensor([], dtype=torch.float64))
print(torch.zeros(0, 3), torch.zeros(0, 3, dtype=torch.long), torch.zeros(2, 0, requires_grad=True))
print(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1], dtype=torch.uint8), torch.tensor(5, dtype=torch.int16))
print(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1, 2], dtype=torch.int64))
print(torch.tensor([1+2j, -0.5j]), torch.tensor([1+2j], dtype=torch.complex128), torch.tensor([1j, -1], dtype=torch.complex64) * 2)
print(torch.tensor([True]), torch.tensor(False), torch.empty(0, dtype=torch.bool))
h = torch.tensor([65504., 1e-4, 0.1], dtype=torch.float16, requires_grad=True)
y = h * 2
print(y)
y.sum().backward()
print(h.grad)
print(torch.tensor([3.14159265], dtype=torch.bfloat16, requires_grad=True) ** 2)
'''

PROGRAMS['print_complex_grad'] = PRE + r'''
z = torch.tensor([1+1j, 2-0.5j, -3j], requires_grad=True)
w = z * z.conj()
print(w, w.grad_fn)
a = z.abs()
print(a, a.grad_fn)
a.sum().backward()
print(z.grad)
print(torch.tensor([1e-5+1j, 1e5-1j]), torch.tensor([float('nan') + 1j]), torch.tensor([complex(float('inf'), -0.)]))
print(z.real, z.imag, z.real.grad_fn, z.angle())
print(torch.view_as_real(z.detach()), torch.view_as_real(z).grad_fn)
r = torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True))
print(r, r.grad_fn, r.is_complex(), r.dtype)
'''

PROGRAMS['item_tolist_numpy_errors'] = PRE + r'''
x = torch.tensor([1.5, 2.5], requires_grad=True)
y = x * 2
print(y[0].item(), type(y[0].item()), y.tolist(), x.sum().item())
E(lambda: y.numpy())
E(lambda: x.numpy())
print(y.detach().numpy(), y.detach().numpy().dtype)
E(lambda: y.item())
E(lambda: torch.tensor([]).item())
print(torch.tensor([1, 2]).tolist(), torch.tensor(3).tolist(), torch.tensor([True]).tolist(), torch.tensor([1+1j]).tolist())
import numpy as np
n = x.detach().numpy()
n[0] = 100.
print(x)
t = torch.from_numpy(np.array([1, 2], dtype=np.int32))
print(t, t.dtype)
print(float(y[1]), int(y[1]), bool(y[0]))
E(lambda: float(y))
E(lambda: bool(torch.tensor([1., 2.])))
print(torch.tensor(3.7, dtype=torch.float16).item(), torch.tensor(1/3, dtype=torch.bfloat16).item())
'''

PROGRAMS['repr_param_grad_fn'] = PRE + r'''
p = torch.nn.Parameter(torch.tensor([1., 2.]))
print(p, repr(p), str(p))
q = torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
print(q)
r = p * 2
print(r, r[0], p[0], p.sum())
print(torch.nn.Parameter(torch.tensor(3.)), torch.nn.Parameter(torch.zeros(0)))
print(torch.nn.Parameter(torch.tensor([1.], dtype=torch.float64)))
with torch.no_grad():
    print(p * 2)
print(p.detach(), p.data, torch.nn.Parameter(torch.ones(2, 2, dtype=torch.float16)))
class Lin(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.eye(2))
print(list(Lin().parameters()), Lin().state_dict())
print(x := torch.tensor([1.], requires_grad=True), x.clone(), x.view(1), x[None], x.expand(2))
'''

PROGRAMS['zero_dim_empty_grad'] = PRE + r'''
s = torch.tensor(3., requires_grad=True)
print(s, s.shape, s.dim(), s.numel(), s.unsqueeze(0), s.view(1, 1), s.reshape(-1))
E(lambda: s[0])
print(s[None].grad_fn, s[...].grad_fn, s[()].grad_fn)
y = s.expand(3) * torch.arange(3.)
y.sum().backward()
print(s.grad)
e = torch.zeros(0, 3, requires_grad=True)
z = e.sum(0)
print(z, z.grad_fn, e.sum(), e.mean(0), e.max(dim=1) if False else None)
E(lambda: e.max())
E(lambda: e.max(dim=0))
E(lambda: e.argmax())
z.sum().backward()
print(e.grad, e.grad.shape)
print(e.mean(), e.prod(0), torch.zeros(0).std(), e.t().shape)
'''

PROGRAMS['expand_setitem_errors'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x.unsqueeze(1).expand(3, 4)
print(y.stride(), y.is_contiguous(), y.grad_fn)
E(lambda: y.add_(1))
z = torch.zeros(1).expand(3)
E(lambda: z.add_(1))
E(lambda: z.__setitem__(0, 5.))
print(y.contiguous().stride(), y.reshape(12).grad_fn, y.clone().stride())
E(lambda: x.expand(2))
E(lambda: x.expand(-1, 3))
print(x.expand(2, -1).shape, x.expand_as(torch.ones(2, 3)).grad_fn)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)
print(x.repeat(2).grad_fn, x.repeat(2, 1).shape, x.repeat_interleave(2).grad_fn)
'''

PROGRAMS['index_assign_nonleaf_versions'] = PRE + r'''
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = a.exp()
print(b._version)
b[1] = 0.
print(b._version, b.grad_fn)
c = b[::2]
c[0] = 9.
print(b, b._version, c._version, c.grad_fn)
E(lambda: b.sum().backward())
d = a * 1
e = d.sigmoid()
d[0] = 5.
E(lambda: e.sum().backward())
f = a ** 2
f[torch.tensor([True, False, True, False])] = torch.tensor([-1., -2.])
print(f, f.grad_fn)
f.sum().backward()
print(a.grad)
'''

PROGRAMS['gather_scatter_index_select'] = PRE + r'''
x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
i = torch.tensor([[0, 0], [2, 1]])
g = x.gather(1, i)
print(g, g.grad_fn)
s = torch.zeros(2, 3).scatter(1, i, x[:, :2])
print(s, s.grad_fn)
sa = torch.zeros(2, 3).scatter_add(1, i, x[:, :2])
print(sa, sa.grad_fn)
isel = x.index_select(1, torch.tensor([2, 0, 2]))
print(isel, isel.grad_fn)
(g.sum() + s.sum() * 2 + sa.sum() * 3 + isel.sum()).backward()
print(x.grad)
E(lambda: x.gather(1, torch.tensor([[0.5]])))
E(lambda: x.gather(1, torch.tensor([[3]])))
E(lambda: x.index_select(0, torch.tensor([[0]])))
print(x.take(torch.tensor([5, 0])), x.take(torch.tensor([5, 0])).grad_fn)
'''

# ---- non-adjacent advanced indices, duplicate indices, result_type, integer division, pow edges, comparisons, rounding

PROGRAMS['adv_index_nonadjacent'] = PRE + r'''
x = torch.arange(60., requires_grad=True)
y = x.view(3, 4, 5)
a = y[[0, 2], :, [1, 3]]
print(a.shape, a, a.grad_fn)
b = y[:, [0, 1], [[2], [3]]]
print(b.shape)
c = y[1:, None, ..., [4, 0]]
print(c.shape, c.stride(), c.is_contiguous())
d = y[torch.tensor([[0, 1]]), 1:3, torch.tensor([2])]
print(d.shape)
(a.sum() + b.sum() * 2 + c.sum() * 3 + d.sum()).backward()
print(x.grad.view(3, 4, 5)[1])
E(lambda: y[[0, 1], [0, 1, 2]])
E(lambda: y[3])
E(lambda: y[:, 4])
E(lambda: y[0, 0, -6])
E(lambda: y[[0, 5]])
E(lambda: y[1.5])
E(lambda: y[0, 0, 0, 0])
E(lambda: y[torch.tensor([0.])])
print(y[[True, False, True]].shape, y[[[0, 1]]].shape, y[(0, 1)].shape)
'''

PROGRAMS['dup_index_iadd_vs_index_add'] = PRE + r'''
w = torch.zeros(4, requires_grad=True)
idx = torch.tensor([1, 1, 3])
with torch.no_grad():
    w[idx] += 1.
print(w)
w2 = w * 1
w2[idx] += torch.tensor([1., 2., 3.], requires_grad=True)
print(w2, w2.grad_fn)
src = torch.tensor([1., 2., 3.], requires_grad=True)
ia = torch.zeros(4).index_add(0, idx, src, alpha=2)
print(ia, ia.grad_fn)
ic = torch.zeros(4).index_copy(0, torch.tensor([0, 2, 3]), src)
print(ic, ic.grad_fn)
fi = w2.index_fill(0, idx, -1.)
print(fi, fi.grad_fn)
(ia.sum() + (ic * torch.arange(4.)).sum() + fi.sum()).backward()
print(src.grad, w.grad)
p = torch.zeros(2, 2)
p.put_(torch.tensor([0, 3, 3]), torch.tensor([1., 2., 3.]), accumulate=True)
print(p)
t = torch.arange(6.).reshape(2, 3).requires_grad_()
tad = torch.take_along_dim(t, torch.tensor([[2], [0]]), dim=1)
print(tad, tad.grad_fn)
'''

PROGRAMS['promote_types_result_type'] = PRE + r'''
print(torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.bool, torch.int16), torch.promote_types(torch.float16, torch.bfloat16))
print(torch.result_type(torch.tensor([1]), 1.), torch.result_type(torch.tensor([1], dtype=torch.int8), torch.tensor(1000)))
print(torch.result_type(torch.tensor(1.), torch.tensor([1], dtype=torch.int32)), torch.result_type(2, 3.), torch.result_type(torch.tensor([True]), 5))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float16), torch.can_cast(torch.bool, torch.uint8))
u = torch.tensor([250, 10], dtype=torch.uint8)
print(u + 10, u + torch.tensor(10), (u + torch.tensor([10])).dtype, u - 20, u * 2, -u)
i8 = torch.tensor([100], dtype=torch.int8)
print(i8 + i8, i8 * 2, (i8 + u).dtype, (i8 + 1.).dtype, i8 / 3)
f = torch.tensor([1.5], requires_grad=True)
r = f * torch.tensor(2, dtype=torch.int64) + torch.tensor(1., dtype=torch.float64)
print(r, r.dtype)
r.backward()
print(f.grad)
h = torch.tensor([1.], dtype=torch.float16, requires_grad=True)
s = h + torch.tensor([2.], requires_grad=True)
print(s, s.dtype, s.grad_fn.next_functions)
s.backward()
print(h.grad, h.grad.dtype)
'''

PROGRAMS['int_div_mod_zero'] = PRE + r'''
a = torch.tensor([7, -7, 0])
E(lambda: a // 0)
E(lambda: a % 0)
E(lambda: torch.tensor(5) // torch.tensor(0))
print(a / 0, a.float() // 0, a.float() % 0, torch.fmod(a.float(), 0.))
print(torch.div(a, 2, rounding_mode='trunc'), torch.div(a, 2, rounding_mode='floor'), torch.div(a, 2))
E(lambda: torch.div(a, 2, rounding_mode='round'))
print(torch.fmod(a, 3), torch.remainder(a, 3), torch.remainder(a, -3), a % 2.5)
x = torch.tensor([5.5, -5.5], requires_grad=True)
y = x // 2
z = x % 2
f = torch.fmod(x, 2)
print(y, y.grad_fn, z, z.grad_fn, f, f.grad_fn)
E(lambda: (y.sum() + z.sum() + f.sum()).backward())
print(x.grad)
(z.sum() + f.sum()).backward()
print(x.grad)
print(7 // torch.tensor([2, -2]), 7 % torch.tensor([2, -2]), 7.5 // torch.tensor([2]), 2 / torch.tensor([4]))
'''

PROGRAMS['pow_edge_grads'] = PRE + r'''
x = torch.tensor([0., 1., -2.], requires_grad=True)
for e in (0, 1, 2, 0.5, -1, 3.):
    x.grad = None
    y = x ** e
    y.sum().backward()
    print(e, y, x.grad)
b = torch.tensor([0., 2.], requires_grad=True)
x.grad = None
y = b ** b
y.sum().backward()
print(y, b.grad)
c = torch.tensor([0., 1.], requires_grad=True)
z = 0. ** c
z.sum().backward()
print(z, c.grad, z.grad_fn)
E(lambda: torch.tensor([2]) ** torch.tensor([-1]))
print( torch.tensor([-2, 2]) ** torch.tensor([2, 3]), torch.pow(2, torch.tensor([0, 10])))
E(lambda: torch.tensor([2]) ** -2)
E(lambda: torch.tensor([1, -1]) ** -1)
print(torch.tensor([4.]).pow_(0.5), torch.tensor([4]).float_power(2), torch.tensor([2.]).float_power(torch.tensor([2])).dtype)
'''

PROGRAMS['compare_eq_allclose_nan'] = PRE + r'''
a = torch.tensor([1., float('nan'), 3.], requires_grad=True)
b = torch.tensor([1., float('nan'), 3.0001])
print(a == b, torch.eq(a, b), a.ne(b), torch.equal(a, b), torch.equal(a, a))
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), torch.allclose(a, b, rtol=1e-3, equal_nan=True))
E(lambda: torch.allclose(a, torch.tensor([1, 2, 3])))
print(torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])), torch.eq(torch.tensor([1]), 1.0))
print(a > 2, a >= b, a.lt(b), torch.maximum(a, b), torch.fmax(a, b), torch.clamp(a, max=2))
print(torch.max(a), torch.min(a), a.argmax(), a.nanmean() if hasattr(a, 'nanmean') else None)
m = torch.fmax(a, b)
m.sum().backward()
print(a.grad)
print(torch.isnan(a), torch.isfinite(a), a.isinf(), a.isnan().any(), torch.nansum(a))
E(lambda: torch.eq(a, torch.tensor([1., 2.])))
'''

PROGRAMS['round_trunc_sign_grads'] = PRE + r'''
x = torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.567], requires_grad=True)
for fn in ('round', 'floor', 'ceil', 'trunc', 'frac', 'sign', 'abs'):
    y = getattr(x, fn)()
    print(fn, y, y.grad_fn)
r2 = x.round(decimals=1)
print(r2, r2.grad_fn)
(x.round().sum() + x.frac().sum() + x.abs().sum() + x.sign().sum()).backward()
print(x.grad)
i = torch.tensor([-3, 3])
print(i.abs(), i.sign(), i.round(), i.floor(), torch.sgn(torch.tensor([3+4j, 0j])))
E(lambda: torch.tensor([1, 2]).round(decimals=1))
print(torch.tensor([0.5, 1.5, 2.5, -2.5]).round(), torch.tensor([1.25, 1.35]).round(decimals=1))
'''

PROGRAMS['unique_bincount_histc'] = PRE + r'''
x = torch.tensor([3, 1, 3, 2, 1, 3])
u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
print(u, inv, cnt)
print(torch.unique(x, sorted=True), torch.unique_consecutive(x), torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]), return_counts=True))
print(torch.bincount(x), torch.bincount(x, minlength=6), torch.bincount(x, weights=torch.arange(6.)))
print(torch.histc(torch.tensor([1., 2., 1., 4.]), bins=4, min=0, max=4))
f = torch.tensor([2., 1., 2.], requires_grad=True)
uf = torch.unique(f)
print(uf, uf.requires_grad, uf.grad_fn)
E(lambda: torch.bincount(torch.tensor([-1])))
E(lambda: torch.bincount(torch.tensor([1.])))
m = torch.tensor([[1, 2], [1, 2], [0, 3]])
print(torch.unique(m, dim=0), torch.unique(m, dim=1, return_counts=True))
'''

PROGRAMS['diff_flip_roll_rot90_grads'] = PRE + r'''
x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
d = torch.diff(x, dim=1)
f = x.flip(0)
r = x.roll(1, 1)
r2 = torch.roll(x, shifts=(1, -1), dims=(0, 1))
ro = torch.rot90(x, 1, [0, 1])
print(d, d.grad_fn, f.grad_fn, r.grad_fn, ro, ro.grad_fn)
print(r2, torch.roll(x, 2))
(d.sum() + (f * torch.arange(6.).reshape(2, 3)).sum() + (r * r).sum() + ro[0].sum()).backward()
print(x.grad)
print(torch.diff(torch.tensor([1, 4, 9]), n=2), torch.diff(torch.tensor([1., 2.]), prepend=torch.tensor([0.]), append=torch.tensor([5.])))
print(x.fliplr().grad_fn, x.flipud().grad_fn, torch.rot90(x, 2).is_contiguous(), x.flip(1).stride())
E(lambda: torch.rot90(x, 1, [0, 0]))
E(lambda: x.flip(2))
'''

PROGRAMS['max_dim_ties_grad'] = PRE + r'''
x = torch.tensor([[2., 5., 5.], [1., 1., 0.]], requires_grad=True)
v, i = x.max(dim=1)
print(v, i, v.grad_fn)
v2, i2 = x.min(1, keepdim=True)
print(v2, i2)
(v.sum() + v2.sum() * 10).backward()
print(x.grad)
x.grad = None
x.max().backward()
print(x.grad)
x.grad = None
x.min().backward()
print(x.grad)
x.grad = None
torch.amin(x, dim=1).sum().backward()
print(x.grad)
x.grad = None
m = x.median(dim=1)
print(m)
m.values.sum().backward()
print(x.grad)
x.grad = None
torch.logsumexp(x, 1).sum().backward()
print(x.grad)
print(torch.tensor([1., 2., 3., 4.]).median(), torch.tensor([float('nan'), 1.]).median(), torch.tensor([float('nan'), 1.]).nanmedian())
'''

PROGRAMS['var_std_mean_norm_grads'] = PRE + r'''
x = torch.tensor([[1., 2., 3.], [4., 4., 4.]], requires_grad=True)
v = x.var(dim=1)
s = x.std(dim=1, unbiased=False)
m = x.mean(dim=0, keepdim=True)
n = x.norm(dim=1)
print(v, s, m, n)
print(v.grad_fn, s.grad_fn, m.grad_fn, n.grad_fn)
(v.sum() + s.sum() + m.sum() + n.sum()).backward()
print(x.grad)
sm = torch.std_mean(x, dim=1, correction=0)
print(sm)
print(torch.var(torch.tensor([1.])), torch.tensor([1., 2.]).std(correction=2))
E(lambda: torch.tensor([1, 2]).mean())
E(lambda: torch.tensor([1, 2]).var())
print(torch.tensor([1, 2]).float().mean(), torch.tensor([1, 2]).sum(dtype=torch.float32), torch.tensor([1, 2]).mean(dtype=torch.float64))
'''

# ---- matmul / einsum variants, sizes and dtype info, default dtype, clamp and where promotion, searchsorted, topk errors

PROGRAMS['matmul_variants_names'] = PRE + r'''
v = torch.arange(1., 4., requires_grad=True)
M = torch.arange(6., requires_grad=True).reshape(2, 3)
B = torch.arange(24.).reshape(4, 3, 2).requires_grad_()
outs = [v @ v, M @ v, v @ M.t(), M @ M.t(), B.transpose(1, 2) @ v, v @ B, M @ B, B @ M.t()[:2], torch.matmul(B, B.transpose(-1, -2))]
for o in outs:
    print(tuple(o.shape), o.grad_fn.name(), [n[0].name() if n[0] else None for n in o.grad_fn.next_functions])
sum(o.sum() for o in outs).backward()
print(v.grad, B.grad.sum())
E(lambda: torch.mm(M, M.double().t()))
E(lambda: torch.dot(v, v.double()))
E(lambda: torch.matmul(M.long(), M.t()))
print(torch.matmul(torch.tensor([[1, 2]]), torch.tensor([[3], [4]])))
E(lambda: torch.dot(v, v[:2]))
E(lambda: torch.mv(M, v[:2]))
E(lambda: M @ torch.tensor(2.))
'''

PROGRAMS['einsum_ellipsis_implicit'] = PRE + r'''
a = torch.arange(6., requires_grad=True).reshape(2, 3)
b = torch.arange(6., 12.).reshape(3, 2)
print(torch.einsum('ij,jk', a, b), torch.einsum('ba', a), torch.einsum('i,j', a[0], b[0]))
e = torch.einsum('...j,j...->...', a, b)
print(e, e.grad_fn)
print(torch.einsum('bij->bji', a[None]).shape, torch.einsum('ij->', a), torch.einsum('ii->i', a[:, :2]))
print(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]))
E(lambda: torch.einsum('ij,jk->ii', a, b))
E(lambda: torch.einsum('ij->k', a))
E(lambda: torch.einsum('ijk', a))
E(lambda: torch.einsum('ij,ij->ij', a, b))
y = torch.einsum('ij,ij->i', a, a)
y.sum().backward()
print(a.grad)
'''

PROGRAMS['size_stride_errors_info'] = PRE + r'''
x = torch.zeros(2, 3, 4, requires_grad=True)
print(x.size(), x.size(-1), x.shape[1:], x.shape + (5,), torch.Size([2, 3]) == (2, 3), x.size()[::-1])
E(lambda: x.size(3))
E(lambda: x.stride(-4))
print(x.stride(), x.stride(1), x.ndim, x.ndimension(), x.numel(), x.nelement(), len(x))
print(x.element_size(), x.nbytes, x.itemsize, x.half().element_size(), torch.zeros(3, dtype=torch.bool).nbytes)
print(x.dtype.is_floating_point, x.dtype.is_complex, x.dtype.is_signed, torch.int32.is_signed, torch.uint8.is_signed, x.dtype.itemsize)
print(torch.finfo(torch.float16), torch.iinfo(torch.int8))
print(torch.finfo(torch.bfloat16).eps, torch.finfo(torch.float32).tiny, torch.finfo().max, torch.iinfo(torch.int64).min)
print(x.device, x.is_cuda, x.is_leaf, x.layout, x.is_sparse, x.cpu() is x, x.to('cpu') is x)
print(torch.Size([2, 3]).numel(), torch.Size(), list(torch.Size([4])), x.view(-1, 4).shape)
E(lambda: x.view(5, -1))
E(lambda: x.view(-1, -1))
E(lambda: len(torch.tensor(1.)))
'''

PROGRAMS['default_dtype_float64_prints'] = PRE + r'''
torch.set_default_dtype(torch.float64)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([1., 2.], dtype=torch.float32)
print(a, b, torch.arange(3.), torch.arange(3), torch.zeros(2), torch.linspace(0, 1, 3))
print(torch.get_default_dtype(), (b + a).dtype, (torch.tensor([1]) / 2).dtype, torch.tensor(1.5).dtype)
c = a * b
print(c, c.grad_fn)
c.sum().backward()
print(a.grad)
print(torch.tensor([1+1j]).dtype, torch.full((1,), 2.).dtype, torch.randn(0).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.]), a, torch.tensor([1+1j]).dtype)
E(lambda: torch.set_default_dtype(torch.int64))
'''

PROGRAMS['clamp_promotion_inplace'] = PRE + r'''
i = torch.tensor([-2, 0, 3])
print(torch.clamp(i, 0.5), torch.clamp(i, min=-1, max=1), i.clamp(max=torch.tensor(1.5)))
E(lambda: i.clamp_(0.5))
E(lambda: torch.clamp(i))
x = torch.tensor([-2., 0., 3.], requires_grad=True)
print(x.clamp(2, 1))
c = x.clamp(min=torch.tensor([0., 0., 0.]), max=torch.tensor([1., 0., 3.]))
print(c, c.grad_fn)
c.sum().backward()
print(x.grad)
x.grad = None
y = x * 1
y.clamp_(min=-1)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
print(torch.clip(x, -1, 1).grad_fn, x.clamp_min(0).grad_fn, x.clamp_max(0.).grad_fn)
'''

PROGRAMS['where_scalar_and_single_arg'] = PRE + r'''
x = torch.tensor([[1., -1.], [-2., 2.]], requires_grad=True)
w = torch.where(x > 0, x, 0.)
print(w, w.grad_fn)
w2 = torch.where(x > 0, 1, x)
w3 = torch.where(x > 0, 2, 3)
print(w2, w3, w3.dtype, torch.where(x > 0, torch.tensor(1), torch.tensor(2.5)).dtype)
print(torch.where(x > 0))
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([1., 2.], dtype=torch.float64)))
(w.sum() + w2.sum()).backward()
print(x.grad)
E(lambda: torch.where(x, x, x))
E(lambda: torch.where(x > 0, x, torch.ones(3)))
ms = x.masked_select(x < 0)
print(ms, ms.grad_fn)
ms.sum().backward()
print(x.grad)
print(x.nonzero(), torch.argwhere(x > 0), (x > 0).nonzero(as_tuple=True))
'''

PROGRAMS['searchsorted_bucketize_indices'] = PRE + r'''
s = torch.tensor([1., 3., 5., 7.])
v = torch.tensor([[0., 3., 6.], [8., 5., 1.]])
print(torch.searchsorted(s, v), torch.searchsorted(s, v, right=True), torch.searchsorted(s, 5., side='right'))
print(torch.bucketize(v, s), torch.bucketize(v, s, out_int32=True).dtype, torch.bucketize(3, s))
print(torch.triu_indices(3, 3), torch.tril_indices(3, 4, offset=-1))
print(torch.combinations(torch.tensor([1, 2, 3])), torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
b = torch.block_diag(torch.ones(1, 2, requires_grad=True), torch.tensor([[2.]]))
print(b, b.grad_fn)
m = torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij')
print(m[0], m[1].shape)
E(lambda: torch.searchsorted(torch.tensor([[1., 2.]]), torch.tensor([1.])))
x = torch.arange(4., requires_grad=True)
t = x.tril(0) if False else torch.combinations(x, 2)
print(t, t.grad_fn)
t.prod(1).sum().backward()
print(x.grad)
'''

PROGRAMS['topk_kth_errors'] = PRE + r'''
x = torch.tensor([[4., 1., 4.], [2., 2., 3.]], requires_grad=True)
print(x.topk(2, dim=0), x.topk(1, largest=False))
E(lambda: x.topk(4))
E(lambda: x.kthvalue(0))
E(lambda: x.kthvalue(4))
print(x.kthvalue(3, dim=1, keepdim=True))
print(x.argsort(dim=1, descending=True), torch.msort(x), x.sort(0).indices)
v, i = x.sort(dim=1, stable=True)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
n = torch.tensor([3., float('nan'), 1., float('nan')])
print(n.sort(), n.topk(2), n.argmax(), n.max(), n.argsort(descending=True))
print(torch.tensor([True, False, True]).sort(), torch.tensor([3, 1]).topk(1))
'''

PROGRAMS['cumprod_zeros_grad'] = PRE + r'''
for vals in ([2., 0., 3., 4.], [0., 2., 0., 5.], [1., 2., 3.]):
    x = torch.tensor(vals, requires_grad=True)
    y = x.cumprod(0)
    y.sum().backward()
    print(y, x.grad)
x = torch.tensor([[1., 0.], [2., 3.]], requires_grad=True)
p = x.prod()
p.backward()
print(p, p.grad_fn, x.grad)
x.grad = None
x.prod(dim=1).sum().backward()
print(x.grad)
l = torch.tensor([-float('inf'), 0., -float('inf'), 1.], requires_grad=True)
c = l.logcumsumexp(0)
print(c)
c.sum().backward()
print(l.grad)
print(torch.tensor([[1, 2], [3, 4]]).cumprod(1), torch.tensor([1., 2.], dtype=torch.float16).cumsum(0))
'''

PROGRAMS['addcmul_lerp_grads'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor([0.5, -1.], requires_grad=True)
y1 = torch.addcmul(a, b, c, value=2)
y2 = torch.addcdiv(a, b, c, value=-1)
y3 = torch.lerp(a, b, 0.25)
y4 = torch.lerp(a, b, c)
print(y1, y2, y3, y4)
print(y1.grad_fn, y2.grad_fn, y3.grad_fn, y4.grad_fn)
(y1 + y2 + y3 + y4).sum().backward()
print(a.grad, b.grad, c.grad)
E(lambda: torch.addcdiv(torch.tensor([1]), torch.tensor([1]), torch.tensor([2])))
print(torch.addcmul(torch.tensor([1]), torch.tensor([2]), torch.tensor([3]), value=2))
E(lambda: torch.lerp(a, b.double(), 0.5))
'''

# ---- in-place view ops, squeeze variants, dtype views, detach and .data, fill_ / zero_ / copy_, precision and widths

PROGRAMS['inplace_view_ops_names'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
y = x * 1
y.unsqueeze_(0)
print(y.shape, y.grad_fn, y._version)
y.squeeze_()
print(y.shape, y.grad_fn)
y.resize_(2, 3) if False else None
z = (x * 2).view(2, 3)
z.t_()
print(z.shape, z.grad_fn, z.grad_fn.next_functions)
z.transpose_(0, 1)
print(z.grad_fn, z.is_contiguous())
z.squeeze_(0)
z.unsqueeze_(-1)
print(z.shape, z.grad_fn)
(y.sum() + z.sum()).backward()
print(x.grad)
E(lambda: x.t_())
E(lambda: x.unsqueeze_(0))
E(lambda: x.view(2, 3).squeeze_())
'''

PROGRAMS['squeeze_variants_names'] = PRE + r'''
x = torch.ones(1, 3, 1, 2, requires_grad=True)
print(x.squeeze().grad_fn, x.squeeze(0).grad_fn, x.squeeze((0, 2)).grad_fn, x.squeeze(1).grad_fn)
print(x.squeeze(1).shape, x.squeeze(-2).shape, x.squeeze((1, 3)).shape, torch.squeeze(x, dim=(0,)).shape)
print(x.unsqueeze(-1).shape, x.unsqueeze(0).grad_fn, x.flatten().grad_fn, x.flatten(1, 2).shape, x.ravel().grad_fn)
E(lambda: x.squeeze(4))
E(lambda: x.unsqueeze(6))
E(lambda: x.flatten(2, 1))
t = x.permute(3, 1, 0, 2)
f = t.flatten()
print(f.grad_fn, f.grad_fn.next_functions, t.reshape(2, 3).grad_fn, t.view(2, 3, 1).grad_fn)
E(lambda: t.view(6))
print(t.unflatten(0, (1, -1)).shape, x.unflatten(1, (-1, 1)).grad_fn)
E(lambda: x.unflatten(1, (2, 2)))
f.sum().backward()
print(x.grad.shape, x.grad.sum())
print(x.swapaxes(1, 3).grad_fn, x.swapdims(0, 1).shape, x.mT.shape, x.mT.grad_fn, torch.ones(2, 3).T.shape)
'''

PROGRAMS['view_dtype_reinterpret'] = PRE + r'''
f = torch.tensor([1., -2.])
print(f.view(torch.int32), f.view(torch.int16).shape, f.view(torch.uint8).shape, torch.tensor([1, 2], dtype=torch.int32).view(torch.float32))
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.view(torch.int32))
print(x.view(torch.float32).grad_fn, x.view(torch.float32)._is_view())
E(lambda: x.view(torch.float64))
E(lambda: torch.ones(3).view(torch.float64))
h = torch.tensor([1., 2.], dtype=torch.float16)
print(h.view(torch.int16), h.view(torch.bfloat16), torch.tensor([1.], dtype=torch.float64).view(torch.float32))
print(torch.ones(2, 4).view(torch.float64).shape, torch.ones(2, 2, dtype=torch.float64).view(torch.int8).shape)
c = torch.tensor([1+2j])
print(c.view(torch.float32), torch.view_as_real(c))
'''

PROGRAMS['detach_views_base'] = PRE + r'''
x = torch.arange(4., requires_grad=True)
d = x.detach()
print(d._is_view(), d._base is None, d.requires_grad, d.is_leaf, d.data_ptr() == x.data_ptr())
v = x[1:]
dv = v.detach()
print(dv._is_view(), dv._base is None)
E(lambda: v.detach_())
E(lambda: v.requires_grad_())
E(lambda: v.requires_grad_(False))
w = x.data
print(w._is_view(), w.requires_grad, w.is_leaf)
d[0] = 100.
print(x, x._version, d._version)
y = x * 2
d2 = y.detach()
d2.zero_()
E(lambda: y.sum().backward())
z = x.exp()
dz = z.detach()
dz[0] = 0.
E(lambda: z.sum().backward())
print(x.grad, z._version)
'''

PROGRAMS['fill_zero_copy_inplace_grads'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y[1:].fill_(5.)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0].name())
z = x * 3
z.zero_()
print(z.grad_fn)
c = torch.zeros(2, 3)
src = torch.tensor([7., 8., 9.], requires_grad=True)
c.copy_(src)
print(c, c.grad_fn, c.requires_grad)
k = x.clone()
k.copy_(torch.tensor(4., dtype=torch.float64, requires_grad=True))
print(k, k.grad_fn)
(y.sum() + z.sum() + c.sum() + k.sum()).backward()
print(x.grad, src.grad)
f = torch.tensor(2., requires_grad=True)
w = x * 1
w.fill_(f)
w.sum().backward()
print(f.grad, w.grad_fn)
E(lambda: torch.zeros(2).copy_(torch.ones(3)))
'''

PROGRAMS['print_precision_digits'] = PRE + r'''
x = torch.tensor([0.1, 1/3, 2/3], requires_grad=True)
torch.set_printoptions(precision=10)
print(x, x.double(), x.half())
torch.set_printoptions(precision=0)
print(x * 10, torch.tensor([1.5, 2.5, 1e6]))
torch.set_printoptions(precision=1, sci_mode=True)
print(torch.tensor([1234.5, -0.01]), torch.tensor([0.]), torch.tensor([1]))
torch.set_printoptions(sci_mode=False, precision=4)
print(torch.tensor([1e20, 1e-20]), torch.tensor([3e-5, 1.]), torch.tensor([float('inf'), 1e10]))
torch.set_printoptions(profile='default')
y = x * 3
print(y, torch.tensor([1e-5], dtype=torch.float16), torch.tensor([6e-8, 1.], dtype=torch.float16))
print(torch.tensor([2.0**-130]), torch.tensor([3.4e38, -3.4e38]), torch.tensor([1e300], dtype=torch.float64))
'''

PROGRAMS['print_int_widths_neg'] = PRE + r'''
print(torch.tensor([[-1, 100], [1000000, -7]]))
print(torch.tensor([2**62, -2**63]), torch.tensor([[255]], dtype=torch.uint8), torch.tensor([-128], dtype=torch.int8))
torch.set_printoptions(threshold=3, edgeitems=1)
print(torch.arange(-5, 5).reshape(2, 5), torch.tensor([[True, False, True, True]]))
print(torch.arange(-1000, 1000, 1).reshape(-1, 100))
torch.set_printoptions(profile='default')
x = torch.arange(-3., 3., requires_grad=True)
i = (x * 1000).long()
print(i, (x * 1000), x.long().view(2, 3).t())
print(torch.tensor([1., 2.]) * 10**8, torch.tensor([123456789., 1.]), torch.tensor([1e8, 1.]), torch.tensor([99999999., 1.]))
'''

PROGRAMS['print_summarized_grad'] = PRE + r'''
x = torch.linspace(-1, 1, 2000, requires_grad=True)
y = (x * 3).reshape(20, 100)
print(y)
y.pow(2).sum().backward()
print(x.grad)
z = torch.zeros(2, 600, dtype=torch.float64, requires_grad=True)
print(z)
c = torch.ones(1200, dtype=torch.complex64) * (1 + 2j)
print(c)
print(torch.arange(1001).reshape(1, 1001, 1))
b = torch.ones(3, 400, dtype=torch.bool)
print(b)
print(torch.full((1001,), float('nan')), torch.zeros(1000, 2)[:, 0])
'''

PROGRAMS['stack_dtypes_grad_and_errors'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3, 4])
c = torch.tensor([5., 6.], dtype=torch.float64, requires_grad=True)
s = torch.stack([a, b, c])
print(s, s.dtype, s.grad_fn, s.grad_fn.next_functions)
s.sum().backward()
print(a.grad, c.grad, c.grad.dtype)
k = torch.cat([b, torch.tensor([True])])
print(k, k.dtype, torch.cat([torch.tensor([1], dtype=torch.int8), torch.tensor([300])]))
E(lambda: torch.stack([a, a[:1]]))
E(lambda: torch.stack([]))
E(lambda: torch.cat([a, torch.ones(2, 2)]))
E(lambda: torch.cat([a], dim=1))
print(torch.cat([a, torch.zeros(0)]).grad_fn, torch.hstack([a, b]), torch.vstack([a, b]).shape, torch.dstack([a, c]).shape)
print(torch.column_stack([a, b]), torch.row_stack([a, c]).grad_fn if hasattr(torch, 'row_stack') else None)
'''

# ---- Python protocols on tensors, iteration, tensors built from tensors, new_* and *_like, ranges, diag / tril, kron

PROGRAMS['format_round_python_protocols'] = PRE + r'''
import math, operator
loss = (torch.tensor([1.23456, 2.5], requires_grad=True) ** 2).sum()
print(f"{loss:.3f}", f"{loss}", "{:e}".format(loss), format(loss, '8.2f'), f"{loss.item():.2f}")
E(lambda: format(torch.tensor([1., 2.]), '.2f'))
print(f"{torch.tensor([1., 2.])}", format(torch.tensor(3), 'd') if False else None, f"{torch.tensor(3):>5}")
E(lambda: round(torch.tensor(2.567), 2))
E(lambda: pow(torch.tensor(2), 3, 5))
E(lambda: +torch.tensor([True]))
print((+loss) is loss, +torch.tensor([1, 2]))
print(math.sqrt(torch.tensor(4.)), math.floor(torch.tensor(2.7)), math.ceil(torch.tensor([2.1])), int(torch.tensor([3])), operator.index(torch.tensor(3)))
print([10, 20, 30][torch.tensor(1)], list(range(torch.tensor(3))), abs(torch.tensor(-2.)), -torch.tensor(1))
E(lambda: operator.index(torch.tensor(3.)))
E(lambda: [1, 2][torch.tensor([0, 1])])
E(lambda: int(torch.tensor([1, 2])))
E(lambda: format(torch.tensor(1.), 'd'))
print(f"{torch.tensor(5):03d}", f"{torch.tensor(True)}", "%.2f" % torch.tensor(1.5), "%d" % torch.tensor(4))
'''

PROGRAMS['iterate_python_builtins_grad'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
rows = [r for r in x]
print(rows, rows[0].grad_fn)
s = sum(x)
print(s, s.grad_fn)
m = max(x[0])
print(m, m.grad_fn, sorted(x[1].tolist()), sorted(torch.tensor([3, 1, 2])))
print(min(torch.tensor([3., 1.])), list(torch.tensor([1, 2])), tuple(torch.arange(2.)), [*torch.tensor([5])])
(s.sum() + m).backward()
print(x.grad)
print(1 in torch.tensor([1, 2]), 3 in torch.tensor([1., 2.]), torch.tensor(2.) in x)
E(lambda: iter(torch.tensor(1.)))
E(lambda: [t for t in torch.tensor(2.)])
print(any(torch.tensor([0, 1])), all(torch.tensor([1., 0.])), bool(torch.tensor([0.])), dict(a=torch.tensor(1)))
'''

PROGRAMS['tensor_from_tensors_warns'] = PRE + r'''
a = torch.tensor(1., requires_grad=True)
b = a * 2
t = torch.tensor(b)
print(t, t.requires_grad)
t2 = torch.tensor([a, b])
print(t2, t2.requires_grad)
E(lambda: torch.tensor([torch.tensor([1., 2.]), torch.tensor([3., 4.])]))
print(torch.tensor([torch.tensor(1), 2.5]), torch.as_tensor(b) is b, torch.as_tensor(b, dtype=torch.float64))
E(lambda: torch.tensor([[1, 2], [3]]))
E(lambda: torch.tensor([1, 'a']))
E(lambda: torch.tensor([[1], 2]))
print(torch.tensor([]), torch.tensor([[]]), torch.tensor([[], []]).shape, torch.tensor(()).dtype)
print(torch.tensor([1, 2.]), torch.tensor([1, True]), torch.tensor([1, 2j]), torch.tensor([True, False]).dtype)
import numpy as np
print(torch.tensor(np.float64(1.5)), torch.tensor(np.array(2)), torch.tensor([np.float32(1.)]), torch.tensor(np.array([1, 2], dtype=np.uint16)).dtype if False else None)
E(lambda: np.array(b))
print(np.array(a.detach()), np.asarray(torch.tensor([1, 2])))
'''

PROGRAMS['new_tensor_like_funcs'] = PRE + r'''
x = torch.tensor([[1., 2.]], dtype=torch.float64, requires_grad=True)
n = x.new_tensor([3, 4])
print(n, n.dtype, n.requires_grad)
print(x.new_zeros(2), x.new_ones((1, 2)), x.new_full((2,), 7), x.new_empty(0), x.new_zeros(2, dtype=torch.int32))
z = torch.zeros_like(x)
o = torch.ones_like(x, dtype=torch.long)
f = torch.full_like(x, 3, requires_grad=True)
print(z, z.requires_grad, o, f)
e = torch.empty_like(x).fill_(1.)
print(e, torch.rand_like(x).shape, torch.randint_like(x, 5).dtype)
n2 = x.new_tensor(x)
print(n2, n2.requires_grad)
y = (x * f).sum()
y.backward()
print(x.grad, f.grad)
E(lambda: torch.zeros_like(x, dtype=torch.long, requires_grad=True))
'''

PROGRAMS['logspace_arange_float_steps'] = PRE + r'''
print(torch.arange(0., 1., 0.1), torch.arange(0., 1., 0.1).shape, torch.arange(1, 2.5, 0.5))
print(torch.arange(-1., 1., 0.3), torch.arange(10, dtype=torch.float16)[-3:], torch.arange(0, 5, 2, dtype=torch.float64))
print(torch.linspace(-1, 1, 7), torch.linspace(0, 10, 4, dtype=torch.int64), torch.linspace(0., 1., 3, dtype=torch.float16))
print(torch.logspace(-2, 2, 5), torch.logspace(0, 1, 3, base=10., dtype=torch.float64), torch.logspace(1, 3, 3, base=2, dtype=torch.int32))
print(torch.linspace(torch.tensor(0.), torch.tensor(1.), 3))
x = torch.linspace(0, 3.14159, 5, requires_grad=True)
y = x.sin()
y.sum().backward()
print(x.grad, x.is_leaf)
E(lambda: torch.arange(0, 10, -1))
E(lambda: torch.arange(0, float('inf')))
print(torch.arange(5).float().mean(), torch.arange(0, -3, -1), torch.arange(True + 2))
'''

PROGRAMS['eye_tril_triu_diag_variants'] = PRE + r'''
x = torch.arange(1., 13.).reshape(3, 4).requires_grad_()
print(torch.diag(x, 1), torch.diag(x, -2), torch.diagonal(x, offset=1), x.diagonal().grad_fn)
v = torch.tensor([1., 2.], requires_grad=True)
D = torch.diag(v, -1)
print(D, D.grad_fn)
de = torch.diag_embed(v.unsqueeze(0).expand(2, 2), dim1=0, dim2=2)
print(de.shape, de.grad_fn)
df = torch.diagflat(v, 1)
print(df)
(torch.diag(x, 1).sum() + x.diagonal().sum() * 10 + x.tril(-1).sum() * 100).backward()
(D.sum() + de.sum() + df.sum()).backward()
print(x.grad, v.grad)
print(torch.eye(0), torch.eye(2, 0), torch.tril(torch.ones(2, 3), 5), torch.triu(torch.ones(2, 2, 2), 1))
E(lambda: torch.tril(torch.ones(3)))
E(lambda: torch.diag(torch.ones(2, 2, 2)))
E(lambda: torch.eye(-1))
print(x.detach().fill_diagonal_(0.), torch.ones(3, 3).fill_diagonal_(5, wrap=True))
'''

PROGRAMS['kron_outer_tensordot_inner'] = PRE + r'''
a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = torch.tensor([[0., 1.], [1., 0.]], requires_grad=True)
k = torch.kron(a, b)
print(k, k.grad_fn)
o = torch.outer(a[0], b[:, 0])
print(o, o.grad_fn, torch.ger(a[0], a[1]))
t0 = torch.tensordot(a, b, dims=0)
t1 = torch.tensordot(a, b, dims=1)
t2 = torch.tensordot(a, b, dims=2)
print(t0.shape, t1, t2, t2.grad_fn, t1.grad_fn)
i = torch.inner(a, b)
print(i, i.grad_fn)
(k.sum() + o.sum() + t0.sum() + t1.sum() + t2 + i.sum()).backward()
print(a.grad, b.grad)
E(lambda: torch.tensordot(a, b, dims=3))
E(lambda: torch.outer(a, b))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1], [10]])))
'''

# ---- out= arguments, dtype casts inside graphs, gradient layouts of strided leaves, 0-dim and empty basics

PROGRAMS['out_arguments_with_grad'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
c = torch.empty(2)
E(lambda: torch.add(a, b, out=c))
E(lambda: torch.add(b, b, out=a))
E(lambda: torch.mul(b, 2, out=c))
with torch.no_grad():
    torch.add(a, b, out=c)
print(c, c.requires_grad)
d = torch.empty(3)
E(lambda: torch.add(b, b, out=d))
print(d)
e = torch.empty(0, dtype=torch.long)
E(lambda: torch.add(b, b, out=e))
torch.add(b.long(), 1, out=e)
print(e)
E(lambda: torch.cumsum(b, 0, out=torch.empty(5)))
E(lambda: torch.exp(b, out=b[:1].expand(2)))
k = torch.zeros(2, dtype=torch.float16)
k.add_(a.double())
print(k, k.grad_fn)
(k.float() * 2).sum().backward()
print(a.grad)
'''

PROGRAMS['dtype_casts_in_graph'] = PRE + r'''
x = torch.tensor([1.1, 2.2], requires_grad=True)
print(x.float() is x, x.to(torch.float32) is x, x.to(copy=True) is x, x.type(torch.float32) is x)
for y in (x.double(), x.half(), x.bfloat16(), x.to(torch.complex64), x.type(torch.float64), x.to(torch.float16).float()):
    print(y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
print(x.int().grad_fn, x.to(torch.bool).requires_grad, x.type(), x.half().type(), x.long().type(torch.float16))
y = x.to(torch.complex64) * (1 + 1j)
y.abs().sum().backward()
print(x.grad)
x.grad = None
(x.half() * 3).float().sum().backward()
print(x.grad, x.grad.dtype)
x.grad = None
z = x.double()
z.retain_grad()
(z ** 2).sum().backward()
print(z.grad, x.grad)
E(lambda: x.to('cpu', torch.int64))
E(lambda: x.to(torch.float64, torch.float32))
E(lambda: x.type(torch.int32))
'''

PROGRAMS['grad_layout_of_strided_leaves'] = PRE + r'''
a = torch.arange(6.).view(2, 3).t().detach().requires_grad_()
print(a.is_leaf, a.stride(), a.is_contiguous())
(a * 2).sum().backward()
print(a.grad.stride())
a.grad = None
(a @ torch.ones(2, 2)).sum().backward()
print(a.grad.stride(), a.grad)
b = torch.ones(4, 3)[::2].detach().requires_grad_()
(b * 3).sum().backward()
print(b.stride(), b.grad.stride())
c = torch.ones(2, 1, 3).expand(2, 4, 3).detach().requires_grad_()
(c * 3).sum().backward()
print(c.stride(), c.grad.stride())
f = torch.zeros(2, 3).t().detach().requires_grad_()
print(f.clone().stride(), (f + 1).stride(), (f * torch.ones(3, 2)).stride(), f.exp().stride(), torch.where(f > 0, f, f).stride())
'''

PROGRAMS['zero_dim_and_empty_basics'] = PRE + r'''
for t in (torch.tensor(3.), torch.tensor(0), torch.zeros(0, 2), torch.tensor([[0, 1], [2, 0]]), torch.tensor([True, False, True])):
    print(t.nonzero(), t.nonzero(as_tuple=True), torch.count_nonzero(t), t.any(), t.all())
    E(lambda: t.argmax(0))
    E(lambda: t.max())
    print(t.sum(), t.float().mean(), t.flip(0) if t.dim() else t, t.view(-1), t.squeeze().shape, t.tolist())
    print(t[t > 0], t.masked_fill(t > 0, 9), torch.where(t > 0, t, -t) if t.dtype is not torch.bool else None)
x = torch.tensor(2., requires_grad=True)
y = torch.stack([x, x * 2, x ** 2])
print(y, y.grad_fn)
y[torch.tensor([True, False, True])].sum().backward()
print(x.grad)
'''

PROGRAMS['index_assign_broadcast_nonleaf'] = PRE + r'''
x = torch.arange(12., requires_grad=True)
y = x.view(3, 4) * 1
v = torch.tensor([10., 20., 30., 40.], requires_grad=True)
y[y > 5] = 0.
print(y.grad_fn.name())
y[torch.tensor([True, False, True])] = v
w = torch.tensor(7., requires_grad=True)
y[1, torch.tensor([1, 3])] = w
y[:, -1] += w
print(y, y._version)
y.sum().backward()
print(x.grad, v.grad, w.grad)
z = torch.zeros(3, 4)
z[[0, 2], 1:3] = torch.tensor([[1., 2.]], requires_grad=True)
print(z, z.requires_grad, z.grad_fn.name())
z3 = torch.zeros(4)
z3[torch.tensor([0, 0, 1])] += torch.tensor([1., 2., 3.])
print(z3)
E(lambda: torch.zeros(2, 3).__setitem__((slice(None), [0, 1]), torch.ones(3, 2)))
E(lambda: torch.zeros(2, 3).__setitem__(torch.zeros(2, 3, dtype=torch.bool), torch.ones(5)))
'''

# ---- training-loop bookkeeping: minibatches by index, one-hot and accuracy, running statistics

PROGRAMS['minibatch_regression_indexing'] = PRE + r'''
torch.manual_seed(3)
X = torch.linspace(-1, 1, 20).view(-1, 1)
y = 3 * X[:, 0] - 0.5 + 0.1 * torch.randn(20)
w = torch.zeros(1, requires_grad=True)
b = torch.zeros((), requires_grad=True)
for epoch in range(3):
    perm = torch.randperm(20)
    for i in range(0, 20, 8):
        idx = perm[i:i + 8]
        xb, yb = X[idx], y[idx]
        pred = xb @ w + b
        loss = ((pred - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.5 * w.grad
            b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad = None
    print(f"epoch {epoch}: loss={loss.item():.6f} w={w.item():.4f} b={b.item():.4f}", idx.tolist(), xb.shape, pred.grad_fn)
'''

PROGRAMS['one_hot_accuracy_argmax'] = PRE + r'''
torch.manual_seed(0)
logits = torch.randn(6, 4, requires_grad=True)
target = torch.tensor([0, 3, 1, 1, 2, 0])
oh = torch.nn.functional.one_hot(target, num_classes=4)
print(oh, oh.dtype)
oh2 = torch.zeros(6, 4).scatter_(1, target.unsqueeze(1), 1.)
print(torch.equal(oh.float(), oh2))
p = logits.softmax(dim=1)
loss = -(oh * p.log()).sum(1).mean()
loss.backward()
pred = logits.argmax(dim=1)
acc = (pred == target).float().mean()
print(pred, acc, acc.item(), f"{100 * acc:.1f}%", (pred == target).sum().item())
print(logits.grad.sum(1), logits.grad[torch.arange(6), target])
E(lambda: torch.nn.functional.one_hot(target.float()))
E(lambda: torch.nn.functional.one_hot(target, 3))
E(lambda: torch.nn.functional.one_hot(torch.tensor([-1])))
print(torch.nn.functional.one_hot(torch.tensor([[1], [2]])).shape, torch.nn.functional.one_hot(torch.tensor(2), 3))
'''

PROGRAMS['running_stats_bookkeeping'] = PRE + r'''
torch.manual_seed(1)
x = torch.randn(5, 3, requires_grad=True)
hist = []
total = torch.tensor(0.)
for step in range(3):
    loss = (x * (step + 1)).pow(2).mean()
    loss.backward()
    hist.append(loss.item())
    total += loss.detach()
    print(step, loss, total, total.requires_grad, x.grad.norm())
print([round(h, 4) for h in hist], torch.tensor(hist), torch.tensor(hist).mean(), max(hist), sum(hist))
stats = torch.stack([x.mean(0), x.std(0), x.amin(0), x.amax(0)])
print(stats, stats.grad_fn)
best = x.detach().clone()
best[best < 0] = 0
print(best, best.nonzero().shape, best.count_nonzero(dim=0))
E(lambda: total.backward())
E(lambda: hist[0].backward())
'''

# ---- the fixes: numbers out of a dtype range, index bounds and dtypes, +x, pow(x, e, m), remainders, einsum typos,
# 0-dim integer tensors as ints, tensor_split with tensors, complex powers

PROGRAMS['setitem_number_overflow_checks'] = PRE + r'''
w = torch.zeros(3, requires_grad=True)
with torch.no_grad():
    w[0] = 1e300 if False else 2.5
    E(lambda: w.__setitem__(1, 1e39))
    E(lambda: w.__setitem__([1], 10**40))
print(w)
(w * 2).sum().backward()
print(w.grad)
h = torch.zeros(3, dtype=torch.float16)
h[0] = 1e6
h[1:] = -70000
print(h)
labels = torch.zeros(4, dtype=torch.uint8)
labels[0] = -1
labels[torch.tensor([False, True, False, False])] = 7.9
E(lambda: labels.__setitem__(2, 256))
E(lambda: labels.__setitem__(2, -1.5))
print(labels)
i = torch.zeros(2, dtype=torch.int16)
E(lambda: i.__setitem__(0, 40000))
E(lambda: i.__setitem__(slice(None), -40000.0))
l = torch.zeros(2, dtype=torch.long)
E(lambda: l.__setitem__(0, 2**63))
E(lambda: l.__setitem__(0, 1e19))
E(lambda: l.__setitem__(0, float('nan')))
b = torch.zeros(2, dtype=torch.bool)
b[0] = -1.5
print(i, l, b)
'''

PROGRAMS['fill_number_overflow_checks'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x * 2
y.fill_(-7)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
E(lambda: x.fill_(1e39))
E(lambda: (x * 1).fill_(1e39))
E(lambda: torch.zeros(2, dtype=torch.float16).fill_(1e6))
E(lambda: torch.zeros(2, dtype=torch.bfloat16).fill_(1e300))
print(torch.zeros(2, dtype=torch.float16).fill_(float('inf')), torch.zeros(2).fill_(float('nan')))
E(lambda: torch.zeros(2, dtype=torch.uint8).fill_(256))
print(torch.zeros(2, dtype=torch.uint8).fill_(-255), torch.zeros(2, dtype=torch.uint8).fill_(2.5))
E(lambda: torch.zeros(2, dtype=torch.int16).fill_(40000))
E(lambda: torch.zeros(2, dtype=torch.long).fill_(2**63))
E(lambda: torch.zeros(2).fill_(10**40))
E(lambda: torch.zeros(2, dtype=torch.int32).fill_(2**40))
print(torch.zeros(2, dtype=torch.bool).fill_(5), torch.zeros(2, dtype=torch.int8).fill_(-128))
'''

PROGRAMS['adv_index_out_of_bounds_dims'] = PRE + r'''
w = torch.arange(24., requires_grad=True)
x = w.view(2, 3, 4)
E(lambda: x[:, [0], [9]])
E(lambda: x[[0], :, [9]])
E(lambda: x[:, :, [0, 9]])
E(lambda: x[[0, 1], [0, 5]])
E(lambda: x[[0, 5], [0, 1, 2]])
E(lambda: x[[0, 1], [5, 0], [9, 0]])
E(lambda: x[[1], torch.tensor([[True, False, True, True]] * 3)])
E(lambda: x[torch.tensor([[True, False, True]] * 2), [7]])
E(lambda: x[..., [4]])
E(lambda: x[None, :, [-4]])
y = x * 1
def put(): y[:, [5]] = 1.
def put2(): y[[0], [0], [7]] += 1.
E(put); E(put2)
E(lambda: y.index_put_((torch.tensor([0]), torch.tensor([4])), torch.tensor(1.)))
z = x[:, [2, 0], [-1]]
print(z, z.grad_fn)
z.sum().backward()
print(w.grad.view(2, 3, 4)[0])
'''

PROGRAMS['index_tensor_dtypes'] = PRE + r'''
x = torch.arange(12., requires_grad=True).view(3, 4)
for dt in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool):
    i = torch.tensor([1, 0, 1], dtype=dt) if dt is not torch.bool else torch.tensor([True, False, True])
    E(lambda: x[i].shape)
    E(lambda: x[i[1]].shape)
    E(lambda: x.index_select(0, i).shape)
    def put(): y = x.detach().clone(); y[i] = -1.; return y.sum()
    E(put)
y = x[torch.tensor([2, 2], dtype=torch.int32)]
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
E(lambda: x[torch.tensor([0.5])])
E(lambda: x[torch.tensor([1+0j])])
E(lambda: x["a"])
'''

PROGRAMS['python_unary_pow_mod_operators'] = PRE + r'''
x = torch.tensor([2., -3.], requires_grad=True)
p = +x
print(p is x, +torch.tensor([1, 2]), (-x).grad_fn)
m = torch.tensor([True, False])
E(lambda: +m)
E(lambda: -m)
print(~m, m.logical_not(), abs(torch.tensor([-1, 2])))
E(lambda: pow(x, 2, 5))
E(lambda: pow(torch.tensor(2), 3, 5))
print(pow(x, 2), pow(2, torch.tensor([1, 3])))
u = torch.tensor([3, 1, 200], dtype=torch.uint8)
print(-2 % u, 7 % u, u % 3)
u %= -2
print(u)
bf = torch.tensor([3., 1., -2.], dtype=torch.bfloat16, requires_grad=True)
r = -2 % bf
print(r, r.grad_fn)
r2 = bf % 1
print(r2, (bf.detach() % -1))
r2.sum().backward()
print(bf.grad)
print(torch.tensor([-2.], dtype=torch.float16) % 1, torch.remainder(torch.tensor([-4.], dtype=torch.bfloat16), 2))
'''

PROGRAMS['index_add_out_of_range_messages'] = PRE + r'''
src = torch.ones(2, 2, requires_grad=True)
base = torch.zeros(2, 3)
y = base.index_add(1, torch.tensor([0, 2]), src * 2)
print(y, y.grad_fn)
y.sum().backward()
print(src.grad)
E(lambda: base.index_add(1, torch.tensor([0, 3]), src))
E(lambda: base.index_add(1, torch.tensor([0, 3]), src, alpha=2))
E(lambda: base.index_add(1, torch.tensor([0, 3], dtype=torch.int32), src))
E(lambda: base.index_add(0, torch.tensor([-1, 2]), torch.ones(2, 3)))
E(lambda: base.index_add(0, torch.tensor([1, 3]), torch.ones(2, 3), alpha=0.5))
c = torch.zeros(2, 3, 4)
E(lambda: c.index_add(1, torch.tensor([0, 3]), torch.ones(2, 2, 4)))
E(lambda: c.index_add(1, torch.tensor([0, -1]), torch.ones(2, 2, 4)))
E(lambda: c.index_add(-1, torch.tensor([-5, 4]), torch.ones(2, 3, 2)))
E(lambda: c.index_add(0, torch.tensor([0, 2]), torch.ones(2, 3, 4)))
E(lambda: torch.zeros(3).index_add(0, torch.tensor([-1, 3]), torch.ones(2)))
E(lambda: torch.zeros(3, 2).t().index_add_(1, torch.tensor([0, 3]), torch.ones(2, 2)))
'''

PROGRAMS['einsum_equation_typos'] = PRE + r'''
a = torch.arange(6., requires_grad=True).view(2, 3)
b = torch.ones(3, 4)
y = torch.einsum(' ij , jk -> ik ', a, b)
print(y, y.grad_fn)
y.sum().backward()
print(a.grad)
for eq, ops in [('i.j', (a,)), ('i..j', (a,)), ('...i...', (torch.ones(2, 3, 4),)), ('i 1', (a,)), ('ij,j$', (a, b)),
                ('ij->i.', (a,)), ('ij->..i..', (a,)), ('ij->...i...', (a,)), ('ij -> i1', (a,)), ('...ijkl', (a,)),
                ('ij,jk,', (a, b)), ('ij,,jk', (a, b, b)), ('', ()), ('ij', ([],)), ('...ij', (torch.ones(3),))]:
    print(repr(eq), end=' ')
    E(lambda: torch.einsum(eq, *ops))
print(torch.einsum('...ij->', torch.ones(3, 2)), torch.einsum('i...->...i', torch.ones(2, 3)).shape)
'''

PROGRAMS['zero_dim_int_tensor_arguments'] = PRE + r'''
n = torch.tensor(5)
t = torch.linspace(0, 1, n, requires_grad=True)
print(t, t.is_leaf)
print(torch.logspace(0, 2, torch.tensor(3)), torch.logspace(0, 1, torch.tensor(3), base=torch.tensor(2.)))
E(lambda: torch.linspace(0, 1, torch.tensor([3])))
E(lambda: torch.linspace(0, 1, torch.tensor(3.)))
E(lambda: torch.linspace(0, 1, torch.tensor(-1)))
x = torch.arange(6., requires_grad=True).view(2, 3)
d = torch.tensor(1)
s = x.sum(d)
print(s, s.grad_fn, x.mean(d), x.amax(d), x.var(d))
r = x.roll(torch.tensor(2))
print(r, r.grad_fn)
E(lambda: x.roll(torch.tensor(1.)))
E(lambda: x.sum(torch.tensor(1.)))
print(x.sum(torch.tensor(True)), x.roll(torch.tensor(True)), x.sum(torch.tensor(1, dtype=torch.uint8)))
(s.sum() + (r * torch.arange(6.).view(2, 3)).sum()).backward()
print(x.grad if x.is_leaf else x._base.grad)
print(x.narrow(1, torch.tensor(1), 2), x.unsqueeze(torch.tensor(0)).shape, x.topk(torch.tensor(2)).values)
'''

PROGRAMS['tensor_split_index_tensors'] = PRE + r'''
x = torch.arange(7., requires_grad=True)
parts = x.tensor_split(torch.tensor([1, -2]))
print(parts)
print(x.tensor_split(torch.tensor(3)), [p.shape for p in x.tensor_split((1, 9))])
E(lambda: x.tensor_split(torch.tensor([1, 5], dtype=torch.int32)))
E(lambda: x.tensor_split(torch.tensor([1.5])))
E(lambda: x.tensor_split(torch.tensor([[1]])))
E(lambda: x.tensor_split(torch.tensor([True])))
E(lambda: torch.tensor(1.).tensor_split(torch.tensor([1.])))
E(lambda: x.tensor_split(3, dim=1))
(parts[0].sum() * 1 + parts[1].sum() * 2 + parts[2].sum() * 3).backward()
print(x.grad)
print(torch.hsplit(x.detach(), [2, 3]), torch.vsplit(x.detach().view(7, 1), 7)[6])
E(lambda: torch.hsplit(x, 2))
'''

PROGRAMS['complex_powers_whole_exponents'] = PRE + r'''
torch.set_printoptions(precision=8)
c = torch.tensor([3+0j, 1, -2, 1j, 0.5+0.5j, 0j, 1.5-2.25j])
for e in (4, -3, 10, 1, 0, 2, 2.5, 1+0j, 4+0j):
    print(e, c ** e)
for e in (torch.tensor(3.), torch.tensor(0.), torch.tensor(-1+0j), torch.tensor(2)):
    print(e, c ** e)
r = torch.tensor([3., 1., 0., -2.])
print(2j ** torch.tensor([0., 1., 2., 3., -1.]), (1+1j) ** torch.tensor([2, 3]), 0j ** c, r ** (2+0j), torch.tensor(2j) ** r)
x = torch.tensor([1+1j, 2-1j], requires_grad=True)
y = x ** 4
print(y, y.grad_fn)
y.abs().sum().backward()
print(x.grad)
w = torch.tensor([0j, 1j, -1+1j])
w **= 3
print(w, torch.pow(c, torch.tensor([2, 3, 4, 5, 6, 7, 8])))
'''

PROGRAMS['as_strided_offsets_and_errors'] = PRE + r'''
x = torch.arange(10., requires_grad=True)
v = x[2:]
a = v.as_strided((2,), (1,))
b = v.as_strided((2,), (1,), 0)
c = v.as_strided((2, 2), (3, 1), 5)
print(a, a.storage_offset(), b, b.storage_offset(), c, c._base is x)
(a.sum() + b.sum() * 10 + c.sum() * 100).backward()
print(x.grad)
t = x.detach().view(2, 5).t()
print(t.as_strided((2, 2), (1, 5)), t.as_strided((3,), (2,), 1), torch.as_strided(t, (2,), (0,)))
E(lambda: v.as_strided((5,), (2,), 3))
E(lambda: v.as_strided((2,), (-1,)))
E(lambda: v.as_strided((2, 2), (1,)))
E(lambda: v.as_strided((-1,), (1,)))
E(lambda: v.as_strided((2, -1), (1, 1), 100))
E(lambda: v.as_strided((2,), (1,), -1))
print(v.as_strided((0,), (1,), 100))
y = x * 1
z = y.as_strided((3,), (2,), 1)
z.mul_(10)
print(y, y.grad_fn.name(), z.grad_fn.name())
y.sum().backward()
print(x.grad)
'''

PROGRAMS['unary_plus_and_pow_on_a_subclass'] = PRE + r'''
class Log(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print('TF', getattr(func, '__name__', func), len(args), sorted((kwargs or {}).keys()))
        return super().__torch_function__(func, types, args, kwargs)
x = torch.tensor([1., -2.], requires_grad=True)
m = x.as_subclass(Log)
r = +m
print(type(r).__name__, r is m)
y = m ** 2
z = 2 ** m
print(type(y).__name__, type(z).__name__)
(y.sum() + z.sum()).backward()
print(x.grad)
E(lambda: pow(m, 2, 3))
E(lambda: +torch.tensor([True]).as_subclass(Log))
'''


@pytest.fixture(autouse=True, scope="module")
def _backward_with_gradient_warmed_up():
    """PyTorch's first ``backward(gradient)`` imports its symbolic-shapes module (sympy: seconds): done here, so
    that no program's time depends on whether it is the first to pass a gradient."""
    torch = pytest.importorskip("torch")
    (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
