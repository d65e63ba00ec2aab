"""Session 21 leftovers: PyTorch's efficient zero tensors (ZeroTensor: the real ``sgn``'s gradient, so second
derivatives through ``abs``, ``l1_loss``, ``norm(p=1 / inf)``, ``dist``: ``torch._is_zerotensor``, the refusals of
``tolist`` / ``numpy`` / in-place writes, and the ZeroTensor kernels of mul/div/add/sub/dot).

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_second_derivative_through_sgn_is_a_zerotensor():
    # PyTorch: sgn_backward of a real tensor is at::_efficientzerotensor: it prints as zeros, but tolist() and
    # numpy() refuse it, item() of an element reads 0, and its views (detach, data, view, index) are ZeroTensors too
    same_as_torch("""
import torch.nn.functional as F
x = torch.tensor([1., -2., 3., 0.5], requires_grad=True)
y = torch.tensor([0.5, -1., 2., 0.5])
for f in [lambda x: x.abs().sum(), lambda x: F.l1_loss(x, y), lambda x: x.norm(p=float('inf')),
          lambda x: x.norm(p=1), lambda x: torch.dist(x, y, 1), lambda x: (x.sgn() * x).sum()]:
    g, = torch.autograd.grad(f(x), x, create_graph=True)
    z, = torch.autograd.grad(g.sum(), x, create_graph=True)
    print(z, z.grad_fn, z.requires_grad, torch._is_zerotensor(z), z._is_zerotensor(), torch._is_zerotensor(g))
z = torch.autograd.grad(torch.autograd.grad(x.abs().sum(), x, create_graph=True)[0].sum(), x)[0]
E(lambda: z.tolist()); E(lambda: z.numpy()); print(z.numpy(force=True), z[1].item(), z.sum().item(), z.data_ptr())
print([torch._is_zerotensor(t) for t in (z.detach(), z.data, z.view(2, 2), z[1:], z.unsqueeze(0).t(), z.clone(),
                                         -z, z.sum(), z.to(torch.float64), torch.zeros_like(z), torch.zeros(2))])
print(z.stride(), z.is_contiguous(), -z, z.clone().tolist())
E(lambda: torch._is_zerotensor(3))
""")


def test_zerotensor_refuses_in_place_writes():
    # PyTorch: ZeroTensors are immutable (copy_ words it its own way); a .grad that is one refuses the next
    # accumulation, while a ZeroTensor accumulated into an existing .grad is added
    same_as_torch("""
x = torch.tensor([1., -2., 3.], requires_grad=True)
z, = torch.autograd.grad(torch.autograd.grad(x.abs().sum(), x, create_graph=True)[0].sum(), x)
def iadd():
    global z
    z += 1
E(iadd); E(lambda: z.copy_(torch.ones(3))); E(lambda: z.zero_()); E(lambda: z.fill_(2)); E(lambda: z[0].add_(1))
E(lambda: z.masked_fill_(torch.tensor([True, False, True]), 1.)); E(lambda: z.__setitem__(0, 5.))
print(z)
for _ in range(2):
    g, = torch.autograd.grad(x.abs().sum(), x, create_graph=True)
    E(lambda: g.sum().backward())
    print(x.grad, torch._is_zerotensor(x.grad))
x.grad = torch.ones(3)
g, = torch.autograd.grad(x.abs().sum(), x, create_graph=True); g.sum().backward()
print(x.grad, torch._is_zerotensor(x.grad))
h = torch.tensor([1., 2., 3.], requires_grad=True)
r = h * torch._efficientzerotensor(3)
r.sum().backward()
print(r, torch._is_zerotensor(r), h.grad, torch._is_zerotensor(h.grad))
""")


def test_zerotensor_kernels_of_arithmetic():
    # PyTorch's mul/div/add/sub ZeroTensor kernels: 0·y is a ZeroTensor (0·inf and 0·NaN are 0, never -0.0); 0/y too,
    # x/0 is +inf whatever x, 0/0 NaN; 0 + α·y copies y (a -0.0 stays -0.0), x + 0 copies x; other ops read zeros
    same_as_torch("""
Z = torch._efficientzerotensor
nz = torch.tensor([-0., -0., 1.])
for r in [Z(3) * torch.tensor([float('inf'), float('nan'), -1.]), Z(3) * -1., -1 * Z(3), Z(3) * torch.ones(2, 3),
          Z(3) * torch.ones(3, dtype=torch.float64), Z(3) / -2, Z(3) + Z(3), Z(3) - Z(3), Z(3).dot(torch.ones(3)),
          Z(3) + nz, nz + Z(3), Z(3) - nz, nz - Z(3), torch.add(Z(3), nz, alpha=2), Z(3) + -0., -0. + Z(3), 1 - Z(3),
          Z(3) - 1, torch.tensor([-1., 0., 2.]) / Z(3), Z(3) / Z(3), torch.rsub(Z(3), nz), torch.rsub(nz, Z(3)),
          Z(2, dtype=torch.int64) + torch.tensor([-0., 3.]), Z(2, dtype=torch.int64) / 2, -Z(3), Z(3).exp()]:
    print(torch._is_zerotensor(r), r.dtype, r.clone())
print(Z(2, 3), Z((2,)), Z(2, dtype=torch.float64, requires_grad=True))
x = torch.tensor([1., -2., 3.], requires_grad=True)
g, = torch.autograd.grad((x.abs() * x).sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(gg, torch.autograd.grad((gg * -1).sum(), x, retain_graph=True), torch.autograd.grad(gg.sum(), x))
""")


def test_batch_norm_bias_without_weight_double_backward():
    # PyTorch's batchnorm_double_backward expands ggB only when there is a weight: without one, the bias's incoming
    # gradient adds nothing (unused inputs), or, with another term to add it to, an undefined tensor is refused
    same_as_torch("""
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
for training in (True, False):
    out = F.batch_norm(x, torch.zeros(3), torch.ones(3), weight=None, bias=b, training=training)
    gb, = torch.autograd.grad((out ** 2).sum(), b, create_graph=True)
    print(gb, gb.grad_fn)
    E(lambda: torch.autograd.grad(gb.sum(), x, retain_graph=True))
    E(lambda: torch.autograd.grad(gb.sum(), b, retain_graph=True))
    x.grad = b.grad = None
    gb.sum().backward(retain_graph=True)
    print(x.grad, b.grad)
    gx, gb = torch.autograd.grad((out ** 2).sum(), (x, b), create_graph=True)
    E(lambda: torch.autograd.grad(gx.sum() + gb.sum(), (x, b)))
    gx, = torch.autograd.grad((out ** 2).sum(), x, create_graph=True)
    print(torch.autograd.grad(gx.sum(), (x, b), allow_unused=True))
""")


def test_grid_sample_double_backward_through_the_input_gradient():
    # PyTorch: the gradient of <a, dL/d input> is the sampler's own ops (grid_sample(a, grid) for the incoming
    # gradient, grid_sampler_2d_backward(g, a, grid)'s grid gradient): recorded, so differentiable once more
    same_as_torch("""
import torch.nn.functional as F
torch.manual_seed(0)
inp = torch.randn(1, 2, 4, 5, requires_grad=True)
grid = (torch.rand(1, 3, 3, 2) * 2.2 - 1.1).requires_grad_()
for mode in ('bilinear', 'nearest', 'bicubic'):
    for pad in ('zeros', 'border', 'reflection'):
        out = F.grid_sample(inp, grid, mode=mode, padding_mode=pad, align_corners=False)
        w = torch.randn(out.shape, requires_grad=True)
        g, = torch.autograd.grad((out * w).sum(), inp, create_graph=True)
        h = torch.autograd.grad((g * g).sum(), (grid, w), create_graph=True)
        print(mode, pad, h, [t.grad_fn for t in h])
        third = torch.autograd.grad(h[0].sum() + h[1].sum(), (inp, grid, w), allow_unused=True)
        print([None if t is None else t.shape for t in third])   # (their values: the grid cotangent's terms)
""")


def test_register_hook_dict_links_the_live_dict():
    # PyTorch: node._register_hook_dict(t) links t's hook dict itself: hooks registered on t afterwards run on the
    # node's gradient too (each result replacing it), a removed one does not
    same_as_torch("""
a = torch.tensor([1., 2.], requires_grad=True)
h = torch.tensor([3., 4.], requires_grad=True)
b = a * 2
c = h * 3
b.register_hook(lambda g: print('hook1', g))
c.grad_fn._register_hook_dict(b)
b.register_hook(lambda g: print('hook2', g) or g * 10)
handle = b.register_hook(lambda g: print('hook3', g))
handle.remove()
c.sum().backward()
print(h.grad)
x = a * 1
x.register_hook(lambda g: print('hookx0', g))
e = h * 7
e.grad_fn._register_hook_dict(x)
x.register_hook(lambda g: print('hookx', g) or g + 1)
e.sum().backward()
print(h.grad)
""")


def test_meta_tensors_have_shapes_and_no_values():
    # PyTorch's meta device: factories and x.to('meta') make tensors without values, ops on them (and their nodes)
    # give meta tensors, and every read of values is refused
    same_as_torch("""
x = torch.randn(2, 3, requires_grad=True)
xm = x.to('meta')
print(xm, xm.grad_fn, xm.requires_grad, xm.is_leaf, xm.device, xm.is_meta, xm.is_cpu, x.is_meta, x.device)
m = torch.empty(3, device='meta')
print(m, m.device, m.shape, m.dtype, m.stride(), m.data_ptr())
m1 = torch.empty(1, device='meta')
for f in [lambda: m1.item(), lambda: float(m1), lambda: bool(m1), lambda: m1.cpu(), lambda: m1.numpy(),
          lambda: m.item(), lambda: m.tolist(), lambda: m.to('cpu'), lambda: xm + torch.ones(2, 3),
          lambda: torch.ones(3) * xm, lambda: xm.sum().item()]:
    E(f)
print(xm + torch.tensor(1.), xm * 2, (xm * 2).sum(), torch.mm(xm, torch.ones(3, 2)), xm > 0, xm.argmax(1), xm.long())
print(torch.randn(2, device='meta'), torch.arange(5, device='meta'), torch.full((2,), 3., device='meta'))
print(torch.tensor([1., 2.], device='meta'), torch.zeros(2, 2, device=torch.device('meta')))
print(torch.ones(2, device='meta', requires_grad=True), torch.empty(3, device='meta', dtype=torch.int64))
print(torch.empty(0, device='meta'), torch.empty((), device='meta'), torch.zeros_like(x, device='meta'))
print(torch.empty_like(xm), x.new_zeros(2, device='meta'), xm.new_ones(3).device)
print(x.to('meta').to(torch.float64), x.to('meta', torch.float64).dtype)
print(torch.cat([xm, xm]), torch.stack([xm, xm]).shape, xm[0], xm.T.stride(), xm.expand(4, 2, 3).stride())
print(xm.max(), xm.view(3, 2), xm.reshape(6).device, xm.unsqueeze(0).shape, xm.t().is_meta, xm.detach().is_meta)
w = torch.ones(3, device='meta', requires_grad=True)
(w * 3).sum().backward()
print(w.grad, w.grad.device)
g, = torch.autograd.grad((w * w).sum(), w, create_graph=True)
print(g)
m.add_(1)
print(m, m._version, m.copy_(torch.ones(3)), m.add_(torch.ones(3)), m.zero_())
E(lambda: torch.ones(3).copy_(m))
torch.manual_seed(0)
print(torch.randn(3, device='meta'), torch.rand_like(xm), torch.randn_like(x, device='meta'), torch.rand(2))
print(torch.isnan(xm), xm.any(), torch.full_like(xm, 2.), torch.randint_like(xm, 5))
E(lambda: (xm * 2).sum().backward())   # (the gradient would be copied back from the meta device)
print(x.grad)
net = torch.nn.Linear(3, 2).to('meta')
print(net.weight, net.weight.is_meta, type(net.weight).__name__, net(torch.empty(5, 3, device='meta')))
""")


def test_function_event_fields():
    # PyTorch's FunctionEvent repr and fields: seq_nr (an op's node number with grad mode on, a backward node's own,
    # -1 for a block), fwd_thread 1 for backward nodes, DeviceType.CPU, the empty CPU-run fields (ids are numbered
    # process-wide in PyTorch, in blocks of 512 per profile: only their type is printed)
    same_as_torch("""
import re
x = torch.ones(2, 2, requires_grad=True)
z = torch.ones(2)
_ = x * 3
with torch.autograd.profiler.profile() as prof:
    y = (x * 2).sum()
    w = z + 1
    with torch.autograd.profiler.record_function('blk'):
        v = z * 2
    y.backward()
keep = ('aten::mul', 'aten::sum', 'aten::add', 'blk', 'SumBackward0', 'MulBackward0')
base = y.grad_fn.next_functions[0][0]._sequence_nr()   # (numbers relative to the first node's: earlier programs
seq = lambda n: n if n < 0 else n - base               # made nodes too)
for e in prof.function_events:
    if e.name in keep and (e.cpu_parent is None or e.cpu_parent.name == 'blk' or 'Backward' in e.name):
        r = re.sub(r'cpu_children=\\[[0-9, ]*\\]', 'cpu_children=C', re.sub(r' id=[0-9]+', ' id=N', repr(e)))
        r = re.sub(r'seq_nr=[0-9-]+', f'seq_nr={seq(e.sequence_nr)}', r)
        print(re.sub(r'(cpu_time|start_us|end_us|None_time)=[0-9.]+(us|ms)?', r'\\1=T', r))
        print(seq(e.sequence_nr), e.thread, e.fwd_thread, e.device_type, repr(e.overload_name), e.node_id, e.is_async,
              e.is_remote, e.is_legacy, e.input_shapes, e.cpu_memory_usage, e.trace_name, e.use_device)
print(type(prof.function_events[0].id).__name__, torch.autograd.DeviceType.CPU, repr(torch.autograd.DeviceType.CPU))
print(torch.autograd.profiler.DeviceType is torch.autograd.DeviceType)
""")


def test_neg_view_of_a_bool_tensor():
    # PyTorch: _neg_view of a bool tensor is made (a view with the negative bit), but its values cannot be read:
    # bools have no negation kernel
    same_as_torch("""
b = torch.tensor([True, False])
n = torch._neg_view(b)
print(n.shape, n.dtype, n.stride(), n._base is b, n.is_neg(), n.grad_fn, n.requires_grad, n.detach().is_neg())
for f in [lambda: print(n), lambda: n.tolist(), lambda: n.resolve_neg(), lambda: torch.resolve_neg(n),
          lambda: n.numpy(), lambda: n.item(), lambda: n[0].item(), lambda: n.numpy(force=True)]:
    E(f)
b[0] = False
print(b, n.is_neg(), n[1].is_neg())
""")


def test_meta_tensors_through_nn_functional():
    # PyTorch: the nn functions run on meta tensors (absent optional inputs too) and record their nodes
    same_as_torch("""
import torch.nn.functional as F
xm = torch.empty(4, 3, 5, device='meta', requires_grad=True)
print(F.batch_norm(xm, None, None, training=True), F.layer_norm(xm, (5,)))
print(F.conv1d(xm, torch.empty(2, 3, 3, device='meta')), F.softmax(xm, -1))
print(F.cross_entropy(xm[:, :, 0], torch.empty(4, dtype=torch.long, device='meta')))
F.gelu(xm).sum().backward()
print(xm.grad)
""")


def test_layers_built_on_the_meta_device():
    # PyTorch: a layer built with device='meta' has meta parameters and buffers, and its initializers draw nothing
    # from the generator; a user's module passes the keyword on to the layers it builds
    same_as_torch("""
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 4, device='meta')
print(lin.weight, lin.bias.device, torch.rand(1), lin(torch.empty(2, 3, device='meta')))
conv = nn.Conv2d(2, 3, 3, device='meta')
bn = nn.BatchNorm1d(3, device='meta')
print(conv.weight.shape, conv.weight.is_meta, conv.bias.is_meta, bn.running_mean, bn.num_batches_tracked, bn.weight)
class Net(nn.Module):
    def __init__(self, device=None):
        super().__init__()
        self.a = nn.Linear(2, 2, device=device)
        self.b = nn.Linear(2, 1)
net = Net(device='meta')
print(net.a.weight.is_meta, net.b.weight.is_meta, torch.rand(1), nn.Linear(2, 2).weight.is_meta, torch.rand(1))
print(nn.Embedding(5, 2, device='meta').weight, nn.LayerNorm(4, device='meta').bias)
""")
