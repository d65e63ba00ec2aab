"""Regression programs for the differences the nn graph fuzzer found in session 9 (``fuzz_graphs.py --nn``).

Each program runs with minigrad and with PyTorch (``parity.same_as_torch``) and prints what differed: values as
raw bits where the difference was in the last bits, strides, graph node names, error types and messages.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

BITS = """
def bits(t):
    print(t.dtype, tuple(t.shape), t.stride(), t.detach().numpy().tobytes().hex())
"""

PROGRAMS = {
    # fixed: x ** 0.5 is PyTorch's sqrt kernel (MKL's vsSqrt), not the correctly rounded root, in both dtypes
    "pow_half_is_mkl_sqrt": BITS + """
for dt in (torch.float32, torch.float64):
    x = torch.linspace(0.01, 10, 300, dtype=dt)
    bits(x.pow(0.5))
    bits(x ** 0.5)
    print(torch.equal(x.pow(0.5), x.sqrt()))
x = torch.tensor([[[[1.31]]]], requires_grad=True)   # (lp_pool2d's pow(1.5) backward: 1.5 * x ** 0.5)
y = torch.nn.functional.lp_pool2d(x, 1.5, 2, stride=2, ceil_mode=True)
g, = torch.autograd.grad(y.sum(), [x], create_graph=True)
bits(g)
(g * g).sum().backward()
bits(x.grad)
""",
    # fixed: a p-norm over one element per result is |x| itself (no x^p and root that round)
    "vector_norm_of_one_element": BITS + """
for p in (3.0, 1.5, 0.5, -1.0, 4, 2, float('inf'), 0):
    for dt in (torch.float32, torch.float64):
        x = torch.tensor([[0.12], [-0.37], [0.0], [1.7]], dtype=dt)
        bits(torch.linalg.vector_norm(x, p, -1))
        bits(torch.linalg.vector_norm(x, p, 1, keepdim=True))
        bits(x.norm(p, dim=-1))
        bits(torch.linalg.vector_norm(x[:1], p))
x = torch.tensor([[-0.12]], requires_grad=True)
y = torch.nn.functional.normalize(x, p=3.0, dim=-1)
g, = torch.autograd.grad(y.sum(), [x], create_graph=True)
bits(g)
""",
    # fixed: nearest / nearest-exact resizing to (or from) a 0 size is PyTorch's error, per dim count
    "interpolate_nearest_empty_output": """
F = torch.nn.functional
for mode in ('nearest', 'nearest-exact'):
    E(lambda: F.interpolate(torch.ones(1, 1, 1), scale_factor=0.5, mode=mode))
    E(lambda: F.interpolate(torch.ones(1, 1, 1, 3), scale_factor=0.5, mode=mode))
    E(lambda: F.interpolate(torch.ones(1, 1, 2, 2), size=(0, 2), mode=mode))
    E(lambda: F.interpolate(torch.ones(1, 1, 1, 1, 1), scale_factor=0.4, mode=mode))
E(lambda: F.interpolate(torch.ones(1, 1, 1, 3), scale_factor=0.5, mode='bilinear'))
""",
    # fixed: soft_margin_loss of shapes that do not broadcast: the product's RuntimeError, not NumPy's ValueError
    "soft_margin_loss_shapes": """
F = torch.nn.functional
E(lambda: F.soft_margin_loss(torch.ones(2, 2), torch.ones(2, 3)))
print(F.soft_margin_loss(torch.ones(2, 2), torch.ones(2, 1)))
""",
    # fixed: embedding_bag's bad index message of the plain kernels (float64, max mode, padding_idx)
    "embedding_bag_bad_index": """
F = torch.nn.functional
W = torch.ones(4, 2)
E(lambda: F.embedding_bag(torch.tensor([[0, 5, 1]]), W, mode='max'))
E(lambda: F.embedding_bag(torch.tensor([[0, 5, 1]]), W, padding_idx=1))
E(lambda: F.embedding_bag(torch.tensor([[0, 1], [4, 1]]), W.double(), mode='sum'))
E(lambda: F.embedding_bag(torch.tensor([0, 1, 7, -1]), W.double(), torch.tensor([0, 2])))
E(lambda: F.embedding_bag(torch.tensor([[0, -1, 1]]), W))
""",
    # fixed: fractional_max_pool3d checks the time, then the width, then the height
    "fractional_max_pool3d_check_order": """
F = torch.nn.functional
E(lambda: F.fractional_max_pool3d(torch.ones(1, 2, 2, 2), 1, output_size=(1, 2, 2)))
E(lambda: F.fractional_max_pool3d(torch.ones(1, 3, 3, 3), 1, output_size=(1, 3, 3)))
E(lambda: F.fractional_max_pool3d(torch.ones(1, 2, 2, 2), 1, output_size=(2, 3, 2)))
E(lambda: F.fractional_max_pool2d(torch.ones(1, 2, 2), 1, output_size=(2, 3)))
""",
    # fixed: ctc_loss with one length a tensor and the other a list or tuple: the overload TypeError
    "ctc_loss_mixed_lengths": """
F = torch.nn.functional
lp = torch.ones(3, 2, 4).log_softmax(2)
tg = torch.ones(2, 2, dtype=torch.long)
E(lambda: F.ctc_loss(lp, tg, [3, 3], torch.tensor([1, 2])))
E(lambda: F.ctc_loss(lp, tg, torch.tensor([3, 3]), (1, 2)))
E(lambda: F.ctc_loss(lp, tg, 3, [1, 2]))
print(F.ctc_loss(lp, tg, [3, 3], [1, 2]))
print(F.ctc_loss(lp, tg, torch.tensor([3, 3]), torch.tensor([1, 2])))
""",
    # fixed: norm_except_dim over a middle dim (weight_norm(dim=1) of a conv): PyTorch's at::norm (NormBackward1)
    # of the transposed weight, transposed back
    "weight_norm_middle_dim_graph": """
def names(t):
    out, f = [], t.grad_fn
    while f is not None and type(f).__name__ != 'AccumulateGrad':
        out.append(type(f).__name__)
        f = f.next_functions[0][0]
    return out
torch.manual_seed(0)
for dim in (0, 1, 2):
    v = torch.randn(2, 3, 2, dtype=torch.float64, requires_grad=True)
    n = torch.norm_except_dim(v, 2, dim)
    print(dim, tuple(n.shape), n.stride(), names(n), n.detach().numpy().round(8).tolist())
m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Conv1d(2, 2, 1).double(), dim=1)
print(names(m.weight), m.weight.stride())
""",
    # fixed: view / reshape of a non-contiguous tensor gives size-1 dims PyTorch's strides (computeStride), so
    # MultiheadAttention with head_dim 1 runs the fused CPU attention, as PyTorch's
    "view_size1_strides_and_mha": """
x = torch.arange(12.).reshape(2, 1, 6)[..., ::2]
print(x.stride(), x.view(2, 3, 1).stride(), x.reshape(1, 6, 1).stride(), x.view(2, 1, 3, 1).stride())
q = torch.arange(4.).view(2, 2, 1).transpose(0, 1)
print(q.view(1, 2, 2, 1).stride(), q.reshape(1, 2, 2, 1).stride())
print(torch.arange(2.)[1:].view(1, 1).stride(), torch.arange(4.)[::2][:1].view(1, 1, 1).stride())
torch.manual_seed(0)
m = torch.nn.MultiheadAttention(2, 2, batch_first=True, add_bias_kv=True).double()
q, k = torch.randn(1, 2, 2, dtype=torch.float64), torch.randn(1, 3, 2, dtype=torch.float64)
a, _ = m(q, k, k, need_weights=False)
f = a.grad_fn
while 'Attention' not in type(f).__name__ and f.next_functions:
    f = [g for g, _ in f.next_functions if g is not None][0]
print(type(f).__name__)
""",
    # fixed: the CPU flash attention's gradients are laid out (B, L, H, E) in memory, as PyTorch's kernel makes them
    "flash_attention_grad_layout": """
F = torch.nn.functional
torch.manual_seed(0)
base = torch.randn(3, 2, 6, dtype=torch.float64, requires_grad=True)
q, k, v = (base[..., i:i + 2].reshape(3, 2, 1, 2).transpose(0, 2) for i in (0, 2, 4))
o = F.scaled_dot_product_attention(q, k, v)
print(type(o.grad_fn).__name__, o.stride())
for g in torch.autograd.grad(o.sum(), [q, k, v], create_graph=True):
    print(tuple(g.shape), g.stride(), type(g.grad_fn).__name__)
""",
    # fixed: multi_margin_loss's target checks: its shape (1-D, one per sample), then its range
    "multi_margin_loss_target_checks": """
F = torch.nn.functional
E(lambda: F.multi_margin_loss(torch.ones(2, 2), torch.tensor([2, 1])))
E(lambda: F.multi_margin_loss(torch.ones(2, 2), torch.tensor([-1, 1])))
E(lambda: F.multi_margin_loss(torch.ones(3), torch.tensor(3)))
E(lambda: F.multi_margin_loss(torch.ones(2, 2), torch.tensor([1, 1, 1])))
E(lambda: F.multi_margin_loss(torch.ones(2, 3), torch.tensor([[0], [1]])))
E(lambda: F.multi_margin_loss(torch.ones(2, 0), torch.tensor([0, 0])))
E(lambda: F.multi_margin_loss(torch.ones(()), torch.tensor([1])))
print(F.multi_margin_loss(torch.ones(1, 3), torch.tensor(0)))
""",
    # fixed: F.interpolate(mode="trilinear") (was not implemented): upsample_trilinear3d and its backward, float32
    # bit for bit (PyTorch's nested fma sums and in-order gradient updates), saved arguments, errors
    "trilinear_interpolate": BITS + """
F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(2, 3, 2, 3, 4, requires_grad=True)
for kw in (dict(scale_factor=2), dict(scale_factor=(1.5, 0.5, 2.0)), dict(size=(3, 5, 2), align_corners=True),
           dict(scale_factor=1.7, recompute_scale_factor=True), dict(size=4)):
    y = F.interpolate(x, mode='trilinear', **kw)
    gy = torch.randn(y.shape, requires_grad=True)
    gx, = torch.autograd.grad(y, [x], gy, create_graph=True)
    print(y.grad_fn.name(), {a: getattr(y.grad_fn, a) for a in dir(y.grad_fn) if a.startswith('_saved_')})
    bits(y)
    bits(gx)
    (gx * gx).sum().backward()
    print(gx.grad_fn.name(), (gx * gx).sum().item())
    bits(gy.grad)
E(lambda: F.interpolate(torch.ones(1, 1, 2, 2), scale_factor=2, mode='trilinear'))
E(lambda: F.interpolate(torch.ones(1, 1, 1, 1, 1), scale_factor=0.4, mode='trilinear'))
E(lambda: F.interpolate(torch.ones(1, 1, 2, 2, 2, dtype=torch.long), scale_factor=2, mode='trilinear'))
print(torch.nn.Upsample(scale_factor=2, mode='trilinear')(torch.ones(1, 1, 1, 1, 2)).shape)
""",
    # fixed: NotImplemented nodes (derivatives PyTorch does not have) list edges only to inputs that require grad,
    # have the incoming gradient as an input (hardsigmoid_backward, the margin losses' and ctc_loss's backward),
    # and, with no sequence number, run first in a backward: the error a user sees is PyTorch's
    "not_implemented_nodes": """
F = torch.nn.functional
def names(f):
    return [(type(n).__name__, i) for n, i in f.next_functions]
a, b = torch.randn(3, requires_grad=True), torch.randn(3)
print(names(torch.floor_divide(a, b).grad_fn), names(torch.floor_divide(b, a).grad_fn))
torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
y = F.threshold(F.hardsigmoid(x * 4), 0.1, -2.0)
g, = torch.autograd.grad(y.sum() + F.hardsigmoid(x).sum(), [x], create_graph=True)
print(g.grad_fn.name(), names(g.grad_fn))
for f in (lambda: F.multi_margin_loss(x, torch.tensor([0, 3, 1])),
          lambda: F.multilabel_margin_loss(x, torch.tensor([[0, 3, -1, 1], [1, -1, 0, 0], [2, 1, 0, 3]]))):
    h, = torch.autograd.grad(f() * x.sum(), [x], create_graph=True)
    print(h.grad_fn.name(), names(h.grad_fn))
w = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
psw = torch.rand(2, 2, dtype=torch.float64, requires_grad=True)
o = F.embedding_bag(torch.tensor([[0, 2], [1, 1]]), w, mode='sum', per_sample_weights=psw)
G = torch.autograd.grad(o.sum() * 1, [w, psw], create_graph=True)
print([g.grad_fn.name() for g in G], names(G[1].grad_fn.next_functions[0][0]))
E(lambda: sum((g * g).sum() for g in G).backward())
lp = torch.randn(4, 2, 3, dtype=torch.float64, requires_grad=True)
loss = F.ctc_loss(lp.log_softmax(2), torch.tensor([[1, 2], [2, 2]]), [4, 3], [2, 1], reduction='mean')
g, = torch.autograd.grad(F.logsigmoid(loss), [lp], create_graph=True)
f = g.grad_fn
while f.name() != 'torch::autograd::NotImplemented':
    f = f.next_functions[0][0]
print(names(f))
""",
    # fixed: F.tanh / F.sigmoid call the tensor's method, as PyTorch's Python does (a tuple, e.g. an LSTMCell's
    # (h, c), fails with AttributeError, not a TypeError)
    "functional_tanh_sigmoid_are_methods": """
F = torch.nn.functional
for f in (F.tanh, F.sigmoid):
    for x in ((torch.ones(2), torch.ones(2)), None, 3.0):
        E(lambda: f(x))
    print(f(torch.tensor([1, 2])), f(torch.ones(2, requires_grad=True)).grad_fn.name())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_nn_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
