"""Session 14 (second wave) fixes of torch.func differences found by the transform fuzz's ``nested`` runner.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_transform_input_written_under_no_grad_keeps_its_graphs():
    # fixed (nested seed 309's grad_aux): an input of grad written in place under no_grad is still the leaf the
    # gradient is taken by (PyTorch's wrapper is a leaf at its level): a second write after a product saved it is
    # PyTorch's version error (naming no producing op), not a zero gradient of an unreached input; one write
    # differentiates the written value. Also fixed: under an outer grad of a global tensor, the inner stand-in (a
    # view of that global) written in place is an input written, not "a captured Tensor" mutated
    same_output(r"""
import torch
def f(a):
    with torch.no_grad():
        a.mul_(0.5)
    return a * a
def twice(x):
    y = f(x).sum()
    f(x)
    return y
for g in (twice, lambda x: f(x).sum()):
    a = torch.tensor([1.0, -2.0], requires_grad=True)
    try:
        print(torch.func.grad(g)(a))
    except RuntimeError as e:
        print('RuntimeError', e)
    print(a, a._version)
a = torch.tensor([1.0, -2.0], requires_grad=True)
try:
    print(torch.func.grad(lambda x: (f(x).sum(), f(x).detach()), has_aux=True)(a))
except RuntimeError as e:
    print('RuntimeError', e)
b = torch.tensor([3.0, 1.0], requires_grad=True)
print(torch.func.grad(lambda x: torch.func.grad(lambda y: f(y).sum())(x).sum())(b), b)
c = torch.tensor([3.0, 1.0], requires_grad=True)
print(torch.func.grad(lambda x: torch.func.grad(lambda y: (f(y) * x).sum())(x * 1).sum())(c), c)
""")


def test_slices_of_a_batched_input_written_in_place_count_their_own_writes():
    # fixed (nested seed 414): minigrad's vmap loops over slices of the batched input; when each slice was written
    # in place (under no_grad) they shared one version counter, so slice 2's write looked like a change to what
    # slice 1 had saved for backward (a version error where PyTorch's single call writes every example at once,
    # before the saves). Each slice now counts its own writes (and bumps the input's counter with them)
    same_output(r"""
import torch
def f(b):
    with torch.no_grad():
        b.mul_(0.5)
    return torch.take_along_dim(b, torch.tensor([[0, 1]]), 1) * b.exp()
x = torch.tensor([[[1.0, 2.0]], [[3.0, 4.0]], [[5., 6.]]], requires_grad=True)
print(torch.func.grad(lambda x: torch.func.vmap(f)(x).sum())(x * 1))
print(torch.func.grad(lambda x: torch.func.vmap(f)(x).sum())(x.detach().clone()))
def g(b):
    y = b.sin()
    with torch.no_grad():
        b.mul_(2)
    return y
try:
    torch.func.grad(lambda x: torch.func.vmap(g)(x).sum())(x * 1)
except RuntimeError as e:
    print('RuntimeError', str(e)[:60])
x.detach().add_(1)
print(x._version)
""")


def test_views_of_a_transform_input_written_in_place_are_not_captured_tensors():
    # fixed (nested seed 409): inside an inner grad / jacrev, the input's stand-in is a view of the caller's tensor;
    # a view of the stand-in (x[:1], x.expand(-1)) has that tensor as its base, which the function also reaches
    # as a global: writing it is writing the transform's input (PyTorch's wrapper), not "a captured Tensor"
    same_output(r"""
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
def f(x):
    try:
        x.expand(-1).masked_scatter_(torch.tensor([True, False]), x * 3)
    except RuntimeError as e:
        print('RuntimeError', e)
    with torch.no_grad():
        x[:1].mul_(2)
    return (x * x).sum()
print(torch.func.grad(lambda y: torch.func.grad(f)(y).sum())(a), a)
print(torch.func.jacrev(torch.func.jacrev(f))(a), a)
""")
