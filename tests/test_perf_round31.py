"""The changes of #8 round 31 (bench/PROFILE.md).

1. ``OpNode._release_variables`` frees a node's saved numbers in the same loop as its saved tensors and makes the
   new ``_saved`` tuple once (it rebuilt the tuple per freed number). After a backward without retain_graph every
   saved number, tensor and tensor argument must still refuse to be read (PyTorch's "backward through the graph a
   second time" error), with retain_graph they must stay readable, and ``_saved`` must stay a tuple.
2. The engine passes the node's tuple of next nodes to ``OpNode._apply_in_mode`` (which built it again).
3. The engine reads a node's ``_next_nrs`` once per node.
"""
from __future__ import annotations

from parity import same_as_torch

import minigrad


def test_saved_numbers_and_tensors_freed_after_backward():
    # one number (mul, div), a number next to a saved tensor (pow, xlogy, clamp), a number read before backward
    # (wrapped once) and a node that saved two tensors: each saved value refuses to be read after backward
    same_as_torch("""
x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
outs = [x * 1.5, x / 3.0, x ** 2.0, torch.xlogy(x, 2.0), x.clamp(0.6, 2.0), x * y, x * 2, x * 1.5]
read = outs[-1].grad_fn._saved_other   # (read before backward: the number wrapped into the tensor PyTorch saved)
print(read, read.dtype)
for o in outs:
    n = o.grad_fn
    names = [a for a in dir(n) if a.startswith("_saved_")]
    print(type(n).__name__, names, [getattr(n, a) for a in names])
    o.sum().backward()
    for a in names:
        E(lambda: getattr(n, a))
    E(lambda: o.sum().backward())
print(x.grad, y.grad)
""")


def test_saved_values_kept_with_retain_graph():
    same_as_torch("""
x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
outs = [x * 1.5, x / 3.0, x ** 2.0, torch.xlogy(x, 2.0), x.clamp(0.6, 2.0), x * 2]
for o in outs:
    o.sum().backward(retain_graph=True)
    o.sum().backward()
    n = o.grad_fn
    for a in dir(n):
        if a.startswith("_saved_"):
            E(lambda: print(a, getattr(n, a)))
print(x.grad)
""")


def test_saved_tensor_arguments_freed_after_backward():
    # tensor arguments (a loss's target, index's indices) are freed too, through the same new tuple
    same_as_torch("""
import torch.nn.functional as F
x = torch.tensor([[0.5, 1.5, 2.5], [1.0, -1.0, 0.25]], requires_grad=True)
outs = [F.nll_loss(x.log_softmax(1), torch.tensor([0, 2])), x[torch.tensor([1, 0])], x[:, torch.tensor([2, 0])],
        F.cross_entropy(x, torch.tensor([1, 2]))]
for o in outs:
    n = o.grad_fn
    print(type(n).__name__, sorted(a for a in dir(n) if a.startswith("_saved_")))
    o.sum().backward()
    for a in dir(n):
        if a.startswith("_saved_"):
            E(lambda: print(a, getattr(n, a)))
    E(lambda: o.sum().backward())
print(x.grad)
""")


def test_freed_saved_stays_a_tuple():
    # the new saved values are built in a list and stored as a tuple (OpNode reads and slices it as one)
    x = minigrad.tensor([0.5, 1.5], requires_grad=True)
    y = x * 1.5
    z = x[minigrad.tensor([1, 0])]
    keep = (x * 2.0).grad_fn
    (y.sum() + z.sum()).backward()
    for node in (y.grad_fn, z.grad_fn):
        assert type(node._saved) is tuple and len(node._saved) == len(node._op.saved_names)
    assert keep._saved == (2.0, None)   # (a node not run keeps its number)


# 2. The engine hands a node's tuple of next nodes (which it builds for passing the gradients on) to
#    ``OpNode._apply_in_mode``, which built it again. Every way a node's gradients are chosen by its edges must still
#    work: ``autograd.grad(..., inputs=...)`` (only the edges toward an input), joint formulas (cat, stack), the
#    create_graph formula order, a node called by hand (``OpNode._apply``), versioned and custom Function nodes.

def test_next_nodes_from_the_engine_grad_with_inputs():
    same_as_torch("""
x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([[1.0, -1.0, 0.5]], requires_grad=True)
z = (x * y + torch.cat([x, y * 2.0]).sum() + torch.stack([x, y]).prod(0) + (w @ x.unsqueeze(1)).sum()).tanh()
print(torch.autograd.grad(z.sum(), [x], retain_graph=True))
print(torch.autograd.grad(z.sum(), [y, w], retain_graph=True))
print(torch.autograd.grad(z.sum(), [w, x, y], retain_graph=True))
z.sum().backward(inputs=[y], retain_graph=True)
print(x.grad, y.grad, w.grad)
gx, = torch.autograd.grad(z.sum(), [x], create_graph=True)
print(gx, gx.grad_fn)
gx.sum().backward()
print(x.grad, y.grad, w.grad)
""")


def test_next_nodes_from_the_engine_other_nodes():
    same_as_torch("""
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

x = torch.tensor([0.5, -1.5, 2.5], requires_grad=True)
s = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
y = Twice.apply(torch.copysign(x, s) * 3.0).tanh()
print(y.grad_fn(torch.ones(3)))                       # a node called by hand
E(lambda: print(y.grad_fn.next_functions[0][0](torch.ones(3))))
y.sum().backward()
print(x.grad, s.grad, x.grad._version)
u = torch.tensor([1.0, 2.0], requires_grad=True)
v = (u * u).sum() * (u + 1.0).prod()
gu, = torch.autograd.grad(v, u, create_graph=True)
h, = torch.autograd.grad(gu.sum(), u)
print(gu, h)
""")


# 3. The engine reads a node's ``_next_nrs`` once per node (for its tuple of next nodes and for handing the gradients
#    on). The gradients must still reach the right input of each next node: several roots (the GraphRoot's edges),
#    outputs of a multi-output node (edges with input numbers > 0), and a node whose edges include None.

def test_gradients_reach_the_right_input_numbers():
    same_as_torch("""
x = torch.tensor([0.5, 1.5, 2.5, -1.0], requires_grad=True)
a, b = x.split(2)
u, v = torch.unbind(x.view(2, 2), 1)
c = (a * 2.0 + b.tanh() * u + v * 3.0)
torch.autograd.backward([c.sum(), (b * v).sum(), a.prod()], [torch.tensor(1.0), torch.tensor(2.0), torch.tensor(-1.0)])
print(x.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0])
out = torch.stack([w * y, y + 1.0, w.exp()]).sum(0)
print(out.grad_fn.next_functions, torch.autograd.grad(out.sum(), w))
""")
