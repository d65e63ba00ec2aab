"""Session 21 leftovers (b): the meta device and ZeroTensors: the meta default device (``set_default_device``,
``with torch.device('meta')``), device checks of ops mixing meta and CPU tensors, random fills of meta tensors
drawing nothing, ops without a meta kernel (``nonzero``, ``unique`` ...), and the storages of tensors without data.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_meta_default_device_makes_meta_tensors_and_modules():
    # PyTorch: with the default device meta, factories and module parameters are meta tensors, nothing is drawn
    # from the generator, get_default_device() says meta; the CPU default comes back after
    same_as_torch("""
torch.manual_seed(0)
torch.set_default_device('meta')
print(torch.zeros(2), torch.randn(2, 3), torch.tensor([1., 2.]), torch.arange(3), torch.get_default_device())
m = torch.nn.Linear(3, 1)
print(m, m.weight, m.bias.shape, m.weight.device)
torch.set_default_device(None)
print(torch.zeros(2), torch.get_default_device(), torch.rand(1))
torch.manual_seed(0)
with torch.device('meta'):
    m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    print(m, [p.shape for p in m.parameters()], [p.is_meta for p in m.parameters()])
    print(torch.ones(2, 2), torch.empty(3).device, torch.full((2,), 3.), torch.eye(2), torch.get_default_device())
print(torch.ones(2), torch.rand(1), torch.get_default_device(), m(torch.empty(4, 3, device='meta')))
""")


def test_device_checks_of_ops_mixing_meta_and_cpu():
    # PyTorch: addmm checks self against mat1 (so a meta Linear on a CPU input), mv/dot/cat/stack/mse_loss/
    # layer_norm check every tensor against the first one
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(5, 3); xm = x.to('meta'); w = torch.ones(2, 3, device='meta'); b = torch.ones(2, device='meta')
E(lambda: torch.nn.Linear(3, 2).to('meta')(x)); E(lambda: F.linear(x, w, b)); E(lambda: F.linear(xm, w, torch.ones(2)))
E(lambda: torch.addmm(b, x, w.t())); E(lambda: torch.addmm(torch.ones(2), xm, w.t()))
print(torch.addmm(b, xm, torch.ones(3, 2)), F.linear(xm, torch.ones(2, 3), b))
E(lambda: torch.addmv(torch.ones(5), xm, torch.ones(3, device='meta')))
E(lambda: torch.mv(x, torch.ones(3, device='meta'))); E(lambda: torch.mv(xm, torch.ones(3)))
E(lambda: torch.dot(torch.ones(3), torch.ones(3, device='meta')))
E(lambda: torch.vdot(torch.ones(3), torch.ones(3, device='meta')))
E(lambda: torch.cat([x, xm])); E(lambda: torch.cat([xm, xm, x])); E(lambda: torch.stack([xm, x]))
E(lambda: F.mse_loss(x, xm)); E(lambda: F.mse_loss(xm, x))
E(lambda: F.layer_norm(x, (3,), torch.ones(3, device='meta'))); E(lambda: F.layer_norm(xm, (3,), torch.ones(3)))
E(lambda: F.layer_norm(x, (3,), None, torch.ones(3, device='meta')))
print(F.layer_norm(xm, (3,), torch.ones(3, device='meta')), F.layer_norm(xm, (3,)))
""")


def test_random_fills_of_meta_tensors_draw_nothing():
    # PyTorch: reset_parameters() of a meta module and in-place samplers on meta tensors leave the generator alone
    same_as_torch("""
torch.manual_seed(0)
m = torch.nn.Linear(2, 2).to('meta'); m.reset_parameters()
print(torch.rand(1))
x = torch.empty(3, device='meta')
g = torch.Generator().manual_seed(1)
for fill in [lambda: x.uniform_(), lambda: x.normal_(generator=g), lambda: x.exponential_(), lambda: x.cauchy_(),
             lambda: x.log_normal_(), lambda: x.bernoulli_(0.5), lambda: x.geometric_(0.5), lambda: x.random_(5),
             lambda: torch.nn.init.kaiming_uniform_(x[None])]:
    print(fill().shape)
print(torch.rand(1), torch.rand(1, generator=g))
torch.manual_seed(0)
y = torch.nn.functional.dropout(torch.ones(2, 3, device='meta', requires_grad=True))
print(y, y.grad_fn.name(), torch.nn.functional.dropout(torch.ones(2, 3, device='meta'), p=1.), torch.rand(1))
""")


def test_ops_without_a_meta_kernel_refuse_meta_tensors():
    # PyTorch: nonzero (so argwhere, where(c), a boolean mask), masked_select, unique, bincount and equal have no
    # meta kernel; allclose and one_hot (without num_classes) read .item(); count_nonzero/searchsorted stay meta
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(2, 3, device='meta'); i = torch.tensor([1, 0, 2], device='meta')
E(lambda: torch.nonzero(torch.empty(2, device='meta'))); E(lambda: torch.nonzero(x, as_tuple=True))
E(lambda: torch.argwhere(x)); E(lambda: torch.where(x > 0)); E(lambda: x[x > 0]); E(lambda: x[0, x[0] > 0])
E(lambda: torch.masked_select(x, x > 0)); E(lambda: torch.unique(i)); E(lambda: torch.unique(x, dim=0))
E(lambda: torch.bincount(i)); E(lambda: torch.equal(x, x)); E(lambda: torch.allclose(x, x))
E(lambda: F.one_hot(i))
x[x > 0] = 1.
print(x[torch.tensor([[True, False, True], [True, True, True]])], F.one_hot(i, 4), torch.count_nonzero(x))
print(torch.searchsorted(torch.arange(3., device='meta'), x), torch.bucketize(x, torch.arange(3., device='meta')))
""")


def test_storages_of_tensors_without_data():
    # PyTorch: a ZeroTensor's storage has no memory (reading it, or its data pointer, raises); a meta tensor's is on
    # the meta device and prints "..."; the tensors' data_ptr() is a null pointer plus the view's offset
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')   # (TypedStorage's deprecation)
for t in (torch._efficientzerotensor(3), torch.empty(3, device='meta'), torch._efficientzerotensor(2, 2)[1:]):
    s = t.untyped_storage()
    print(s.nbytes(), len(s), s.device, t.data_ptr(), t.storage_offset())
    E(lambda: print(s)); E(lambda: s.data_ptr()); E(lambda: s.tolist()); E(lambda: s[0]); E(lambda: bytes(s))
    ts = t.storage()
    print(ts.size(), ts.device)
    E(lambda: print(ts)); E(lambda: ts.data_ptr()); E(lambda: ts.tolist()); E(lambda: ts[0])
z = torch._efficientzerotensor(2, 2)
print(z[:, 1].data_ptr(), z.t()[1].data_ptr(), torch.empty(2, 2, device='meta')[1:].data_ptr())
""")
