"""Session 9 (second wave) parity fix, checked against real PyTorch: a Python number saved by ``x * 0.9`` (or
``x / 0.9``) stays a wrapped number in create_graph backward, so a 0-d float32 gradient times it stays float32
(no ToCopyBackward0 in the double-backward graph), also after the node's ``_saved_other`` was read."""
import pytest

from tests.parity import run_both

_WALK = """
def walk(fn, depth=0):
    if fn is None:
        return
    print('  ' * depth + type(fn).__name__)
    for f, _ in fn.next_functions:
        walk(f, depth + 1)
"""

PROGRAMS = {
    # fixed: grad * saved number promoted a 0-d float32 grad to float64 (the number was a plain 0-d float64 tensor)
    "mul_number_0d_tanh": """
a = torch.tensor(0.04, requires_grad=True)
y = (a.tanh() * 0.9).exp()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
(g * g).backward()
print(a.grad.dtype, a.grad)
""",
    # fixed: the same after reading _saved_other (the read used to replace the number with a plain tensor)
    "mul_number_0d_saved_other_read": """
a = torch.tensor(0.04, requires_grad=True)
m = a.tanh() * 0.9
print(m.grad_fn._saved_other)
y = m.exp()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
print(m.grad_fn._saved_other, m.grad_fn._saved_other.dtype)
""",
    # fixed: division by a saved number (DivBackward0's grad / other), 0-d float32
    "div_number_0d": """
a = torch.tensor(0.3, requires_grad=True)
y = (a.sin() / 0.7).exp()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
""",
    # an int number and a 0-d float32 grad: stays float32
    "mul_int_number_0d": """
a = torch.tensor(0.3, requires_grad=True)
y = (a.cos() * 3).exp()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
""",
    # a real 0-d float64 tensor (not a number) does promote: ToCopyBackward0 in both
    "mul_0d_float64_tensor_promotes": """
a = torch.tensor(0.04, requires_grad=True)
y = (a.tanh() * torch.tensor(0.9, dtype=torch.float64)).exp()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
""",
    # n-d float32 grads (unchanged), and a second backward through the freed graph still refused
    "mul_number_1d_second_backward": """
a = torch.tensor([0.04, -0.5], requires_grad=True)
m = a.tanh() * 0.9
m.grad_fn._saved_other
y = m.exp().sum()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
z = (a * 0.5).sum()
z.backward()
_ = (a * 0.5).grad_fn
try:
    n = a * 0.5
    n.grad_fn._saved_other
    n.sum().backward()
    n.sum().backward()
except RuntimeError as e:
    print('RuntimeError', str(e)[:60])
try:
    n.grad_fn._saved_other
except RuntimeError as e:
    print('RuntimeError', str(e)[:60])
""",
    # a complex64 0-d tensor times a float number (the number fast path covers complex mul/div)
    "mul_number_0d_complex64": """
a = torch.tensor(0.3 + 0.2j, requires_grad=True)
y = (a.tanh() * 0.9).exp().abs()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g.dtype, g)
walk(g.grad_fn)
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_saved_number_double_backward_matches_torch(name):
    program = "import torch\n" + _WALK + PROGRAMS[name]
    mine, theirs = run_both(program)
    assert mine == theirs
    assert "Backward" in theirs
