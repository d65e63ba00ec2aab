"""Parity programs (autograd / nn / optim): tutorial-like scripts run with minigrad as torch and with torch.

Each program is executed twice by ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and the two stdouts must be identical once object addresses are masked. Programs print only values that do
not depend on the random stream (weights are set explicitly). Modelled on PyTorch's autograd tutorials and
notes: "A Gentle Introduction to torch.autograd", "Automatic differentiation with torch.autograd", "Learning
PyTorch with Examples", "Autograd mechanics", "Double Backward with Custom Functions", "Forward-mode AD".
"""
from __future__ import annotations

import re

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['gentle_intro_basic'] = r'''
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
print(Q)
print(Q.grad_fn)
print(type(Q.grad_fn).__name__, Q.grad_fn.name())
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(a.grad, b.grad)
print(a.is_leaf, Q.is_leaf, Q.requires_grad)
'''

PROGRAMS['gentle_intro_dag_exclusion'] = r'''
import torch
x = torch.ones(5, 5)
y = torch.ones(5, 5)
z = torch.ones((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
print(b.grad_fn)
print(a.grad_fn)
'''

PROGRAMS['autodiff_basics'] = r'''
import torch
x = torch.ones(5)
y = torch.zeros(3)
w = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9], [1.0, 1.1, 1.2], [1.3, 1.4, 1.5]], requires_grad=True)
b = torch.tensor([0.5, -0.5, 0.25], requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
print(type(z.grad_fn).__name__, type(loss.grad_fn).__name__)
loss.backward()
print(w.grad)
print(b.grad)
print(loss)
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
'''

PROGRAMS['autodiff_jacobian_product'] = r'''
import torch
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
'''

PROGRAMS['backward_twice_error'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
z = x.exp().sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
'''

PROGRAMS['nonscalar_backward_error'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
try:
    y.backward()
except RuntimeError as e:
    print(e)
try:
    torch.tensor([1., 2.]).sum().backward()
except RuntimeError as e:
    print(e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['nonleaf_grad_warning'] = r'''
import torch, warnings
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = y.grad
print(g)
for item in w:
    print(item.category.__name__, str(item.message))
print(x.grad)
'''

PROGRAMS['retain_grad_nonleaf'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
y.retain_grad()
z = y.mean()
z.retain_grad()
z.backward()
print(y.grad, z.grad, x.grad)
print(y.retains_grad, z.retains_grad, x.retains_grad)
print(y.is_leaf, x.is_leaf)
'''

PROGRAMS['next_functions_walk'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = (a * b + a.sin()).sum()
def walk(fn, depth=0):
    if fn is None:
        print("  " * depth + "None")
        return
    print("  " * depth + type(fn).__name__)
    for nf, idx in fn.next_functions:
        walk(nf, depth + 1)
walk(c.grad_fn)
print(len(c.grad_fn.next_functions))
print(c.grad_fn.next_functions[0][0].next_functions[0][0].variable is a if hasattr(c.grad_fn.next_functions[0][0].next_functions[0][0], 'variable') else 'no')
'''

PROGRAMS['saved_tensors_attrs'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x)
print(y.grad_fn._saved_exponent)
z = x.exp()
print(torch.equal(z, z.grad_fn._saved_result), z.grad_fn._saved_result is z)
s = x.sum(0, keepdim=True)
print(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
m = x * 2.0
print(m.grad_fn._saved_other, m.grad_fn._saved_self)
v = x.view(3, 1)
print(v.grad_fn, v.grad_fn._saved_self_sym_sizes)
print(x.sin().grad_fn._raw_saved_self)
'''

PROGRAMS['legendre_custom_function'] = r'''
import torch
import math
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(200):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, round(loss.item(), 2))
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {round(a.item(), 3) + 0.0:.3f} + {b.item():.3f} * P3({round(c.item(), 3) + 0.0:.3f} + {d.item():.3f} x)')
print(y_pred.grad_fn)
print(type(y_pred.grad_fn.next_functions[1][0].next_functions[1][0]).__name__)
'''

PROGRAMS['tensors_autograd_poly'] = r'''
import torch
import math
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
a = torch.tensor(0.1, requires_grad=True)
b = torch.tensor(0.2, requires_grad=True)
c = torch.tensor(-0.1, requires_grad=True)
d = torch.tensor(0.05, requires_grad=True)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3')
'''

PROGRAMS['nn_poly_sequential'] = r'''
import torch
import math
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
print(model)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, -0.05, 0.01]]))
    model[0].bias.fill_(0.0)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-6
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')
print(y_pred.grad_fn, loss.grad_fn)
'''

PROGRAMS['optim_poly_rmsprop_like_adam'] = r'''
import torch
import math
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, -0.05, 0.01]]))
    model[0].bias.fill_(0.0)
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for t in range(200):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f"{loss.item():.2f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model[0].weight.detach().numpy().round(4), model[0].bias.detach().numpy().round(4))
'''

PROGRAMS['custom_module_polynomial'] = r'''
import torch
import math
class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.0))
        self.b = torch.nn.Parameter(torch.tensor(0.5))
        self.c = torch.nn.Parameter(torch.tensor(0.0))
        self.d = torch.nn.Parameter(torch.tensor(-0.1))
    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
    def string(self):
        r = lambda v: round(v.item(), 4) + 0.0
        return f'y = {r(self.a):.4f} + {r(self.b):.4f} x + {r(self.c):.4f} x^2 + {r(self.d):.4f} x^3'
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Polynomial3()
print(model)
print([n for n, _ in model.named_parameters()])
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(model.state_dict().keys())
print(list(model.state_dict().values())[0].requires_grad)
'''

PROGRAMS['warnings_collection'] = r'''
import torch, warnings
def show(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as e:
            print("ERR", type(e).__name__, e)
    for item in w:
        print(item.category.__name__, "|", str(item.message))
x = torch.tensor([1., 2.], requires_grad=True)
show(lambda: (x * x).sum().backward(create_graph=True))
show(lambda: torch.tensor(x))
show(lambda: torch.nn.functional.mse_loss(torch.ones(3, 1), torch.ones(3)))
show(lambda: torch.nn.functional.softmax(torch.ones(2, 3)))
show(lambda: torch.autograd.grad((x * 2).sum(), x, only_inputs=False))
show(lambda: torch.nn.MSELoss(size_average=False))
show(lambda: torch.ones(1).var())
'''

PROGRAMS['anomaly_warning'] = r'''
import torch, warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        a = torch.tensor([1., 2.], requires_grad=True)
        (a * 2).sum().backward()
print(a.grad)
for item in w:
    print(item.category.__name__, "|", str(item.message))
print(torch.is_anomaly_enabled())
'''

PROGRAMS['anomaly_nan'] = r'''
import torch, warnings
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()
    @staticmethod
    def backward(ctx, gO):
        return gO.new_full(gO.shape, float('nan'))
x = torch.tensor([1., 2.], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        out = MyFunc.apply(x)
        try:
            out.sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
print(len(w) > 0)
print(w[-1].category.__name__ if w else None)
'''

PROGRAMS['grad_modes'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())
with torch.no_grad():
    with torch.enable_grad():
        z = x * 2
print(z.requires_grad, z.grad_fn)
torch.set_grad_enabled(False)
w = x * 2
print(w.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print((x * 2).requires_grad)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
print(torch.is_grad_enabled())
@torch.no_grad()
def f(t):
    return t * 3
print(f(x).requires_grad)
@torch.enable_grad()
def g(t):
    return t * 3
with torch.no_grad():
    print(g(x).requires_grad)
print(torch.no_grad().__class__.__name__)
'''

PROGRAMS['inference_mode'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad, y.is_inference(), x.is_inference(), torch.is_inference_mode_enabled())
try:
    y.requires_grad_()
except RuntimeError as e:
    print(e)
try:
    z = x * y
    z.sum().backward()
    print(x.grad)
except RuntimeError as e:
    print(e)
try:
    y.add_(1)
except RuntimeError as e:
    print(e)
with torch.inference_mode():
    y.add_(1)
print(y)
@torch.inference_mode()
def fn(t):
    return t + 1
print(fn(x).is_inference())
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), (x*2).requires_grad)
c = y.clone()
print(c.is_inference())
'''

PROGRAMS['inplace_leaf_error'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
try:
    a.add_(1)
except RuntimeError as e:
    print(e)
try:
    a[0] = 5
except RuntimeError as e:
    print(e)
with torch.no_grad():
    a.add_(1)
print(a, a.requires_grad, a.is_leaf)
v = a.view(2)
try:
    v.mul_(2)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['inplace_version_check'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
print(b._version)
c = b * 2
b.mul_(3)
print(b._version)
try:
    b.sum().backward()
    print("ok", a.grad)
except RuntimeError as e:
    print(e)
a2 = torch.tensor([1., 2., 3.], requires_grad=True)
e = a2.exp()
e.add_(1)
try:
    e.sum().backward()
except RuntimeError as ex:
    print(ex)
a3 = torch.tensor([1., 2., 3.], requires_grad=True)
s = a3 * 1
t = s.sin()
s.add_(1)
try:
    t.sum().backward()
except RuntimeError as ex:
    print(ex)
'''

PROGRAMS['inplace_correct_chain'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 2
b.add_(1)
print(b.grad_fn)
b.mul_(b)
print(b.grad_fn, b._version)
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)
print(a.grad)
b2 = a * 2
b2.add_(1)
b2.mul_(3)
b2.sum().backward()
print(a.grad)
x = torch.tensor([1., -2., 3.], requires_grad=True)
y = x.clone()
y.relu_()
print(y.grad_fn)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['views_inplace_copyslices'] = r'''
import torch
base = torch.tensor([1., 2., 3., 4.], requires_grad=True)
x = base * 1
v = x[1:3]
v.mul_(10)
print(x.grad_fn, v.grad_fn)
print(x)
x.sum().backward()
print(base.grad)
y = torch.zeros(4)
w = torch.tensor([5., 6.], requires_grad=True)
y[1:3] = w
print(y.grad_fn, y.requires_grad)
(y * torch.arange(4.)).sum().backward()
print(w.grad)
'''

PROGRAMS['tensor_hooks'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
def hook_y(g):
    print("grad y", g)
    return g * 10
h = y.register_hook(hook_y)
x.register_hook(lambda g: print("grad x", g))
z = (y ** 2).sum()
z.backward()
print(x.grad)
h.remove()
x.grad = None
y = x * 2
(y ** 2).sum().backward()
print(x.grad)
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['node_hooks'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = a.exp()
c = b.sum()
def pre(grad_outputs):
    print("pre", grad_outputs)
def post(grad_inputs, grad_outputs):
    print("post", grad_inputs, grad_outputs)
h1 = b.grad_fn.register_prehook(pre)
h2 = b.grad_fn.register_hook(post)
c.backward(retain_graph=True)
print(a.grad)
def pre2(grad_outputs):
    return (grad_outputs[0] * 0,)
h3 = c.grad_fn.register_prehook(pre2)
a.grad = None
c.backward()
print(a.grad)
h1.remove(); h2.remove(); h3.remove()
'''

PROGRAMS['post_accumulate_hook'] = r'''
import torch
p = torch.tensor([1., 2.], requires_grad=True)
def hook(t):
    print("accumulated", t.grad)
    with torch.no_grad():
        t.sub_(0.1 * t.grad)
p.register_post_accumulate_grad_hook(hook)
(p * p).sum().backward()
print(p)
try:
    (p * 2).register_post_accumulate_grad_hook(hook)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['accumulate_grad_hooks'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
acc = y.grad_fn.next_functions[0][0]
print(acc, acc.name())
print(acc.variable is x)
acc.register_hook(lambda gi, go: print("acc hook", gi, go))
acc.register_prehook(lambda go: print("acc prehook", go))
y.sum().backward()
print(x.grad)
print(acc.next_functions)
print(acc.metadata)
'''

PROGRAMS['functional_jacobian'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.tensor([0.5, 1.0]), torch.tensor([0.1, 0.2]))
print(jacobian(exp_adder, inputs))
print(jacobian(lambda x: x ** 2, torch.tensor([1., 2.]), vectorize=True))
print(jacobian(lambda x: (x * 2, x.sum()), torch.tensor([1., 2.])))
'''

PROGRAMS['functional_hessian'] = r'''
import torch
from torch.autograd.functional import hessian
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.tensor([[1., 2.], [3., 4.]])
print(hessian(pow_reducer, inputs))
print(hessian(pow_reducer, inputs, create_graph=True).grad_fn is not None)
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(hessian(pow_adder_reducer, inputs))
'''

PROGRAMS['functional_vjp_jvp'] = r'''
import torch
from torch.autograd.functional import vjp, jvp, hvp, vhp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
v = torch.ones(2)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))
def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
v = torch.ones(2)
print(vjp(adder, inputs, v))
def exp_reducer2(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
v = torch.ones(2, 2)
print(jvp(exp_reducer2, inputs, v))
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.tensor([[1., 2.], [3., 4.]])
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v))
try:
    vjp(exp_reducer, inputs)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['functional_strict_errors'] = r'''
import torch
from torch.autograd.functional import jacobian, vjp
def f(x, y):
    return x * 2
try:
    jacobian(f, (torch.ones(2), torch.ones(2)), strict=True)
except RuntimeError as e:
    print(e)
print(jacobian(f, (torch.ones(2), torch.ones(2))))
def g(x):
    return torch.ones(2)
try:
    jacobian(g, torch.ones(2), strict=True)
except RuntimeError as e:
    print(e)
print(jacobian(g, torch.ones(2)))
try:
    jacobian(lambda x: [x], torch.ones(2))
except TypeError as e:
    print(e)
'''

PROGRAMS['double_backward_grad'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.requires_grad)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
x = torch.tensor(0.5, requires_grad=True)
y = torch.sin(x)
dy, = torch.autograd.grad(y, x, create_graph=True)
d2y, = torch.autograd.grad(dy, x, create_graph=True)
d3y, = torch.autograd.grad(d2y, x)
print(dy, d2y, d3y)
'''

PROGRAMS['double_backward_custom_function'] = r'''
import torch
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
x = torch.tensor([1.5, -2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))
out = Square.apply(x)
grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(grad_x, grad_x.grad_fn)
grad_x.sum().backward()
print(x.grad)
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
x = torch.tensor([0.5, 1.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
'''

PROGRAMS['double_backward_intermediate'] = r'''
import torch
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x ** 3
        dx = 3 * x ** 2
        ctx.save_for_backward(x, dx)
        return result, dx
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result
def cube_forward(x):
    return Cube.apply(x)[0]
x = torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(cube_forward, x))
print(torch.autograd.gradgradcheck(cube_forward, x))
r, dx = Cube.apply(x)
print(r.grad_fn, dx.grad_fn, r.grad_fn is dx.grad_fn, r.output_nr, dx.output_nr)
'''

PROGRAMS['once_differentiable'] = r'''
import torch
from torch.autograd.function import once_differentiable
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
x = torch.tensor([0., 1.], requires_grad=True)
y = MyExp.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)
'''

PROGRAMS['gradcheck_failure'] = r'''
import torch
from torch.autograd import gradcheck
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(gradcheck(Bad.apply, (x,), raise_exception=False))
try:
    gradcheck(Bad.apply, (x,))
except Exception as e:
    print(type(e).__name__)
    print(str(e).splitlines()[0])
print(gradcheck(torch.sin, (x,), eps=1e-6, atol=1e-4))
print(gradcheck(lambda a, b: a * b, (x, torch.tensor([3., 4.], dtype=torch.float64, requires_grad=True))))
'''

PROGRAMS['forward_ad_basic'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
primal = torch.tensor([1., 2., 3.])
tangent = torch.tensor([1., 0., 1.])
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.tensor([2., 2., 2.])
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    print(fwAD.unpack_dual(dual_output).primal)
    p, t = fwAD.unpack_dual(dual_output)
    print(p, t)
print(fwAD.unpack_dual(dual_output).tangent)
'''

PROGRAMS['forward_ad_module'] = r'''
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD
model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1., 2., 3.], [4., 5., 6.]]))
    model.bias.copy_(torch.tensor([0.5, -0.5]))
input = torch.tensor([1., 1., 1.])
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.ones_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp)
'''

PROGRAMS['forward_ad_custom_function'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result
    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO
fn = Fn.apply
primal = torch.tensor([0., 1., 2.], dtype=torch.double, requires_grad=True)
tangent = torch.tensor([1., 1., 1.], dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(jvp)
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
'''

PROGRAMS['saved_tensors_hooks_basic'] = r'''
import torch
def pack_hook(x):
    print("Packing", x)
    return x
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad)
'''

PROGRAMS['saved_tensors_hooks_identity'] = r'''
import torch
x = torch.randn(5, requires_grad=True)
def pack(t):
    return ("packed", t.shape)
storage = {}
def pack2(t):
    storage[len(storage)] = t.detach().clone()
    return len(storage) - 1
def unpack2(i):
    return storage[i]
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack2, unpack2):
    y = x.pow(2)
    z = y.sin()
print(len(storage))
z.sum().backward(retain_graph=True)
print(x.grad)
print(y.grad_fn._saved_self)
print(y.grad_fn._raw_saved_self)
try:
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        a = torch.tensor([1.], requires_grad=True)
        b = a.exp()
    print(b.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t))
except RuntimeError as e:
    print(e)
'''

PROGRAMS['save_on_cpu_and_disable'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = x * x
y.sum().backward()
print(x.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as e:
        print(e)
'''

PROGRAMS['multi_grad_hook'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
def hook(grads):
    print("multi hook:", [g if g is None else g.tolist() for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((a, b), hook)
c.sum().backward(retain_graph=True)
h.remove()
c.sum().backward()
print(a.grad, b.grad)
def any_hook(g):
    print("any:", g)
h2 = torch.autograd.graph.register_multi_grad_hook((a, b), any_hook, mode="any")
(a * 2).sum().backward()
h2.remove()
'''

PROGRAMS['multi_grad_hook_nonleaf'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = x * 3
c = (a * b).sum()
seen = []
h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
torch.autograd.grad(c, a, retain_graph=True)
c.backward()
print(seen)
print(x.grad)
'''

PROGRAMS['nn_module_print_params'] = r'''
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 2, bias=False)
        self.drop = nn.Dropout(p=0.25)
    def forward(self, x):
        return self.fc2(self.drop(self.act(self.fc1(x))))
net = Net()
print(net)
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad, type(p).__name__)
print(sum(p.numel() for p in net.parameters()))
print(list(net.state_dict().keys()))
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print(net.training)
net.eval()
print(net.training, net.fc1.training)
net.train()
print(net.fc1.training)
print(net.fc1)
print(repr(net.drop), net.act)
print(net.fc1.weight.shape, net.fc1.bias.shape)
print(nn.Linear(2, 2).extra_repr())
'''

PROGRAMS['nn_linear_explicit_forward_backward'] = r'''
import torch
import torch.nn as nn
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, 0.2, 0.3], [-0.1, -0.2, -0.3]]))
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
out = lin(x)
print(out)
print(out.grad_fn, out.grad_fn.next_functions)
loss = out.pow(2).mean()
loss.backward()
print(lin.weight.grad)
print(lin.bias.grad)
print(lin.weight)
print(lin.bias)
lin.zero_grad()
print(lin.weight.grad, lin.bias.grad)
'''

PROGRAMS['parameter_repr_and_requires_grad'] = r'''
import torch
import torch.nn as nn
p = nn.Parameter(torch.tensor([1., 2.]))
print(p)
print(p.requires_grad, p.is_leaf, p.grad_fn)
q = nn.Parameter(torch.tensor([1., 2.]), requires_grad=False)
print(q)
print(p * 2)
print(p.data)
print(p.detach())
print(isinstance(p, torch.Tensor), isinstance(p, nn.Parameter))
print(repr(nn.Parameter(torch.tensor(3.0))))
'''

PROGRAMS['state_dict_roundtrip'] = r'''
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) * 0.1 + i)
sd = model.state_dict()
for k, v in sd.items():
    print(k, v)
model2 = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
print(model2.load_state_dict(sd))
x = torch.tensor([[1., -1.]])
print(torch.equal(model(x), model2(x)))
try:
    model2.load_state_dict({"0.weight": torch.zeros(2, 2)})
except RuntimeError as e:
    print(e)
print(model2.load_state_dict({"0.weight": torch.zeros(2, 2)}, strict=False))
'''

PROGRAMS['sgd_step_momentum'] = r'''
import torch
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, weight_decay=0.01)
print(opt)
for i in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    print(i, w)
print(opt.state_dict()['param_groups'])
print(opt.state[w]['momentum_buffer'])
'''

PROGRAMS['sgd_nesterov_maximize'] = r'''
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05, momentum=0.5, nesterov=True, dampening=0)
for _ in range(3):
    opt.zero_grad()
    (w ** 3).sum().backward()
    opt.step()
print(w)
v = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([v], lr=0.1, maximize=True)
(v * v).sum().backward()
opt.step()
print(v)
try:
    torch.optim.SGD([v], lr=0.1, nesterov=True)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD([v], lr=-1)
except ValueError as e:
    print(e)
'''

PROGRAMS['adam_step'] = r'''
import torch
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.01, betas=(0.9, 0.999))
print(opt)
for i in range(5):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
print(w)
st = opt.state[w]
print(sorted(st.keys()), st['step'])
print(st['exp_avg'])
print(st['exp_avg_sq'])
'''

PROGRAMS['adam_amsgrad_weight_decay_adamw'] = r'''
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1, amsgrad=True, weight_decay=0.1)
for _ in range(4):
    opt.zero_grad()
    (w ** 4).sum().backward()
    opt.step()
print(w)
v = torch.tensor([1.0, -2.0], requires_grad=True)
opt2 = torch.optim.AdamW([v], lr=0.1)
print(opt2)
for _ in range(4):
    opt2.zero_grad()
    (v ** 4).sum().backward()
    opt2.step()
print(v)
'''

PROGRAMS['param_groups'] = r'''
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD([
    {'params': model[0].parameters()},
    {'params': model[1].parameters(), 'lr': 1e-3}
], lr=1e-2, momentum=0.9)
print(opt)
print(len(opt.param_groups), [g['lr'] for g in opt.param_groups])
for g in opt.param_groups:
    g['lr'] *= 0.5
print([g['lr'] for g in opt.param_groups])
opt.add_param_group({'params': [nn.Parameter(torch.ones(1))], 'lr': 0.5})
print(len(opt.param_groups), opt.param_groups[2]['momentum'])
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print(e)
'''

PROGRAMS['optimizer_zero_grad_set_to_none'] = r'''
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
(w * 2).sum().backward()
print(w.grad)
opt.zero_grad(set_to_none=False)
print(w.grad)
(w * 2).sum().backward()
opt.zero_grad()
print(w.grad)
opt.step()
print(w)
'''

PROGRAMS['losses_reductions'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
inp = torch.tensor([[0.2, -1.0, 0.5], [1.5, 0.3, -0.7]], requires_grad=True)
tgt = torch.tensor([[0.0, -1.0, 1.0], [1.0, 0.0, 0.0]])
for red in ['none', 'mean', 'sum']:
    l = nn.MSELoss(reduction=red)(inp, tgt)
    print(red, l, l.grad_fn)
    l1 = F.l1_loss(inp, tgt, reduction=red)
    print(red, l1, l1.grad_fn)
cls = torch.tensor([2, 0])
for red in ['none', 'mean', 'sum']:
    l = nn.CrossEntropyLoss(reduction=red)(inp, cls)
    print(red, l, l.grad_fn)
l = F.cross_entropy(inp, cls)
l.backward()
print(inp.grad)
logp = F.log_softmax(inp, dim=1)
print(F.nll_loss(logp, cls), F.nll_loss(logp, cls).grad_fn)
print(nn.CrossEntropyLoss(label_smoothing=0.1)(inp, cls))
print(nn.CrossEntropyLoss(weight=torch.tensor([1., 2., 3.]))(inp, cls))
print(nn.CrossEntropyLoss(ignore_index=0)(inp, cls))
'''

PROGRAMS['bce_losses'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
p = torch.tensor([0.9, 0.2, 0.6], requires_grad=True)
y = torch.tensor([1., 0., 1.])
l = nn.BCELoss()(p, y)
print(l, l.grad_fn)
l.backward()
print(p.grad)
z = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
l2 = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2., 2., 2.]))(z, y)
print(l2, l2.grad_fn)
l2.backward()
print(z.grad)
print(F.binary_cross_entropy(torch.sigmoid(z), y, reduction='sum'))
try:
    nn.BCELoss()(torch.tensor([1.5]), torch.tensor([1.]))
except RuntimeError as e:
    print(e)
try:
    F.mse_loss(z, y, reduction='avg')
except ValueError as e:
    print(e)
'''

PROGRAMS['eval_loop_no_grad'] = r'''
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 2))
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.1)
data = [(torch.tensor([[1., 2.]]), torch.tensor([1])), (torch.tensor([[-1., 0.5]]), torch.tensor([0]))]
model.eval()
correct = 0
total_loss = 0.0
with torch.no_grad():
    for x, y in data:
        out = model(x)
        print(out, out.requires_grad, out.grad_fn)
        total_loss += nn.functional.cross_entropy(out, y).item()
        correct += (out.argmax(1) == y).type(torch.float).sum().item()
print(f"Accuracy: {(100*correct/len(data)):>0.1f}%, Avg loss: {total_loss/len(data):>8f}")
'''

PROGRAMS['dynamic_net_weight_sharing'] = r'''
import torch
import math
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1, dtype=torch.float64))
        self.b = torch.nn.Parameter(torch.tensor(0.2, dtype=torch.float64))
        self.c = torch.nn.Parameter(torch.tensor(-0.1, dtype=torch.float64))
        self.d = torch.nn.Parameter(torch.tensor(0.05, dtype=torch.float64))
        self.e = torch.nn.Parameter(torch.tensor(0.01, dtype=torch.float64))
    def forward(self, x, n):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, n + 1):
            y = y + self.e * x ** exp
        return y
x = torch.linspace(-math.pi, math.pi, 50, dtype=torch.float64)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t, n in enumerate([3, 4, 5, 4, 3, 5]):
    y_pred = model(x, n)
    loss = criterion(y_pred, y)
    print(t, n, f"{loss.item():.4f}")
    optimizer.zero_grad()
    loss.backward()
    print(model.e.grad is None or f"{model.e.grad.item():.4f}")
    optimizer.step()
print(model.e)
'''

PROGRAMS['nn_functional_activations_grads'] = r'''
import torch
import torch.nn.functional as F
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
for name, fn in [("relu", F.relu), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh), ("gelu", F.gelu), ("silu", F.silu), ("leaky", lambda t: F.leaky_relu(t, 0.1))]:
    x.grad = None
    y = fn(x)
    y.sum().backward()
    print(name, y.grad_fn, x.grad)
s = F.softmax(x, dim=0)
print(s.grad_fn, s)
ls = F.log_softmax(x, dim=0)
print(ls.grad_fn)
'''

PROGRAMS['tensor_repr_grad_fn'] = r'''
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
print(x)
print(x * 2)
print(x.sum())
print(x[0])
print(x.t())
print(x.view(4))
print(x.mean(dim=1, keepdim=True))
print(torch.tensor(3.5, requires_grad=True) ** 2)
print(x.detach())
print(x.exp())
print(x.to(torch.float64))
print(x.double().grad_fn, x.float().grad_fn)
print(x.clone())
print(repr(x.unbind(0)))
print(x.split(1, dim=1))
'''

PROGRAMS['requires_grad_flags'] = r'''
import torch
a = torch.tensor([1., 2.])
print(a.requires_grad)
a.requires_grad_()
print(a.requires_grad, a.is_leaf)
b = a * 2
try:
    b.requires_grad = False
except RuntimeError as e:
    print(e)
b.requires_grad_(True)
print(b.requires_grad)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(e)
c = torch.zeros(3, requires_grad=True)
print(c, c.requires_grad)
d = torch.ones(2, 2).requires_grad_(False)
print(d.requires_grad)
e = torch.tensor([1., 2.], requires_grad=True).detach()
print(e.requires_grad, e.is_leaf)
f = torch.autograd.Variable(torch.tensor([1., 2.]), requires_grad=True)
print(f, type(f).__name__)
'''

PROGRAMS['detach_shares_storage'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.detach()
b.zero_()
print(a)
c = a * 2
d = c.detach()
d.add_(1)
print(c, c._version, d._version)
try:
    c.sum().backward()
    print(a.grad)
except RuntimeError as e:
    print(e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sigmoid()
y.data.add_(1)
y.sum().backward()
print(x.grad)
z = x * 3
z.detach_()
print(z.requires_grad, z.grad_fn, z.is_leaf)
'''

PROGRAMS['grad_setter_errors'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
try:
    x.grad = torch.tensor([1., 2., 3.])
except RuntimeError as e:
    print(e)
try:
    x.grad = torch.tensor([1, 2])
except RuntimeError as e:
    print(e)
try:
    x.grad = [1., 2.]
except TypeError as e:
    print(e)
x.grad = torch.tensor([0.5, 0.5])
(x * x).sum().backward()
print(x.grad)
x.grad = None
print(x.grad)
x.grad = torch.zeros(2, dtype=torch.float64) if False else torch.zeros(2)
print(x.grad)
'''

PROGRAMS['backward_inputs_and_multi'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
c.sum().backward(inputs=[a])
print(a.grad, b.grad)
d = a * b
e = a + b
torch.autograd.backward([d.sum(), e.sum()], grad_tensors=[torch.tensor(2.), torch.tensor(3.)])
print(a.grad, b.grad)
f = (a * b)
torch.autograd.backward(f, grad_tensors=torch.tensor([1., -1.]))
print(a.grad, b.grad)
try:
    (a * b).sum().backward(inputs=[])
except RuntimeError as e:
    print(e)
'''

PROGRAMS['autograd_grad_errors'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = (x * 2).sum()
try:
    torch.autograd.grad(z, [x, y])
except RuntimeError as e:
    print(e)
z = (x * 2).sum()
print(torch.autograd.grad(z, [x, y], allow_unused=True))
z = (x * 2).sum()
print(torch.autograd.grad(z, [x, y], materialize_grads=True))
try:
    torch.autograd.grad(z, torch.tensor([1.]))
except RuntimeError as e:
    print(e)
w = x * y
print(torch.autograd.grad(w, (x, y), grad_outputs=torch.ones(2)))
try:
    torch.autograd.grad(x * y, x, grad_outputs=torch.ones(3))
except RuntimeError as e:
    print(e)
print(x.grad)
'''

PROGRAMS['custom_function_features'] = r'''
import torch
from torch.autograd import Function
class MulConst(Function):
    @staticmethod
    def forward(ctx, x, k, flag=True):
        ctx.k = k
        print("needs_input_grad:", ctx.needs_input_grad)
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None, None
x = torch.tensor([1., 2.], requires_grad=True)
y = MulConst.apply(x, 3.0)
print(y, y.grad_fn.name() if hasattr(y.grad_fn, 'name') else None)
y.sum().backward()
print(x.grad)
class WrongCount(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
try:
    WrongCount.apply(x).sum().backward()
except RuntimeError as e:
    print(e)
class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)
try:
    WrongShape.apply(x).sum().backward()
except RuntimeError as e:
    print(e)
class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
try:
    NoBackward.apply(x).sum().backward()
except NotImplementedError as e:
    print(e)
'''

PROGRAMS['custom_function_mark_dirty_nondiff'] = r'''
import torch
from torch.autograd import Function
class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = AddOneInplace.apply(b)
print(c is b, c, c.grad_fn)
c.sum().backward()
print(a.grad)
class SortF(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx
    @staticmethod
    def backward(ctx, g, gidx):
        idx, = ctx.saved_tensors
        out = torch.zeros_like(g)
        out[idx] = g
        return out
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = SortF.apply(x)
print(v, i, v.requires_grad, i.requires_grad)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
class Mat(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print("g2 is None:", g2 is None)
        return g1
x = torch.tensor([1., 2.], requires_grad=True)
o1, o2 = Mat.apply(x)
o1.sum().backward()
print(x.grad)
'''

PROGRAMS['custom_function_setup_context'] = r'''
import torch
class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result
x = torch.tensor([1., 2.], requires_grad=True)
r, dx = MyCube.apply(x)
print(r, dx)
r.sum().backward()
print(x.grad)
print(type(r.grad_fn).__name__)
'''

PROGRAMS['function_saved_tensors_errors'] = r'''
import torch
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * x
        ctx.save_for_backward(x)
        return y
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x)
y.sum().backward()
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)
try:
    print(y.grad_fn.saved_tensors)
except RuntimeError as e:
    print(e)
y = Sq.apply(x)
print(len(y.grad_fn.saved_tensors), y.grad_fn.saved_tensors[0] is x)
print(y.grad_fn.next_functions)
print(y.grad_fn.needs_input_grad)
'''

PROGRAMS['multithreading_backward'] = r'''
import torch
import threading
results = {}
def train_fn(i):
    x = torch.ones(5, 5, requires_grad=True)
    y = (x + 3) * (x + 4) * 0.5 * (i + 1)
    y.sum().backward()
    results[i] = x.grad.sum().item()
threads = [threading.Thread(target=train_fn, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results.items()))
'''

PROGRAMS['grad_accumulation_loop'] = r'''
import torch
w = torch.tensor([0.5, -0.5], requires_grad=True)
xs = [torch.tensor([1., 2.]), torch.tensor([3., -1.]), torch.tensor([0., 1.])]
for step, x in enumerate(xs):
    loss = (w * x).sum() ** 2
    loss.backward()
    print(step, w.grad)
with torch.no_grad():
    w -= 0.01 * w.grad
w.grad.zero_()
print(w, w.grad)
'''

PROGRAMS['hooks_modify_and_order'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print("hook1", g))
y.register_hook(lambda g: g * 2)
y.register_hook(lambda g: print("hook3", g))
y.retain_grad()
z = (y * y).sum()
z.backward()
print(y.grad, x.grad)
a = torch.tensor([1., 2.], requires_grad=True)
a.register_hook(lambda g: g + 100)
(a * 1).sum().backward()
print(a.grad)
'''

PROGRAMS['module_hooks'] = r'''
import torch
import torch.nn as nn
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., -1.]]))
    lin.bias.fill_(0.5)
def fwd_hook(module, inp, out):
    print("forward", type(module).__name__, inp[0].shape, out)
def pre_hook(module, inp):
    print("pre", inp)
h1 = lin.register_forward_hook(fwd_hook)
h2 = lin.register_forward_pre_hook(pre_hook)
out = lin(torch.tensor([[2., 3.]]))
h1.remove(); h2.remove()
out = lin(torch.tensor([[2., 3.]]))
print(out)
def bwd_hook(module, grad_input, grad_output):
    print("backward", grad_input, grad_output)
h3 = lin.register_full_backward_hook(bwd_hook)
x = torch.tensor([[2., 3.]], requires_grad=True)
lin(x).sum().backward()
print(x.grad)
h3.remove()
'''

PROGRAMS['autograd_graph_get_gradient_edge'] = r'''
import torch
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.exp()
edge = get_gradient_edge(y)
print(edge.node, edge.output_nr)
g, = torch.autograd.grad(z.sum(), edge)
print(g)
print(get_gradient_edge(x).node)
'''

PROGRAMS['module_full_backward_hooks'] = r'''
import torch
import torch.nn as nn
import warnings
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1., 2.], [-1., 0.5]]))
    model[0].bias.copy_(torch.tensor([0.1, -0.1]))
    model[2].weight.copy_(torch.tensor([[0.5, -2.]]))
    model[2].bias.fill_(0.)
def make(name):
    def hook(m, gin, gout):
        print(name, type(m).__name__, gin, gout)
    return hook
hs = [m.register_full_backward_hook(make(f"layer{i}")) for i, m in enumerate(model)]
def pre(m, gout):
    print("pre", gout)
    return (gout[0] * 2,)
hp = model[2].register_full_backward_pre_hook(pre)
x = torch.tensor([[1., 1.]], requires_grad=True)
out = model(x)
print(out)
out.sum().backward()
print(x.grad)
print(model[0].weight.grad)
for h in hs:
    h.remove()
hp.remove()
lin = nn.Linear(2, 1)
lin.register_full_backward_hook(lambda m, gi, go: print("no-input-grad hook", gi, go))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    lin(torch.ones(1, 2)).sum().backward()
print([str(i.message)[:60] for i in w])
def double_input(m, gi, go):
    return (gi[0] * 10,)
lin2 = nn.Linear(2, 1)
with torch.no_grad():
    lin2.weight.fill_(1.)
lin2.register_full_backward_hook(double_input)
z = torch.ones(1, 2, requires_grad=True)
lin2(z).sum().backward()
print(z.grad)
'''

PROGRAMS['anomaly_traceback_warning'] = r'''
import torch, warnings
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom in backward")
x = torch.tensor([1.], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        y = Bad.apply(x).exp()
        try:
            y.sum().backward()
        except ValueError as e:
            print("ValueError", e)
for item in w:
    print(item.category.__name__, str(item.message).splitlines()[0])
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled())
'''

PROGRAMS['anomaly_nan_builtin'] = r'''
import torch, warnings
x = torch.tensor([0., 1.], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        y = torch.sqrt(x) * 0
        try:
            y.sum().backward()
        except RuntimeError as e:
            print(e)
print(x.grad)
z = torch.tensor([0., 1.], requires_grad=True)
(torch.sqrt(z) * 0).sum().backward()
print(z.grad)
'''

PROGRAMS['forward_ad_more'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], dtype=torch.float64)
t = torch.tensor([0.5, -1.], dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d)
    for name, f in [("sin", torch.sin), ("exp", torch.exp), ("sq", lambda v: v * v), ("sum", lambda v: v.sum()), ("mm", lambda v: v.unsqueeze(0) @ torch.tensor([[1.], [2.]], dtype=torch.float64)), ("softmax", lambda v: torch.softmax(v, 0)), ("div", lambda v: 1 / v)]:
        out = f(d)
        p, tg = fwAD.unpack_dual(out)
        print(name, p, tg)
    print(fwAD.unpack_dual(x).tangent)
    try:
        fwAD.make_dual(x, torch.ones(3, dtype=torch.float64))
    except RuntimeError as e:
        print(e)
try:
    fwAD.make_dual(x, t)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['functional_forward_mode_jacobian'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian
def f(x):
    return torch.stack([x[0] * x[1], x[0].sin(), x[1] ** 3])
x = torch.tensor([1., 2.], dtype=torch.float64)
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True, strategy="forward-mode"))
print(hessian(lambda v: (v ** 3).sum() + v.prod(), x))
'''

PROGRAMS['node_api'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sin()
fn = y.grad_fn
print(fn.name(), isinstance(fn, torch.autograd.graph.Node))
print(fn.next_functions[0][0].name())
print(fn.metadata)
fn.metadata["tag"] = 1
print(y.grad_fn.metadata)
print(x.grad_fn, x.is_leaf, x.output_nr)
a, b = torch.tensor([1., 2., 3., 4.], requires_grad=True).split(2)
print(a.grad_fn, b.grad_fn, a.output_nr, b.output_nr, a.grad_fn is b.grad_fn)
print(issubclass(type(fn), torch.autograd.graph.Node))
print(fn._sequence_nr() < (x * 3).grad_fn._sequence_nr())
'''

PROGRAMS['complex_autograd'] = r'''
import torch
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
y = (z * z.conj()).real.sum()
y.backward()
print(z.grad)
w = torch.tensor([1 + 1j], requires_grad=True)
out = (w.abs() ** 2).sum()
out.backward()
print(w.grad)
v = torch.tensor([2 + 0j, 1j], requires_grad=True)
r = torch.view_as_real(v * 2).sum()
r.backward()
print(v.grad)
try:
    (v * 2).sum().backward()
except RuntimeError as e:
    print(e)
'''

PROGRAMS['gradcheck_options'] = r'''
import torch, warnings
from torch.autograd import gradcheck, gradgradcheck
x = torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda a, b: (a * b).sin(), (x, y), fast_mode=True))
print(gradcheck(lambda a, b: (a * b).sin(), (x, y), fast_mode=False))
print(gradgradcheck(lambda a, b: (a * b).sin(), (x, y)))
print(gradcheck(torch.nn.functional.softmax, (x, 0)))
xf = torch.tensor([0.3, 0.7], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    r = gradcheck(torch.sin, (xf,), eps=1e-3, atol=1e-2, rtol=1e-2)
print(r, [str(i.message) for i in w])
'''

PROGRAMS['lr_schedule_manual'] = r'''
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
for epoch in range(4):
    for g in opt.param_groups:
        g['lr'] = 0.5 * (0.1 ** (epoch // 2))
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    print(epoch, opt.param_groups[0]['lr'], w)
print(opt.state_dict())
'''

PROGRAMS['optimizer_state_dict_load'] = r'''
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
(w ** 2).sum().backward()
opt.step()
sd = opt.state_dict()
print(sd['param_groups'])
print(sd['state'])
w2 = torch.tensor([1.0, 2.0], requires_grad=True)
opt2 = torch.optim.Adam([w2], lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]['lr'])
print(opt2.state[w2])
'''

PROGRAMS['nn_init_and_parameters'] = r'''
import torch
import torch.nn as nn
lin = nn.Linear(3, 2)
nn.init.constant_(lin.weight, 0.5)
nn.init.zeros_(lin.bias)
print(lin.weight, lin.bias)
nn.init.ones_(lin.bias)
print(lin.bias)
nn.init.eye_(lin.weight)
print(lin.weight)
w = torch.empty(2, 3)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('leaky_relu', 0.2))
print(nn.init.constant_(w, 2.0).requires_grad)
'''

PROGRAMS['module_parameter_registration'] = r'''
import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("tmp", torch.ones(1), persistent=False)
        self.plain = torch.ones(3)
        self.sub = nn.Linear(1, 1)
        self.layers = nn.ModuleList([nn.Linear(1, 1) for _ in range(2)])
    def forward(self, x):
        return x * self.w
m = M()
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
print(m)
try:
    m.w = torch.ones(2)
except TypeError as e:
    print(e)
m.requires_grad_(False)
print([p.requires_grad for p in m.parameters()])
print(m(torch.tensor([1., 2.])))
'''

PROGRAMS['leaf_after_no_grad_ops'] = r'''
import torch
w = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    v = w * 2
    u = w[0]
    t = w.view(2)
print(v.requires_grad, v.is_leaf, u.requires_grad, u.is_leaf, t.requires_grad, t.is_leaf)
try:
    t.mul_(2)
except RuntimeError as e:
    print(e)
try:
    w.view(2).mul_(2)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['numpy_to_tensors_manual_grad'] = r'''
import torch
import math
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
a = torch.tensor(0.1); b = torch.tensor(0.2); c = torch.tensor(-0.1); d = torch.tensor(0.05)
learning_rate = 1e-6
for t in range(200):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, f"{loss:.3f}")
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3')
print(a.requires_grad, a.grad_fn)
'''

PROGRAMS['two_layer_net_autograd'] = r'''
import torch
N, D_in, H, D_out = 4, 3, 5, 2
x = torch.arange(N * D_in, dtype=torch.float32).reshape(N, D_in) / 10
y = torch.arange(N * D_out, dtype=torch.float32).reshape(N, D_out) / 5
w1 = (torch.arange(D_in * H, dtype=torch.float32).reshape(D_in, H) / 20 - 0.3).requires_grad_()
w2 = (torch.arange(H * D_out, dtype=torch.float32).reshape(H, D_out) / 15 - 0.2).requires_grad_()
lr = 1e-2
for t in range(5):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, round(loss.item(), 4))
    loss.backward()
    with torch.no_grad():
        w1 -= lr * w1.grad
        w2 -= lr * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(y_pred.grad_fn, y_pred.grad_fn.next_functions)
print(w1.grad)
'''

PROGRAMS['custom_relu_function'] = r'''
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
x = torch.tensor([[-1., 2.], [3., -4.]], requires_grad=True)
w = torch.tensor([[0.5], [-0.5]], requires_grad=True)
relu = MyReLU.apply
y = relu(x.mm(w))
print(y, y.grad_fn)
y.sum().backward()
print(x.grad, w.grad)
print(torch.autograd.gradcheck(MyReLU.apply, (torch.tensor([-1.5, 0.5, 2.0], dtype=torch.double, requires_grad=True),)))
'''

PROGRAMS['sequential_ordered_dict_and_indexing'] = r'''
import torch
import torch.nn as nn
from collections import OrderedDict
model = nn.Sequential(OrderedDict([
    ('fc1', nn.Linear(2, 3)),
    ('relu', nn.ReLU()),
    ('fc2', nn.Linear(3, 1)),
]))
print(model)
print(model.fc1, model[0] is model.fc1, len(model))
print(model[1:])
for name, m in model.named_children():
    print(name, m)
model.add_module('out', nn.Sigmoid())
print(list(dict(model.named_children()).keys()))
ml = nn.ModuleList([nn.Linear(1, 1), nn.Tanh()])
ml.append(nn.ReLU())
print(ml, len(ml))
'''

PROGRAMS['module_to_double_and_apply'] = r'''
import torch
import torch.nn as nn
m = nn.Linear(2, 2)
m.double()
print(m.weight.dtype, m.bias.dtype)
m.float()
print(m.weight.dtype)
def init(mod):
    if isinstance(mod, nn.Linear):
        nn.init.constant_(mod.weight, 0.25)
        nn.init.zeros_(mod.bias)
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
net.apply(init)
print(net(torch.tensor([[1., 2.]])))
print(net[0].weight.is_leaf, net[0].weight.grad_fn)
'''

PROGRAMS['zero_grad_variants'] = r'''
import torch
import torch.nn as nn
m = nn.Linear(2, 1)
x = torch.ones(1, 2)
m(x).sum().backward()
print(m.weight.grad, m.bias.grad)
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
m(x).sum().backward()
m.zero_grad()
print(m.weight.grad, m.bias.grad)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(x).sum().backward()
opt.zero_grad()
print(m.weight.grad)
'''

PROGRAMS['retain_graph_multiple_losses'] = r'''
import torch
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
h = x.exp()
l1 = h.sum()
l2 = (h * h).sum()
l1.backward(retain_graph=True)
print(x.grad)
l2.backward()
print(x.grad)
try:
    l1.backward()
except RuntimeError as e:
    print("second:", str(e)[:60])
y = x + 2
y.sum().backward()
y.sum().backward()
print(x.grad)
'''

PROGRAMS['detach_in_graph_stop_gradient'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
z = y.detach() * x
z.sum().backward()
print(x.grad)
x.grad = None
w = x * x.detach() + x
w.sum().backward()
print(x.grad)
with torch.no_grad():
    k = x * 2
m = k * x
m.sum().backward()
print(x.grad)
'''

PROGRAMS['requires_grad_propagation_dtypes'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
i = torch.tensor([1, 2])
print((x * i).requires_grad, (x * i).dtype)
print((x > 1).requires_grad, (x > 1).grad_fn)
print(x.argmax().requires_grad, x.long().requires_grad, x.int().grad_fn)
print(x.round().requires_grad, x.round().grad_fn)
print(x.sign().grad_fn, x.floor().grad_fn)
r = x.round()
r.sum().backward()
print(x.grad)
print(torch.where(x > 1, x, torch.zeros(2)).grad_fn)
idx = x.max(dim=0)
print(idx.values.grad_fn, idx.indices.requires_grad)
'''

PROGRAMS['autograd_functional_nn_params'] = r'''
import torch
import torch.nn as nn
from torch.autograd.functional import jacobian
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2.], [3., 4.]]))
    lin.bias.zero_()
x = torch.tensor([1., -1.])
print(jacobian(lin, x))
print(jacobian(lambda w: x @ w.T, lin.weight.detach()))
def loss(w, b):
    return ((x @ w.T + b) ** 2).sum()
print(torch.autograd.functional.hessian(loss, (lin.weight.detach(), lin.bias.detach()))[1][1])
'''

PROGRAMS['higher_order_gradient_penalty'] = r'''
import torch
import torch.nn as nn
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.5]]))
    lin.bias.fill_(0.1)
x = torch.tensor([[1., 2.], [0.5, -1.]], requires_grad=True)
out = torch.tanh(lin(x))
grads = torch.autograd.grad(out.sum(), x, create_graph=True)[0]
penalty = grads.pow(2).sum()
print(grads, penalty)
penalty.backward()
print(lin.weight.grad, lin.bias.grad)
print(x.grad)
'''

PROGRAMS['hooks_on_leaf_and_clone'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
seen = []
x.register_hook(lambda g: seen.append(g.clone()))
y = x.clone()
y.register_hook(lambda g: print("clone grad", g))
(y * y).sum().backward()
print(seen, x.grad)
print(y.grad_fn, y.grad_fn.next_functions)
'''

PROGRAMS['single_sample_relu_net_grads'] = r'''
import torch
import torch.nn as nn
torch.set_printoptions(precision=4)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[0.5, -0.2, 0.1], [-0.3, 0.8, -0.5], [0.2, 0.2, 0.2], [-1.0, -0.5, 0.3]]))
    net[0].bias.copy_(torch.tensor([0.0, -0.1, 0.1, -0.2]))
    net[2].weight.copy_(torch.tensor([[0.1, -0.2, 0.3, -0.4], [0.5, 0.6, -0.7, 0.8]]))
    net[2].bias.copy_(torch.tensor([0.01, -0.01]))
x = torch.tensor([[1.0, -2.0, 0.5]])
target = torch.tensor([1])
loss = nn.CrossEntropyLoss()(net(x), target)
loss.backward()
print(loss)
for name, p in net.named_parameters():
    print(name, p.grad)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
opt.step()
print(net[0].weight)
'''

PROGRAMS['training_loop_batches'] = r'''
import torch
import torch.nn as nn
X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
Y = torch.tensor([[0.], [1.], [1.], [0.]])
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1), nn.Sigmoid())
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1., -1.], [-1., 1.], [0.5, 0.5], [-0.5, -0.5]]))
    model[0].bias.zero_()
    model[2].weight.copy_(torch.tensor([[1., 1., -1., 0.5]]))
    model[2].bias.zero_()
loss_fn = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(30):
    for i in range(0, 4, 2):
        xb, yb = X[i:i + 2], Y[i:i + 2]
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        print(epoch, f"{loss.item():.4f}")
with torch.no_grad():
    print((model(X) > 0.5).float().squeeze())
'''

PROGRAMS['dot_and_outer_zero_signs'] = r'''
import torch
a = torch.tensor([0., 1., -2.], requires_grad=True)
b = torch.tensor([-1., 0., 3.], requires_grad=True)
print(a.dot(b))
o = torch.outer(a, b)
print(o)
o.sum().backward()
print(a.grad, b.grad)
m = a.unsqueeze(1) @ b.unsqueeze(0)
print(m, m.grad_fn)
v = a @ b
print(v, v.grad_fn)
'''

PROGRAMS['inplace_ops_on_nonleaf_graph'] = r'''
import torch
x = torch.tensor([1., -2., 3.], requires_grad=True)
y = x * 1
y += 1
print(y.grad_fn)
y *= 2
print(y.grad_fn)
y.clamp_(min=0)
print(y.grad_fn)
y[0] = 10
print(y.grad_fn)
y.sum().backward()
print(x.grad)
z = x.clone()
z.masked_fill_(z < 0, 0.0)
print(z, z.grad_fn)
'''

PROGRAMS['version_counter_views'] = r'''
import torch
a = torch.tensor([1., 2., 3., 4.])
v = a[1:3]
print(a._version, v._version)
v.add_(1)
print(a._version, v._version, a)
a.mul_(2)
print(a._version, v._version, v)
t = a.t() if a.dim() == 2 else a.view(2, 2).t()
t.zero_()
print(a._version, a)
print(v._base is a, t._base is a, a._base)
print(v.is_contiguous(), t.is_contiguous(), v.data_ptr() == a.data_ptr() + 4)
'''

PROGRAMS['grad_of_views_and_unbind'] = r'''
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
rows = x.unbind(0)
print(rows[0].grad_fn, rows[1].output_nr)
(rows[0] * 2 + rows[1] * 3).sum().backward()
print(x.grad)
try:
    r = x * 1
    r0, r1 = r.unbind(0)
    r0.mul_(2)
except RuntimeError as e:
    print(e)
d = x.diagonal()
print(d.grad_fn)
x.grad = None
d.sum().backward()
print(x.grad)
'''

PROGRAMS['gradient_clipping_utils'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters
m = nn.Linear(2, 1)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[3., 4.]]))
    m.bias.fill_(0.)
x = torch.tensor([[1., 2.]])
(m(x) ** 2).sum().backward()
print(m.weight.grad, m.bias.grad)
total = clip_grad_norm_(m.parameters(), max_norm=1.0)
print(total)
print(m.weight.grad, m.bias.grad)
print(clip_grad_norm_(m.parameters(), max_norm=100.0))
clip_grad_value_(m.parameters(), clip_value=0.2)
print(m.weight.grad, m.bias.grad)
vec = parameters_to_vector(m.parameters())
print(vec)
vector_to_parameters(torch.tensor([1., 2., 3.]), m.parameters())
print(m.weight, m.bias)
print(nn.utils.clip_grad_norm_([], 1.0))
m.zero_grad()
(m(x) ** 2).sum().backward()
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=float('inf')), m.weight.grad)
'''

PROGRAMS['tensor_backward_gradient_arg'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
x.grad.zero_()
y2 = x * 2
while y2.data.norm() < 100:
    y2 = y2 * 2
print(y2)
y2.backward(torch.tensor([0.1, 1.0, 0.0001]))
print(x.grad)
'''



def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
