"""The changes of #8 round 33 (bench/PROFILE.md).

1. ``AccumulateGrad._accumulate`` takes the grad mode from its caller: the engine's fast path hands on the mode it
   runs the node in, the hook path and a node called by hand read it; ``_add_into_grad`` no longer reads the
   per-thread state (one read per leaf and backward).
2. ``Tensor.softmax`` / ``log_softmax`` (and ``torch.softmax`` / ``torch.log_softmax``) no longer import
   ``nn.functional`` on every call; ``_arg_errors._is_index`` answers a plain int without importing ``Tensor``.
"""
from __future__ import annotations

import builtins

import pytest
from parity import same_as_torch

import minigrad
from minigrad import _arg_errors
from minigrad.autograd import grad_mode, graph


def _imports_during(monkeypatch, fn) -> list:
    """The modules minigrad's import statements ask for while ``fn()`` runs."""
    seen = []
    real = builtins.__import__

    def spy(name, globals=None, locals=None, fromlist=(), level=0):
        if (globals or {}).get("__name__", "").startswith("minigrad"):
            seen.append((globals["__name__"], name, fromlist))
        return real(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", spy)
    try:
        fn()
    finally:
        monkeypatch.setattr(builtins, "__import__", real)
    return seen


class _CountingState:
    """``grad_mode.STATE`` as graph.py sees it, counting the reads of ``enabled``."""

    def __init__(self, state) -> None:
        self.state, self.reads = state, 0

    def __getattr__(self, name):
        if name == "enabled":
            self.reads += 1
        return getattr(self.state, name)


def test_a_plain_backward_reads_no_grad_mode_into_grad(monkeypatch):
    x = minigrad.tensor([[0.5, -1.0], [2.0, 3.0]], requires_grad=True)
    w = minigrad.tensor([[1.5, 0.25], [-2.0, 1.0]], requires_grad=True)
    counting = _CountingState(grad_mode.STATE)
    monkeypatch.setattr(grad_mode, "STATE", counting)   # (graph.py reads grad_mode.STATE; the engine its own _STATE)
    (x * w).tanh().sum().backward()   # (first gradients: .grad set)
    (x * w).tanh().sum().backward()   # (then added in place)
    assert counting.reads == 0   # (fails before the change: one read per leaf and backward, four)
    assert x.grad is not None and w.grad is not None


@pytest.mark.filterwarnings("ignore:Using backward() with create_graph=True")
def test_the_grad_mode_handed_to_accumulate(monkeypatch):
    seen = []
    accumulate = graph.AccumulateGrad._accumulate

    def spy(self, new, owned, grad_enabled):
        seen.append(grad_enabled)
        return accumulate(self, new, owned, grad_enabled)

    monkeypatch.setattr(graph.AccumulateGrad, "_accumulate", spy)
    x = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    (x * x).sum().backward(create_graph=True)
    x.register_hook(lambda g: g * 2)   # (the hook path: _run_node)
    (x * x).sum().backward()
    with minigrad.enable_grad():
        x.grad = None
        (x * 3.0).sum().grad_fn.next_functions[0][0].next_functions[0][0](minigrad.ones(3))   # (by hand)
    assert seen == [False, True, False, True]


@pytest.mark.filterwarnings("ignore:Using backward() with create_graph=True")
def test_accumulation_modes_as_pytorch():
    same_as_torch("""
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
print(x.grad, x.grad.grad_fn, x.grad._version)
(x * x).sum().backward()
print(x.grad, x.grad.grad_fn, x.grad._version)
(x * x).sum().backward(create_graph=True)          # (added out of place: a graph)
print(x.grad, type(x.grad.grad_fn).__name__, x.grad.requires_grad)
x.grad = None
(x * x).sum().backward(create_graph=True)          # (a first gradient under create_graph: CopyBackwards)
print(x.grad, x.grad.grad_fn.name(), [type(n).__name__ for n, _ in x.grad.grad_fn.next_functions])
x.grad = None
node = (x * 2.0).grad_fn.next_functions[0][0]      # (AccumulateGrad called by hand, in each grad mode)
with torch.no_grad():
    node(torch.ones(3))
print(x.grad, x.grad.grad_fn, x.grad._version)
with torch.enable_grad():
    node(torch.full((3,), 2.0, requires_grad=True))
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
y = torch.tensor([1.0, 2.0], requires_grad=True)   # (a hook on the leaf: the engine's other path)
y.register_hook(lambda g: g * 3)
(y * y).sum().backward()
print(y.grad, y.grad._version)
(y * y).sum().backward(create_graph=True)
print(y.grad, type(y.grad.grad_fn).__name__)
""")


def test_softmax_methods_import_nothing(monkeypatch):
    x = minigrad.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -3.0]], requires_grad=True)

    def step():
        # (no dtype=: the cast's Tensor.to and the engine's cast back import modules of their own, not these)
        (x.softmax(1).sum() + x.log_softmax(-1).sum() + minigrad.softmax(x, 0).sum()
         + minigrad.log_softmax(x, dim=1).sum()).backward()

    step()   # (first calls may import what they use once)
    assert _imports_during(monkeypatch, step) == []   # (fails before the change: nn.functional per call)


def test_is_index_of_an_int_imports_nothing(monkeypatch):
    assert _imports_during(monkeypatch, lambda: _arg_errors._is_index(3)) == []   # (fails before: Tensor imported)
    assert _arg_errors._is_index(3) and not _arg_errors._is_index(True) and not _arg_errors._is_index(1.0)
    assert _arg_errors._is_index(minigrad.tensor(2)) and not _arg_errors._is_index(minigrad.tensor(2.0))


def test_softmax_methods_and_int_arguments_as_pytorch():
    same_as_torch("""
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, float('-inf'), -3.0]], requires_grad=True)
for y in (x.softmax(1), x.log_softmax(-1), torch.softmax(x, 0), torch.log_softmax(x, 1, dtype=torch.float64),
          x.softmax(dim=0, dtype=torch.float64)):
    print(y, y.dtype)
    g, = torch.autograd.grad(y.sum() if y.dtype == torch.float32 else (y * y).sum(), x)
    print(g)
E(lambda: x.softmax(1.5))
E(lambda: x.softmax(True))
E(lambda: x.log_softmax(2))
E(lambda: torch.softmax(x, None))
print(x.select(0, 1), x.select(1, torch.tensor(2)), x.size(1), torch.hann_window(4))
E(lambda: x.select(0, 1.5))
E(lambda: x.select(0, True))
E(lambda: x.size(0.5))
E(lambda: torch.hann_window(4.0))
E(lambda: x.split(1, True))
""")
