"""Parity programs for torch.nn, torch.optim and the beginner tutorials, printing seeded values.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and both stdouts must be identical once object addresses are masked. Modelled on the tutorials "Build the
Neural Network", "Automatic differentiation with torch.autograd", "Optimizing Model Parameters", "Learning
PyTorch with Examples", "What is torch.nn really?" and "Saving and loading models", and on the module APIs:
reprs of many layers, containers, named_parameters/modules, hooks, apply, train/eval, freezing, zero_grad,
gradient clipping, optimizer state dicts and param groups, learning-rate schedulers and the loss functions.

Programs seed the generator with ``torch.manual_seed`` (minigrad draws PyTorch's random numbers bit for bit)
and print full-precision values (``repr`` of floats) where the computation is elementwise, a softmax over the
last dim, an nll_loss sum or an optimizer step. Values that come out of a matrix product (Linear, matmul:
PyTorch calls MKL's sgemm, whose summation order minigrad does not reproduce) or a long float sum are printed
at the default precision or with a few decimals.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['embedding_max_norm_renormalizes_rows'] = r'''
import torch
torch.manual_seed(0)
e = torch.nn.Embedding(6, 3, max_norm=1.0)
idx = torch.tensor([[0, 2, 2], [5, 1, 0]])
out = e(idx)
print(out)
print(e.weight)
out.sum().backward()
print(e.weight.grad)
e2 = torch.nn.Embedding(4, 2, max_norm=0.5, norm_type=1.0)
print(e2(torch.tensor([3, 1])), e2.weight._version)
'''

PROGRAMS['cross_entropy_probability_targets_empty'] = r'''
import torch
import torch.nn.functional as F
for shape in ((3, 0), (0, 3), (2, 3)):
    x = torch.zeros(*shape, requires_grad=True)
    t = torch.full(shape, 0.5)
    for red in ("mean", "sum", "none"):
        l = F.cross_entropy(x, t, reduction=red)
        print(shape, red, l, l.grad_fn.next_functions[0][0].name() if l.grad_fn.next_functions else None)
        l.sum().backward()
    print(x.grad)
'''

PROGRAMS['unique_records_a_node_that_cannot_backward'] = r'''
import torch
x = torch.tensor([3., 1., 3., 2.], requires_grad=True)
u = torch.unique(x)
print(u, [a for a in dir(u.grad_fn) if a.startswith('_saved')], u.grad_fn.next_functions[0][0].name())
print(torch.unique(x, return_inverse=True, return_counts=True), x.unique(), torch.unique_consecutive(x))
with torch.no_grad():
    print(torch.unique(x))
for f in (torch.unique, torch.unique_consecutive):
    try:
        f(x).sum().backward()
    except NotImplementedError as e:
        print(e)
'''

PROGRAMS['build_nn_flatten_linear_relu'] = r'''
import torch
from torch import nn
torch.manual_seed(0)
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(4*4, 8),
            nn.ReLU(),
            nn.Linear(8, 8),
            nn.ReLU(),
            nn.Linear(8, 3),
        )
    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits
model = NeuralNetwork()
print(model)
X = torch.rand(1, 4, 4)
logits = model(X)
print(logits)
pred_probab = nn.Softmax(dim=1)(logits)
print(pred_probab)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
input_image = torch.rand(3, 4, 4)
print(input_image.size())
flat_image = nn.Flatten()(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=16, out_features=5)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
'''
PROGRAMS['autograd_basics_bce_logits'] = r'''
import torch
torch.manual_seed(1)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(w, b, z, loss, sep='\n')
print(repr(loss.item()))
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
print(loss.grad_fn.next_functions)
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
print(z_det)
'''
PROGRAMS['autograd_basics_jvp_ones_like'] = r'''
import torch
torch.manual_seed(2)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
a = torch.randn(3, 2, requires_grad=True)
o = a.sin() * a
v = torch.randn(3, 2)
o.backward(v)
print(a.grad)
print([[repr(e) for e in r] for r in a.grad.tolist()])
'''
PROGRAMS['optimizing_params_train_loop'] = r'''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(3)
X = torch.rand(24, 6)
y = torch.randint(0, 3, (24,))
ds = TensorDataset(X, y)
train_dataloader = DataLoader(ds, batch_size=8)
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 3))
    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))
model = NeuralNetwork()
learning_rate = 1e-1
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
        loss, current = loss.item(), batch * 8 + len(X)
        print(f"loss: {loss:>7.4f}  [{current:>5d}/{size:>5d}]")
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
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8.4f} \n")
for t in range(3):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(train_dataloader, model, loss_fn)
print(model.linear_relu_stack[4].bias)
'''
PROGRAMS['lpwe_numpy_sine'] = r'''
import numpy as np
import math
import torch
np.random.seed(0)
x = np.linspace(-math.pi, math.pi, 200)
y = np.sin(x)
a, b, c, d = np.random.randn(), np.random.randn(), np.random.randn(), np.random.randn()
learning_rate = 1e-6
for t in range(200):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = np.square(y_pred - y).sum()
    grad_y_pred = 2.0 * (y_pred - y)
    a -= learning_rate * grad_y_pred.sum()
    b -= learning_rate * (grad_y_pred * x).sum()
    c -= learning_rate * (grad_y_pred * x ** 2).sum()
    d -= learning_rate * (grad_y_pred * x ** 3).sum()
print(f'Result: y = {a} + {b} x + {c} x^2 + {d} x^3')
t = torch.from_numpy(np.array([a, b, c, d]))
print(t, t.dtype)
'''
PROGRAMS['lpwe_tensors_float64'] = r'''
import torch
import math
dtype = torch.float64
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 500, dtype=dtype)
y = torch.sin(x)
a = torch.randn((), dtype=dtype)
b = torch.randn((), dtype=dtype)
c = torch.randn((), dtype=dtype)
d = torch.randn((), dtype=dtype)
print(a, b, c, d)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, f'{loss:.8f}')
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a.item():.10f} + {b.item():.10f} x + {c.item():.10f} x^2 + {d.item():.10f} x^3')
'''
PROGRAMS['lpwe_autograd_float64'] = r'''
import torch
import math
dtype = torch.float64
torch.manual_seed(5)
x = torch.linspace(-math.pi, math.pi, 300, dtype=dtype)
y = torch.sin(x)
a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(200):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, f'{loss.item():.8f}')
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
print(a, b, c, d)
print(f'Result: y = {a.item():.10f} + {b.item():.10f} x + {c.item():.10f} x^2 + {d.item():.10f} x^3')
'''
PROGRAMS['lpwe_legendre_function_float64'] = r'''
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
dtype = torch.float64
torch.manual_seed(7)
x = torch.linspace(-math.pi, math.pi, 100, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(100):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 25 == 24:
        print(t, f'{loss.item():.8f}')
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None; b.grad = None; c.grad = None; d.grad = None
print(y_pred.grad_fn)
print(f'Result: y = a + {b.item():.10f} * P3(c + {d.item():.10f} x)')
'''
PROGRAMS['lpwe_nn_sequential_float64'] = r'''
import torch
import math
torch.manual_seed(11)
x = torch.linspace(-math.pi, math.pi, 64, dtype=torch.float64)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
).double()
print(model)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-4
for t in range(100):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 25 == 24:
        print(t, f'{loss.item():.8f}')
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.10f} + {linear_layer.weight[:, 0].item():.10f} x + {linear_layer.weight[:, 1].item():.10f} x^2 + {linear_layer.weight[:, 2].item():.10f} x^3')
'''
PROGRAMS['lpwe_optim_rmsprop_float64'] = r'''
import torch
import math
torch.manual_seed(12)
x = torch.linspace(-math.pi, math.pi, 50, dtype=torch.float64)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).to(torch.float64)
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(60):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 20 == 19:
        print(t, f'{loss.item():.8f}')
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(optimizer)
print(model[0].weight, model[0].bias)
print(optimizer.state_dict()['state'][0]['square_avg'])
'''
PROGRAMS['lpwe_custom_module_float32_small'] = r'''
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
torch.manual_seed(13)
x = torch.linspace(-math.pi, math.pi, 8)
y = torch.sin(x)
model = Polynomial3()
print(model.string())
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
for t in range(30):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 10 == 9:
        print(t, f'{loss.item():.2f}')
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(list(model.named_parameters()))
'''
PROGRAMS['lpwe_dynamic_net_random'] = r'''
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
torch.manual_seed(14)
x = torch.linspace(-math.pi, math.pi, 10)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(40):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 10 == 9:
        print(t, f'{loss.item():.0f}')
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(optimizer.state_dict()['param_groups'])
'''

PROGRAMS['module_reprs_zoo'] = r'''
import torch
from torch import nn
torch.manual_seed(0)
m = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(2),
    nn.Conv2d(8, 4, (3, 5), padding=(1, 2), dilation=1, groups=2, padding_mode='reflect'),
    nn.Dropout(p=0.3),
    nn.Dropout2d(0.1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Linear(4, 10, bias=False),
    nn.GELU(approximate='tanh'),
    nn.GELU(),
    nn.Softmax(dim=-1),
    nn.LogSoftmax(dim=1),
    nn.LayerNorm(10, eps=1e-6, elementwise_affine=True),
    nn.LayerNorm([2, 5]),
    nn.BatchNorm1d(10, momentum=None, affine=False, track_running_stats=False),
    nn.LeakyReLU(0.2),
    nn.Tanh(), nn.Sigmoid(), nn.Identity(), nn.ELU(alpha=0.5), nn.SiLU(), nn.Softplus(beta=2, threshold=10),
    nn.Hardtanh(-2., 2.), nn.ReLU6(), nn.PReLU(num_parameters=3, init=0.1), nn.Unflatten(1, (2, 5)),
    nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False), nn.Upsample(scale_factor=2, mode='nearest'),
)
print(m)
print(nn.Embedding(10, 3, padding_idx=0))
print(nn.Embedding(5, 2, max_norm=1.0, sparse=False))
print(nn.Conv1d(2, 4, 3, stride=2))
print(nn.ConvTranspose2d(4, 2, 2, stride=2, output_padding=0))
print(nn.GroupNorm(2, 4), nn.InstanceNorm2d(3, affine=True), nn.Dropout1d(), nn.AlphaDropout(0.2))
print(nn.MaxPool1d(3, stride=2, return_indices=True), nn.MaxPool2d((2, 3), ceil_mode=True))
print(nn.CosineSimilarity(dim=0), nn.PairwiseDistance())
print(nn.Softmin(dim=0), nn.Softmax2d(), nn.Threshold(0.1, 20), nn.Hardswish(), nn.Mish(), nn.CELU(), nn.SELU())
print(nn.RNN(3, 4, num_layers=2, batch_first=True), nn.LSTM(3, 4, bidirectional=True), nn.GRU(2, 3, dropout=0.0))
'''
PROGRAMS['module_containers_nesting'] = r'''
import torch
from torch import nn
from collections import OrderedDict
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.norm = nn.LayerNorm(n)
        self.acts = nn.ModuleDict({'relu': nn.ReLU(), 'gelu': nn.GELU()})
    def forward(self, x, act='relu'):
        return self.acts[act](self.norm(self.fc(x)))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4) for _ in range(2)])
        self.head = nn.Sequential(OrderedDict([('drop', nn.Dropout(0.5)), ('out', nn.Linear(4, 2))]))
        self.register_buffer('scale', torch.tensor(2.0))
        self.register_buffer('tmp', torch.zeros(1), persistent=False)
        self.empty = nn.Sequential()
    def forward(self, x):
        for i, b in enumerate(self.blocks):
            x = b(x, 'relu' if i == 0 else 'gelu')
        return self.head(x) * self.scale
net = Net()
print(net)
print(len(list(net.parameters())), sum(p.numel() for p in net.parameters()))
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
for name, mod in net.named_modules():
    print(repr(name), type(mod).__name__)
for name, ch in net.named_children():
    print('child', name, type(ch).__name__)
print([n for n, _ in net.named_buffers()])
print(list(net.state_dict().keys()))
print(net.blocks[1].acts['gelu'], net.head.out, net.head[0])
print(net.get_submodule('blocks.0.norm'), net.get_parameter('head.out.bias').shape)
net.eval()
x = torch.randn(3, 4)
print(net(x))
print(net.training, net.blocks[0].training, net.head.drop.training)
net.train()
print(net.training, net.head.drop.training)
print(net.blocks[0].fc.weight)
print([repr(v) for v in net.blocks[0].fc.weight[0].tolist()])
print([repr(v) for v in net.head.out.bias.tolist()])
'''
PROGRAMS['named_parameters_freezing'] = r'''
import torch
from torch import nn
torch.manual_seed(4)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
for n, p in model.named_parameters():
    print(n, p.shape, p.requires_grad, p.dtype)
model[0].requires_grad_(False)
for n, p in model.named_parameters():
    print(n, p.requires_grad, p.grad)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.5)
x = torch.randn(5, 3)
out = model(x).pow(2).mean()
out.backward()
print(model[0].weight.grad, model[2].bias.grad)
before = model[0].weight.clone()
opt.step()
print(torch.equal(before, model[0].weight))
print(model[2].bias)
print([repr(v) for v in model[0].bias.tolist()])
print(opt.param_groups[0]['params'][0] is model[2].weight, len(opt.param_groups[0]['params']))
model.requires_grad_()
print(all(p.requires_grad for p in model.parameters()))
print(sum(p.numel() for p in model.parameters()))
'''
PROGRAMS['init_functions_full_precision'] = r'''
import torch
from torch import nn
import math
torch.manual_seed(21)
w = torch.empty(3, 5)
nn.init.uniform_(w, a=-0.1, b=0.2); print([repr(v) for v in w[0].tolist()])
nn.init.normal_(w, mean=1.0, std=0.02); print([repr(v) for v in w[1].tolist()])
nn.init.constant_(w, 0.3); print(w[0])
nn.init.ones_(w); nn.init.zeros_(w); print(w.sum())
nn.init.eye_(w); print(w)
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('relu')); print([repr(v) for v in w[2].tolist()])
nn.init.xavier_normal_(w); print([repr(v) for v in w[0].tolist()])
nn.init.kaiming_uniform_(w, a=math.sqrt(5)); print([repr(v) for v in w[1].tolist()])
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'); print([repr(v) for v in w[2].tolist()])
nn.init.trunc_normal_(w, std=0.5, a=-0.4, b=0.4); print([repr(v) for v in w[0].tolist()])
nn.init.orthogonal_(w); print(w)
nn.init.sparse_(w, sparsity=0.5) if False else None
print(nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('selu'))
lin = nn.Linear(5, 3)
print([repr(v) for v in lin.weight[0].tolist()], [repr(v) for v in lin.bias.tolist()])
conv = nn.Conv2d(2, 3, 2)
print(conv.weight[0, 0], conv.bias)
emb = nn.Embedding(4, 3)
print([repr(v) for v in emb.weight[3].tolist()])
ln = nn.LayerNorm(3); bn = nn.BatchNorm1d(3)
print(ln.weight, ln.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked)
d = torch.empty(2, 3).uniform_(); print([repr(v) for v in d.flatten().tolist()])
'''
PROGRAMS['apply_init_fn_and_dtype'] = r'''
import torch
from torch import nn
torch.manual_seed(8)
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1)))
visited = []
def init_weights(m):
    visited.append(type(m).__name__)
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
ret = net.apply(init_weights)
print(ret is net, visited)
print(net[0].weight, net[2][1].bias)
print([repr(v) for v in net[2][0].weight.flatten().tolist()])
net.double()
print(net[0].weight.dtype, net[0].bias)
net.float()
net.to(torch.float64)
print(net(torch.tensor([[0.5, -1.0]], dtype=torch.float64)))
@torch.no_grad()
def init2(m):
    if type(m) == nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net.apply(init2)
'''
PROGRAMS['forward_hooks_and_pre_hooks'] = r'''
import torch
from torch import nn
torch.manual_seed(9)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
activations = {}
def get_activation(name):
    def hook(model, input, output):
        activations[name] = output.detach()
    return hook
h1 = model[0].register_forward_hook(get_activation('fc1'))
h2 = model[1].register_forward_hook(get_activation('relu'))
def pre(module, args):
    print('pre', type(module).__name__, [a.shape for a in args])
    return (args[0] * 2,)
h3 = model[2].register_forward_pre_hook(pre)
def post_mod(module, inp, out):
    print('post', type(module).__name__, out.shape)
    return out + 1
h4 = model[2].register_forward_hook(post_mod)
x = torch.randn(2, 3)
y = model(x)
print(y)
print(activations['fc1'])
print(activations['relu'])
for h in (h1, h2, h3, h4):
    h.remove()
print(model(x))
def kw_pre(module, args, kwargs):
    print('kw pre', kwargs)
    return args, kwargs
def kw_post(module, args, kwargs, output):
    print('kw post', list(kwargs))
class M(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale
m = M()
m.register_forward_pre_hook(kw_pre, with_kwargs=True)
m.register_forward_hook(kw_post, with_kwargs=True)
print(m(torch.ones(2), scale=3.0))
g = nn.Linear(2, 2)
def always(module, inp, out):
    print('always called')
g.register_forward_hook(always, always_call=True)
def pre_first(module, args):
    print('prepended')
g.register_forward_pre_hook(pre_first, prepend=True)
g(torch.ones(1, 2))
'''
PROGRAMS['full_backward_hooks_and_pre_hooks'] = r'''
import torch
from torch import nn
torch.manual_seed(10)
lin = nn.Linear(3, 2)
def bhook(module, grad_input, grad_output):
    print('bwd', type(module).__name__, [None if g is None else g.shape for g in grad_input], [g.shape for g in grad_output])
    print(grad_output[0])
def bprehook(module, grad_output):
    print('bwd pre', grad_output[0])
    return (grad_output[0] * 10,)
h1 = lin.register_full_backward_hook(bhook)
h2 = lin.register_full_backward_pre_hook(bprehook)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -0.5, 0.0]], requires_grad=True)
y = lin(x)
print(y.grad_fn)
y.backward(torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
print(x.grad)
print(lin.bias.grad)
h1.remove(); h2.remove()
relu = nn.ReLU()
def change(module, grad_input, grad_output):
    return (grad_input[0].clamp(min=0.5),)
relu.register_full_backward_hook(change)
z = torch.tensor([-1.0, 2.0, 0.5], requires_grad=True)
relu(z).sum().backward()
print(z.grad)
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
order = []
for i, mod in enumerate(seq):
    mod.register_full_backward_hook(lambda m, gi, go, i=i: order.append(i))
seq(torch.ones(1, 2)).sum().backward()
print(order)
'''
PROGRAMS['zero_grad_set_to_none_and_clip'] = r'''
import torch
from torch import nn
torch.manual_seed(12)
model = nn.Linear(3, 2)
x = torch.randn(4, 3)
model(x).sum().backward()
print(model.weight.grad, model.bias.grad)
model.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
model(x).sum().backward()
model.zero_grad()
print(model.weight.grad, model.bias.grad)
p = [torch.tensor([3.0, 4.0], requires_grad=True), torch.tensor([[1.0, -2.0]], requires_grad=True)]
p[0].grad = torch.tensor([3.0, 4.0]); p[1].grad = torch.tensor([[12.0, 0.0]])
n = nn.utils.clip_grad_norm_(p, max_norm=1.0)
print(n, repr(n.item()), p[0].grad, p[1].grad)
print([repr(v) for v in p[0].grad.tolist()], [repr(v) for v in p[1].grad.flatten().tolist()])
p[0].grad = torch.tensor([3.0, 4.0]); p[1].grad = torch.tensor([[12.0, 0.0]])
n = nn.utils.clip_grad_norm_(p, max_norm=2.0, norm_type=float('inf'))
print(n, p[0].grad, p[1].grad)
p[0].grad = torch.tensor([3.0, 4.0]); p[1].grad = torch.tensor([[12.0, 0.0]])
n = nn.utils.clip_grad_norm_(p, max_norm=5.0, norm_type=1)
print(n, [repr(v) for v in p[0].grad.tolist()])
p[0].grad = torch.tensor([3.0, -4.0]); p[1].grad = torch.tensor([[0.25, -0.1]])
nn.utils.clip_grad_value_(p, clip_value=0.2)
print(p[0].grad, p[1].grad)
n = nn.utils.clip_grad_norm_(p, 100.0)
print(n, p[0].grad)
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec)
nn.utils.vector_to_parameters(torch.arange(8.), model.parameters())
print(model.weight, model.bias)
print(nn.utils.parameters_to_vector(p))
'''
PROGRAMS['optimizer_state_dict_printing'] = r'''
import torch
from torch import nn
torch.manual_seed(13)
model = nn.Linear(2, 1)
opt = torch.optim.Adam([{'params': [model.weight]}, {'params': [model.bias], 'lr': 0.1}], lr=1e-3, betas=(0.8, 0.99))
print(opt)
print(opt.state_dict())
model.weight.grad = torch.tensor([[0.5, -0.25]])
model.bias.grad = torch.tensor([1.0])
opt.step()
sd = opt.state_dict()
print(sd['state'])
print(sd['param_groups'])
print([repr(v) for v in model.weight.flatten().tolist()], repr(model.bias.item()))
opt.step()
print([repr(v) for v in model.weight.flatten().tolist()], repr(model.bias.item()))
print(opt.state[model.weight]['exp_avg'], opt.state[model.weight]['exp_avg_sq'], opt.state[model.weight]['step'])
opt2 = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-2)
print(opt2)
opt2.step(); opt2.step()
print(opt2.state_dict()['state'])
print([repr(v) for v in model.weight.flatten().tolist()])
opt3 = torch.optim.AdamW(model.parameters(), lr=0.01)
opt3.load_state_dict(opt.state_dict()) if False else None
print(opt3.defaults)
opt3.add_param_group({'params': [torch.zeros(2, requires_grad=True)], 'lr': 0.5})
print(len(opt3.param_groups), opt3.param_groups[1]['lr'], opt3.param_groups[1]['weight_decay'])
'''
PROGRAMS['lr_schedulers_get_last_lr'] = r'''
import torch
from torch import nn
from torch.optim import lr_scheduler
p = nn.Parameter(torch.zeros(1))
def make(lr=0.1):
    return torch.optim.SGD([p], lr=lr)
opt = make(); s = lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
out = []
for e in range(8):
    opt.step(); s.step(); out.append(s.get_last_lr()[0])
print(out)
opt = make(); s = lr_scheduler.ExponentialLR(opt, gamma=0.9)
out = []
for e in range(6):
    opt.step(); s.step(); out.append(s.get_last_lr())
print(out)
opt = make(); s = lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)
out = []
for e in range(12):
    opt.step(); s.step(); out.append(opt.param_groups[0]['lr'])
print(out)
opt = make(); s = lr_scheduler.MultiStepLR(opt, milestones=[2, 5], gamma=0.1)
out = []
for e in range(7):
    opt.step(); s.step(); out.append(s.get_last_lr()[0])
print(out)
opt = make(1.0); s = lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1)
losses = [1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1]
out = []
for l in losses:
    s.step(l); out.append(opt.param_groups[0]['lr'])
print(out, s.get_last_lr(), s.num_bad_epochs, s.best)
opt = make(); s = lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: 0.95 ** e)
for e in range(3):
    opt.step(); s.step()
print(s.get_last_lr(), s.last_epoch)
print(s.state_dict().keys() if False else sorted(k for k in s.state_dict() if k != 'lr_lambdas'))
opt = make(); s = lr_scheduler.StepLR(opt, step_size=2)
print(s.state_dict())
opt = make(); s = lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
out = []
for e in range(9):
    opt.step(); s.step(); out.append(s.get_last_lr()[0])
print(out)
'''
PROGRAMS['loss_functions_full_precision'] = r'''
import torch
from torch import nn
torch.manual_seed(30)
inp = torch.randn(3, 4, requires_grad=True)
tgt = torch.randn(3, 4)
def show(name, loss_fn, a, b):
    if a.grad is not None:
        a.grad = None
    l = loss_fn(a, b)
    l.backward()
    print(name, f'{l.item():.5f}', l.grad_fn.name())
    print([repr(v) for v in a.grad.flatten().tolist()])
show('mse', nn.MSELoss(), inp, tgt)
show('l1', nn.L1Loss(), inp, tgt)
show('smoothl1', nn.SmoothL1Loss(beta=0.5), inp, tgt)
show('smoothl1_0', nn.SmoothL1Loss(beta=0.0), inp, tgt)
show('huber', nn.HuberLoss(delta=0.7), inp, tgt)
print(nn.MSELoss(reduction='none')(inp, tgt))
print(nn.SmoothL1Loss(), nn.HuberLoss(reduction='sum', delta=2.0), nn.L1Loss(reduction='none'))
'''
PROGRAMS['bce_losses_pos_weight'] = r'''
import torch
from torch import nn
torch.manual_seed(31)
logits = torch.randn(4, 3, requires_grad=True)
target = torch.empty(4, 3).random_(2)
print(target)
pw = torch.tensor([1.0, 2.0, 0.5])
w = torch.tensor([0.2, 1.0, 3.0])
for crit in [nn.BCEWithLogitsLoss(), nn.BCEWithLogitsLoss(pos_weight=pw), nn.BCEWithLogitsLoss(weight=w, pos_weight=pw, reduction='sum'), nn.BCEWithLogitsLoss(reduction='none', pos_weight=pw)]:
    logits.grad = None
    l = crit(logits, target)
    l.backward(torch.ones_like(l))
    print(crit, l.grad_fn.name())
    print([repr(v) for v in l.flatten().tolist()] if l.dim() else f'{l.item():.5f}')
    print([repr(v) for v in logits.grad.flatten().tolist()])
probs = torch.sigmoid(logits.detach()).requires_grad_()
for crit in [nn.BCELoss(), nn.BCELoss(weight=w, reduction='sum')]:
    probs.grad = None
    l = crit(probs, target)
    l.backward()
    print(f'{l.item():.5f}', [repr(v) for v in probs.grad.flatten().tolist()])
print(nn.BCEWithLogitsLoss(pos_weight=pw).pos_weight, nn.BCELoss(weight=w).weight)
print(dict(nn.BCEWithLogitsLoss(pos_weight=pw).named_buffers()))
'''
PROGRAMS['cross_entropy_smoothing_weights'] = r'''
import torch
from torch import nn
torch.manual_seed(32)
logits = torch.randn(4, 5, requires_grad=True)
target = torch.tensor([1, 0, 4, 2])
cw = torch.tensor([1.0, 2.0, 0.5, 1.5, 1.0])
crits = [nn.CrossEntropyLoss(), nn.CrossEntropyLoss(label_smoothing=0.1), nn.CrossEntropyLoss(weight=cw),
         nn.CrossEntropyLoss(weight=cw, label_smoothing=0.2), nn.CrossEntropyLoss(reduction='sum'),
         nn.CrossEntropyLoss(ignore_index=4), nn.CrossEntropyLoss(reduction='none', label_smoothing=0.05)]
for c in crits:
    logits.grad = None
    l = c(logits, target)
    l.backward(torch.ones_like(l))
    print(c, l.grad_fn.name(), [repr(v) for v in l.reshape(-1).tolist()])
    print([repr(v) for v in logits.grad[0].tolist()])
probs_t = torch.softmax(torch.randn(4, 5), dim=1)
logits.grad = None
l = nn.CrossEntropyLoss()(logits, probs_t)
l.backward()
print(f'{l.item():.5f}', logits.grad[1])
print(nn.CrossEntropyLoss(weight=cw, label_smoothing=0.2))
'''
PROGRAMS['nll_kldiv_losses'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(33)
x = torch.randn(3, 4, requires_grad=True)
logp = F.log_softmax(x, dim=1)
t = torch.tensor([3, 0, 1])
for c in [nn.NLLLoss(), nn.NLLLoss(weight=torch.tensor([1., 2., 3., 4.])), nn.NLLLoss(reduction='sum'), nn.NLLLoss(ignore_index=0)]:
    x.grad = None
    l = c(F.log_softmax(x, dim=1), t)
    l.backward()
    print(c, repr(l.item()), [repr(v) for v in x.grad[0].tolist()])
q = F.softmax(torch.randn(3, 4), dim=1)
for red in ['batchmean', 'sum', 'mean', 'none']:
    x.grad = None
    k = nn.KLDivLoss(reduction=red)
    l = k(F.log_softmax(x, dim=1), q)
    l.backward(torch.ones_like(l))
    print(red, k, [repr(v) for v in l.reshape(-1).tolist()][:4], [repr(v) for v in x.grad[2].tolist()])
x.grad = None
l = nn.KLDivLoss(reduction='batchmean', log_target=True)(F.log_softmax(x, 1), q.log())
l.backward()
print(f'{l.item():.5f}', l.grad_fn)
print(F.nll_loss(logp, t, reduction='none'))
'''
PROGRAMS['saving_loading_state_dict'] = r'''
import torch, io, os, tempfile
from torch import nn
import torch.optim as optim
torch.manual_seed(40)
class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 2, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(2 * 1 * 1, 3)
        self.bn = nn.BatchNorm1d(3)
    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = torch.flatten(x, 1)
        return self.bn(self.fc1(x))
model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])
print(model.state_dict()['fc1.bias'], model.state_dict()['bn.num_batches_tracked'])
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
model2 = TheModelClass()
res = model2.load_state_dict(torch.load(buf, weights_only=True))
print(res)
print(torch.equal(model2.fc1.weight, model.fc1.weight), model2.conv1.bias)
model2.eval()
d = tempfile.mkdtemp()
path = os.path.join(d, 'ckpt.tar')
torch.save({'epoch': 3, 'model_state_dict': model.state_dict(), 'optimizer_state_dict': optimizer.state_dict(), 'loss': 0.25}, path)
ck = torch.load(path, weights_only=True)
print(ck['epoch'], ck['loss'], sorted(ck))
optimizer.load_state_dict(ck['optimizer_state_dict'])
print(optimizer.state_dict()['param_groups'])
sd = model.state_dict()
sd.pop('fc1.bias')
sd['extra'] = torch.zeros(1)
r = model2.load_state_dict(sd, strict=False)
print(r.missing_keys, r.unexpected_keys)
try:
    model2.load_state_dict(sd)
except RuntimeError as e:
    print(str(e))
sd = model.state_dict(); sd['fc1.weight'] = torch.zeros(5, 5)
try:
    model2.load_state_dict(sd)
except RuntimeError as e:
    print(str(e))
'''
PROGRAMS['nn_really_mnist_like'] = r'''
import torch, math
import torch.nn.functional as F
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(50)
x_train = torch.rand(40, 12)
y_train = torch.randint(0, 3, (40,))
n, c = x_train.shape
print(x_train.shape, y_train.min(), y_train.max())
weights = torch.randn(12, 3) / math.sqrt(12)
weights.requires_grad_()
bias = torch.zeros(3, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
bs = 8
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
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
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
print(loss_func(model(xb), yb), accuracy(model(xb), yb))
print(F.cross_entropy(xb @ weights + bias, yb))
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(12, 3)
    def forward(self, xb):
        return self.lin(xb)
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
model = Mnist_Logistic()
opt = torch.optim.SGD(model.parameters(), lr=lr)
print(len(train_dl), len(train_ds), train_ds[3][1])
for epoch in range(2):
    model.train()
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(F.cross_entropy(model(xb), yb) for xb, yb in DataLoader(train_ds, batch_size=bs * 2))
    print(epoch, valid_loss / 3)
'''
PROGRAMS['nn_really_lambda_sequential_cnn'] = r'''
import torch
import torch.nn.functional as F
from torch import nn
torch.manual_seed(51)
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 8, 8)
model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(4, 4, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(4, 3, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
xb = torch.rand(6, 64)
yb = torch.randint(0, 3, (6,))
out = model(xb)
print(out.shape, out)
loss = F.cross_entropy(out, yb)
print(loss)
loss.backward()
print(model[5].bias.grad)
opt.step()
opt.zero_grad()
print(model[5].bias)
'''
PROGRAMS['dropout_train_eval_values'] = r'''
import torch
from torch import nn
torch.manual_seed(60)
d = nn.Dropout(p=0.4)
x = torch.ones(2, 8)
print(d(x))
d.eval()
print(d(x))
d.train()
y = torch.arange(1., 9.).requires_grad_()
out = d(y)
print(out, out.grad_fn)
out.sum().backward()
print(y.grad)
print([repr(v) for v in out.tolist()])
d2 = nn.Dropout2d(0.5)
print(d2(torch.ones(1, 4, 2, 2)))
print(nn.functional.dropout(torch.ones(6), p=0.5, training=True))
print(nn.functional.dropout(torch.ones(6), p=0.5, training=False))
d3 = nn.Dropout(0.5, inplace=True)
z = torch.ones(5)
d3(z)
print(z)
print(nn.AlphaDropout(0.2).eval()(torch.ones(3)))
'''
PROGRAMS['batchnorm_layernorm_values'] = r'''
import torch
from torch import nn
torch.manual_seed(61)
bn = nn.BatchNorm1d(3, momentum=0.2)
x = torch.randn(4, 3) * 2 + 1
y = bn(x)
print(y)
print([repr(v) for v in bn.running_mean.tolist()], [repr(v) for v in bn.running_var.tolist()], bn.num_batches_tracked)
bn.eval()
print(bn(x))
bn2 = nn.BatchNorm2d(2)
z = torch.randn(2, 2, 2, 2)
print(bn2(z))
print(bn2.running_mean, bn2.running_var)
ln = nn.LayerNorm(4)
a = torch.randn(2, 4, requires_grad=True)
o = ln(a)
print(o, o.grad_fn)
print([repr(v) for v in o[0].tolist()])
(o * torch.arange(4.)).sum().backward()
print(a.grad, ln.weight.grad, ln.bias.grad)
gn = nn.GroupNorm(2, 4)
print(gn(torch.randn(1, 4, 3)).detach())
'''
PROGRAMS['embedding_and_padding_idx'] = r'''
import torch
from torch import nn
torch.manual_seed(62)
emb = nn.Embedding(6, 3, padding_idx=2)
print(emb.weight)
idx = torch.tensor([[0, 2, 5], [2, 1, 1]])
out = emb(idx)
print(out.shape, out[1])
out.sum().backward()
print(emb.weight.grad)
e2 = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]))
print(e2, e2.weight.requires_grad, e2(torch.tensor([2, 0])))
e3 = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]), freeze=False, padding_idx=0)
print(e3)

pass

'''
PROGRAMS['softmax_gelu_activation_grads'] = r'''
import torch
from torch import nn
torch.manual_seed(63)
x = torch.randn(2, 5, requires_grad=True)
print(nn.GELU()(x), nn.GELU(approximate='tanh')(x))
print(nn.Softmax(dim=0)(x), nn.ELU()(x), nn.SiLU()(x), nn.Mish()(x))
for act in [nn.ReLU(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1),
            nn.Sigmoid(), nn.Tanh(), nn.LeakyReLU(0.1), nn.Softplus(), nn.Hardswish(), nn.Softsign()]:
    x.grad = None
    y = act(x)
    y.backward(torch.arange(10.).reshape(2, 5) / 10)
    print(act, y.grad_fn.name())
    print([repr(v) for v in y[0].tolist()])
    print([repr(v) for v in x.grad[1].tolist()])
'''

PROGRAMS['optimizers_given_grads_full_precision'] = r'''
import torch
def run(make, steps=3):
    torch.manual_seed(70)
    p = torch.nn.Parameter(torch.randn(5))
    q = torch.nn.Parameter(torch.randn(2, 2))
    opt = make([p, q])
    for i in range(steps):
        opt.zero_grad()
        p.grad = torch.linspace(-1, 1, 5) * (i + 1)
        q.grad = torch.tensor([[0.5, -0.25], [2.0, 0.0]]) / (i + 1)
        opt.step()
    print(type(opt).__name__, [repr(v) for v in p.tolist()], [repr(v) for v in q.flatten().tolist()])
run(lambda ps: torch.optim.SGD(ps, lr=0.1))
run(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01))
run(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True))
run(lambda ps: torch.optim.Adam(ps, lr=0.01))
run(lambda ps: torch.optim.Adam(ps, lr=0.01, weight_decay=0.1, amsgrad=True))
run(lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.05))
run(lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, momentum=0.5))
run(lambda ps: torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.01))
run(lambda ps: torch.optim.Adamax(ps, lr=0.02))
run(lambda ps: torch.optim.Adadelta(ps))
run(lambda ps: torch.optim.NAdam(ps, lr=0.01))
run(lambda ps: torch.optim.RAdam(ps, lr=0.01), steps=7)
'''
PROGRAMS['more_lr_schedulers'] = r'''
import warnings
import torch
from torch.optim import lr_scheduler as S
def opt(lr=0.1, **kw):
    return torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=lr, **kw)
def trace(o, s, n, attr='lr'):
    out = []
    for _ in range(n):
        o.step(); s.step(); out.append(o.param_groups[0][attr])
    return out
o = opt(); print(trace(o, S.MultiplicativeLR(o, lr_lambda=lambda e: 0.9), 4))
o = opt(); print(trace(o, S.ConstantLR(o, factor=0.5, total_iters=3), 5))
o = opt(); print(trace(o, S.PolynomialLR(o, total_iters=4, power=2.0), 6))
o = opt(); print(trace(o, S.LinearLR(o, start_factor=0.25, total_iters=4), 6))
o = opt(); print(trace(o, S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), 10))
o = opt()
s = S.SequentialLR(o, schedulers=[S.LinearLR(o, start_factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.5)], milestones=[2])
print(trace(o, s, 6), s.get_last_lr())
o = opt()
s = S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.9)])
print(trace(o, s, 5), s.get_last_lr())
o = opt(momentum=0.9)
s = S.OneCycleLR(o, max_lr=0.5, total_steps=8)
print(trace(o, s, 7), o.param_groups[0]['momentum'])
o = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
s = S.OneCycleLR(o, max_lr=[0.3], epochs=2, steps_per_epoch=3, anneal_strategy='linear', three_phase=True)
print(trace(o, s, 5), o.param_groups[0]['betas'])
o = opt(); s = S.StepLR(o, step_size=2, gamma=0.5)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    o.step(); s.step(5)
print(s.get_last_lr(), s.last_epoch, [str(x.message)[:40] for x in w])
o = opt(); s = S.ExponentialLR(o, gamma=0.5)
o.step(); s.step(3)
print(s.get_last_lr())
'''
PROGRAMS['state_dict_printing_models'] = r'''
import torch
from torch import nn
torch.manual_seed(71)
model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))
print(model.state_dict())
sd = model.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd['1.running_var'], sd['1.num_batches_tracked'].dtype)
print(sd['0.weight'].requires_grad, model[0].weight.requires_grad)
sd['0.bias'].fill_(7.0)
print(model[0].bias)
sd2 = model.state_dict(keep_vars=True)
print(type(sd2['0.weight']).__name__, sd2['0.weight'].requires_grad)
prefix = model.state_dict(prefix='net.')
print(list(prefix)[:3])
for name, t in model.named_parameters(prefix='m', recurse=True):
    print(name, tuple(t.shape))
print([n for n, _ in model.named_buffers()])
'''
PROGRAMS['container_operations'] = r'''
import torch
from torch import nn
torch.manual_seed(72)
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
seq.append(nn.Linear(2, 1))
seq.insert(1, nn.Dropout(0.1))
print(seq, len(seq))
print(seq[1:3])
print(seq[-1])
del seq[1]
print(seq)
seq.add_module('final', nn.Sigmoid())
print(seq, [type(m).__name__ for m in seq])
seq.extend([nn.Identity(), nn.Tanh()])
print(len(seq), seq.final)
ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(2)])
ml.append(nn.ReLU())
ml.extend([nn.Tanh()])
ml.insert(0, nn.Identity())
print(ml, len(ml), ml[1:3])
print(ml.pop(0) if hasattr(ml, 'pop') else None, len(ml))
md = nn.ModuleDict({'a': nn.Linear(1, 2), 'b': nn.ReLU()})
md['c'] = nn.Tanh()
md.update({'d': nn.Identity()})
print(md, list(md.keys()), len(md), 'b' in md)
print(md.pop('b'), list(md))
for k, v in md.items():
    print(k, type(v).__name__)
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1))])
pl.append(nn.Parameter(torch.full((3,), 0.5)))
print(pl)
pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(1, 2)), 'b': nn.Parameter(torch.zeros(2))})
print(pd, list(pd.keys()))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = ml
        self.heads = md
        self.ps = pl
        self.pd = pd
net = Net()
print(sum(p.numel() for p in net.parameters()), [n for n, _ in net.named_parameters()])
'''
PROGRAMS['weight_sharing_parameters_dedup'] = r'''
import torch
from torch import nn
torch.manual_seed(73)
shared = nn.Linear(3, 3)
class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = shared
        self.b = shared
        self.c = nn.Linear(3, 1)
        self.c.weight = nn.Parameter(torch.ones(1, 3))
    def forward(self, x):
        return self.c(torch.relu(self.b(torch.relu(self.a(x)))))
m = Tied()
print(m)
print(len(list(m.parameters())), [n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_modules()])
print([n for n, _ in m.named_modules(remove_duplicate=False)])
print(list(m.state_dict().keys()))
x = torch.randn(2, 3)
m(x).sum().backward()
print(shared.weight.grad.shape, m.c.weight.grad)
emb = nn.Embedding(5, 3)
dec = nn.Linear(3, 5, bias=False)
dec.weight = emb.weight
print(dec.weight is emb.weight, len(list(nn.ModuleList([emb, dec]).parameters())))
'''
PROGRAMS['train_eval_modes_nested'] = r'''
import torch
from torch import nn
torch.manual_seed(74)
model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.BatchNorm1d(4), nn.Sequential(nn.Dropout(0.2), nn.Linear(4, 2)))
print([m.training for m in model.modules()])
model.eval()
print([m.training for m in model.modules()])
x = torch.randn(3, 4)
with torch.no_grad():
    a = model(x)
    b = model(x)
print(torch.equal(a, b), a.requires_grad)
model.train(True)
print(model[1].training, model[3][0].training)
r = model.train(False)
print(r is model, model.training)
model[3].train()
print([m.training for m in model.modules()])
bn = nn.BatchNorm1d(4)
bn(torch.randn(5, 4))
print(bn.num_batches_tracked, bn.running_mean.shape)
bn.eval()
out = bn(torch.ones(2, 4))
print(bn.num_batches_tracked)
print(out)
'''
PROGRAMS['finetune_freeze_replace_head'] = r'''
import torch
from torch import nn
torch.manual_seed(75)
backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
model = nn.Sequential(backbone, nn.Linear(8, 3))
for p in backbone.parameters():
    p.requires_grad = False
model[1] = nn.Linear(8, 2)
print(model)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
frozen = [n for n, p in model.named_parameters() if not p.requires_grad]
print(trainable, frozen)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), sum(p.numel() for p in model.parameters()))
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1, momentum=0.9)
x = torch.randn(6, 4); y = torch.tensor([0, 1, 1, 0, 1, 0])
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
print(backbone[0].weight.grad, model[1].weight.grad is None, model[1].bias.grad)
out = model(x)
print(out.grad_fn, out.requires_grad)
with torch.no_grad():
    feats = backbone(x)
print(feats.requires_grad, feats.grad_fn)
'''
PROGRAMS['softmax_logsoftmax_full_precision'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(76)
for shape in [(2, 3), (3, 10), (2, 17), (1, 40)]:
    x = torch.randn(*shape, requires_grad=True)
    s = F.softmax(x, dim=-1)
    l = F.log_softmax(x, dim=1)
    print(shape, [repr(v) for v in s[0, :6].tolist()])
    print([repr(v) for v in l[-1, :6].tolist()])
    g = torch.randn(*shape)
    x.grad = None
    s.backward(g, retain_graph=True)
    print([repr(v) for v in x.grad[0, :6].tolist()])
    x.grad = None
    l.backward(g)
    print([repr(v) for v in x.grad[-1, :6].tolist()])
logits = torch.randn(4, 5)
print(torch.nn.Softmax(dim=1)(logits))
print(torch.nn.LogSoftmax(dim=1)(logits).exp())
print(logits.softmax(-1).argmax(1), F.softmax(logits, dim=1).max(dim=1))
'''
PROGRAMS['cross_entropy_training_losses_full'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(77)
logits = torch.randn(8, 10, requires_grad=True)
target = torch.randint(0, 10, (8,))
print(target)
for kw in [{}, {'reduction': 'sum'}, {'ignore_index': int(target[3])}, {'weight': torch.linspace(0.5, 2.0, 10)}]:
    logits.grad = None
    loss = F.cross_entropy(logits, target, **kw)
    loss.backward()
    print(kw.keys(), repr(loss.item()), [repr(v) for v in logits.grad[3, :4].tolist()])
lp = F.log_softmax(logits.detach(), dim=1)
print(repr(F.nll_loss(lp, target).item()), repr(-lp[range(8), target].mean().item()) if False else '')
acc = (logits.argmax(dim=1) == target).float().mean()
print(acc, repr(acc.item()))
criterion = nn.CrossEntropyLoss()
loss = criterion(logits, target)
print(loss, loss.grad_fn, loss.grad_fn.next_functions)
'''
PROGRAMS['module_hooks_inspection_and_removal'] = r'''
import torch
from torch import nn
torch.manual_seed(78)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
shapes = []
handles = [m.register_forward_hook(lambda mod, i, o: shapes.append((type(mod).__name__, tuple(o.shape)))) for m in model]
model(torch.randn(5, 3))
print(shapes)
for h in handles:
    h.remove()
shapes.clear()
model(torch.randn(1, 3))
print(shapes)
grads = {}
def save_grad(name):
    def hook(module, grad_input, grad_output):
        grads[name] = [None if g is None else tuple(g.shape) for g in grad_input], [tuple(g.shape) for g in grad_output]
    return hook
for name, m in model.named_children():
    m.register_full_backward_hook(save_grad(name))
x = torch.randn(2, 3, requires_grad=True)
model(x).sum().backward()
print(sorted(grads.items()))
pre = []
model[2].register_full_backward_pre_hook(lambda m, go: pre.append(go[0].shape))
model(x).sum().backward()
print(pre)
print(len(model[0]._forward_hooks), len(model[0]._backward_hooks))
with torch.no_grad():
    y = model(x)
print(y.requires_grad)
'''
PROGRAMS['functional_api_values'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(79)
x = torch.randn(2, 5)
print(F.relu(x), F.relu6(x * 4), F.leaky_relu(x, 0.2))
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4))
print(F.normalize(torch.tensor([[3.0, 4.0], [1.0, 0.0]]), dim=1))
print(F.pad(torch.ones(1, 2, 2), (1, 1, 0, 1), value=9.0))
print(F.hardtanh(x, -0.5, 0.5), F.softsign(torch.tensor([1.0, -3.0])))
print([repr(v) for v in F.sigmoid(x[0]).tolist()], [repr(v) for v in F.tanh(x[1]).tolist()])
print(F.gelu(x[0]))
print([repr(v) for v in F.silu(x[1]).tolist()], [repr(v) for v in F.elu(x[0]).tolist()])
print(F.threshold(x, 0.1, -1.0))
print(F.dropout(x, p=0.25, training=True))
print(F.embedding(torch.tensor([[0, 2]]), torch.arange(9.).reshape(3, 3)))
print(F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 0.0])), F.l1_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 0.0]), reduction='none'))
print(F.binary_cross_entropy(torch.tensor([0.25, 0.75]), torch.tensor([0.0, 1.0])))
print(F.smooth_l1_loss(torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0])), F.huber_loss(torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0]), delta=2.0))
print(F.kl_div(torch.tensor([-1.0, -2.0]), torch.tensor([0.25, 0.75]), reduction='sum'))
print(F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]])), F.pairwise_distance(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]])))
'''
PROGRAMS['prelu_groupnorm_upsample_unflatten'] = r'''
import torch
from torch import nn
torch.manual_seed(80)
pr = nn.PReLU(num_parameters=2, init=0.1)
x = torch.randn(2, 2, 3, requires_grad=True)
y = pr(x)
print(pr, pr.weight, y.detach())
y.sum().backward()
print(pr.weight.grad, x.grad)
gn = nn.GroupNorm(2, 4)
z = torch.randn(2, 4, 3)
with torch.no_grad():
    print(gn(z))
print(gn, [n for n, _ in gn.named_parameters()])
inn = nn.InstanceNorm1d(3, affine=True)
with torch.no_grad():
    print(inn(torch.randn(2, 3, 4)))
up = nn.Upsample(scale_factor=2, mode='nearest')
print(up, up(torch.arange(4.).reshape(1, 1, 2, 2)))
print(nn.functional.interpolate(torch.arange(6.).reshape(1, 1, 6), size=4))
uf = nn.Unflatten(1, (2, 3))
print(uf, uf(torch.arange(12.).reshape(2, 6)).shape)
m = nn.Sequential(nn.Linear(6, 6), nn.Unflatten(1, (2, 3)), nn.Softmax2d() if False else nn.Identity(), nn.Flatten())
print(m, m(torch.randn(2, 6)).shape)
print(nn.Threshold(0.5, -1.0)(torch.tensor([0.2, 0.7, 0.5])))
print(nn.Softmax2d()(torch.zeros(1, 2, 1, 1)))
d1 = nn.Dropout1d(0.5)
print(d1(torch.ones(2, 4, 3)))
ad = nn.AlphaDropout(0.3)
print(ad(torch.ones(2, 4)))
print(nn.Embedding.from_pretrained(torch.eye(3), freeze=True).weight.requires_grad)
'''

PROGRAMS['parameter_count_table_cnn'] = r'''
import torch
from torch import nn
torch.manual_seed(81)
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)
    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.conv2(x))
        return self.fc(torch.flatten(self.pool(x), 1))
model = CNN()
total = 0
for name, p in model.named_parameters():
    print(f"{name:<15} {str(list(p.shape)):<15} {p.numel():>5}")
    total += p.numel()
print("total", total, sum(p.numel() for p in model.parameters()))
x = torch.randn(2, 1, 8, 8)
out = model(x)
print(out.shape, out.grad_fn)
print(model.conv1.weight[0, 0])
print([repr(v) for v in model.conv2.bias.tolist()])
out.sum().backward()
print(model.fc.bias.grad, model.bn1.weight.grad.shape)
'''
PROGRAMS['optimizer_zero_grad_accumulation'] = r'''
import torch
from torch import nn
torch.manual_seed(82)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
y = torch.tensor([[1.0], [0.0]])
for i in range(2):
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    print(i, model.bias.grad)
opt.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
opt.zero_grad()
print(model.weight.grad, model.bias.grad)
accum = 2
for i in range(4):
    loss = ((model(x[i % 2:i % 2 + 1]) - y[i % 2:i % 2 + 1]) ** 2).sum() / accum
    loss.backward()
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
        print('step', model.weight, model.bias)
print(model.weight.grad)
'''
PROGRAMS['custom_module_extra_repr'] = r'''
import torch
from torch import nn
torch.manual_seed(83)
class Scale(nn.Module):
    def __init__(self, n, init=1.0):
        super().__init__()
        self.n = n
        self.scale = nn.Parameter(torch.full((n,), init))
    def forward(self, x):
        return x * self.scale
    def extra_repr(self):
        return f'n={self.n}, init={self.scale[0].item()}'
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.scale = Scale(3, 0.5)
        self.act = nn.ReLU()
    def forward(self, x):
        return self.act(self.scale(self.lin(x)))
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(), Block())
        self.out = Scale(3)
    def forward(self, x):
        return self.out(self.blocks(x))
m = Model()
print(m)
print(repr(m.out), str(m.blocks[0].scale))
print(m._get_name(), m.blocks._get_name())
y = m(torch.randn(2, 3))
print(y.shape, y.grad_fn)
print(m.blocks[1].scale.scale, m.out.scale.grad)
'''
PROGRAMS['save_load_resume_training'] = r'''
import io
import torch
from torch import nn
torch.manual_seed(84)
def make():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
model = make()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(6, 3); y = torch.randn(6, 1)
def train(model, opt, n):
    for _ in range(n):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return loss
train(model, opt, 2)
buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 2}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
model2 = make()
model2.load_state_dict(ck['model'])
opt2 = torch.optim.Adam(model2.parameters(), lr=0.05)
opt2.load_state_dict(ck['opt'])
print(ck['epoch'], sorted(ck['opt']['state'][0].keys()), ck['opt']['state'][0]['step'])
l1 = train(model, opt, 2)
l2 = train(model2, opt2, 2)
print(torch.equal(model[0].weight, model2[0].weight), torch.equal(l1, l2))
print(model2[2].bias, opt2.state_dict()['param_groups'][0]['lr'])
for k, v in model2.state_dict().items():
    print(k, tuple(v.shape), v.dtype)
'''
PROGRAMS['init_apply_conv_bn_kaiming'] = r'''
import torch
from torch import nn
torch.manual_seed(85)
net = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 4))
def init(m):
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity='relu')
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.constant_(m.weight, 1)
        nn.init.constant_(m.bias, 0)
    elif isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, 0, 0.01)
        nn.init.constant_(m.bias, 0.1)
net.apply(init)
print([repr(v) for v in net[0].weight[0, 0].flatten().tolist()])
print([repr(v) for v in net[4].weight[1, :4].tolist()], net[4].bias)
print(net[1].weight, net[1].bias, net[0].bias)
print(net(torch.randn(2, 2, 4, 4)).shape)
print(net[1].running_mean.shape, net[1].num_batches_tracked)
'''
PROGRAMS['dataloader_shuffle_batches'] = r'''
import torch
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(86)
X = torch.arange(20.).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(X, y)
print(len(ds), ds[4])
for xb, yb in DataLoader(ds, batch_size=4, shuffle=True):
    print(yb.tolist(), xb.shape)
for xb, yb in DataLoader(ds, batch_size=4, drop_last=True):
    print(yb.tolist())
dl = DataLoader(ds, batch_size=3, shuffle=True)
print(len(dl))
print([b[1].tolist() for b in dl])
g = torch.Generator().manual_seed(0)
print([b[1].tolist() for b in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])
'''
PROGRAMS['embedding_bag_of_words_classifier'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(87)
class TextClassifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.fc = nn.Linear(dim, classes)
    def forward(self, tokens):
        mask = (tokens != 0).unsqueeze(-1).float()
        summed = (self.emb(tokens) * mask).sum(1)
        return self.fc(summed / mask.sum(1).clamp(min=1))
model = TextClassifier(8, 4, 3)
print(model)
tokens = torch.tensor([[1, 2, 3, 0], [4, 4, 0, 0], [5, 6, 7, 2]])
labels = torch.tensor([0, 2, 1])
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(3):
    logits = model(tokens)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(model.emb.weight.grad[0], model.emb.weight[0])
print(model(tokens).argmax(1))
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
