"""The changes of #8 round 24 (bench/PROFILE.md).

1. ``engine.run_backward`` pops from and pushes onto a ready queue of two nodes inline (a layer's backward: its
   input's node and a weight's AccumulateGrad), without ``_ReadyQueue.pop`` / ``push`` and their sift: the node
   taken and the queue left must be those of the heap functions (PyTorch's order, ties of AccumulateGrad nodes
   included), which shows in the order nodes and hooks run.
2. ``Tensor._make``, ``Op._run`` and the hot formulas read ``object.__new__``, ``np.ndarray`` and ``Tensor._make``
   through module names (CPython 3.11 cannot specialize those attribute reads): the same objects, so the same
   tensors.

The orders are compared with PyTorch's by running the same program under both libraries.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import same_as_torch

import minigrad
from minigrad import _dispatch, _tensor, derivatives
from minigrad.autograd import engine

# Every node logs its name when it runs (a pre-hook), every leaf when its gradient arrives (a tensor hook).
LOG = """
order = []
def log_graph(root, leaves):
    seen, stack = set(), [root.grad_fn]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        if type(n).__name__ != "AccumulateGrad":
            n.register_prehook(lambda g, name=n.name(): order.append(name))
        stack += [m for m, _ in n.next_functions]
    for name, t in leaves.items():
        t.register_hook(lambda g, name=name: order.append(name))
"""


def test_w4_mlp_runs_nodes_and_leaves_in_pytorchs_order():
    # Each layer's backward leaves two nodes ready (the layer input's node and the weight's AccumulateGrad): the
    # queue of two taken inline. PyTorch runs AccumulateGrad first (sequence number UINT64_MAX).
    same_as_torch(LOG + """
torch.manual_seed(0)
x, y = torch.randn(5, 2), torch.randn(5, 1)
p = {}
for i, (m, n) in enumerate([(2, 4), (4, 4), (4, 1)]):
    p[f"W{i}"] = torch.randn(m, n).requires_grad_()
    p[f"b{i}"] = torch.zeros(n).requires_grad_()
h = (x.matmul(p["W0"]) + p["b0"]).tanh()
h = (h.matmul(p["W1"]) + p["b1"]).tanh()
loss = ((h.matmul(p["W2"]) + p["b2"] - y) ** 2).mean()
log_graph(loss, p)
loss.backward()
print(order)
""")


@pytest.mark.parametrize("program", [
    # four leaves of one node: ties of AccumulateGrad nodes in the queue (libstdc++'s heap order)
    "out = torch.stack([a, b, c, d]).sum()",
    "out = (a * b + c * d).sum()",
    "out = (a + b + c + d).sum()",
    # a diamond and wider fan-outs: queues of 1, 2, 3 and more nodes in turn
    "y = a * 2\nout = (y.sin() + y.cos() + y.exp() * b).sum()",
    "y = torch.cat([a, b, c])\nout = (y * y.tanh() + d.sum() * y).sum() + (a * c).sum()",
    "y = a.exp()\nz = (y * b).tanh()\nout = (z * c + y * d + z * y).sum()",
])
def test_graphs_run_nodes_and_leaves_in_pytorchs_order(program):
    same_as_torch(LOG + """
torch.manual_seed(0)
a, b, c, d = (torch.randn(3).requires_grad_() for _ in range(4))
""" + program + """
log_graph(out, {"a": a, "b": b, "c": c, "d": d})
out.backward()
print(order)
print([None if t.grad is None else t.grad.tolist() for t in (a, b, c, d)])
""")


def test_w4_mlp_gradients_equal_pytorch_bits():
    # the W4 step (bench/workloads.py), two steps: every gradient bit for bit (float32 values as Python floats)
    same_as_torch("""
torch.manual_seed(0)
x, y = torch.randn(100, 2), torch.randn(100, 1)
p = {}
for i, (m, n) in enumerate([(2, 16), (16, 16), (16, 1)]):
    p[f"W{i}"] = (torch.randn(m, n) / m ** 0.5).requires_grad_()
    p[f"b{i}"] = torch.zeros(n).requires_grad_()
for step in range(2):
    h = (x.matmul(p["W0"]) + p["b0"]).tanh()
    h = (h.matmul(p["W1"]) + p["b1"]).tanh()
    loss = ((h.matmul(p["W2"]) + p["b2"] - y) ** 2).mean()
    loss.backward()
    for k, t in p.items():
        print(k, t.grad.dtype, t.grad.shape, t.grad._version, t.grad.flatten().tolist())
        t.grad = None
""")


def test_engine_queue_of_two_matches_the_heap_functions(monkeypatch):
    # The inline queue of two never calls _ReadyQueue.pop/push; with them counted, a W4-style backward calls
    # neither, and a queue of three or more still goes through them.
    calls = []
    pop, push = engine._ReadyQueue.pop, engine._ReadyQueue.push
    monkeypatch.setattr(engine._ReadyQueue, "pop", lambda self: calls.append("pop") or pop(self))
    monkeypatch.setattr(engine._ReadyQueue, "push", lambda self, node: calls.append("push") or push(self, node))
    w = minigrad.randn(3, 3).requires_grad_()
    b = minigrad.zeros(3).requires_grad_()
    (minigrad.randn(2, 3).matmul(w) + b).tanh().sum().backward()
    assert calls == ["push"]  # (the root, pushed before the loop)
    calls.clear()
    a, c, d = (minigrad.randn(3).requires_grad_() for _ in range(3))
    minigrad.stack([a, c, d]).sum().backward()
    assert "pop" in calls and calls.count("push") > 1
    assert np.array_equal(a.grad.numpy(), np.ones(3, np.float32))


def test_module_names_are_the_objects_they_stand_for():
    assert _tensor._new_object is object.__new__
    assert _dispatch._ndarray is np.ndarray
    assert _dispatch._make_tensor == minigrad.Tensor._make and derivatives._make_tensor == minigrad.Tensor._make
    t = _dispatch._make_tensor(np.arange(3.0))
    assert type(t) is minigrad.Tensor and t._version == 0 and not t.requires_grad and t.grad_fn is None
