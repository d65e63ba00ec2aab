"""The code blocks of the source notes run with minigrad standing in for torch and print what PyTorch prints.

Object addresses are masked; blocks with random values print quantities that do not depend on them,
or are seeded identically and compared by structure.
"""
import pytest
from parity import same_as_torch

BLOCKS = {
    "000_one_layer_grad_fn": """
import torch
x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.ones(5, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
loss.backward()
print(w.grad)
print(b.grad)
print(loss)
""",
    "000_no_grad": """
import torch
x = torch.ones(5); w = torch.ones(5, 3, requires_grad=True); b = torch.ones(3, requires_grad=True)
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
""",
    "000_requires_grad_propagation": """
import torch
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients? : {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
""",
    "000_jacobian_product": """
import torch
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nSecond call\\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nCall after zeroing gradients\\n{inp.grad}")
""",
    "000_exp_function": """
import torch
from torch.autograd import Function
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

input = torch.tensor([0., 1., 2.], requires_grad=True)
output = Exp.apply(input)
print(output)
print(output.grad_fn.name())
output.sum().backward()
print(input.grad)
""",
    "001_a_plus_b": """
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)

c = a + b
d = torch.sum(c)

print(c.requires_grad)  # True
print(c.grad_fn)  # <AddBackward0 object at 0x7f7e8f272fd0>

print(d.requires_grad)  # True
print(d.grad_fn)  # <SumBackward0 object at 0x7f7e8f272fd0>
c.backward(torch.ones(c.size()) * 2)
print(a.grad, b.grad)
""",
    "001_no_grad_backward_error": """
import torch
x = torch.ones(5, 5, requires_grad=True)
y = torch.ones(5, 5)
with torch.no_grad():
    z = x + y
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
torch.set_grad_enabled(False)
z = x + y
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
torch.set_grad_enabled(True)
z = x + y
z.sum().backward()
print(x.grad)
""",
    "001_multiply_add": """
import torch as t
from torch.autograd import Function
class MultiplyAdd(Function):

    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w,x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w,x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b
x = t.ones(1)
w = t.full((1,), 0.5, requires_grad = True)
b = t.full((1,), 0.25, requires_grad = True)
z=MultiplyAdd.apply(w, x, b)
z.backward()
print(z, w.grad, x.grad, b.grad)
""",
    "002_mean_x_x": """
import torch
import torch.autograd as autograd
x = torch.tensor([[1., 2.], [3., 4.]])
x.requires_grad_(True)
out = torch.mean(x * x)
print(out)
print(type(out.grad_fn).__name__)
out.backward()
print(x.grad)
print(x.data)
""",
    "002_vjp_and_detach": """
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x*x
v = torch.tensor([1., 1/2., 1/3.])
y.backward(v)
print(x.grad)
y = x.detach()
print(y.requires_grad)
print(x.requires_grad)
print(x.eq(y).all())
with torch.no_grad():
    print((x**2).requires_grad)
""",
    "003_grad_modes": """
import torch
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
""",
    # Note 003 writes torch.tensor([1], requires_grad=True): an integer tensor, which PyTorch refuses.
    "003_integer_tensor_cannot_require_grad": """
import torch
try:
    x = torch.tensor([1], requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, e)
x = torch.tensor([1.], requires_grad=True)
print(x)
""",
    "003_exp_needs_input_grad": """
import torch
from torch.autograd import Function
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        print(ctx.needs_input_grad)
        result, = ctx.saved_tensors
        return grad_output * result

input = torch.tensor([0., 1.], requires_grad=True)
output = Exp.apply(input)
print(output.grad_fn.name(), output.grad_fn.next_functions)
output.sum().backward()
print(input.grad)
""",
    # Note 000's internals: AutogradMeta fields, _saved_self / _saved_other, retain_grad and hooks.
    "000_internals_saved_tensors_and_hooks": """
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([4., 5.], requires_grad=True)
c = a * b
print(c.grad_fn._saved_self, c.grad_fn._saved_other)
print(c.is_leaf, c.output_nr, c._version, c._is_view(), c._base)
c.retain_grad()
c.register_hook(lambda g: print('hook', g))
d = c.sum()
d.backward()
print(c.grad, a.grad, b.grad)
""",
}


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_note_block_prints_like_pytorch(name):
    same_as_torch(BLOCKS[name], prelude="")  # and the block printed something
