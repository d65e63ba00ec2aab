"""Session 22 leftovers: meta tensors cost no memory (factories, layers built on the meta device, ``x.to('meta')``,
deep copies, ops computing only their results' shapes, dtypes and strides, backward and optimizer steps included);
the printed classes of the profiler, layouts and a few helpers; untyped storages' indexing and slicing; a profile
entered inside another; op nodes refusing weak references and calls.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_meta_factories_cost_no_memory():
    # PyTorch: a meta tensor has sizes and strides but no memory, however large (minigrad used to allocate it
    # on the CPU: a MemoryError at 40 GB); views keep their strides and storage offsets
    same_as_torch("""
x = torch.empty(10**5, 10**5, device='meta')
print(x, x.stride(), x.is_contiguous(), x.t().is_contiguous(), x[3:, 1].stride(), x[3:, 1].storage_offset())
print(torch.empty_strided((10**5, 10**5), (1, 10**5), device='meta').stride())
print(torch.empty(1000, 1000, 100, 100, device='meta', memory_format=torch.channels_last).stride())
print(torch.full((10**5, 10**5), 2, device='meta').dtype, torch.randn(10**5, 10**5, device='meta', requires_grad=True))
print(torch.zeros(10**5, 10**5, device='meta', dtype=torch.float64).dtype, torch.ones((10**5, 10**5), device='meta'))
y = torch.zeros(1).expand(10**5, 10**5).to('meta')
print(y.stride(), y.is_meta, torch.ones(4, 3).t().to('meta').stride())
""")


def test_meta_layers_are_built_without_memory():
    # PyTorch: layers built on the meta device allocate nothing and draw nothing (minigrad built them on the CPU
    # first: 40 GB for this Linear); to_empty gives them CPU memory; a deep copy stays on the meta device
    same_as_torch("""
torch.manual_seed(0)
with torch.device('meta'):
    m = torch.nn.Linear(10**5, 10**5)
print(m, m.weight.stride(), m.weight.is_meta, m.bias.shape)
e = torch.nn.Embedding(10**6, 10**5, padding_idx=0, device='meta')
c = torch.nn.Conv2d(10**4, 10**4, 30, device='meta')
print(e.weight.shape, e.weight.is_meta, c.weight.stride(), torch.rand(2))
m = torch.nn.Linear(300, 200, device='meta').to_empty(device='cpu')
print(m.weight.shape, m.weight.device, m.weight.is_meta)
import copy
c = copy.deepcopy(torch.nn.Linear(10**5, 10**5, device='meta'))
x = torch.empty(3, 2, device='meta', requires_grad=True)
x.grad = torch.empty(3, 2, device='meta')
print(c.weight, copy.deepcopy(x), copy.deepcopy(x).grad)
""")


def test_ops_on_meta_tensors_compute_nothing():
    # PyTorch: ops on meta tensors (elementwise ones, products, reductions, their backward, .grad accumulating)
    # give meta results of the right shape, dtype and strides, computing nothing
    same_as_torch("""
x = torch.empty(10**5, 10**5, device='meta', requires_grad=True)
y = (x * 2).exp().t() + 1
y.sum().backward()
print(y.shape, y.stride(), y.grad_fn, x.grad.shape, x.grad.stride(), x.grad.is_meta)
w = torch.empty(10**5, 10**5, device='meta', requires_grad=True)
z = (w @ x).relu()
z.mean().backward()
print(z.stride(), w.grad.stride(), x.grad.shape, x.grad.is_meta)
m = torch.nn.Linear(10**5, 10**5, device='meta')
out = m(torch.randn(8, 10**5, device='meta', requires_grad=True))
out.sum().backward()
print(out, m.weight.grad.is_meta, m.bias.grad.device, torch.bmm(x[None], x.t()[None]).stride())
print(x.clone().stride(), x.t().contiguous().stride(), x.t().clone(), x.contiguous().grad_fn)
c = torch.empty(4, 3, 5, 6, device='meta')
print(c.permute(0, 2, 3, 1).contiguous().stride(), c.clone(memory_format=torch.channels_last).stride())
a = torch.empty(300, 200, device='meta'); b = torch.empty(200, device='meta', dtype=torch.float64)
for r in [a + 1, a.t() * 2, a + b, a > 0, torch.where(a > 0, a, b), a.t().add_(1), a @ a.t(), a.sum(0),
          torch.frexp(a)[0], a.float().half() + 1, a.expand(2, 300, 200) * a, a.int() // 2]:
    print(r.shape, r.dtype, r.stride(), r.is_meta)
""")


def test_printed_classes_of_profiler_layouts_and_helpers():
    # PyTorch: print(type(obj)) names these classes under torch (minigrad's printed their minigrad module)
    same_as_torch("""
import torch.nn.utils.rnn as R
x = torch.ones(2, requires_grad=True)
with torch.autograd.profiler.profile() as p:
    (x * x).sum()
print(type(p), type(p.function_events), type(p.function_events[0]), type(p.key_averages()[0]))
print(torch.profiler.profile, type(torch.strided), type(torch.contiguous_format), torch.strided, torch.channels_last)
print(type(R.pack_sequence([torch.ones(2)])), torch.nn.Buffer, type(torch.nn.Buffer(torch.ones(1))))
print(torch.serialization.safe_globals, torch.nn.modules.lazy.LazyModuleMixin, torch.distributions.utils.lazy_property)
print(isinstance(torch.nn.Buffer(torch.ones(1)), torch.nn.Buffer), R.PackedSequence.__name__)
print(type(torch.strided).__name__)
""")


def test_untyped_storage_indexing_and_slicing():
    # PyTorch: an index out of range (wrapped once if negative) is an IndexError naming the storage's size; a slice
    # is a storage sharing those bytes (step 1 only); TypedStorage refuses slices and non-int indices
    same_as_torch("""
s = torch.tensor([]).untyped_storage()
E(lambda: s[0]); E(lambda: s[-1]); print(s[0:0], len(s), s.nbytes(), s)
t = torch.tensor([1., 2.]).untyped_storage()
E(lambda: t[8]); E(lambda: t[-9]); E(lambda: t[::2]); E(lambda: t[1.5]); E(lambda: t[True]); E(lambda: t[None])
print(t[-1], t[7], t[2:1], t[100:], t[2:5].nbytes(), t[4:8].data_ptr() - t.data_ptr(), t[4:8].tolist())
print(torch.UntypedStorage(0), len(torch.UntypedStorage(3)))
E(lambda: torch.UntypedStorage(3)[3]); E(lambda: torch.empty(3, device='meta').untyped_storage()[0:4])
import warnings
warnings.simplefilter('ignore')
ts = torch.tensor([1., 2.]).storage()
E(lambda: ts[-9]); E(lambda: ts[2]); E(lambda: ts[1.]); E(lambda: ts[0:1]); E(lambda: ts[True])
print(ts[-1], ts[0])
E(lambda: torch.tensor([]).storage()[0])
""")


def test_profile_entered_inside_another_takes_over():
    # PyTorch: the inner profile records; the outer one finishes empty and nothing after the inner's exit is
    # recorded (minigrad raised "Profiler is already enabled on this thread")
    same_as_torch("""
x = torch.ones(2, requires_grad=True)
with torch.autograd.profiler.profile() as outer:
    y = x * 2
    with torch.autograd.profiler.profile() as inner:
        z = y * y
    w = z.exp()
    print(len(outer.function_events))
print([e.name for e in inner.function_events], [e.name for e in outer.function_events])
with torch.autograd.profiler.profile() as outer:
    with torch.autograd.profiler.record_function("blk"):
        with torch.autograd.profiler.profile() as inner:
            z = y.exp()
    with torch.autograd.profiler.profile() as inner2:
        z = y.sin()
print([e.name for e in inner.function_events], [e.name for e in inner2.function_events], outer.function_events)
with torch.autograd.profiler.profile() as p:
    x.exp()
print([e.name for e in p.function_events])
""")


def test_op_nodes_refuse_weak_references_and_calls():
    # PyTorch: a C++ node (AddBackward0 ...) takes no weak reference, has no __dict__ and cannot be made by calling
    # its class; a custom Function's node, a Python object, takes both weak references and attributes
    same_as_torch("""
import weakref
x = torch.ones(2, requires_grad=True)
n = (x + 1).grad_fn
E(lambda: weakref.ref(n)); E(lambda: weakref.ref((x * 2).grad_fn)); E(lambda: n.__weakref__)
E(lambda: setattr(n, 'foo', 1)); E(lambda: vars(n)); E(lambda: type(n)())
print(type(n).__name__, type(n).__qualname__, type(n).__module__, isinstance(n, torch.autograd.graph.Node))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
m = F.apply(x).grad_fn
print(weakref.ref(m)() is m, type(m))
m.foo = 1
print(m.foo)
y = x.clone(); v = y[0]; v.exp_(); y.sum().backward()
print(x.grad, torch.autograd.graph.get_gradient_edge(y).node)
""")


def test_optimizer_steps_on_meta_parameters_compute_nothing():
    # PyTorch: a step on meta parameters computes nothing and makes meta state (momentum buffers, Adam's moments,
    # Adagrad's sums: minigrad made CPU arrays of the parameter's size, 40 GB here), the step count on the CPU
    same_as_torch("""
for make in [lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9), lambda ps: torch.optim.Adam(ps, lr=0.1),
             lambda ps: torch.optim.AdamW(ps), lambda ps: torch.optim.RMSprop(ps, momentum=0.5),
             lambda ps: torch.optim.Adagrad(ps)]:
    m = torch.nn.Linear(10**5, 10**5, device='meta')
    opt = make(m.parameters())
    for _ in range(2):
        m(torch.randn(4, 10**5, device='meta')).sum().backward()
        opt.step()
    print(type(opt).__name__, m.weight._version, m.weight, opt.state[m.weight], opt.state[m.bias])
""")
