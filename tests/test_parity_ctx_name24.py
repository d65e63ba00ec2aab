"""A custom Function's ``ctx.name = ...`` hides the node's ``name()`` method only for the user's code.

In PyTorch ``ctx`` is the backward node; an attribute set on it lands in its ``__dict__`` while the engine's
messages (wrong number of gradients, anomaly mode's traces, invalid gradients) use the C++ name. minigrad's engine
called ``node.name()`` and got the user's string ("'str' object is not callable"), which showed only while a meta
tensor was alive (the device check builds its message per node) and made a test depend on the tests before it.
"""
from __future__ import annotations

from parity import same_as_torch

PRELUDE = """
class Named(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.name = "s"            # a plain attribute of the node
        ctx.n = n
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print("ctx.name in backward:", ctx.name)
        if ctx.n == 1:
            return g * 2          # one gradient too few
        if ctx.n == 2:
            return g * float("nan"), None
        return g * 2, None
"""


def test_ctx_name_while_a_meta_tensor_is_alive():
    # PyTorch: the name reads back as "s", and backward runs (the engine uses the C++ name)
    same_as_torch(PRELUDE + """
keep = torch.empty(2, device="meta")
x = torch.ones(2, requires_grad=True)
y = Named.apply(x, 0)
print(y.grad_fn.name, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
""")


def test_engine_messages_use_the_class_name():
    # PyTorch: "function NamedBackward returned an incorrect number of gradients (expected 2, got 1)", and anomaly
    # mode names NamedBackward for the nan
    same_as_torch(PRELUDE + """
import warnings
x = torch.ones(2, requires_grad=True)
try:
    Named.apply(x, 1).sum().backward()
except RuntimeError as e:
    print(e)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        try:
            Named.apply(x, 2).sum().backward()
        except RuntimeError as e:
            print(str(e).splitlines()[0])
""")
