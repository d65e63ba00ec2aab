"""The change of #8 round 29 (bench/PROFILE.md): AccumulateGrad takes its leaf's lock only when another thread runs.

A program with one thread (no thread started by ``threading`` / ``_thread`` still running) adds into ``.grad``
without a lock: no other backward pass can be in that addition. Once a second thread runs, every accumulation
takes its leaf's lock again, so two threads' passes into one leaf still add up to the whole gradient. The spy fails
on the tree before the round (six acquisitions per backward of the MLP below); the gradients equal PyTorch's.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from parity import same_as_torch

import minigrad
from minigrad.autograd import graph

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)


class _SpyLock:
    """A reentrant lock that counts its acquisitions."""

    def __init__(self, counts: list) -> None:
        self._lock, self._counts = threading.RLock(), counts

    def __enter__(self):
        self._counts.append(threading.get_ident())
        return self._lock.__enter__()

    def __exit__(self, *args):
        return self._lock.__exit__(*args)


@pytest.fixture
def acquisitions(monkeypatch):
    """The thread of each acquisition of an AccumulateGrad lock."""
    counts: list = []
    monkeypatch.setattr(graph, "_ACCUMULATE_LOCKS", tuple(_SpyLock(counts) for _ in range(64)))
    return counts


def _mlp_backward():
    rng = np.random.default_rng(0)
    x = minigrad.from_numpy(rng.standard_normal((20, 2)).astype(np.float32))
    p = [minigrad.from_numpy(rng.standard_normal(s).astype(np.float32)).requires_grad_()
         for s in [(2, 8), (8,), (8, 8), (8,), (8, 1), (1,)]]
    h = (x @ p[0] + p[1]).tanh()
    h = (h @ p[2] + p[3]).tanh()
    ((h @ p[4] + p[5]) ** 2).mean().backward()
    return p


def test_one_thread_accumulates_without_the_lock():
    # (in a fresh interpreter: pytest's workers may run threads of their own)
    script = f"""
import sys
sys.path[:0] = [{ROOT!r}, {TESTS!r}]
from test_perf_round29 import _SpyLock, _mlp_backward
from minigrad.autograd import graph
seen = []
graph._ACCUMULATE_LOCKS = tuple(_SpyLock(seen) for _ in range(64))
p = _mlp_backward()
print(len(seen), [tuple(t.grad.shape) == tuple(t.shape) for t in p])
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "[True,", "True,", "True,", "True,", "True,", "True]"]


def test_each_accumulation_takes_the_lock_while_another_thread_runs(acquisitions):
    done = threading.Event()
    other = threading.Thread(target=done.wait)
    other.start()
    try:
        _mlp_backward()
    finally:
        done.set()
        other.join()
    assert acquisitions == [threading.get_ident()] * 6


def test_two_threads_into_one_leaf_add_up_to_the_whole_gradient():
    # (big enough that NumPy's in-place add runs without the GIL)
    w = minigrad.zeros(200_000, requires_grad=True)
    start = threading.Barrier(2)

    def run():
        start.wait()
        for _ in range(20):
            (w * 1.0).sum().backward()
    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert float(w.grad.min()) == float(w.grad.max()) == 40.0


def test_mlp_gradients_equal_pytorch():
    # PyTorch: the same gradients, the second backward's added into the first's in place
    same_as_torch("""
x = torch.linspace(-1, 1, 40).reshape(20, 2)
p = [(torch.arange(s[0] * (s[1] if len(s) > 1 else 1), dtype=torch.float32).reshape(s) / 50 - 0.3).requires_grad_()
     for s in [(2, 8), (8,), (8, 8), (8,), (8, 1), (1,)]]
for _ in range(2):
    h = (x @ p[0] + p[1]).tanh()
    h = (h @ p[2] + p[3]).tanh()
    ((h @ p[4] + p[5]) ** 2).mean().backward()
for t in p:
    print(t.grad, t.grad._version)
""")
