"""Parity programs from the ninth hunt: the PyTorch tutorials as whole programs.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch) and
both stdouts must be identical (addresses masked); losses are printed with ``.item()``, so every float32 bit
shows. The programs follow "Learning PyTorch with Examples", "A Gentle Introduction to torch.autograd", the
autograd mechanics notes, "What is torch.nn really?", "Optimizing Model Parameters", "Build the Neural Network",
"Tensors", "Saving and Loading Models", a sequence tagger, and training loops with the optimizers and
LR schedulers; seeded, with synthetic tensors in place of downloaded datasets, and fewer epochs. Programs
marked "fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}


PROGRAMS['lpe_tensor_manual_grads'] = r'''
import torch
import math

torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)

learning_rate = 1e-6
for t in range(600):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 20 == 19:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
print(a, b, c, d)
'''

PROGRAMS['lpe_autograd'] = r'''
import torch
import math

torch.manual_seed(0)
dtype = torch.float
device = "cpu"
torch.set_default_device(device)

x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)

a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(600):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 20 == 19:
        print(t, loss.item())
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

print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
print(a, loss)
'''

PROGRAMS['lpe_custom_function_legendre3'] = r'''
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


torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)

learning_rate = 5e-6
for t in range(600):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 20 == 19:
        print(t, loss.item())
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

print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')
print(y_pred.grad_fn, y_pred.grad_fn.next_functions)
'''

PROGRAMS['lpe_nn_sequential_flatten'] = r'''
import torch
import math

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype, xx[:2])

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
print(model)
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-6
for t in range(600):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
'''

PROGRAMS['lpe_optim_rmsprop'] = r'''
import torch
import math

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
print(optimizer)
for t in range(600):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
print(optimizer.state_dict()['state'][0])
'''

PROGRAMS['lpe_custom_module_polynomial3'] = r'''
import torch
import math


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3'


torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Polynomial3()
print(model)
print(list(model.named_parameters()))
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(600):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
'''

PROGRAMS['lpe_dynamic_net_random_seed'] = r'''
import random
import torch
import math


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y

    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3 + {self.e.item()} x^4 ? + {self.e.item()} x^5 ?'


random.seed(0)
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(600):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 30 == 29:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
'''

# The older version of the tutorial (N, D_in, H, D_out = 64, 1000, 100, 10) with D_in, H = 100, 40: the
# real sizes (6.4M multiply-adds) are beyond _matmul.LIMIT, where products take NumPy's bits.
PROGRAMS['lpe_two_layer_net_legacy'] = r'''
import torch

torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")
N, D_in, H, D_out = 64, 100, 40, 10
x = torch.randn(N, D_in, device=device, dtype=dtype)
y = torch.randn(N, D_out, device=device, dtype=dtype)
w1 = torch.randn(D_in, H, device=device, dtype=dtype)
w2 = torch.randn(H, D_out, device=device, dtype=dtype)
learning_rate = 1e-6
for t in range(100):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum().item()
    if t % 5 == 4:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2
print(w2[:2])

# autograd version of the same net
w1 = torch.randn(D_in, H, device=device, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, dtype=dtype, requires_grad=True)
for t in range(100):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 5 == 4:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(w2[:2])


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


for t in range(100):
    relu = MyReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 5 == 4:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()

model = torch.nn.Sequential(torch.nn.Linear(D_in, H), torch.nn.ReLU(), torch.nn.Linear(H, D_out))
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for t in range(100):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    if t % 5 == 4:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''

# A small CNN stands in for torchvision's resnet18.
PROGRAMS['gentle_intro_autograd'] = r'''
import torch
from torch import nn, optim

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, 10)

    def forward(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(x, 1))


model = SmallCNN()
data = torch.rand(1, 3, 8, 8)
labels = torch.rand(1, 10)
prediction = model(data)
print(prediction)
loss = (prediction - labels).sum()
print(loss)
loss.backward()
print(model.fc.weight.grad)
print(model.fc.bias.grad)
optim_ = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
optim_.step()
print(model.fc.weight)
print(model(data))

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
print(Q)
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(a.grad, b.grad)
print(Q.grad_fn, Q.grad_fn.next_functions)

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")

model = SmallCNN()
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(4, 10)
print(model)
print([n for n, p in model.named_parameters() if p.requires_grad])
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
for step in range(3):
    optimizer.zero_grad()
    out = model(torch.rand(2, 3, 8, 8))
    loss = (out - torch.rand(2, 10)).pow(2).mean()
    print(step, loss.item())
    loss.backward()
    print(model.conv1.weight.grad, model.fc.bias.grad)
    optimizer.step()

model2 = SmallCNN()
model2.requires_grad_(False)
model2.fc = nn.Linear(4, 10)
out = model2(torch.rand(2, 3, 8, 8))
print(out.grad_fn, out.requires_grad)
print(sum(p.numel() for p in model2.parameters() if p.requires_grad))
'''

PROGRAMS['autograd_mechanics_notes'] = r'''
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
print(y.grad_fn._saved_result.grad_fn)

# locally disabling gradient computation
model = nn.Linear(10, 10)
for p in model.parameters():
    p.requires_grad_(False)
print([p.requires_grad for p in model.parameters()])
a = torch.randn(3, requires_grad=True)
with torch.no_grad():
    b = a * 2
print(b.requires_grad)
with torch.inference_mode():
    c = a * 2
print(c.requires_grad, c.is_inference())
model.eval()
print(model.training)

# in-place correctness checks
a = torch.randn(4, requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

# hooks for saved tensors
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

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda x: x * 4, lambda x: x / 4)
print(y.grad_fn._saved_self)

# backward hooks execution
def hook_a(grad):
    print('hook_a', grad)
    return grad * 2

a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 3
b.register_hook(hook_a)
b.grad_fn.register_prehook(lambda g: print('prehook', g))
b.grad_fn.register_hook(lambda gi, go: print('posthook', gi, go))
a.register_post_accumulate_grad_hook(lambda p: print('post accumulate', p.grad))
b.sum().backward()
print(a.grad)

# complex autograd
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
loss = (z * z.conj()).real.sum()
loss.backward()
print(z.grad)
w = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
out = (w.abs() ** 2).sum()
out.backward()
print(w.grad, torch.allclose(w.grad, 2 * w.detach()))

# multithreading-free: retain_graph and grad accumulation
x = torch.ones(2, 2, requires_grad=True)
y = (x * 3).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)
'''

# bs = 32 (the tutorial's 64 makes 64x784x10 products, beyond _matmul.LIMIT) and the validation loader
# at bs; synthetic MNIST-shaped data; the seeded shuffle=True DataLoader included.
PROGRAMS['nn_really_mnist_logistic'] = r'''
import math
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
n_train, n_valid = 320, 128
x_train = (torch.rand(n_train, 784) * (torch.rand(n_train, 784) > 0.8)).float()
y_train = torch.randint(0, 10, (n_train,))
x_valid = (torch.rand(n_valid, 784) * (torch.rand(n_valid, 784) > 0.8)).float()
y_valid = torch.randint(0, 10, (n_valid,))
print(x_train, y_train)
print(x_train.shape)
print(y_train.min(), y_train.max())

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 32
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))

lr = 0.5
epochs = 2
n = n_train
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        print(loss.item())
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))

loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


print(loss_func(model(xb), yb), accuracy(model(xb), yb))


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = Mnist_Logistic()
print(loss_func(model(xb), yb))


def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)
            print(loss.item())
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()


fit()
print(loss_func(model(xb), yb))


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


model = Mnist_Logistic()
print(loss_func(model(xb), yb))
fit()
print(loss_func(model(xb), yb))


def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)


model, opt = get_model()
print(loss_func(model(xb), yb))
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        print(loss.item())
        loss.backward()
        opt.step()
        opt.zero_grad()
print(loss_func(model(xb), yb))

train_ds = TensorDataset(x_train, y_train)
model, opt = get_model()
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        xb, yb = train_ds[i * bs: i * bs + bs]
        pred = model(xb)
        loss = loss_func(pred, yb)
        print(loss.item())
        loss.backward()
        opt.step()
        opt.zero_grad()
print(loss_func(model(xb), yb))

train_dl = DataLoader(train_ds, batch_size=bs)
model, opt = get_model()
for epoch in range(epochs):
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        print(loss.item())
        loss.backward()
        opt.step()
        opt.zero_grad()
print(loss_func(model(xb), yb))

train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs)
model, opt = get_model()
for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        print(loss.item())
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, valid_loss / len(valid_dl))
'''

PROGRAMS['nn_really_mnist_cnn_sequential'] = r'''
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
n_train, n_valid = 64, 32
x_train = torch.rand(n_train, 784)
y_train = torch.randint(0, 10, (n_train,))
x_valid = torch.rand(n_valid, 784)
y_valid = torch.randint(0, 10, (n_valid,))
bs = 16
lr = 0.1
epochs = 2
loss_func = F.cross_entropy


def get_data(train_ds, valid_ds, bs):
    return (
        DataLoader(train_ds, batch_size=bs, shuffle=True),
        DataLoader(valid_ds, batch_size=bs * 2),
    )


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            print(loss_batch(model, loss_func, xb, yb, opt))
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = sum(torch.tensor(losses) * torch.tensor(nums)) / sum(nums)
        print(epoch, val_loss)


train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)


class Mnist_CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)

    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 4)
        return xb.view(-1, xb.size(1))


model = Mnist_CNN()
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 28, 28)


model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AvgPool2d(4),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))


def preprocess(x, y):
    return x.view(-1, 1, 28, 28), y


train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
train_dl = WrappedDataLoader(train_dl, preprocess)
valid_dl = WrappedDataLoader(valid_dl, preprocess)
model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
'''

# FashionMNIST-shaped data at 14x14 and a 32-unit stack (28x28 with 512 units is beyond _matmul.LIMIT).
PROGRAMS['optimizing_model_parameters'] = r'''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
H, W, HID, N_TRAIN, N_TEST = 14, 14, 32, 128, 64
training_data = TensorDataset(torch.rand(N_TRAIN, 1, H, W), torch.randint(0, 10, (N_TRAIN,)))
test_data = TensorDataset(torch.rand(N_TEST, 1, H, W), torch.randint(0, 10, (N_TEST,)))
learning_rate = 1e-3
batch_size = 32
epochs = 2
train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(H * W, HID),
            nn.ReLU(),
            nn.Linear(HID, HID),
            nn.ReLU(),
            nn.Linear(HID, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        loss, current = loss.item(), batch * batch_size + len(X)
        print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
        print(loss)


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    print(test_loss, correct)


for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
'''

PROGRAMS['build_the_neural_network'] = r'''
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 28, 28, device=device)
logits = model(X)
print(logits)
pred_probab = nn.Softmax(dim=1)(logits)
print(pred_probab)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")

input_image = torch.rand(3, 28, 28)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28*28, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(
    flatten,
    layer1,
    nn.ReLU(),
    nn.Linear(20, 10)
)
input_image = torch.rand(3, 28, 28)
logits = seq_modules(input_image)
print(logits)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab)
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
'''

PROGRAMS['tensors_tutorial'] = r'''
import torch
import numpy as np

torch.manual_seed(0)
data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
print(x_data, x_np)
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(f"Random Tensor: \n {x_rand} \n")
shape = (2, 3,)
rand_tensor = torch.rand(shape)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
print(f"Random Tensor: \n {rand_tensor} \n")
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")
tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
if torch.accelerator.is_available():
    tensor = tensor.to(torch.accelerator.current_accelerator())
tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
print(y1, y2, y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(z1, z2, z3)
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
print(f"{tensor} \n")
tensor.add_(5)
print(tensor)
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
# extra: a random float matrix product and stats
r = torch.randn(4, 5)
print(r @ r.T, r.mean(), r.std(), r.max(dim=1), r.T.contiguous().view(-1)[:6])
print(torch.stack([r[0], r[1]]), torch.zeros(2, 3, dtype=torch.int64), torch.eye(3), torch.arange(0, 1, 0.25))
'''

PROGRAMS['save_load_state_dict_bytesio'] = r'''
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
x = torch.randn(2, 3, 32, 32)
y = torch.tensor([3, 7])
for step in range(3):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    print(step, loss.item())
    loss.backward()
    optimizer.step()

print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
model2 = TheModelClass()
print(model2.load_state_dict(torch.load(buf, weights_only=True)))
model2.eval()
print(torch.equal(model(x), model2(x)), model2(x))

buf = io.BytesIO()
torch.save({'epoch': 3, 'model_state_dict': model.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(), 'loss': loss}, buf)
buf.seek(0)
checkpoint = torch.load(buf, weights_only=True)
model3 = TheModelClass()
optimizer3 = optim.SGD(model3.parameters(), lr=0.001, momentum=0.9)
model3.load_state_dict(checkpoint['model_state_dict'])
optimizer3.load_state_dict(checkpoint['optimizer_state_dict'])
print(checkpoint['epoch'], checkpoint['loss'])
model3.train()
for m, o in ((model, optimizer), (model3, optimizer3)):
    o.zero_grad()
    l = F.cross_entropy(m(x), y)
    l.backward()
    o.step()
    print(l.item(), m.fc3.bias)
print(optimizer3.state_dict()['state'][9])
'''

# fixed: unsafe_chunk/unsafe_split pieces were contiguous copies; PyTorch's share the input's memory and
# strides, so sigmoid_ on a GRU gate chunk runs the scalar (glibc expf) code on every element.
# (float32 nn.LSTM is oneDNN's kernel in PyTorch, not bit-exact here: left out.)
PROGRAMS['seq_tagger_gru_rnn_embedding'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
training_data = [
    ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("Everybody read that book".split(), ["NN", "V", "DET", "NN"]),
]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
EMBEDDING_DIM = 6
HIDDEN_DIM = 6


def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)


class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size, cell=nn.LSTM):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = cell(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores


for cell, dtype in ((nn.GRU, torch.float32), (nn.RNN, torch.float32)):
    model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix), cell).to(dtype)
    print(model)
    loss_function = nn.NLLLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.no_grad():
        inputs = prepare_sequence(training_data[0][0], word_to_ix)
        tag_scores = model(inputs)
        print(tag_scores)
    for epoch in range(30):
        for sentence, tags in training_data:
            model.zero_grad()
            sentence_in = prepare_sequence(sentence, word_to_ix)
            targets = prepare_sequence(tags, tag_to_ix)
            tag_scores = model(sentence_in)
            loss = loss_function(tag_scores, targets)
            print(epoch, loss.item())
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        inputs = prepare_sequence(training_data[0][0], word_to_ix)
        tag_scores = model(inputs)
        print(tag_scores)

# batch_first, 2 layers, Adam, clipping
emb = nn.Embedding(20, 8, padding_idx=0)
rnn = nn.GRU(8, 12, num_layers=2, batch_first=True, dropout=0.0)
gru = nn.GRU(8, 12, batch_first=True, bidirectional=True)
head = nn.Linear(12 + 24, 3)
params = [*emb.parameters(), *rnn.parameters(), *gru.parameters(), *head.parameters()]
opt = torch.optim.Adam(params, lr=0.01)
x = torch.randint(0, 20, (4, 7))
y = torch.tensor([0, 2, 1, 2])
for step in range(15):
    e = emb(x)
    out, h = rnn(e)
    c = h
    gout, gh = gru(e)
    logits = head(torch.cat([out[:, -1], gout[:, -1]], dim=1))
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(step, loss.item(), norm.item())
print(h.shape, c.shape, gh.shape, out[0, -1])
'''

# fixed: unsafe_chunk pieces keep the input's strides and memory (see above).
PROGRAMS['gru_gate_chunks_strided'] = r'''
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(4, 36)
pieces = x.unsafe_chunk(3, 1)
print(pieces[0].stride(), pieces[0].is_contiguous(), x.unsafe_split(12, 1)[2].stride())
g = pieces[0].sigmoid_()
print(g)
print(x[:, :12].equal(g), x.t().unsafe_chunk(2, 0)[1].stride())
gru = nn.GRU(8, 12)
cell = nn.GRUCell(8, 12)
inp = torch.randn(5, 4, 8, requires_grad=True)
out, h = gru(inp)
print(out[-1])
(out * torch.randn(5, 4, 12)).sum().backward()
print(inp.grad[0], gru.weight_hh_l0.grad[:3])
hx = torch.randn(4, 12)
for t in range(5):
    hx = cell(inp[t], hx)
print(hx)
'''

PROGRAMS['optimizers_and_schedulers'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(48, 5)
w_true = torch.randn(5, 1)
Y = X @ w_true + 0.1 * torch.randn(48, 1)


def make():
    return nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))


def train(opt_fn, sched_fn=None, epochs=8, plateau=False):
    torch.manual_seed(1)
    model = make()
    opt = opt_fn(model.parameters())
    sched = sched_fn(opt) if sched_fn else None
    for epoch in range(epochs):
        for i in range(0, 48, 16):
            xb, yb = X[i:i + 16], Y[i:i + 16]
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(epoch, i, loss.item())
        with torch.no_grad():
            val = F.mse_loss(model(X), Y)
        if sched is not None:
            if plateau:
                sched.step(val)
            else:
                sched.step()
        print('val', val.item(), [g['lr'] for g in opt.param_groups])
    return model


train(lambda p: torch.optim.Adam(p, lr=1e-2))
train(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.1))
train(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3),
      lambda o: torch.optim.lr_scheduler.ReduceLROnPlateau(o, mode='min', factor=0.5, patience=0), plateau=True)
train(lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.1),
      lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=8))
train(lambda p: torch.optim.Adam(p, lr=1e-2, amsgrad=True),
      lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9))
m = train(lambda p: torch.optim.RMSprop(p, lr=1e-3, momentum=0.5, centered=True),
          lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1e-2, total_steps=8))
train(lambda p: torch.optim.Adagrad(p, lr=0.1), lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [2, 5], 0.5))
print(m[0].weight)
'''

PROGRAMS['blitz_neural_networks_and_cifar_classifier'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output


net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
output = net(input)
target = torch.randn(10)
target = target.view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()
print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
optimizer = optim.SGD(net.parameters(), lr=0.01)
for i in range(5):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    print(i, loss.item())


class CifarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = CifarNet()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
images = torch.rand(24, 3, 32, 32) * 2 - 1
labels = torch.randint(0, 10, (24,))
trainloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=4, shuffle=True)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels_ = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels_)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        print(epoch, i, loss.item())
    print(f'[{epoch + 1}] loss: {running_loss / 6:.3f}')
correct = 0
total = 0
with torch.no_grad():
    outputs = net(images)
    _, predicted = torch.max(outputs, 1)
    total += labels.size(0)
    correct += (predicted == labels).sum().item()
print(f'Accuracy: {100 * correct // total} %', outputs[:2])
'''

PROGRAMS['multihead_attention_need_weights_training'] = r'''
import torch
import torch.nn as nn

torch.manual_seed(0)
mha = nn.MultiheadAttention(16, 4)
mha_bf = nn.MultiheadAttention(16, 2, batch_first=True, dropout=0.0)
q = torch.randn(5, 3, 16)
opt = torch.optim.Adam([*mha.parameters(), *mha_bf.parameters()], lr=1e-2)
for step in range(5):
    out, w = mha(q, q, q)
    out2, w2 = mha_bf(q.transpose(0, 1), q.transpose(0, 1), q.transpose(0, 1), average_attn_weights=False)
    loss = out.pow(2).mean() + out2.abs().mean() + w.sum() * 0 + w2.max()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
print(w[0], w2.shape)
'''

# fixed: scatter_ with a 0-d index on a 1-d tensor (the Transforms tutorial's one-hot target_transform,
# ``torch.zeros(10).scatter_(0, torch.tensor(y), value=1)``) raised IndexError.
PROGRAMS['datasets_dataloaders_transforms'] = r'''
import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split, Subset, WeightedRandomSampler, RandomSampler, SequentialSampler, BatchSampler, ConcatDataset

torch.manual_seed(0)


class CustomImageDataset(Dataset):
    def __init__(self, n, transform=None, target_transform=None):
        self.images = torch.rand(n, 1, 4, 4)
        self.labels = torch.randint(0, 3, (n,))
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        label = self.labels[idx].item()
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


ds = CustomImageDataset(10, transform=lambda x: x * 2 - 1,
                        target_transform=lambda y: torch.zeros(3, dtype=torch.float).scatter_(0, torch.tensor(y), value=1))
img, lab = ds[3]
print(img.shape, lab)
dl = DataLoader(ds, batch_size=4, shuffle=True)
for xb, yb in dl:
    print(xb.shape, yb)
dl = DataLoader(ds, batch_size=3, shuffle=False, drop_last=True)
print(len(dl), [yb.argmax(1).tolist() for _, yb in dl])
train, val = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), train.indices, val.indices)
a, b, c = random_split(range(10), [3, 3, 4])
print(list(a), list(b), list(c))
sampler = WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], num_samples=8, replacement=True)
print(list(sampler))
print(list(RandomSampler(range(6))), list(SequentialSampler(range(4))))
print(list(BatchSampler(RandomSampler(range(7)), batch_size=3, drop_last=False)))
g = torch.Generator()
g.manual_seed(3)
print(list(DataLoader(TensorDataset(torch.arange(8.)), batch_size=3, shuffle=True, generator=g)))


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).sum(0), torch.stack(ys)


print(next(iter(DataLoader(ds, batch_size=2, collate_fn=collate))))
cd = ConcatDataset([TensorDataset(torch.arange(3)), TensorDataset(torch.arange(10, 12))])
print(len(cd), [cd[i] for i in range(5)])
print(Subset(ds, [1, 2])[1][1])
dl = DataLoader(TensorDataset(torch.randn(5, 2), torch.arange(5)), batch_size=2)
for batch in dl:
    print(batch)
print(torch.randn(2))
'''

# fixed: torch.rand(2, 2, out=c) raised TypeError (factories' out=).
PROGRAMS['intro_to_tensors_yt_series'] = r'''
import torch
import math

x = torch.empty(3, 4)
print(type(x))
zeros = torch.zeros(2, 3)
print(zeros)
ones = torch.ones(2, 3)
print(ones)
torch.manual_seed(1729)
random = torch.rand(2, 3)
print(random)
torch.manual_seed(1729)
random1 = torch.rand(2, 3)
print(random1)
random2 = torch.rand(2, 3)
print(random2)
torch.manual_seed(1729)
random3 = torch.rand(2, 3)
print(random3)
x = torch.empty(2, 2, 3)
print(x.shape)
zeros_like_x = torch.zeros_like(x)
print(zeros_like_x.shape)
rand_like_x = torch.rand_like(x)
print(rand_like_x)
some_constants = torch.tensor([[3.1415926, 2.71828], [1.61803, 0.0072897]])
print(some_constants)
some_integers = torch.tensor((2, 3, 5, 7, 11, 13, 17, 19))
print(some_integers)
more_integers = torch.tensor(((2, 4, 6), [3, 6, 9]))
print(more_integers)
a = torch.ones((2, 3), dtype=torch.int16)
print(a)
b = torch.rand((2, 3), dtype=torch.float64) * 20.
print(b)
c = b.to(torch.int32)
print(c)
ones = torch.zeros(2, 2) + 1
twos = torch.ones(2, 2) * 2
threes = (torch.ones(2, 2) * 7 - 1) / 2
fours = twos ** 2
sqrt2s = twos ** 0.5
print(ones, twos, threes, fours, sqrt2s)
powers2 = twos ** torch.tensor([[1, 2], [3, 4]])
print(powers2)
fives = ones + fours
print(fives)
dozens = threes * fours
print(dozens)
rand = torch.rand(2, 4)
doubled = rand * (torch.ones(1, 4) * 2)
print(rand)
print(doubled)
a = torch.ones(4, 3, 2)
b = a * torch.rand(3, 2)
print(b)
c = a * torch.rand(3, 1)
print(c)
d = a * torch.rand(1, 2)
print(d)
try:
    a * torch.rand(4, 3)
except RuntimeError as e:
    print(e)
a = torch.rand(2, 4) * 2 - 1
print('Common functions:')
print(torch.abs(a))
print(torch.ceil(a))
print(torch.floor(a))
print(torch.clamp(a, -0.5, 0.5))
angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
sines = torch.sin(angles)
inverses = torch.asin(sines)
print('\nSine and arcsine:')
print(angles)
print(sines)
print(inverses)
print('\nBitwise XOR:')
b = torch.tensor([1, 5, 11])
c = torch.tensor([2, 7, 10])
print(torch.bitwise_xor(b, c))
print('\nBroadcasted, element-wise equality comparison:')
d = torch.tensor([[1., 2.], [3., 4.]])
e = torch.ones(1, 2)
print(torch.eq(d, e))
print('\nReduction ops:')
print(torch.max(d))
print(torch.max(d).item())
print(torch.mean(d))
print(torch.std(d))
print(torch.prod(d))
print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))
v1 = torch.tensor([1., 0., 0.])
v2 = torch.tensor([0., 1., 0.])
m1 = torch.rand(2, 2)
m2 = torch.tensor([[3., 0.], [0., 3.]])
print('\nVectors & Matrices:')
print(torch.linalg.cross(v2, v1))
print(m1)
m3 = torch.linalg.matmul(m1, m2)
print(m3)
print(torch.linalg.svd(m3))
a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print('a:')
print(a)
print(torch.sin(a))
print(a)
print('\nb:')
b = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print(b)
print(torch.sin_(b))
print(b)
a = torch.ones(2, 2)
b = torch.rand(2, 2)
print('Before:')
print(a)
print(b)
print('\nAfter adding:')
print(a.add_(b))
print(a)
print(b)
print('\nAfter multiplying')
print(b.mul_(b))
print(b)
a = torch.rand(2, 2)
b = torch.rand(2, 2)
c = torch.zeros(2, 2)
old_id = id(c)
print(c)
d = torch.matmul(a, b, out=c)
print(c)
assert c is d
assert id(c) == old_id
torch.rand(2, 2, out=c)
print(c)
assert id(c) == old_id
a = torch.rand(2, 2, requires_grad=False)
b = a.clone()
assert b is not a
print(torch.eq(a, b))
a[0][1] = 561
print(b)
a = torch.rand(2, 2, requires_grad=True)
print(a)
b = a.clone()
print(b)
c = a.detach().clone()
print(c)
print(a)
a = torch.ones(3, 226, 226)
b = a.unsqueeze(0)
print(a.shape)
print(b.shape)
c = torch.rand(1, 1, 1, 1, 1)
print(c)
a = torch.rand(1, 20)
print(a.shape)
print(a)
b = a.squeeze(0)
print(b.shape)
print(b)
c = torch.rand(2, 2)
print(c.shape)
d = c.squeeze(0)
print(d.shape)
a = torch.ones(4, 3, 2)
c = a * torch.rand(3, 1)
print(c)
a = torch.ones(4, 3, 2)
b = torch.rand(3)
c = b.unsqueeze(1)
print(c.shape)
print(a * c)
batch_me = torch.rand(3, 226, 226)
print(batch_me.shape)
batch_me.unsqueeze_(0)
print(batch_me.shape)
output3d = torch.rand(6, 20, 20)
print(output3d.shape)
input1d = output3d.reshape(6 * 20 * 20)
print(input1d.shape)
print(torch.reshape(output3d, (6 * 20 * 20,)).shape)
import numpy as np
numpy_array = np.ones((2, 3))
print(numpy_array)
pytorch_tensor = torch.from_numpy(numpy_array)
print(pytorch_tensor)
pytorch_rand = torch.rand(2, 3)
print(pytorch_rand)
numpy_rand = pytorch_rand.numpy()
print(numpy_rand)
numpy_array[1, 1] = 23
print(pytorch_tensor)
pytorch_rand[1, 1] = 17
print(numpy_rand)
print(torch.std_mean(torch.rand(3, 4), dim=1), torch.det(torch.rand(3, 3)), torch.rand(2, 2).inverse())
'''

# fixed: zeros/ones/empty accepted out= but ignored it; rand/randn had none. Now: out resized and filled,
# its dtype used, PyTorch's version bumps, errors, and requires_grad= applied to out.
PROGRAMS['factory_out_argument'] = r'''
import torch
import warnings
def E(f):
    try:
        r = f()
        print(r)
    except Exception as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
c = torch.zeros(2, 2); v = c._version
r = torch.rand(2, 2, out=c); print(r is c, c._version - v, c)
r = torch.randn(2, 3, out=c); print(r is c, c.shape, c, c._version - v)
r = torch.zeros(3, out=c); print(r is c, c.shape, c, c._version - v)
r = torch.ones((2, 2), out=c); print(r is c, c)
d = torch.zeros(2, dtype=torch.int64)
E(lambda: torch.rand(2, out=d))
E(lambda: torch.randn(2, out=torch.empty(0)))
e = torch.zeros(2, requires_grad=True)
E(lambda: torch.zeros(2, out=e))
E(lambda: torch.rand(2, out=e))
with torch.no_grad():
    E(lambda: torch.ones(2, out=e))
E(lambda: torch.ones(2, out=torch.zeros(2, dtype=torch.float64)))
E(lambda: torch.zeros(2, dtype=torch.float64, out=torch.zeros(2)))
E(lambda: torch.rand(2, dtype=torch.float64, out=torch.zeros(2)))
E(lambda: torch.rand(3, out=torch.zeros(2, dtype=torch.float64)))
E(lambda: torch.zeros(2, 2, out=torch.zeros(4)[::2]))
x = torch.arange(4.)
E(lambda: torch.empty(4, out=x))
print(torch.randn(2))
for f in (lambda o, s: torch.rand(*s, out=o), lambda o, s: torch.randn(*s, out=o), lambda o, s: torch.zeros(*s, out=o), lambda o, s: torch.ones(*s, out=o), lambda o, s: torch.empty(*s, out=o)):
    for s in ((2, 2), (3,), (0,)):
        c = torch.ones(2, 2); f(c, s); print(c._version, c.shape, end=' ')
    print()
c = torch.ones(2, 2)
print(torch.empty(2, 2, out=c), torch.empty((1, 4), out=c).shape)
'''

# fixed: arange/full/eye/linspace/logspace/randint/randperm/normal had no out=.
PROGRAMS['factory_out_argument_more'] = r'''
import torch
def E(f):
    try:
        r = f()
        print(r)
    except Exception as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
t = torch.zeros(3)
E(lambda: torch.arange(5, out=t))
E(lambda: torch.arange(1, 4, out=torch.zeros(3, dtype=torch.int64)))
E(lambda: torch.full((2,), 3., out=t))
E(lambda: torch.eye(2, out=t))
E(lambda: torch.linspace(0, 1, 3, out=t))
E(lambda: torch.logspace(0, 1, 3, out=t))
E(lambda: torch.randint(0, 5, (3,), out=torch.zeros(3, dtype=torch.int64)))
E(lambda: torch.randperm(4, out=torch.zeros(4, dtype=torch.int64)))
E(lambda: torch.normal(0., 1., (3,), out=t))
E(lambda: torch.tensor([1.]).new_zeros(2))
t = torch.zeros(3)
E(lambda: torch.normal(torch.zeros(3), 1., out=t))
E(lambda: torch.normal(torch.zeros(3), torch.ones(3), out=t))
E(lambda: torch.arange(3, dtype=torch.int64, out=t))
E(lambda: torch.arange(3, out=torch.zeros(3, dtype=torch.int32)))
E(lambda: torch.full((3,), 2, out=torch.zeros(3, dtype=torch.int64)))
E(lambda: torch.randint(5, (2,), out=torch.zeros(2)))
print(torch.arange.__name__, torch.full.__doc__ is not None)
'''

PROGRAMS['pruning_tutorial'] = r'''
import torch
from torch import nn
import torch.nn.utils.prune as prune
import torch.nn.functional as F

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


model = LeNet()
module = model.conv1
print(list(module.named_parameters()))
print(list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.weight)
print(list(module._forward_pre_hooks.values()))  # (the keys are process-wide hook ids)
prune.l1_unstructured(module, name="bias", amount=3)
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.bias)
print(list(module._forward_pre_hooks.values()))
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(list(hook))
print(model.state_dict().keys())
prune.remove(module, 'weight')
print(list(module.named_parameters()))
print(list(module.named_buffers()))
new_model = LeNet()
for name, module in new_model.named_modules():
    if isinstance(module, torch.nn.Conv2d):
        prune.l1_unstructured(module, name='weight', amount=0.2)
    elif isinstance(module, torch.nn.Linear):
        prune.l1_unstructured(module, name='weight', amount=0.4)
print(dict(new_model.named_buffers()).keys())
model = LeNet()
parameters_to_prune = (
    (model.conv1, 'weight'),
    (model.conv2, 'weight'),
    (model.fc1, 'weight'),
    (model.fc2, 'weight'),
    (model.fc3, 'weight'),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for m, n in parameters_to_prune:
    print("Sparsity: {:.2f}%".format(100. * float(torch.sum(getattr(m, n) == 0)) / float(getattr(m, n).nelement())))
out = model(torch.randn(2, 1, 28, 28))
out.sum().backward()
print(out, model.fc3.weight_orig.grad[0])
'''

PROGRAMS['word_embeddings_ngram_cbow'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)
word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed)

CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;""".split()
ngrams = [
    ([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
    for i in range(CONTEXT_SIZE, len(test_sentence))
]
print(ngrams[:3])
vocab = set(test_sentence)
word_to_ix = {word: i for i, word in enumerate(sorted(vocab))}


class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 128)
        self.linear2 = nn.Linear(128, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
optimizer = optim.SGD(model.parameters(), lr=0.001)
for epoch in range(3):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        print(loss.item())
    losses.append(total_loss)
print(losses)
print(model.embeddings.weight[word_to_ix["beauty"]])


class CBOW(nn.Module):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim, sparse=False)
        self.linear = nn.Linear(embedding_dim, vocab_size)

    def forward(self, inputs):
        return F.log_softmax(self.linear(self.embeddings(inputs).sum(0, keepdim=True)), dim=1)


cbow = CBOW(len(vocab), EMBEDDING_DIM)
opt = optim.Adam(cbow.parameters(), lr=0.01)
for context, target in ngrams:
    opt.zero_grad()
    loss = F.nll_loss(cbow(torch.tensor([word_to_ix[w] for w in context])), torch.tensor([word_to_ix[target]]))
    loss.backward()
    opt.step()
    print(loss.item())
'''

PROGRAMS['forward_mode_ad_tutorial'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call, jvp, vmap, jacfwd

torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
    print(jvp_[0])
print(fwAD.unpack_dual(dual_output).tangent)

model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp_ = fwAD.unpack_dual(out).tangent
print(jvp_[:2])

model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp_ = fwAD.unpack_dual(out).tangent
print(jvp_[:2])


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


fn_ = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn_(dual_input)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
print(jvp_[0])
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))

x = torch.randn([])
f = lambda x: x * torch.tensor([1., 2., 3])
value, grad = jvp(f, (x,), (torch.tensor(1.),))
print(value, grad)
print(jacfwd(torch.sin)(torch.randn(3)))
print(vmap(torch.dot)(torch.randn(2, 3), torch.randn(2, 3)))
'''

# fixed: gather/scatter/scatter_add/scatter_reduce with a 0-d index (read as one element, as PyTorch).
PROGRAMS['scatter_gather_zero_dim_index'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
i = torch.tensor(2)
E(lambda: torch.zeros(4).scatter_(0, i, value=1))
E(lambda: torch.zeros(4).scatter(0, i, torch.tensor(5.)))
E(lambda: torch.zeros(4).scatter(0, i, torch.tensor([5., 6])))
E(lambda: torch.zeros(4).scatter_add(0, i, torch.tensor([5., 6])))
E(lambda: torch.zeros(4).scatter_reduce(0, i, torch.tensor(5.), 'sum'))
E(lambda: torch.zeros(4).scatter_reduce(0, i, torch.tensor([5., 7]), 'amax', include_self=False))
E(lambda: torch.arange(4.).gather(0, i))
E(lambda: torch.arange(4.).take_along_dim(i))
E(lambda: torch.tensor(3.).scatter(0, torch.tensor(0), value=1))
E(lambda: torch.zeros(2, 3).scatter(1, i, value=1))
E(lambda: torch.zeros(2, 3).gather(1, i))
x = torch.arange(4., requires_grad=True)
y = x.gather(0, i)
y.backward()
print(y, x.grad)
s = torch.tensor([5., 6], requires_grad=True)
z = torch.zeros(4).scatter(0, i, s)
E(lambda: z.sum().backward())
s1 = torch.tensor(5., requires_grad=True)
z = torch.zeros(4, requires_grad=True).scatter_add(0, i, s1 * 2)
z.pow(2).sum().backward()
print(z, s1.grad)
z = torch.zeros(4, requires_grad=True).scatter(0, i, s1)
z.pow(2).sum().backward()
print(z, s1.grad)
print(torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(7), value=1))
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
