"""Parity programs from a thirty-sixth hunt: the mistakes a student learning autograd and nn makes, and the errors
they read.

Shape mistakes (matmul / mm / bmm / mv / linear of wrong shapes, broadcasting failures, ``view`` of non-contiguous
tensors, ``expand``, ``cat`` / ``stack``, bad dims, indices out of range, masks of the wrong shape), dtype mistakes
(Float vs Double, loss targets of the wrong dtype or shape, ``requires_grad`` on integers, integer tensors in float
ops), autograd mistakes (backward twice, non-scalar outputs, tensors outside the graph, in-place writes to leaves and
saved tensors, ``.grad`` of non-leaves, ``.numpy()`` of tensors requiring grad, optimizers without ``zero_grad``), nn
mistakes (convolutions, batch norm, embeddings and recurrent layers fed the wrong input, float64 inputs to float32
models, state dicts, module definitions), and arguments of the wrong type: sizes computed with ``/`` (floats),
flags given as ints (``keepdim=1``, ``ceil_mode=1``), NumPy habits (``x.round(2)``, ``axis=``). Each program prints
the error or warning (hunt14's harness: ``E`` / ``W``, every other warning printed on stdout), then the fix and its
values, as PyTorch does. Programs marked "fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- shapes: products, broadcasting, views, joins, dims, indexing

PROGRAMS['mm_shape_mistakes'] = PRE + r'''
torch.manual_seed(0)
W = torch.randn(3, 4)
x = torch.randn(5, 3)
E(lambda: torch.mm(x, x))
E(lambda: x @ x)
E(lambda: torch.matmul(x, W.t()))
E(lambda: torch.mm(x, torch.randn(3)))
E(lambda: torch.mm(torch.randn(2, 3, 4), W))
E(lambda: x.mm(W.t()))
print((x @ W).shape)
y = x @ W
print(y.sum())
E(lambda: torch.mv(W, torch.randn(3)))
E(lambda: torch.mv(W, torch.randn(4, 1)))
print(torch.mv(W, torch.ones(4)))
E(lambda: torch.dot(torch.ones(3), torch.ones(4)))
E(lambda: torch.dot(torch.ones(3, 1), torch.ones(3)))
E(lambda: torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64)))
'''

PROGRAMS['bmm_shape_mistakes'] = PRE + r'''
a = torch.ones(2, 3, 4)
b = torch.ones(2, 5, 4)
E(lambda: torch.bmm(a, b))
E(lambda: torch.bmm(a, torch.ones(3, 4, 5)))
E(lambda: torch.bmm(a, torch.ones(4, 5)))
E(lambda: torch.bmm(torch.ones(3, 4), torch.ones(4, 5)))
E(lambda: torch.bmm(a, b.double().transpose(1, 2)))
print(torch.bmm(a, b.transpose(1, 2)).shape)
E(lambda: torch.matmul(a, torch.ones(3, 5, 4).transpose(1, 2)))
E(lambda: torch.matmul(torch.ones(4), torch.ones(3)))
E(lambda: torch.matmul(torch.ones(2, 4), torch.ones(3)))
E(lambda: torch.matmul(torch.ones(3), torch.ones(2, 4)))
E(lambda: torch.matmul(torch.ones(()), torch.ones(2)))
print(torch.matmul(torch.ones(3), torch.ones(3, 2)))
'''

PROGRAMS['linear_wrong_in_features'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(4, 2)
x = torch.randn(3, 5)
E(lambda: lin(x))
E(lambda: lin(torch.randn(5)))
E(lambda: lin(torch.randn(2, 3, 5)))
E(lambda: torch.nn.functional.linear(x, lin.weight, lin.bias))
E(lambda: torch.nn.functional.linear(torch.randn(3, 4), lin.weight, torch.zeros(3)))
E(lambda: lin(torch.randn(3, 4, dtype=torch.float64)))
E(lambda: lin(torch.arange(12).reshape(3, 4)))
E(lambda: lin(torch.tensor(1.)))
y = lin(x[:, :4])
print(y)
print(y.grad_fn)
'''

PROGRAMS['broadcast_add_mul_failures'] = PRE + r'''
a = torch.ones(3, 4)
b = torch.ones(4, 3)
E(lambda: a + b)
E(lambda: a * torch.ones(3))
E(lambda: a - torch.ones(2, 3, 1))
E(lambda: a / torch.ones(5, 1, 1, 2))
E(lambda: torch.add(a, b))
E(lambda: a.add_(torch.ones(2, 3, 4)))
E(lambda: a.mul_(torch.ones(3, 1, 4)))
E(lambda: torch.where(a > 0, a, b))
E(lambda: torch.maximum(a, b))
print(a + b.t())
print((a * torch.ones(3, 1)).shape, (a * torch.ones(4)).shape)
'''

PROGRAMS['view_noncontiguous_then_reshape'] = PRE + r'''
x = torch.arange(12.).reshape(3, 4)
t = x.t()
print(t.is_contiguous())
E(lambda: t.view(12))
E(lambda: t.view(-1))
E(lambda: t.view(2, 6))
print(t.reshape(12))
print(t.contiguous().view(2, 6))
E(lambda: x.view(5, -1))
E(lambda: x.view(-1, -1))
E(lambda: x.view(3, 5))
E(lambda: x.view(2, -1, 4))
E(lambda: x.reshape(7, -1))
E(lambda: x.view(torch.float64))
print(x.view(4, 3)[1])
p = x.unsqueeze(0).expand(2, 3, 4)
E(lambda: p.view(24))
print(p.reshape(24)[-3:])
'''

# fixed: a negative size other than -1 (x.expand(3, -2)) is PyTorch's numel overflow
PROGRAMS['expand_errors'] = PRE + r'''
x = torch.ones(3, 1)
E(lambda: x.expand(3, 4, 2))
print(x.expand(2, 3, 4).shape)
E(lambda: x.expand(4, 4))
E(lambda: x.expand(2))
E(lambda: x.expand(-1, -1, 2))
E(lambda: x.expand(3, -2))
E(lambda: torch.ones(2, 3).expand(3, 3))
E(lambda: x.expand_as(torch.ones(2, 2)))
print(x.expand(-1, 5))
y = torch.ones(3, requires_grad=True)
z = y.expand(2, 3)
print(z.grad_fn)
z.sum().backward()
print(y.grad)
'''

PROGRAMS['cat_stack_mismatched'] = PRE + r'''
a = torch.ones(2, 3)
b = torch.zeros(2, 4)
E(lambda: torch.cat([a, b]))
print(torch.cat([a, b], dim=1).shape)
E(lambda: torch.stack([a, b]))
E(lambda: torch.stack([a, a], dim=3))
E(lambda: torch.cat([a, b], dim=2))
E(lambda: torch.cat([a, torch.ones(3)]))
E(lambda: torch.cat([]))
E(lambda: torch.stack([]))
E(lambda: torch.cat(a, b))
E(lambda: torch.cat((a, torch.ones(2, 3, dtype=torch.int64))))
print(torch.cat((a, torch.ones(2, 3, dtype=torch.int64))).dtype)
E(lambda: torch.stack([a, a.t()]))
E(lambda: torch.hstack([torch.ones(2), torch.ones(2, 1)]))
E(lambda: torch.vstack([torch.ones(2), torch.ones(3)]))
'''

PROGRAMS['squeeze_unsqueeze_transpose_bad_dims'] = PRE + r'''
x = torch.ones(2, 1, 3)
E(lambda: x.squeeze(3))
E(lambda: x.squeeze(-4))
print(x.squeeze(0).shape, x.squeeze(1).shape)
E(lambda: x.unsqueeze(4))
E(lambda: x.unsqueeze(-5))
print(x.unsqueeze(3).shape, x.unsqueeze(-4).shape)
E(lambda: x.transpose(0, 3))
E(lambda: x.transpose(-4, 0))
E(lambda: x.permute(0, 1))
E(lambda: x.permute(0, 1, 1))
E(lambda: x.permute(0, 1, 3))
E(lambda: x.t())
E(lambda: x.T)
E(lambda: x.mT.shape)
E(lambda: torch.ones(3).mT)
E(lambda: x.movedim(0, 5))
E(lambda: x.flatten(2, 1))
E(lambda: x.unflatten(2, (2, 2)))
'''

PROGRAMS['index_out_of_range'] = PRE + r'''
x = torch.arange(6.).reshape(2, 3)
E(lambda: x[2])
E(lambda: x[0, 3])
E(lambda: x[-3])
E(lambda: x[:, 5])
E(lambda: x[0, 0, 0])
E(lambda: x[torch.tensor([0, 2])])
E(lambda: x[:, torch.tensor([3])])
E(lambda: x.select(1, 4))
E(lambda: x.index_select(0, torch.tensor([5])))
E(lambda: x.index_select(0, torch.tensor([0.])))
E(lambda: torch.gather(x, 1, torch.tensor([[0, 3]])))
E(lambda: x.narrow(1, 2, 2))
print(x[1, -1], x[-1], x[:, 1:10])
E(lambda: x.__setitem__((0, 4), 1.))
'''

PROGRAMS['bool_mask_wrong_shape'] = PRE + r'''
x = torch.arange(6.).reshape(2, 3)
m = torch.tensor([True, False])
print(x[m])
m3 = torch.tensor([True, False, True])
E(lambda: x[m3])
print(x[:, m3])
E(lambda: x[torch.ones(3, 2, dtype=torch.bool)])
E(lambda: x[torch.ones(2, 2, dtype=torch.bool)])
E(lambda: x.masked_fill(torch.ones(3, dtype=torch.bool), 0.))
E(lambda: x.masked_fill(torch.ones(2, 3), 0.))
E(lambda: x.masked_fill(x > 2, torch.tensor([1., 2.])))
E(lambda: x.masked_select(torch.ones(3, 2, dtype=torch.bool)))
E(lambda: x.masked_fill_(torch.ones(2, 2, 3, dtype=torch.bool), 0.))
print(x.masked_fill(x > 2, -1.))
y = x.clone()
E(lambda: y.__setitem__(torch.tensor([True, False, True]), 0.))
y[x > 3] = 0.
print(y)
'''

PROGRAMS['index_dtype_mistakes'] = PRE + r'''
x = torch.arange(12.).reshape(3, 4)
idx = torch.tensor([[0, 2], [1, 3], [3, 0]])
E(lambda: torch.gather(x, 1, idx.float()))
E(lambda: torch.gather(x, 1, idx.int()))
E(lambda: x.scatter(1, idx.float(), 0.))
E(lambda: x.scatter(1, idx.int(), 0.))
E(lambda: x.scatter_add(1, idx, torch.ones(3, 2, dtype=torch.float64)))
E(lambda: x[idx.float()])
print(x[torch.tensor([0, 2], dtype=torch.int32)])
print(W(lambda: x[torch.tensor([0, 1, 1], dtype=torch.uint8)]))
E(lambda: x[torch.tensor([0, 2], dtype=torch.uint8)])
E(lambda: x[torch.tensor([0, 2], dtype=torch.int16)])
E(lambda: torch.where(x, x, 0.))
E(lambda: torch.where(x.long() > 3, x, 0))
E(lambda: x.masked_fill(torch.ones(3, 4, dtype=torch.int64), 0.))
E(lambda: x.index_select(0, idx[:, 0].int()))
E(lambda: x.index_select(0, idx.float()[:, 0]))
E(lambda: x.index_select(0, idx))
E(lambda: x.index_add(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.int64)))
E(lambda: x.take(torch.tensor([0.])))
E(lambda: x.take(torch.tensor([12])))
print(torch.gather(x, 1, idx))
'''

PROGRAMS['container_argument_mistakes'] = PRE + r'''
x = torch.ones(2, 3)
E(lambda: torch.stack(x))
E(lambda: torch.cat(x, dim=0))
E(lambda: torch.cat([x, 1]))
E(lambda: torch.stack((x, [[1., 2., 3.], [4., 5., 6.]])))
E(lambda: torch.cat([x, x.numpy()]))
E(lambda: torch.tensor([torch.ones(2), torch.ones(2)]))
E(lambda: torch.tensor([x, x]))
print(torch.stack(list(x)))
E(lambda: torch.cat((x)))
E(lambda: torch.cat(x, x))
E(lambda: torch.cat([x, x], 0, 1))
E(lambda: torch.cat([x, x], dim='1'))
E(lambda: torch.stack([x, x], dim=1.))
E(lambda: torch.cat({x, x}))
E(lambda: torch.cat(iter([x, x])))
print(torch.cat(tuple([x, x])).shape, torch.cat([x, torch.tensor([])]).shape)
E(lambda: torch.cat([x, torch.zeros(0, 2)]))
'''

PROGRAMS['dataloader_like_batch_mistakes'] = PRE + r'''
torch.manual_seed(0)
xs = [torch.randn(3) for _ in range(4)]
E(lambda: torch.tensor(xs))
print(torch.stack(xs).shape)
E(lambda: torch.tensor([[1, 2], [3]]))
E(lambda: torch.tensor([torch.ones(2), torch.ones(3)]))
E(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
E(lambda: torch.tensor('abc'))
E(lambda: torch.tensor([1, 'a']))
E(lambda: torch.tensor([[1, 2], 3]))
E(lambda: torch.tensor(None))
print(torch.tensor([torch.tensor(1.), torch.tensor(2.)]))
E(lambda: torch.tensor([torch.tensor([1.]), torch.tensor(2.)]))
E(lambda: torch.as_tensor([1, [2]]))
import numpy as np
E(lambda: torch.from_numpy(np.array([1, 2], dtype=object)))
E(lambda: torch.from_numpy([1, 2]))
E(lambda: torch.from_numpy(np.array(['a'])))
'''

# ---- dtypes and losses

PROGRAMS['float_vs_double_mm_linear_conv'] = PRE + r'''
torch.manual_seed(0)
a = torch.randn(2, 3)
b = torch.randn(3, 2, dtype=torch.float64)
E(lambda: torch.mm(a, b))
E(lambda: a @ b)
E(lambda: torch.matmul(a, b))
E(lambda: torch.bmm(a[None], b[None]))
E(lambda: torch.mv(a, b[:, 0]))
E(lambda: torch.addmm(torch.zeros(2, 2), a, b))
lin = torch.nn.Linear(3, 2)
E(lambda: lin(a.double()))
E(lambda: lin(torch.ones(2, 3, dtype=torch.float16)))
conv = torch.nn.Conv2d(1, 2, 3)
E(lambda: conv(torch.randn(1, 1, 5, 5, dtype=torch.float64)))
E(lambda: conv(torch.ones(1, 1, 5, 5, dtype=torch.int64)))
lin.double()
print(lin(a.double()).dtype)
print(lin.weight.dtype)
'''

PROGRAMS['cross_entropy_target_mistakes'] = PRE + r'''
torch.manual_seed(0)
logits = torch.randn(4, 3, requires_grad=True)
F = torch.nn.functional
E(lambda: F.cross_entropy(logits, torch.tensor([0., 1., 2., 1.])))
E(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 3, 1])))
E(lambda: F.cross_entropy(logits, torch.tensor([0, 1, -2, 1])))
E(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2])))
E(lambda: F.cross_entropy(logits, torch.tensor([[0], [1], [2], [1]])))
E(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 1], dtype=torch.int32)))
E(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 1], dtype=torch.uint8)))
E(lambda: F.cross_entropy(logits, torch.ones(4, 4)))
E(lambda: F.cross_entropy(logits, torch.ones(4, 3, dtype=torch.int64)))
loss = F.cross_entropy(logits, torch.tensor([0, 1, 2, 1]))
print(loss)
loss.backward()
print(logits.grad)
print(F.cross_entropy(logits, torch.full((4, 3), 1 / 3)))
'''

PROGRAMS['nll_loss_target_dtypes'] = PRE + r'''
torch.manual_seed(1)
logp = torch.log_softmax(torch.randn(3, 4), dim=1)
F = torch.nn.functional
E(lambda: F.nll_loss(logp, torch.tensor([1, 0, 3], dtype=torch.int32)))
E(lambda: F.nll_loss(logp, torch.tensor([1., 0., 3.])))
E(lambda: F.nll_loss(logp, torch.tensor([1, 0, 4])))
E(lambda: F.nll_loss(logp, torch.tensor([1, 0])))
E(lambda: F.nll_loss(logp[0], torch.tensor([1, 0])))
E(lambda: F.nll_loss(logp, torch.tensor(1)))
E(lambda: F.nll_loss(logp, torch.tensor([1, 0, 3]), weight=torch.ones(3)))
E(lambda: F.nll_loss(logp.double(), torch.tensor([1, 0, 3]), weight=torch.ones(4)))
print(F.nll_loss(logp, torch.tensor([1, 0, 3])))
print(F.nll_loss(logp, torch.tensor([1, 0, 3]), ignore_index=3))
print(F.nll_loss(logp, torch.tensor([1, 0, -100])))
print(F.nll_loss(logp[0], torch.tensor(2)))
'''

PROGRAMS['mse_loss_shape_mismatch_warning'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
pred = torch.randn(4, 1, requires_grad=True)
target = torch.randn(4)
loss = W(lambda: F.mse_loss(pred, target))
print(loss)
loss2 = W(lambda: torch.nn.MSELoss()(pred, target))
print(loss2.shape)
E(lambda: F.mse_loss(pred, torch.randn(3)))
E(lambda: F.mse_loss(pred, torch.ones(4, 1, dtype=torch.int64)))
print(W(lambda: F.mse_loss(pred.squeeze(1), target)))
E(lambda: F.l1_loss(pred, torch.randn(5)))
print(W(lambda: F.l1_loss(pred, target)))
print(W(lambda: F.smooth_l1_loss(pred, target)))
print(W(lambda: F.huber_loss(pred, target)))
E(lambda: F.mse_loss(pred, target, reduction='avg'))
'''

PROGRAMS['requires_grad_on_integers'] = PRE + r'''
E(lambda: torch.tensor([1, 2, 3], requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
E(lambda: torch.zeros(3, dtype=torch.long).requires_grad_())
E(lambda: torch.ones(2, dtype=torch.bool, requires_grad=True))
x = torch.tensor([1, 2, 3])
def setit():
    x.requires_grad = True
E(setit)
E(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
p = torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
print(p)
y = torch.tensor([1., 2., 3.], requires_grad=True)
z = (y * 2).long()
print(z, z.requires_grad)
E(lambda: z.requires_grad_())
print(torch.tensor([1, 2], dtype=torch.float32, requires_grad=True))
print(torch.tensor([1j, 2], requires_grad=True))
'''

PROGRAMS['integer_tensors_in_float_ops'] = PRE + r'''
x = torch.tensor([1, 2, 3])
print(torch.exp(x), torch.sqrt(x).dtype, x.sin())
E(lambda: x.mean())
E(lambda: torch.mean(x, dim=0))
print(x.float().mean())
print(x.mean(dtype=torch.float32))
E(lambda: x.std())
E(lambda: x.var())
E(lambda: torch.softmax(x, 0))
print(torch.softmax(x, 0, dtype=torch.float64))
E(lambda: x.exp_())
E(lambda: x.sqrt_())
E(lambda: torch.nn.functional.relu(x))
print(torch.nn.functional.relu(x))
E(lambda: x / 2 + torch.tensor([1], dtype=torch.int64).div_(2))
E(lambda: torch.nn.functional.sigmoid(x))
E(lambda: torch.nn.functional.log_softmax(x, 0))
E(lambda: x.norm())
E(lambda: torch.linalg.norm(x))
'''

PROGRAMS['bce_loss_common_mistakes'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
logits = torch.randn(4)
target = torch.tensor([0, 1, 1, 0])
E(lambda: F.binary_cross_entropy(logits, target.float()))
E(lambda: F.binary_cross_entropy(torch.sigmoid(logits), target))
E(lambda: F.binary_cross_entropy_with_logits(logits, target))
print(F.binary_cross_entropy_with_logits(logits, target.float()))
E(lambda: F.binary_cross_entropy(torch.sigmoid(logits), target.float()[:3]))
E(lambda: F.binary_cross_entropy_with_logits(logits, target.float()[:, None]))
E(lambda: F.binary_cross_entropy(torch.sigmoid(logits).unsqueeze(1), target.float()))
print(F.binary_cross_entropy(torch.sigmoid(logits), target.float()))
E(lambda: torch.nn.BCELoss()(torch.tensor([1.2, 0.5]), torch.tensor([1., 0.])))
E(lambda: F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1., 0.]), weight=torch.ones(3)))
E(lambda: F.binary_cross_entropy_with_logits(logits, target.float(), pos_weight=torch.ones(3)))
print(F.binary_cross_entropy_with_logits(logits, target.float(), pos_weight=torch.tensor(2.)))
'''

PROGRAMS['cross_entropy_loss_module_target_shapes'] = PRE + r'''
torch.manual_seed(0)
crit = torch.nn.CrossEntropyLoss()
logits = torch.randn(2, 3, 4)
E(lambda: crit(logits, torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])))
E(lambda: crit(logits, torch.tensor([[0, 1, 2], [2, 2, 0]])))
E(lambda: crit(logits, torch.tensor([0, 1])))
E(lambda: crit(logits.permute(0, 2, 1), torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])))
print(crit(logits, torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]]) % 3))
E(lambda: crit(logits[0], torch.tensor([[1], [2], [0]])))
E(lambda: crit(torch.randn(3), torch.tensor(1)))
print(crit(torch.tensor([1., 2., 3.]), torch.tensor(1)))
E(lambda: crit(torch.randn(4, 3), torch.tensor([1, 2, 0, 1]).unsqueeze(0)))
E(lambda: torch.nn.CrossEntropyLoss(weight=torch.ones(4))(torch.randn(2, 3), torch.tensor([0, 1])))
E(lambda: torch.nn.CrossEntropyLoss(label_smoothing=1.5)(torch.randn(2, 3), torch.tensor([0, 1])))
E(lambda: torch.nn.CrossEntropyLoss(reduction='none ')(torch.randn(2, 3), torch.tensor([0, 1])))
'''

PROGRAMS['wrong_loss_argument_order_and_reduction'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
pred = torch.randn(3, 4)
target = torch.tensor([1, 0, 3])
E(lambda: F.cross_entropy(target, pred))
E(lambda: F.nll_loss(target, pred))
E(lambda: torch.nn.CrossEntropyLoss(pred, target))
E(lambda: torch.nn.MSELoss(size_average=True, reduction='sum'))
print(W(lambda: torch.nn.MSELoss(size_average=False).reduction))
print(W(lambda: torch.nn.L1Loss(reduce=False).reduction))
E(lambda: F.mse_loss(pred, pred, 'mean'))
E(lambda: F.cross_entropy(pred, target, reduction=None))
E(lambda: F.kl_div(pred, pred))
print(W(lambda: F.kl_div(pred.log_softmax(1), pred.softmax(1))))
print(F.kl_div(pred.log_softmax(1), pred.softmax(1), reduction='batchmean'))
E(lambda: torch.nn.BCEWithLogitsLoss()(pred, target))
print(torch.nn.CrossEntropyLoss(reduction='sum')(pred, target))
'''

PROGRAMS['numpy_habits_on_tensors'] = PRE + r'''
x = torch.arange(6.).reshape(2, 3)
E(lambda: x.astype(torch.int64))
E(lambda: x.copy())
E(lambda: x.append(1))
E(lambda: x.size == (2, 3))
print(x.size() == (2, 3), x.shape == torch.Size([2, 3]), x.shape == [2, 3])
print(x.max(axis=0), x.mean(axis=1, keepdims=True))
print(x.clip(1, 4), torch.concatenate([x, x]).shape)
E(lambda: x.dtype == 'float32')
print(x.dtype == torch.float32, str(x.dtype), x.dtype.itemsize)
E(lambda: x.reshape(3, -1).tolist(1))
E(lambda: x.sum(axis=0, dim=1))
E(lambda: x.std(ddof=1))
E(lambda: x.argmax(axis=3))
E(lambda: x.any(axis=0, keepdims=1))
E(lambda: torch.ones(2, dtype=float).dtype)
E(lambda: torch.ones(2, dtype='float32'))
import numpy as np
E(lambda: torch.ones(2, dtype=np.float32))
E(lambda: x.type('float'))
print(x.type(torch.float64).dtype, x.type(), x.type('torch.IntTensor'))
E(lambda: x.to(np.float32))
E(lambda: torch.tensor([1., 2.], dtype=np.float64))
'''

PROGRAMS['tensor_from_tensor_warnings'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = W(lambda: torch.tensor(x))
print(y, y.requires_grad)
z = W(lambda: torch.tensor(x * 2))
print(z)
w = W(lambda: x.new_tensor(x))
print(w)
v = W(lambda: torch.as_tensor(x))
print(v is x)
u = W(lambda: torch.Tensor(x))
print(u, u is x)
q = W(lambda: torch.tensor([x[0], x[1]]))
print(q)
r = W(lambda: torch.tensor(x.detach(), dtype=torch.float64))
print(r)
print(W(lambda: torch.FloatTensor(x.detach())))
E(lambda: torch.FloatTensor(x))
E(lambda: torch.LongTensor([1.5]))
E(lambda: torch.LongTensor(x.detach()))
'''

PROGRAMS['probability_argument_mistakes'] = PRE + r'''
torch.manual_seed(0)
x = torch.empty(4)
E(lambda: x.bernoulli_(2.))
E(lambda: x.bernoulli_(-0.1))
E(lambda: torch.bernoulli(torch.tensor([1.5, 0.5])))
E(lambda: torch.bernoulli(torch.tensor([1, 0])))
E(lambda: torch.nn.functional.dropout(torch.ones(3), p=-0.1))
E(lambda: torch.nn.functional.dropout(torch.ones(3), p=1.5))
E(lambda: torch.nn.Dropout(1.5))
E(lambda: torch.nn.Dropout(p=-1))
E(lambda: torch.nn.functional.dropout2d(torch.ones(3), p=0.5))
print(W(lambda: torch.nn.functional.dropout2d(torch.ones(1, 2, 3), p=0.5)).shape)
E(lambda: torch.multinomial(torch.tensor([0., 0.]), 1))
E(lambda: torch.multinomial(torch.tensor([[0.5, float('nan')]]), 1))
E(lambda: torch.multinomial(torch.tensor([1., 2.]), 0))
E(lambda: torch.multinomial(torch.tensor(1.), 1))
print(torch.bernoulli(torch.tensor([0., 1., 1., 0.])))
print(torch.nn.functional.dropout(torch.ones(4), p=1.))
print(torch.nn.functional.dropout(torch.ones(4), p=0.))
'''

# ---- autograd

PROGRAMS['backward_twice_in_loop'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
h = (w * x).tanh()
for step in range(2):
    loss = (h ** 2).sum()
    try:
        loss.backward()
        print('step', step, w.grad)
    except RuntimeError as e:
        print('step', step, 'RuntimeError', e)
w.grad = None
for step in range(2):
    h = (w * x).tanh()
    (h ** 2).sum().backward()
print(w.grad)
E(lambda: h.backward(torch.ones(3)))
'''

PROGRAMS['backward_nonscalar_variants'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
E(lambda: y.backward())
E(lambda: torch.autograd.grad(y, x))
E(lambda: y.backward(torch.ones(2)))
E(lambda: y.backward(torch.ones(3, 1)))
E(lambda: y.backward(torch.ones(3, dtype=torch.int64)))
E(lambda: y.backward(torch.ones(3, dtype=torch.float64)))
print(x.grad)
E(lambda: y.backward(torch.ones(1)))
E(lambda: y.backward(1.))
E(lambda: y.sum().backward(torch.ones(3)))
E(lambda: y.sum().backward(torch.tensor(2.)))
y = x * 2
y.sum().backward(torch.tensor(2.))
print(x.grad)
E(lambda: torch.autograd.backward(y, grad_tensors=[torch.ones(3), torch.ones(3)]))
'''

PROGRAMS['grad_of_tensor_not_in_graph'] = PRE + r'''
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
c = torch.tensor(4.)
y = a * a
E(lambda: torch.autograd.grad(y, b, retain_graph=True))
E(lambda: torch.autograd.grad(y, c, retain_graph=True))
E(lambda: torch.autograd.grad(y, [a, b], retain_graph=True))
print(torch.autograd.grad(y, [a, b], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [a, b], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, [a, b], allow_unused=False, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(c * 2, c))
E(lambda: torch.autograd.grad(y, a * 1, retain_graph=True))
d = a * 3
E(lambda: torch.autograd.grad(y, d, retain_graph=True))
print(torch.autograd.grad(y + d, d))
E(lambda: torch.autograd.grad(y, []))
'''

PROGRAMS['inplace_on_leaf_requiring_grad'] = PRE + r'''
w = torch.ones(3, requires_grad=True)
E(lambda: w.add_(1))
E(lambda: w.zero_())
E(lambda: w.__setitem__(0, 5.))
E(lambda: w.copy_(torch.zeros(3)))
E(lambda: w.clamp_(0, 0.5))
E(lambda: w.data.add_(1))
print(w)
with torch.no_grad():
    w -= 0.5
print(w, w.requires_grad, w.grad_fn, w.is_leaf)
v = w[1:]
E(lambda: v.mul_(2))
E(lambda: torch.relu_(w))
torch.manual_seed(0)
E(lambda: torch.nn.init.normal_(w))
print(w._version)
def sub():
    global w
    w -= 1
E(sub)
print(w)
'''

PROGRAMS['modify_saved_tensor_then_backward'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
z = y * y
y.add_(1)
E(lambda: z.sum().backward())
a = x.exp()
a.mul_(2)
E(lambda: a.sum().backward())
x.grad = None
b = x.sigmoid()
c = b * 1
b.zero_()
E(lambda: c.sum().backward())
E(lambda: b.sum().backward())
d = x.tanh()
e = d.sum()
d[0] = 0.
E(lambda: e.backward())
f = x * 3
g = f.relu()
f.add_(1)
E(lambda: g.sum().backward())
print(x.grad)
'''

PROGRAMS['grad_of_nonleaf_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
print(W(lambda: y.grad))
print(W(lambda: z.grad))
print(x.grad)
print(y.is_leaf, y.requires_grad, y.retains_grad)
x.grad = None
y = x * 3
y.retain_grad()
y.sum().backward()
print(W(lambda: y.grad))
print(W(lambda: x.grad))
q = torch.tensor([1., 2.]) * 2
print(W(lambda: q.grad))
'''

PROGRAMS['numpy_on_tensor_requiring_grad'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: x.numpy())
y = x * 2
E(lambda: y.numpy())
print(y.detach().numpy())
print(x.numpy(force=True))
E(lambda: y.tolist())
print(y.tolist())
E(lambda: float(y))
E(lambda: y.item())
print(y[1].item(), float(y[2]))
import numpy as np
E(lambda: np.array(y))
E(lambda: np.asarray(x))
print(np.array(x.detach()))
E(lambda: int(torch.ones(2)))
E(lambda: bool(torch.ones(2)))
E(lambda: torch.zeros(0).item())
'''

PROGRAMS['autograd_grad_allow_unused_and_retain'] = PRE + r'''
x = torch.tensor(1.5, requires_grad=True)
u = torch.tensor(2., requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
g2, = torch.autograd.grad(g, x)
print(g2)
E(lambda: torch.autograd.grad(g, x))
E(lambda: torch.autograd.grad(y, u))
gs = torch.autograd.grad(x * 2, [x, u], allow_unused=True)
print(gs)
E(lambda: torch.autograd.grad(x.detach() * 2, x))
E(lambda: torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(2)))
E(lambda: torch.autograd.grad([x * 2, x * 3], x, grad_outputs=[torch.tensor(1.)]))
print(torch.autograd.grad([x * 2, x * 3], x))
E(lambda: torch.autograd.grad(x * 2, x, is_grads_batched=True, grad_outputs=torch.tensor(1.)))
'''

PROGRAMS['setting_grad_and_requires_grad_wrongly'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x * 2
def set_rg():
    y.requires_grad = False
E(set_rg)
def set_grad(v):
    x.grad = v
E(lambda: set_grad(torch.ones(2)))
E(lambda: set_grad(torch.ones(3, dtype=torch.int64)))
E(lambda: set_grad(torch.ones(3, dtype=torch.float64)))
E(lambda: set_grad([1., 2., 3.]))
E(lambda: set_grad(torch.ones(3, 1)))
set_grad(torch.full((3,), 2.))
print(x.grad)
E(lambda: torch.ones(3).register_hook(lambda g: g))
E(lambda: torch.ones(3).retain_grad())
z = torch.ones(2)
E(lambda: z.grad.zero_())
E(lambda: setattr(x, 'grad_fn', None))
E(lambda: setattr(x, 'is_leaf', False))
E(lambda: setattr(y, 'data', torch.ones(4)))
'''

PROGRAMS['gan_style_inplace_update_between_backwards'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.randn(4, 3)
out = lin(x)
loss1 = out.pow(2).mean()
loss2 = out.abs().mean()
loss1.backward(retain_graph=True)
opt.step()
E(lambda: loss2.backward())
print(lin.weight._version, lin.bias._version)
opt.zero_grad()
out = lin(x)
loss1 = out.pow(2).mean()
loss2 = out.abs().mean()
(loss1 + loss2).backward()
opt.step()
print(lin.weight)
h = torch.tanh(lin(x))
h2 = h * 2
with torch.no_grad():
    lin.weight.mul_(0.5)
print(h.grad_fn.next_functions[0][0].name())
E(lambda: h2.sum().backward())
'''

PROGRAMS['backward_on_no_grad_results'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = (x * 2).sum()
print(y.requires_grad, y.grad_fn)
E(lambda: y.backward())
z = x.detach() * 3
E(lambda: z.sum().backward())
E(lambda: torch.autograd.grad(y, x))
w = torch.tensor(3.)
E(lambda: w.backward())
torch.set_grad_enabled(False)
q = x * 2
torch.set_grad_enabled(True)
E(lambda: q.sum().backward())
@torch.no_grad()
def f(t):
    return t * 2
E(lambda: f(x).sum().backward())
print(f(x).requires_grad)
with torch.inference_mode():
    r = x * 2
E(lambda: r.sum().backward())
E(lambda: (r * x).sum().backward())
E(lambda: r.requires_grad_())
'''

PROGRAMS['relu_inplace_after_sigmoid'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
s = torch.sigmoid(x)
torch.relu_(s)
E(lambda: s.sum().backward())
t = torch.tanh(x)
r = torch.nn.ReLU(inplace=True)(t)
print(r.grad_fn, t.grad_fn, r is t)
E(lambda: r.sum().backward())
e = x.exp()
torch.nn.functional.relu(e, inplace=True)
E(lambda: e.sum().backward())
m = x * 2
torch.nn.functional.relu(m, inplace=True)
m.sum().backward()
print(x.grad)
E(lambda: torch.nn.functional.relu(x, inplace=True))
E(lambda: torch.nn.functional.dropout(x, 0.5, True, True))
E(lambda: torch.nn.functional.leaky_relu_(x))
'''

PROGRAMS['out_argument_with_grad'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
out = torch.empty(3)
E(lambda: torch.exp(x, out=out))
E(lambda: torch.add(x, 1, out=out))
E(lambda: torch.sum(x.view(3, 1), 1, out=out))
with torch.no_grad():
    torch.exp(x, out=out)
print(out)
o2 = torch.empty(2, requires_grad=True)
E(lambda: torch.exp(torch.ones(2), out=o2))
E(lambda: torch.mul(torch.ones(2), 3, out=torch.empty(2, dtype=torch.int64)))
print(W(lambda: torch.exp(torch.ones(2), out=torch.empty(5))))
E(lambda: torch.matmul(x, x, out=out))
E(lambda: torch.cat([x, x], out=torch.empty(6)))
'''

PROGRAMS['resize_and_inplace_views_on_leaves'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
E(lambda: x.resize_(6))
E(lambda: x.resize_as_(torch.ones(6)))
E(lambda: x.unsqueeze_(0))
E(lambda: x.t_())
E(lambda: x.squeeze_())
E(lambda: x.transpose_(0, 1))
E(lambda: x.as_strided_((6,), (1,)))
E(lambda: x.detach_())
y = x * 1
y.unsqueeze_(0)
print(y.shape, y.grad_fn)
v = x[0]
E(lambda: v.detach_())
y2 = x * 2
y2.detach_()
print(y2.requires_grad, y2.grad_fn, y2.is_leaf)
E(lambda: y.resize_(6))
print(x.shape)
'''

PROGRAMS['view_of_leaf_inplace_and_version'] = PRE + r'''
a = torch.arange(4.).requires_grad_()
b = a.view(2, 2)
E(lambda: b.add_(1))
c = a * 1
d = c.view(2, 2)
d.mul_(3)
print(c.grad_fn, d.grad_fn, c._version, d._version)
c.sum().backward()
print(a.grad)
e = a.exp()
f = e[1:]
f.zero_()
E(lambda: e.sum().backward())
g = a.sin()
h = g.view(4)
g.add_(1)
print(h._version, g._version)
E(lambda: (h * h).sum().backward())
'''

PROGRAMS['accumulated_total_loss_keeps_graph'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(2, requires_grad=True)
total = 0
for i in range(3):
    loss = (w * (i + 1)).pow(2).sum()
    total += loss
print(type(total).__name__, total.grad_fn, total.requires_grad)
total2 = 0.
for i in range(3):
    loss = (w * (i + 1)).pow(2).sum()
    total2 += loss.item()
print(type(total2).__name__, round(total2, 4))
total.backward()
print(w.grad)
E(lambda: total.backward())
print(sum([torch.tensor(1.), torch.tensor(2.)]))
print(sum([torch.ones(2), torch.ones(2)], torch.zeros(2)))
import numpy as np
E(lambda: np.mean([torch.tensor(1., requires_grad=True)]))
print(np.mean([torch.tensor(1.), torch.tensor(3.)]))
'''

PROGRAMS['no_grad_without_parentheses'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
def ctx():
    with torch.no_grad:
        pass
E(ctx)
@torch.no_grad
def f(t):
    return t * 2
y = f(x)
print(y.requires_grad, y)
@torch.enable_grad()
def g(t):
    return t * 2
with torch.no_grad():
    z = g(x)
print(z.requires_grad, z.grad_fn)
def ctx2():
    with torch.set_grad_enabled:
        pass
E(ctx2)
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('no'))
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
print(torch.is_grad_enabled())
E(lambda: torch.no_grad(True))
'''

PROGRAMS['no_grad_inference_mistakes'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
x = torch.randn(3, 2)
with torch.inference_mode():
    pred = model(x)
print(pred.requires_grad, pred.is_inference())
E(lambda: pred.sum().backward())
E(lambda: (pred * model.weight.sum()).sum().backward())
E(lambda: pred.add_(1))
E(lambda: pred.requires_grad_())
p2 = pred.clone()
print(p2.is_inference(), p2.requires_grad)
with torch.no_grad():
    q = model(x)
print(q.requires_grad, q.is_inference())
q.add_(1)
print(q)
E(lambda: torch.nn.functional.mse_loss(pred, torch.zeros(3, 1)).backward())
loss = torch.nn.functional.mse_loss(model(x), torch.zeros(3, 1))
loss.backward()
print(model.weight.grad)
'''

# ---- optimizers and training loops

PROGRAMS['optimizer_without_zero_grad'] = PRE + r'''
torch.manual_seed(0)
w = torch.tensor([1., -2.], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
x = torch.tensor([0.5, 1.5])
for step in range(3):
    loss = ((w * x).sum() - 1) ** 2
    loss.backward()
    print(step, loss.item(), w.grad)
    opt.step()
print(w)
w2 = torch.tensor([1., -2.], requires_grad=True)
opt2 = torch.optim.SGD([w2], lr=0.1)
for step in range(3):
    opt2.zero_grad()
    loss = ((w2 * x).sum() - 1) ** 2
    loss.backward()
    opt2.step()
    print(step, loss.item(), w2.grad)
print(w2)
opt2.zero_grad(set_to_none=False)
print(w2.grad)
opt2.zero_grad()
print(w2.grad)
'''

PROGRAMS['optimizer_construction_mistakes'] = PRE + r'''
torch.manual_seed(0)
w = torch.ones(2, requires_grad=True)
E(lambda: torch.optim.SGD(w, lr=0.1))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD([w], lr=-1))
E(lambda: torch.optim.Adam([w], lr=0.1, betas=(1.0, 0.9)))
E(lambda: torch.optim.Adam([w], eps=-1))
E(lambda: torch.optim.SGD([w], lr=0.1, momentum=-0.5))
E(lambda: torch.optim.SGD([w], lr=0.1, nesterov=True))
E(lambda: torch.optim.SGD([w, w], lr=0.1))
E(lambda: torch.optim.SGD([torch.ones(2)], lr=0.1))
E(lambda: torch.optim.Adam([w], weight_decay=-0.1))
E(lambda: torch.optim.SGD([{'params': [w]}, {'params': [w]}], lr=0.1))
E(lambda: torch.optim.SGD([{'params': w}], lr=0.1))
E(lambda: torch.optim.SGD({w}, lr=0.1))
m = torch.nn.Linear(2, 1)
E(lambda: torch.optim.SGD(m, lr=0.1))
E(lambda: torch.optim.SGD(m.parameters))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
print(opt)
'''

PROGRAMS['optimizer_usage_mistakes'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
params = model.parameters()
opt1 = torch.optim.SGD(params, lr=0.1)
E(lambda: torch.optim.SGD(params, lr=0.1))
x = torch.randn(4, 2)
loss = model(x).pow(2).mean()
E(lambda: opt1.step(loss))
loss.backward()
opt1.step()
print(model.weight)
E(lambda: model.load_state_dict(opt1.state_dict()))
E(lambda: opt1.load_state_dict(model.state_dict()))
E(lambda: opt1.add_param_group([model.weight]))
E(lambda: opt1.add_param_group({'params': model.weight}))
E(lambda: opt1.zero_grad(True, False))
print(type(opt1.state_dict()['state']).__name__, opt1.state_dict()['param_groups'][0]['lr'])
'''

PROGRAMS['scheduler_before_optimizer_step_warning'] = PRE + r'''
torch.manual_seed(0)
w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
W(lambda: sched.step())
print(opt.param_groups[0]['lr'], sched.get_last_lr())
(w ** 2).sum().backward()
opt.step()
sched.step()
print(opt.param_groups[0]['lr'], w)
E(lambda: torch.optim.lr_scheduler.StepLR(opt))
E(lambda: opt.param_groups['lr'])
E(lambda: torch.optim.lr_scheduler.StepLR(w, 1))
E(lambda: torch.optim.lr_scheduler.ExponentialLR(opt))
E(lambda: torch.optim.lr_scheduler.MultiStepLR(opt, milestones=3))
print(W(lambda: sched.get_lr()))
'''

PROGRAMS['clip_grad_mistakes'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
model(torch.randn(4, 3)).sum().backward()
E(lambda: torch.nn.utils.clip_grad_norm_(model, 1.0))
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
print(model.weight.grad)
E(lambda: torch.nn.utils.clip_grad_norm_(model.parameters(), 'inf'))
E(lambda: torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type='fro'))
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type='inf'))
E(lambda: torch.nn.utils.clip_grad_value_(model.parameters(), -1))
torch.nn.utils.clip_grad_value_(model.parameters(), 0.1)
print(model.bias.grad)
E(lambda: torch.nn.utils.clip_grad_norm_(model.weight.grad, 1.0))
print(torch.nn.utils.clip_grad_norm_([], 1.0))
'''

PROGRAMS['manual_seed_and_generator_mistakes'] = PRE + r'''
E(lambda: torch.manual_seed(1.5))
E(lambda: torch.manual_seed('a'))
E(lambda: torch.manual_seed(-1))
E(lambda: torch.manual_seed(2 ** 64))
E(lambda: torch.randn(2, generator=1))
E(lambda: torch.Generator().manual_seed(-5).initial_seed())
E(lambda: torch.Generator('gpu'))
E(lambda: torch.randperm(-1))
E(lambda: torch.randperm(3.))
E(lambda: torch.randint(3, 1, (2,)))
E(lambda: torch.randint(0, 3, 2))
E(lambda: torch.rand(2, 3, generator=torch.Generator(), dtype=torch.int32))
g = torch.Generator().manual_seed(3)
print(torch.rand(2, generator=g), g.initial_seed())
E(lambda: torch.set_rng_state(torch.zeros(3)))
E(lambda: torch.set_rng_state(torch.get_rng_state().float()))
print(torch.manual_seed(2 ** 63).initial_seed())
print(torch.manual_seed(-3).initial_seed())
'''

PROGRAMS['tensor_dataset_and_loader_mistakes'] = PRE + r'''
from torch.utils.data import TensorDataset, DataLoader, random_split
X = torch.arange(10.).reshape(5, 2)
y = torch.arange(4)
E(lambda: TensorDataset(X, y))
ds = TensorDataset(X, torch.arange(5))
print(len(ds), ds[1], ds[-1])
E(lambda: ds[5])
E(lambda: DataLoader(ds, batch_size=0))
E(lambda: DataLoader(ds, batch_size=2, shuffle=True, sampler=[0, 1]))
E(lambda: DataLoader(ds, batch_size=2, drop_last=True, batch_sampler=[[0, 1]]))
E(lambda: random_split(ds, [3, 3]))
E(lambda: random_split(ds, [0.5, 0.6]))
print([len(s) for s in random_split(ds, [3, 2], generator=torch.Generator().manual_seed(0))])
for xb, yb in DataLoader(ds, batch_size=2):
    print(xb.shape, yb)
E(lambda: DataLoader(ds, batch_size=2.5))
E(lambda: next(DataLoader(X, batch_size=2)))
print(next(iter(DataLoader(X, batch_size=2))))
'''

PROGRAMS['device_mistakes'] = PRE + r'''
x = torch.ones(2)
E(lambda: x.to('gpu'))
E(lambda: torch.device('gpu'))
E(lambda: torch.device('cuda:x'))
E(lambda: torch.device('cpu', -1))
E(lambda: torch.ones(2, device='cuda:-1'))
E(lambda: x.to('cpu:1'))
print(x.to('cpu').device, torch.device('cpu', 0), torch.device('cuda', 1))
print(torch.cuda.is_available(), torch.device('cuda') == torch.device('cuda:0'))
print(x.device.type, x.device.index, x.is_cuda, x.get_device())
E(lambda: x.to(device='cpu', dtype='float32'))
E(lambda: x.to('float32'))
E(lambda: x.to(float))
print(x.to(float).dtype, x.to(int).dtype, x.to(bool).dtype)
'''

# ---- nn layers and modules

PROGRAMS['conv2d_wrong_rank_inputs'] = PRE + r'''
torch.manual_seed(0)
conv = torch.nn.Conv2d(3, 4, 3)
E(lambda: conv(torch.randn(3, 5)))
print(conv(torch.randn(3, 5, 5)).shape)
E(lambda: conv(torch.randn(1, 1, 3, 5, 5)))
E(lambda: conv(torch.randn(1, 2, 5, 5)))
E(lambda: conv(torch.randn(1, 3, 2, 2)))
E(lambda: conv(torch.randn(1, 5, 5, 3)))
E(lambda: conv(torch.randn(5, 5, 3)))
c1 = torch.nn.Conv1d(2, 3, 2)
E(lambda: c1(torch.randn(4)))
E(lambda: c1(torch.randn(1, 4, 2)))
E(lambda: c1(torch.randn(1, 1, 2, 4)))
c3 = torch.nn.Conv3d(1, 1, 2)
E(lambda: c3(torch.randn(1, 3, 3, 3, 3)))
E(lambda: c3(torch.randn(3, 3)))
print(c3(torch.ones(1, 2, 2, 2)).shape)
'''

PROGRAMS['conv_layer_construction_mistakes'] = PRE + r'''
torch.manual_seed(0)
E(lambda: torch.nn.Conv2d(3, 4, 0))
E(lambda: torch.nn.Conv2d(3, 4, 3, stride=0))
E(lambda: torch.nn.Conv2d(3, 4, 3, groups=2))
E(lambda: torch.nn.Conv2d(4, 3, 3, groups=2))
E(lambda: torch.nn.Conv2d(3, 4, 3, padding='same', stride=2))
E(lambda: torch.nn.Conv2d(3, 4, 3, padding='valid2'))
E(lambda: torch.nn.Conv2d(3, 4, 3, padding=-1))
E(lambda: torch.nn.Conv2d(3.0, 4, 3))
E(lambda: torch.nn.Conv2d(0, 4, 3))
E(lambda: torch.nn.Conv2d(3, 4, (3, 3, 3)))
c = torch.nn.Conv2d(3, 4, 3, padding=-1)
E(lambda: c(torch.ones(1, 3, 5, 5)))
E(lambda: torch.nn.functional.conv2d(torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3), stride=0))
E(lambda: torch.nn.functional.conv2d(torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3), dilation=0))
E(lambda: torch.nn.functional.conv2d(torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3)))
E(lambda: torch.nn.functional.conv2d(torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3), bias=torch.ones(3)))
'''

PROGRAMS['batchnorm_batch_one_training'] = PRE + r'''
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(3)
E(lambda: bn(torch.randn(1, 3)))
print(bn.running_mean, bn.num_batches_tracked)
print(bn(torch.randn(1, 3, 2)))
bn.eval()
print(bn(torch.randn(1, 3)))
bn2 = torch.nn.BatchNorm2d(2)
E(lambda: bn2(torch.randn(1, 2, 1, 1)))
E(lambda: bn2(torch.randn(2, 3, 4, 4)))
E(lambda: bn2(torch.randn(2, 4, 4)))
E(lambda: bn(torch.randn(4, 3, 2, 2)))
E(lambda: bn(torch.randn(3)))
E(lambda: torch.nn.functional.batch_norm(torch.randn(1, 3), None, None, training=True))
E(lambda: torch.nn.functional.batch_norm(torch.randn(4, 3), torch.zeros(2), torch.ones(2)))
'''

PROGRAMS['embedding_index_mistakes'] = PRE + r'''
torch.manual_seed(0)
emb = torch.nn.Embedding(5, 2)
E(lambda: emb(torch.tensor([1, 5])))
E(lambda: emb(torch.tensor([-1, 2])))
E(lambda: emb(torch.tensor([1., 2.])))
E(lambda: emb(torch.tensor([1, 2], dtype=torch.int32)))
E(lambda: emb(torch.tensor([True, False])))
E(lambda: emb([1, 2]))
E(lambda: emb(3))
print(emb(torch.tensor(3)))
out = emb(torch.tensor([[0, 4], [4, 4]]))
print(out.shape, out.grad_fn)
out.sum().backward()
print(emb.weight.grad)
E(lambda: torch.nn.Embedding(5, 2, padding_idx=5))
E(lambda: torch.nn.Embedding(5, 2, padding_idx=-6))
E(lambda: torch.nn.functional.embedding(torch.tensor([0]), torch.ones(3)))
'''

PROGRAMS['lstm_input_wrong_rank'] = PRE + r'''
torch.manual_seed(0)
lstm = torch.nn.LSTM(3, 4)
E(lambda: lstm(torch.randn(3)))
E(lambda: lstm(torch.randn(2, 5, 3, 1)))
out, (h, c) = lstm(torch.randn(2, 3))
print(out.shape, h.shape, c.shape)
E(lambda: lstm(torch.randn(2, 5, 4)))
E(lambda: lstm(torch.randn(2, 5, 3), torch.zeros(1, 5, 4)))
E(lambda: lstm(torch.randn(2, 5, 3), (torch.zeros(1, 5, 4),)))
E(lambda: lstm(torch.randn(2, 5, 3), (torch.zeros(1, 4, 4), torch.zeros(1, 5, 4))))
E(lambda: lstm(torch.randn(2, 5, 3), (torch.zeros(5, 4), torch.zeros(5, 4))))
E(lambda: lstm(torch.randn(2, 3), (torch.zeros(1, 1, 4), torch.zeros(1, 1, 4))))
E(lambda: lstm(torch.randn(2, 5, 3, dtype=torch.float64)))
E(lambda: lstm(torch.randn(2, 5, 3).long()))
'''

PROGRAMS['rnn_gru_input_mistakes'] = PRE + r'''
torch.manual_seed(0)
rnn = torch.nn.RNN(2, 3, batch_first=True)
E(lambda: rnn(torch.randn(4, 2, 3)))
E(lambda: rnn(torch.randn(4, 2, 2), torch.zeros(2, 4, 3)))
E(lambda: rnn(torch.randn(4, 2, 2), torch.zeros(1, 2, 3)))
out, h = rnn(torch.randn(4, 2, 2))
print(out.shape, h.shape)
gru = torch.nn.GRU(2, 3, num_layers=2)
E(lambda: gru(torch.randn(5, 1, 2), torch.zeros(1, 1, 3)))
E(lambda: gru(torch.randn(5, 2)))
print(gru(torch.randn(5, 2))[1].shape)
cell = torch.nn.LSTMCell(2, 3)
E(lambda: cell(torch.randn(4, 3)))
E(lambda: cell(torch.randn(2, 3, 2)))
E(lambda: cell(torch.randn(4, 2), torch.zeros(4, 3)))
E(lambda: cell(torch.randn(4, 2), (torch.zeros(3, 3), torch.zeros(4, 3))))
gc = torch.nn.GRUCell(2, 3)
E(lambda: gc(torch.randn(4, 2), torch.zeros(4, 2)))
E(lambda: torch.nn.RNN(2, 3, nonlinearity='sigmoid'))
E(lambda: torch.nn.LSTM(2, 3, dropout=1.5))
print(W(lambda: torch.nn.LSTM(2, 3, dropout=0.5)))
'''

PROGRAMS['model_float64_input_float32_weights'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
import numpy as np
x_np = np.array([[0.5, -1.0], [1.5, 2.0]])
x = torch.from_numpy(x_np)
print(x.dtype)
E(lambda: model(x))
E(lambda: model(torch.tensor(x_np)))
print(model(x.float()))
print(model(torch.tensor(x_np, dtype=torch.float32)).shape)
m64 = model.double()
print(m64(x))
print(next(model.parameters()).dtype)
E(lambda: model(x.float()))
y = torch.tensor([[1], [0]])
E(lambda: torch.nn.functional.mse_loss(model(x), y))
print(torch.nn.functional.mse_loss(model(x), y.double()))
'''

PROGRAMS['softmax_without_dim_warnings'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
x = torch.randn(2, 3)
print(W(lambda: F.softmax(x)))
print(W(lambda: F.log_softmax(x)))
print(W(lambda: F.softmin(torch.randn(3))))
print(W(lambda: torch.nn.Softmax()(x)))
print(W(lambda: F.softmax(torch.randn(2, 2, 2))).shape)
E(lambda: torch.softmax(x))
E(lambda: x.softmax())
E(lambda: F.softmax(x, dim=2))
E(lambda: F.softmax(x, dim=(0, 1)))
E(lambda: torch.nn.Softmax(dim=3)(x))
print(F.softmax(x, dim=-1).sum(1))
print(torch.nn.Softmax2d()(torch.randn(1, 2, 1, 1)))
E(lambda: torch.nn.Softmax2d()(torch.randn(2, 2)))
'''

PROGRAMS['module_definition_mistakes'] = PRE + r'''
torch.manual_seed(0)
class NoInit(torch.nn.Module):
    def __init__(self):
        self.fc = torch.nn.Linear(2, 2)
E(lambda: NoInit())
class NoInitParam(torch.nn.Module):
    def __init__(self):
        self.w = torch.nn.Parameter(torch.ones(2))
E(lambda: NoInitParam())
class NoForward(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)
E(lambda: NoForward()(torch.ones(2)))
class Forwrd(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)
    def forwrd(self, x):
        return self.fc(x)
E(lambda: Forwrd()(torch.ones(2)))
class PlainList(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)]
    def forward(self, x):
        for l in self.layers:
            x = l(x)
        return x
m = PlainList()
print(len(list(m.parameters())), m)
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1))
class WithList(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)])
print(len(list(WithList().parameters())))
E(lambda: WithList().layers[2])
'''

PROGRAMS['module_attribute_mistakes'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 3)
E(lambda: m.weights)
E(lambda: m.in_feature)
E(lambda: setattr(m, 'weight', torch.ones(3, 2)))
E(lambda: m.register_parameter('w', torch.ones(2)))
E(lambda: m.register_parameter('a.b', torch.nn.Parameter(torch.ones(2))))
E(lambda: m.register_buffer('weight', torch.ones(2)))
E(lambda: m.add_module('x', torch.ones(2)))
E(lambda: m.add_module('bias', torch.nn.ReLU()))
E(lambda: m.get_submodule('fc'))
E(lambda: m.get_parameter('bias2'))
E(lambda: m.apply(3))
E(lambda: m.to('cuda:x'))
E(lambda: m.train('no'))
E(lambda: m.requires_grad_(3))
m.weight = torch.nn.Parameter(torch.zeros(3, 2))
print(m(torch.ones(2)))
E(lambda: torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(4, 1))(torch.ones(1, 2)))
E(lambda: torch.nn.Sequential([torch.nn.Linear(2, 3)]))
'''

PROGRAMS['load_state_dict_mistakes'] = PRE + r'''
torch.manual_seed(0)
a = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
b = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
E(lambda: b.load_state_dict(a.state_dict()))
sd = dict(a.state_dict())
sd['3.weight'] = torch.ones(1)
E(lambda: a.load_state_dict(sd))
r = a.load_state_dict(sd, strict=False)
print(r)
print(r.missing_keys, r.unexpected_keys)
del sd['0.bias']
E(lambda: a.load_state_dict(sd))
c = torch.nn.Linear(2, 3)
E(lambda: c.load_state_dict({'weight': torch.ones(3, 2)}))
E(lambda: c.load_state_dict({'weight': torch.ones(2, 3), 'bias': torch.ones(3)}))
E(lambda: c.load_state_dict([1, 2]))
print(c.load_state_dict({'weight': torch.ones(3, 2, dtype=torch.float64), 'bias': torch.zeros(3)}))
print(c.weight.dtype, c.weight)
E(lambda: c.load_state_dict({'weight': torch.ones(3, 2), 'bias': torch.zeros(3), 'extra': 1}))
'''

PROGRAMS['parameter_and_buffer_registration_mistakes'] = PRE + r'''
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.randn(2, requires_grad=True)
        self.p = torch.nn.Parameter(torch.ones(2))
        self.register_buffer('running', torch.zeros(2))
    def forward(self, x):
        return (x * self.w * self.p).sum() + self.running.sum()
net = Net()
print([n for n, _ in net.named_parameters()], [n for n, _ in net.named_buffers()])
print(net.state_dict().keys())
E(lambda: net.register_buffer('p', torch.ones(2)))
E(lambda: net.register_buffer('x.y', torch.ones(2)))
E(lambda: net.register_buffer('', torch.ones(2)))
E(lambda: net.register_buffer('b', [1, 2]))
E(lambda: net.register_parameter('w', torch.nn.Parameter(torch.ones(2))))
E(lambda: setattr(net, 'p', torch.ones(2)))
net.p = None
print(list(net.parameters()), net.p)
E(lambda: net(torch.ones(2)))
E(lambda: net.register_buffer(3, torch.ones(1)))
'''

# fixed: model['0'] on a Sequential is operator.index's TypeError
PROGRAMS['model_train_eval_mistakes'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.5), torch.nn.BatchNorm1d(2))
print(model.training, model.train, callable(model.eval))
model.eval
print(model.training)
model.eval()
print(model.training, [m.training for m in model])
x = torch.randn(3, 2)
out = model(x)
print(out)
E(lambda: model.train(mode='eval'))
model.train(False)
print(model.training)
E(lambda: model.eval(True))
E(lambda: model(x, x))
E(lambda: model())
E(lambda: model(input=x))
E(lambda: model[3])
print(model[-1], model[0:2])
E(lambda: model['0'])
'''

# ---- arguments of the wrong type: floats from a division, ints for bools, calls without parentheses

PROGRAMS['attribute_call_mistakes'] = PRE + r'''
x = torch.ones(2, 3)
E(lambda: x.shape())
E(lambda: x.dtype())
E(lambda: x.T())
E(lambda: x.device())
E(lambda: x.grad_fn())
E(lambda: x.is_leaf())
E(lambda: x.requires_grad())
E(lambda: x.data())
E(lambda: x.ndim())
E(lambda: x.shape[2])
E(lambda: x.size(2))
E(lambda: x.size(-3))
E(lambda: len(torch.tensor(1.)))
E(lambda: list(torch.tensor(1.)))
E(lambda: torch.Size([2, 3])[2])
E(lambda: x.shape + 1)
print(x.shape + (4,), x.size()[1:], x.numel(), x.dim(), len(x))
'''

PROGRAMS['max_returns_tuple_mistakes'] = PRE + r'''
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]])
r = torch.max(x, 1)
print(r)
E(lambda: r + 1)
E(lambda: r.float())
E(lambda: r == torch.tensor([1, 2]))
print(r.values, r.indices, r[0], r[1])
v, i = x.max(dim=0)
print(v, i)
E(lambda: x.max(dim=2))
E(lambda: x.max(1, 2))
E(lambda: torch.max(x, torch.tensor([1.])))
print(torch.max(x, torch.tensor([3.])))
E(lambda: torch.max(torch.tensor([])))
E(lambda: torch.tensor([]).argmax())
print(torch.tensor([]).sum(), torch.tensor([]).mean())
acc = (x.argmax(1) == torch.tensor([1, 2])).float().mean()
print(acc)
E(lambda: (x.argmax(1) == torch.tensor([1, 2, 0])).sum())
'''

PROGRAMS['misc_creation_argument_mistakes'] = PRE + r'''
E(lambda: torch.zeros(2.5))
E(lambda: torch.ones(2, 3.0))
E(lambda: torch.randn((2, 3), (4,)))
E(lambda: torch.randint(5, 3))
print(torch.randint(5, (3,), generator=torch.Generator().manual_seed(0)))
E(lambda: torch.linspace(0, 1))
E(lambda: torch.arange(0, 1, 0))
E(lambda: torch.arange(1, 0, 0.1))
E(lambda: torch.empty(2).uniform_(1, 0))
E(lambda: torch.empty(2).normal_(0, -1))
E(lambda: torch.normal(0., -1., (2,)))
E(lambda: torch.full((2,), [1, 2]))
E(lambda: torch.eye(-1))
E(lambda: torch.zeros(-1))
E(lambda: torch.ones((2, -3)))
E(lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 1))
E(lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3))
E(lambda: torch.rand(2, dtype=torch.int64))
E(lambda: torch.randn(2, dtype=torch.int32))
print(torch.arange(0, 1, 0.25), torch.linspace(0, 1, 3))
'''

# fixed: keepdim/descending/largest given as an int, squeeze(False), flatten(True) and softmax's dtype as an int are
# refused by PyTorch's parser
PROGRAMS['keepdim_given_as_int'] = PRE + r'''
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]])
E(lambda: x.max(1, 2))
E(lambda: x.max(1, 1))
E(lambda: x.min(1, 0))
E(lambda: torch.max(x, 1, 1))
E(lambda: x.sum(1, 1))
E(lambda: x.mean(1, 1))
E(lambda: x.argmax(1, 1))
E(lambda: x.argmin(1, 0))
E(lambda: x.std(1, 1))
E(lambda: x.var(0, 0))
E(lambda: x.prod(1, 1))
E(lambda: x.median(1, 1))
E(lambda: x.mode(1, 1))
E(lambda: x.logsumexp(1, 1))
E(lambda: x.amax(1, 1))
E(lambda: x.norm(2, 1, 1))
E(lambda: x.all(1, 1))
E(lambda: x.any(1, 1))
E(lambda: x.cumsum(1, 1))
E(lambda: x.softmax(1, 1))
E(lambda: x.sort(1, 1))
E(lambda: x.topk(1, 1, 1))
E(lambda: x.kthvalue(1, 1, 1))
E(lambda: x.nansum(1, 1))
E(lambda: x.count_nonzero(1))
E(lambda: torch.unique(x, 1))
E(lambda: x.max(1, keepdim=1))
E(lambda: x.sum(1, keepdim=1))
E(lambda: x.squeeze(True))
E(lambda: x.cumsum(True))
'''

# fixed: the function, method and keyword forms of those bool arguments
PROGRAMS['reductions_flags_given_as_ints'] = PRE + r'''
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]])
E(lambda: torch.max(x, 1, 1))
E(lambda: torch.max(x, 1, keepdim=1))
E(lambda: x.max(dim=1, keepdim=1))
E(lambda: torch.argmax(x, 1, 1))
E(lambda: x.argmax(keepdim=1))
E(lambda: torch.amax(x, 1, 1))
E(lambda: x.amin(1, keepdim=1))
E(lambda: torch.logsumexp(x, 1, 1))
E(lambda: torch.all(x, 1, 1))
E(lambda: x.any(keepdim=1))
E(lambda: torch.sort(x, 1, 1))
E(lambda: x.sort(descending=1))
E(lambda: x.argsort(1, 1))
E(lambda: torch.topk(x, 1, 1, 1))
E(lambda: x.topk(1, sorted=0))
E(lambda: torch.kthvalue(x, 1, 1, 1))
E(lambda: x.kthvalue(1, 1, keepdim=1))
E(lambda: torch.mode(x, 1, 1))
E(lambda: torch.median(x, 1, 1))
E(lambda: x.nansum(1, keepdim=1))
E(lambda: x.nanmean(1, 1))
E(lambda: x.prod(1, keepdim=1))
E(lambda: x.min(5, 1))
E(lambda: x.norm(dim=1, keepdim=1))
E(lambda: x.softmax(1, 1))
E(lambda: x.log_softmax(1, 1))
E(lambda: x.squeeze(False))
E(lambda: x.flatten(True))
print(x.max(1, True), x.sort(1, True).values, x.norm(dim=1, keepdim=True))
'''

# fixed: a float narrow start, float slice bounds (x[1.:3]) and float split sizes are refused
PROGRAMS['float_where_int_expected_shapes'] = PRE + r'''
x = torch.arange(6.)
E(lambda: x.view(2.0, 3))
E(lambda: x.view(2, 3.))
E(lambda: x.reshape(2., 3))
E(lambda: x.reshape((2, 3.0)))
E(lambda: torch.reshape(x, (2., 3)))
E(lambda: x.repeat(2.0))
E(lambda: x.expand(2.0, 6))
E(lambda: x.view(2, 3).permute(1., 0))
E(lambda: x.view(2, 3).transpose(0., 1))
E(lambda: x.unsqueeze(0.))
E(lambda: x.narrow(0, 0., 1))
E(lambda: x.narrow(0, 0, 1.))
E(lambda: x[1.])
E(lambda: x[1.:3])
E(lambda: x.sum(dim=0.))
E(lambda: x.flip(0.))
E(lambda: x.roll(1.))
E(lambda: x.roll(1, 0.))
E(lambda: x.chunk(2.0))
E(lambda: x.split(1.5))
E(lambda: x.split([2., 4.]))
E(lambda: x.tile(2.))
E(lambda: x.unflatten(0, (2., 3)))
E(lambda: x.view(2, 3).flatten(0.))
E(lambda: x.view(2, 3).movedim(0., 1))
print(x.view(torch.tensor(2), 3).shape, x.reshape(torch.tensor(3), -1).shape)
'''

# fixed: nn.Flatten(1.) is refused
PROGRAMS['float_where_int_expected_creation_and_nn'] = PRE + r'''
torch.manual_seed(0)
E(lambda: torch.zeros((2., 3)))
E(lambda: torch.ones([2, 3.5]))
E(lambda: torch.randn(2, 3.))
E(lambda: torch.randint(0, 5., (2,)))
E(lambda: torch.randint(0, 5, (2.,)))
E(lambda: torch.full((2.,), 1.))
E(lambda: torch.eye(2.))
E(lambda: torch.nn.functional.one_hot(torch.tensor([0, 2]), 3.))
E(lambda: torch.nn.Linear(2.0, 3))
E(lambda: torch.nn.Linear(2, 3.5))
E(lambda: torch.nn.Embedding(5.0, 2))
E(lambda: torch.nn.Conv1d(1, 1, 2.0))
E(lambda: torch.nn.MaxPool2d(2.0)(torch.ones(1, 1, 4, 4)))
E(lambda: torch.nn.AvgPool2d(2.0)(torch.ones(1, 1, 4, 4)))
E(lambda: torch.nn.Flatten(1.)(torch.ones(2, 3)))
E(lambda: torch.nn.LSTM(2.0, 3))
E(lambda: torch.nn.BatchNorm1d(3.0))
E(lambda: torch.nn.LayerNorm(3.0)(torch.ones(2, 3)))
E(lambda: torch.nn.Dropout('0.5'))
E(lambda: torch.nn.Dropout(0.5)(torch.ones(2)).shape)
E(lambda: torch.topk(torch.ones(4), 2.0))
E(lambda: torch.arange(6).view(2, 3).gather(1., torch.tensor([[0], [1]])))
E(lambda: torch.arange(6).index_select(0., torch.tensor([0])))
E(lambda: torch.nn.functional.pad(torch.ones(2, 2), (1., 1)))
E(lambda: torch.nn.Upsample(scale_factor='2')(torch.ones(1, 1, 2)))
'''

# fixed: F.interpolate with a float size reaches the upsample kernel's parser; float adaptive pool sizes and
# GroupNorm(c / 2, c) are refused
PROGRAMS['computed_sizes_are_floats'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
x = torch.randn(1, 2, 4, 4)
half = x.shape[-1] / 2
print(type(half).__name__, half)
E(lambda: F.interpolate(x, size=half))
E(lambda: F.interpolate(x, size=half, mode='bilinear'))
E(lambda: F.interpolate(x[0], size=half, mode='linear'))
E(lambda: F.interpolate(x, size=half, mode='area'))
E(lambda: F.interpolate(x, size=(half, half)))
E(lambda: torch.nn.Upsample(size=half * 4)(x))
print(F.interpolate(x, size=x.shape[-1] // 2).shape)
print(F.interpolate(x, scale_factor=0.5).shape)
E(lambda: F.adaptive_max_pool2d(x, (half, 2)))
E(lambda: F.adaptive_avg_pool2d(x, (half, half)))
E(lambda: torch.nn.AdaptiveAvgPool2d((half, 1))(x))
E(lambda: torch.nn.GroupNorm(x.shape[1] / 2, 2)(x))
print(torch.nn.GroupNorm(x.shape[1] // 2, 2)(x).shape)
E(lambda: x.view(x.shape[0], x.shape[1] * x.shape[2] / 2, -1))
E(lambda: x.flatten(1)[:, :half])
print(x.flatten(1)[:, :int(half)].shape)
E(lambda: x.split([half, half], dim=2))
E(lambda: x.narrow(2, half, 2))
'''

# fixed: x.add(1, 2) is the deprecated add(alpha, other) with a number for other; alpha='2' is refused
PROGRAMS['wrong_types_in_arithmetic'] = PRE + r'''
x = torch.ones(3)
E(lambda: x + '1')
E(lambda: x * None)
E(lambda: x + [1, 2, 3])
E(lambda: [1, 2, 3] + x)
E(lambda: x + (1, 2, 3))
E(lambda: x.pow('2'))
E(lambda: x.clamp('0'))
E(lambda: x.clamp(min='0'))
E(lambda: x.masked_fill(x > 0, 'a'))
E(lambda: torch.full((2,), 'a'))
E(lambda: x.fill_('a'))
E(lambda: x.add(1, 2))
E(lambda: x.add(x, 2))
E(lambda: x.add(x, alpha='2'))
E(lambda: torch.add(x, x, 2))
E(lambda: x > 'a')
E(lambda: x == 'a')
E(lambda: x == None)
E(lambda: x @ 2)
E(lambda: 2 @ x)
import numpy as np
print(x + np.float64(2), type(np.float64(2) + x).__name__)
print(x + np.array([1., 2., 3.]))
E(lambda: x.div(0, rounding_mode='round'))
print(x.div(0), torch.tensor([1, 2]).div(0))
E(lambda: torch.tensor([1, 2]) // 0)
E(lambda: torch.tensor([1, 2]) % 0)
'''

# fixed: float offsets, dims and sizes of diagonal, unbind, unfold and round(decimals=)
PROGRAMS['int_and_bool_params_given_wrong_types'] = PRE + r'''
x = torch.arange(6.).reshape(2, 3)
E(lambda: x.cumsum(dim=1.))
E(lambda: x.diag(1.))
E(lambda: x.tril(1.))
E(lambda: x.triu(diagonal=True))
E(lambda: torch.eye(3, 2.))
E(lambda: x.flatten().repeat_interleave(2.))
E(lambda: x.round(decimals=1.))
E(lambda: torch.linspace(0, 1, 5.))
E(lambda: x.new_zeros(2.))
E(lambda: x.view(True))
E(lambda: torch.zeros(True))
E(lambda: x.requires_grad_(1))
E(lambda: x.to(torch.float64, non_blocking=1))
E(lambda: x.argsort(descending=1))
E(lambda: x.sort(stable=1))
E(lambda: torch.max(x, 1, keepdim=None))
E(lambda: x.unfold(0, 2., 1))
E(lambda: x.unbind(1.))
E(lambda: x.select(0, 1.))
E(lambda: x.diagonal(1.))
E(lambda: x.roll(shifts=1, dims=0.))
E(lambda: x.rot90(1.))
E(lambda: x.clamp(min=0, max='5'))
'''

# fixed: x.round(2) is PyTorch's parser error for round's two method overloads
PROGRAMS['round_like_numpy'] = PRE + r'''
x = torch.tensor([1.2345, -2.5, 0.5, 3.14159])
E(lambda: x.round(2))
E(lambda: torch.round(x, 2))
E(lambda: x.round(2, 3))
E(lambda: x.clone().round_(1))
E(lambda: x.round(decimals=2.))
print(x.round(decimals=2), torch.round(x, decimals=1), x.round())
import numpy as np
print(np.round(x.numpy(), 2))
E(lambda: x.diagonal(1.))
E(lambda: x.unsqueeze(0).unbind(1.))
E(lambda: x.unfold(0, 2., 1))
print(x.unfold(0, 2, 2))
'''

# fixed: pooling ceil_mode given as an int, interpolate's float size, F.threshold's name
PROGRAMS['nn_functional_wrong_int_params'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
x = torch.ones(1, 1, 4, 4)
w = torch.ones(1, 1, 2, 2)
E(lambda: F.max_pool2d(x, 2, stride=1.5))
E(lambda: F.avg_pool2d(x, 2, ceil_mode=1))
E(lambda: F.max_pool2d(x, 2, ceil_mode=1))
E(lambda: F.conv2d(x, w, padding=0.5))
E(lambda: F.conv2d(x, w, stride=(1, 1.)))
E(lambda: F.interpolate(x, size=2.5))
E(lambda: F.interpolate(x, size=(2, 3.)))
E(lambda: F.pad(x, (1, 1), value='a'))
E(lambda: F.adaptive_avg_pool2d(x, 2.))
E(lambda: F.adaptive_max_pool2d(x, (2., 2)))
E(lambda: F.pixel_shuffle(x, 2.))
E(lambda: F.one_hot(torch.tensor([1]), num_classes=True))
E(lambda: F.normalize(x, p='2'))
E(lambda: F.normalize(x, dim=1.))
E(lambda: F.gelu(x, approximate=True))
E(lambda: F.gelu(x, approximate='fast'))
E(lambda: F.leaky_relu(x, '0.1'))
E(lambda: F.hardtanh(x, 1, -1))
E(lambda: F.threshold(x, 0.5))
E(lambda: F.cosine_similarity(x, x, dim=1.))
'''

# fixed: nn.Upsample with a float size, GroupNorm with a float num_groups
PROGRAMS['nn_module_wrong_int_params'] = PRE + r'''
torch.manual_seed(0)
E(lambda: torch.nn.Conv2d(1, 1, 3, stride=1.5))
E(lambda: torch.nn.Conv2d(1, 1, 3, stride=1.5)(torch.ones(1, 1, 5, 5)))
E(lambda: torch.nn.Conv2d(1, 1, 3, padding=0.5)(torch.ones(1, 1, 5, 5)))
E(lambda: torch.nn.Conv2d(1, 1, 3, dilation=(1, 1.))(torch.ones(1, 1, 5, 5)))
E(lambda: torch.nn.MaxPool2d(2, stride=1.5)(torch.ones(1, 1, 4, 4)))
E(lambda: torch.nn.AvgPool2d(2, padding=0.5)(torch.ones(1, 1, 4, 4)))
E(lambda: torch.nn.AdaptiveAvgPool2d(2.5)(torch.ones(1, 1, 4, 4)))
E(lambda: torch.nn.Upsample(size=2.5)(torch.ones(1, 1, 2)))
E(lambda: torch.nn.Embedding(5, 2.5))
E(lambda: torch.nn.GRU(2, 3, num_layers=1.5))
E(lambda: torch.nn.Linear(2, 3, bias=1).bias.shape)
E(lambda: torch.nn.Unflatten(1, (2, 2.))(torch.ones(1, 4)))
E(lambda: torch.nn.PixelShuffle(2.)(torch.ones(1, 4, 1, 1)))
E(lambda: torch.nn.GroupNorm(2.0, 4)(torch.ones(1, 4, 2)))
E(lambda: torch.nn.GroupNorm(2, 4.0)(torch.ones(1, 4, 2)))
E(lambda: torch.nn.MultiheadAttention(4, 2.0))
E(lambda: torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8.5))
'''

# fixed: ceil_mode / count_include_pad that are no bools, named as the C function PyTorch's pooling calls
PROGRAMS['pooling_flags_given_as_ints'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
x = torch.randn(1, 1, 5, 5)
E(lambda: F.max_pool2d(x, 2, ceil_mode=1))
E(lambda: F.max_pool2d(x, 2, 2, 0, 1, 1))
E(lambda: F.max_pool2d(x, 2, ceil_mode=1, return_indices=True))
E(lambda: F.avg_pool2d(x, 2, ceil_mode=1))
E(lambda: F.avg_pool2d(x, 2, 2, 0, 1))
E(lambda: F.avg_pool2d(x, 2, count_include_pad=0))
E(lambda: F.max_pool1d(x[0], 2, ceil_mode=1))
E(lambda: F.avg_pool1d(x[0], 2, ceil_mode=None))
E(lambda: torch.nn.MaxPool2d(2, ceil_mode=1)(x))
E(lambda: torch.nn.AvgPool2d(2, ceil_mode=1)(x))
E(lambda: F.lp_pool2d(x, 2, 2, ceil_mode=1))
E(lambda: F.max_pool3d(x.unsqueeze(0), 2, ceil_mode=1))
E(lambda: F.avg_pool3d(x.unsqueeze(0), 2, ceil_mode=1))
print(F.max_pool2d(x, 2, ceil_mode=True))
print(F.avg_pool2d(x, 2, ceil_mode=True, count_include_pad=False))
'''

# fixed: torch.stack(ts, True), x.sum(True), F.normalize(x, dim=True), F.embedding(sparse=1) and
# F.batch_norm(training=1) are PyTorch's parser errors
PROGRAMS['flags_given_as_ints_elsewhere'] = PRE + r'''
torch.manual_seed(0)
x = torch.ones(2, 3)
E(lambda: torch.randn(2, requires_grad=1))
E(lambda: torch.zeros(2, requires_grad=0))
E(lambda: torch.tensor([1.], requires_grad=1))
E(lambda: torch.ones_like(x, requires_grad=1))
E(lambda: x.requires_grad_(requires_grad=0))
E(lambda: torch.cat([x, x], dim=True))
E(lambda: torch.stack([x, x], True))
E(lambda: x.sum(True))
E(lambda: x.mean(False))
E(lambda: x.std(True))
E(lambda: x.var(0, True, 1))
E(lambda: x.cumprod(True))
E(lambda: x.unique(sorted=1))
E(lambda: x.unique(return_counts=1))
E(lambda: torch.nn.functional.normalize(x, dim=True))
E(lambda: torch.nn.functional.softmax(x, dim=True))
E(lambda: torch.nn.functional.log_softmax(x, True))
E(lambda: torch.nn.functional.dropout(x, 0.5, training=1))
E(lambda: torch.nn.functional.dropout(x.clone(), 0.5, inplace=1))
E(lambda: torch.nn.functional.relu(x.clone(), inplace=1))
E(lambda: torch.nn.functional.gelu(x, approximate=1))
E(lambda: torch.nn.functional.cross_entropy(x, torch.tensor([0, 1]), label_smoothing=True))
E(lambda: torch.nn.functional.layer_norm(x, [3], eps=True))
E(lambda: torch.nn.functional.embedding(torch.tensor([0]), x, sparse=1))
E(lambda: torch.nn.functional.batch_norm(x, None, None, training=1))
E(lambda: torch.autograd.grad(x.sum(), x, retain_graph=1))
E(lambda: x.to(copy=1))
E(lambda: x.clone(memory_format=1))
E(lambda: x.contiguous(1))
E(lambda: torch.where(x > 0, x, True))
print(torch.where(x > 0, x, True).dtype)
'''

# fixed: x.kthvalue(n / 2) is refused
PROGRAMS['float_counts_elsewhere'] = PRE + r'''
torch.manual_seed(0)
n = 6
x = torch.arange(float(n))
E(lambda: torch.multinomial(torch.ones(n), n / 2))
E(lambda: torch.randn(n / 2))
E(lambda: torch.rand((n / 3, 2)))
E(lambda: torch.empty(n / 2).uniform_())
E(lambda: x.kthvalue(n / 2))
E(lambda: x.topk(n / 3))
E(lambda: x.chunk(n / 2))
E(lambda: torch.split(x, n / 2))
E(lambda: x.tensor_split(n / 3))
E(lambda: x.repeat_interleave(n / 3))
E(lambda: x.roll(n / 2))
E(lambda: x.reshape(n / 2, 2))
E(lambda: torch.nn.functional.pad(x, (n / 3, 0)))
E(lambda: torch.nn.functional.one_hot(torch.tensor([1, 2]), n / 2))
E(lambda: torch.nn.Linear(n / 2, 1))
E(lambda: torch.nn.Conv1d(1, n / 2, 3))
E(lambda: torch.nn.Embedding(n / 2, 2))
E(lambda: torch.nn.LSTM(2, n / 2))
E(lambda: torch.nn.BatchNorm1d(n / 2))
E(lambda: torch.nn.LayerNorm(n / 2))
E(lambda: torch.nn.MaxPool1d(n / 3)(x.view(1, 1, n)))
E(lambda: torch.nn.AvgPool1d(n / 3)(x.view(1, 1, n)))
E(lambda: torch.nn.Unflatten(1, (n / 3, 3))(x.view(1, n)))
E(lambda: x.view(1, n).unflatten(1, (n / 3, 3)))
E(lambda: torch.nn.PixelShuffle(n / 3))
E(lambda: x.view(1, n, 1, 1).expand(2, n, n / 3, 1))
E(lambda: x.new_full((n / 2,), 1.))
E(lambda: x.new_empty(n / 2))
E(lambda: torch.full((n / 2, 1), 0.))
print(torch.arange(n / 2), x[:n // 2])
'''

# ---- custom Functions and hooks, dtype inference, accuracy arithmetic, CUDA on a CPU machine, packed sequences

PROGRAMS['custom_function_mistakes'] = PRE + r'''
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g, None
x = torch.tensor([1., 2.], requires_grad=True)
y = Square.apply(x)
print(y.grad_fn.name())
E(lambda: y.sum().backward())
class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
E(lambda: BadShape.apply(x).sum().backward())
class NoStatic(torch.autograd.Function):
    def forward(self, x):
        return x * 2
E(lambda: NoStatic()(x))
E(lambda: NoStatic.apply(x))
class SaveInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3
E(lambda: SaveInt.apply(x))
class ReturnsFloat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 2.0
    @staticmethod
    def backward(ctx, g):
        return g
print(ReturnsFloat.apply(x))
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1
E(lambda: NoBackward.apply(x).sum().backward())
E(lambda: Square.forward(None, x))
class WrongDtype(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.long()
E(lambda: WrongDtype.apply(x).sum().backward())
print(x.grad)
'''

PROGRAMS['hooks_mistakes'] = PRE + r'''
torch.manual_seed(0)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
h0 = y.register_hook(lambda g: g.shape)
E(lambda: y.sum().backward(retain_graph=True))
h0.remove()
def bad_hook(g):
    return torch.ones(3)
h = y.register_hook(bad_hook)
E(lambda: y.sum().backward(retain_graph=True))
h.remove()
def dtype_hook(g):
    return g.double()
h2 = y.register_hook(dtype_hook)
E(lambda: y.sum().backward(retain_graph=True))
h2.remove()
def print_hook(g):
    print('hook sees', g)
y.register_hook(print_hook)
y.sum().backward()
print(x.grad)
E(lambda: x.register_hook(3))
z = torch.ones(2)
E(lambda: z.register_hook(print))
m = torch.nn.Linear(2, 1)
h3 = m.register_forward_hook(3)
E(lambda: m(torch.ones(2)))
h3.remove()
def fwd_hook(mod, inp, out):
    return 'x'
m.register_forward_hook(fwd_hook)
print(m(torch.ones(2)))
'''

PROGRAMS['dtype_inference_surprises'] = PRE + r'''
import numpy as np
print(torch.tensor([1, 2.5, True]).dtype, torch.tensor([True, 1]).dtype, torch.tensor([[1, 2], [3, 4.]]).dtype)
print(torch.tensor([np.float32(1), 2]).dtype, torch.tensor([np.float64(1)]).dtype, torch.tensor(np.float64(1)).dtype)
print(torch.tensor([np.int32(1), 2]).dtype, torch.tensor(np.array([1, 2])).dtype, torch.from_numpy(np.array([1., 2.])).dtype)
print(torch.tensor(3).dtype, torch.tensor(3.).dtype, torch.tensor(3j).dtype, torch.tensor([1, 2j]).dtype)
x = torch.tensor([1, 2, 3])
print((x / 2).dtype, (x // 2).dtype, (x * 1.5).dtype, (x + True).dtype, (x ** 2).dtype, (x ** -1.).dtype)
E(lambda: x ** -1)
print((x > 1).dtype, (x > 1).sum(), (x > 1).float().mean())
E(lambda: (x > 1).mean())
print(torch.ones(2, dtype=torch.int32) + torch.ones(2, dtype=torch.int64))
print((torch.ones(2, dtype=torch.float16) + torch.ones(2)).dtype, (torch.ones(2, dtype=torch.uint8) - 2))
print(torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8))
print(torch.tensor(2 ** 31).dtype, torch.tensor([2 ** 62]).dtype)
E(lambda: torch.tensor([2 ** 64]))
E(lambda: torch.tensor(-1, dtype=torch.uint8))
print(torch.tensor(300).to(torch.uint8), torch.tensor(-1).to(torch.uint8), torch.tensor(1.7).long(), torch.tensor(-1.7).int())
print(torch.arange(5).dtype, torch.arange(5.).dtype, torch.arange(0, 1, 0.5).dtype, torch.linspace(0, 1, 3).dtype)
print(torch.zeros(2).long().dtype, torch.ones(2, dtype=int).dtype, torch.ones(2, dtype=float).dtype, torch.ones(2, dtype=bool))
'''

PROGRAMS['integer_division_and_accuracy'] = PRE + r'''
pred = torch.tensor([1, 0, 2, 2])
label = torch.tensor([1, 1, 2, 0])
correct = (pred == label).sum()
print(correct, correct / len(label), correct.item() / len(label), correct // len(label))
print((pred == label).float().mean(), (pred == label).sum().float() / label.numel())
E(lambda: (pred == label).mean())
E(lambda: torch.mean(pred == label))
print(100 * correct / 4, f'{100 * correct / 4:.1f}%')
print(f'{(pred == label).float().mean():.3f}', f'{correct}')
E(lambda: f'{pred:.2f}')
print(f'{torch.tensor(2.5):.2f}', f'{torch.tensor(7):d}', '{:>6}'.format(torch.tensor(1.5).item()))
E(lambda: f'{torch.tensor(7):.2f}')
E(lambda: f'{torch.tensor(2.5):d}')
print(round(torch.tensor(2.567).item(), 2))
E(lambda: round(torch.tensor(2.567), 2))
E(lambda: round(torch.tensor(2.567)))
'''

PROGRAMS['cuda_on_a_cpu_machine'] = PRE + r'''
x = torch.ones(2)
E(lambda: x.cuda())
E(lambda: x.to('cuda'))
E(lambda: x.to(torch.device('cuda:0')))
E(lambda: torch.ones(2, device='cuda'))
E(lambda: torch.nn.Linear(2, 1).cuda())
E(lambda: torch.nn.Linear(2, 1).to('cuda'))
E(lambda: torch.cuda.FloatTensor(2))
E(lambda: torch.cuda.current_device())
E(lambda: torch.cuda.get_device_name(0))
print(torch.cuda.is_available(), torch.cuda.device_count())
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
print(device, x.to(device), torch.nn.Linear(2, 1).to(device).weight.device)
E(lambda: x.pin_memory())
E(lambda: torch.cuda.manual_seed(0))
E(lambda: torch.cuda.synchronize())
print(torch.backends.mps.is_available())
E(lambda: x.to('mps'))
'''

PROGRAMS['pack_padded_sequence_mistakes'] = PRE + r'''
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
torch.manual_seed(0)
seqs = [torch.randn(2, 3), torch.randn(4, 3), torch.randn(1, 3)]
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape)
lengths = [2, 4, 1]
E(lambda: pack_padded_sequence(padded, lengths, batch_first=True))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
E(lambda: pack_padded_sequence(padded, [2, 5, 1], batch_first=True, enforce_sorted=False))
E(lambda: pack_padded_sequence(padded, [2, 0, 1], batch_first=True, enforce_sorted=False))
E(lambda: pack_padded_sequence(padded, [2, 4], batch_first=True, enforce_sorted=False))
E(lambda: pack_padded_sequence(padded, torch.tensor([2., 4., 1.]), batch_first=True, enforce_sorted=False))
E(lambda: pack_padded_sequence(padded, lengths))
lstm = torch.nn.LSTM(3, 2, batch_first=True)
out, (h, c) = lstm(packed)
print(type(out).__name__, h.shape)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
E(lambda: lstm(padded[:, :, :2]))
E(lambda: pad_sequence([torch.ones(2, 3), torch.ones(2, 4)]))
E(lambda: pad_sequence(torch.ones(2, 3)))
print(pad_sequence([torch.ones(2), torch.ones(1)], padding_value=-1))
E(lambda: pad_packed_sequence(padded))
'''

# ---- training loops: float64 targets, things printed without calling them, uint8 images, nn.init, custom modules,
# hand-written SGD updates

PROGRAMS['loss_dtype_mismatch_at_backward'] = PRE + r'''
torch.manual_seed(0)
import numpy as np
F = torch.nn.functional
model = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
y = torch.from_numpy(np.array([[1.], [0.], [1.], [0.]]))
print(y.dtype)
loss = F.mse_loss(model(x), y)
print(loss.dtype, loss.grad_fn)
E(lambda: loss.backward())
print(model.weight.grad)
loss2 = F.l1_loss(model(x), y)
print(loss2.dtype)
E(lambda: loss2.backward())
loss3 = F.binary_cross_entropy_with_logits(model(x), y)
print(loss3.dtype)
E(lambda: loss3.backward())
E(lambda: F.binary_cross_entropy(torch.sigmoid(model(x)), y))
loss4 = F.smooth_l1_loss(model(x), y)
E(lambda: loss4.backward())
loss5 = F.cross_entropy(torch.randn(4, 3, requires_grad=True), torch.rand(4, 3, dtype=torch.float64))
print(loss5.dtype)
E(lambda: loss5.backward())
loss6 = F.huber_loss(model(x), y)
E(lambda: loss6.backward())
loss7 = ((model(x) - y) ** 2).mean()
print(loss7.dtype)
loss7.backward()
print(model.weight.grad)
model.zero_grad()
F.mse_loss(model(x), y.float()).backward()
print(model.weight.grad)
'''

# fixed: print(opt.step) names the optimizer's class (SGD.step), as each of PyTorch's optimizers defines its own
PROGRAMS['printing_things_without_calling_them'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
print(model.parameters())
print(model.named_parameters())
print(model.state_dict)
print(model.forward)
print(model.train)
print(opt.step)
print(opt.zero_grad)
print(torch.nn.functional.relu, torch.nn.functional.cross_entropy)
print(model.weight.backward)
print(model.weight.register_hook)
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
print(y.grad_fn.next_functions, y.grad_fn.name)
print(type(model.parameters()).__name__, type(model.state_dict).__name__)
print(list(model.children()), list(model.modules()))
'''

# fixed: conv1d/2d/3d check the bias's dtype against the input's before the shapes (a uint8 HWC image)
PROGRAMS['uint8_images_into_models'] = PRE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (1, 3, 4, 4), dtype=torch.uint8)
conv = torch.nn.Conv2d(3, 2, 3)
E(lambda: conv(img))
E(lambda: conv(img.permute(0, 2, 3, 1)))
E(lambda: conv(img.float().permute(0, 2, 3, 1)))
out = conv(img.float() / 255)
print(out.shape, out.dtype)
print(img.float().div(255).max() <= 1, (img / 255).dtype, (img // 255).dtype)
E(lambda: torch.nn.Linear(48, 2)(img.flatten(1)))
E(lambda: torch.nn.functional.normalize(img, dim=1))
E(lambda: img.mean())
print(img.float().mean(dim=(0, 2, 3)))
E(lambda: img - 300)
print(img[0, 0, 0] - 250, (img[0, 0, 0].int() - 250))
E(lambda: torch.nn.BatchNorm2d(3)(img))
E(lambda: torch.nn.MaxPool2d(2)(img))
print(torch.nn.MaxPool2d(2)(img.float()).shape)
'''

PROGRAMS['nn_init_mistakes'] = PRE + r'''
torch.manual_seed(0)
init = torch.nn.init
lin = torch.nn.Linear(3, 2)
E(lambda: init.xavier_uniform_(lin.bias))
E(lambda: init.kaiming_normal_(lin.bias))
E(lambda: init.kaiming_normal_(lin.weight, nonlinearity='softmax'))
E(lambda: init.kaiming_uniform_(lin.weight, mode='fan_avg'))
E(lambda: init.constant_(lin.weight))
E(lambda: init.normal_(lin))
E(lambda: init.uniform_(lin.weight, 1, 0))
E(lambda: init.orthogonal_(torch.ones(3)))
E(lambda: init.calculate_gain('leaky_relu', 'a'))
E(lambda: init.calculate_gain('softmax'))
E(lambda: init.eye_(torch.ones(2, 2, 2)))
E(lambda: init.dirac_(torch.ones(2, 2)))
E(lambda: init.sparse_(torch.ones(2, 2, 2), 0.5))
print(init.calculate_gain('relu'), init.calculate_gain('tanh'), init.calculate_gain('leaky_relu', 0.2))
w = torch.empty(2, 3)
init.xavier_uniform_(w, gain=init.calculate_gain('relu'))
print(w)
init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(w)
init.zeros_(lin.bias)
print(lin.bias, lin.bias.requires_grad, lin.bias.grad_fn)
with torch.no_grad():
    lin.weight.fill_(0.5)
print(lin(torch.ones(3)))
E(lambda: lin.weight.fill_(0.5))
'''

PROGRAMS['custom_module_call_mistakes'] = PRE + r'''
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 1)
    def forward(self, x):
        return self.fc(x)
net = Net()
x = torch.randn(3, 2)
E(lambda: net(x, x))
E(lambda: net(x=x, y=x))
E(lambda: net())
E(lambda: net.forward(x, 1))
E(lambda: Net(3))
class BadSuper(torch.nn.Module):
    def __init__(self):
        super(BadSuper).__init__()
        self.fc = torch.nn.Linear(2, 1)
E(lambda: BadSuper())
class Typo(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 1)
    def forward(self, x):
        return self.fc1(x)
E(lambda: Typo()(x))
class ReturnsNone(torch.nn.Module):
    def forward(self, x):
        y = x * 2
r = ReturnsNone()(x)
print(r)
E(lambda: r.sum())
class SelfMissing(torch.nn.Module):
    def forward(x):
        return x
E(lambda: SelfMissing()(x))
print(net(x).shape, Net.__name__, net.__class__.__name__)
E(lambda: torch.nn.Module()(x))
E(lambda: torch.nn.Module.forward(net, x))
'''

PROGRAMS['manual_sgd_update_mistakes'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(5, 2)
y = x @ torch.tensor([[2.], [-1.]])
w = torch.zeros(2, 1, requires_grad=True)
lr = 0.1
for step in range(2):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    try:
        g = W(lambda: w.grad)
        w = w - lr * g
        print(step, w.is_leaf, w.grad_fn)
    except TypeError as e:
        print(step, 'TypeError', e)
w = torch.zeros(2, 1, requires_grad=True)
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
    print(step, round(loss.item(), 4), w.grad.flatten())
print(w.flatten())
w2 = torch.zeros(2, 1, requires_grad=True)
loss = ((x @ w2 - y) ** 2).mean()
loss.backward()
E(lambda: w2.sub_(lr * w2.grad))
w2.data -= lr * w2.grad
print(w2.flatten(), w2.requires_grad, w2.is_leaf)
w2.grad.zero_()
print(w2.grad.flatten())
w3 = torch.zeros(2, 1, requires_grad=True)
def bad_update():
    global w3
    w3 -= 0.1
E(bad_update)
'''

# fixed: an LSTM's float64 or float16 (h0, c0) with a float32 input: oneDNN's errors
PROGRAMS['attention_and_rnn_hidden_mistakes'] = PRE + r'''
torch.manual_seed(0)
E(lambda: torch.nn.MultiheadAttention(10, 3))
E(lambda: torch.nn.TransformerEncoderLayer(10, 3))
mha = torch.nn.MultiheadAttention(4, 2, batch_first=True)
q = torch.randn(2, 5, 4)
E(lambda: mha(q, q))
E(lambda: mha(q, q, torch.randn(2, 6, 4)))
E(lambda: mha(q, q, q, attn_mask=torch.zeros(4, 4)))
E(lambda: mha(q, q, q, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool)))
E(lambda: mha(q, q, q, attn_mask=torch.zeros(5, 5, dtype=torch.int64)))
E(lambda: mha(torch.randn(2, 5, 3), q, q))
out, w = mha(q, q, q)
print(out.shape, w.shape)
lstm = torch.nn.LSTM(3, 4, batch_first=True)
x = torch.randn(5, 2, 3)
h0 = torch.zeros(5, 1, 4)
E(lambda: lstm(x, (h0, h0)))
out, (h, c) = lstm(x, (h0.transpose(0, 1), h0.transpose(0, 1)))
print(out.shape, h.shape)
E(lambda: lstm(x, (h0.transpose(0, 1), h0.transpose(0, 1).contiguous().double())))
E(lambda: lstm(x, (h0.transpose(0, 1).half(), h0.transpose(0, 1))))
E(lambda: lstm(x, (torch.from_numpy(h0.transpose(0, 1).numpy().astype('float64')),) * 2))
E(lambda: lstm(x, [h0.transpose(0, 1), h0.transpose(0, 1)]))
E(lambda: lstm(x, h0.transpose(0, 1)))
gru = torch.nn.GRU(3, 4, batch_first=True)
E(lambda: gru(x, (h0.transpose(0, 1),)))
E(lambda: gru(x, h0))
enc = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 1, enable_nested_tensor=False)
E(lambda: enc(q, mask=torch.ones(5, 5)))
E(lambda: enc(q, src_key_padding_mask=torch.zeros(5, 2, dtype=torch.bool)))
print(enc(q).shape)
'''

PROGRAMS['python_truthiness_mistakes'] = PRE + r'''
x = torch.tensor([0.5, -1., 2.])
E(lambda: 0 < x < 1)
def f():
    if x > 0:
        return 1
E(f)
E(lambda: x and x)
E(lambda: not x)
E(lambda: bool(torch.tensor([])))
print(bool(torch.tensor([0.])), bool(torch.tensor(3)), not torch.tensor(0))
print(2. in x, 3 in x, torch.tensor(2.) in x)
E(lambda: [1., 2.] in x)
E(lambda: 'a' in x)
def g():
    assert x > -5
E(g)
print(((0 < x) & (x < 1)), (x > 0).all(), (x > 0).any().item())
E(lambda: (0 < x) and (x < 1))
E(lambda: x.float() & x)
E(lambda: (x > 0) & 1.5)
print((x > 0) & True, (x > 0) | torch.tensor([True, False, False]), ~(x > 0))
E(lambda: ~x)
E(lambda: -(x > 0))
print(max(torch.tensor([1., 3.])), min(torch.tensor(2), torch.tensor(1)), sorted(torch.tensor([3, 1, 2])))
E(lambda: max(x, x))
E(lambda: sum(torch.ones(2, 2)).shape)
print(sum(torch.ones(2, 2)), abs(torch.tensor([-1, 2])), len(torch.ones(4, 2)))
E(lambda: len(torch.tensor(5.)))
E(lambda: hash(x) == hash(x))
E(lambda: {x: 1}[x])
E(lambda: set([torch.tensor(1), torch.tensor(1)]).__len__())
'''


@pytest.fixture(autouse=True, scope="module")
def _optimizers_warmed_up():
    """PyTorch's first optimizer imports torch._dynamo, the first run imports every submodule a program may import
    (seconds): done here, so that no program's time depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
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
