"""Parity programs modelled on PyTorch tutorials, docs examples and autograd blog posts.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and both stdouts must be identical once object addresses are masked. They cover what the other program
suites do not: the torch.autograd.Function docs examples (Exp, LinearFunction, MulConstant, mark_non_differentiable,
set_materialize_grads, non-tensor outputs), "Learning PyTorch with Examples" variants (RMSprop, custom modules,
linspace-built data), gradcheck's calls of a custom backward, hooks and their handles, optimizers and
learning-rate schedulers, torch.save/load, NumPy-style stacking/splitting, rounded division and remainder.
Programs print only values that do not depend on the random stream, and round values that depend on the
order of a float32 sum.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['exp_function_docs'] = r'''
import torch
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
x = torch.tensor([0., 1., 2.], requires_grad=True)
output = Exp.apply(x)
print(output)
print(output.grad_fn, type(output.grad_fn).__name__)
output.sum().backward()
print(x.grad)
print(output.grad_fn.saved_tensors[0] if False else 'ok')
'''

PROGRAMS['linear_function_docs'] = r'''
import torch
class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        print('needs', ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
linear = LinearFunction.apply
inp = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=torch.double)
w = torch.tensor([[0.5, -1.], [2., 0.25]], dtype=torch.double, requires_grad=True)
b = torch.tensor([0.1, 0.2], dtype=torch.double, requires_grad=True)
out = linear(inp, w, b)
print(out)
out.sum().backward()
print(w.grad)
print(b.grad)
from torch.autograd import gradcheck
inp2 = torch.tensor([[0.3, -0.2], [0.7, 1.1]], dtype=torch.double, requires_grad=True)
print(gradcheck(linear, (inp2, w, b), eps=1e-6, atol=1e-4))
'''

PROGRAMS['mul_constant_docs'] = r'''
import torch
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        _, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = MulConstant.apply(x, 5.5)
print(y)
y.backward(torch.ones(3))
print(x.grad)
print(y.grad_fn.constant if hasattr(y.grad_fn, 'constant') else 'no attr')
'''

PROGRAMS['mark_non_differentiable_sort'] = r'''
import torch
class Func(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx
    @staticmethod
    def backward(ctx, g1, g2):
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input
x = torch.tensor([3., 1., 2.], requires_grad=True)
a, b = Func.apply(x)
print(a, b)
print(a.requires_grad, b.requires_grad, b.grad_fn)
(a * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
'''

PROGRAMS['set_materialize_grads_docs'] = r'''
import torch
class SimpleFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('g1', g1, 'g2', g2)
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input
a = torch.tensor(1., requires_grad=True)
b, _ = SimpleFunc.apply(a)
b.backward()
print(a.grad)
class Mat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('mat', g1, g2)
        return g1 + g2
c = torch.tensor([1., 2.], requires_grad=True)
p, q = Mat.apply(c)
p.sum().backward()
print(c.grad)
'''

PROGRAMS['once_differentiable_double'] = r'''
import torch
from torch.autograd.function import once_differentiable
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print(torch.is_grad_enabled(), g.requires_grad)
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Square.apply(x).sum()
(gx,) = torch.autograd.grad(y, x, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn)
try:
    gx.sum().backward()
except RuntimeError as e:
    print(e)
'''

PROGRAMS['ctx_nontensor_attrs'] = r'''
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor, shift=0.0):
        ctx.factor = factor
        ctx.shift = shift
        ctx.shape = x.shape
        return x * factor + shift
    @staticmethod
    def backward(ctx, grad):
        print(ctx.factor, ctx.shift, ctx.shape)
        return grad * ctx.factor, None, None
x = torch.ones(2, 3, requires_grad=True)
y = Scale.apply(x, 3, 1.5)
print(y)
y.backward(torch.full((2, 3), 2.0))
print(x.grad)
print(Scale.apply(torch.tensor([1., 2.]), 2))
'''

PROGRAMS['double_backward_tutorial_square'] = r'''
import torch
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
x = torch.tensor([0.5, -1.5, 2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
h, = torch.autograd.grad(g.sum(), x)
print(h)
'''

PROGRAMS['double_backward_save_output'] = r'''
import torch
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out
x = torch.tensor([0.0, 1.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradgradcheck(Exp.apply, x))
y = Exp.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g.grad_fn)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
'''

PROGRAMS['double_backward_intermediate_sinh'] = r'''
import torch
class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx
    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input
def sinh(x):
    return Sinh.apply(x)[0]
x = torch.tensor([0.25, -0.5], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(sinh, x))
print(torch.autograd.gradgradcheck(sinh, x))
out = sinh(x)
print(out)
'''

PROGRAMS['gentle_intro_frozen_resnet_like'] = r'''
import torch
from torch import nn, optim
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(3, 2)
with torch.no_grad():
    model[0].weight.fill_(0.1); model[0].bias.fill_(0.0)
    model[2].weight.copy_(torch.tensor([[1., 2., 3.], [-1., 0., 1.]])); model[2].bias.zero_()
print([p.requires_grad for p in model.parameters()])
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
x = torch.ones(1, 4)
out = model(x)
print(out)
out.sum().backward()
print(model[0].weight.grad, model[2].weight.grad)
optimizer.step()
print(model[2].weight)
'''

PROGRAMS['polynomial_numpy_style_tensors'] = r'''
import torch, math
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
a = torch.tensor(0.); b = torch.tensor(0.5); c = torch.tensor(0.); d = torch.tensor(-0.1)
learning_rate = 1e-6
for t in range(500):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, round(loss, 1))
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {round(a.item(), 2) + 0.0} + {round(b.item(), 2) + 0.0} x + {round(c.item(), 2) + 0.0} x^2 + {round(d.item(), 2) + 0.0} x^3')
'''

PROGRAMS['nn_sequential_flatten_poly'] = r'''
import torch, math
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, 0.0, -0.05]]))
    model[0].bias.fill_(0.0)
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print('Result:', [round(v, 3) + 0.0 for v in [linear_layer.bias.item()] + linear_layer.weight[0].tolist()])
print(model)
print(y_pred.grad_fn, loss.grad_fn)
'''

PROGRAMS['hooks_register_hook_print_grad'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: print('grad of y:', g))
z = y.pow(2).sum()
z.backward()
print(x.grad)
h.remove()
x.grad.data.zero_()
z = (x * 2).pow(2).sum()
z.backward()
print(x.grad)
def double(g):
    return g * 2
x.register_hook(double)
x.grad = None
(x ** 2).sum().backward()
print(x.grad)
print(h)
'''

PROGRAMS['module_forward_hooks_activations'] = r'''
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, 0.2, 0.3], [-0.3, 0.2, -0.1]]))
    model[0].bias.fill_(0.5)
    model[2].weight.fill_(1.0)
    model[2].bias.zero_()
activations = {}
def save(name):
    def hook(module, inp, out):
        activations[name] = out.detach()
        print(name, type(module).__name__, [i.shape for i in inp], out.shape)
    return hook
handles = [m.register_forward_hook(save(str(i))) for i, m in enumerate(model)]
pre = model[0].register_forward_pre_hook(lambda m, inp: print('pre', inp[0]))
out = model(torch.tensor([[1., 2., 3.]]))
print(out)
for k, v in activations.items():
    print(k, v)
for h in handles:
    h.remove()
pre.remove()
out = model(torch.tensor([[1., 2., 3.]]))
print(len(activations))
'''

PROGRAMS['full_backward_hook_grads'] = r'''
import torch
import torch.nn as nn
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2.], [3., 4.]]))
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
def bhook(module, grad_input, grad_output):
    print('grad_input', grad_input)
    print('grad_output', grad_output)
h = lin.register_full_backward_hook(bhook)
x = torch.tensor([[1., -1.]], requires_grad=True)
lin(x).sum().backward()
print(x.grad, lin.weight.grad, lin.bias.grad)
h.remove()
def scale(module, grad_input, grad_output):
    return (grad_input[0] * 10,)
lin.register_full_backward_hook(scale)
x.grad = None
lin(x).sum().backward()
print(x.grad)
pre = lin.register_full_backward_pre_hook(lambda m, go: print('pre', go))
x.grad = None
(lin(x) * 2).sum().backward()
print(x.grad)
'''

PROGRAMS['retain_grad_chain'] = r'''
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = a * a
b.retain_grad()
c = b.mean()
c.retain_grad()
d = c * 10
d.backward()
print(a.grad, b.grad, c.grad)
print(b.requires_grad, b.is_leaf, b.grad_fn, c.grad_fn)
print(d.grad)
e = a.detach()
print(e.requires_grad, e.grad_fn, e.is_leaf)
try:
    e.retain_grad()
except RuntimeError as err:
    print(err)
a.retain_grad()
print(a.retains_grad)
'''

PROGRAMS['requires_grad_detach_nograd_modes'] = r'''
import torch
x = torch.ones(2, 2)
print(x.requires_grad)
x.requires_grad_()
print(x.requires_grad)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
print(z, out)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
out.backward()
print(x.grad)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
print(x.requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
'''

PROGRAMS['grad_modes_decorators'] = r'''
import torch
x = torch.tensor([1.], requires_grad=True)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    z = tripler(x)
print(z.requires_grad, z.grad_fn)
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
print(torch.is_grad_enabled())
with torch.inference_mode():
    w = x * 5
print(w.requires_grad, w.is_inference(), x.is_inference())
@torch.inference_mode()
def f(t):
    return t + 1
print(f(x).requires_grad, torch.is_inference_mode_enabled())
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), (x * 1).requires_grad)
'''

PROGRAMS['inplace_sigmoid_saved_output_error'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)
c = a.exp()
d = c * 2
c.add_(1)
try:
    d.sum().backward()
    print('ok', a.grad)
except RuntimeError as e:
    print(e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.tanh()
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)
print(y._version, x._version)
'''

PROGRAMS['leaf_inplace_errors'] = r'''
import torch
w = torch.tensor([1., 2.], requires_grad=True)
try:
    w += 1
except RuntimeError as e:
    print(e)
try:
    w.add_(1)
except RuntimeError as e:
    print(e)
try:
    w[0] = 5
except RuntimeError as e:
    print(e)
with torch.no_grad():
    w += 1
    w[0] = 5
print(w, w.is_leaf, w.grad_fn)
v = w.view(2)
try:
    v.mul_(2)
except RuntimeError as e:
    print(e)
try:
    w.data.mul_(2)
    print(w)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['nonleaf_grad_access_warning_text'] = r'''
import torch, warnings
warnings.simplefilter('always')
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(y.grad)
    z = torch.tensor([3.])
    print(z.grad)
    print(x.grad)
for item in w:
    print(item.category.__name__)
    print(str(item.message))
'''

PROGRAMS['repr_grad_fn_variety'] = r'''
import torch
x = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
print(x)
print(x + 1)
print(x * 2)
print(x - 1)
print(x / 2)
print(x @ x)
print(x.t())
print(x.sum())
print(x.mean())
print(x.sum(dim=0))
print(x.mean(dim=1))
print(x.exp())
print(x.relu())
print(torch.sigmoid(x))
print(x.view(4))
print(x.reshape(-1))
print(x[0])
print(x[:, 1])
print(x.max())
print(x.abs())
print(x.pow(2))
print(x ** 0.5)
print(-x)
print(x.clone())
print(x.unsqueeze(0))
print(x.squeeze())
print(x.flatten())
print(x.T)
print(torch.cat([x, x]))
print(torch.stack([x, x]))
print(x.clamp(min=0))
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(x.norm())
print(x.softmax(dim=1))
print(x.log_softmax(dim=1))
print(x.expand(2, 2, 2).shape)
print(x.to(torch.float64))
print(x.double())
print(x.half())
'''

PROGRAMS['float64_repr_and_precision'] = r'''
import torch
a = torch.tensor([1.0, 2.5, 3.25], dtype=torch.float64, requires_grad=True)
print(a)
b = a * 3
print(b)
print(b.sum())
b.sum().backward()
print(a.grad)
print(a.grad.dtype)
c = torch.tensor([1/3, 2/3], dtype=torch.double)
print(c)
torch.set_printoptions(precision=8)
print(c)
print(c.float())
torch.set_printoptions(precision=4)
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([1e-5, 1.0, 1e5], dtype=torch.float64))
print(torch.tensor([1.5, 2.0], dtype=torch.float16, requires_grad=True))
print(torch.tensor(3.14159, dtype=torch.float64))
print(torch.tensor([100000000.0, 1.0]))
print(torch.tensor([0.1, 0.25], dtype=torch.float64) * 2)
'''

PROGRAMS['jacobian_hessian_docs'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0., 1.], [1., 0.5]])
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.tensor([0., 1.]), torch.tensor([1., 2.]))
print(jacobian(exp_adder, inputs))
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.tensor([[1., 2.], [0.5, -1.]])
print(hessian(pow_reducer, inputs))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(hessian(pow_adder_reducer, inputs))
v = torch.ones(2)
print(vjp(exp_reducer, torch.tensor([[0., 1.], [1., 0.5]]), v))
print(jvp(exp_reducer, torch.tensor([[0., 1.], [1., 0.5]]), torch.ones(2, 2)))
print(hvp(pow_reducer, inputs[0], torch.ones(2)))
print(vhp(pow_reducer, inputs[0], torch.ones(2)))
'''

PROGRAMS['grad_accumulation_two_backward'] = r'''
import torch
w = torch.tensor([1.0, -1.0], requires_grad=True)
x1 = torch.tensor([2.0, 3.0]); x2 = torch.tensor([-1.0, 0.5])
loss1 = (w * x1).sum() ** 2
loss2 = (w * x2).sum() ** 2
loss1.backward()
print(w.grad)
loss2.backward()
print(w.grad)
w.grad.zero_()
print(w.grad)
(loss1 + loss2) if False else None
l = (w * x1).sum()
l.backward(retain_graph=True)
l.backward()
print(w.grad)
w.grad.data.zero_()
print(w.grad, w.grad.requires_grad)
w.grad = None
print(w.grad)
'''

PROGRAMS['item_tolist_scalars'] = r'''
import torch
x = torch.tensor([[1.5, 2.0], [3.0, -4.25]], requires_grad=True)
loss = (x ** 2).sum()
print(loss.item(), type(loss.item()).__name__)
print(x.tolist())
print(x.detach().numpy().tolist())
print(x[0, 1].item())
print(torch.tensor(3).item(), type(torch.tensor(3).item()).__name__)
print(torch.tensor(True).item())
print(torch.tensor([1, 2]).tolist(), torch.tensor(2.5).tolist())
print(float(loss), int(x[1, 0]), bool(x[0, 0] > 1))
try:
    x.item()
except RuntimeError as e:
    print(e)
try:
    x.numpy()
except RuntimeError as e:
    print(e)
print(round(loss.item(), 2), f"{loss.item():.3f}", f"{loss:.2f}")
'''

PROGRAMS['manual_seed_shapes'] = r'''
import torch
torch.manual_seed(0)
a = torch.randn(3, 4)
b = torch.rand(2, 5, dtype=torch.float64)
c = torch.randint(0, 10, (4,))
d = torch.randn(2, 3, requires_grad=True)
print(a.shape, a.dtype, b.shape, b.dtype, c.shape, c.dtype, d.requires_grad)
print(torch.randn(3).size(), torch.randn(()).dim())
e = torch.randn_like(a)
print(e.shape, e.dtype)
g = torch.Generator().manual_seed(42)
print(torch.rand(2, generator=g).shape)
print(torch.randperm(5).sort().values)
print(((b >= 0) & (b < 1)).all())
print(torch.initial_seed())
'''

PROGRAMS['broadcasting_grads'] = r'''
import torch
a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
b = torch.tensor([10., 20., 30.], requires_grad=True)
c = torch.tensor(2., requires_grad=True)
d = torch.tensor([[1.], [-1.]], requires_grad=True)
out = (a * b + c) * d
print(out)
out.sum().backward()
print(a.grad)
print(b.grad)
print(c.grad)
print(d.grad)
e = torch.ones(3, 1, requires_grad=True)
f = torch.ones(1, 4, requires_grad=True)
(e + f).pow(2).sum().backward()
print(e.grad, f.grad)
'''

PROGRAMS['where_clamp_grads'] = r'''
import torch
x = torch.tensor([-2., -0.5, 0., 0.5, 2.], requires_grad=True)
y = torch.where(x > 0, x ** 2, -x)
print(y)
y.sum().backward()
print(x.grad)
x.grad = None
z = x.clamp(-1, 1)
print(z)
z.sum().backward()
print(x.grad)
x.grad = None
w = torch.clamp(x, min=0.0)
w.sum().backward()
print(x.grad)
x.grad = None
v = x.clamp(max=0.5)
(v * v).sum().backward()
print(x.grad)
x.grad = None
torch.where(x < 0, torch.zeros_like(x), x).sum().backward()
print(x.grad, torch.where(x > 0))
'''

PROGRAMS['indexing_slicing_grads'] = r'''
import torch
x = torch.arange(12, dtype=torch.float32).reshape(3, 4).requires_grad_()
print(x)
y = x[1:, ::2]
print(y)
y.sum().backward()
print(x.grad)
x.grad = None
z = x[[0, 2, 0], [1, 3, 1]]
print(z)
z.sum().backward()
print(x.grad)
x.grad = None
m = x[x > 5]
print(m)
(m * 2).sum().backward()
print(x.grad)
x.grad = None
x[..., -1].sum().backward()
print(x.grad)
x.grad = None
x[None, 1, :, None].sum().backward()
print(x.grad)
print(x[0, 0], x[0][0].grad_fn, x[1:2].grad_fn, x[[1]].grad_fn, x[x > 5].grad_fn)
'''

PROGRAMS['sum_dim_mean_grads'] = r'''
import torch
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
s = x.sum(dim=0)
print(s, s.grad_fn)
s.backward(torch.tensor([1., 10., 100.]))
print(x.grad)
x.grad = None
m = x.mean(dim=1, keepdim=True)
print(m)
m.sum().backward()
print(x.grad)
x.grad = None
x.sum(dim=(0, 1)).backward()
print(x.grad)
x.grad = None
x.mean().backward()
print(x.grad)
x.grad = None
x.sum(-1).mean().backward()
print(x.grad)
print(x.sum(1).shape, x.sum(1, keepdim=True).shape, x.mean(0).dtype)
print(torch.sum(x, 1), torch.mean(x, 0))
'''

PROGRAMS['max_argmax_grads'] = r'''
import torch
x = torch.tensor([[1., 5., 3.], [7., 2., 7.]], requires_grad=True)
m = x.max()
print(m, m.grad_fn)
m.backward()
print(x.grad)
x.grad = None
vals, idx = x.max(dim=1)
print(vals, idx)
print(vals.grad_fn)
vals.sum().backward()
print(x.grad)
print(x.argmax(), x.argmax(dim=1), x.argmin(dim=0))
x.grad = None
mn = x.min(dim=0, keepdim=True)
print(mn)
mn.values.sum().backward()
print(x.grad)
x.grad = None
torch.amax(x, dim=1).sum().backward()
print(x.grad)
x.grad = None
torch.maximum(x, torch.tensor(4.)).sum().backward()
print(x.grad)
'''

PROGRAMS['softmax_logsoftmax_ce'] = r'''
import torch
import torch.nn.functional as F
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, -1.0]], requires_grad=True)
target = torch.tensor([0, 1])
p = F.softmax(logits, dim=1)
print(p)
print(p.sum(dim=1))
lp = F.log_softmax(logits, dim=1)
print(lp)
loss = F.nll_loss(lp, target)
print(loss)
loss.backward()
print(logits.grad)
logits.grad = None
ce = F.cross_entropy(logits, target)
print(ce)
ce.backward()
print(logits.grad)
logits.grad = None
loss_fn = torch.nn.CrossEntropyLoss(reduction='sum')
l2 = loss_fn(logits, target)
print(l2)
l2.backward()
print(logits.grad)
print(F.cross_entropy(logits, torch.tensor([[0.7, 0.2, 0.1], [0., 1., 0.]])))
print(F.cross_entropy(logits, target, label_smoothing=0.1))
print(torch.softmax(logits, 0))
'''

PROGRAMS['mse_loss_variants'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
pred = torch.tensor([[0.5, 1.5], [2.0, -1.0]], requires_grad=True)
target = torch.tensor([[1.0, 1.0], [2.0, 0.0]])
loss = F.mse_loss(pred, target)
print(loss, loss.grad_fn)
loss.backward()
print(pred.grad)
pred.grad.zero_()
crit = nn.MSELoss(reduction='sum')
l = crit(pred, target)
print(l)
l.backward()
print(pred.grad)
print(nn.MSELoss(reduction='none')(pred, target))
print(nn.L1Loss()(pred, target), nn.SmoothL1Loss()(pred, target), nn.HuberLoss(delta=0.5)(pred, target))
print(crit)
'''

PROGRAMS['linear_nograd_init_fill_copy'] = r'''
import torch
import torch.nn as nn
layer = nn.Linear(3, 2)
with torch.no_grad():
    layer.weight.fill_(0.5)
    layer.bias.copy_(torch.tensor([1.0, -1.0]))
print(layer.weight)
print(layer.bias)
x = torch.tensor([[1., 2., 3.], [0., -1., 1.]])
y = layer(x)
print(y)
print(y.grad_fn)
y.pow(2).mean().backward()
print(layer.weight.grad)
print(layer.bias.grad)
print(layer)
print(layer.weight.shape, layer.in_features, layer.out_features)
nobias = nn.Linear(2, 1, bias=False)
print(nobias.bias, nobias)
with torch.no_grad():
    nobias.weight[:] = torch.tensor([[3., 4.]])
print(nobias(torch.ones(1, 2)))
'''

PROGRAMS['sgd_momentum_weight_decay'] = r'''
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, weight_decay=0.01)
print(opt)
for step in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    print(step, w, opt.state[w]['momentum_buffer'])
w2 = torch.tensor([1.0, -2.0], requires_grad=True)
opt2 = torch.optim.SGD([w2], lr=0.1, momentum=0.9, dampening=0.1, nesterov=False)
for _ in range(2):
    opt2.zero_grad(set_to_none=False)
    (w2 * torch.tensor([1., 2.])).sum().backward()
    opt2.step()
print(w2, w2.grad)
opt2.zero_grad(set_to_none=True)
print(w2.grad)
opt2.zero_grad()
print(w2.grad)
print(opt2.state_dict()['param_groups'])
'''

PROGRAMS['autograd_grad_create_graph_allow_unused'] = r'''
import torch
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x ** 3 + 2 * x
dz_dx, = torch.autograd.grad(z, x, create_graph=True)
print(dz_dx)
d2z, = torch.autograd.grad(dz_dx, x)
print(d2z)
out = x * 2
try:
    torch.autograd.grad(out, [x, y])
except RuntimeError as e:
    print(e)
gx, gy = torch.autograd.grad(x * 2, [x, y], allow_unused=True)
print(gx, gy)
gx, gy = torch.autograd.grad(x * 2, [x, y], allow_unused=True, materialize_grads=True)
print(gx, gy)
w = x * y
g1 = torch.autograd.grad(w, x, retain_graph=True)
g2 = torch.autograd.grad(w, y)
print(g1, g2)
try:
    torch.autograd.grad(w, x)
except RuntimeError as e:
    print(e)
print(x.grad, y.grad)
'''

PROGRAMS['backward_twice_retain_graph_text'] = r'''
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
loss = y.sum()
loss.backward(retain_graph=True)
print(x.grad)
loss.backward()
print(x.grad)
try:
    loss.backward()
except RuntimeError as e:
    print(e)
z = (x * x).sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(e)
v = x.tanh()
v.sum().backward()
try:
    print(v.grad_fn._saved_result)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['polynomial_optim_rmsprop'] = r'''
import torch
import math
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.3, -0.2, 0.1]]))
    model[0].bias.fill_(0.1)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
print(optimizer)
for t in range(2000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t in (499, 1499, 1999):  # (near step 999 RMSprop's steps amplify float32 sum-order differences)
        print(t, round(loss.item(), 1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print('Result:', [round(v, 2) + 0.0 for v in [linear_layer.bias.item()] + linear_layer.weight[0].tolist()])
'''

PROGRAMS['adagrad_adamw_rmsprop_steps'] = r'''
import torch
for name, kw in [('Adagrad', dict(lr=0.1)), ('Adagrad', dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)), ('RMSprop', dict(lr=0.01, alpha=0.9, momentum=0.5, centered=True)), ('RMSprop', dict(lr=0.01, weight_decay=0.1)), ('Adamax', dict(lr=0.1)), ('Adadelta', dict(lr=1.0, weight_decay=0.01))]:
    if not hasattr(torch.optim, name):
        print('missing', name); continue
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = getattr(torch.optim, name)([w], **kw)
    for _ in range(3):
        opt.zero_grad()
        ((w - 1) ** 2 * torch.tensor([1., 2., 3.])).sum().backward()
        opt.step()
    print(name, [round(v, 5) for v in w.tolist()], sorted(opt.state[w]))
    print(opt)
'''

PROGRAMS['custom_module_polynomial3'] = r'''
import torch
import math
class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.8))
        self.c = torch.nn.Parameter(torch.tensor(-0.05))
        self.d = torch.nn.Parameter(torch.tensor(-0.1))
    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
    def string(self):
        return f'y = {self.a.item():.3f} + {self.b.item():.3f} x + {self.c.item():.3f} x^2 + {self.d.item():.3f} x^3'
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Polynomial3()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(1000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 250 == 249:
        print(t, round(loss.item(), 2))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(model)
print([n for n, _ in model.named_parameters()])
'''

PROGRAMS['lr_scheduler_steplr'] = r'''
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]['lr'], round(w.item(), 6))
'''

PROGRAMS['index_add_scatter_inplace'] = r'''
import torch
x = torch.zeros(5, 3)
t = torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]], requires_grad=True)
index = torch.tensor([0, 4, 2])
y = x.index_add(0, index, t)
print(y)
z = torch.zeros(5, 3).index_add_(0, index, t * 2)
print(z)
z.sum().backward()
print(t.grad)
src = torch.arange(1, 11, dtype=torch.float32).reshape((2, 5))
idx = torch.tensor([[0, 1, 2, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(0, idx, src))
print(torch.zeros(3, 5).scatter_add_(0, torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]), src))
'''

PROGRAMS['addmm_addcmul_addcdiv'] = r'''
import torch
M = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
a = torch.tensor([[1., 0.], [0., 1.]], requires_grad=True)
b = torch.tensor([[2., 3.], [4., 5.]], requires_grad=True)
out = torch.addmm(M, a, b, beta=0.5, alpha=2)
print(out)
out.sum().backward()
print(M.grad, a.grad, b.grad)
t = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([3., 4.], requires_grad=True)
v = torch.tensor([5., 6.], requires_grad=True)
r = torch.addcmul(t, u, v, value=0.1)
q = torch.addcdiv(t, u, v, value=2)
print(r, q)
(r + q).sum().backward()
print(t.grad, u.grad, v.grad)
p = torch.tensor([1., 1.])
p.addcmul_(torch.tensor([2., 3.]), torch.tensor([4., 5.]), value=-1)
p.addcdiv_(torch.tensor([2., 3.]), torch.tensor([4., 5.]))
print(p)
'''

PROGRAMS['two_layer_net_custom_relu_clamp'] = r'''
import torch
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input
dtype = torch.float
x = torch.linspace(-1, 1, 12).reshape(4, 3)
y = torch.linspace(0, 1, 8).reshape(4, 2)
w1 = torch.linspace(-0.5, 0.5, 15).reshape(3, 5).requires_grad_()
w2 = torch.linspace(0.3, -0.3, 10).reshape(5, 2).requires_grad_()
learning_rate = 1e-2
for t in range(3):
    relu = MyReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, round(loss.item(), 5))
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(y_pred.grad_fn)
print(y_pred.grad_fn.next_functions)
print(w1.grad)
'''

PROGRAMS['nn_module_manual_update'] = r'''
import torch
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) * 0.3)
x = torch.tensor([[1., 2.], [-1., 0.5], [0., 1.]])
y = torch.tensor([[1.], [0.], [2.]])
loss_fn = torch.nn.MSELoss(reduction='sum')
for t in range(3):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    print(t, round(loss.item(), 4))
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-2 * param.grad
for name, param in model.named_parameters():
    print(name, param.shape, param.requires_grad, param.grad is not None)
print(model[0].weight)
print(model.state_dict().keys())
print(list(model.state_dict().values())[1])
'''

PROGRAMS['parameter_repr_printing'] = r'''
import torch
import torch.nn as nn
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p))
print(p * 2)
print(p.data)
print(p.detach())
print(type(p).__name__, isinstance(p, torch.Tensor))
q = nn.Parameter(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64), requires_grad=False)
print(q)
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(0.25); lin.bias.fill_(-1)
for p in lin.parameters():
    print(p)
print(list(lin.named_parameters()))
print(lin.weight.grad)
print(nn.Parameter(torch.tensor(3.)))
'''

PROGRAMS['freeze_requires_grad_false'] = r'''
import torch
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1., 0.], [0., 1.]])); net[0].bias.zero_()
    net[1].weight.copy_(torch.tensor([[2., 3.]])); net[1].bias.fill_(0.5)
net[0].requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
x = torch.tensor([[1., 2.]])
out = net(x)
print(out, out.requires_grad)
out.backward()
print(net[0].weight.grad, net[1].weight.grad, net[1].bias.grad)
h = net[0](x)
print(h.requires_grad, h.grad_fn)
for p in net.parameters():
    p.requires_grad = False
print(net(x).requires_grad, net(x).grad_fn)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, net[1].parameters()), lr=0.1) if False else None
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
'''

PROGRAMS['custom_function_needs_input_grad_nontensor'] = r'''
import torch
class ScaleShift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, shift, flag):
        ctx.save_for_backward(x, shift)
        ctx.scale = scale
        ctx.flag = flag
        return x * scale + shift
    @staticmethod
    def backward(ctx, grad):
        print('needs_input_grad', ctx.needs_input_grad)
        x, shift = ctx.saved_tensors
        gx = grad * ctx.scale if ctx.needs_input_grad[0] else None
        gs = grad.sum(0) if ctx.needs_input_grad[2] else None
        return gx, None, gs, None
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = torch.tensor([0.5, -0.5])
y = ScaleShift.apply(x, 3.0, b, 'hello')
print(y)
y.sum().backward()
print(x.grad, b.grad)
b.requires_grad_()
x.requires_grad_(False)
ScaleShift.apply(x, 2, b, None).sum().backward()
print(b.grad)
print(x.grad)
'''

PROGRAMS['custom_function_mark_dirty_inplace'] = r'''
import torch
class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, grad):
        return grad
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = AddOneInplace.apply(b)
print(c, c is b, b._version)
print(c.grad_fn)
(c * 2).sum().backward()
print(a.grad)
try:
    AddOneInplace.apply(a)
except RuntimeError as e:
    print(e)
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
try:
    Bad.apply(a.clone())
    print('no error')
except RuntimeError as e:
    print(e)
'''

PROGRAMS['custom_function_save_output_and_nonetensor_output'] = r'''
import torch
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x * x
        ctx.save_for_backward(x, out)
        return out, 'meta', 3
    @staticmethod
    def backward(ctx, g, g2, g3):
        x, out = ctx.saved_tensors
        print(g2, g3)
        return 2 * x * g
x = torch.tensor([1., 2., 3.], requires_grad=True)
y, meta, n = Sq.apply(x)
print(y, meta, n)
y.sum().backward()
print(x.grad)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print(y.grad_fn.next_functions)
print(Sq.apply(torch.tensor([2.]))[0])
'''

PROGRAMS['custom_function_vjp_jvp_forward_ad'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.x = x
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
    @staticmethod
    def jvp(ctx, t):
        return 3 * ctx.x ** 2 * t
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (x,), check_forward_ad=True))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.5]))
    out = Cube.apply(d)
    print(fwAD.unpack_dual(out).tangent)
    print(fwAD.unpack_dual(out).primal)
'''

PROGRAMS['detach_vs_data_and_clone'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.detach()
c = a.data
print(b.requires_grad, c.requires_grad, b.is_leaf, c.is_leaf)
b.zero_()
print(a)
a2 = torch.tensor([1., 2., 3.], requires_grad=True)
out = a2.sigmoid()
out.detach().zero_()
try:
    out.sum().backward()
except RuntimeError as e:
    print(e)
a3 = torch.tensor([1., 2., 3.], requires_grad=True)
out3 = a3.sigmoid()
out3.data.zero_()
out3.sum().backward()
print(a3.grad)
d = a3.clone()
print(d.grad_fn, d.requires_grad)
e = a3.detach().clone()
print(e.grad_fn, e.requires_grad)
f = a3.clone().detach().requires_grad_(True)
print(f.is_leaf, f.requires_grad)
print(torch.tensor(a3.tolist()).requires_grad)
'''

PROGRAMS['version_counter_saved_tensor_errors'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
z = y ** 2
y.mul_(2)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
v = w.clone()
out = v.mm(v)
v[0, 0] = 10
try:
    out.sum().backward()
except RuntimeError as e:
    print(e)
u = torch.tensor([1., 2.], requires_grad=True).clone()
s = u.exp()
s += 1
try:
    s.sum().backward()
except RuntimeError as e:
    print(e)
'''

PROGRAMS['inference_mode_tensors'] = r'''
import torch
x = torch.ones(2, 2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(y.requires_grad, y.is_inference())
try:
    (y * x).sum().backward()
except RuntimeError as e:
    print(e)
try:
    y.add_(1)
except RuntimeError as e:
    print(e)
z = y.clone()
print(z.is_inference(), z.requires_grad)
try:
    y.requires_grad_()
except RuntimeError as e:
    print(e)
with torch.inference_mode():
    w = torch.zeros(3)
    w.add_(1)
print(w)
print(torch.is_inference_mode_enabled())
'''

PROGRAMS['variable_legacy_api'] = r'''
import torch
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)
print(x.data)
v = Variable(torch.tensor([1., 2.]))
print(v.requires_grad, type(v).__name__)
print(isinstance(x, torch.Tensor))
'''

PROGRAMS['jacobian_by_rows_retain_graph'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, torch.sin(x[2]), x.sum()])
rows = []
for i in range(y.numel()):
    g, = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(g)
J = torch.stack(rows)
print(J)
print(torch.autograd.functional.jacobian(lambda t: torch.stack([t[0] * t[1], t[1] ** 2, torch.sin(t[2]), t.sum()]), x))
print(torch.autograd.functional.jacobian(lambda t: t ** 2, x, vectorize=True))
'''

PROGRAMS['hvp_double_grad'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
def f(x):
    return (x[0] ** 2) * x[1] + x[1] ** 3
y = f(x)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
v = torch.tensor([1., 0.])
hv, = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
print(hv)
H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)])
print(H)
print(torch.autograd.functional.hessian(f, x))
gg = torch.autograd.grad(g.sum(), x, create_graph=True)[0]
print(gg, gg.grad_fn)
'''

PROGRAMS['higher_order_sin'] = r'''
import torch
x = torch.tensor(0.5, requires_grad=True)
y = torch.sin(x)
grads = []
g = y
for i in range(4):
    g, = torch.autograd.grad(g, x, create_graph=True)
    grads.append(g)
for i, gi in enumerate(grads):
    print(i + 1, gi, gi.grad_fn)
'''

PROGRAMS['autograd_backward_multiple'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
l1 = (x ** 2).sum()
l2 = (x * 3).sum()
torch.autograd.backward([l1, l2])
print(x.grad)
x.grad = None
y = x * 2
torch.autograd.backward([y], [torch.tensor([1., 0.5])])
print(x.grad)
x.grad = None
torch.autograd.backward(((x ** 2).sum(),), inputs=[x])
print(x.grad)
try:
    torch.autograd.backward([x * 2])
except RuntimeError as e:
    print(e)
print(torch.autograd.grad([(x ** 2).sum(), (x ** 3).sum()], [x]))
print(torch.autograd.grad(x * 2, x, grad_outputs=torch.ones_like(x)))
'''

PROGRAMS['mixed_dtype_param_grad'] = r'''
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
data = torch.tensor([0.5, 0.25], dtype=torch.float64)
out = (w * data).sum()
print(out, out.dtype)
out.backward()
print(w.grad, w.grad.dtype)
i = torch.tensor([1, 2])
y = w * i
print(y, y.dtype)
y.sum().backward()
print(w.grad)
h = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
z = (h * w).sum()
print(z, z.dtype)
z.backward()
print(h.grad, h.grad.dtype, w.grad)
'''

PROGRAMS['reductions_grads_more'] = r'''
import torch
x = torch.tensor([[1., 2., 0.], [3., -1., 2.]], requires_grad=True)
for name, fn in [('prod', lambda t: t.prod()), ('prod_dim', lambda t: t.prod(dim=1).sum()), ('cumsum', lambda t: t.cumsum(dim=1).sum()),
                 ('std', lambda t: t.std()), ('var', lambda t: t.var(dim=0).sum()), ('logsumexp', lambda t: t.logsumexp(dim=1).sum()),
                 ('norm', lambda t: t.norm()), ('norm1', lambda t: t.norm(p=1)), ('amax', lambda t: t.amax(dim=0).sum()),
                 ('median', lambda t: t.median()), ('sort', lambda t: (t.sort(dim=1).values * torch.tensor([1., 2., 3.])).sum()),
                 ('topk', lambda t: t.flatten().topk(2).values.sum()), ('kthvalue', lambda t: t.kthvalue(2, dim=1).values.sum()),
                 ('mean_sq', lambda t: (t ** 2).mean()), ('abs', lambda t: t.abs().sum()), ('linalg_norm', lambda t: torch.linalg.norm(t))]:
    x.grad = None
    out = fn(x)
    out.backward()
    print(name, round(out.item(), 4), out.grad_fn.name() if out.grad_fn else None)
    print(x.grad)
'''

PROGRAMS['gather_manual_cross_entropy'] = r'''
import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
target = torch.tensor([1, 2])
logp = logits.log_softmax(dim=1)
picked = logp.gather(1, target.unsqueeze(1)).squeeze(1)
loss = -picked.mean()
print(loss, picked.grad_fn, logp.grad_fn)
loss.backward()
print(logits.grad)
oh = F.one_hot(target, num_classes=3)
print(oh, oh.dtype)
loss2 = -(oh * logits.log_softmax(1)).sum(1).mean()
print(loss2)
logits.grad = None
loss2.backward()
print(logits.grad)
m = logits.masked_fill(oh.bool(), 0.0)
print(m)
'''

PROGRAMS['einsum_dot_outer_mv_grads'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([4., 5., 6.], requires_grad=True)
M = torch.tensor([[1., 0., 2.], [0., 1., -1.]], requires_grad=True)
d = torch.dot(a, b)
o = torch.outer(a, b)
v = torch.mv(M, a)
e = torch.einsum('i,i->', a, b)
f = torch.einsum('ij,j->i', M, b)
print(d, o.grad_fn, v, e, f)
(d + o.sum() + v.sum() + e + f.sum()).backward()
print(a.grad, b.grad, M.grad)
print(torch.einsum('ij,kj->ik', M, M))
print((a @ b), (M @ a).grad_fn)
'''

PROGRAMS['new_tensor_factories'] = r'''
import torch
x = torch.tensor([[1., 2.]], dtype=torch.float64, requires_grad=True)
print(x.new_zeros(2, 3))
print(x.new_ones((1, 2)))
print(x.new_full((2,), 7))
print(x.new_tensor([1, 2]))
print(x.new_empty(0).shape)
print(torch.zeros_like(x, requires_grad=True))
print(torch.ones_like(x, dtype=torch.int32))
print(torch.full_like(x, 3.5))
print(torch.empty(2, 3).shape, torch.eye(2, dtype=torch.float64, requires_grad=True))
print(torch.arange(0, 1, 0.25, requires_grad=True))
print(torch.linspace(0, 1, steps=5, requires_grad=True))
print(torch.full((2, 2), 1.5, requires_grad=True))
'''

PROGRAMS['masked_select_and_nonzero'] = r'''
import torch
x = torch.tensor([[0.5, -1.0], [2.0, -0.25]], requires_grad=True)
mask = x > 0
print(mask)
sel = torch.masked_select(x, mask)
print(sel)
sel.sum().backward()
print(x.grad)
print(mask.nonzero())
print(torch.nonzero(mask, as_tuple=True))
print(mask.sum(), mask.float().mean(), mask.any(), mask.all())
print(x[mask].grad_fn)
print((x * mask).grad_fn, (x * mask).dtype)
'''

PROGRAMS['mlp_classifier_training'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 4)
        self.fc2 = nn.Linear(4, 3)
    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.fc2(x)
net = Net()
with torch.no_grad():
    net.fc1.weight.copy_(torch.tensor([[0.5, -0.2], [0.1, 0.4], [-0.3, 0.8], [0.7, 0.7]]))
    net.fc1.bias.copy_(torch.tensor([0.1, 0.0, -0.1, 0.2]))
    net.fc2.weight.copy_(torch.tensor([[0.2, -0.5, 0.3, 0.1], [0.4, 0.1, -0.2, 0.3], [-0.1, 0.2, 0.5, -0.4]]))
    net.fc2.bias.zero_()
print(net)
X = torch.tensor([[1., 2.], [-1., 0.5], [0.3, -0.7], [2., 1.]])
Y = torch.tensor([0, 1, 2, 1])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for epoch in range(5):
    optimizer.zero_grad()
    outputs = net(X)
    loss = criterion(outputs, Y)
    loss.backward()
    optimizer.step()
    _, predicted = torch.max(outputs.data, 1)
    correct = (predicted == Y).sum().item()
    print(f'epoch {epoch} loss {loss.item():.4f} acc {correct}/{len(Y)}')
print(outputs.grad_fn, loss.grad_fn)
print(net.fc2.bias)
with torch.no_grad():
    print(F.softmax(net(X), dim=1).argmax(1))
'''

PROGRAMS['train_eval_dropout_modes'] = r'''
import torch
import torch.nn as nn
m = nn.Sequential(nn.Linear(3, 3), nn.Dropout(p=0.5), nn.ReLU())
with torch.no_grad():
    m[0].weight.copy_(torch.eye(3)); m[0].bias.zero_()
print(m.training, m[1].training)
m.eval()
print(m.training, m[1].training)
x = torch.tensor([[1., -2., 3.]])
print(m(x))
m.train()
print(m[1])
d = nn.Dropout(p=0.0)
print(d(x), d(x).grad_fn)
print(torch.nn.functional.dropout(x, p=0.5, training=False))
try:
    nn.Dropout(p=1.5)
except ValueError as e:
    print(e)
y = torch.nn.functional.dropout(torch.ones(1000), p=0.3)
print(y.shape, sorted(set(y.tolist())) == [0.0, 1 / 0.7] or sorted(set([round(v, 4) for v in y.tolist()])))
'''

PROGRAMS['nn_init_functions'] = r'''
import torch
import torch.nn as nn
lin = nn.Linear(3, 2)
nn.init.constant_(lin.weight, 0.3)
nn.init.zeros_(lin.bias)
print(lin.weight, lin.bias)
nn.init.ones_(lin.bias)
print(lin.bias)
w = torch.empty(3, 3)
nn.init.eye_(w)
print(w)
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        m.bias.data.fill_(0.01)
net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
print(net.apply(init_weights))
print(net[0].weight, net[2].bias)
u = torch.empty(4, 5)
nn.init.xavier_uniform_(u)
print(u.shape, bool((u.abs() <= (6 / 9) ** 0.5).all()))
nn.init.kaiming_normal_(u, mode='fan_out', nonlinearity='relu')
print(u.shape, u.requires_grad)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('leaky_relu', 0.2))
'''

PROGRAMS['save_load_state_dict'] = r'''
import torch, io
import torch.nn as nn
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.5, -0.5]])); model.bias.fill_(0.25)
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(sd)
m2 = nn.Linear(2, 1)
print(m2.load_state_dict(sd))
print(m2.weight, m2.bias)
buf2 = io.BytesIO()
torch.save({'epoch': 3, 't': torch.tensor([1, 2]), 'loss': 0.5}, buf2)
buf2.seek(0)
print(torch.load(buf2))
'''

PROGRAMS['module_children_modules_repr'] = r'''
import torch
import torch.nn as nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.act = nn.GELU()
        self.norm = nn.LayerNorm(4)
    def forward(self, x):
        return self.norm(self.act(self.lin(x)))
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])
        self.head = nn.Linear(4, 2)
        self.register_buffer('scale', torch.tensor(2.0))
    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x) * self.scale
m = Model()
print(m)
print([n for n, _ in m.named_modules()])
print([n for n, _ in m.named_children()])
print(sum(p.numel() for p in m.parameters()))
print(list(m.buffers()))
print([k for k in m.state_dict()])
print(m.blocks[0].norm.weight, m.blocks[0].norm.bias)
print(m.head.weight.shape, m.training)
'''

PROGRAMS['activations_repr_and_grads'] = r'''
import torch
import torch.nn as nn
x = torch.tensor([-2., -0.5, 0., 0.5, 2.], requires_grad=True)
for act in [nn.ReLU(), nn.LeakyReLU(0.1), nn.ELU(), nn.GELU(), nn.SiLU(), nn.Sigmoid(), nn.Tanh(), nn.Softplus(), nn.Hardtanh(), nn.ReLU6(), nn.Mish(), nn.Softsign(), nn.Hardswish(), nn.Hardsigmoid(), nn.LogSigmoid(), nn.SELU(), nn.CELU(), nn.Tanhshrink()]:
    x.grad = None
    y = act(x)
    y.sum().backward()
    print(act, y.grad_fn.name())
    print(' ', [round(v, 4) for v in y.tolist()], [round(v, 4) for v in x.grad.tolist()])
print(nn.Softmax(dim=0)(x), nn.LogSoftmax(dim=0))
'''

PROGRAMS['common_mistake_errors'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
def E(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.arange(6.).reshape(2, 3)
E(lambda: x.t().view(6))
E(lambda: torch.ones(1, 3) @ torch.ones(2, 2))
E(lambda: nn.Linear(3, 2)(torch.ones(4, 5)))
E(lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0., 1.])))
E(lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
E(lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([[0], [1]])))
E(lambda: F.mse_loss(torch.ones(2, 3), torch.ones(3, 2)))
E(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
E(lambda: torch.cat([torch.ones(2, 2), torch.ones(3, 3)]))
E(lambda: torch.cat([torch.ones(2, 2), torch.ones(2)]))
E(lambda: torch.autograd.grad(torch.ones(2, requires_grad=True) * 2, torch.ones(2, requires_grad=True)))
E(lambda: torch.ones(3).reshape(2, 2))
E(lambda: torch.ones(2, 3).view(-1, -1))
E(lambda: torch.ones(2, 3).sum(dim=2))
E(lambda: torch.ones(2, 3)[2])
E(lambda: torch.ones(2, 3)[:, 3])
E(lambda: torch.ones(2, 3).permute(0))
E(lambda: torch.ones(2, 3).transpose(0, 2))
E(lambda: torch.ones(2, 3).squeeze(3))
E(lambda: torch.ones(2, 3).expand(3, 3))
E(lambda: torch.ones(2, 3) + torch.ones(3, 2))
E(lambda: torch.ones(2, dtype=torch.long).mean())
E(lambda: torch.tensor([1, 2]).float().requires_grad_().long().backward())
E(lambda: F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0., 1.])))
E(lambda: F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([0., 1., 1.])))
E(lambda: torch.zeros(2).normal_(std=-1))
E(lambda: torch.ones(2, 2).mm(torch.ones(2)))
E(lambda: torch.ones(2).dot(torch.ones(3)))
E(lambda: torch.ones(2, 3).max(dim=3))
'''

PROGRAMS['softmax_implicit_dim_warning'] = r'''
import torch, warnings
import torch.nn.functional as F
x = torch.tensor([[1., 2.], [3., 4.]])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(F.softmax(x))
    print(F.log_softmax(torch.tensor([1., 2., 3.])))
    print(torch.nn.Softmax()(x))
for item in w:
    print(item.category.__name__, str(item.message))
'''

PROGRAMS['grad_modes_errors_and_leaf_grad'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = x * 2
E(lambda: y.sum().backward())
E(lambda: setattr(y, 'requires_grad', True) or y.requires_grad)
z = x * 2
E(lambda: setattr(z, 'requires_grad', False))
E(lambda: z.requires_grad_(False))
E(lambda: x.detach().requires_grad_(True).is_leaf)
E(lambda: torch.zeros(2, dtype=torch.int64).requires_grad_())
E(lambda: setattr(x, 'grad', torch.ones(3)))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.float64)))
E(lambda: setattr(x, 'grad', [1., 2.]))
x.grad = torch.tensor([0.5, 0.5])
print(x.grad)
E(lambda: (x * 2).sum().backward(torch.tensor([1., 2.])))
E(lambda: (x * 2).backward(torch.ones(3)))
E(lambda: (x * 2).backward(torch.ones(2, dtype=torch.float64)) or x.grad)
'''

PROGRAMS['notes_hooks_inplace_modified'] = r'''
import torch
def fn(name):
    def hook(g):
        print(name, g)
    return hook
t = torch.tensor(1., requires_grad=True).sin()
t.cos_()
t.register_hook(fn('after cos_'))
t.backward()
t = torch.tensor(1., requires_grad=True).sin()
t.register_hook(fn('before cos_'))
t.cos_()
t.backward()
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 2
b.register_hook(fn('b'))
b.retain_grad()
b.mul_(3)
b.register_hook(fn('b after mul_'))
b.sum().backward()
print(b.grad, a.grad)
'''

PROGRAMS['notes_hook_firing_order'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
order = []
y.register_hook(lambda g: order.append('tensor_pre_hook') or None)
y.grad_fn.register_prehook(lambda go: order.append('node_pre_hook') or None)
y.grad_fn.register_hook(lambda gi, go: order.append('node_post_hook') or None)
y.retain_grad()
x.register_hook(lambda g: order.append('leaf_tensor_hook') or None)
x.register_post_accumulate_grad_hook(lambda p: order.append('post_accumulate'))
y.sum().backward()
print(order)
print(y.grad, x.grad)
def ms(g):
    print('called with', g)
    return g * 10
z = torch.tensor([1.], requires_grad=True)
w = z * 3
w.register_hook(ms)
w.register_hook(ms)
w.backward()
print(z.grad)
'''

PROGRAMS['notes_requires_grad_setting'] = r'''
import torch
import torch.nn as nn
x = torch.randn(5, 5)
y = torch.randn(5, 5)
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)
model = nn.Linear(5, 5)
for param in model.parameters():
    param.requires_grad = False
model.weight.requires_grad_(True)
print([p.requires_grad for p in model.parameters()])
out = model(torch.ones(1, 5))
out.sum().backward()
print(model.weight.grad is not None, model.bias.grad)
with torch.no_grad():
    c = z * 2
print(c.requires_grad, c.is_leaf, c.grad_fn)
d = z.detach()
print(d.requires_grad, d.is_leaf)
print(torch.no_grad, type(torch.no_grad()).__name__)
'''

PROGRAMS['notes_saved_tensors_pack_unpack'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x)
print(y.grad_fn._saved_exponent)
z = x.exp()
print(z.grad_fn._saved_result.equal(z), z.grad_fn._saved_result is z)
def pack_hook(t):
    print('packing', t)
    return t.tolist()
def unpack_hook(t):
    print('unpacking', t)
    return torch.tensor(t)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    a = torch.tensor([3., 4.], requires_grad=True)
    b = a * a
b.sum().backward()
print(a.grad)
c = torch.tensor([0.5], requires_grad=True)
d = c.sin()
d.grad_fn._raw_saved_self.register_hooks(lambda t: t * 1, lambda t: t)
d.backward()
print(c.grad)
'''

PROGRAMS['tensor_grad_fn_attrs_walk'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
out = (a * b).relu().mean()
fn = out.grad_fn
while fn is not None:
    print(fn.name(), [type(n).__name__ if n is not None else None for n, _ in fn.next_functions])
    nxt = [n for n, _ in fn.next_functions if n is not None and not type(n).__name__ == 'AccumulateGrad']
    fn = nxt[0] if nxt else None
acc = out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(type(acc).__name__, acc.variable is a)
print(out.grad_fn._saved_self_sym_sizes if hasattr(out.grad_fn, '_saved_self_sym_sizes') else None)
print(out.grad_fn._saved_self_sym_numel)
r = (a * b).relu()
print(r.grad_fn._saved_result)
print(out.grad_fn.metadata, out.grad_fn.name())
'''

PROGRAMS['complex_autograd_notes'] = r'''
import torch
z = torch.tensor([1. + 2.j, -0.5 + 0.5j], requires_grad=True)
f = (z * z.conj()).real.sum()
f.backward()
print(z.grad)
z.grad = None
g = z.abs().sum()
g.backward()
print(z.grad)
w = torch.tensor([1. + 1.j], requires_grad=True)
out = (w ** 2).abs()
out.backward()
print(w.grad, out.grad_fn, (w ** 2).grad_fn)
print(torch.view_as_real(z.detach()))
print(z.real, z.imag)
'''

PROGRAMS['einsum_graphs_like_pytorch'] = r'''
import torch
def chain(t):
    names, stack, seen = [], [t.grad_fn], set()
    while stack:
        fn = stack.pop(0)
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        names.append(type(fn).__name__)
        stack.extend(f for f, _ in fn.next_functions)
    return '/'.join(names)
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([0.5, -1., 2.], requires_grad=True)
M = torch.arange(6.).reshape(2, 3).requires_grad_()
Q = torch.linspace(-1, 1, 24).reshape(2, 3, 4).requires_grad_()
K = torch.linspace(0, 2, 24).reshape(2, 3, 4).requires_grad_()
QT = Q.detach().transpose(1, 2).requires_grad_()
N = torch.linspace(1, 2, 6).reshape(3, 2).requires_grad_()
for eq, ops in [('i,i->', (a, b)), ('ij,j->i', (M, b)), ('i,j->ij', (a, b)), ('ii->i', (torch.eye(3, requires_grad=True),)),
                ('ij->ji', (M,)), ('ij->', (M,)), ('bqd,bkd->bqk', (Q, K)), ('bij,bjk->bik', (QT, K)),
                ('...ij->...ji', (Q,)), ('ij,jk,kl->il', (M, N, M)), ('i,i', (a, b)), ('ij', (M,))]:
    out = torch.einsum(eq, *ops)
    out.sum().backward()
    print(eq, out.shape, chain(out))
    print(' ', out.detach().flatten()[:4], ops[0].grad.flatten()[:3])
    for o in ops:
        o.grad = None
for eq, ops in [('ij->k', (M,)), ('ij->ii', (M,)), ('i,i->', (a, torch.ones(4))), ('ii->i', (M,))]:
    try:
        torch.einsum(eq, *ops)
    except RuntimeError as e:
        print(e)
'''

PROGRAMS['numpy_style_stack_split'] = r'''
import torch
x = torch.arange(6.).reshape(2, 3).requires_grad_()
v = torch.tensor([1., 2., 3.], requires_grad=True)
s = torch.tensor(5., requires_grad=True)
print(torch.atleast_1d(s), torch.atleast_2d(v), torch.atleast_3d(x).shape, torch.atleast_1d(s, v))
print(torch.hstack([v, v]), torch.vstack([v, v]))
print(torch.hstack([x, x]).grad_fn, torch.vstack([x, v]).shape, torch.dstack([x, x]).shape)
print(torch.column_stack([v, v]), torch.row_stack([v, v * 2]))
out = torch.vstack([x, v]) * torch.arange(9.).reshape(3, 3)
out.sum().backward()
print(x.grad, v.grad)
parts = x.tensor_split(2, dim=1)
print([p.shape for p in parts], parts[0].grad_fn)
print(v.hsplit(3), x.vsplit(2)[1], torch.tensor_split(x, [1], dim=1)[1])
print(x.fliplr(), x.flipud(), x.tile(2), x.tile((2, 1)).shape)
print(torch.take_along_dim(x, torch.tensor([[2], [0]]), dim=1), torch.take_along_dim(x, torch.tensor([0, 5])))
print(x.diff(), x.diff(dim=0), v.diff(n=2), v.diff(prepend=torch.zeros(1)))
for bad in [lambda: torch.hstack([]), lambda: x.hsplit(2), lambda: v.vsplit(1), lambda: v.fliplr(), lambda: s.diff(), lambda: x.tensor_split(0)]:
    try:
        bad()
    except RuntimeError as e:
        print(e)
'''

PROGRAMS['rounding_division_and_remainder'] = r'''
import torch
x = torch.tensor([1.5, -2.5, 3.0], requires_grad=True)
y = torch.tensor([2.0, 2.0, -1.0], requires_grad=True)
q = x // 2
print(q, q.grad_fn.name(), q.requires_grad)
try:
    q.sum().backward()
except RuntimeError as e:
    print(e)
print(x // y, 7 // x, torch.floor_divide(x, y))
d = torch.div(x, y, rounding_mode='floor')
print(d, d.grad_fn, d.grad_fn._saved_rounding_mode)
d.sum().backward()
print(x.grad, y.grad)
t = torch.div(x, 2, rounding_mode='trunc')
print(t, t.grad_fn._saved_other)
r = x % y
print(r, r.grad_fn)
r.sum().backward()
print(x.grad, y.grad)
print(torch.tensor([3., -3., 0., 5.]) % -1, torch.remainder(torch.tensor([5, -5]), 2.5), 7 % torch.tensor([2., -3.]))
print(3 % y)
print(torch.fmod(x, 1.5), torch.tensor([5, -5]).fmod(-3.5))
with torch.no_grad():
    print((x // 2).grad_fn)
'''

PROGRAMS['roll_movedim_identity_nodes'] = r'''
import torch
x = torch.arange(6.).reshape(2, 3).requires_grad_()
r = x.roll(1, 0)
print(r, r.grad_fn, r.grad_fn._saved_shifts, r.grad_fn._saved_dims)
r2 = x.roll(-1, -1)
print(r2, r2.grad_fn._saved_shifts, r2.grad_fn._saved_dims)
(r2 * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
print(torch.roll(x, 2), torch.roll(x, (1, 1), (0, 1)))
print(x.movedim(0, 0).grad_fn, x.movedim(1, 0).shape, torch.tensor(2., requires_grad=True).movedim(0, 0).grad_fn)
for bad in [lambda: x.roll((1, 2), 0), lambda: x.roll(1, 2)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
'''

PROGRAMS['more_math_functions'] = r'''
import torch
p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
z = torch.logit(p)
print(z, z.grad_fn, z.grad_fn._saved_eps)
z.sum().backward()
print(p.grad)
p.grad = None
torch.logit(p, eps=0.3).sum().backward()
print(p.grad, torch.special.logit(p, eps=0.3))
x = torch.tensor([1.0, float('nan'), 3.0, -2.0], requires_grad=True)
s = x.nansum()
print(s, s.grad_fn, x.nanmean(), x.nanmean().grad_fn)
s.backward()
print(x.grad)
deg = torch.tensor([0., 90., 180., 45.], requires_grad=True)
rad = deg.deg2rad()
print(rad, rad.grad_fn, rad.rad2deg())
print(torch.special.expit(p), torch.special.sinc(p), torch.special.xlogy(p, p), torch.special.round(p * 3))
f = p.float_power(2)
print(f, f.grad_fn, f.grad_fn.next_functions[0][0])
c = p.copysign(torch.tensor([-1., 1., -1.]))
print(c, c.grad_fn, p.positive() is p)
h = torch.tensor([-1.5, 0., 2.]).heaviside(torch.tensor([0.5]))
print(h)
print(torch.tensor([1, 2]).logit(), torch.tensor([1, 2]).nansum(), torch.round(p, decimals=1), torch.round(p, decimals=0).grad_fn)
'''

PROGRAMS['pickle_and_save_keep_dtypes'] = r'''
import torch, io, pickle, copy
t = torch.tensor([[1., 2.]], dtype=torch.float64, requires_grad=True)
u = pickle.loads(pickle.dumps(t))
print(u, u.dtype, u.requires_grad, u.is_leaf)
print(pickle.loads(pickle.dumps(torch.zeros(0, 3))).shape)
print(pickle.loads(pickle.dumps(torch.tensor([1, 2], dtype=torch.int16))))
y = t * 2
print(pickle.loads(pickle.dumps(y)))
buf = io.BytesIO()
torch.save({'w': torch.nn.Parameter(torch.ones(2, dtype=torch.float64)), 'step': 7}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck, type(ck['w']).__name__)
print(copy.deepcopy(t), copy.deepcopy(torch.nn.Linear(2, 1)).weight.shape)
'''

PROGRAMS['lr_schedulers_zoo'] = r'''
import torch, warnings, math
def run(make, steps=6):
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    sched = make(opt)
    out = []
    for _ in range(steps):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
        sched.step()
        out.append(round(sched.get_last_lr()[0], 6))
    print(type(sched).__name__, out, round(w.item(), 6), opt.param_groups[0]['initial_lr'], sched.last_epoch)
run(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5))
run(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[1, 4, 4], gamma=0.1))
run(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9))
run(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.01), steps=8)
run(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch))
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    sched.step()
print([str(c.message)[:60] for c in caught], sched.get_last_lr())
print(sorted(k for k in sched.state_dict()))
'''

PROGRAMS['custom_function_gradcheck_calls'] = r'''
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        print('forward')
        return x * 2, x * x
    @staticmethod
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        print('backward', g1.tolist(), g2.tolist())
        return g1 * 2 + g2 * 2 * x
x = torch.tensor([0.5, -1.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Two.apply, (x,)))
class Silent(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        print('called with', g)
        return g
y = Silent.apply(torch.tensor([1., 2.], requires_grad=True))
y.grad_fn.register_prehook(lambda grads: (None,))
y.sum().backward()
'''

PROGRAMS['rmsprop_adagrad_state'] = r'''
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.RMSprop([w], lr=0.01, momentum=0.9, centered=True)
for _ in range(3):
    opt.zero_grad()
    ((w - 1) ** 2).sum().backward()
    opt.step()
state = opt.state[w]
print(sorted(state), state['step'], [round(v, 6) for v in w.tolist()])
print(opt.state_dict()['param_groups'])
v = torch.tensor([0.5, 0.25], requires_grad=True)
ada = torch.optim.Adagrad([v], lr=0.5, initial_accumulator_value=0.1)
print(ada.state[v])
for _ in range(2):
    ada.zero_grad()
    (v ** 2).sum().backward()
    ada.step()
print([round(t, 6) for t in v.tolist()], ada.state[v]['step'], [round(t, 6) for t in ada.state[v]['sum'].tolist()])
try:
    torch.optim.RMSprop([v], lr=-1)
except ValueError as e:
    print(e)
try:
    torch.optim.Adagrad([v], lr_decay=-0.5)
except ValueError as e:
    print(e)
'''

PROGRAMS['random_argument_errors'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', tuple(r.shape), r.dtype)
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: torch.zeros(2).normal_(std=-1))
E(lambda: torch.zeros(2).uniform_(1.5, 0.25))
E(lambda: torch.normal(0., -0.5, (2,)))
E(lambda: torch.randint(5, 2, (3,)))
E(lambda: torch.randn(2, dtype=torch.long))
E(lambda: torch.rand(2, dtype=torch.int32))
E(lambda: torch.zeros(2, dtype=torch.long).uniform_())
E(lambda: torch.randn(2, 3, dtype=torch.float64))
E(lambda: torch.randint(3, (2, 2), dtype=torch.float32))
E(lambda: torch.normal(torch.zeros(2), torch.tensor([1., -1.])))
'''

PROGRAMS['arange_linspace_exact_values'] = r'''
import torch, math
x = torch.linspace(-math.pi, math.pi, 2000)
print(x[:3].tolist(), x[997:1003].tolist(), x[-2:].tolist())
print(torch.linspace(-1, 1, 31)[13:18].tolist(), torch.linspace(0, 1, 7, dtype=torch.float64).tolist())
print(torch.arange(-3, 3, 0.2)[10:16].tolist(), torch.arange(0, 1, 0.1, dtype=torch.float64).tolist())
print(torch.linspace(-3.14, 3.14, 9, dtype=torch.int64), torch.arange(0, 5.5, 1.5, dtype=torch.int64), torch.arange(-1.5, 2, dtype=torch.int32))
y = torch.sin(x)
print(y.dtype, (x ** 3)[:2].tolist(), (x * x)[1000].item())
for bad in [lambda: torch.arange(0, 5, -1), lambda: torch.arange(0, float('nan')), lambda: torch.linspace(0, 1, -1), lambda: torch.arange(0, 5, 0)]:
    try:
        bad()
    except RuntimeError as e:
        print(e)
'''

PROGRAMS['lr_scheduler_get_lr_warning'] = r'''
import torch, warnings
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
opt.step()
sched.step()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    print(sched.get_lr(), sched.get_last_lr())
print([str(c.message) for c in caught])
print(opt.param_groups[0]['lr'], sched._step_count, opt.param_groups[0]['initial_lr'])
'''

PROGRAMS['device_selection_boilerplate'] = r'''
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, repr(device), torch.cuda.is_available())
dev2 = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print(f"Using {dev2} device")
x = torch.tensor([1., 2.], device=device, requires_grad=True)
print(x.device, x.is_cuda, x.to(device) is x, x.cpu() is x)
model = torch.nn.Linear(2, 1).to(device)
print(next(model.parameters()).device)
y = x.to(device, dtype=torch.float64)
print(y, y.device)
print(torch.zeros(2, device='cpu'), torch.ones(1).to('cpu'))
g = torch.manual_seed(0)
print(type(g).__name__)
'''

PROGRAMS['accelerator_quickstart_boilerplate'] = r'''
import torch
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
'''

PROGRAMS['dataloader_tensordataset'] = r'''
import torch
from torch.utils.data import TensorDataset, DataLoader, Dataset
X = torch.arange(10.).reshape(5, 2)
Y = torch.tensor([0, 1, 0, 1, 1])
ds = TensorDataset(X, Y)
print(len(ds), ds[1])
loader = DataLoader(ds, batch_size=2, shuffle=False)
print(len(loader))
for xb, yb in loader:
    print(xb, yb)
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return torch.tensor([float(i)]), float(i * i)
for batch in DataLoader(Squares(5), batch_size=3):
    print(batch)
model = torch.nn.Linear(2, 2)
with torch.no_grad():
    model.weight.fill_(0.1); model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    total = 0.0
    for xb, yb in DataLoader(ds, batch_size=2, drop_last=True):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total, 4))
'''

PROGRAMS['nn_really_manual_logistic'] = r'''
import torch, math
x_train = torch.linspace(-1, 1, 40).reshape(8, 5)
y_train = torch.tensor([0, 1, 2, 1, 0, 2, 2, 1])
weights = torch.linspace(-0.2, 0.2, 15).reshape(5, 3) / math.sqrt(5)
weights.requires_grad_()
bias = torch.zeros(3, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
loss_func = nll
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
bs = 4
preds = model(x_train[0:bs])
print(preds[0], preds.shape)
print(loss_func(preds, y_train[0:bs]), accuracy(preds, y_train[0:bs]))
lr = 0.5
for epoch in range(2):
    for i in range((8 - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(x_train), y_train), accuracy(model(x_train), y_train))
import torch.nn.functional as F
def model2(xb):
    return xb @ weights + bias
print(F.cross_entropy(model2(x_train), y_train))
print(pred.grad_fn, pred.grad_fn.next_functions)
'''

PROGRAMS['nn_really_module_refactor'] = r'''
import torch, math
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
x_train = torch.linspace(-1, 1, 40).reshape(8, 5)
y_train = torch.tensor([0, 1, 2, 1, 0, 2, 2, 1])
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.linspace(-0.2, 0.2, 15).reshape(5, 3) / math.sqrt(5))
        self.bias = nn.Parameter(torch.zeros(3))
    def forward(self, xb):
        return xb @ self.weights + self.bias
model = Mnist_Logistic()
print(model)
print(F.cross_entropy(model(x_train), y_train))
def fit(model, epochs=2, lr=0.5):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=4)
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            opt.zero_grad()
        model.eval()
        with torch.no_grad():
            valid_loss = sum(F.cross_entropy(model(xb), yb) for xb, yb in train_dl)
        print(epoch, valid_loss / len(train_dl))
fit(model)
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
seq = nn.Sequential(Lambda(lambda x: x.view(-1, 5)), nn.Linear(5, 3))
print(seq)
with torch.no_grad():
    seq[1].weight.fill_(0.1)
    seq[1].bias.fill_(0.0)
print(seq(x_train[:2]))
'''

PROGRAMS['parameters_vs_buffers_and_repr'] = r'''
import torch
import torch.nn as nn
class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor([2.0]))
        self.register_buffer('offset', torch.tensor([0.5]))
        self.plain = torch.tensor([9.0])
    def forward(self, x):
        return x * self.scale + self.offset
m = Scaler()
print(list(m.named_parameters()))
print(list(m.named_buffers()))
print(m.state_dict())
out = m(torch.tensor([1., 2.]))
out.sum().backward()
print(out, m.scale.grad, m.offset.requires_grad)
m.double()
print(m.scale.dtype, m.offset.dtype, m.plain.dtype)
print(m.scale)
'''

PROGRAMS['inplace_on_leaf_views_made_by_reshape'] = r'''
import torch
def E(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
w = torch.arange(6.).reshape(2, 3).requires_grad_()
print(w.is_leaf, w.requires_grad, w.grad_fn)
E(lambda: w.add_(1))
E(lambda: w.__setitem__(0, 2.))
E(lambda: w[:, 1].mul_(2))
b = torch.linspace(0, 1, 4).view(2, 2).requires_grad_()
E(lambda: b.zero_())
with torch.no_grad():
    w -= 0.1 * torch.ones(2, 3)
    w[0, 0] = 10.
print(w, w.is_leaf, w.grad_fn)
(w ** 2).sum().backward()
print(w.grad)
d = torch.ones(3).detach().requires_grad_()
E(lambda: d.add_(1))
base = torch.zeros(3)
part = base[:2]
part.add_(torch.ones(2, requires_grad=True))
print(part.grad_fn, base.grad_fn, base)
'''

PROGRAMS['setitem_value_types'] = r'''
import torch, numpy as np
y = torch.zeros(2, 3)
for v in [None, 'a', [1., 2., 3.], (1,), 2, 2.5, True, np.float32(1.5), np.array([1., 2., 3.]), torch.ones(3), 1 + 2j, np.float64(0.5), np.int64(3)]:
    try:
        y[0] = v
        print('ok', y[0].tolist())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.arange(12.).reshape(3, 4)
print(x[range(3), torch.tensor([0, 1, 3])], x[range(2)], x[:, range(1, 3)])
x[range(2), 1] = -1.
print(x)
'''

PROGRAMS['legacy_typed_tensors_old_blogs'] = r'''
import torch
from torch.autograd import Variable
x = Variable(torch.FloatTensor([[1, 2], [3, 4]]), requires_grad=True)
y = Variable(torch.LongTensor([1, 0]))
print(x, y, x.type(), y.type())
out = (x * x).sum()
out.backward()
print(x.grad, x.grad.type())
dtype = torch.FloatTensor
w = torch.ones(2, 3).type(dtype)
print(w.type(), torch.ones(2).type(torch.DoubleTensor), torch.ones(2).type('torch.IntTensor'))
print(isinstance(x, torch.FloatTensor), isinstance(y, torch.FloatTensor), isinstance(y, torch.LongTensor))
print(torch.Tensor(2, 3).shape, torch.Tensor([1, 2]), torch.Tensor(), torch.DoubleTensor([0.5]), torch.ByteTensor([1, 0]))
print(x.new([5, 6]), x.new(2, 2).shape, torch.FloatTensor, torch.FloatTensor.dtype)
for bad in [lambda: torch.FloatTensor(3.5), lambda: torch.LongTensor(torch.ones(2))]:
    try:
        bad()
    except TypeError as e:
        print(str(e)[:60])
'''

PROGRAMS['print_large_tensors_with_grad'] = r'''
import torch, math
x = torch.linspace(-math.pi, math.pi, 2000, requires_grad=True)
print(x)
y = torch.sin(x)
print(y)
print(y.reshape(40, 50))
z = (x.reshape(2, 10, 100) * 1000)
print(z)
print(torch.arange(1001.) / 7)
print(torch.arange(12, dtype=torch.float64).reshape(3, 4) * 1e-5)
print(torch.tensor([1e10, 1.5, -2.0], requires_grad=True) * 2)
print(torch.tensor([0.1, 0.2], dtype=torch.float16) * 3)
print(x.grad_fn, y.grad_fn.name())
'''

PROGRAMS['module_hooks_more_variants'] = r'''
import torch
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1., -1.], [0.5, 2.]])); net[0].bias.zero_()
    net[2].weight.copy_(torch.tensor([[1., 1.]])); net[2].bias.fill_(0.5)
def pre(module, args):
    print('pre', type(module).__name__, args[0].shape)
    return (args[0] * 2,)
def post(module, args, output):
    print('post', type(module).__name__, output)
    return output + 1
h1 = net[0].register_forward_pre_hook(pre)
h2 = net[2].register_forward_hook(post)
x = torch.tensor([[1., 2.]], requires_grad=True)
out = net(x)
print(out)
grads = []
h3 = net.register_full_backward_hook(lambda m, gi, go: grads.append((gi, go)))
out = net(x)
out.backward()
print(grads)
print(x.grad)
h1.remove(); h2.remove(); h3.remove()
print(net(x))
def kw_hook(module, args, kwargs, output):
    print('kwargs hook', kwargs, output)
class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor
s = Scale()
s.register_forward_hook(kw_hook, with_kwargs=True)
s.register_forward_pre_hook(lambda m, a, k: (a, {'factor': k.get('factor', 1.0) * 10}), with_kwargs=True)
s.register_forward_pre_hook(lambda m, a: print('first pre', a), prepend=True)
print(s(x, factor=2.0))
s.register_forward_pre_hook(lambda m, a, k: 5, with_kwargs=True)
try:
    s(x)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['grad_clipping_and_norms'] = r'''
import torch
import torch.nn as nn
model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1., 2., 3.], [-1., 0.5, 0.]]))
    model.bias.copy_(torch.tensor([0.1, -0.2]))
x = torch.tensor([[1., 1., 1.], [2., 0., -1.]])
loss = model(x).pow(2).sum()
loss.backward()
print(model.weight.grad, model.bias.grad)
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(model.weight.grad, model.bias.grad)
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print(model.weight.grad)
norms = [p.grad.norm() for p in model.parameters()]
print(norms, torch.stack(norms).norm())
print(torch.nn.utils.parameters_to_vector(model.parameters()))
vec = torch.arange(8.)
torch.nn.utils.vector_to_parameters(vec, model.parameters())
print(model.weight, model.bias)
'''

PROGRAMS['custom_optimizer_subclass'] = r'''
import torch
from torch.optim import Optimizer
class MySGD(Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                if 'buf' not in state:
                    state['buf'] = torch.zeros_like(p)
                buf = state['buf']
                buf.mul_(group['momentum']).add_(p.grad)
                p.add_(buf, alpha=-group['lr'])
        return loss
w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = MySGD([w], lr=0.1, momentum=0.5)
print(opt)
def closure():
    opt.zero_grad()
    loss = ((w - torch.tensor([0.5, 0.5])) ** 2).sum()
    loss.backward()
    return loss
for i in range(3):
    loss = opt.step(closure)
    print(i, round(loss.item(), 6), [round(v, 6) for v in w.tolist()])
print(opt.state[w])
print(opt.state_dict())
opt.add_param_group({'params': [torch.zeros(1, requires_grad=True)], 'lr': 1.0})
print(len(opt.param_groups), opt.param_groups[1]['momentum'])
'''

PROGRAMS['dist_take_cummax_glu'] = r'''
import torch
import torch.nn as nn
x = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
y = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], requires_grad=True)
d = torch.dist(x, y)
print(d, d.grad_fn, d.grad_fn._saved_p)
d.backward()
print(x.grad, y.grad)
print(torch.dist(x, y, 1), torch.dist(x, y, float('inf')))
x.grad = None
t = torch.take(x, torch.tensor([[0, 5], [5, 1]]))
print(t, t.grad_fn)
t.sum().backward()
print(x.grad)
m = x.cummax(dim=1)
print(m)
x.grad = None
m.values.sum().backward()
print(x.grad, x.cummin(0).indices, torch.tensor([1., 1., 0.5, 1.]).cummin(0))
l = x.logcumsumexp(1)
print(l, l.grad_fn)
glu = nn.GLU(dim=1)
print(glu, glu(torch.cat([x, y], dim=1)))
print(torch.nn.functional.glu(torch.tensor([1., 2., 0., -1.])))
for bad in [lambda: torch.take(x, torch.tensor([6])), lambda: torch.nn.functional.glu(torch.ones(3)), lambda: torch.dist(x, torch.ones(2))]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
'''

PROGRAMS['topk_ties_like_pytorch'] = r'''
import torch
scores = torch.tensor([[2., 2., 2., 1.], [0., 5., 5., 0.], [1., 1., 1., 1.]], requires_grad=True)
top = scores.topk(2, dim=1)
print(top)
top.values.sum().backward()
print(scores.grad)
print(torch.tensor([1., 2., 0., 3., -1., 2.]).topk(3))
print(torch.tensor([3., 1., 3., 1., 3.]).topk(2, largest=False))
print(torch.tensor([4, 4, 1, 4, 2]).topk(3, sorted=False))
print(torch.tensor([1., float('nan'), 2., float('nan')]).topk(2))
print(torch.arange(100.).remainder(3).topk(2))
try:
    torch.tensor([True, False]).topk(1)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['reduce_lr_on_plateau_and_linear_warmup'] = r'''
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, cooldown=1)
for epoch, val_loss in enumerate([1.0, 0.9, 0.95, 0.97, 0.96, 0.5, 0.6, 0.7, 0.8]):
    opt.step()
    sched.step(val_loss)
    print(epoch, opt.param_groups[0]['lr'], sched.num_bad_epochs, sched.best, sched.in_cooldown, sched.get_last_lr())
opt2 = torch.optim.SGD([w], lr=1.0)
warm = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.25, total_iters=3)
lrs = []
for _ in range(5):
    opt2.step()
    warm.step()
    lrs.append(round(warm.get_last_lr()[0], 6))
print(lrs)
try:
    torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=2.0)
except ValueError as e:
    print(e)
'''

PROGRAMS['distributions_normal_categorical_bernoulli'] = r'''
import torch
from torch.distributions import Normal, Categorical, Bernoulli
n = Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
print(n, Normal(0., 1.), Normal(torch.tensor(0.), torch.tensor(1.)), n.batch_shape, n.event_shape, n.mean, n.stddev, n.variance)
mu = torch.tensor([0.5], requires_grad=True); sd = torch.tensor([1.5], requires_grad=True)
d = Normal(mu, sd); lp = d.log_prob(torch.tensor([1.0])); print(lp, d.entropy(), d.cdf(torch.tensor([0.])), lp.grad_fn)
lp.backward(); print(mu.grad, sd.grad)
c = Categorical(probs=torch.tensor([0.2, 0.3, 0.5])); print(c, c.probs, c.logits, c.log_prob(torch.tensor(2)), c.entropy(), c.param_shape)
c2 = Categorical(logits=torch.tensor([[1., 2., 3.]], requires_grad=True)); print(c2, c2.log_prob(torch.tensor([0])), c2.probs, c2.batch_shape, c2.support)
b = Bernoulli(probs=torch.tensor([0.3, 0.9])); print(b, b.log_prob(torch.tensor([1., 0.])), b.entropy(), b.mean, b.logits, b.variance)
print(Bernoulli(0.3), Bernoulli(logits=torch.tensor([0.5])).probs, Bernoulli(0.3).batch_shape)
for f in [lambda: Normal(torch.tensor([0.]), torch.tensor([-1.])), lambda: Categorical(torch.tensor([0.5, -0.1])), lambda: Normal(0., 1.).log_prob(torch.tensor([1])), lambda: Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(3)), lambda: Bernoulli(torch.tensor([0.5])).log_prob(torch.tensor([2.])), lambda: Categorical(), lambda: Bernoulli(probs=1.5), lambda: Normal(0., 1.).log_prob(1.0), lambda: Normal(torch.zeros(2), 1.).log_prob(torch.zeros(3))]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
print(type(n), Normal(0., 1.).log_prob(torch.tensor(0.5)), Normal(0., 1.).sample().shape, Normal(torch.zeros(3), 1.).sample((2,)).shape, n.rsample().requires_grad)
probs = torch.tensor([0.1, 0.2, 0.7], requires_grad=True)
m = Categorical(probs)
action = torch.tensor(2)
loss = -m.log_prob(action) * 5.0
loss.backward()
print(loss, probs.grad, m.sample().shape, m.sample((4,)).shape, Categorical(torch.ones(2, 3)).sample().shape)
w = torch.tensor([0.3], requires_grad=True)
s = Normal(w, 1.).rsample()
print(s.requires_grad, s.shape, s.grad_fn.name())
print(Bernoulli(torch.tensor([0.5, 0.5])).sample().shape, Bernoulli(torch.tensor([0.5])).sample().dtype)
'''

PROGRAMS['reinforce_fixed_episode'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Normal
policy = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 3))
with torch.no_grad():
    policy[0].weight.copy_(torch.linspace(-1, 1, 8).reshape(4, 2)); policy[0].bias.zero_()
    policy[2].weight.copy_(torch.linspace(0.5, -0.5, 12).reshape(3, 4)); policy[2].bias.fill_(0.1)
opt = torch.optim.Adam(policy.parameters(), lr=0.01)
states = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
actions = torch.tensor([2, 0, 1])
rewards = [1.0, 0.5, 2.0]
gamma = 0.9
returns, R = [], 0.0
for r in reversed(rewards):
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
print(returns)
dist = Categorical(logits=policy(states))
log_probs = dist.log_prob(actions)
print(log_probs, dist.entropy())
loss = -(log_probs * returns).sum()
opt.zero_grad()
loss.backward()
opt.step()
print(round(loss.item(), 5), policy[2].bias.grad)
probs = F.softmax(policy(states), dim=-1)
print(Categorical(probs).log_prob(actions))
mu = torch.tensor([0.0, 1.0], requires_grad=True)
log_std = torch.tensor([0.0, -0.5], requires_grad=True)
eps = torch.tensor([0.3, -1.2])
z = mu + eps * log_std.exp()
kl = -0.5 * torch.sum(1 + 2 * log_std - mu.pow(2) - (2 * log_std).exp())
lp = Normal(mu, log_std.exp()).log_prob(z).sum()
(kl - lp).backward()
print(z, kl, lp, mu.grad, log_std.grad)
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
