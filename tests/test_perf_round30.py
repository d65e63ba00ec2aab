"""The changes of #8 round 30 (bench/PROFILE.md): per-thread flags read in C, the engine's grad mode handed to nodes.

1. ``_per_thread.PerThreadFlag`` is a one-item deque, not a list: a deque subclass keeps deque's C ``__getitem__``
   (a list subclass gets CPython's generic slot, which looks ``__getitem__`` up per read). The flags must still read,
   set, compare and print as before, and stay per thread once set.
2. The engine runs a node through ``Node._apply_in_mode(grads, grad_mode)`` with the grad mode it set for the node,
   so ``OpNode`` does not read the per-thread state per node; ``OpNode._apply`` (other callers) still reads it. The
   create_graph order of two-input formulas (PyTorch's alphabetical order) must still be taken under create_graph.
"""
from __future__ import annotations

import threading
from collections import deque

import pytest
from parity import same_as_torch

import minigrad
from minigrad import _dispatch, _vmap_batched
from minigrad._per_thread import PerThreadFlag


def test_flag_reads_through_deques_c_getitem():
    # (a flag no thread has set reads through deque's own slot, not a looked-up __getitem__; DEPTH itself may have
    # been set by an earlier test's vmap: then it reads through its thread's value)
    assert isinstance(_vmap_batched.DEPTH, deque)
    flag = PerThreadFlag(0)
    assert type(flag).__getitem__ is deque.__getitem__ and flag[0] == 0


def test_flag_reads_sets_compares_and_prints_as_a_one_item_list():
    flag = PerThreadFlag(0)
    assert (flag[0], flag, repr(flag), len(flag)) == (0, [0], "[0]", 1)
    flag[0] += 2
    assert (flag[0], flag, repr(flag)) == (2, [2], "[2]")
    with pytest.raises(TypeError):
        hash(flag)


def test_flag_stays_per_thread_once_set():
    flag = PerThreadFlag(False)
    seen = []

    def other():
        seen.append(flag[0])   # (a thread that never set it reads the initial value)
        flag[0] = "other"
        seen.append(flag[0])
    flag[0] = True
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == [False, "other"]
    assert flag[0] is True


def test_engine_applies_op_nodes_in_its_grad_mode(monkeypatch):
    # the engine's fast path passes the node's grad mode: OpNode._apply (which reads the per-thread state) is not
    # called in a plain backward, yet a direct call of a node still works
    calls = []
    apply = _dispatch.OpNode._apply
    monkeypatch.setattr(_dispatch.OpNode, "_apply", lambda self, g: calls.append(self.name()) or apply(self, g))
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3.0 + x
    y.sum().backward()
    assert calls == [] and x.grad.tolist() == [4.0, 4.0]
    z = x * x
    assert z.grad_fn(minigrad.ones(2))[0].tolist() == [1.0, 2.0]
    assert calls == ["MulBackward0"]


def test_create_graph_keeps_pytorchs_formula_order():
    # PyTorch: under create_graph mul's formulas run in its inputs' alphabetical order (other, then self), so the
    # double-backward graph's nodes are numbered in that order; the second derivatives follow
    same_as_torch("""
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0], requires_grad=True)
y = (x * w + x * 2.0).tanh().sum()
gx, gw = torch.autograd.grad(y, (x, w), create_graph=True)
print(gx, gw)
print(gx.grad_fn, gx.grad_fn.next_functions)
(gx.sum() + gw.sum()).backward()
print(x.grad, w.grad)
with torch.no_grad():
    z = x * w
print(z.requires_grad, torch.is_grad_enabled())
""")


def test_engine_keeps_the_gradient_versions_of_versioned_nodes():
    # PyTorch: max's and sort's backward fill zeros then scatter_ (version 2), copysign's other a zeros_like filled
    # in place (version 1); index_select's index_add_ into zeros (1), added into .grad in place (2); these nodes'
    # ``_apply`` is _apply_versioned, which the engine's call must still go through
    same_as_torch("""
x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
w = torch.tensor([-1.0, 2.0, 0.5], requires_grad=True)
(x.max() + x.index_select(0, torch.tensor([0, 2])).sum() + x.copysign(w).sum()).backward()
print(x.grad, x.grad._version, w.grad, w.grad._version)
y = x.detach().requires_grad_()
y.sort().values.sum().backward()
print(y.grad, y.grad._version)
""")
