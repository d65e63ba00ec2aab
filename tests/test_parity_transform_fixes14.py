"""Session 14 fixes of torch.func differences found by the transform fuzz (tests/fuzz_transforms.py).

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_register_hook_on_batched_tensor_inside_vmap():
    # fixed (nested seed 148): inside vmap PyTorch's batched tensor (a wrapper) does not require grad itself, so
    # register_hook refuses it even when the tensor under it is tracked by an outer grad (or requires grad); an
    # unbatched tensor made inside vmap keeps its hooks; a grad transform inside the vmap makes hooks legal again
    same_output(r"""
import torch
y = torch.ones(2, requires_grad=True)
def f(a):
    v, w = a.max() * y, y * 2
    for t in (a, v, w):
        try:
            t.register_hook(lambda g: None)
            print('hooked')
        except RuntimeError as e:
            print('RuntimeError', e)
    return v
out = torch.func.vmap(f)(torch.ones(1, 2))
def f2(a):
    v = a.max() * 2
    for t in (a, v):
        try:
            t.register_hook(lambda g: None)
            print('hooked')
        except RuntimeError as e:
            print('RuntimeError', e)
    return v
print(torch.func.grad(lambda a: torch.func.vmap(f2)(a).sum())(torch.tensor([[1., 2.]])))
def g(a):
    v = a.sin()
    v.register_hook(lambda g: g * 2)
    return v.sum()
print(torch.func.vmap(torch.func.grad(g))(torch.tensor([[0., 1.]])))
x = torch.tensor([[1., 2.]], requires_grad=True)
try:
    torch.func.vmap(lambda t: t.register_hook(lambda g: None))(x)
except RuntimeError as e:
    print('RuntimeError', e)
""")


def test_out_argument_under_grad_inside_vmap():
    # fixed (nested seed 117): the innermost transform sees an op first. In vmap(grad(f)) autograd's refusal of
    # out= with an argument that requires grad comes before vmap's missing batching rule for add.out; in
    # grad(vmap(f)) the batching rule's refusal comes first
    same_output(r"""
import torch
def h(a):
    try:
        torch.add(a.detach(), a.detach(), alpha=2, out=a)
    except RuntimeError as e:
        print('RuntimeError', e)
    try:
        torch.sin(a.detach(), out=a)
    except RuntimeError as e:
        print('RuntimeError', e)
    return a.sum()
x = torch.tensor([[1., 2.]])
print(torch.func.vmap(torch.func.grad(h))(x))
print(torch.func.grad(lambda a: torch.func.vmap(h)(a).sum())(x))
""")


def test_moveaxis_under_grad_or_jvp_inside_vmap():
    # fixed (nested seed 279): a grad or jvp transform inside vmap decomposes the composite moveaxis into movedim
    # (which vmap batches) before vmap sees it, for every tensor (a detached one too); plain vmap, or grad of vmap,
    # still refuses aten::moveaxis.int
    same_output(r"""
import torch
def h(a, b):
    for t in (a, b, a.detach(), b * 2):
        try:
            print(torch.moveaxis(t, 1, 0).shape)
        except RuntimeError as e:
            print('RuntimeError', e)
    return a.sum()
# (a batch of one: minigrad's vmap calls the function once per example, PyTorch's once)
x = torch.ones(1, 2, 3)
print(torch.func.vmap(torch.func.grad(h))(x, x))
print(torch.func.vmap(lambda a, b: torch.func.jvp(lambda p: h(p, b), (a,), (a,))[1])(x, x))
y = torch.ones(1, 2, 3)
print(torch.func.grad(lambda a: torch.func.vmap(h)(a, a).sum())(y))
torch.func.vmap(h)(y, y)
""")


def test_partial_overlap_before_complex_kernel_error_in_place():
    # fixed (forward_ad seed 27777): TensorIterator refuses an operand sharing part of the written tensor's memory
    # before the kernel's dtype error ("hypot_cpu" not implemented for 'ComplexFloat'), with or without a dual
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
for dtype in (torch.complex64, torch.float32):
    for dual in (False, True):
        with fwAD.dual_level():
            a = torch.ones(2, 3, dtype=dtype)
            if dual:
                a = fwAD.make_dual(a, torch.ones(2, 3, dtype=dtype))
            for op in ('hypot_', 'atan2_', 'fmod_', 'copysign_', 'xlogy_'):
                for other in (lambda b: b[0], lambda b: b[1].clone(), lambda b: b):
                    b = a.clone()
                    try:
                        getattr(b, op)(other(b))
                        print(op, 'ok', fwAD.unpack_dual(b).primal)
                    except Exception as e:
                        print(op, type(e).__name__, e)
""")
