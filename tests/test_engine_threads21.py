"""Backward passes in several threads at once (PyTorch's "Autograd mechanics: multithreading"): each thread's
pass is its own graph task. The nodes an ``autograd.grad(..., inputs=...)`` pass needs, the callbacks queued
with ``queue_callback`` and the pass multi-grad hooks see belong to the thread that runs the pass; they were
process-wide, so two threads' ``autograd.grad`` calls cut each other's edges ("appears to not have been used")."""

from __future__ import annotations

import sys
import threading

import pytest

import minigrad


@pytest.fixture
def fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)   # (threads switch every microsecond: the passes interleave node by node)
    yield
    sys.setswitchinterval(old)


def _run_in_threads(work, args) -> list:
    errors = []

    def guarded(a):
        try:
            work(a)
        except Exception as e:   # (a thread's exception would otherwise only be printed)
            errors.append(repr(e))

    threads = [threading.Thread(target=guarded, args=(a,)) for a in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return errors


def test_autograd_grad_with_inputs_in_two_threads(fast_switching):
    # d/dw Σ exp(3 tanh(w²) + w) at w, each thread with its own create_graph: the same values as one thread alone
    w0 = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y0 = ((w0 * w0).tanh() * 3 + w0).exp().sum()
    expected = minigrad.autograd.grad(y0, w0)[0].tolist()
    results = {True: [], False: []}

    def work(create_graph):
        for _ in range(40):
            w = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
            y = ((w * w).tanh() * 3 + w).exp().sum()
            g, = minigrad.autograd.grad(y, w, create_graph=create_graph)
            results[create_graph].append((g.tolist(), g.requires_grad))

    assert _run_in_threads(work, (True, False)) == []
    assert results[True] == [(expected, True)] * 40
    assert results[False] == [(expected, False)] * 40


def test_grad_of_one_input_while_another_thread_backwards_everything(fast_switching):
    # one thread asks for d/da only (b's AccumulateGrad must not run there), the other fills a.grad and b.grad
    out = {}

    def work(kind):
        for _ in range(30):
            a = minigrad.tensor([1.0, 2.0], requires_grad=True)
            b = minigrad.tensor([3.0, 4.0], requires_grad=True)
            y = (a * b).sin().sum()
            if kind == "grad":
                g, = minigrad.autograd.grad(y, a)
                out.setdefault(kind, []).append((g.tolist(), b.grad))
            else:
                y.backward()
                out.setdefault(kind, []).append((a.grad.tolist(), b.grad.tolist()))

    assert _run_in_threads(work, ("grad", "backward")) == []
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    (a * b).sin().sum().backward()
    assert out["grad"] == [(a.grad.tolist(), None)] * 30
    assert out["backward"] == [(a.grad.tolist(), b.grad.tolist())] * 30


def test_queue_callback_runs_in_its_own_threads_pass(fast_switching):
    # each thread's hook queues a callback naming the thread: it runs at the end of that thread's pass, once
    from minigrad.autograd import Variable
    seen = {0: [], 1: []}

    def work(k):
        for i in range(20):
            x = minigrad.tensor([1.0, 2.0], requires_grad=True)
            y = (x * (k + 1)).exp()
            y.register_hook(lambda g, k=k, i=i: Variable._execution_engine.queue_callback(
                lambda: seen[k].append(i)) or None)
            y.sum().backward()

    assert _run_in_threads(work, (0, 1)) == []
    assert seen == {0: list(range(20)), 1: list(range(20))}


def test_multi_grad_hook_all_in_two_threads(fast_switching):
    # register_multi_grad_hook(mode="all") gathers the gradients of one pass: each thread's pass calls it once
    calls = {0: 0, 1: 0}

    def work(k):
        for _ in range(20):
            a = minigrad.tensor([1.0, 2.0], requires_grad=True)
            b = minigrad.tensor([3.0], requires_grad=True)
            minigrad.autograd.graph.register_multi_grad_hook(
                (a, b), lambda grads, k=k: calls.__setitem__(k, calls[k] + (grads[0] is not None)))
            ((a * b).sum() * (k + 1)).backward()

    assert _run_in_threads(work, (0, 1)) == []
    assert calls == {0: 20, 1: 20}
