"""The changes of #8 round 25 (bench/PROFILE.md): fewer reads of the per-thread grad mode.

1. ``Tensor._make`` reads ``STATE.inference`` (a ``threading.local``) only once some thread has entered
   ``inference_mode`` (``grad_mode.INFERENCE_SEEN``, set before the mode is on and never reset): before that no
   tensor can be an inference tensor. The first ``inference_mode`` of a process, in this thread or another one,
   must still make inference tensors, and only in the thread that is in it.
2. ``Op.__call__`` / ``Op.call`` read grad mode once and hand it to ``Op._run`` (which read it again): the op
   records exactly when the calling thread's grad mode is on, whatever other threads or hooks switch meanwhile.

Behaviour is compared with PyTorch by running the same program under both libraries; the spies check that the
reads are gone (they fail on the tree before the round).
"""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from parity import same_as_torch

import minigrad
from minigrad.autograd import grad_mode


@pytest.fixture
def fresh_process():
    """As in a process where no thread has entered inference_mode yet (restored after the test)."""
    seen = grad_mode.INFERENCE_SEEN[0]
    grad_mode.INFERENCE_SEEN[0] = False
    yield
    grad_mode.INFERENCE_SEEN[0] = seen or grad_mode.INFERENCE_SEEN[0]


class _Reads(list):
    on = False  # (set while the reads are collected)


@pytest.fixture
def spied(monkeypatch):
    """The reads of the grad-mode state, as (attribute, reading function) pairs, while ``spied.on`` is set."""
    reads = _Reads()

    def spy(state, name):
        if reads.on and not name.startswith("__"):
            reads.append((name, sys._getframe(1).f_code.co_name))
        return threading.local.__getattribute__(state, name)
    monkeypatch.setattr(grad_mode._State, "__getattribute__", spy, raising=False)
    return reads


def test_first_inference_mode_makes_inference_tensors(fresh_process):
    # PyTorch: tensors made inside inference_mode, and the results of ops there, are inference tensors
    assert minigrad.ones(2).is_inference() is False
    with minigrad.inference_mode(False):  # (mode False: no inference tensors, nothing seen yet)
        assert minigrad.ones(2).is_inference() is False
    assert grad_mode.INFERENCE_SEEN[0] is False
    with minigrad.inference_mode():
        t = minigrad.ones(2)
        u = t * 2
    assert grad_mode.INFERENCE_SEEN[0] is True
    assert t.is_inference() and u.is_inference() and (u + 1).is_inference() is False
    assert minigrad.ones(2).is_inference() is False


def test_first_inference_mode_as_decorator_makes_inference_tensors(fresh_process):
    @minigrad.inference_mode()
    def make():
        return minigrad.zeros(3).exp()
    assert make().is_inference() is True
    assert minigrad.zeros(3).exp().is_inference() is False


def test_make_reads_no_grad_mode_before_inference_mode(fresh_process, spied):
    spied.on = True
    t = minigrad.Tensor._make(np.zeros(2, np.float32))
    spied.on = False
    assert spied == [] and t._is_inference is False
    with minigrad.inference_mode():
        spied.on = True
        t = minigrad.Tensor._make(np.zeros(2, np.float32))
        spied.on = False
    assert spied == [("inference", "_make")] and t._is_inference is True


def test_first_inference_mode_in_another_thread(fresh_process):
    # grad mode and inference mode are per thread (PyTorch's are thread_local): a thread inside inference_mode
    # makes inference tensors, the main thread meanwhile makes normal ones (and records its ops)
    inside, done = threading.Event(), threading.Event()
    made = {}

    def worker():
        with minigrad.inference_mode():
            inside.set()
            made["worker"] = minigrad.ones(2) * 3
            done.wait(10)

    thread = threading.Thread(target=worker)
    thread.start()
    assert inside.wait(10)
    w = minigrad.ones(2, requires_grad=True)
    made["main"] = w * 3
    done.set()
    thread.join(10)
    assert made["worker"].is_inference() and made["worker"].grad_fn is None
    assert not made["main"].is_inference() and type(made["main"].grad_fn).__name__ == "MulBackward0"
    assert not minigrad.is_inference_mode_enabled()


def test_one_grad_mode_read_per_recorded_op(spied):
    a = minigrad.randn(3, requires_grad=True)
    b = minigrad.randn(3)
    column, row = a.view(3, 1), b.view(1, 3)
    for run in (lambda: a * b, lambda: a.tanh(), lambda: minigrad.mm(column, row)):
        spied.clear()
        spied.on = True
        out = run()
        spied.on = False
        assert out.grad_fn is not None
        # the front end's read only (Op.call / Op.__call__); _run takes it as an argument
        assert [r for r in spied if r[1] in ("call", "__call__", "_run")] in (
            [("enabled", "call")], [("enabled", "__call__")]), spied


def test_grad_mode_stays_per_thread_while_threads_switch():
    # One thread records under grad mode, another runs the same ops under no_grad; switching threads every few
    # bytecodes, every op records exactly when its own thread's mode is on.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    w = minigrad.randn(4, requires_grad=True)
    results = {"grad": [], "no_grad": []}

    def work(kind):
        with (minigrad.no_grad() if kind == "no_grad" else minigrad.enable_grad()):
            for _ in range(300):
                results[kind].append(((w * 2).tanh() + 1, minigrad.is_grad_enabled()))

    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in results]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        sys.setswitchinterval(old)
    assert all(out.grad_fn is not None and out.requires_grad and mode for out, mode in results["grad"])
    assert all(out.grad_fn is None and not out.requires_grad and not mode for out, mode in results["no_grad"])
    assert len(results["grad"]) == len(results["no_grad"]) == 300


def test_grad_mode_switched_inside_hooks_and_functions_matches_pytorch():
    # Hooks run during backward with grad mode off (no create_graph); ops there record only under enable_grad. A
    # custom Function's forward runs with grad mode off. A pack hook switching grad mode does not change whether
    # the op being recorded records (its decision is made before it saves).
    same_as_torch("""
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)
seen = []
def hook(g):
    seen.append(((g * w).grad_fn is not None, torch.is_grad_enabled()))
    with torch.enable_grad():
        seen.append(((g * w).grad_fn is not None, torch.is_grad_enabled()))
    with torch.no_grad():
        seen.append(((g * w).grad_fn is not None, torch.is_grad_enabled()))
    return g * 2
y = x * w
y.register_hook(hook)
y.tanh().sum().backward()
print(seen, x.grad.tolist(), w.grad.tolist())

class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.inner = (a * w).grad_fn is not None, torch.is_grad_enabled()
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
z = Double.apply(x)
print(type(z.grad_fn).__name__, Double.forward.__name__)

def pack(t):
    torch.set_grad_enabled(False)
    return t
def unpack(t):
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    v = x * w
print(type(v.grad_fn).__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
v.sum().backward()
print(x.grad.tolist())
""")


def test_forward_ad_ops_record_as_the_calling_threads_grad_mode():
    # forward AD's path into Op._run passes the thread's grad mode too: recorded with it on, not under no_grad
    same_as_torch("""
import torch.autograd.forward_ad as fwAD
a = torch.tensor([0.5, -1.0, 2.0])
w = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)
with fwAD.dual_level():
    x = fwAD.make_dual(a, torch.ones(3))
    y = x * w
    with torch.no_grad():
        z = x * w
    print(type(y.grad_fn).__name__, z.grad_fn, fwAD.unpack_dual(y).tangent.tolist(),
          fwAD.unpack_dual(z).tangent.tolist())
    with torch.inference_mode():
        u = x * w
    print(u.is_inference(), u.grad_fn, fwAD.unpack_dual(u).tangent)
""")


def test_w4_steps_around_inference_mode_equal_pytorch_bits():
    # the W4 step (bench/workloads.py), before and after an evaluation under inference_mode: the same gradient
    # bits, and the evaluation's tensors are inference tensors
    same_as_torch("""
torch.manual_seed(0)
x, y = torch.randn(100, 2), torch.randn(100, 1)
p = {}
for i, (m, n) in enumerate([(2, 16), (16, 16), (16, 1)]):
    p[f"W{i}"] = (torch.randn(m, n) / m ** 0.5).requires_grad_()
    p[f"b{i}"] = torch.zeros(n).requires_grad_()
def forward():
    h = (x.matmul(p["W0"]) + p["b0"]).tanh()
    h = (h.matmul(p["W1"]) + p["b1"]).tanh()
    return h.matmul(p["W2"]) + p["b2"]
for step in range(2):
    loss = ((forward() - y) ** 2).mean()
    loss.backward()
    for k, t in p.items():
        print(k, t.grad.dtype, t.grad._version, t.grad.is_inference(), t.grad.flatten().tolist())
        t.grad = None
    with torch.inference_mode():
        pred = forward()
    print(pred.is_inference(), pred.requires_grad, pred.grad_fn, pred.flatten()[:5].tolist())
""")
