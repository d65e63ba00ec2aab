"""The benchmark workloads, each written three times: minigrad, hand-written NumPy, PyTorch.

A workload is a ``Workload``: ``setup(size, seed)`` builds the shared NumPy inputs once, and
``make_<impl>(inputs)`` returns a zero-argument ``step`` function that runs the computation once
(forward + backward, + SGD for W1) and returns the gradients as a dict of NumPy arrays. The harness
times ``step`` and, before timing, checks that every implementation returns the same gradients.

minigrad and PyTorch share one function per workload (``lib`` is ``minigrad`` or ``torch``): the
point of minigrad is that the same code runs on both. The hand-written NumPy version is the floor:
the same arithmetic with no engine, no graph, no Tensor objects.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import minigrad

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def _leaf(lib, a: np.ndarray):
    """A fresh leaf tensor that requires grad, with its own copy of ``a``."""
    return lib.from_numpy(a.copy()).requires_grad_()


def _const(lib, a: np.ndarray):
    return lib.from_numpy(a)


def _grads(named: dict) -> dict:
    """The gradients as NumPy arrays, without a copy, like the hand-written version's return value.

    Safe: every step sets ``.grad`` to None afterwards, so the next step's gradients are new arrays
    and never write into the ones returned here.
    """
    return {k: v.grad.detach().numpy() for k, v in named.items()}


def _take_grads(named: dict) -> dict:
    """The gradients of the named leaves as NumPy copies; the leaves' ``.grad`` reset for the next step."""
    grads = _grads(named)
    for t in named.values():
        t.grad = None
    return grads


def cross_entropy_path() -> str:
    """Which cross-entropy W1 uses in minigrad (recorded in the results: early runs used stand-ins)."""
    return "nn.functional.cross_entropy"


@dataclass
class Workload:
    """One row of the benchmark table."""

    name: str
    title: str
    sizes: dict                 # size label -> argument of setup ("full" and "tiny" at least)
    setup: Callable             # (size, rng) -> inputs dict of ndarrays
    impls: dict = field(default_factory=dict)  # "minigrad" / "numpy" / "torch" -> make(inputs)
    target: str = ""
    rtol: float = 1e-4
    atol: float = 1e-6


# ---------------------------------------------------------------------------------------------
# W1  MLP 784-256-10, batch 128, float32, relu, cross-entropy, forward + backward + SGD step
# ---------------------------------------------------------------------------------------------
LR = 0.01


def w1_setup(size, rng) -> dict:
    n_in, n_hidden, n_out, batch = size
    x = rng.standard_normal((batch, n_in)).astype(np.float32)
    y = rng.integers(0, n_out, batch)
    return {
        "x": x, "y": y, "onehot": np.eye(n_out, dtype=np.float32)[y],
        "W1": (rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)).astype(np.float32),
        "b1": np.zeros(n_hidden, np.float32),
        "W2": (rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)).astype(np.float32),
        "b2": np.zeros(n_out, np.float32),
    }


class _Witness:
    """An object held only by a node's metadata (W6's probe of the graph's lifetime)."""


def w1_lib(lib):
    def make(inp, probes=None):
        p = {k: _leaf(lib, inp[k]) for k in ("W1", "b1", "W2", "b2")}
        x = _const(lib, inp["x"])
        target = _const(lib, inp["y"])
        cross_entropy, relu = lib.nn.functional.cross_entropy, lib.relu

        def step():
            h = relu(x.matmul(p["W1"]) + p["b1"])
            logits = h.matmul(p["W2"]) + p["b2"]
            loss = cross_entropy(logits, target)
            if probes is not None:  # W6: is the graph gone once the step returns? (a witness object only the
                # node's metadata holds dies with it: nodes, as PyTorch's, refuse weak references)
                probes.append(weakref.ref(loss.grad_fn.metadata.setdefault("witness", _Witness())))
            loss.backward()
            grads = _grads(p)
            with lib.no_grad():
                for t in p.values():
                    t -= LR * t.grad
                    t.grad = None
            return grads
        return step
    return make


def w1_numpy(inp):
    P = {k: inp[k].copy() for k in ("W1", "b1", "W2", "b2")}
    x, onehot = inp["x"], inp["onehot"]
    n = x.shape[0]

    def step():
        W1, b1, W2, b2 = P["W1"], P["b1"], P["W2"], P["b2"]
        a = x @ W1 + b1
        h = np.maximum(a, 0)
        logits = h @ W2 + b2
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        _loss = -((z - np.log(s)) * onehot).sum() / n
        dlogits = (e / s - onehot) / n
        dW2 = h.T @ dlogits
        db2 = dlogits.sum(axis=0)
        dh = dlogits @ W2.T
        da = dh * (a > 0)
        dW1 = x.T @ da
        db1 = da.sum(axis=0)
        grads = {"W1": dW1, "b1": db1, "W2": dW2, "b2": db2}
        for k, g in grads.items():
            P[k] -= LR * g  # in place, like the SGD step on the tensors
        return grads
    return step


# ---------------------------------------------------------------------------------------------
# W2  chain of tiny elementwise ops on a 4-element tensor
#     op i is tanh when i % 10 == 9, else x * 1.0001 (even i) or x + 0.001 (odd i); sum; backward
# ---------------------------------------------------------------------------------------------
def _w2_kind(i: int) -> int:
    return 2 if i % 10 == 9 else i % 2  # 0: mul, 1: add, 2: tanh


def w2_setup(n_ops, rng) -> dict:
    return {"x": rng.standard_normal(4).astype(np.float32), "n": n_ops}


def w2_lib(lib):
    def make(inp):
        x0 = _leaf(lib, inp["x"])
        kinds = [_w2_kind(i) for i in range(inp["n"])]

        def step():
            x = x0
            for k in kinds:
                if k == 0:
                    x = x * 1.0001
                elif k == 1:
                    x = x + 0.001
                else:
                    x = x.tanh()
            x.sum().backward()
            return _take_grads({"x": x0})
        return step
    return make


def w2_numpy(inp):
    x0 = inp["x"]
    kinds = [_w2_kind(i) for i in range(inp["n"])]
    c_mul, c_add = np.float32(1.0001), np.float32(0.001)

    def step():
        x = x0
        saved = []  # tanh outputs, for backward
        for k in kinds:
            if k == 0:
                x = x * c_mul
            elif k == 1:
                x = x + c_add
            else:
                x = np.tanh(x)
                saved.append(x)
        _s = x.sum()
        g = np.ones_like(x)
        for k in reversed(kinds):
            if k == 0:
                g = g * c_mul
            elif k == 2:
                y = saved.pop()
                g = g * (1 - y * y)
        return {"x": g}
    return step


# ---------------------------------------------------------------------------------------------
# W3  chain of x = x + 1 on a 1-element tensor, backward
# ---------------------------------------------------------------------------------------------
def w3_setup(n_ops, rng) -> dict:
    return {"x": np.zeros(1, np.float32), "n": n_ops}


def w3_lib(lib):
    def make(inp):
        x0 = _leaf(lib, inp["x"])
        n = inp["n"]

        def step():
            x = x0
            for _ in range(n):
                x = x + 1
            x.backward()
            return _take_grads({"x": x0})
        return step
    return make


def w3_numpy(inp):
    x0 = inp["x"]
    n = inp["n"]
    one = np.float32(1)

    def step():
        x = x0
        for _ in range(n):
            x = x + one
        g = np.ones_like(x)
        for _ in range(n):
            g = g * one  # d(x + 1)/dx = 1: one multiply per node, like the engine's pass-through
        return {"x": g}
    return step


# ---------------------------------------------------------------------------------------------
# W4  2-16-16-1 tanh MLP on 100 points, MSE, forward + backward
# ---------------------------------------------------------------------------------------------
def w4_setup(size, rng) -> dict:
    n_points, hidden = size
    dims = [2, hidden, hidden, 1]
    inp = {"x": rng.standard_normal((n_points, 2)).astype(np.float32),
           "y": rng.standard_normal((n_points, 1)).astype(np.float32)}
    for i in range(3):
        inp[f"W{i}"] = (rng.standard_normal((dims[i], dims[i + 1])) / np.sqrt(dims[i])).astype(np.float32)
        inp[f"b{i}"] = np.zeros(dims[i + 1], np.float32)
    return inp


_W4_PARAMS = ("W0", "b0", "W1", "b1", "W2", "b2")


def w4_lib(lib):
    def make(inp):
        p = {k: _leaf(lib, inp[k]) for k in _W4_PARAMS}
        x, y = _const(lib, inp["x"]), _const(lib, inp["y"])

        def step():
            h = (x.matmul(p["W0"]) + p["b0"]).tanh()
            h = (h.matmul(p["W1"]) + p["b1"]).tanh()
            pred = h.matmul(p["W2"]) + p["b2"]
            loss = ((pred - y) ** 2).mean()
            loss.backward()
            return _take_grads(p)
        return step
    return make


def w4_numpy(inp):
    x, y = inp["x"], inp["y"]
    W0, b0, W1, b1, W2, b2 = (inp[k] for k in _W4_PARAMS)

    def step():
        h0 = np.tanh(x @ W0 + b0)
        h1 = np.tanh(h0 @ W1 + b1)
        pred = h1 @ W2 + b2
        d = pred - y
        _loss = (d * d).mean()
        dpred = (2 / d.size) * d
        dW2, db2 = h1.T @ dpred, dpred.sum(axis=0)
        da1 = (dpred @ W2.T) * (1 - h1 * h1)
        dW1, db1 = h0.T @ da1, da1.sum(axis=0)
        da0 = (da1 @ W1.T) * (1 - h0 * h0)
        dW0, db0 = x.T @ da0, da0.sum(axis=0)
        return {"W0": dW0, "b0": db0, "W1": dW1, "b1": db1, "W2": dW2, "b2": db2}
    return step


# ---------------------------------------------------------------------------------------------
# W5  broadcasting: ((a (n,1) + b (1,n)) * c (n,n)).sum(), backward
# ---------------------------------------------------------------------------------------------
def w5_setup(n, rng) -> dict:
    return {"a": rng.standard_normal((n, 1)).astype(np.float32),
            "b": rng.standard_normal((1, n)).astype(np.float32),
            "c": rng.standard_normal((n, n)).astype(np.float32)}


def w5_lib(lib):
    def make(inp):
        p = {k: _leaf(lib, inp[k]) for k in ("a", "b", "c")}

        def step():
            ((p["a"] + p["b"]) * p["c"]).sum().backward()
            return _take_grads(p)
        return step
    return make


def w5_numpy(inp):
    a, b, c = inp["a"], inp["b"], inp["c"]

    def step():
        s = a + b
        _z = (s * c).sum()
        # d/ds = c (the gradient of sum is ones); the broadcast is undone by summing.
        return {"a": c.sum(axis=1, keepdims=True), "b": c.sum(axis=0, keepdims=True), "c": s}
    return step


# ---------------------------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------------------------
def _impls(lib_fn, numpy_fn) -> dict:
    impls = {"minigrad": lib_fn(minigrad), "numpy": numpy_fn}
    torch = optional_torch()
    if torch is not None:
        impls["torch"] = lib_fn(torch)
    return impls


def optional_torch():
    """PyTorch if installed, else None."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def single_threaded() -> None:
    """One intra-op thread for PyTorch and minigrad (whose sums follow PyTorch's thread split) while timing.

    Called by ``python -m bench`` only: importing this module (the smoke test does) changes nothing.
    """
    torch = optional_torch()
    if torch is not None:
        torch.set_num_threads(1)
    minigrad.set_num_threads(1)


def workloads() -> dict:
    """Name -> Workload, in table order."""
    return {w.name: w for w in [
        Workload("W1", "MLP 784-256-10, batch 128, relu, cross-entropy, fwd+bwd+SGD",
                 {"full": (784, 256, 10, 128), "tiny": (12, 8, 5, 6)}, w1_setup,
                 _impls(w1_lib, w1_numpy), "<= 1.15x numpy"),
        Workload("W2", "1,000 tiny elementwise ops on 4 elements, sum, backward",
                 {"full": 1000, "tiny": 30}, w2_setup, _impls(w2_lib, w2_numpy),
                 "<= 8 us/op and <= 1.6x torch"),
        Workload("W3", "chain of x = x + 1 on 1 element, backward",
                 {"1k": 1000, "10k": 10_000, "100k": 100_000, "tiny": 50}, w3_setup,
                 _impls(w3_lib, w3_numpy), "linear; 100k <= 1.2x torch"),
        Workload("W4", "2-16-16-1 tanh MLP on 100 points, MSE, fwd+bwd",
                 {"full": (100, 16), "tiny": (7, 3)}, w4_setup, _impls(w4_lib, w4_numpy),
                 "<= 1.3x torch"),
        Workload("W5", "(256,1)+(1,256), * (256,256), sum, backward",
                 {"full": 256, "tiny": 5}, w5_setup, _impls(w5_lib, w5_numpy), "<= 1.2x numpy",
                 atol=1e-4),  # float32 sums of 256 terms in different orders
    ]}


def check_grads(wl: Workload, size_label: str = "full", seed: int = 0) -> dict:
    """Run every implementation once from the same inputs; raise if gradients differ from NumPy's."""
    inputs = wl.setup(wl.sizes[size_label], np.random.default_rng(seed))
    results = {name: make(inputs)() for name, make in wl.impls.items()}
    ref = results["numpy"]
    for name, grads in results.items():
        if set(grads) != set(ref):
            raise AssertionError(f"{wl.name} {name}: gradients for {sorted(grads)}, expected {sorted(ref)}")
        for k, g in grads.items():
            if g.shape != ref[k].shape or not np.allclose(g, ref[k], rtol=wl.rtol, atol=wl.atol):
                err = np.max(np.abs(g.astype(np.float64) - ref[k])) if g.shape == ref[k].shape else "shape"
                raise AssertionError(f"{wl.name}[{size_label}] {name}: d/d{k} differs from hand NumPy "
                                     f"(max abs err {err})")
    return results
