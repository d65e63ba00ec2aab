"""Parity programs from a thirty-second hunt: dtypes and devices a student mixes into autograd programs.

float16 / bfloat16 leaves and their gradients (printed in reduced precision), casts in the middle of graphs
(``.half()``, ``.bfloat16()``, ``.to(dtype)``, ``.type(torch.HalfTensor)``: ToCopyBackward0 and its saved fields),
float64 models fed float32 inputs (the dtype-mismatch errors), integer and bool tensors in graphs (requires_grad
errors, promotion with float leaves, comparisons cutting the graph), complex leaves under real losses, programs run
again under ``set_default_dtype(torch.float64)``, ``torch.tensor`` / ``as_tensor`` / ``from_numpy`` of Python and
NumPy values, ``.item()`` / ``.tolist()`` / ``float()`` of results, ``finfo`` / ``iinfo`` prints, ``.to('cpu')``
and ``.cpu()`` nodes, and ``torch.autocast('cpu', dtype=torch.bfloat16)`` regions. Each program must print
exactly what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every
warning also printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- reduced-precision leaves and casts in the middle of graphs

PROGRAMS['half_leaf_grad_printing'] = PRE + r'''
x = torch.tensor([0.1, 1.7, -3.33, 1000.5], dtype=torch.float16, requires_grad=True)
print(x, x.dtype, x.element_size())
y = (x * x * 0.37).sum()
print(y, y.dtype, y.grad_fn)
y.backward()
print(x.grad, x.grad.dtype)
z = x.exp()
print(z, z.isinf().any())
z2 = (x / 3).sum()
z2.backward()
print(x.grad)
print(x.grad.float(), x.grad.float().dtype)
print(x.sum().item(), x.mean(), x.float().mean())
'''

PROGRAMS['bf16_leaf_sgd_steps'] = PRE + r'''
w = torch.tensor([[0.3, -1.1], [2.5, 0.01]], dtype=torch.bfloat16, requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], dtype=torch.bfloat16)
t = torch.tensor([1.0, 0.0, 2.0], dtype=torch.bfloat16)
for step in range(3):
    out = (x @ w).sum(1)
    loss = ((out - t) ** 2).mean()
    loss.backward()
    print(step, loss, loss.item(), out.grad_fn, w.grad)
    with torch.no_grad():
        w -= 0.05 * w.grad
    w.grad = None
print(w, w.dtype, w.is_leaf)
print(w.float(), w.double().sum())
'''

PROGRAMS['tocopy_in_middle_saved_fields'] = PRE + r'''
x = torch.tensor([1.5, -2.25, 3.0], requires_grad=True)
h = x.half()
print(h, h.grad_fn, h.grad_fn.name(), h.grad_fn.next_functions)
b = x.bfloat16()
d = x.to(torch.float64)
print(b.grad_fn, d.grad_fn)
for n in dir(h.grad_fn):
    if n.startswith('_saved'):
        print(n, getattr(h.grad_fn, n))
y = (h * 3).sum() + (b ** 2).sum() + d.sin().sum()
print(y.dtype, y)
y.backward()
print(x.grad, x.grad.dtype)
print(x.to(torch.float32) is x, x.float() is x, x.to('cpu') is x, x.cpu() is x)
print(x.to(torch.float32, copy=True).grad_fn, x.clone().grad_fn)
'''

PROGRAMS['type_halftensor_strings'] = PRE + r'''
# fixed: x.type(torch.cuda.FloatTensor) fails as a CPU-only PyTorch does (the class exists)
x = torch.tensor([0.5, 0.25, 3.0], requires_grad=True)
h = x.type(torch.HalfTensor)
print(h, h.type(), h.grad_fn)
d = x.type('torch.DoubleTensor')
print(d.type(), d.grad_fn, x.type())
s = x.type(torch.float32)
print(s is x, s.grad_fn)
i = x.type(torch.LongTensor)
print(i, i.requires_grad, i.grad_fn)
(h.float() * d).sum().backward()
print(x.grad)
E(lambda: x.type('float'))
E(lambda: x.type(torch.cuda.FloatTensor))
print(torch.HalfTensor, torch.tensor([1, 2]).type(torch.FloatTensor))
'''

PROGRAMS['double_model_float_input'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2).double()
x = torch.randn(4, 3)
print(lin.weight.dtype, x.dtype)
E(lambda: lin(x))
E(lambda: x @ lin.weight.T)
E(lambda: torch.mm(x, lin.weight.T))
E(lambda: torch.addmm(lin.bias, x, lin.weight.T))
E(lambda: torch.matmul(x[0], lin.weight.T))
E(lambda: torch.bmm(x[None], lin.weight.T[None]))
out = lin(x.double())
print(out.dtype, out.grad_fn)
out.sum().backward()
print(lin.weight.grad.dtype, lin.bias.grad)
print((x * lin.weight[0, :3]).dtype)
'''

PROGRAMS['int_tensors_requires_grad_errors'] = PRE + r'''
E(lambda: torch.tensor([1, 2, 3], requires_grad=True))
E(lambda: torch.tensor([True, False], requires_grad=True))
E(lambda: torch.arange(3).requires_grad_())
E(lambda: torch.zeros(2, dtype=torch.long, requires_grad=True))
E(lambda: torch.ones(2, dtype=torch.int32).requires_grad_(True))
t = torch.arange(3)
E(lambda: setattr(t, 'requires_grad', True))
print(t.requires_grad_(False), t.requires_grad)
E(lambda: torch.nn.Parameter(torch.arange(3)))
p = torch.nn.Parameter(torch.arange(3), requires_grad=False)
print(p, p.dtype)
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.long().requires_grad_())
E(lambda: torch.randint(0, 5, (3,), requires_grad=True))
'''

PROGRAMS['int_times_float_leaf_promotion'] = PRE + r'''
x = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
k = torch.tensor([2, 3, 4])
y = k * x
print(y, y.dtype, y.grad_fn, y.grad_fn._saved_self, y.grad_fn._saved_other)
z = x + torch.tensor([True, False, True])
print(z, z.grad_fn)
w = x / k
print(w, w.grad_fn)
v = k ** x
print(v, v.grad_fn)
(y.sum() + z.sum() + w.sum() + v.sum()).backward()
print(x.grad)
u = torch.tensor([1, 2, 3], dtype=torch.uint8) * x.double()
print(u.dtype, u)
print((k * 1.5).dtype, (k / 2).dtype, (k // 2).dtype, (k * True).dtype)
'''

PROGRAMS['comparisons_cut_graph'] = PRE + r'''
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
m = x > 0
print(m, m.requires_grad, m.grad_fn, m.dtype)
y = m * x
print(y, y.grad_fn)
z = m.float() * x ** 2
print(z, z.grad_fn)
E(lambda: m.sum().backward())
(y.sum() + z.sum()).backward()
print(x.grad)
s = torch.sign(x)
print(s, s.grad_fn)
idx = x.argmax()
print(idx, idx.requires_grad, idx.dtype)
r = x.round()
print(r.grad_fn, x.floor().grad_fn)
eq = (x == x.detach())
print(eq, eq.all(), bool(eq.all()))
'''

PROGRAMS['long_in_middle_of_graph'] = PRE + r'''
x = torch.tensor([0.7, 1.2, 2.9], requires_grad=True)
y = x * 3
i = y.long()
print(i, i.requires_grad, i.grad_fn)
z = i * x
print(z, z.dtype, z.grad_fn)
z.sum().backward()
print(x.grad)
j = y.to(torch.int32)
print(j.grad_fn, j.dtype)
k = y.int().float()
print(k.requires_grad, k.grad_fn)
E(lambda: k.sum().backward())
b = y.bool()
print(b, b.requires_grad)
emb = torch.nn.Embedding(5, 2)
E(lambda: emb(x))
print(emb(x.detach().long()).shape)
'''

# ---- complex leaves under real-valued losses

PROGRAMS['complex_leaf_abs_angle_losses'] = PRE + r'''
z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j], requires_grad=True)
print(z, z.dtype, z.abs(), z.angle())
loss = (z.abs() ** 2).sum()
print(loss, loss.grad_fn, loss.dtype)
loss.backward()
print(z.grad, z.grad.dtype)
z.grad = None
(z.angle().sum()).backward()
print(z.grad)
z.grad = None
(z.real * 2 + z.imag * 3).sum().backward()
print(z.grad)
z.grad = None
r = torch.view_as_real(z)
print(r, r.grad_fn)
(r[:, 0] - r[:, 1] ** 2).sum().backward()
print(z.grad)
'''

PROGRAMS['complex_scalar_backward_error'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
s = (z * z).sum()
print(s, s.dtype, s.grad_fn)
E(lambda: s.backward())
s.backward(torch.tensor(1 + 0j))
print(z.grad)
s2 = (z.conj() * z).sum()
print(s2, s2.grad_fn)
E(lambda: s2.backward())
s2.real.backward()
print(z.grad)
E(lambda: torch.autograd.grad((z * 2).sum(), z))
g, = torch.autograd.grad((z * 2).sum(), z, grad_outputs=torch.tensor(1j))
print(g)
'''

PROGRAMS['complex_param_fit_with_sgd'] = PRE + r'''
w = torch.tensor(0.5 + 0.5j, requires_grad=True)
x = torch.tensor([1 + 0j, 1j, -1 + 1j])
t = torch.tensor([2 + 1j, -1 + 2j, -3 + 1j])
opt = torch.optim.SGD([w], lr=0.1)
for i in range(4):
    opt.zero_grad()
    err = w * x - t
    loss = (err.abs() ** 2).mean()
    loss.backward()
    print(i, round(loss.item(), 5), w.grad)
    opt.step()
print(w, w.is_complex(), w.is_floating_point())
print(torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)).grad_fn)
'''

PROGRAMS['complex_from_real_parts'] = PRE + r'''
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, -1.0], requires_grad=True)
z = torch.complex(a, b)
print(z, z.grad_fn)
p = torch.polar(a, b)
print(p, p.grad_fn)
loss = (z * p).abs().sum() + (z.conj() * 1j).real.sum()
loss.backward()
print(a.grad, b.grad)
E(lambda: torch.complex(a, b.double()))
E(lambda: torch.complex(a.long(), b.long()))
c = a + 1j
print(c, c.dtype, c.grad_fn)
print((a * 1j).dtype, (a.double() * 1j).dtype, (a.bfloat16() * 1j).dtype)
'''

# ---- default dtype float64

PROGRAMS['default_dtype_float64_same_program'] = PRE + r'''
torch.set_default_dtype(torch.float64)
x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = (x.exp() * torch.arange(3)).sum()
print(x.dtype, torch.arange(3).dtype, torch.arange(3.).dtype, y)
y.backward()
print(x.grad)
lin = torch.nn.Linear(3, 1)
print(lin.weight.dtype)
print(torch.tensor(1.5).dtype, torch.tensor(1 + 2j).dtype, torch.zeros(1).dtype, torch.get_default_dtype())
print(torch.tensor([1, 2.5]), torch.randn(2, generator=torch.Generator().manual_seed(0)))
f = torch.tensor([1., 2.], dtype=torch.float32, requires_grad=True)
print((f * x[:2]).dtype, (f * 0.1).dtype, (f * torch.tensor(0.1)).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor(1.5).dtype, torch.tensor(1j).dtype)
'''

PROGRAMS['default_dtype_errors_and_half'] = PRE + r'''
# fixed: a dtype's name is refused as "invalid dtype object"; a bfloat16 default has no complex counterpart for
# torch.tensor's inferred dtype (full() still takes complex64)
E(lambda: torch.set_default_dtype(torch.int64))
E(lambda: torch.set_default_dtype(torch.complex64))
E(lambda: torch.set_default_dtype('float64'))
torch.set_default_dtype(torch.float16)
x = torch.tensor([1 / 3, 2.0], requires_grad=True)
print(x, x.dtype)
(x ** 2).sum().backward()
print(x.grad)
torch.set_default_dtype(torch.bfloat16)
print(torch.ones(2).dtype, torch.tensor([0.1]), torch.full((2,), 1j).dtype)
E(lambda: torch.tensor(1j))
E(lambda: torch.tensor([1, 2j]))
torch.set_default_dtype(torch.float32)
'''

# ---- creation from Python and NumPy values

PROGRAMS['tensor_of_mixed_python_lists'] = PRE + r'''
for v in [[1, 2.5], [True, 2], [1, 2j], [True, False], [1.0, True], [[1], [2.0]], 3, 3.0, True, 2j, [], [[]]]:
    t = torch.tensor(v)
    print(repr(v), t, t.dtype, t.shape)
E(lambda: torch.tensor([[1, 2], [3]]))
E(lambda: torch.tensor([1, 'a']))
E(lambda: torch.tensor([1, None]))
E(lambda: torch.tensor(2 ** 63))
print(torch.tensor(2 ** 63 - 1), torch.tensor(-2 ** 63))
print(torch.tensor([1e40]), torch.tensor([1e40], dtype=torch.float64))
print(torch.tensor(3, dtype=torch.float32, requires_grad=True))
'''

PROGRAMS['numpy_arrays_into_graphs'] = PRE + r'''
import numpy as np
a32 = np.array([1.5, 2.5], dtype=np.float32)
a64 = np.array([0.1, 0.2])
ai = np.array([1, 2, 3])
w = torch.tensor([2.0, -1.0], requires_grad=True)
for a in (a32, a64, ai[:2]):
    t = torch.from_numpy(a)
    y = (w * t).sum()
    print(t.dtype, y.dtype, y)
print(torch.as_tensor(a64).dtype, torch.as_tensor(a64, dtype=torch.float32).dtype, torch.tensor(a64).dtype)
t = torch.from_numpy(a32)
a32[0] = 100
print(t)
y = w * torch.as_tensor(a64)
y.sum().backward()
print(w.grad, y.dtype)
E(lambda: w.numpy())
E(lambda: y.numpy())
print(w.detach().numpy(), y.detach().numpy().dtype, w.numpy(force=True))
print(torch.from_numpy(np.float64(3.0)) if False else torch.as_tensor(np.float64(3.0)).dtype)
E(lambda: torch.from_numpy([1, 2]))
'''

PROGRAMS['item_tolist_float_int_of_results'] = PRE + r'''
x = torch.tensor([1.25, -2.5, 3.75], requires_grad=True)
y = (x ** 2).sum()
print(y.item(), type(y.item()), float(y), int(y), y.tolist())
print(x.tolist(), type(x.tolist()[0]))
E(lambda: x.item())
E(lambda: float(x))
print(x.half().sum().item(), x.bfloat16().tolist(), x.long().tolist(), (x > 0).tolist())
z = torch.tensor(1 + 2j, requires_grad=True)
print(z.item(), complex(z), z.tolist())
E(lambda: float(z))
E(lambda: int(z))
print(int(torch.tensor(-2.7)), round(torch.tensor(2.5).item()), bool(torch.tensor(0.0)))
E(lambda: bool(x))
print(torch.tensor(3).item().__class__, torch.tensor(True).item().__class__)
print('%.3f' % y, f'{y:.2f}', f'{torch.tensor(7):d}')
'''

PROGRAMS['finfo_iinfo_prints'] = PRE + r'''
for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(fi)
    print(fi.bits, fi.eps, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.dtype)
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    ii = torch.iinfo(dt)
    print(ii, ii.bits, ii.max, ii.min, ii.dtype)
print(torch.finfo(), torch.finfo(torch.complex64))
E(lambda: torch.finfo(torch.int32))
E(lambda: torch.iinfo(torch.float32))
E(lambda: torch.iinfo(torch.bool))
x = torch.tensor([1.0], dtype=torch.float16, requires_grad=True)
print(torch.finfo(x.dtype).eps, x + torch.finfo(x.dtype).eps, x + torch.finfo(x.dtype).eps / 2)
'''

# ---- devices

PROGRAMS['to_cpu_grad_fn_names'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x.to('cpu')
b = x.cpu()
c = x.to(device='cpu', dtype=torch.float64)
d = x.to(torch.device('cpu'), torch.float16)
e = x.to('cpu', copy=True)
print(a is x, b is x, c.grad_fn, d.grad_fn, e.grad_fn, e is x)
print(c.device, x.device, x.is_cpu, x.is_cuda, x.device.type, x.device.index)
(c.sum() + d.float().sum() + e.sum()).backward()
print(x.grad)
y = x * 2
print(y.to('cpu') is y, y.cpu().grad_fn)
print(x.to(x), x.to(torch.zeros(1, dtype=torch.float64)).grad_fn)
E(lambda: x.to('cuda'))
E(lambda: x.to('gpu'))
E(lambda: x.to(dtype='float64'))
print(torch.device('cpu:0'), torch.device('cpu', 0), torch.device('cpu') == torch.device('cpu:0'))
print(torch.zeros(2, device='cpu:0').device)
'''

PROGRAMS['tocopy_double_backward_and_saved'] = PRE + r'''
x = torch.tensor([0.5, 1.0], requires_grad=True)
h = x.double()
y = (h ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.dtype, g.grad_fn, g.grad_fn.next_functions)
g.sum().backward()
print(x.grad, x.grad.dtype)
n = h.grad_fn
print(type(n).__name__, n.metadata, n.next_functions[0][0].variable is x)
print([a for a in dir(n) if a.startswith('_saved') or a.startswith('_raw')])
'''

PROGRAMS['cuda_legacy_tensor_types_on_cpu'] = PRE + r'''
# fixed: torch.cuda.FloatTensor & co exist without CUDA (old tutorials' dtype switch), and refuse to construct
dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
print(dtype, torch.cuda.FloatTensor, torch.cuda.LongTensor, torch.cuda.FloatTensor.dtype, torch.cuda.FloatTensor.is_cuda)
x = torch.randn(3, generator=torch.Generator().manual_seed(1)).type(dtype).requires_grad_()
(x * x).sum().backward()
print(x.grad, isinstance(x, torch.cuda.FloatTensor), isinstance(x, torch.FloatTensor), torch.FloatTensor.is_cuda)
E(lambda: torch.cuda.FloatTensor([1.]))
E(lambda: torch.cuda.LongTensor(2))
E(lambda: x.type(torch.cuda.FloatTensor))
E(lambda: torch.set_default_tensor_type(torch.cuda.DoubleTensor))
E(lambda: torch.set_default_tensor_type('torch.cuda.FloatTensor'))
print(torch.get_default_dtype())
E(lambda: x.cuda())
'''

# ---- autocast regions

PROGRAMS['autocast_bf16_linear_grad_dtypes'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(4, 3)
x = torch.randn(2, 4)
with torch.autocast('cpu', dtype=torch.bfloat16):
    y = lin(x)
    print(y.dtype, y.grad_fn, y.grad_fn.next_functions)
    r = y.relu()
    s = y.float().sum()
    print(r.dtype, s.dtype, torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
loss = (y.float() ** 2).mean()
print(loss.dtype, torch.is_autocast_enabled('cpu'))
loss.backward()
print(lin.weight.grad.dtype, lin.bias.grad.dtype)
print(lin.weight.grad, lin.bias.grad)
'''

PROGRAMS['autocast_which_ops_cast'] = PRE + r'''
torch.manual_seed(0)
a = torch.randn(3, 3, requires_grad=True)
b = torch.randn(3, 3)
with torch.autocast(device_type='cpu', dtype=torch.bfloat16):
    m = a @ b
    e = a.exp()
    s = torch.softmax(a, 0)
    add = a + b
    mm = torch.mm(a, b)
    bm = torch.bmm(a[None], b[None])
    ls = torch.log_softmax(m, 1)
    print(m.dtype, e.dtype, s.dtype, add.dtype, mm.dtype, bm.dtype, ls.dtype)
    print(m.grad_fn, m.grad_fn.next_functions)
    mixed = m + a
    print(mixed.dtype, mixed.grad_fn)
(m.float().sum() + mixed.float().sum()).backward()
print(a.grad.dtype, a.grad)
'''

PROGRAMS['autocast_nested_disable_and_decorator'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(2, 2, requires_grad=True)
x = torch.randn(2, 2)
with torch.autocast('cpu', dtype=torch.bfloat16):
    y = x @ w
    with torch.autocast('cpu', enabled=False):
        z = x @ w
        print(torch.is_autocast_enabled('cpu'), z.dtype)
        z2 = y.float() @ w
    print(y.dtype, z2.dtype, torch.is_autocast_enabled('cpu'))
@torch.autocast('cpu', dtype=torch.bfloat16)
def f(a, b):
    return torch.mm(a, b)
o = f(x, w)
print(o.dtype, o.grad_fn)
(y.float().sum() + z.sum() + z2.sum() + o.float().sum()).backward()
print(w.grad)
with W(lambda: torch.autocast('cpu', dtype=torch.int32)):
    print(torch.is_autocast_enabled('cpu'), (x @ w).dtype)
'''

PROGRAMS['autocast_float16_cpu_and_loss'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
t = torch.tensor([0, 1, 1, 0])
with torch.autocast('cpu', dtype=torch.float16):
    out = lin(x)
    loss = torch.nn.functional.cross_entropy(out, t)
    mse = torch.nn.functional.mse_loss(out, torch.zeros(4, 2))
    print(out.dtype, loss.dtype, mse.dtype, loss.grad_fn)
loss.backward()
print(lin.weight.grad.dtype, lin.weight.grad)
print(round(loss.item(), 4))
'''

# ---- more mixtures: models, gradients of another dtype, reductions with dtype=, in-place casts

PROGRAMS['half_model_forward_backward'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)).half()
x = torch.randn(5, 3).half()
print([p.dtype for p in model.parameters()])
out = model(x)
print(out.dtype, out.grad_fn, out.squeeze())
E(lambda: model(x.float()))
loss = out.float().pow(2).mean()
loss.backward()
print(model[0].weight.grad.dtype, model[0].weight.grad)
print(model[2].bias.grad)
model.float()
print(model[0].weight.dtype, model[0].weight.grad.dtype)
'''

PROGRAMS['bf16_adam_params'] = PRE + r'''
torch.manual_seed(0)
p = torch.randn(4).bfloat16().requires_grad_()
opt = torch.optim.Adam([p], lr=0.1)
for i in range(3):
    opt.zero_grad()
    loss = ((p - 1) ** 2).sum()
    loss.backward()
    opt.step()
    print(i, loss, p)
st = opt.state[p]
print(st['exp_avg'].dtype, st['exp_avg_sq'], st['step'], st['step'].dtype)
'''

PROGRAMS['module_to_dtype_errors'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 2)
E(lambda: m.to(torch.int64))
E(lambda: m.to(dtype=torch.long))
m.to(torch.float64)
print(m.weight.dtype, m.bias.dtype, m)
m2 = torch.nn.Linear(2, 2, dtype=torch.float16)
print(m2.weight.dtype, m2.weight.requires_grad)
x = torch.ones(1, 2, dtype=torch.float64)
m(x).sum().backward()
print(m.weight.grad.dtype, m.weight.grad)
m.to(torch.complex64)
print(m.weight.dtype, m.weight.grad.dtype)
E(lambda: m(x))
m.half()
print(m.weight.dtype, m.weight.grad)
bn = torch.nn.BatchNorm1d(2).double()
print(bn.running_mean.dtype, bn.num_batches_tracked.dtype)
'''

PROGRAMS['grad_assign_other_dtype'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: setattr(x, 'grad', torch.zeros(2, dtype=torch.float64)))
E(lambda: setattr(x, 'grad', torch.zeros(2, dtype=torch.long)))
E(lambda: setattr(x, 'grad', torch.zeros(3)))
x.grad = torch.ones(2)
(x * 3).sum().backward()
print(x.grad)
y = x * 2
E(lambda: y.backward(torch.ones(2, dtype=torch.float64)))
print(x.grad)
E(lambda: y.backward(torch.ones(2, dtype=torch.long)))
E(lambda: y.backward(torch.ones(2, dtype=torch.complex64)))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, dtype=torch.float16)))
h = x.half() * 2
E(lambda: h.backward(torch.ones(2)))
print(x.grad)
'''

PROGRAMS['hook_returns_other_dtype'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g.double() * 2)
z = y.sum()
E(lambda: z.backward())
print(x.grad)
x2 = x.double()
x2.register_hook(lambda g: print('hook', g.dtype, g))
(x2 ** 2).sum().backward()
print(x.grad.dtype, x.grad)
w = torch.tensor([1., 2.], requires_grad=True)
w.register_hook(lambda g: g.long())
E(lambda: (w * 2.5).sum().backward())
print(w.grad)
v = torch.tensor([1., 2.], requires_grad=True)
v.register_hook(lambda g: g[:1])
E(lambda: (v * 2).sum().backward())
'''

PROGRAMS['function_backward_wrong_dtype'] = PRE + r'''
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('backward got', g.dtype)
        return (g * 2).double()
class ToInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.long()
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
y = Twice.apply(x)
y.sum().backward()
print(x.grad, x.grad.dtype)
i = ToInt.apply(x)
print(i, i.requires_grad, i.grad_fn)
E(lambda: i.sum().backward())
h = Twice.apply(x.half())
print(h.dtype, h.grad_fn)
h.float().sum().backward()
print(x.grad)
'''

PROGRAMS['reductions_with_dtype_arg'] = PRE + r'''
x = torch.tensor([0.1, 0.2, 0.7], requires_grad=True)
s = x.sum(dtype=torch.float64)
print(s, s.grad_fn)
c = x.cumsum(0, dtype=torch.float64)
print(c, c.grad_fn)
sm = torch.softmax(x, 0, dtype=torch.float64)
print(sm, sm.grad_fn)
p = x.prod(dtype=torch.float64)
m = x.mean(dtype=torch.float64)
print(p, m, m.grad_fn)
(s + c.sum() + sm[0] + p + m).backward()
print(x.grad, x.grad.dtype)
k = torch.tensor([1, 2, 3])
E(lambda: k.mean())
print(k.mean(dtype=torch.float32), k.sum().dtype, k.float().mean())
E(lambda: x.sum(dtype=torch.long))
E(lambda: torch.softmax(k, 0))
print(torch.nn.functional.log_softmax(x, 0, dtype=torch.float64).dtype)
'''

PROGRAMS['inplace_ops_mixing_dtypes'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
y += torch.tensor([1, 2])
print(y, y.grad_fn)
y *= torch.tensor([2.], dtype=torch.float64)
print(y, y.dtype, y.grad_fn)
k = torch.tensor([1, 2])
E(lambda: k.add_(x))
E(lambda: k.mul_(1.5))
def f():
    k2 = torch.tensor([1, 2])
    k2 += 0.5
E(f)
h = x.half()
h.add_(x)
print(h, h.dtype, h.grad_fn)
(y.sum() + h.float().sum()).backward()
print(x.grad)
b = torch.tensor([True, False])
E(lambda: b.add_(1))
E(lambda: -b)
E(lambda: 1 - b)
print(~b, b.logical_not(), b ^ True, b + b)
'''

PROGRAMS['tensor_of_tensor_requires_grad_and_numpy_scalars'] = PRE + r'''
import numpy as np
x = torch.tensor([1.5, 2.5], requires_grad=True)
t = W(lambda: torch.tensor(x))
print(t, t.requires_grad, t.grad_fn)
t2 = W(lambda: torch.tensor(x * 2, dtype=torch.float64))
print(t2)
a = torch.as_tensor(x)
print(a is x, torch.as_tensor(x, dtype=torch.float64).grad_fn)
print(torch.tensor(np.float32(1.5)).dtype, torch.tensor(np.float64(1.5)).dtype, torch.tensor(np.int32(3)).dtype)
print(torch.tensor([np.float32(1.), 2.]).dtype, torch.tensor([np.float64(1.), 2.]).dtype, torch.tensor([np.int16(1), 2]).dtype)
print(torch.tensor(np.array(2.5)).dtype, torch.tensor(np.bool_(True)).dtype, torch.tensor(np.complex64(1j)).dtype)
y = x * np.float64(2.0)
print(y, y.dtype, type(y).__name__)
E(lambda: x * np.array(2.0, dtype=np.float64))
E(lambda: np.array([2.0, 3.0]) * x)
z = x.detach() * np.array([2.0, 3.0])
print(type(z).__name__, z.dtype)
s = torch.stack([x, torch.tensor([1, 2])])
print(s, s.grad_fn)
'''

PROGRAMS['from_numpy_array_kinds'] = PRE + r'''
import numpy as np
for a in (np.zeros(2, dtype=np.float16), np.ones(2, dtype=np.bool_), np.arange(3, dtype=np.uint8),
          np.arange(2, dtype=np.int16), np.array([1 + 1j], dtype=np.complex64), np.arange(6.).reshape(2, 3).T):
    t = torch.from_numpy(a)
    print(t, t.dtype, t.stride(), t.is_contiguous())
E(lambda: torch.from_numpy(np.array(['a'])))
E(lambda: torch.from_numpy(np.array([1.0], dtype='>f8')))
E(lambda: torch.from_numpy(np.array([object()])))
ro = np.arange(3.)
ro.flags.writeable = False
t = W(lambda: torch.from_numpy(ro))
print(t)
w = torch.from_numpy(np.array([1., 2.])).requires_grad_()
(w ** 2).sum().backward()
print(w.grad, w.is_leaf)
E(lambda: torch.from_numpy(np.arange(3.)).float().requires_grad_().numpy())
'''

PROGRAMS['clamp_where_minimum_mixed_dtypes'] = PRE + r'''
x = torch.tensor([-1.5, 0.5, 2.5], requires_grad=True)
k = torch.tensor([-2, 1, 3])
c = torch.clamp(k, min=0.5)
print(c, c.dtype)
w = torch.where(k > 0, x, k)
print(w, w.dtype, w.grad_fn)
mx = torch.maximum(x, k)
print(mx, mx.grad_fn)
mn = torch.minimum(x.double(), k)
print(mn.dtype)
cl = x.clamp(min=k, max=torch.tensor([0, 0, 2]))
print(cl, cl.grad_fn)
(w.sum() + mx.sum() + mn.sum() + cl.sum()).backward()
print(x.grad)
E(lambda: torch.where(k > 0, x, 1j))
print(torch.where(k > 0, k, 0.5).dtype, torch.where(k > 0, 1, 0).dtype, torch.where(k > 0, 1., 0).dtype)
'''

PROGRAMS['div_floor_and_pow_with_int_operands'] = PRE + r'''
x = torch.tensor([1.5, -2.5, 4.0], requires_grad=True)
k = torch.tensor([2, 3, -4])
d = torch.div(k, x, rounding_mode='floor')
print(d, d.grad_fn)
t = torch.div(x, k, rounding_mode='trunc')
print(t, t.grad_fn)
r = torch.remainder(x, k)
f = torch.fmod(k, x)
print(r, r.grad_fn, f)
p = x ** k
q = k ** 2.0
print(p, p.grad_fn, q, q.dtype)
(d.sum() + t.sum() + r.sum() + f.sum() + p.sum()).backward()
print(x.grad)
print(k // 2, k / 2, (k // 2).dtype, torch.true_divide(k, 2).dtype)
E(lambda: k ** -1)
print(k.float() ** -1, 2 ** k.abs(), (2 ** -k.abs().float()))
'''

PROGRAMS['complex_linear_layer'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2, dtype=torch.cfloat)
print(lin.weight.dtype, lin.bias.dtype)
x = torch.tensor([[1 + 1j, 2 - 1j]])
y = lin(x)
print(y.dtype, y.grad_fn)
loss = y.abs().pow(2).sum()
loss.backward()
print(lin.weight.grad.dtype, lin.bias.grad)
E(lambda: lin(torch.ones(1, 2)))
r = torch.nn.Linear(2, 1)
E(lambda: r(x))
print(torch.view_as_real(lin.bias.grad).shape)
'''

PROGRAMS['complex_view_as_complex_and_errors'] = PRE + r'''
r = torch.tensor([[1., 2.], [3., -1.]], requires_grad=True)
z = torch.view_as_complex(r)
print(z, z.grad_fn, z._base is r)
(z * (1 - 1j)).real.sum().backward()
print(r.grad)
E(lambda: torch.view_as_complex(torch.ones(3)))
E(lambda: torch.view_as_complex(torch.ones(2, 2).t()))
E(lambda: torch.view_as_complex(torch.ones(2, 2, dtype=torch.float64, requires_grad=True)[:, :1]))
E(lambda: torch.view_as_complex(torch.ones(2, 2, dtype=torch.long)))
E(lambda: torch.view_as_real(torch.ones(2)))
c = torch.tensor([1 + 2j, 3 - 4j], requires_grad=True)
cj = c.conj()
print(cj, cj.is_conj(), cj.grad_fn)
E(lambda: torch.view_as_real(cj))
print(torch.view_as_real(cj.resolve_conj()))
'''

PROGRAMS['complex_angle_abs_at_zero_and_sgn'] = PRE + r'''
z = torch.tensor([0j, 1 + 0j, -1 + 0j, 1j], requires_grad=True)
z.abs().sum().backward()
print(z.grad)
z.grad = None
z.angle().sum().backward()
print(z.grad)
z.grad = None
z.sgn().real.sum().backward()
print(z.grad)
x = torch.tensor([-1., 0., 2.], requires_grad=True)
a = x.angle()
print(a, a.grad_fn, a.dtype)
a.sum().backward()
print(x.grad)
print(torch.tensor([-1., 2.]).to(torch.complex64).angle(), x.sgn())
'''

PROGRAMS['complex_grad_of_real_function_of_real_imag'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128, requires_grad=True)
f = (z.real ** 2 * z.imag).sum()
print(f, f.dtype, f.grad_fn)
g, = torch.autograd.grad(f, z)
print(g, g.dtype)
h = torch.tensor(0.5, requires_grad=True)
w = h * z
print(w.dtype, w.grad_fn)
w.abs().sum().backward()
print(h.grad, h.grad.dtype)
k = torch.tensor(2.0, requires_grad=True)
e = torch.exp(1j * k)
print(e, e.grad_fn)
e.imag.backward()
print(k.grad)
'''

PROGRAMS['autocast_weight_cast_cache'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, 3, requires_grad=True)
x = torch.randn(2, 3)
with torch.autocast('cpu', dtype=torch.bfloat16):
    y1 = x @ w
    y2 = torch.mm(x, w)
    n1 = y1.grad_fn.next_functions
    n2 = y2.grad_fn.next_functions
    print(n1, n2)
    print(n1[1][0] is n2[1][0], n1[0][0] is n2[0][0])
    h = w * 2
    y3 = x @ h
    y4 = x @ h
    print(y3.grad_fn.next_functions[1][0] is y4.grad_fn.next_functions[1][0])
with torch.autocast('cpu', dtype=torch.bfloat16, cache_enabled=False):
    z1 = x @ w
    z2 = x @ w
    print(z1.grad_fn.next_functions[1][0] is z2.grad_fn.next_functions[1][0])
(y1.float().sum() + y2.float().sum() + y3.float().sum()).backward()
print(w.grad)
'''

PROGRAMS['autocast_conv_norm_cat_and_float64'] = PRE + r'''
torch.manual_seed(0)
conv = torch.nn.Conv1d(2, 2, 3)
ln = torch.nn.LayerNorm(4)
x = torch.randn(1, 2, 6)
d = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
with torch.autocast('cpu', dtype=torch.bfloat16):
    c = conv(x)
    print(c.dtype, c.grad_fn)
    l = ln(c)
    print(l.dtype, l.grad_fn)
    cat = torch.cat([c, x[..., :4]], 1)
    print(cat.dtype, cat.grad_fn)
    dd = d @ d
    print(dd.dtype, dd.grad_fn)
    k = torch.ones(2, 2, dtype=torch.long) @ torch.ones(2, 2, dtype=torch.long)
    print(k.dtype)
    with torch.no_grad():
        ng = x[0] @ x[0].T
    print(ng.dtype, ng.requires_grad)
(l.float().sum() + dd.sum()).backward()
print(conv.weight.grad.dtype, conv.bias.grad, d.grad)
'''

PROGRAMS['autocast_spellings_and_warnings'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
with W(lambda: torch.cpu.amp.autocast()):
    y = x @ x
print(y.dtype)
with torch.amp.autocast('cpu'):
    z = x @ x
print(z.dtype, torch.get_autocast_dtype('cpu'))
with W(lambda: torch.autocast('cpu', dtype=torch.float32)):
    f = x @ x
print(f.dtype)
E(lambda: torch.autocast('tpu'))
E(lambda: torch.autocast(device_type=5))
print(torch.amp.is_autocast_available('cpu'), torch.amp.is_autocast_available('cuda'), torch.amp.is_autocast_available('meta'))
E(lambda: torch.is_autocast_available('cpu'))
'''

PROGRAMS['half_and_float_promotion_grads'] = PRE + r'''
h = torch.tensor([1.5, 2.5], dtype=torch.float16, requires_grad=True)
f = torch.tensor([0.1, 0.2], requires_grad=True)
b = torch.tensor([3.0, 4.0], dtype=torch.bfloat16, requires_grad=True)
y = h * f
print(y, y.dtype)
z = h + b
print(z, z.dtype, z.grad_fn)
s = h * 0.1
print(s, s.dtype)
t = h * torch.tensor(0.1)
print(t.dtype, (h * torch.tensor(0.1, dtype=torch.float64)).dtype, (h * torch.tensor([0.1], dtype=torch.float64)).dtype)
(y.sum() + z.sum() + s.sum() + t.sum()).backward()
print(h.grad, h.grad.dtype, f.grad, b.grad, b.grad.dtype)
print(torch.result_type(h, f), torch.result_type(h, 1.0), torch.promote_types(torch.float16, torch.bfloat16))
print(torch.can_cast(torch.float64, torch.float16), torch.can_cast(torch.float16, torch.int32))
'''

PROGRAMS['reduced_precision_printing'] = PRE + r'''
vals = [1e-5, 3.14159, 65504., 70000., 1e-8, -0.0, 123456.789]
h = torch.tensor(vals, dtype=torch.float16, requires_grad=True)
b = torch.tensor(vals, dtype=torch.bfloat16, requires_grad=True)
print(h)
print(b)
print(h * 2)
print(b * 1000)
print(h.float(), h.double())
print(torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16), torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16))
print(torch.tensor([1 / 3], dtype=torch.bfloat16).item(), torch.tensor([1 / 3], dtype=torch.float16).item())
print(torch.tensor(2049., dtype=torch.float16), torch.tensor(257., dtype=torch.bfloat16))
print(torch.arange(5, dtype=torch.bfloat16) / 3)
'''

PROGRAMS['fills_of_one_element_and_scalar_tensor'] = PRE + r'''
# fixed: scalar_tensor fills a 0-dim tensor (checked conversion, not torch.tensor's); a one-element fill reads a
# number for float16/bfloat16 as a double (inf, no overflow error); a complex number fills a bool tensor True
E(lambda: torch.scalar_tensor(1j))
E(lambda: torch.scalar_tensor(1e300))
E(lambda: torch.scalar_tensor(1j, dtype=torch.float16))
print(torch.scalar_tensor(-1, dtype=torch.uint8), torch.scalar_tensor(1 + 0j), torch.scalar_tensor(2.5, dtype=torch.long))
print(torch.scalar_tensor(1e6, dtype=torch.float16), torch.full((1,), 1e6, dtype=torch.float16))
E(lambda: torch.full((2,), 1e6, dtype=torch.float16))
x = torch.zeros(2, dtype=torch.bfloat16)
print(x[:1].fill_(1e39), x)
E(lambda: x.fill_(1e39))
print(torch.full((2,), 1j, dtype=torch.bool), torch.zeros((), dtype=torch.bool).fill_(0.5j))
w = torch.scalar_tensor(0.5, requires_grad=True)
(w * w.half()).backward()
print(w.grad, w.grad.dtype)
'''

PROGRAMS['loss_targets_of_the_wrong_dtype'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
out = torch.randn(4, 3, requires_grad=True)
tgt = torch.tensor([0, 2, 1, 2])
E(lambda: F.cross_entropy(out, tgt.int()))
E(lambda: F.nll_loss(out, tgt.float()))
E(lambda: F.cross_entropy(out, tgt.float()))
E(lambda: F.cross_entropy(out.double(), tgt))
print(F.cross_entropy(out, F.one_hot(tgt, 3).float()))
E(lambda: F.one_hot(tgt.int(), 3))
E(lambda: F.one_hot(tgt.float(), 3))
y = torch.tensor([1., 0., 1., 1.], dtype=torch.float64)
p = torch.sigmoid(out[:, 0])
E(lambda: F.binary_cross_entropy(p, y))
E(lambda: F.binary_cross_entropy(p, y.long()))
l = F.binary_cross_entropy_with_logits(out[:, 0], y.float())
print(l, l.grad_fn)
E(lambda: F.binary_cross_entropy_with_logits(out[:, 0], y.long()))
'''

PROGRAMS['mse_float_vs_double_backward'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
x = torch.randn(5, 2)
y = torch.randn(5, 1, dtype=torch.float64)
for fn in (F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss):
    model.zero_grad()
    loss = fn(model(x), y)
    print(fn.__name__, loss.dtype, loss.grad_fn)
    E(lambda: loss.backward())
    print(model.weight.grad)
manual = ((model(x) - y) ** 2).mean()
manual.backward()
print(manual.dtype, model.weight.grad)
'''

PROGRAMS['index_tensors_of_float_and_int32'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
y = x * 2
E(lambda: y[torch.tensor([0., 2.])])
print(y[torch.tensor([0, 2], dtype=torch.int32)], y[torch.tensor([0, 2], dtype=torch.int32)].grad_fn)
print(y[torch.tensor([1, 0, 1, 0, 0, 1], dtype=torch.uint8).bool()])
E(lambda: torch.gather(y, 0, torch.tensor([0, 1], dtype=torch.int32)))
E(lambda: y.index_select(0, torch.tensor([0.])))
print(y.index_select(0, torch.tensor([5, 1], dtype=torch.int32)))
E(lambda: y.scatter(0, torch.tensor([0, 1], dtype=torch.int32), 1.0))
E(lambda: torch.nn.functional.embedding(torch.tensor([0.]), torch.ones(2, 2)))
e = torch.nn.functional.embedding(torch.tensor([1, 0], dtype=torch.int32), x.reshape(3, 2))
print(e, e.grad_fn)
(y[torch.tensor([0, 2], dtype=torch.int32)].sum() + e.sum()).backward()
print(x.grad)
'''

PROGRAMS['data_assignment_changes_dtype'] = PRE + r'''
w = torch.tensor([1.5, 2.5], requires_grad=True)
w.data = w.data.double()
print(w, w.dtype, w.requires_grad)
(w * 2).sum().backward()
print(w.grad, w.grad.dtype)
E(lambda: setattr(w, 'data', torch.tensor([1, 2])))
v = torch.tensor([1.0, 2.0], requires_grad=True)
v.grad = torch.ones(2)
v.data = v.data.half()
print(v.dtype, v.grad.dtype)
E(lambda: (v * 2).sum().backward())
u = torch.tensor([1.0, 2.0]).half().requires_grad_()
print(u, u.is_leaf, u.grad_fn)
q = torch.tensor([1.0, 2.0], requires_grad=True).half()
print(q.is_leaf, q.requires_grad)
E(lambda: q.grad)
print(W(lambda: q.grad))
'''

PROGRAMS['numpy_of_reduced_precision_and_overflowing_half'] = PRE + r'''
import numpy as np
x = torch.tensor([1.5, 70000., -2.0], requires_grad=True)
E(lambda: x.bfloat16().numpy())
E(lambda: x.detach().bfloat16().numpy())
a = x.detach().half().numpy()
print(a, a.dtype)
h = x.half()
print(h, h.isinf())
(h.float() * 2).sum().backward()
print(x.grad)
E(lambda: np.asarray(x))
E(lambda: np.asarray(x.detach().bfloat16()))
print(x.bfloat16().numpy(force=True) if False else x.half().tolist(), x.bfloat16()[1].item(), int(x.bfloat16()[1]))
print(float(x.half()[0]), type(x.half()[0].item()).__name__, x.int().tolist())
print(torch.tensor(0.1, dtype=torch.float16).item(), torch.tensor([0.1], dtype=torch.float64).float().item())
print(x.detach().to(torch.complex64).numpy(), x.detach().bool().numpy())
'''


PROGRAMS['dtype_objects_and_their_counterparts'] = PRE + r'''
# fixed: complex128.to_complex() is itself, an integer or bool dtype has no complex counterpart
for d in (torch.bfloat16, torch.float, torch.double, torch.cfloat, torch.cdouble, torch.long, torch.bool, torch.uint8):
    print(d, repr(d), d.is_floating_point, d.is_complex, d.is_signed, d.itemsize, d.to_real())
    E(lambda: d.to_complex())
print(torch.half == torch.float16, torch.float32 == 'float32', {torch.float: 1}[torch.float32], type(torch.float32))
x = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
z = x.to(x.dtype.to_complex())
print(z, z.grad_fn)
z.abs().sum().backward()
print(x.grad, x.grad.dtype is torch.double)
'''


@pytest.fixture(autouse=True, scope="module")
def _backward_with_gradient_warmed_up():
    """PyTorch's first ``backward(gradient)`` imports its symbolic-shapes module (sympy) and its first optimizer
    torch._dynamo (seconds): done here, so that no program's time depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
    (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
