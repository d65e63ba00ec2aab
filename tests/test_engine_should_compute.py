"""``autograd.grad(..., inputs=...)`` computes only the gradients on a path to an input.

PyTorch's nodes ask ``task_should_compute_output(i)`` before each formula: an edge that leads to no requested
input gets no gradient. Visible to users through node hooks (``None`` in ``grad_inputs``), through formulas that
raise (zeta's derivative in its first argument) and through the work done. Each program runs with minigrad and
PyTorch (``parity.run_both``) and must print the same.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS["mul_node_hook"] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = x * y
z.grad_fn.register_hook(lambda gi, go: print("post", gi))
w = (z * 2).sum()
print(torch.autograd.grad(w, x, retain_graph=True))
print(torch.autograd.grad(w, [y], retain_graph=True))
print(torch.autograd.grad(w, [x, y], retain_graph=True))
w.backward(inputs=[y], retain_graph=True)
print(x.grad, y.grad)
w.backward()
print(x.grad, y.grad)
'''

PROGRAMS["copy_slices_hook"] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([5.], requires_grad=True)
base = a.clone()
v = base[:1]
v.mul_(b)
base.grad_fn.register_hook(lambda gi, go: print("cs post", gi))
print(torch.autograd.grad(base.sum(), a, retain_graph=True))
print(torch.autograd.grad(base.sum(), b, retain_graph=True))
print(torch.autograd.grad(base.sum(), [a, b]))
c = torch.zeros(2, 3)
c[1] = b.expand(3) * a
c.grad_fn.register_hook(lambda gi, go: print("cs2 post", gi))
print(torch.autograd.grad(c.pow(2).sum(), b, retain_graph=True))
print(torch.autograd.grad(c.pow(2).sum(), a))
'''

PROGRAMS["zeta_first_argument_not_needed"] = r'''
import torch
q = torch.tensor([2., 3.], requires_grad=True)
s = torch.tensor([3., 4.], requires_grad=True)
out = torch.special.zeta(s, q).sum()
print(torch.autograd.grad(out, q, retain_graph=True))
try:
    torch.autograd.grad(out, s)
except NotImplementedError as e:
    print("NotImplementedError", e)
'''

PROGRAMS["joint_formulas_mask"] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 5, 5, requires_grad=True)
w = torch.randn(3, 2, 3, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
y = F.conv2d(x, w, b)
y.grad_fn.register_hook(lambda gi, go: print([None if g is None else tuple(g.shape) for g in gi]))
loss = y.square().sum()
for inputs in ([w], [b], [x, b], [x, w, b]):
    gs = torch.autograd.grad(loss, inputs, retain_graph=True)
    print([tuple(g.shape) for g in gs])
ln = torch.nn.LayerNorm(5)
h = ln(x)
h.grad_fn.register_hook(lambda gi, go: print([None if g is None else tuple(g.shape) for g in gi]))
print(torch.autograd.grad(h.sum(), ln.bias)[0])
'''

PROGRAMS["cat_and_stack"] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
c = torch.tensor([4.], requires_grad=True)
y = torch.cat([a, b * 2, c])
y.grad_fn.register_hook(lambda gi, go: print("cat", gi))
print(torch.autograd.grad((y * y).sum(), b, retain_graph=True))
print(torch.autograd.grad((y * y).sum(), [c, a]))
s = torch.stack([a[:1], b, c])
s.grad_fn.register_hook(lambda gi, go: print("stack", gi))
print(torch.autograd.grad(s.sum(), c))
'''

PROGRAMS["create_graph_only_needed"] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
g, = torch.autograd.grad((x * y).sin().sum(), x, create_graph=True)
print(g)
print(g.grad_fn.name(), [None if n is None else n.name() for n, _ in g.grad_fn.next_functions])
h, = torch.autograd.grad(g.sum(), y)
print(h)
'''

PROGRAMS["nested_grad_in_hook"] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = x * y
def hook(gi, go):
    print("outer hook", gi, torch.is_grad_enabled())
    with torch.enable_grad():
        u = torch.tensor([2.], requires_grad=True)
        v = torch.tensor([5.], requires_grad=True)
        m = u * v
        m.grad_fn.register_hook(lambda gi2, go2: print("inner hook", gi2))
        print("inner", torch.autograd.grad(m.sum(), v))
        m2 = u * v
        m2.grad_fn.register_hook(lambda gi2, go2: print("inner backward hook", gi2))
        m2.sum().backward()
    print(u.grad, v.grad)
z.grad_fn.register_hook(hook)
print(torch.autograd.grad(z.sum(), y))
print(torch.autograd.grad((x * y).sum(), x))
'''

PROGRAMS["function_and_functional"] = r'''
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        return g * b, g * a
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
out = Scale.apply(a, b)
out.grad_fn.register_hook(lambda gi, go: print("fn post", gi))
print(torch.autograd.grad(out.sum(), b))
def f(p, q):
    return (p * q.exp()).sum()
print(torch.autograd.functional.jacobian(f, (a, b)))
print(torch.autograd.functional.hessian(f, (a, b)))
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)


def test_unneeded_formula_is_not_run() -> None:
    # Without PyTorch: a hook on a node sees None where no requested input lies below the edge.
    import minigrad as torch
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    z = x * y
    seen = []
    z.grad_fn.register_hook(lambda gi, go: seen.append(gi))
    (gx,) = torch.autograd.grad(z.sum(), x)
    assert gx.tolist() == [3.0, 4.0]
    assert seen[0][0].tolist() == [3.0, 4.0] and seen[0][1] is None
