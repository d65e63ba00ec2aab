"""The changes of #8 round 26 (bench/PROFILE.md): fewer per-thread and NumPy attribute accesses per op and node.

1. ``run_backward`` restores the pass's grad mode before each node through this thread's dict of the per-thread
   state (``threading.local``'s ``__dict__``, read once per pass) instead of setting the attribute per node. Each
   node must still run in the pass's grad mode (a hook or the garbage collector may switch it meanwhile), and two
   threads' passes must not see each other's mode.
2. ``Op.run_number`` (``tensor <op> python number``) reads grad mode only for a tensor that requires grad or is a
   view: backward's ``grad * number`` reads none. It must record exactly as before (a view whose base got a
   history in place since records, in grad mode only).
3. ``Op._record`` reads the output's shape and dtype once (for ``_input_metadata`` and ``_grads_fit``): whether the
   engine may skip its fix-up must stay the rule "every input has the result's shape and dtype" (mm and mean:
   the dtype only).
4. mm's per-layout plan carries α = 1 and β = 0 in the dtype's C type (no lookup by the result's dtype per call).

Behaviour is compared with PyTorch by running the same program under both libraries; the spies and the checks of
internal values fail on the tree before the round.
"""
from __future__ import annotations

import ctypes
import sys
import threading

import numpy as np
import pytest
from parity import same_as_torch

import minigrad
from minigrad import _matmul
from minigrad.autograd import grad_mode


class _Accesses(list):
    on = False  # (set while the accesses are collected)


@pytest.fixture
def spied(monkeypatch):
    """Reads and writes of the grad-mode state, as (kind, attribute, function) triples, while ``spied.on`` is set."""
    seen = _Accesses()

    def get(state, name):
        if seen.on and not name.startswith("__"):
            seen.append(("get", name, sys._getframe(1).f_code.co_name))
        return threading.local.__getattribute__(state, name)

    def set_(state, name, value):
        if seen.on:
            seen.append(("set", name, sys._getframe(1).f_code.co_name))
        threading.local.__setattr__(state, name, value)
    monkeypatch.setattr(grad_mode._State, "__getattribute__", get, raising=False)
    monkeypatch.setattr(grad_mode._State, "__setattr__", set_, raising=False)
    return seen


def _w4_loss():
    rng = np.random.default_rng(0)
    x = minigrad.from_numpy(rng.standard_normal((20, 2)).astype(np.float32))
    p = [minigrad.from_numpy(rng.standard_normal(s).astype(np.float32)).requires_grad_()
         for s in [(2, 8), (8,), (8, 8), (8,), (8, 1), (1,)]]
    h = (x.matmul(p[0]) + p[1]).tanh()
    h = (h.matmul(p[2]) + p[3]).tanh()
    return ((h.matmul(p[4]) + p[5]) ** 2).mean(), p


# ---- 1. the engine's per-node restore of grad mode ----------------------------------------------------------


def test_backward_sets_grad_mode_only_at_the_ends_of_the_pass(spied):
    loss, p = _w4_loss()
    spied.on = True
    loss.backward()
    spied.on = False
    writes = [s for s in spied if s[0] == "set"]
    # the pass's mode set, the final callbacks' and the caller's restored: none per node (17 nodes here)
    assert writes == [("set", "enabled", "run_backward")] * 3, writes
    assert all(t.grad is not None and t.grad.grad_fn is None for t in p)


def test_each_node_still_runs_in_the_passs_grad_mode():
    # PyTorch restores its graph task's grad mode before every node: a hook that leaves grad mode on makes only the
    # rest of its own node record; a hook that turns it off under create_graph does not stop the next nodes
    same_as_torch("""
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
seen = []
def leak_on(g):
    torch.set_grad_enabled(True)
def leak_off(g):
    torch.set_grad_enabled(False)
def look(g):
    seen.append((torch.is_grad_enabled(), g.requires_grad))
a = w * w
b = a.exp()
c = b * 3
a.register_hook(look)
b.register_hook(look)
c.register_hook(leak_on)
c.sum().backward()
print(seen, w.grad.requires_grad, w.grad.grad_fn, torch.is_grad_enabled())
w.grad = None
seen.clear()
a = w * w
b = a.exp()
c = b * 3
a.register_hook(look)
b.register_hook(look)
c.register_hook(leak_off)
g, = torch.autograd.grad(c.sum(), w, create_graph=True)
print(seen, g.requires_grad, type(g.grad_fn).__name__, torch.is_grad_enabled())
""")


def test_backward_passes_in_two_threads_keep_their_own_grad_mode():
    # One thread differentiates with create_graph (its nodes run with grad mode on: the gradient has a graph), the
    # other without (no graph), switching threads every microsecond; each thread's mode afterwards is its own.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    results = {True: [], False: []}

    def work(create_graph):
        for _ in range(60):
            w = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
            y = ((w * w).tanh() * 3 + w).exp().sum()
            g, = minigrad.autograd.grad(y, w, create_graph=create_graph)
            results[create_graph].append((g.requires_grad, g.grad_fn is not None, minigrad.is_grad_enabled()))

    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in results]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        sys.setswitchinterval(old)
    assert results[True] == [(True, True, True)] * 60
    assert results[False] == [(False, False, True)] * 60
    assert minigrad.is_grad_enabled()


# ---- 2. run_number's grad-mode read ----------------------------------------------------------------------


def test_backward_of_number_ops_reads_no_grad_mode_in_run_number(spied):
    x = minigrad.tensor([0.5, -1.0, 2.0, 0.25], requires_grad=True)
    y = x
    for i in range(6):
        y = y * 1.0001 if i % 2 == 0 else y + 0.001
    seed = minigrad.ones(4)  # (not sum()'s gradient: its expand is a view, which still reads grad mode once)
    spied.on = True
    y.backward(seed)
    spied.on = False
    assert not [s for s in spied if s[2] == "run_number"], spied
    assert x.grad is not None and x.grad.grad_fn is None
    # forward: one read for a tensor that requires grad, none for one that neither requires grad nor is a view
    spied.clear()
    spied.on = True
    assert (x * 2.5).grad_fn is not None and (x.detach() * 2.5).grad_fn is None
    spied.on = False
    assert [s for s in spied if s[2] == "run_number"] == [("get", "enabled", "run_number")]


def test_number_ops_record_as_pytorch():
    # a view made before its base got a history in place requires grad (its grad_fn is replayed) and records in
    # grad mode; under no_grad nothing records; a detached tensor never records
    same_as_torch("""
w = torch.tensor([1.5, -2.0, 0.5, 3.0], requires_grad=True)
base = torch.zeros(4)
first, second = base[:2], base[2:]
base.mul_(1.0)
second.add_(w[2:])                       # base (and so first) get a history through another view
out = first * 2.5
print(type(out.grad_fn).__name__, out.requires_grad, first.requires_grad)
with torch.no_grad():
    quiet = base[1:3] * 2.5
print(quiet.grad_fn, quiet.requires_grad)
base2 = torch.zeros(4)
view2 = base2[:2]
base2[2:].add_(w[:2])
with torch.no_grad():
    print((view2 + 1.0).requires_grad)
print((view2 + 1.0).grad_fn.name(), view2.requires_grad)
print((w.detach() * 2.5).grad_fn, (w[1:] - 0.5).grad_fn.name())
(out.sum() + (view2 * 3.0).sum()).backward()
print(w.grad)
x = torch.tensor([0.5, -1.0, 2.0, 0.25], requires_grad=True)
y = x
for i in range(30):
    y = y * 1.0001 if i % 2 == 0 else (y + 0.001 if i % 3 else y.tanh())
y.sum().backward()
print(x.grad.tolist())
""")


# ---- 3. _record's output shape and dtype --------------------------------------------------------------------


def _fit_rule(node) -> bool:
    """The rule ``node._grads_fit`` stands for (see Op._plan_calls), from the node's recorded metadata."""
    op = node._op
    if not op.grads_fit:
        return False
    if op.grads_shaped:
        return all(dtype == node._out_dtype for _, dtype in node._input_meta)
    return all(meta == (node._out_shape, node._out_dtype) for meta in node._input_meta)


def test_grads_fit_follows_its_rule():
    f32 = minigrad.ones(3, 4, requires_grad=True)
    f64 = minigrad.ones(3, 4, dtype=minigrad.float64, requires_grad=True)
    row = minigrad.ones(4, requires_grad=True)
    m = minigrad.ones(4, 2, requires_grad=True)
    m64 = minigrad.ones(4, 2, dtype=minigrad.float64, requires_grad=True)
    results = [f32 + f32, f32 + row, f32 + f64, f32 * f64, f32 - row, f32 * f32, f32.tanh(), f32.exp(), f64.neg(),
               f32 / row, f32 ** 2, f32.mm(m), f64.mm(m64), f32.mean(), f64.mean(), f32.mean(dtype=minigrad.float64),
               f32.sum(), f32.relu(), f32.sigmoid()]
    fits = []
    for r in results:
        assert r.grad_fn._grads_fit is _fit_rule(r.grad_fn), r.grad_fn.name()
        fits.append(r.grad_fn._grads_fit)
    # (both answers occur: the rule is tested on either side)
    assert True in fits and False in fits


def test_input_metadata_and_gradients_equal_pytorch():
    same_as_torch("""
a = torch.tensor([[0.5, -1.0, 2.0, 0.25]] * 3, requires_grad=True)
b = torch.tensor([1.5, -2.0, 0.5, 3.0], dtype=torch.float64, requires_grad=True)
m = torch.tensor([[0.5, 1.0], [-1.0, 2.0], [0.25, 0.75], [1.0, -0.5]], requires_grad=True)
outs = [a + b, a * a, a.tanh(), a.mm(m), a.mean(dtype=torch.float64), a.mean(), (a - b[:1].float()) ** 2]
for o in outs:
    md = o.grad_fn._input_metadata[0]
    print(o.grad_fn.name(), tuple(md.shape), md.dtype)
sum(o.sum().double() for o in outs).backward()
for t in (a, b, m):
    print(t.grad.dtype, t.grad.shape, t.grad.tolist())
""")


# ---- 4. mm's plan ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype, ctype", [(np.float32, ctypes.c_float), (np.float64, ctypes.c_double)])
def test_mm_plan_carries_alpha_and_beta_of_its_dtype(dtype, ctype):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((5, 4)).astype(dtype), rng.standard_normal((4, 3)).astype(dtype)
    _matmul._MM_PLANS.clear()
    _matmul.mm(a, b)
    one, zero = _matmul._MM_PLANS[(a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype)][-1]
    assert type(one) is ctype and type(zero) is ctype and (one.value, zero.value) == (1, 0)


def test_mm_of_both_dtypes_and_its_gradients_equal_pytorch():
    # float32 and float64 products of the same shapes one after the other (each its own plan), forward and backward
    same_as_torch("""
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64, torch.float32):
    x = torch.randn(7, 5, dtype=dtype, requires_grad=True)
    w = torch.randn(5, 3, dtype=dtype, requires_grad=True)
    y = x.mm(w)
    (y * y).sum().backward()
    print(y.dtype, y.flatten().tolist(), x.grad.flatten().tolist(), w.grad.flatten().tolist())
""")
