"""Session 23 leftovers: one-element integer tensors as the sizes of factories and as norm's dims, bool ones among a
``SymInt[]``; ``squeeze(None)``; the position in an error for an argument given by keyword to ``x.select``; lerp's
weight overflowing its compute type (or an int64); ``x._post_accumulate_grad_hooks``; the ``fill_``, ``copy_`` and
``resize_`` of untyped and typed storages.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_one_element_integer_tensor_as_a_factory_size():
    # PyTorch: a factory's sizes may start with a one-element integer tensor (is_int_or_symint: any dims, bool
    # too, whose item then fails); minigrad refused all but a 0-dim one ("must be tuple of ints, not Tensor")
    same_as_torch("""
print(torch.ones(torch.tensor([2])), torch.zeros(torch.tensor([[2]]), torch.tensor(3)).shape)
print(torch.empty(torch.tensor([2])).shape, torch.rand(torch.tensor([3])).shape, torch.zeros([torch.tensor([2]), 3]))
print(torch.ones(torch.tensor([2], dtype=torch.uint8), dtype=torch.int64))
print(torch.zeros(torch.tensor([2]), requires_grad=True))
E(lambda: torch.ones(torch.tensor([2, 3])))
E(lambda: torch.ones(torch.tensor([2.])))
E(lambda: torch.ones(torch.tensor([], dtype=torch.long)))
E(lambda: torch.ones(torch.tensor(True)))
E(lambda: torch.ones(torch.tensor([-1])))
E(lambda: torch.ones(size=torch.tensor([2])))
E(lambda: torch.full(torch.tensor([2]), 1.))
""")


def test_bool_tensor_in_symint_sizes():
    # PyTorch: a bool tensor among the sizes of a SymInt[] (view, reshape, expand, repeat, tile, new_zeros,
    # sum_to_size) fails when its item is read; an int[] (permute's dims, flip's) takes it as 0 or 1; minigrad
    # took it everywhere
    same_as_torch("""
x = torch.ones(1, 3)
tb, tb1 = torch.tensor(True), torch.tensor([True])
for f in [lambda: x.view(tb, 3), lambda: x.view(3, tb), lambda: x.view((tb1, 3)), lambda: x.reshape(tb, 3),
          lambda: x.expand(tb, 3), lambda: x.repeat(tb, 1), lambda: x.tile((tb,)), lambda: x.new_zeros(tb),
          lambda: x.sum_to_size(tb, 3), lambda: x.permute(tb, 0), lambda: x.flip(tb1),
          lambda: x.view(torch.tensor([3]))]:
    E(lambda: print(f().shape))
""")


def test_one_element_integer_tensor_as_norm_dim():
    # PyTorch: linalg.vector_norm's and linalg.norm's ``int[1]? dim`` take a one-element integer tensor, alone or in
    # a list; minigrad refused it ("must be tuple of ints, not Tensor", "iteration over a 0-d tensor")
    same_as_torch("""
x = torch.arange(6.).reshape(2, 3)
print(torch.norm(x, 1, torch.tensor([1])), torch.norm(x, dim=(torch.tensor([1]), 0)), x.norm(dim=torch.tensor([0])))
print(torch.linalg.vector_norm(x, 2, torch.tensor([1])), torch.linalg.vector_norm(x, 2, [0, torch.tensor([1])]))
print(torch.linalg.norm(x, dim=torch.tensor(1)), torch.linalg.norm(x, dim=torch.tensor([0])))
E(lambda: torch.norm(x, 1, [1.5]))
E(lambda: torch.norm(x, 1, [0, 1.5]))
E(lambda: torch.linalg.vector_norm(x, 2, torch.tensor([0, 1])))
E(lambda: torch.linalg.vector_norm(x, 2, [torch.tensor([0, 1])]))
E(lambda: torch.linalg.vector_norm(x, 2, torch.tensor([1.])))
""")


def test_squeeze_refuses_none():
    # PyTorch: no overload of squeeze / squeeze_ takes None for dim ("invalid combination", the call as made);
    # minigrad squeezed every dim
    same_as_torch("""
x = torch.ones(2, 1)
E(lambda: x.squeeze(None))
E(lambda: x.squeeze(dim=None))
E(lambda: torch.squeeze(x, None))
E(lambda: torch.squeeze(input=x, dim=None))
E(lambda: x.squeeze_(None))
E(lambda: x.squeeze_(dim=None))
print(x.shape, x.squeeze().shape, torch.squeeze(x).shape, torch.squeeze_copy(x).shape, x.squeeze(1).shape)
print(x.squeeze_().shape, x)
""")


def test_select_argument_given_by_keyword_has_no_position():
    # PyTorch: an argument given by keyword is named without a position; minigrad's method said "(position 1)"
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.select(dim=None, index=0))
E(lambda: x.select(0, index=None))
E(lambda: x.select(dim=0, index=1.5))
E(lambda: x.select(None, 0))
E(lambda: x.select(0, 1.5))
E(lambda: torch.select(x, dim=None, index=0))
""")


def test_lerp_weight_overflowing_its_compute_type():
    # PyTorch: the scalar weight is read as the kernel's compute type (float for float16/bfloat16/float32, double for
    # float64), refusing a finite value out of its range; minigrad returned infinities (and took any Python int)
    same_as_torch("""
a, b = torch.tensor([1., 2.]), torch.tensor([3., 4.])
for w in [1e40, -1e40, 4e38, 3e38, float('inf'), 1e10]:
    for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.complex64]:
        E(lambda: print(torch.lerp(a.to(dt), b.to(dt), w)))
E(lambda: a.lerp(b, 1e40))
E(lambda: a.clone().lerp_(b, 1e40))
E(lambda: torch.lerp(a, b, 1e40, out=torch.empty(2)))
E(lambda: torch.lerp(a.int(), b.int(), 1e40))
for w in [10**40, -10**40, 2**64 - 1, -2**63 - 1]:   # (a Python int is parsed as an int64, else a uint64)
    E(lambda: print(torch.lerp(a, b, w)))
E(lambda: torch.lerp(a, b.int(), 10**40))
""")


def test_post_accumulate_grad_hooks_attribute():
    # PyTorch: x._post_accumulate_grad_hooks is None, then an OrderedDict of handle id -> hook (minigrad had no
    # such attribute); x._backward_hooks likewise for register_hook
    same_as_torch("""
x = torch.ones(2, requires_grad=True)
print(x._post_accumulate_grad_hooks, x._backward_hooks)
h = x.register_post_accumulate_grad_hook(lambda t: print('post', t.grad))
h2 = x.register_hook(lambda g: g * 2)
print(type(x._post_accumulate_grad_hooks).__name__, list(x._post_accumulate_grad_hooks) == [h.id])
print(type(x._backward_hooks).__name__, list(x._backward_hooks) == [h2.id])
(x * 3).sum().backward()
h.remove(); h2.remove()
print(x._backward_hooks, x._post_accumulate_grad_hooks)
y = torch.ones(2, requires_grad=True)
y._post_accumulate_grad_hooks = {0: lambda t: print('set', t.grad)}
y.sum().backward()
""")


def test_untyped_storage_fill_copy_resize():
    # PyTorch: a storage's fill_ (an int, modulo 256), copy_ (another storage of as many bytes) and resize_ (the
    # bytes kept; NumPy's memory not resizable), with their argument errors; minigrad's storage had none of them
    same_as_torch("""
import numpy as np
x = torch.arange(4.)
s = x.untyped_storage()
print(s.fill_(0) is s, x)
s.fill_(1); print(x)
for v in [300, -1, True, 1.5, np.int64(3), None, torch.tensor(3)]:
    E(lambda: s.fill_(v).tolist()[:2])
E(lambda: s.fill_())
E(lambda: s.fill_(value=1))
print(s.copy_(torch.tensor([1., 2., 3., 4.]).untyped_storage()) is s, x)
s.copy_(torch.tensor([9, 9, 9, 9], dtype=torch.int32).untyped_storage()); print(x.view(torch.int32))
E(lambda: s.copy_(torch.ones(2).untyped_storage()))
E(lambda: s.copy_(torch.ones(2)))
E(lambda: s.copy_(None))
E(lambda: s.copy_())
E(lambda: s.copy_(s, 1))
E(lambda: s.copy_(s, non_blocking=True).nbytes())
w = torch.ones(3, requires_grad=True)
w.untyped_storage().fill_(0)
print(w, w._version)
t = torch.UntypedStorage(4).fill_(7)   # (the bytes a resize adds are uninitialised in PyTorch: not printed)
print(t.resize_(8) is t, t.nbytes(), t.resize_(2).tolist(), t.resize_(0).nbytes(), t.resize_(np.int64(3)).nbytes())
for n in [1.5, 'a', True, -1]:
    E(lambda: t.resize_(n))
E(lambda: t.resize_())
E(lambda: torch.ones(2).untyped_storage()[0:4].resize_(8))
z = torch.zeros(4)
z.untyped_storage()[4:8].fill_(0x3f)
print(z)
n = torch.from_numpy(np.ones(2)).untyped_storage()
for size in [32, 16, 8, -1, 1.5]:
    E(lambda: n.resize_(size))
a = torch.ones(2)
_ = a.numpy()
E(lambda: a.untyped_storage().resize_(16))
""")


def test_typed_storage_fill_copy_resize():
    # PyTorch: the deprecated TypedStorage's fill_ (converted as t[:] = value converts), copy_ (the bytes of a storage
    # of as many bytes) and resize_ (elements; returns None); minigrad's TypedStorage had none of them
    same_as_torch("""
x = torch.arange(4.)
s = x.storage()   # (its deprecation warning goes to stderr, which is not compared)
print(s.fill_(2) is s, x)
s.fill_(2.5); print(x)
E(lambda: s.fill_('a'))
print(s.copy_(torch.tensor([1., 2., 3., 4.]).storage()) is s, x)
E(lambda: s.copy_(torch.tensor([1, 2, 3, 4]).storage()))
E(lambda: s.copy_(torch.ones(2).storage()))
print(s.copy_(torch.full((4,), 7.).untyped_storage(), None).tolist(), x)
i = torch.arange(3).storage()
print(i.fill_(2.7).tolist(), i.fill_(True).tolist())
print(i.resize_(2), i.size(), i.tolist(), i.resize_(2), i.nbytes())
E(lambda: i.resize_(1.5))
E(lambda: i.resize_(-1))
""")
