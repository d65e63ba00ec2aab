"""The torch-function state is per thread, as PyTorch's PythonTorchFunctionTLS.

A mode entered or ``DisableTorchFunction`` in one thread does not reach another, and two threads' backward passes
(each turning ``__torch_function__`` off while its formulas run) leave each other's state alone: with one shared
flag, one pass could restore another's "off" and leave it on for good (CI saw ``torch.cat(ts, dim=None)`` lose its
parser error after tests/test_engine_threads21.py).
"""
from __future__ import annotations

import sys
import threading

from parity import same_as_torch

import minigrad


def test_modes_and_disabling_stay_in_their_thread():
    # PyTorch: the other thread sees no mode and __torch_function__ on; the mode logs only this thread's zeros
    same_as_torch("""
import threading
from torch.overrides import TorchFunctionMode

class Log(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))

seen = {}
def other():
    seen["enabled"] = torch._C._is_torch_function_enabled()
    seen["mode"] = torch.overrides._is_torch_function_mode_enabled()
    torch.ones(2).add(1)

with Log() as log:
    t = threading.Thread(target=other); t.start(); t.join()
    torch.zeros(1)
print(log.names, seen)
with torch._C.DisableTorchFunction():
    t = threading.Thread(target=other); t.start(); t.join()
    print(torch._C._is_torch_function_enabled(), seen)
print(torch._C._is_torch_function_enabled())
""")


class _Sub(minigrad.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})


def test_backward_passes_in_two_threads_leave_torch_function_on():
    minigrad.ones(1).as_subclass(_Sub) + 1  # (a subclass with __torch_function__: the passes turn it off)

    def work(create_graph):
        for _ in range(40):
            w = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
            minigrad.autograd.grad(((w * w).tanh() * 3 + w).exp().sum(), w, create_graph=create_graph)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (the passes interleave node by node)
    try:
        for _ in range(30):
            threads = [threading.Thread(target=work, args=(c,)) for c in (True, False)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert minigrad._C._is_torch_function_enabled()
    finally:
        sys.setswitchinterval(old)
    try:
        minigrad.cat((minigrad.ones(2),), dim=None)
    except TypeError as e:
        assert str(e) == "cat(): argument 'dim' must be int, not NoneType"
