"""Parity programs for sparse COO tensors (minigrad/sparse.py): construction, printing, conversions, autograd
through to_dense / sparse.mm / sparse.sum / sparse.softmax, nn.Embedding(sparse=True) gradients and the
optimizers that take (or refuse) them.

Each program runs twice through ``parity.run_both`` (minigrad as ``torch``, then PyTorch); the stdouts must be
identical once object addresses are masked. Errors are printed as type and first line (PyTorch's dispatcher
errors list every backend after it).
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

HELPERS = r'''
import torch
def tr(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0][:160])
'''

PROGRAMS: dict[str, str] = {}

PROGRAMS['construct_and_print'] = r'''
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
print(s)
print(type(s.grad_fn).__name__, s.layout, s.is_sparse, s.is_coalesced(), s.shape, s.dtype, s.requires_grad)
print(s._indices(), s._values(), s.sparse_dim(), s.dense_dim(), s._nnz(), s.dim(), s.size(1))
print(torch.sparse_coo_tensor(i, [1., 2, 3]))
print(torch.sparse_coo_tensor([[0, 1]], [1, 2], dtype=torch.float64))
print(torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 3, 2)))
print(torch.sparse_coo_tensor(i, torch.tensor([1., 2, 3]), (2, 3), requires_grad=True))
print(torch.zeros(2, 2).to_sparse())
print(torch.tensor([[0, 1], [0, 0]]).to_sparse())
print(type(s), torch.ones(1).layout, torch.ones(1).is_sparse)
'''

PROGRAMS['errors'] = r'''
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
s = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3))
tr(lambda: s.indices())
tr(lambda: s.values())
tr(lambda: s.view(6))   # fixed: dense ops on a sparse tensor raise as PyTorch's
tr(lambda: s.reshape(6))
tr(lambda: s.exp())
tr(lambda: s.mean())
tr(lambda: s.numpy())
tr(lambda: s + 1)
tr(lambda: s + torch.ones(2, 3))
tr(lambda: s.data_ptr())
tr(lambda: s.contiguous())
tr(lambda: s.is_contiguous())
'''

PROGRAMS['to_dense_backward_masks'] = r'''
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
d = s.to_dense()
print(d, d.grad_fn, s.grad_fn.next_functions[0][0] is v.grad_fn)
(d * torch.arange(6.).view(2, 3)).sum().backward()
print(v.grad)
x = torch.tensor([[0., 2.], [3., 0.]], requires_grad=True)
sx = x.to_sparse()
print(sx)
sx.register_hook(lambda g: print("sparse hook", g))
(sx.to_dense() * 3).sum().backward()
print(x.grad)
'''

PROGRAMS['coalesce_values'] = r'''
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
c = s.coalesce()
print(c, c.is_coalesced(), c.coalesce() is c)
print(c.indices(), c.values())
(c.values() * torch.tensor([1., 10.])).sum().backward()
print(v.grad)
print(s.detach().coalesce())
print(torch.sparse_coo_tensor(i, v, (2, 3)).to_dense())
'''

PROGRAMS['arithmetic'] = r'''
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
a = s * 2
print(a, a.grad_fn._saved_other)
print(2 * s, s / 2, -s, s + s, s - s)
t = torch.sparse_coo_tensor(torch.tensor([[0, 1], [0, 2]]), torch.tensor([1., 1.]), (2, 3))
print(s + t, (s + t).is_coalesced(), s.coalesce() + t.coalesce())
print(torch.ones(2, 3) + s)
print(s.t())
((s * 3 - s / 2).to_dense() ** 2).sum().backward()
print(v.grad)
'''

PROGRAMS['sparse_mm_and_addmm'] = r'''
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
d = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
r = torch.sparse.mm(torch.sparse_coo_tensor(i, v, (2, 3)), d)
print(r)
r.sum().backward()
print(v.grad, d.grad)
v.grad = None
d.grad = None
r = torch.mm(torch.sparse_coo_tensor(i, v, (2, 3)), d)
print(r)
r.pow(2).sum().backward()
print(v.grad, d.grad)
sl = torch.sparse_coo_tensor(i, v, (2, 3)).detach().requires_grad_()
print(sl, sl.is_leaf)
torch.sparse.mm(sl, d).sum().backward()
print(sl.grad)
sl.grad = None
torch.mm(sl, d).sum().backward()
print(sl.grad)
m = torch.ones(2, 2, requires_grad=True)
r = torch.sparse.addmm(m, sl, d)
print(r)
r.sum().backward()
print(m.grad)
'''

PROGRAMS['sparse_sum_softmax'] = r'''
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
print(torch.sparse.sum(s), s.sum())
t = torch.sparse.sum(s, 1)
print(t)
t.to_dense().pow(2).sum().backward()
print(v.grad)
v.grad = None
s = torch.sparse_coo_tensor(i, v, (2, 3))
y = torch.sparse.softmax(s, 1)
print(y)
(y.to_dense() * torch.arange(6.).view(2, 3)).sum().backward()
print(v.grad)
v.grad = None
s = torch.sparse_coo_tensor(i, v, (2, 3))
y = torch.sparse.log_softmax(s, 0)
print(y)
(y.to_dense() * torch.arange(6.).view(2, 3)).sum().backward()
print(v.grad)
'''

PROGRAMS['embedding_sparse_grad'] = r'''
e = torch.nn.Embedding(5, 2, sparse=True)
with torch.no_grad():
    e.weight.copy_(torch.arange(10.).view(5, 2))
out = e(torch.tensor([[3, 1], [3, 0]]))
print(out.grad_fn, out.grad_fn._saved_sparse)
(out * torch.tensor([1., 2.])).sum().backward()
print(e.weight.grad, e.weight.grad.is_coalesced())
e(torch.tensor([4, 1])).sum().backward()   # accumulation: the entries concatenated
g = e.weight.grad
print(g, g.grad_fn, g.requires_grad, g.is_leaf)
print(g.coalesce())
print(g.to_dense())
w = torch.arange(6.).view(3, 2).requires_grad_()
y = torch.nn.functional.embedding(torch.tensor([2, 0, 2]), w, sparse=True)
y.sum().backward()
print(w.grad)
e = torch.nn.Embedding(4, 3, padding_idx=1, sparse=True)
e(torch.tensor([1, 2, 1, 3])).sum().backward()
print(e.weight.grad)
print(e)
'''

PROGRAMS['optimizers_with_sparse_grads'] = r'''
def emb():
    e = torch.nn.Embedding(5, 2, sparse=True)
    with torch.no_grad():
        e.weight.copy_(torch.arange(10.).view(5, 2))
    return e
idx = torch.tensor([[3, 1], [3, 0]])
e = emb()
opt = torch.optim.SGD(e.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    (e(idx) * torch.tensor([1., 2.])).sum().backward()
    opt.step()
print(e.weight)
e = emb()
opt = torch.optim.SGD(e.parameters(), lr=0.1, momentum=0.9)
for _ in range(3):
    opt.zero_grad()
    e(idx).pow(2).sum().backward()
    opt.step()
print(e.weight)
e = emb()
opt = torch.optim.SparseAdam(e.parameters(), lr=0.1)
print(opt)
for _ in range(3):
    opt.zero_grad()
    e(idx).pow(2).sum().backward()
    opt.step()
print(e.weight)
print(sorted(opt.state[e.weight]), opt.state[e.weight]["step"], opt.state[e.weight]["exp_avg"])
e = emb()
opt = torch.optim.Adagrad(e.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    e(idx).pow(2).sum().backward()
    opt.step()
print(e.weight)
e = emb()
e(idx).sum().backward()
for name in ["Adam", "AdamW", "RMSprop", "Adamax", "NAdam", "RAdam", "Adadelta", "ASGD", "Rprop"]:
    tr(lambda: getattr(torch.optim, name)(e.parameters(), lr=0.1).step())
tr(lambda: torch.nn.utils.clip_grad_norm_(e.parameters(), 1.0))
p = torch.nn.Parameter(torch.ones(2))
p.sum().backward()
tr(lambda: torch.optim.SparseAdam([p]).step())
tr(lambda: torch.optim.SparseAdam([p], lr=0.0))
'''

PROGRAMS['sparse_grad_accumulates_into_dense'] = r'''
w = torch.arange(6.).view(3, 2).requires_grad_()
torch.nn.functional.embedding(torch.tensor([2, 0]), w, sparse=True).sum().backward()
(w * 2).sum().backward()       # dense after sparse: a dense sum
print(w.grad)
w.grad = None
(w * 2).sum().backward()
torch.nn.functional.embedding(torch.tensor([2, 2]), w, sparse=True).sum().backward()   # sparse after dense
print(w.grad)
x = torch.tensor([[0., 2.], [3., 0.]], requires_grad=True)
s = x.to_sparse()
print(torch.autograd.grad(s.to_dense().sum(), x))
'''


PROGRAMS['zero_grad_hybrid_dtypes_printing'] = r'''
# fixed: zero_grad(set_to_none=False) on a sparse gradient (zero_ empties it)
e = torch.nn.Embedding(4, 2, sparse=True)
e(torch.tensor([1, 3])).sum().backward()
opt = torch.optim.SGD(e.parameters(), lr=0.1)
opt.zero_grad(set_to_none=False)
print(e.weight.grad)
e(torch.tensor([2])).sum().backward()
print(e.weight.grad)
x = torch.arange(12.).view(2, 3, 2).requires_grad_()
s = x.to_sparse(1)
print(s, s.sparse_dim(), s.dense_dim(), s.grad_fn, s.grad_fn._saved_self_self_sym_blocksize_opt)
(s.to_dense() * 2).sum().backward()
print(x.grad)
h = torch.sparse_coo_tensor([[0, 2, 0]], torch.arange(6.).view(3, 2), (3, 2))
print(h, h.coalesce(), torch.sparse.sum(h, 0), torch.sparse.sum(h, 1), torch.sparse.sum(h, (0, 1)))
print(torch.sparse_coo_tensor([[0, 1]], torch.tensor([1., 2.], dtype=torch.float64), (3,), requires_grad=True))
print(torch.sparse_coo_tensor([[0, 1], [1, 0]], torch.tensor([True, False]), (2, 2)))
print(torch.sparse_coo_tensor([[0, 1], [1, 0]], torch.tensor([1, 2], dtype=torch.int32), (2, 2)))
big = torch.arange(1., 2001.).to_sparse()
print(big)
s = torch.tensor([[0., 1.], [2., 0.]]).to_sparse().requires_grad_()
print(s, s.is_leaf, s.requires_grad)
y = (s * 3).to_dense().sum(); y.backward(); print(s.grad)
print(s.detach(), s.data, s.clone())
print(len(s), s.numel(), s.element_size() if hasattr(s, 'element_size') else '')
tr(lambda: s.size())
tr(lambda: s.to_dense().to_sparse().coalesce().is_coalesced())
tr(lambda: torch.zeros(2, 3).to_sparse().to_dense())
tr(lambda: torch.sparse.mm(torch.ones(2, 2), torch.ones(2, 2)))
tr(lambda: torch.tensor([[1., 0.]]).to_sparse() @ torch.ones(2, 1))
'''

PROGRAMS['training_loop_sparse_adam_and_hooks'] = r'''
torch.manual_seed(0)
emb = torch.nn.Embedding(6, 3, sparse=True)
lin = torch.nn.Linear(3, 1)
opt_s = torch.optim.SparseAdam(list(emb.parameters()), lr=0.05)
opt_d = torch.optim.Adam(lin.parameters(), lr=0.05)
idx = torch.tensor([[0, 2, 4], [1, 2, 5]])
target = torch.tensor([[1.0], [-1.0]])
for step in range(4):
    opt_s.zero_grad(); opt_d.zero_grad()
    h = emb(idx).mean(1)
    loss = torch.nn.functional.mse_loss(lin(h), target)
    loss.backward()
    opt_s.step(); opt_d.step()
    print(step, round(loss.item(), 6), emb.weight.grad._nnz())
print(emb.weight)
g, = torch.autograd.grad(emb(torch.tensor([3, 3])).sum(), emb.weight)
print(g, g.is_sparse)
w = torch.ones(3, 2, requires_grad=True)
out = torch.nn.functional.embedding(torch.tensor([0, 2]), w, sparse=True)
out.register_hook(lambda g: print("out grad", g))
w.register_hook(lambda g: print("w grad hook", g.layout))
(out * 2).sum().backward()
print(w.grad.layout, w.grad.shape, w.grad.dtype, w.grad.size())
x = torch.tensor([[0., 2., 0.], [1., 0., 3.]], requires_grad=True)
s = x.to_sparse()
y = torch.sparse.mm(s, torch.ones(3, 2)).sum()
y.backward()
print(x.grad)
w = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
torch.nn.functional.embedding(torch.tensor([[0, 2], [2, 2]]), w, sparse=True).sum().backward()
print(w.grad)
'''


PROGRAMS['sparse_products'] = r'''
# fixed: sparse * sparse and sparse * dense (PyTorch's entry rules; a dense factor's gradient is sparse)
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
t = torch.sparse_coo_tensor(torch.tensor([[0, 1], [0, 1]]), torch.tensor([2., 7.]), (2, 3))
print(s * t, (s * t).is_coalesced())
d = torch.arange(6.).view(2, 3)
r = d * s
print(r, r.is_coalesced(), s * d)
(s * t).to_dense().sum().backward()
print(v.grad)
print(s * torch.tensor(2.), torch.tensor(3.) * s)
v.grad = None
d = torch.arange(6.).view(2, 3).requires_grad_()
s = torch.sparse_coo_tensor(i, v, (2, 3))
(d * s).to_dense().sum().backward()
print(d.grad, v.grad)
v.grad = None
d.grad = None
s = torch.sparse_coo_tensor(i, v, (2, 3)).coalesce()
(s * d).to_dense().sum().backward()
print(d.grad, v.grad)
t = torch.sparse_coo_tensor(torch.tensor([[0, 1], [0, 2]]), torch.tensor([2., 7.]), (2, 3)).coalesce()
print(s * t, t * s, (s * t).is_coalesced())
'''


PROGRAMS['dtype_conversions'] = r'''
# fixed: .double() / .to(dtype) of a sparse tensor stay sparse (ToCopyBackward0)
s = torch.tensor([[0., 1.5], [2, 0]]).to_sparse().requires_grad_()
d = s.double()
print(d, d.grad_fn)
d.to_dense().sum().backward()
print(s.grad)
print(s.to(torch.float64).grad_fn, s.to('cpu') is s, s.to(torch.float32) is s, s.long(), s.float() is s)
'''


PROGRAMS['embedding_options_and_embedding_bag'] = r'''
# fixed: EmbeddingBag(sparse=True) gave a dense gradient; scale_grad_by_freq with sparse=True raises
w = torch.arange(8.).view(4, 2).requires_grad_()
try:
    torch.nn.functional.embedding(torch.tensor([1, 3, 1]), w, sparse=True, scale_grad_by_freq=True).sum().backward()
except RuntimeError as e:
    print(e)
print(w.grad)
w.grad = None
torch.nn.functional.embedding(torch.tensor([2, 2]), w, padding_idx=2, sparse=True).sum().backward()
print(w.grad)
w.grad = None
e = torch.nn.Embedding(4, 2, max_norm=1.0, sparse=True)
with torch.no_grad():
    e.weight.copy_(torch.arange(8.).view(4, 2))
e(torch.tensor([0, 3])).sum().backward()
print(e.weight.grad, e.weight)
b = torch.nn.EmbeddingBag(4, 2, sparse=True, mode="sum")
with torch.no_grad():
    b.weight.copy_(torch.arange(8.).view(4, 2))
b(torch.tensor([[0, 1], [3, 3]])).sum().backward()
print(b.weight.grad)
for mode in ("mean", "sum"):
    b = torch.nn.EmbeddingBag(5, 2, sparse=True, mode=mode, padding_idx=4)
    with torch.no_grad():
        b.weight.copy_(torch.arange(10.).view(5, 2))
    b(torch.tensor([0, 1, 4, 3, 3, 2]), torch.tensor([0, 3])).pow(2).sum().backward()
    print(b.weight.grad)
w = torch.ones(4, 3, requires_grad=True)
out = torch.nn.functional.embedding_bag(torch.tensor([1, 2, 1, 3]), w, torch.tensor([0, 2]), sparse=True,
                                        per_sample_weights=torch.tensor([0.5, 2.0, 1.0, 3.0]), mode="sum")
out.sum().backward()
print(w.grad)
try:
    torch.nn.functional.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0]), sparse=True, mode="max")
except Exception as e:
    print(type(e).__name__, e)
'''


PROGRAMS['select_rows'] = r'''
# fixed: s[i] of a sparse tensor is sparse (SelectBackward0; no kernel for a sparse gradient, as PyTorch)
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
s = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3))
print(s[-1], s[1].is_coalesced(), s.coalesce()[1].is_coalesced())
tr(lambda: s[0:1])
tr(lambda: s[5])
h = torch.sparse_coo_tensor([[0, 2, 0]], torch.arange(6.).view(3, 2), (3, 2))
print(h[0])
print(torch.tensor([1., 0, 2]).to_sparse()[2])
x = torch.tensor([[0., 1.], [2., 0.]], requires_grad=True)
y = x.to_sparse()[1]
print(y, y.grad_fn._saved_dim, y.grad_fn._saved_index, y.grad_fn._saved_self_sym_sizes)
tr(lambda: y.to_dense().sum().backward())
y = x.to_sparse()[1]
(y * 2).sum().backward()
print(x.grad)
'''


PROGRAMS['sums_and_dense_arguments'] = r'''
# fixed: s.sum(dim) is sparse (SumBackward1), torch.sparse.* refuse dense inputs, sparse.mm checks sizes
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
s = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3))
tr(lambda: torch.sparse.sum(torch.ones(2, 2)))
tr(lambda: torch.sparse.sum(torch.ones(2, 2), 0))
tr(lambda: torch.sparse.softmax(torch.ones(2, 2), 0))
tr(lambda: torch.sparse.log_softmax(torch.ones(2, 2), 1))
tr(lambda: s.sum(1))
tr(lambda: s.sum(dim=0))
tr(lambda: torch.sum(s))
tr(lambda: s.sum((0, 1)))
tr(lambda: torch.sparse.sum(s, -1))
tr(lambda: torch.sparse.sum(s, (0, 1)))
tr(lambda: torch.sparse.sum(s, dtype=torch.float64))
tr(lambda: torch.sparse.mm(s, torch.ones(2, 2)))
tr(lambda: torch.sparse.addmm(torch.ones(2, 2), s, torch.ones(3, 2), beta=2, alpha=0.5))
tr(lambda: s.to_dense().to_sparse(1))
tr(lambda: s.coalesce().values().sum())
v = torch.tensor([3., 4., 5.], requires_grad=True)
for f in (lambda s: s.sum(1).to_dense().sum(), lambda s: s.sum((0, 1)), lambda s: (s.sum(0) * 2).sum(),
          lambda s: s.sum(1, keepdim=True).to_dense().sum(), lambda s: torch.sparse.sum(s, 1).to_dense().sum()):
    s = torch.sparse_coo_tensor(i, v, (2, 3))
    r = f(s)
    print(r)
    tr(lambda: r.backward())
    print(v.grad)
    v.grad = None
s = torch.sparse_coo_tensor(i, v, (2, 3))
print(s.sum(1, keepdim=True), s.sum(-1), s.sum(1).is_coalesced())
print(torch.sum(s, 1), torch.sum(s, (0, 1)), torch.sum(s, 0, keepdim=True), torch.sum(s))   # fixed: function form
print(s.sum(1).grad_fn._saved_dim, s.sum(1).grad_fn._saved_keepdim)
h = torch.sparse_coo_tensor([[0, 2, 0]], torch.arange(6.).view(3, 2), (3, 2))
print(h.sum(1), h.sum(0), torch.sparse.sum(h, 1))
'''


PROGRAMS['accumulation_in_place_and_create_graph'] = r'''
e = torch.nn.Embedding(5, 2, sparse=True)
e(torch.tensor([1, 2])).sum().backward()
g = e.weight.grad
v = g._version
e(torch.tensor([4])).sum().backward()
print(g is e.weight.grad, g._nnz(), g._version - v, g.is_coalesced())
e(torch.tensor([4])).sum().backward(create_graph=True)
print(e.weight.grad.layout, e.weight.grad.requires_grad)
w = torch.ones(3, 2, requires_grad=True)
y = torch.nn.functional.embedding(torch.tensor([0, 1]), w, sparse=True).sum()
y.backward(retain_graph=True)
y.backward()
print(w.grad, w.grad.coalesce())
'''


PROGRAMS['uncoalesced_sparse_leaf_gradients'] = r'''
i = torch.tensor([[1, 0, 1], [2, 0, 2]])
sl = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3)).requires_grad_()
d = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
torch.sparse.mm(sl, d).sum().backward()
print(sl.grad, d.grad)
sl.grad = None
sl.to_dense().sum().backward()
print(sl.grad)
sl.grad = None
torch.sparse.sum(sl, 0).to_dense().sum().backward()
print(sl.grad)
sl.grad = None
torch.sparse.softmax(sl, 1).to_dense().pow(2).sum().backward()
print(sl.grad)
sl.grad = None
sl.coalesce().values().sum().backward()
print(sl.grad)
sl.grad = None
(sl * 2).to_dense().sum().backward()
print(sl.grad)
'''


PROGRAMS['attributes'] = r'''
# fixed: stride() is all zeros and nbytes raises, as for PyTorch's sparse tensors
s = torch.ones(2, 3, 4).to_sparse()
for f in (lambda: s.stride(), lambda: s.stride(0), lambda: s.is_contiguous(), lambda: s.storage_offset(),
          lambda: s.element_size(), lambda: s.nbytes, lambda: s.itemsize, lambda: len(s), lambda: s.numel(),
          lambda: s.dim(), lambda: s.ndim, lambda: s.shape, lambda: s.size(-1), lambda: s.is_floating_point(),
          lambda: s.dtype, lambda: s.device, lambda: s.is_leaf, lambda: s.requires_grad, lambda: type(s)):
    tr(f)
'''


PROGRAMS['deepcopy_and_save'] = r'''
# fixed: deepcopy / torch.save of a sparse tensor kept its dense values only
import copy
import io
e = torch.nn.Embedding(4, 2, sparse=True)
with torch.no_grad():
    e.weight.copy_(torch.arange(8.).view(4, 2))
e(torch.tensor([1, 3])).sum().backward()
e2 = copy.deepcopy(e)
print(e2.weight.grad)
s = torch.tensor([[0., 1.], [2., 0.]]).to_sparse()
print(copy.deepcopy(s))
buf = io.BytesIO()
torch.save(s, buf)
buf.seek(0)
print(torch.load(buf))
r = torch.sparse_coo_tensor([[0, 1]], [1., 2.], (3,), requires_grad=True)
buf = io.BytesIO()
torch.save({"s": r, "w": e.state_dict()}, buf)
buf.seek(0)
back = torch.load(buf)
print(back["s"], back["s"].requires_grad, back["w"])
print(copy.deepcopy(r))
'''


PROGRAMS['optimizer_options_with_sparse_grads'] = r'''
# fixed: SGD and Adagrad refuse weight_decay with a sparse gradient, as PyTorch's
def run(make, steps=2):
    e = torch.nn.Embedding(4, 2, sparse=True)
    with torch.no_grad():
        e.weight.copy_(torch.arange(8.).view(4, 2) / 4)
    opt = make(e.parameters())
    for _ in range(steps):
        opt.zero_grad()
        e(torch.tensor([1, 3, 1])).pow(2).sum().backward()
        opt.step()
    return e.weight
tr(lambda: run(lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=0.01)))
tr(lambda: run(lambda p: torch.optim.SGD(p, lr=0.1, maximize=True)))
tr(lambda: run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True)))
tr(lambda: run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.5)))
tr(lambda: run(lambda p: torch.optim.Adagrad(p, lr=0.1, weight_decay=0.1)))
tr(lambda: run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.1)))
tr(lambda: run(lambda p: torch.optim.Adagrad(p, lr=0.1, initial_accumulator_value=0.5)))
tr(lambda: run(lambda p: torch.optim.SparseAdam(p, lr=0.1, maximize=True), 3))
tr(lambda: run(lambda p: torch.optim.SparseAdam(p, lr=0.1, betas=(0.5, 0.7), eps=1e-3), 3))
tr(lambda: torch.optim.SparseAdam([torch.ones(2).to_sparse()]))
tr(lambda: torch.optim.SparseAdam(torch.nn.Embedding(2, 2).parameters(), lr=-1))
'''


PROGRAMS['constructor_checks'] = r'''
# fixed: sparse_coo_tensor's size / nnz / values checks (index bounds unchecked, as PyTorch's)
tr(lambda: torch.sparse_coo_tensor([[0, 1], [1, 2]], [1., 2.], (2, 2)))
tr(lambda: torch.sparse_coo_tensor([[0, 3]], [1., 2.], (2,)))
tr(lambda: torch.sparse_coo_tensor([[0, -1]], [1., 2.], (2,)))
tr(lambda: torch.sparse_coo_tensor([0, 1], [1., 2.], (2,)))
tr(lambda: torch.sparse_coo_tensor([[0, 1]], [1., 2., 3.], (3,)))
tr(lambda: torch.sparse_coo_tensor([[0, 1]], torch.ones(2, 3), (3, 2)))
tr(lambda: torch.sparse_coo_tensor([[0., 1.]], [1., 2.], (3,)))
tr(lambda: torch.sparse_coo_tensor(torch.tensor([[0, 1]], dtype=torch.int32), [1., 2.], (3,)))
tr(lambda: torch.sparse_coo_tensor([[0, 1]], [1, 2], (3,), dtype=torch.float64))
tr(lambda: torch.sparse_coo_tensor([[0, 1]], [1., 2.], [3]))
tr(lambda: torch.sparse_coo_tensor([[0, 1]], [1., 2.], torch.Size([3])))
tr(lambda: torch.sparse_coo_tensor([[0, 1]], [1., 2.], (3,), is_coalesced=True).is_coalesced())
tr(lambda: torch.sparse_coo_tensor([[1, 0]], [1., 2.], (3,)).coalesce().indices())
'''


PROGRAMS['saved_tensors'] = r'''
v = torch.tensor([3., 4.], requires_grad=True)
s = torch.sparse_coo_tensor([[0, 2]], v, (3,))
print([a for a in dir(s.grad_fn) if a.startswith("_saved")], s.grad_fn._saved_result)
d = s.to_dense()
print([a for a in dir(d.grad_fn) if a.startswith("_saved")], d.grad_fn._saved_self)
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(HELPERS + PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)


def test_sparse_invariants_warning_text() -> None:
    # PyTorch warns once per process, so its side cannot be replayed here: the text is PyTorch 2.13's
    import minigrad
    from minigrad import _warn_once
    _warn_once._WARNED.discard("sparse invariants")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.sparse_coo_tensor([[0]], [1.0], (2,))
        minigrad.sparse_coo_tensor([[0]], [1.0], (2,))
    assert [str(w.message)[:50] for w in caught] == ["Sparse invariant checks are implicitly disabled. M"]


def _viz_view(torch) -> list:
    import viz
    i = torch.tensor([[1, 0, 1], [2, 0, 2]])
    v = torch.tensor([3., 4., 5.], requires_grad=True)
    s = torch.sparse_coo_tensor(i, v, (2, 3))
    d = torch.ones(3, 2, requires_grad=True)
    y = torch.sparse.mm(s, d).sum() + torch.sparse.sum(s, 1).to_dense().sum()
    drawing = viz.draw(y, auto_names=False)
    stepper = viz.BackwardStepper(y, engine="none-such")
    return [[n.title for n in drawing.graph.nodes if n.kind == "fn"], [f.node for f in stepper.frames],
            [f.leaf_grad_after.tolist() for f in stepper.frames if f.node == "AccumulateGrad"]]


def test_viz_draws_sparse_graphs_as_for_pytorch() -> None:
    from parity import torch_or_skip

    import minigrad
    torch = torch_or_skip()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _viz_view(minigrad) == _viz_view(torch)
