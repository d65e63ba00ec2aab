"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode; per-thread state."""
import threading

from parity import same_as_torch

import minigrad as mg


def test_no_grad_and_enable_grad_nest():
    x = mg.tensor([1.0], requires_grad=True)
    with mg.no_grad():
        assert not mg.is_grad_enabled()
        assert not (x * 2).requires_grad
        with mg.enable_grad():
            assert (x * 2).requires_grad
        assert not mg.is_grad_enabled()
    assert mg.is_grad_enabled()


def test_decorators_with_and_without_parentheses():
    x = mg.tensor([1.0], requires_grad=True)

    @mg.no_grad
    def bare(t):
        return t * 2

    @mg.no_grad()
    def called(t):
        return t * 2

    @mg.set_grad_enabled(False)
    def off(t):
        return t * 2

    assert not bare(x).requires_grad and not called(x).requires_grad
    assert mg.is_grad_enabled()  # decorating did not switch the mode
    assert not off(x).requires_grad and mg.is_grad_enabled()


def test_set_grad_enabled_as_function_and_context():
    try:
        mg.set_grad_enabled(False)
        assert not mg.is_grad_enabled()
        with mg.set_grad_enabled(True):
            assert mg.is_grad_enabled()
        assert not mg.is_grad_enabled()
    finally:
        mg.set_grad_enabled(True)


def test_inference_mode_tensors():
    x = mg.tensor([1.0], requires_grad=True)
    with mg.inference_mode():
        y = x * 2
        assert mg.is_inference_mode_enabled() and not mg.is_grad_enabled()
    assert y.is_inference() and not y.requires_grad and not x.is_inference()
    try:
        y.requires_grad_()
    except RuntimeError as e:
        assert "inference tensor outside InferenceMode" in str(e)
    else:
        raise AssertionError("requires_grad_ on an inference tensor must fail")


def test_grad_mode_is_per_thread():
    seen = {}

    def worker():
        seen["start"] = mg.is_grad_enabled()  # a new thread starts with grad mode on
        with mg.no_grad():
            seen["inside"] = mg.is_grad_enabled()
            barrier.wait()  # main thread checks its own mode while we are inside no_grad
            barrier.wait()

    barrier = threading.Barrier(2)
    with mg.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        barrier.wait()
        main_inside = mg.is_grad_enabled()
    with_grad_main = mg.is_grad_enabled()
    barrier.wait()
    t.join()
    assert seen == {"start": True, "inside": False}
    assert main_inside is False and with_grad_main is True


PROGRAM = """
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1.], requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
    with torch.enable_grad():
        print((x * 2).requires_grad)
@torch.no_grad
def f(x): return x * 2
print(f(x).requires_grad)
@torch.no_grad()
def gen(x):
    yield torch.is_grad_enabled()
    yield (x * 2).requires_grad
print(list(gen(x)), torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x*2).requires_grad)
torch.set_grad_enabled(True)
@torch.set_grad_enabled(False)
def h(x): return x * 2
print(torch.is_grad_enabled(), h(x).requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
with torch.inference_mode():
    y = x * 2
    print(y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(y.is_inference(), x.is_inference())
E(lambda: y.requires_grad_())
E(lambda: y.add_(1))
E(lambda: (x * y).sum().backward())
print((x * 2 + y).requires_grad)
with torch.inference_mode(False):
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
@torch.inference_mode()
def k(x): return x * 2
print(k(x).requires_grad, k(x).is_inference())
with torch.no_grad():
    n = torch.ones(2, requires_grad=True)
    print(n.requires_grad, n.is_leaf)
    w = x * 2
print(w.requires_grad, w.grad_fn, w.is_leaf)
E(lambda: w.backward())
print(repr(torch.no_grad()), type(torch.set_grad_enabled(True)).__name__)
"""


def test_grad_modes_match_torch():
    same_as_torch(PROGRAM, prelude="")
