"""Tutorial-style programs run twice, with ``import minigrad as torch`` and with PyTorch: same stdout.

Each program prints tensors, results of ops, dtypes, grad_fns and error messages; the two outputs must
match exactly once object addresses are masked. Programs whose output depends on random streams are not
here (minigrad's generator is not PyTorch's).
"""
from __future__ import annotations

import re
import warnings

import pytest

from tests.parity import requires_torch, run_both

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

PROGRAMS = {
    "creation_and_printing_dtypes": """\
import torch
print(torch.tensor([1, 2, 3]))
print(torch.tensor([1., 2., 3.]))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.float64))
print(torch.tensor(3.5), torch.tensor(7), torch.tensor(True))
print(torch.tensor([True, False]))
print(torch.tensor([1e10, 1.0]))
print(torch.tensor([1e-10, 1.0]))
print(torch.tensor([123456789.0, 0.1]))
print(torch.tensor([0.1, 0.25, 100.0]))
print(torch.tensor([1.5, float('nan'), float('inf'), -float('inf')]))
print(torch.tensor([], dtype=torch.int32))
print(torch.zeros(2, 0))
print(torch.tensor([1+2j, 3-4j]))
print(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([1, 2], dtype=torch.int8))
print(torch.tensor([1, 2], dtype=torch.int16), torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1.5, 2], dtype=torch.float16), torch.tensor([1.5, 2], dtype=torch.bfloat16))
print(repr(torch.tensor([1.123456789], dtype=torch.float64)))
print(torch.ones(3, 4) * 1e-5)
print(torch.arange(12).reshape(3, 4))
print(torch.arange(0, 1, 0.1))
print(torch.linspace(-1, 1, 5))
""",
    "printing_large_and_special": """\
import torch
print(torch.arange(2000))
print(torch.arange(1200.).reshape(30, 40))
print(torch.arange(24).reshape(2, 3, 4))
print(torch.ones(2, 2, 2, 2))
print(torch.eye(3))
print(torch.full((2, 3), 7))
print(torch.full((2, 3), 7.5))
print(torch.full((2,), True))
print(torch.zeros(3, dtype=torch.long))
print(torch.empty(0))
x = torch.tensor([[1e-3, 1e3], [5., 6.]])
print(x)
print(torch.tensor([1e20, 1e-20]))
print(torch.tensor([12345.678, 0.001]))
print(torch.tensor([-1.0, 0.0, 1.0]))
print(torch.tensor([-0.0]))
print(torch.tensor(1e100, dtype=torch.float64))
print(torch.tensor([1, 2, 3]) / 3)
""",
    "printoptions": """\
import torch
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.34567]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.5]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 1.0]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(torch.arange(30).reshape(5, 6))
torch.set_printoptions(profile="default")
print(torch.arange(10.))
torch.set_printoptions(linewidth=30)
print(torch.arange(20.))
torch.set_printoptions(profile="default")
torch.set_printoptions(profile="short")
print(torch.tensor([1.23456, 2.34567]))
torch.set_printoptions(profile="full")
print(torch.arange(1100))
torch.set_printoptions(profile="default")
""",
    "autograd_tensor_basics": """\
import torch
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
print(x)
y = x * 2
print(y)
print(y.sum())
print(x.mean(), x.mean(0), x.mean(1, keepdim=True))
print(x.sum(dim=1), x.sum(dim=(0, 1)))
print(x.max(), x.min(), x.max(dim=1), x.argmax(), x.argmax(dim=0))
print(x.std(), x.var(dim=0), x.prod(), x.prod(1))
print(x.norm(), x.norm(dim=1), x.norm(p=1))
print(x.cumsum(0), x.logsumexp(1))
print(x.detach(), x.data)
print(x.T, x.t())
print(x.shape, x.size(), x.size(0), x.size(-1), x.dim(), x.ndim, x.numel(), x.nelement())
print(x.dtype, x.device, x.is_leaf, x.requires_grad, x.grad, x.grad_fn)
print(x.tolist(), x[0, 0].item(), type(x.sum().item()))
""",
    "arithmetic_and_type_promotion": """\
import torch
a = torch.tensor([1, 2, 3])
b = torch.tensor([1.5, 2.5, 3.5])
print(a + b, (a + b).dtype)
print(a * 2, a * 2.0, a / 2, a // 2, a % 2, a ** 2, 2 ** a, a ** 0.5)
print(a + True, (a > 1) + 1, (a > 1) * 1.5)
print(torch.tensor([1, 2], dtype=torch.int32) + torch.tensor([1, 2], dtype=torch.int64))
print((torch.tensor([1, 2], dtype=torch.int32) + 1).dtype, (torch.tensor([1, 2], dtype=torch.int32) + 1.0).dtype)
print((torch.tensor([1., 2.], dtype=torch.float16) + torch.tensor(1.0)).dtype)
print((torch.tensor([1., 2.]) + torch.tensor([1.], dtype=torch.float64)).dtype)
print((torch.tensor(1., dtype=torch.float64) + torch.tensor([1., 2.])).dtype)
print((torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor([1, 2], dtype=torch.int8)).dtype)
print((torch.tensor([True]) + torch.tensor([True])))
print((torch.tensor([1, 2]) + 1j).dtype, (torch.tensor([1., 2.]) * (1 + 1j)))
print(-a, abs(-a), ~torch.tensor([True, False]))

print(torch.tensor([5, -5]) // 3, torch.tensor([5, -5]) % 3, torch.tensor([5., -5.]) % 3)
print(torch.tensor([5, -5]).div(3, rounding_mode='trunc'), torch.tensor([5, -5]).div(3, rounding_mode='floor'))
print(torch.result_type(a, b), torch.result_type(a, 1.0), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float64), torch.can_cast(torch.int64, torch.int8), torch.can_cast(torch.bool, torch.uint8), torch.can_cast(torch.complex64, torch.float32), torch.can_cast(torch.uint8, torch.bool))
""",
    "comparisons_and_logic": """\
import torch
a = torch.tensor([1, 2, 3])
b = torch.tensor([3, 2, 1])
print(a == b, a != b, a < b, a <= b, a > b, a >= b)
print(a == 2, 2 == a, a.eq(b), a.ne(2), a.lt(2.5), torch.gt(a, b))
print((a == b).any(), (a == b).all(), (a > 0).all(), torch.any(a > 2), torch.all(a > 2, dim=0))
print(torch.equal(a, b), torch.equal(a, a), a.equal(a.clone()))
print(torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.000001])))
print(torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1])))
print(torch.where(a > 1, a, b), torch.where(a > 1))
print(torch.where(a > 1, a, 0.5), torch.where(a > 1, 1.0, 0.0))
print(torch.logical_and(a > 1, b > 1), torch.logical_or(a > 1, b > 1), torch.logical_not(a > 1))
print(torch.isnan(torch.tensor([1., float('nan')])), torch.isinf(torch.tensor([1., float('inf')])))
print(torch.maximum(a, b), torch.minimum(a, b), torch.max(a, b))
print(torch.clamp(a, 1, 2), a.clamp(min=2), a.clamp(max=2), torch.clamp(torch.tensor([1.5, 3.5]), 2, 3))
print(torch.sign(torch.tensor([-2., 0., 3.])), torch.abs(torch.tensor([-2, 3])))
print(bool(torch.tensor([True])), int(torch.tensor(3.7)), float(torch.tensor(2)))
""",
    "indexing_read_and_write": """\
import torch
x = torch.arange(24.).reshape(2, 3, 4)
print(x[0], x[:, 1], x[..., -1], x[0, 1:, ::2], x[None].shape, x[:, None, :, None].shape)
print(x[x > 20], x[[0, 1], [1, 2]], x[:, [0, 2]], x[torch.tensor([1, 0])].shape)
print(x[0][torch.tensor([True, False, True])])
print(x[1, 2, 3], x[-1, -1, -1].item())
y = torch.zeros(3, 4)
y[0] = 1
y[:, 1] = torch.tensor([5., 6., 7.])
y[y == 0] = -1
y[1, [0, 2]] = 9
print(y)
y[...] = 0.5
print(y)
z = torch.arange(5)
z[1:3] = 10
print(z, z[-2:], z[::2], z[torch.tensor(2)])
print(x[0, :, [1]], x[[0], :, [1]])
""",
    "sorting_and_selection": """\
import torch
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
v, i = torch.sort(x, dim=1, descending=True)
print(v, i, v.grad_fn, v.grad_fn._saved_dim, v.grad_fn._saved_indices, v.grad_fn._saved_self_sym_sizes)
(v * torch.arange(3.)).sum().backward()
print(x.grad)
t = x.topk(2, dim=0)
print(t)
print(t.values.grad_fn._saved_dim, t.values.grad_fn._saved_self_sym_sizes)
print(x.argsort(), x.msort(), x.kthvalue(2, dim=1))
print(torch.tensor([3, 1, 2, 3, 1]).unique(), torch.unique(torch.tensor([3, 1, 2, 3, 1]), return_inverse=True, return_counts=True))
print(torch.tensor([0, 1, 0, 2]).nonzero(), torch.nonzero(torch.tensor([[0, 1], [2, 0]]), as_tuple=True))
print(torch.bincount(torch.tensor([0, 1, 1, 3])), torch.tensor([1., 2., 1., 5.]).histc(bins=4, min=0, max=5))
print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5])), torch.count_nonzero(torch.tensor([[0, 1], [2, 3]]), dim=0))
m = x.masked_select(x > 1.5)
print(m, m.grad_fn)
""",
    "matrices_broadcasting_info": """\
import torch
a = torch.arange(1., 10.).reshape(3, 3).requires_grad_()
print(a.tril(), a.triu(diagonal=1), torch.tril(a, -1))
print(a.trace(), a.trace().grad_fn, torch.diag(a), torch.diag(a, 1), torch.diag(torch.tensor([1., 2.])))
a.trace().backward(); print(a.grad)
print(torch.tensor([1, 2]).diag(), torch.diag(torch.tensor([1., 2.]), -1))
print(torch.broadcast_shapes((2, 1), (1, 3)), torch.broadcast_shapes((5,), (4, 1)))
b1, b2 = torch.broadcast_tensors(torch.tensor([1., 2., 3.]), torch.tensor([[1.], [2.]]))
print(b1, b2)
xx, yy = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
print(xx, yy)
xx, yy = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="xy")
print(xx, yy)
print(a.ravel(), a.flatten().unflatten(0, (3, 3)).shape, torch.roll(torch.arange(5), 2), torch.arange(6).view(2, 3).roll(1, 1))
print(torch.arange(3).tile((2,)), torch.tile(torch.arange(4).view(2, 2), (2, 1)))
print(torch.pi, torch.e, torch.inf, torch.nan)
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).max, torch.finfo(torch.float16).tiny, torch.iinfo(torch.int64).max, torch.iinfo(torch.uint8).min)
print(torch.finfo(torch.bfloat16).eps, torch.finfo(torch.float32).bits, torch.iinfo(torch.int16).bits)
print(torch.finfo(torch.float16))
""",
    "new_elementwise_gradients": """\
import torch
x = torch.tensor([[0.5, -1.0], [2.0, 0.1]], requires_grad=True)
for name in ["sinh", "cosh", "atan", "asinh", "erf", "erfc", "sigmoid", "tanh", "exp", "log1p", "sqrt", "abs", "sin", "cos", "tan"]:
    fn = getattr(torch, name)
    y = fn(x.abs() if name in ("sqrt",) else x)
    g, = torch.autograd.grad(y.sum(), x)
    print(name, y, g, y.grad_fn.name())
y = torch.asin(x * 0.5); print(y, torch.autograd.grad(y.sum(), x))
y = torch.acos(x * 0.5); print(y, torch.autograd.grad(y.sum(), x))
y = torch.atanh(x * 0.5); print(y, torch.autograd.grad(y.sum(), x))
y = torch.acosh(x.abs() + 1); print(y, torch.autograd.grad(y.sum(), x))
y = torch.atan2(x, torch.ones(2, 2)); print(y, torch.autograd.grad(y.sum(), x))
print(torch.sinh(torch.tensor([1, 2])), torch.arctan2(torch.tensor([1.]), torch.tensor([2.])))
""",
    "new_tensors_conversions_bitwise": """\
import torch
x = torch.tensor([[1., 2.], [3., 4.]])
print(x.new_zeros(2, 3), x.new_ones((2,)), x.new_full((2, 2), 7), x.new_tensor([1, 2]), x.new_empty(0))
print(x.new_zeros(2, dtype=torch.int64), torch.tensor([1, 2]).new_ones(3))
print(x.type_as(torch.tensor([1])), x.type(torch.int32), x.type(), x.int().type(), x.to(torch.float64).type())
print(x.type('torch.DoubleTensor'))
print(x.softmax(dim=1), x.log_softmax(0), torch.softmax(x, 1), torch.log_softmax(x, dim=-1))
print(torch.softmax(torch.tensor([1, 2, 3]), 0, dtype=torch.float64))
print(x.is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed(), x.itemsize, x.nbytes, x.element_size())
print(torch.is_nonzero(torch.tensor([1.])), torch.numel(x), torch.is_tensor(x), torch.is_floating_point(x), torch.is_complex(x))
print(torch.std_mean(x), torch.var_mean(x, dim=0))
print(x.detach(), torch.detach(x))
print(torch.tensor([5, 3]) & 1, torch.tensor([5, 3]) | 8, torch.tensor([5, 3]) ^ 1, torch.tensor([5, 3]) << 1, torch.tensor([5, 3]) >> 1, ~torch.tensor([5, 3]))
print(torch.bitwise_and(torch.tensor([True, False]), torch.tensor([True, True])), torch.tensor([True]) | torch.tensor([False]))
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor().shape, isinstance(x, torch.Tensor), type(x))
""",
    "in_place_ops": """\
import torch
x = torch.arange(6.).view(2, 3)
x.add_(1); print(x)
x.mul_(2).sub_(1); print(x)
x.div_(2); print(x, x._version)
x.clamp_(2, 4); print(x)
x.zero_(); print(x)
x.fill_(3.5); print(x)
y = torch.tensor([1, 2, 3])
y += 1; print(y)
try:
    y /= 2
except RuntimeError as e:
    print(type(e).__name__, e)
y *= 2; print(y)
z = torch.ones(3, requires_grad=True)
try:
    z.add_(1)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    z.add_(1)
print(z, z.requires_grad, z.is_leaf)
w = z * 2
w.exp_()
print(w.grad_fn)
a = torch.ones(2, 2)
b = a.view(4)
b[0] = 5
print(a, a._version, b._version)
c = a.t().contiguous(); print(c.is_contiguous(), a.t().is_contiguous())
""",
    "dtype_conversions_numpy": """\
import torch
x = torch.tensor([1.7, -2.3, 3.5])
print(x.long(), x.int(), x.to(torch.int8), x.bool(), x.half(), x.double(), x.byte() if False else '', x.to(torch.complex64))
print(x.to(dtype=torch.float64), x.to(torch.tensor([1])), x.to("cpu"), x.float() is x, x.to(torch.float32) is x)
print(torch.tensor([1, 0, 2]).bool(), torch.tensor([True, False]).float(), torch.tensor([True, False]).long())
print(x.numpy(), type(x.numpy()), x.numpy().dtype, torch.from_numpy(x.numpy() * 2))
import numpy as np
n = np.array([[1, 2], [3, 4]])
t = torch.from_numpy(n); print(t, t.dtype)
n[0, 0] = 9; print(t)
print(torch.tensor(np.array([1.5, 2.5])), torch.as_tensor([1, 2]), torch.tensor(np.float32(2.5)))
print(torch.tensor([1.0], dtype=torch.float64).item(), torch.tensor([3]).item(), torch.tensor(True).item())
print(torch.get_default_dtype(), torch.float, torch.long, torch.int, torch.double, torch.half, torch.bool, torch.cfloat)
print(torch.float32 == torch.float, torch.float32.is_floating_point, torch.int64.is_signed, torch.uint8.itemsize)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]), torch.ones(2), torch.tensor([1.5]).dtype, torch.arange(3.).dtype, torch.tensor(1j).dtype)
torch.set_default_dtype(torch.float32)
print(torch.zeros(2, dtype=torch.int32).dtype, torch.ones_like(torch.tensor([1, 2])), torch.zeros_like(x, dtype=torch.long))
print(torch.full_like(x, 2), torch.empty_like(x).shape, torch.arange(5, dtype=torch.float32), torch.arange(1, 10, 3))
""",
    "shape_ops_and_reductions": """\
import torch
x = torch.arange(12.).reshape(3, 4)
print(x.view(4, 3), x.view(-1), x.reshape(2, -1), x.transpose(0, 1), x.permute(1, 0).shape, x.flatten())
print(x.unsqueeze(0).shape, x.unsqueeze(-1).shape, x.unsqueeze(0).squeeze().shape, x.squeeze(0).shape)
print(torch.cat([x, x], dim=1).shape, torch.stack([x, x]).shape, torch.stack([x, x], dim=2).shape)
print(x.split(2, dim=1), x.chunk(3), x.unbind(0))
print(x.expand(2, 3, 4).shape, x[:, :1].expand(3, 4), x.repeat(2, 1).shape, x.flip(0))
print(x.narrow(1, 1, 2), x.select(0, 1), x.diagonal(), x.movedim(0, 1).shape)
print(x.gather(1, torch.tensor([[0], [1], [2]])), x.index_select(0, torch.tensor([2, 0])))
print(x.masked_fill(x > 5, 0), x.scatter(1, torch.tensor([[0], [1], [2]]), -1.0))
print(x.size(), x.shape[1], list(x.shape), x.shape == (3, 4), x.shape.numel(), torch.Size([2, 3]))
print(x.is_contiguous(), x.t().is_contiguous(), x.stride(), x.t().stride(), x.storage_offset() if hasattr(x, 'storage_offset') else 0)
print(x.sum(0).shape, x.mean(dim=-1, keepdim=True).shape, x.amax(dim=(0, 1)), x.max(0).indices)
print(x.min(dim=1), x.std(dim=1, unbiased=False), x.var(0, correction=0))
print(x.all(), x.any(dim=1), x.bool().all(0), x.sum(dtype=torch.float64).dtype)
""",
    "linear_algebra_autograd": """\
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([[0.5], [-1.]], requires_grad=True)
y = x @ w
print(y, y.grad_fn, y.grad_fn.next_functions)
loss = (y ** 2).mean()
print(loss)
loss.backward()
print(x.grad, w.grad)
print(torch.matmul(x, torch.tensor([1., 1.])), torch.mm(x, x), x.mv(torch.tensor([1., 0.])), torch.dot(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(torch.outer(torch.tensor([1., 2.]), torch.tensor([3., 4.])), torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 1)))
v = x.detach().clone()
print(v.requires_grad, v.is_leaf, v.grad_fn)
with torch.no_grad():
    z = x * 2
print(z.requires_grad, torch.is_grad_enabled())
print((x * 2).detach().requires_grad, x.sum().item())
""",
    "printing_formats": """\
import torch
x = torch.tensor([[0.1234, 12.5], [1e-4, 3.0]], dtype=torch.float64)
print(x)
print(torch.tensor([1e-5, 1e5]))
print(torch.tensor([100000.0, 2.0]))
print(torch.tensor([0.00001, 0.5]))
print(torch.tensor([1.0, 2.0]) * 1e8)
print(torch.tensor([[1, -2], [300, 4]]))
print(torch.tensor([-1.5, 2.25], requires_grad=True) * 1)
print(torch.tensor(2.5, requires_grad=True), torch.tensor([2.5], dtype=torch.float16, requires_grad=True))
print(torch.tensor([1+1j, 2.5-0.5j], dtype=torch.complex128))
print(torch.tensor([[1e-8 + 1j]]))
print(torch.arange(6).view(2, 3) == torch.tensor([0, 1, 2]))
print(torch.tensor([True]).dtype, torch.tensor([1], dtype=torch.bool))
print(torch.zeros(1, 1, 1), torch.ones(0, 3), torch.ones(2, 0, 1))
print(torch.tensor(float('nan')), torch.tensor([float('inf'), 1.5]), torch.tensor([float('nan'), 1.0]))
print(torch.tensor([1, 2, 3]).float() / 7)
print(str(torch.tensor([1.5])), repr(torch.tensor(0)), f"{torch.tensor(2.5)}", "{:.2f}".format(torch.tensor(2.5)))
print(torch.tensor([0.1, 0.2]).tolist(), torch.tensor([[1, 2]]).tolist(), torch.tensor(1.5).tolist())
""",
}

# One-line programs: an expression's value, or its exception type and the first line of the message.
EXPRESSIONS = [
    'x[10]',
    'x[1, 2]',
    "x['a']",
    'x[1.5]',
    'x[torch.tensor([1.0])]',
    'x[torch.tensor([10])]',
    'torch.tensor(1.)[0]',
    'x[::-1]',
    'x[torch.tensor([True, False])]',
    'x.view(4, 2)',
    'x.view(-1, -1)',
    'x.reshape(5)',
    'x.sum(2)',
    'x.mean()',
    'torch.arange(3).mean()',
    'x.transpose(0, 2)',
    'x + torch.ones(5)',
    'torch.ones(2, 3) @ torch.ones(2, 3)',
    'torch.mm(torch.ones(2), torch.ones(2))',
    'torch.cat([torch.ones(2, 3), torch.ones(3, 2)])',
    'torch.stack([torch.ones(2), torch.ones(3)])',
    'x.item()',
    'torch.tensor([[1, 2], [3]])',
    'torch.zeros(-1)',
    'x.unsqueeze(3)',
    'x.squeeze(1)',
    'x.expand(3, 2)',
    'x.permute(1, 0)',
    'x.requires_grad_().long().requires_grad_()',
    'torch.tensor([1, 2], requires_grad=True)',
    'torch.ones(2, requires_grad=True).numpy()',
    'torch.ones(2).backward()',
    'torch.ones(2, requires_grad=True).sum().backward() or torch.ones(2).grad.zero_()',
    'x.max(dim=5)',
    'torch.tensor([]).max()',
    'x.split(0)',
    'x.chunk(0)',
    'x.gather(0, torch.tensor([7]))',
    'x.flatten(2)',
    'x.repeat(2, 1, 1) and x.repeat()',
    'int(torch.ones(2))',
    'float(torch.ones(2))',
    'bool(torch.ones(2))',
    'torch.ones(2, 2).dot(torch.ones(2, 2))',
    'torch.ones(3).dot(torch.ones(3, dtype=torch.float64))',
    'torch.ones(2, 2)[0, 0, 0]',
    'torch.arange(4).view(2, 2).t().view(4)',
    "torch.ones(2) < 'a'",
    'torch.ones(2, 3).matmul(torch.ones(4))',
    'torch.randn(2, 3).softmax()',
    'len(torch.tensor(3))',
    'iter(torch.tensor(3))',
    "torch.tensor('abc')",
    'x.index_select(0, torch.tensor([1.]))',
    'x.masked_fill(torch.tensor([1, 0, 1, 0, 1, 0]), 0.)',
    'torch.tensor([1, 2]).float().mean(dim=1)',
    "x.to('cuda')",
    'x.cuda()',
    "torch.device('gpu')",
    'torch.ones(2, 3).sum(dim=(0, 0))',
    'torch.tensor([1, 2]) ** -1',
    'x.sort(dim=2)',
    'x.topk(5)',
    'x.kthvalue(0)',
    'torch.tril(torch.ones(3))',
    'torch.trace(torch.ones(3))',
    'torch.diag(torch.ones(2, 2, 2))',
    'torch.broadcast_shapes((2,), (3,))',
    'torch.bincount(torch.tensor([-1, 2]))',
    'torch.bincount(torch.tensor([1.5]))',
    'torch.tensor([1.5]) & 1',
    '~torch.tensor([1.5])',
    'x.softmax()',
    'x.softmax(2)',
    'torch.finfo(torch.int32)',
    'torch.iinfo(torch.float32)',
    'x.masked_select(torch.ones(2, 3))',
    'x.new_tensor([[1, 2], [3]])',
    'torch.is_nonzero(torch.tensor([1, 2]))',
    'torch.is_nonzero(torch.tensor([]))',
    'x.unflatten(1, (2, 2))',
    'torch.ones(2).cuda()',
    "x.type('torch.FooTensor')",
    'torch.arange(3).float().long().requires_grad_()',
]

_EXPRESSION_PROGRAM = """\
import torch
x = torch.arange(6.)
try:
    print(repr(eval({expr!r})))
except Exception as e:
    print(type(e).__name__ + ":", str(e).split("\\n")[0])
"""


def _same_output(program: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(program)
    assert _ADDRESS.sub("", ours) == _ADDRESS.sub("", theirs)


@requires_torch
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_prints_like_torch(name: str) -> None:
    _same_output(PROGRAMS[name])


@requires_torch
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_expression_prints_like_torch(expr: str) -> None:
    _same_output(_EXPRESSION_PROGRAM.format(expr=expr))
