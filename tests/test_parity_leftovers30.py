"""Session 30 leftovers: which of mm's two gradient formulas reports its error first (after a saved-tensor unpack
hook), baddbmm with nothing to multiply and batch2 of another dtype, set_(tensor, offset, size) counting from the
tensor's own offset, forward_ad._current_level and make_dual/unpack_dual inside vmap, the __mro__ and __bases__ of
torch.autograd.graph.Node and of a custom Function's node class.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_mm_backward_reports_mat2_formula_error_first():
    # PyTorch's MmBackward0 runs mat2's formula before self's (the yaml keys sorted): with an unpack hook giving
    # both saved matrices another dtype or shape, its error is mat2's; minigrad ran self's first
    same_as_torch("""
import torch.autograd.graph as g
x = torch.ones(2, 3, requires_grad=True)
w = torch.ones(3, 4, requires_grad=True)
for unpack in (lambda t: t.double(), lambda t: t.t(), lambda t: t[:1]):
    with g.saved_tensors_hooks(lambda t: t, unpack):
        y = torch.mm(x, w)
    E(lambda: y.sum().backward())
with g.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
    y = torch.mm(x, w)
E(lambda: torch.autograd.grad(y.sum(), w))   # (self's formula not wanted: mat2's alone runs)
E(lambda: torch.autograd.grad(y.sum(), x))
""")


def test_baddbmm_empty_product_skips_batch2_dtype_check():
    # With nothing to multiply (k = 0, or an empty result) PyTorch's kernel returns before it reads batch2: no
    # "expected scalar type" error, the result takes batch2's dtype (beta·input, mul_'s errors for beta)
    same_as_torch("""
def r(t):
    print(t.dtype, t.shape, t.sum().item(), t.grad_fn)
M, b1 = torch.ones(2, 3, 4), torch.ones(2, 3, 0)
for b2 in (torch.ones(2, 0, 4, dtype=torch.float64), torch.ones(2, 0, 4, dtype=torch.int64),
           torch.ones(2, 0, 4, dtype=torch.complex64), torch.ones(2, 0, 4, dtype=torch.bool)):
    E(lambda: r(torch.baddbmm(M, b1, b2)))
    E(lambda: r(torch.baddbmm(M, b1, b2, beta=0)))
    E(lambda: r(torch.baddbmm(M, b1, b2, beta=2.5)))
E(lambda: r(torch.baddbmm(torch.ones(2, 0, 4), torch.ones(2, 0, 3), torch.ones(2, 3, 4, dtype=torch.float64))))
E(lambda: r(torch.baddbmm(torch.full((3, 4), float('nan')), b1, torch.ones(2, 0, 4, dtype=torch.float64), beta=0)))
E(lambda: r(torch.baddbmm(M, torch.ones(2, 3, 2), torch.ones(2, 2, 4, dtype=torch.float64))))   # (still refused)
E(lambda: r(torch.baddbmm(M, b1.double(), torch.ones(2, 0, 4))))                                 # (input vs batch1)
E(lambda: r(torch.bmm(b1, torch.ones(2, 0, 4, dtype=torch.float64))))
M = torch.ones(2, 3, 4, requires_grad=True)
b1 = torch.ones(2, 3, 0, requires_grad=True)
b2 = torch.ones(2, 0, 4, dtype=torch.float64, requires_grad=True)
y = torch.baddbmm(M, b1, b2, beta=2)
r(y)
y.sum().backward()
print(M.grad.dtype, M.grad.sum().item(), b1.grad.dtype, b1.grad.shape, b2.grad.dtype, b2.grad.shape)
""")


def test_set_tensor_window_counts_from_its_offset():
    # set_(tensor, offset, size, stride) is set_(tensor's storage, offset + tensor.storage_offset(), ...), and the
    # tensor must be contiguous; minigrad counted the offset from the storage's start and took any tensor
    same_as_torch("""
def r(t):
    print(t.shape, t.stride(), t.storage_offset(), t.tolist())
S = lambda: torch.arange(6.)
E(lambda: r(torch.empty(0).set_(S()[2:], 1, (3,))))
E(lambda: r(torch.empty(0).set_(S()[2:], 0, (2,), (2,))))
E(lambda: r(torch.empty(0).set_(S()[1:4], 2, (3,), (1,))))
E(lambda: r(torch.empty(0).set_(S()[1:4], -1, (3,), (1,))))
E(lambda: r(torch.empty(0).set_(S()[1:4], -2, (3,), (1,))))
E(lambda: r(torch.empty(0).set_(S()[::2], 0, (2,))))
E(lambda: r(torch.empty(0).set_(S().reshape(2, 3).t(), 0, (2,))))
E(lambda: r(torch.empty(0).set_(S()[::2], 0, (2,), (1, 1))))   # (contiguity first)
E(lambda: r(torch.empty(0, dtype=torch.int64).set_(S()[::2], 0, (2,))))
E(lambda: r(torch.empty(0).set_(S()[::2])))                    # (a whole tensor: any layout)
E(lambda: r(torch.empty(0).set_(S()[2:].untyped_storage(), 1, (3,))))   # (a storage: from its start)
""")


def test_forward_ad_current_level():
    # PyTorch's module global: -1, the level's index inside dual_level (torch.func.jvp's too)
    same_as_torch("""
import torch.autograd.forward_ad as fwAD
print(fwAD._current_level)
with fwAD.dual_level() as level:
    print(level, fwAD._current_level)
print(fwAD._current_level)
print(torch.func.jvp(lambda x: (print(fwAD._current_level), x * 2)[1], (torch.ones(2),), (torch.ones(2),)))
fwAD.enter_dual_level()
print(fwAD._current_level)
fwAD.exit_dual_level()
print(fwAD._current_level)
""")


def test_make_dual_and_unpack_dual_inside_vmap():
    # vmap has no batching rule for the view ops _make_dual/_unpack_dual: refused when an argument is batched;
    # torch.func.jvp inside vmap (jacfwd) and autograd.functional's vectorized forward-mode jacobian still work
    same_as_torch("""
import torch.autograd.forward_ad as fwAD
def g(x, t):
    with fwAD.dual_level():
        return fwAD.unpack_dual(fwAD.make_dual(x, t).sin()).tangent
E(lambda: print(torch.vmap(g)(torch.arange(6.).reshape(2, 3), torch.ones(2, 3))))
E(lambda: print(torch.vmap(g, in_dims=(None, 0))(torch.arange(3.), torch.ones(2, 3))))
E(lambda: print(torch.vmap(g, in_dims=(0, None))(torch.arange(6.).reshape(2, 3), torch.ones(3))))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(3), torch.ones(3))
    E(lambda: print(torch.vmap(lambda x: fwAD.make_dual(torch.ones(3), torch.ones(3)) * x)(torch.ones(2, 3))))
    E(lambda: print(torch.vmap(lambda x: fwAD.unpack_dual(x))(d.expand(2, 3))))
    E(lambda: print(torch.vmap(lambda x: fwAD.unpack_dual(d * x).tangent)(torch.ones(2, 3))))
E(lambda: print(torch.vmap(lambda x: fwAD.unpack_dual(x).tangent)(torch.ones(2, 3))))
f = lambda x: x.sin() * 2
x = torch.arange(3.)
print(torch.func.jacfwd(f)(x))
print(torch.vmap(lambda t: torch.func.jvp(f, (x,), (t,))[1])(torch.eye(3)))
print(torch.autograd.functional.jacobian(f, x, vectorize=True, strategy="forward-mode"))
print(torch.func.hessian(f)(x))
""")


def test_node_mro_shows_abc():
    # PyTorch's Node is an abc.ABC its nodes do not derive from: Node's __mro__ and __bases__ show abc.ABC, a custom
    # Function's node class shows no Node (isinstance still holds)
    same_as_torch("""
from torch.autograd.graph import Node
print(type(Node), Node.__mro__, Node.__bases__)
class MyNode(Node):
    pass
print(MyNode.__mro__, MyNode.__bases__)
x = torch.ones(2, requires_grad=True)
y = x * 2
print(type(y.grad_fn).__mro__, type(y.grad_fn.next_functions[0][0]).__mro__, isinstance(y.grad_fn, Node))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1
    @staticmethod
    def backward(ctx, g):
        return g
w = F.apply(x)
print(type(w.grad_fn).__mro__, type(w.grad_fn).__bases__, isinstance(w.grad_fn, Node))
print(torch.autograd.function.BackwardCFunction.__mro__, torch.autograd.function.BackwardCFunction.__bases__)
print(type(type(w.grad_fn)), w.grad_fn.name(), type(w.grad_fn).name)
w.sum().backward()
print(x.grad)
""")
