"""Parity programs from a twenty-third hunt: the nn and training-loop programs a student writes from the tutorials.

"Learning PyTorch with Examples" (the polynomial fit by hand, with autograd, with a custom Function
(LegendrePolynomial3), with nn and optim, the dynamic net), "Build the Neural Network", "Optimizing Model
Parameters", "What is torch.nn really?", the 60-minute blitz's LeNet, the NLP tutorials (bag of words, n-gram
embeddings, LSTM tagger) and d2l-style scratch code, as students modify them: small models (Linear, Sequential,
activations, Dropout, BatchNorm1d/LayerNorm, Conv1d/Conv2d, Embedding/EmbeddingBag, RNN cells and layers,
Transformer encoder), the losses (cross entropy with label smoothing, weights and ignore_index, NLL, BCE with
pos_weight, KL divergence, Huber and smooth L1 ...), the optimizers (SGD, Adam/AdamW with amsgrad, RMSprop,
Adagrad, the rarer ones, foreach and fused, custom Optimizer subclasses, step hooks), the LR schedulers, the
torch.nn.utils helpers (gradient clipping, parameters_to_vector, pruning, parametrizations), state_dict round
trips (also through torch.save), freezing, module hooks, seeded initialisation, data loaders, and the errors
a student hits on the way. Each program must print exactly what PyTorch prints (hunt14's harness:
``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout). Programs marked
"fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- the "Learning PyTorch with Examples", "Build the Neural Network" and "Optimizing Model Parameters" tutorials; losses, optimizers, schedulers, utils, state_dict, hooks, init

PROGRAMS['poly_manual_grads_tensor'] = PRE + r'''
import math
dtype = torch.float64
x = torch.linspace(-math.pi, math.pi, 500, dtype=dtype)
y = torch.sin(x)
torch.manual_seed(3)
a, b, c, d = (torch.randn((), dtype=dtype) for _ in range(4))
lr = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= lr * grad_a
    b -= lr * grad_b
    c -= lr * grad_c
    d -= lr * grad_d
print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
print(a, d)
'''

PROGRAMS['poly_autograd_float32_no_grad_update'] = PRE + r'''
import math
x = torch.linspace(-math.pi, math.pi, 400)
y = torch.sin(x)
torch.manual_seed(0)
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)
lr = 1e-6
for t in range(200):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, loss.item(), loss)
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= lr * p.grad
            p.grad = None
print(a, b, c, d, sep='\n')
print(y_pred.grad_fn, loss.grad_fn.next_functions)
'''

PROGRAMS['legendre_function_train'] = PRE + r'''
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
x = torch.linspace(-math.pi, math.pi, 300)
y = torch.sin(x)
a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)
lr = 5e-6
P3 = LegendrePolynomial3.apply
for t in range(150):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 0:
        print(t, f'{loss.item():.4f}')
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= lr * p.grad
            p.grad = None
print(f'Result: y = {a.item():.5f} + {b.item():.5f} * P3({c.item():.5f} + {d.item():.5f} x)')
print(y_pred.grad_fn, y_pred.grad_fn.next_functions[1][0].next_functions)
'''

PROGRAMS['poly_nn_sequential_flatten'] = PRE + r'''
import math
torch.manual_seed(1)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype, p.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
loss_fn = torch.nn.MSELoss(reduction='sum')
lr = 1e-6
for t in range(100):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 25 == 24:
        print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= lr * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
print(y_pred.grad_fn, loss.grad_fn)
'''

PROGRAMS['poly_rmsprop_centered_momentum'] = PRE + r'''
import math
torch.manual_seed(2)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3, centered=True, momentum=0.5, alpha=0.9)
print(optimizer)
for t in range(60):
    loss = loss_fn(model(xx), y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
st = optimizer.state_dict()['state'][0]
print(sorted(st), st['step'])
print(st['square_avg'], st['momentum_buffer'], st['grad_avg'])
'''

PROGRAMS['dynamic_net_fifth_power'] = PRE + r'''
import math, random
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))
    def forward(self, x, k):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, k):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3 + {self.e.item():.4f} x^4 ? + {self.e.item():.4f} x^5 ?'
torch.manual_seed(5)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(60):
    y_pred = model(x, 4 + t % 3)
    loss = criterion(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model.string())
print([n for n, _ in model.named_parameters()])
'''

PROGRAMS['build_nn_tutorial'] = PRE + r'''
from torch import nn
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8*8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))
    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)
torch.manual_seed(0)
model = NeuralNetwork()
print(model)
X = torch.rand(1, 8, 8)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
input_image = torch.rand(3, 8, 8)
flat_image = nn.Flatten()(input_image)
print(flat_image.size())
hidden1 = nn.ReLU()(nn.Linear(64, 20)(flat_image))
print(f"After ReLU: {hidden1[:, :4]}")
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2, :3] if param.dim() > 1 else param[:2]} \n")
'''

PROGRAMS['optimizing_loop_fake_data'] = PRE + r'''
from torch import nn
torch.manual_seed(0)
X = torch.randn(64, 10)
Y = torch.randint(0, 3, (64,))
Xt = torch.randn(20, 10)
Yt = torch.randint(0, 3, (20,))
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
batch_size = 16
def train_loop():
    size = len(X)
    model.train()
    for batch in range(size // batch_size):
        xb = X[batch*batch_size:(batch+1)*batch_size]
        yb = Y[batch*batch_size:(batch+1)*batch_size]
        pred = model(xb)
        loss = loss_fn(pred, yb)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(xb)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test_loop():
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        pred = model(Xt)
        test_loss += loss_fn(pred, Yt).item()
        correct += (pred.argmax(1) == Yt).type(torch.float).sum().item()
    correct /= len(Xt)
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(3):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop()
    test_loop()
print("Done!")
'''

PROGRAMS['nn_really_manual_logistic'] = PRE + r'''
import math
torch.manual_seed(0)
x_train = torch.rand(50, 16)
y_train = torch.randint(0, 4, (50,))
weights = torch.randn(16, 4) / math.sqrt(16)
weights.requires_grad_()
bias = torch.zeros(4, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
bs = 10
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)
loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb), accuracy(preds, yb))
lr = 0.5
for epoch in range(2):
    for i in range((50 - 1) // bs + 1):
        start_i = i * bs
        xb = x_train[start_i:start_i + bs]
        yb = y_train[start_i:start_i + bs]
        loss = loss_func(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))
import torch.nn.functional as F
print(F.cross_entropy(xb @ weights + bias, yb), model(xb).grad_fn)
'''

PROGRAMS['nn_really_module_refactor'] = PRE + r'''
import math
from torch import nn, optim
import torch.nn.functional as F
torch.manual_seed(0)
x_train = torch.rand(40, 12)
y_train = torch.randint(0, 3, (40,))
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(12, 3) / math.sqrt(12))
        self.bias = nn.Parameter(torch.zeros(3))
    def forward(self, xb):
        return xb @ self.weights + self.bias
model = Mnist_Logistic()
print(model)
print(F.cross_entropy(model(x_train[:8]), y_train[:8]))
def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=0.5)
model, opt = get_model()
from torch.utils.data import TensorDataset, DataLoader
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=8)
for epoch in range(2):
    for xb, yb in train_dl:
        pred = model(xb)
        loss = F.cross_entropy(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(epoch, loss)
print(model.weights[:2], model.bias)
print(len(train_ds), train_ds[3])
'''

PROGRAMS['blitz_lenet'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
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
        return self.fc3(f6)
torch.manual_seed(0)
net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
input = torch.randn(1, 1, 32, 32)
out = net(input)
torch.set_printoptions(precision=4)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
output = net(input)
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
import torch.optim as optim
optimizer = optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()
print(criterion(net(input), target))
'''

PROGRAMS['ce_smoothing_weight_ignore'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
logits = torch.randn(6, 4, requires_grad=True)
target = torch.tensor([0, 3, -100, 2, 1, 3])
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
for red in ('mean', 'sum', 'none'):
    loss = nn.CrossEntropyLoss(weight=w, label_smoothing=0.2, reduction=red)(logits, target)
    print(red, loss, loss.grad_fn)
loss = nn.CrossEntropyLoss(weight=w, label_smoothing=0.1, ignore_index=3)(logits, target.clamp(min=0))
loss.backward()
print(loss, logits.grad)
probs = torch.softmax(torch.randn(6, 4), 1)
l2 = nn.CrossEntropyLoss(label_smoothing=0.3)(logits, probs)
print(l2, l2.grad_fn)
print(nn.CrossEntropyLoss(weight=w, label_smoothing=0.05))
E(lambda: nn.CrossEntropyLoss(label_smoothing=1.5)(logits, target))
'''

PROGRAMS['bce_logits_pos_weight_2d'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(1)
x = torch.randn(4, 3, requires_grad=True)
y = torch.randint(0, 2, (4, 3)).float()
pw = torch.tensor([1.0, 3.0, 0.5])
crit = nn.BCEWithLogitsLoss(pos_weight=pw)
print(crit)
loss = crit(x, y)
loss.backward()
print(loss, x.grad)
crit2 = nn.BCEWithLogitsLoss(weight=torch.tensor([2.0, 1.0, 1.0, 0.5]).unsqueeze(1), pos_weight=pw, reduction='sum')
print(crit2(x, y))
print(nn.BCEWithLogitsLoss(reduction='none')(x, y))
E(lambda: crit(x, y[:2]))
E(lambda: crit(x, y.long()))
print(nn.BCELoss()(torch.sigmoid(x), y), torch.sigmoid(x).grad_fn)
E(lambda: nn.BCELoss()(x, y))
'''

PROGRAMS['kldiv_batchmean_logtarget'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(2)
inp = F.log_softmax(torch.randn(3, 5, requires_grad=True), dim=1)
target = F.softmax(torch.rand(3, 5), dim=1)
kl = nn.KLDivLoss(reduction="batchmean")
out = kl(inp, target)
print(out, out.grad_fn)
print(nn.KLDivLoss(reduction="batchmean", log_target=True)(inp, target.log()))
print(nn.KLDivLoss(reduction="sum")(inp, target))
print(nn.KLDivLoss(reduction="none")(inp, target)[0])
out2 = nn.KLDivLoss()(inp, target)
print(out2)
print(nn.KLDivLoss(log_target=True))
t0 = target.clone(); t0[0, 0] = 0.
print(F.kl_div(inp, t0, reduction='sum'))
'''

PROGRAMS['huber_vs_smoothl1'] = PRE + r'''
import torch.nn as nn
x = torch.tensor([0.0, 0.2, -0.7, 1.5, -3.0, 0.5], requires_grad=True)
y = torch.zeros(6)
for crit in (nn.HuberLoss(delta=0.5), nn.SmoothL1Loss(beta=0.5), nn.L1Loss(), nn.MSELoss(), nn.SmoothL1Loss(beta=0.0)):
    x.grad = None
    loss = crit(x, y)
    loss.backward()
    print(crit, loss, loss.grad_fn.name(), x.grad)
print(nn.HuberLoss(reduction='none', delta=2.0)(x, y))
print(nn.SmoothL1Loss(reduction='sum', beta=2.0)(x, y))
E(lambda: nn.SmoothL1Loss(beta=-1.0)(x, y))
E(lambda: nn.HuberLoss(delta=0.0)(x, y))
'''

PROGRAMS['sgd_option_errors'] = PRE + r'''
import torch.nn as nn
m = nn.Linear(2, 2)
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, dampening=0.1, nesterov=True))
E(lambda: torch.optim.SGD(m.parameters(), lr=-0.1))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, momentum=-0.5))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, weight_decay=-1))
E(lambda: torch.optim.Adam(m.parameters(), betas=(1.0, 0.999)))
E(lambda: torch.optim.Adam(m.parameters(), eps=-1e-8))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD(m.weight, lr=0.1))
E(lambda: torch.optim.Adam([m.weight, m.weight]))
E(lambda: torch.optim.RMSprop(m.parameters(), alpha=-1))
E(lambda: torch.optim.Adagrad(m.parameters(), lr_decay=-1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
E(lambda: opt.add_param_group({'params': m.weight}))
'''

PROGRAMS['adam_amsgrad_wd_maximize_state'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 2)
opt = torch.optim.Adam(m.parameters(), lr=0.01, amsgrad=True, weight_decay=0.1, maximize=True)
x = torch.randn(5, 3)
for i in range(3):
    opt.zero_grad()
    out = m(x).pow(2).mean()
    out.backward()
    opt.step()
    print(i, out.item())
sd = opt.state_dict()
print(sd['param_groups'])
st = sd['state'][0]
print(list(st.keys()), st['step'])
print(st['exp_avg'], st['exp_avg_sq'], st['max_exp_avg_sq'], sep='\n')
print(m.weight, m.bias, sep='\n')
'''

PROGRAMS['adamw_param_groups_repr'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.AdamW([
    {'params': model[0].parameters()},
    {'params': model[2].parameters(), 'lr': 1e-2, 'weight_decay': 0.0}], lr=1e-3, amsgrad=True)
print(opt)
x = torch.randn(10, 4); y = torch.randn(10, 1)
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, f'{loss.item():.6f}')
print([g['lr'] for g in opt.param_groups], [len(g['params']) for g in opt.param_groups])
print(model[2].weight, model[2].bias)
print(opt.state_dict()['param_groups'][1])
'''

PROGRAMS['adagrad_lr_decay_state'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(4)
w = nn.Parameter(torch.randn(3))
opt = torch.optim.Adagrad([w], lr=0.5, lr_decay=0.1, initial_accumulator_value=0.2, weight_decay=0.01)
print(opt)
print(opt.state[w])
for i in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum() + w.sum()
    loss.backward()
    opt.step()
    print(i, w)
print(opt.state[w]['sum'], opt.state[w]['step'])
'''

PROGRAMS['steplr_order_warning'] = PRE + r'''
import torch.nn as nn
from torch.optim.lr_scheduler import StepLR
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = StepLR(opt, step_size=2, gamma=0.5)
print(sched.get_last_lr())
sched.step()
for epoch in range(5):
    opt.zero_grad()
    m(torch.ones(1, 2)).sum().backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]['lr'], sched.last_epoch)
print(sched.state_dict())
'''

PROGRAMS['plateau_max_abs_cooldown'] = PRE + r'''
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=1.0, momentum=0.9)
sched = ReduceLROnPlateau(opt, mode='max', factor=0.5, patience=1, threshold=0.1, threshold_mode='abs', cooldown=1, min_lr=0.1)
accs = [0.5, 0.55, 0.58, 0.59, 0.7, 0.71, 0.72, 0.72, 0.72, 0.72, 0.72, 0.72, 0.72]
for ep, acc in enumerate(accs):
    opt.step()
    sched.step(acc)
    print(ep, opt.param_groups[0]['lr'], sched.num_bad_epochs, sched.cooldown_counter, sched.best, sched.get_last_lr())
E(lambda: ReduceLROnPlateau(opt, mode='maximum'))
E(lambda: ReduceLROnPlateau(opt, factor=1.0))
E(lambda: ReduceLROnPlateau(opt, threshold_mode='relative'))
'''

PROGRAMS['cosine_eta_min_lambda_groups'] = PRE + r'''
import torch.nn as nn
from torch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD([{'params': m[0].parameters()}, {'params': m[1].parameters(), 'lr': 0.01}], lr=0.1)
sched = CosineAnnealingLR(opt, T_max=4, eta_min=0.001)
for i in range(10):
    opt.step()
    sched.step()
    print(i, sched.get_last_lr())
opt2 = torch.optim.Adam([{'params': m[0].parameters()}, {'params': m[1].parameters()}], lr=0.1)
lam = LambdaLR(opt2, lr_lambda=[lambda e: 0.9 ** e, lambda e: 1.0 / (e + 1)])
for i in range(4):
    opt2.step()
    lam.step()
    print(i, lam.get_last_lr())
sd = lam.state_dict()
print(sorted(sd), sd['lr_lambdas'], sd['base_lrs'], sd['last_epoch'])
E(lambda: LambdaLR(opt2, lr_lambda=[lambda e: 1.0]))
'''

PROGRAMS['clip_inf_nonfinite'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
out = m(torch.randn(5, 3)).pow(2).sum()
out.backward()
print([p.grad.abs().max().item() for p in m.parameters()])
tn = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type='inf')
print(tn, [round(p.grad.abs().max().item(), 6) for p in m.parameters()])
tn2 = nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=1)
print(tn2)
m[0].weight.grad[0, 0] = float('nan')
E(lambda: nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
print(nn.utils.clip_grad_norm_(m.parameters(), 1.0))
print(m[2].bias.grad)
print(nn.utils.clip_grad_value_(m.parameters(), 0.1))
print(m[2].weight.grad)
print(nn.utils.clip_grad_norm_([], 1.0))
'''

PROGRAMS['params_vector_roundtrip'] = PRE + r'''
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1, bias=False))
v = parameters_to_vector(m.parameters())
print(v, v.grad_fn, v.shape)
vector_to_parameters(torch.arange(13.), m.parameters())
print(m[0].weight, m[0].bias, m[1].weight, sep='\n')
print(m[0].weight.grad_fn, m[0].weight.is_leaf, m[0].weight.requires_grad)
E(lambda: vector_to_parameters([1.0, 2.0], m.parameters()))
E(lambda: parameters_to_vector(m[0].weight))
E(lambda: vector_to_parameters(torch.arange(20.), m.parameters()))
'''

PROGRAMS['state_dict_strict_false'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.bn = nn.BatchNorm1d(2)
a = A()
sd = a.state_dict()
print(list(sd.keys()))
print(sd['bn.num_batches_tracked'], sd['fc.weight'].requires_grad)
b = nn.Sequential(nn.Linear(2, 2))
res = b.load_state_dict({'0.weight': torch.ones(2, 2), 'extra': torch.zeros(1)}, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
E(lambda: b.load_state_dict({'0.weight': torch.ones(2, 2)}))
E(lambda: b.load_state_dict({'0.weight': torch.ones(3, 2), '0.bias': torch.zeros(2)}))
print(b.load_state_dict({'0.weight': torch.ones(2, 2), '0.bias': torch.zeros(2)}))
print(b[0].weight)
'''

PROGRAMS['freeze_first_layer'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
for p in model[0].parameters():
    p.requires_grad_(False)
for n, p in model.named_parameters():
    print(n, p.requires_grad)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]['params']))
x = torch.randn(4, 3)
w0 = model[0].weight.clone()
loss = model(x).sum()
print(loss.grad_fn, model[0](x).grad_fn, model[0](x).requires_grad)
loss.backward()
opt.step()
print([None if p.grad is None else p.grad.shape for p in model.parameters()])
print(torch.equal(w0, model[0].weight))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
model.requires_grad_(False)
E(lambda: model(x).sum().backward())
'''

PROGRAMS['module_hooks_student'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
acts = {}
def save(name):
    def hook(mod, inp, out):
        acts[name] = out.detach()
        print('fwd', name, type(mod).__name__, [i.shape for i in inp], out.shape)
    return hook
hs = [model[i].register_forward_hook(save(str(i))) for i in range(3)]
def pre(mod, inp):
    print('pre', type(mod).__name__)
    return (inp[0] * 2,)
hp = model[0].register_forward_pre_hook(pre)
def bwd(mod, gin, gout):
    print('bwd', type(mod).__name__, [None if g is None else g.shape for g in gin], [g.shape for g in gout])
hb = model[2].register_full_backward_hook(bwd)
x = torch.randn(2, 3, requires_grad=True)
y = model(x)
print(y.grad_fn)
y.sum().backward()
print(acts['1'])
for h in hs + [hp, hb]:
    h.remove()
y2 = model(x)
print(torch.allclose(y, y2), y2.grad_fn)
'''

PROGRAMS['seeded_init_functions'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(42)
print(torch.randn(3), torch.rand(2), torch.randint(0, 10, (4,)), torch.randperm(6))
w = torch.empty(3, 4)
nn.init.xavier_uniform_(w); print(w)
nn.init.xavier_normal_(w, gain=nn.init.calculate_gain('tanh')); print(w)
nn.init.kaiming_uniform_(w, a=0.1); print(w)
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'); print(w)
nn.init.trunc_normal_(w, std=0.5); print(w)
nn.init.uniform_(w, -0.1, 0.1); print(w)
nn.init.normal_(w, 0, 0.01); print(w)
nn.init.constant_(w, 0.3); print(w)
nn.init.eye_(w); print(w)
nn.init.zeros_(w); print(w)
print(nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('selu'))
'''

PROGRAMS['init_apply_model'] = PRE + r'''
import torch.nn as nn
def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
        print('init', m)
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Sequential(nn.Linear(2, 3), nn.Sigmoid()))
r = net.apply(init_weights)
print(r is net)
print(net[2][0].weight, net[2][0].bias)
for name, mod in net.named_modules():
    print(repr(name), type(mod).__name__)
print([n for n, _ in net.named_children()])
torch.manual_seed(1)
o = torch.empty(3, 3)
nn.init.orthogonal_(o)
print(o)
print(nn.init.sparse_(torch.empty(4, 2), sparsity=0.5))
'''

# ---- RNN cells and layers, Embedding, normalization, convolutions, dropout, activations, student errors, containers, serialization

# fixed: LSTMCell given one Tensor as (h, c) for a batch raised the batch size error; PyTorch's _VF.lstm_cell
# refuses it first: TypeError lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor
PROGRAMS['rnn_cells_loop'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
rnn = nn.RNNCell(3, 4, nonlinearity='relu')
gru = nn.GRUCell(3, 4)
lstm = nn.LSTMCell(3, 4, bias=False)
print(rnn, gru, lstm)
x = torch.randn(5, 2, 3)
h = torch.zeros(2, 4); hg = torch.zeros(2, 4); hc = (torch.zeros(2, 4), torch.zeros(2, 4))
for t in range(5):
    h = rnn(x[t], h)
    hg = gru(x[t], hg)
    hc = lstm(x[t], hc)
print(h, hg, hc[0], hc[1], sep='\n')
print(h.grad_fn, hg.grad_fn, hc[0].grad_fn, hc[1].grad_fn)
(h.sum() + hg.sum() + hc[0].sum()).backward()
print(rnn.weight_hh.grad, gru.bias_ih.grad, lstm.weight_ih.grad[:2])
print(rnn(x[0]).shape, gru(x[0, 0]).shape)
E(lambda: rnn(x[0], torch.zeros(3, 4)))
E(lambda: lstm(x[0], torch.zeros(2, 4)))
'''

PROGRAMS['rnn_modules_batch_first'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
rnn = nn.RNN(3, 5, num_layers=2, batch_first=True)
lstm = nn.LSTM(3, 4, batch_first=True, bidirectional=True)
gru = nn.GRU(3, 2, dropout=0.0)
print(rnn, lstm, gru, sep='\n')
x = torch.randn(2, 4, 3)
out, hn = rnn(x)
print(out.shape, hn.shape, out.grad_fn)
out2, (h2, c2) = lstm(x)
print(out2.shape, h2.shape, c2.shape)
print(out2[:, -1], h2)
out3, h3 = gru(x.transpose(0, 1))
print(out3[-1], h3)
(out.sum() + out2.sum() + out3.sum()).backward()
print(rnn.weight_hh_l1.grad, lstm.bias_hh_l0_reverse.grad)
print([n for n, _ in lstm.named_parameters()])
E(lambda: rnn(torch.randn(2, 4, 5)))
'''

PROGRAMS['embedding_padding_maxnorm'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(6, 3, padding_idx=0)
print(emb, emb.weight[0])
idx = torch.tensor([[0, 2, 4], [4, 3, 0]])
out = emb(idx)
print(out.shape, out.grad_fn)
out.sum().backward()
print(emb.weight.grad)
emb2 = nn.Embedding(5, 4, max_norm=1.0)
print(emb2)
before = emb2.weight.norm(dim=1)
r = emb2(torch.tensor([1, 1, 3]))
print(r.norm(dim=1), before[1] > 1, emb2.weight.norm(dim=1))
E(lambda: emb(torch.tensor([6])))
E(lambda: emb(torch.tensor([1.0])))
e3 = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]), freeze=True)
print(e3, e3.weight.requires_grad, e3(torch.tensor([1])))
e4 = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]), freeze=False, padding_idx=1)
print(e4)
'''

PROGRAMS['batchnorm1d_cumulative_eval'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
bn = nn.BatchNorm1d(3, momentum=None)
print(bn)
for i in range(3):
    out = bn(torch.randn(8, 3) * (i + 1) + i)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
x = torch.randn(4, 3)
print(bn(x))
bn2 = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
print(bn2, bn2.running_mean, list(bn2.state_dict()))
bn2.eval()
print(bn2(x))
bn3 = nn.BatchNorm1d(2)
y = bn3(torch.randn(5, 2, 4))
print(y.shape, y.grad_fn, bn3.running_mean)
E(lambda: bn3(torch.randn(1, 2)))
E(lambda: bn3(torch.randn(4, 3)))
'''

PROGRAMS['layernorm_no_affine_bias'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
x = torch.randn(2, 3, 4, requires_grad=True)
ln = nn.LayerNorm(4, elementwise_affine=False)
ln2 = nn.LayerNorm([3, 4], bias=False)
ln3 = nn.LayerNorm(4, eps=1e-3)
print(ln, ln2, ln3, sep='\n')
print(list(ln.parameters()), [n for n, _ in ln2.named_parameters()])
y = ln(x) + ln2(x) + ln3(x)
print(y[0], y.grad_fn, ln(x).grad_fn)
y.pow(2).sum().backward()
print(x.grad[0], ln2.weight.grad)
E(lambda: ln(torch.randn(2, 5)))
rms = nn.RMSNorm(4)
print(rms, rms(x)[0, 0])
'''

PROGRAMS['conv1d_same_errors'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
c = nn.Conv1d(2, 3, 3, padding='same', dilation=2)
print(c)
x = torch.randn(1, 2, 7, requires_grad=True)
y = c(x)
print(y.shape, y.grad_fn)
y.sum().backward()
print(x.grad)
E(lambda: nn.Conv1d(2, 3, 3, padding='same', stride=2))
E(lambda: nn.Conv1d(2, 3, 3, padding='valid')(torch.randn(1, 3, 7)))
E(lambda: nn.Conv1d(2, 3, 3)(torch.randn(1, 2, 2)))
E(lambda: nn.Conv1d(2, 3, 3, groups=2))
E(lambda: nn.Conv1d(2, 3, 3, padding='full'))
c2 = nn.Conv1d(2, 4, 2, groups=2, bias=False, padding_mode='circular', padding=1)
print(c2, c2.weight.shape, c2(x).shape)
print(nn.Conv1d(2, 3, 4, padding='same')(x).shape)
'''

PROGRAMS['conv2d_small_cnn_train'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(4, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
print(model)
x = torch.randn(6, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(4):
    opt.zero_grad()
    out = model(x)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(epoch, f'{loss.item():.5f}', (out.argmax(1) == y).sum().item())
model.eval()
with torch.no_grad():
    print(model(x[:2]))
print(model[1].running_mean, model[1].num_batches_tracked)
print(sum(p.numel() for p in model.parameters()))
'''

PROGRAMS['dropout_eval_train_seed'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
d = nn.Dropout(p=0.4)
x = torch.ones(2, 6)
print(d, d.training)
print(d(x))
d.eval()
print(d(x), d(x) is x)
d.train()
torch.manual_seed(1)
print(d(x))
print(nn.Dropout2d(0.5)(torch.ones(1, 3, 2, 2)))
print(nn.AlphaDropout(0.2)(torch.ones(4)))
E(lambda: nn.Dropout(1.5))
m = nn.Sequential(nn.Linear(6, 2), nn.Dropout(0.5))
m.eval()
print(m.training, m[1].training)
m.train(False)
print(m[1].training)
x.requires_grad_()
y = nn.functional.dropout(x, 0.5, training=True)
print(y.grad_fn)
print(nn.Dropout(0.0)(x).grad_fn, nn.Dropout(1.0)(x))
'''

PROGRAMS['activations_gelu_tanh'] = PRE + r'''
import torch.nn as nn
x = torch.linspace(-3, 3, 7, requires_grad=True)
for act in (nn.GELU(), nn.GELU(approximate='tanh'), nn.SiLU(), nn.Mish(), nn.ELU(alpha=0.5), nn.LeakyReLU(0.2), nn.Softplus(beta=2, threshold=5), nn.Hardtanh(-1, 2), nn.ReLU6(), nn.Sigmoid(), nn.Tanh(), nn.CELU(), nn.SELU(), nn.Hardswish(), nn.PReLU()):
    x.grad = None
    y = act(x)
    y.sum().backward()
    print(act, y.grad_fn.name(), y, x.grad, sep=' | ')
E(lambda: nn.GELU(approximate='fast')(x))
'''

PROGRAMS['student_errors'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
lin = nn.Linear(4, 5)
E(lambda: lin(torch.randn(2, 3)))
E(lambda: lin(torch.randn(4)))
E(lambda: lin(torch.randint(0, 3, (2, 4))))
E(lambda: lin(torch.randn(2, 4, dtype=torch.float64)))
logits = torch.randn(3, 5)
E(lambda: F.cross_entropy(logits, torch.tensor([1.0, 2.0, 0.0])))
E(lambda: F.cross_entropy(logits, torch.tensor([1, 2, 0], dtype=torch.int32)))
E(lambda: F.cross_entropy(logits, torch.tensor([1, 7, 0])))
E(lambda: F.cross_entropy(logits, torch.tensor([1, 2])))
E(lambda: F.nll_loss(logits, torch.tensor([[1], [2], [0]])))
E(lambda: F.mse_loss(logits, torch.tensor([1, 2, 0])))
w = torch.ones(3, requires_grad=True)
E(lambda: w.add_(1))
E(lambda: w.zero_())
y = (w * 2).sum()
y.backward()
E(lambda: y.backward())
E(lambda: (w * 2).backward())
E(lambda: torch.tensor([1, 2, 3], requires_grad=True))
E(lambda: w.numpy())
print(w.detach().numpy())
'''

PROGRAMS['zero_grad_set_to_none_false'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.randn(3, 2)).sum().backward()
print(m.weight.grad)
opt.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
opt.zero_grad()
print(m.weight.grad, m.bias.grad)
m(torch.randn(3, 2)).sum().backward()
m.zero_grad(set_to_none=False)
print(m.weight.grad)
m.zero_grad()
print(m.weight.grad)
g = torch.ones(2, 2)
m.weight.grad = g
m.zero_grad(set_to_none=False)
print(g, m.weight.grad is g)
'''

PROGRAMS['printoptions_params'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=3)
m = nn.Linear(3, 2)
print(m.weight)
print(m.bias)
print(list(m.parameters()))
torch.set_printoptions(precision=6, sci_mode=True)
print(m.weight * 1000)
torch.set_printoptions(precision=2, sci_mode=False, linewidth=40)
print(torch.randn(2, 8) * 100)
print(nn.Parameter(torch.tensor([1e-5, 1.0])))
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
torch.set_printoptions(profile='short')
print(torch.arange(2000.))
torch.set_printoptions(edgeitems=1, threshold=5)
print(torch.arange(10.).reshape(2, 5))
'''

PROGRAMS['xor_bce_training'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(7)
X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
Y = torch.tensor([[0.], [1.], [1.], [0.]])
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1), nn.Sigmoid())
crit = nn.BCELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9, nesterov=True, weight_decay=1e-4)
for epoch in range(90):
    opt.zero_grad()
    loss = crit(model(X), Y)
    loss.backward()
    opt.step()
    if epoch % 30 == 0:
        print(f'epoch {epoch}: loss {loss.item():.6f}')
with torch.no_grad():
    p = model(X)
print(p.round(), p.squeeze().tolist() == p.view(-1).tolist())
print(opt.state[model[0].weight]['momentum_buffer'])
'''

PROGRAMS['module_containers_repr'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        self.heads = nn.ModuleDict({'cls': nn.Linear(2, 3), 'reg': nn.Linear(2, 1)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])
        self.pd = nn.ParameterDict({'a': nn.Parameter(torch.zeros(1))})
    def forward(self, x):
        for l, s in zip(self.layers, self.scales):
            x = l(x) * s
        return self.heads['cls'](x), self.heads['reg'](x)
net = Net()
print(net)
print(len(net.layers), list(net.heads.keys()), len(list(net.parameters())))
print([n for n, _ in net.named_parameters()])
a, b = net(torch.randn(4, 2))
print(a.shape, b.grad_fn)
net.layers.append(nn.ReLU())
net.heads['extra'] = nn.Identity()
print(net.layers, net.heads)
E(lambda: net.layers[5])
E(lambda: net.heads['nope'])
'''

PROGRAMS['serialize_bytesio'] = PRE + r'''
import io
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model(torch.randn(4, 2)).sum().backward()
opt.step()
buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 3}, buf)
buf.seek(0)
ck = torch.load(buf)
print(sorted(ck), ck['epoch'])
m2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
print(m2.load_state_dict(ck['model']))
o2 = torch.optim.Adam(m2.parameters(), lr=0.5)
o2.load_state_dict(ck['opt'])
print(o2.param_groups[0]['lr'], o2.state[m2[0].weight]['step'])
print(torch.equal(m2[0].weight, model[0].weight), m2[1].running_mean)
b2 = io.BytesIO()
torch.save(torch.tensor([1., 2.], requires_grad=True), b2)
b2.seek(0)
print(torch.load(b2))
'''

PROGRAMS['buffers_persistent'] = PRE + r'''
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('mean', torch.zeros(2))
        self.register_buffer('tmp', torch.ones(2), persistent=False)
        self.register_buffer('nothing', None)
        self.w = nn.Parameter(torch.ones(2))
    def forward(self, x):
        return (x - self.mean) * self.w * self.tmp
m = M()
print(list(m.state_dict()), [n for n, _ in m.named_buffers()], list(m.buffers()))
print(m(torch.tensor([1., 2.])))
m.double()
print(m.mean.dtype, m.w.dtype, m.w)
E(lambda: m.register_buffer('w', torch.zeros(1)))
E(lambda: m.register_buffer('a.b', torch.zeros(1)))
E(lambda: m.register_buffer('x', [1, 2]))
E(lambda: m.register_parameter('p', torch.zeros(1)))
m.register_parameter('q', None)
print(m.q, [n for n, _ in m.named_parameters()])
print(m.get_buffer('mean'), m.get_parameter('w'))
'''

PROGRAMS['deepcopy_and_eval'] = PRE + r'''
import copy
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
x = torch.randn(3, 2)
model(x).sum().backward()
best = copy.deepcopy(model)
print(best[0].weight.grad)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
opt.step()
print(torch.equal(best[0].weight, model[0].weight), best[0].weight.requires_grad, best[0].weight.is_leaf)
model.load_state_dict(best.state_dict())
print(torch.equal(best[0].weight, model[0].weight))
w = copy.deepcopy(model[0].weight)
print(type(w).__name__, w)
with torch.inference_mode():
    out = model(x)
print(out.requires_grad, out.is_inference())
E(lambda: out.requires_grad_())
with torch.no_grad():
    o2 = model(x)
print(o2.requires_grad, o2.grad_fn, o2.is_inference())
'''

PROGRAMS['extra_repr_custom'] = PRE + r'''
import torch.nn as nn
class Scale(nn.Module):
    def __init__(self, s, learn=False):
        super().__init__()
        self.s = s
        self.learn = learn
    def extra_repr(self):
        return f's={self.s}, learn={self.learn}'
    def forward(self, x):
        return x * self.s
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2, bias=False)
        self.sc = Scale(0.5)
        self.act = nn.LeakyReLU(0.1, inplace=True)
    def forward(self, x):
        return self.act(self.sc(self.fc(x)))
b = Block()
print(b)
print(nn.Sequential(b, nn.Sequential(), Scale(2, True)))
print(nn.Sequential(nn.Identity(), nn.Unflatten(1, (2, 1)), nn.Flatten(start_dim=0)))
print(nn.Bilinear(2, 3, 4), nn.MaxPool2d(2, stride=1), nn.AvgPool1d(3, ceil_mode=True), nn.Softmax(dim=-1), nn.LogSoftmax(1))
print(nn.Upsample(scale_factor=2, mode='nearest'), nn.ConstantPad1d(2, 0.5), nn.Embedding(3, 2, sparse=True))
'''

PROGRAMS['exponential_multistep_initial_lr'] = PRE + r'''
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
s1 = S.ExponentialLR(opt, gamma=0.9)
s2 = S.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
print(opt.param_groups[0]['initial_lr'], sorted(opt.param_groups[0]))
for e in range(6):
    opt.step()
    s1.step()
    s2.step()
    print(e, opt.param_groups[0]['lr'], s1.get_last_lr(), s2.get_last_lr())
print(s2.milestones, s2.state_dict()['milestones'])
opt2 = torch.optim.SGD(m.parameters(), lr=0.1)
E(lambda: S.StepLR(opt2, step_size=1, last_epoch=3))
'''

PROGRAMS['sgd_weight_decay_momentum_buffers'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(3)
m = nn.Linear(3, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.8, dampening=0.2, weight_decay=0.01)
x = torch.randn(6, 3); y = torch.randn(6, 1)
for i in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(x), y)
    loss.backward()
    opt.step()
print(loss)
print(opt.state[m.weight])
print(opt.state_dict())
opt.add_param_group({'params': [nn.Parameter(torch.ones(2))], 'lr': 0.5})
print(len(opt.param_groups), opt.param_groups[1]['momentum'], opt.param_groups[1]['lr'], sorted(opt.param_groups[1]))
'''

# ---- custom optimizers and schedulers, SWA, gradient accumulation, early stopping, data loading, more losses, packed sequences, parametrizations

PROGRAMS['custom_optimizer_subclass'] = PRE + r'''
import torch.nn as nn
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
                    state['buf'] = torch.clone(p.grad).detach()
                else:
                    state['buf'].mul_(group['momentum']).add_(p.grad)
                p.add_(state['buf'], alpha=-group['lr'])
        return loss
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = MySGD(m.parameters(), lr=0.1, momentum=0.9)
print(opt)
x = torch.randn(8, 2); y = x.sum(1, keepdim=True)
def closure():
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(x), y)
    loss.backward()
    return loss
for i in range(5):
    print(i, opt.step(closure))
print(m.weight, opt.state_dict()['state'][0]['buf'])
print(opt.defaults, type(opt.state).__name__)
'''

PROGRAMS['custom_lr_scheduler_subclass'] = PRE + r'''
import torch.nn as nn
from torch.optim.lr_scheduler import LRScheduler
class Warmup(LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        f = min(1.0, (self.last_epoch + 1) / self.warmup)
        return [base * f for base in self.base_lrs]
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.3)
s = Warmup(opt, 4)
print(s.get_last_lr())
for i in range(6):
    opt.step()
    s.step()
    print(i, s.get_last_lr(), s.last_epoch)
print(s.get_lr())
print(sorted(s.state_dict()))
'''

PROGRAMS['onecycle_cyclic_momentum'] = PRE + r'''
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
s = S.OneCycleLR(opt, max_lr=1.0, total_steps=8, three_phase=True, anneal_strategy='linear')
for i in range(8):
    opt.step()
    s.step()
    g = opt.param_groups[0]
    print(i, round(g['lr'], 10), round(g['momentum'], 10))
E(lambda: s.step())
opt2 = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
c = S.CyclicLR(opt2, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='exp_range', gamma=0.9)
for i in range(6):
    opt2.step()
    c.step()
    print(i, c.get_last_lr(), opt2.param_groups[0]['momentum'])
opt3 = torch.optim.Adam(m.parameters())
E(lambda: S.CyclicLR(opt3, 0.01, 0.1))
c3 = S.CyclicLR(opt3, 0.01, 0.1, cycle_momentum=False, step_size_up=3, mode='triangular2')
print([round(c3.get_last_lr()[0], 6) for _ in range(1) ])
'''

PROGRAMS['sequential_chained_warmup'] = PRE + r'''
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
warm = S.LinearLR(opt, start_factor=0.25, total_iters=3)
decay = S.CosineAnnealingLR(opt, T_max=5)
seq = S.SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
for i in range(9):
    opt.step()
    seq.step()
    print(i, seq.get_last_lr())
opt2 = torch.optim.SGD(m.parameters(), lr=1.0)
ch = S.ChainedScheduler([S.ConstantLR(opt2, factor=0.5, total_iters=2), S.ExponentialLR(opt2, gamma=0.9)])
for i in range(4):
    opt2.step()
    ch.step()
    print(i, ch.get_last_lr())
opt3 = torch.optim.SGD(m.parameters(), lr=1.0)
E(lambda: S.SequentialLR(opt3, schedulers=[S.ConstantLR(opt3)], milestones=[2]))
p = S.PolynomialLR(opt3, total_iters=4, power=2.0)
for i in range(5):
    opt3.step(); p.step()
print(p.get_last_lr())
'''

PROGRAMS['swa_averaged_model'] = PRE + r'''
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2)
x = torch.randn(6, 2); y = torch.randn(6, 1)
for ep in range(4):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    swa.update_parameters(model)
    sched.step()
    print(ep, sched.get_last_lr(), swa.n_averaged)
print(swa.module[0].weight)
print([n for n, _ in swa.named_buffers()])
print(swa(x[:2]))
'''

PROGRAMS['grad_accumulation'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(12, 3); Y = torch.randn(12, 1)
accum = 3
opt.zero_grad()
for i in range(6):
    xb, yb = X[2*i:2*i+2], Y[2*i:2*i+2]
    loss = nn.functional.mse_loss(model(xb), yb) / accum
    loss.backward()
    print(i, f'{loss.item():.6f}', model.bias.grad)
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
        print('step', model.weight)
print(model.weight.grad)
'''

PROGRAMS['early_stopping_best_state'] = PRE + r'''
import copy
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
Xtr, Ytr = torch.randn(32, 4), torch.randn(32, 1)
Xva, Yva = torch.randn(8, 4), torch.randn(8, 1)
best, best_state, patience, bad = float('inf'), None, 2, 0
for ep in range(20):
    model.train()
    opt.zero_grad()
    nn.functional.mse_loss(model(Xtr), Ytr).backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(Xva), Yva).item()
    if val < best:
        best, bad = val, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
    print(f'{ep:2d} val={val:.5f} best={best:.5f} bad={bad}')
    if bad >= patience:
        print('early stop')
        break
model.load_state_dict(best_state)
with torch.no_grad():
    print(nn.functional.mse_loss(model(Xva), Yva))
'''

PROGRAMS['linear_regression_1d'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
x = torch.rand(20, 1) * 10
y = 2 * x + 1 + torch.randn(20, 1) * 0.5
model = nn.Linear(1, 1)
crit = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(100):
    pred = model(x)
    loss = crit(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if (epoch + 1) % 25 == 0:
        print(f'Epoch [{epoch+1}/100], Loss: {loss.item():.4f}')
w, b = model.parameters()
print(f'w = {w.item():.4f}, b = {b.item():.4f}')
print(w, b)
print(float(loss), loss.tolist(), round(loss.item(), 3))
print(model(torch.tensor([[4.0]])).item())
print(model.weight.data, model.bias.data.numpy())
'''

PROGRAMS['dataloader_shuffle_split'] = PRE + r'''
from torch.utils.data import TensorDataset, DataLoader, random_split
torch.manual_seed(0)
X = torch.arange(10.).unsqueeze(1)
Y = torch.arange(10)
ds = TensorDataset(X, Y)
train, val = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), train.indices, val.indices)
dl = DataLoader(train, batch_size=3, shuffle=True)
for xb, yb in dl:
    print(xb.view(-1), yb)
for xb, yb in DataLoader(val, batch_size=2, drop_last=True):
    print(xb.shape, yb)
print(len(dl), len(DataLoader(train, batch_size=3, drop_last=True)))
a, b = random_split(ds, [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print(a.indices, b.indices)
'''

PROGRAMS['more_losses'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
a = torch.randn(4, 3, requires_grad=True)
b = torch.randn(4, 3)
y = torch.tensor([1., -1., 1., -1.])
print(nn.CosineEmbeddingLoss(margin=0.2)(a, b, y))
print(nn.MarginRankingLoss(margin=0.1)(a[:, 0], b[:, 0], y))
print(nn.HingeEmbeddingLoss(margin=0.5)(a, torch.ones(4, 3)))
print(nn.TripletMarginLoss(margin=1.0, p=2)(a, b, b.flip(0)))
print(nn.MultiLabelSoftMarginLoss()(a, (b > 0).float()))
print(nn.MultiMarginLoss()(a, torch.tensor([0, 1, 2, 0])))
print(nn.SoftMarginLoss()(a, torch.sign(b)))
print(nn.PoissonNLLLoss()(a, b.abs()))
print(nn.GaussianNLLLoss()(a, b, torch.ones(4, 1)))
l = nn.MultiLabelMarginLoss()(a, torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]]))
l.backward()
print(l, a.grad)
print(nn.CosineSimilarity(dim=1)(a, b), nn.PairwiseDistance()(a, b))
'''

PROGRAMS['pack_padded_lstm'] = PRE + r'''
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
torch.manual_seed(0)
torch.set_printoptions(precision=4)
seqs = [torch.randn(4, 2), torch.randn(2, 2), torch.randn(3, 2)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, lengths)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
lstm = nn.LSTM(2, 3, batch_first=True)
out, (h, c) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
print(h)
print(unpacked[1])
E(lambda: pack_padded_sequence(padded, lengths, batch_first=True))
'''

PROGRAMS['weight_norm_spectral_prune'] = PRE + r'''
import torch.nn as nn
from torch.nn.utils import parametrizations as P
import torch.nn.utils.prune as prune
torch.manual_seed(0)
torch.set_printoptions(precision=4)
m = P.weight_norm(nn.Linear(3, 2))
print(m)
print([n for n, _ in m.named_parameters()])
print(m.weight, m.parametrizations.weight.original0)
m2 = nn.Linear(3, 2)
prune.l1_unstructured(m2, name='weight', amount=0.5)
print([n for n, _ in m2.named_parameters()], [n for n, _ in m2.named_buffers()])
print(m2.weight_mask, m2.weight)
prune.remove(m2, 'weight')
print([n for n, _ in m2.named_parameters()])
m3 = P.spectral_norm(nn.Linear(3, 3))
print(type(m3.parametrizations.weight[0]).__name__)
m4 = P.orthogonal(nn.Linear(3, 3))
w = m4.weight
print(torch.allclose(w @ w.T, torch.eye(3), atol=1e-5))
'''

PROGRAMS['module_introspection'] = PRE + r'''
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.add_module('head', nn.Linear(3, 1))
        self.register_module('aux', nn.Linear(3, 2))
net = Net()
print(net.get_submodule('enc.0'), net.get_parameter('head.bias').shape)
E(lambda: net.get_submodule('enc.5'))
E(lambda: net.get_parameter('enc.1.weight'))
print([n for n, _ in net.named_parameters(prefix='model', recurse=True)][:3])
print(list(net.parameters(recurse=False)), [n for n, _ in net.enc.named_parameters()])
sd = net.state_dict(prefix='p.', keep_vars=True)
print(list(sd)[:2], type(sd['p.head.bias']).__name__)
print(net.head.__class__.__name__, str(net.head), net._get_name())
E(lambda: net.add_module('a.b', nn.ReLU()))
E(lambda: net.add_module('head', 3))
E(lambda: setattr(net, 'head', 3.0))
print(type(net.head).__name__)
net.head = None
print(net)
del net.aux
print([n for n, _ in net.named_children()])
'''

PROGRAMS['softmax_implicit_dim_legacy'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
x = torch.randn(2, 3)
print(F.softmax(x).shape)
print(nn.Softmax()(x).shape)
print(F.log_softmax(torch.randn(3)).shape)
print(nn.MSELoss(size_average=False))
print(nn.CrossEntropyLoss(reduce=False))
print(F.mse_loss(x, x, reduce=True, size_average=True))
print(F.tanh(torch.tensor(0.5)), F.sigmoid(torch.tensor(0.5)))
v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
print(v, type(v).__name__)
loss = (v * 3).sum()
E(lambda: loss.data[0])
loss.backward()
v.grad.data.zero_()
print(v.grad)
'''

PROGRAMS['print_state_dict_ordered'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
sd = m.state_dict()
print(sd)
print(type(sd).__name__, sd.keys())
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype)
print(m.state_dict()['0.weight'] is m[0].weight, m.state_dict()['0.weight'].data_ptr() == m[0].weight.data_ptr())
print(hasattr(sd, '_metadata'), sd._metadata)
'''

PROGRAMS['half_double_module_to'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
m.double()
print(m.weight.dtype, m(torch.ones(1, 2, dtype=torch.float64)))
E(lambda: m(torch.ones(1, 2)))
m.to(torch.float16)
print(m.weight)
m.float()
print(m.weight.dtype, type(m.weight).__name__, m.weight.requires_grad)
m2 = m.to(dtype=torch.bfloat16)
print(m2 is m, m.bias)
E(lambda: m.to(torch.int64))
print(m.to('cpu') is m)
m.type(torch.float64)
print(m.weight.dtype)
'''

PROGRAMS['transformer_encoder_eval'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(layer)
x = torch.randn(2, 3, 4)
mask = nn.Transformer.generate_square_subsequent_mask(3)
print(mask)
out = enc(x, mask=mask)
print(out)
print(out.grad_fn)
enc.eval()
with torch.no_grad():
    print(enc(x, mask=mask, is_causal=True)[0])
mha = nn.MultiheadAttention(4, 2, batch_first=True)
o, w = mha(x, x, x)
print(o.shape, w.shape, w[0])
'''

PROGRAMS['functional_misc'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([[3., 4.], [0., 0.], [1., -1.]], requires_grad=True)
print(F.normalize(x, dim=1))
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4))
E(lambda: F.one_hot(torch.tensor([0, 5]), 3))
E(lambda: F.one_hot(torch.tensor([0., 1.])))
print(F.pad(x, (1, 2), value=9.0))
print(F.pad(x.unsqueeze(0), (1, 1), mode='reflect'))
y = F.normalize(x, p=1, dim=0)
y.sum().backward()
print(y, x.grad)
print(F.linear(x, torch.ones(1, 2)), F.relu6(x * 3), F.hardsigmoid(x))
print(F.cosine_similarity(x[0], x[2], dim=0), F.pairwise_distance(x[:1], x[2:]))
'''

PROGRAMS['batchnorm_running_momentum_train_eval_switch'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=5)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.3), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(16, 3); Y = torch.randn(16, 1)
for i in range(3):
    model.train()
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        print(i, loss.item(), nn.functional.mse_loss(model(X), Y).item())
bn = model[1]
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
print(bn.weight.grad, bn.bias.grad)
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
'''

# ---- truncated BPTT, in-place errors, dtype mistakes, optimizer and module hooks, rarer optimizers, LBFGS, spatial losses, pooling, resuming schedulers

PROGRAMS['tbptt_forgot_detach'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
cell = nn.RNNCell(2, 3)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
h = torch.zeros(1, 3)
xs = torch.randn(6, 1, 2)
def chunk(h, detach):
    for t in range(2):
        h = cell(xs[t], h)
    loss = h.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return h.detach() if detach else h
h = chunk(h, False)
print(h.grad_fn)
E(lambda: chunk(h, False))
h2 = chunk(h.detach(), True)
print(h2.grad_fn, h2.requires_grad)
print(chunk(h2, True))
'''

PROGRAMS['inplace_after_activation_errors'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
s = torch.sigmoid(x)
s += 1
E(lambda: s.sum().backward())
lin = nn.Linear(3, 3)
h = lin(x)
r = torch.relu(h)
r.mul_(2)
E(lambda: r.sum().backward())
t = torch.tanh(x)
t[0, 0] = 0.0
E(lambda: t.sum().backward())
e = x.exp()
e.clamp_(max=1.0)
E(lambda: e.sum().backward())
m = nn.Sequential(nn.Linear(3, 3), nn.ReLU(inplace=True), nn.Linear(3, 1))
out = m(x)
out.sum().backward()
print(x.grad)
w = lin.weight
y = (x @ w.t()).sum()
with torch.no_grad():
    w.mul_(0.5)
E(lambda: y.backward())
'''

PROGRAMS['dtype_mismatch_student'] = PRE + r'''
import numpy as np
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
arr = np.array([[1.0, 2.0], [3.0, 4.0]])
x = torch.from_numpy(arr)
print(x.dtype)
E(lambda: m(x))
print(m(x.float()))
y = torch.tensor([1, 0])
E(lambda: nn.MSELoss()(m(x.float()).squeeze(), y))
E(lambda: nn.BCEWithLogitsLoss()(m(x.float()).squeeze(), y))
E(lambda: nn.CrossEntropyLoss()(torch.randn(2, 3), y.float()))
E(lambda: nn.NLLLoss()(torch.randn(2, 3, dtype=torch.float64), y))
E(lambda: (m(x.float())).backward())
E(lambda: nn.L1Loss()(m(x.float()), torch.tensor([[1.0], [2.0]], dtype=torch.float64)))
print(nn.L1Loss()(m(x.float()), torch.tensor([[1.0], [2.0]], dtype=torch.float64)).dtype)
'''

PROGRAMS['optim_hooks'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
def pre(o, args, kwargs):
    print('pre step', type(o).__name__, args, kwargs)
def post(o, args, kwargs):
    print('post step', o.param_groups[0]['lr'])
h1 = opt.register_step_pre_hook(pre)
h2 = opt.register_step_post_hook(post)
m(torch.ones(1, 2)).sum().backward()
opt.step()
h1.remove()
opt.step()
h2.remove()
opt.step()
def sd_post(o, sd):
    print('state_dict post', sorted(sd))
    sd['extra'] = 1
    return sd
opt.register_state_dict_post_hook(sd_post)
print(sorted(opt.state_dict()))
def load_pre(o, sd):
    print('load pre', sorted(sd))
    sd = dict(sd); sd.pop('extra'); return sd
opt.register_load_state_dict_pre_hook(load_pre)
opt.register_load_state_dict_post_hook(lambda o: print('load post'))
opt.load_state_dict(opt.state_dict())
print(m.weight)
'''

PROGRAMS['less_common_optimizers'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(8, 3); y = torch.randn(8, 1)
for cls, kw in [(torch.optim.NAdam, dict(lr=0.01, momentum_decay=0.005)), (torch.optim.NAdam, dict(lr=0.01, decoupled_weight_decay=True, weight_decay=0.1)),
                (torch.optim.RAdam, dict(lr=0.01, decoupled_weight_decay=True, weight_decay=0.1)), (torch.optim.Adamax, dict(lr=0.02)),
                (torch.optim.Adadelta, dict(lr=1.0, rho=0.8)), (torch.optim.ASGD, dict(lr=0.01, t0=2)), (torch.optim.Rprop, dict(lr=0.01, etas=(0.4, 1.3))),
                (torch.optim.SGD, dict(lr=0.01, momentum=0.9, foreach=True)), (torch.optim.Adam, dict(lr=0.01, foreach=False, amsgrad=True))]:
    torch.manual_seed(1)
    m = nn.Linear(3, 1)
    opt = cls(m.parameters(), **kw)
    for i in range(5):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
    print(cls.__name__, f'{loss.item():.7f}', m.bias.data, sorted(opt.state[m.bias]))
'''

PROGRAMS['lbfgs_strong_wolfe'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(20, 2); y = x @ torch.tensor([[1.5], [-2.0]]) + 0.3
m = nn.Linear(2, 1)
opt = torch.optim.LBFGS(m.parameters(), lr=1, max_iter=10, history_size=5, line_search_fn='strong_wolfe')
def closure():
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(x), y)
    loss.backward()
    return loss
for i in range(3):
    l = opt.step(closure)
    print(i, f'{l.item():.8f}')
print(m.weight, m.bias)
st = opt.state[opt._params[0]]
print(sorted(st), st['func_evals'], st['n_iter'])
E(lambda: torch.optim.LBFGS(m.parameters(), line_search_fn='armijo'))
'''

PROGRAMS['ce_spatial_nll_images'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_printoptions(precision=4)
logits = torch.randn(2, 3, 2, 2, requires_grad=True)
target = torch.tensor([[[0, 1], [2, -100]], [[1, 1], [0, 2]]])
loss = F.cross_entropy(logits, target, label_smoothing=0.1)
loss.backward()
print(loss, logits.grad[0, :, 1, 1])
print(F.cross_entropy(logits, target, reduction='none'))
print(F.nll_loss(F.log_softmax(logits, 1), target, weight=torch.tensor([1., 2., 3.])))
E(lambda: F.cross_entropy(logits, target[:, 0]))
E(lambda: F.cross_entropy(logits, target.unsqueeze(1)))
seq = torch.randn(2, 4, 5)
tgt = torch.randint(0, 4, (2, 5))
print(F.cross_entropy(seq, tgt), F.cross_entropy(seq.transpose(1, 2).reshape(-1, 4), tgt.view(-1)))
print(F.cross_entropy(torch.randn(4), torch.tensor(2)))
pw = torch.tensor([2.0, 1.0, 0.5]).view(3, 1, 1)
print(F.binary_cross_entropy_with_logits(logits, (logits > 0).float(), pos_weight=pw))
'''

PROGRAMS['conv_transpose_pool_indices'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
x = torch.randn(1, 1, 4, 4, requires_grad=True)
pool = nn.MaxPool2d(2, return_indices=True)
unpool = nn.MaxUnpool2d(2)
y, idx = pool(x)
print(y, idx)
z = unpool(y, idx)
print(z)
z.sum().backward()
print(x.grad)
ct = nn.ConvTranspose2d(1, 2, 3, stride=2, padding=1, output_padding=1)
print(ct, ct(y).shape, ct(y, output_size=[4, 4]).shape)
E(lambda: ct(y, output_size=[9, 9]))
c = nn.Conv2d(1, 2, 3, padding=1, padding_mode='reflect')
print(c, c(x).shape)
uf = nn.Unfold(kernel_size=2, stride=2)
print(uf(x).shape, nn.Fold((4, 4), 2, stride=2)(uf(x)).equal(x))
up = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
print(up(y))
'''

PROGRAMS['embedding_bag_scale_freq'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
e = nn.Embedding(5, 2, scale_grad_by_freq=True)
out = e(torch.tensor([1, 1, 1, 3]))
out.sum().backward()
print(e.weight.grad)
bag = nn.EmbeddingBag(5, 2, mode='mean')
print(bag)
inp = torch.tensor([0, 2, 4, 1, 3])
offsets = torch.tensor([0, 2])
r = bag(inp, offsets)
print(r, r.grad_fn)
bag2 = nn.EmbeddingBag(5, 2, mode='max')
print(bag2(torch.tensor([[0, 1], [2, 3]])))
bag3 = nn.EmbeddingBag(5, 2, mode='sum')
print(bag3(inp, offsets, per_sample_weights=torch.tensor([1., 2., 0.5, 1., 1.])))
E(lambda: bag(inp, offsets, per_sample_weights=torch.ones(5)))
E(lambda: bag(torch.tensor([[0, 1]]), offsets))
'''

PROGRAMS['module_hooks_kwargs_always'] = PRE + r'''
import torch.nn as nn
class M(nn.Module):
    def forward(self, x, scale=1.0):
        if scale < 0:
            raise ValueError('neg scale')
        return x * scale
m = M()
def pre(mod, args, kwargs):
    print('pre', args, kwargs)
    return args, {'scale': kwargs.get('scale', 1.0) * 2}
def post(mod, args, kwargs, out):
    print('post', kwargs, out)
    return out + 1
m.register_forward_pre_hook(pre, with_kwargs=True)
m.register_forward_hook(post, with_kwargs=True, always_call=True)
print(m(torch.tensor([1., 2.]), scale=3.0))
print(m(torch.tensor([1.])))
E(lambda: m(torch.tensor([1.]), scale=-1.0))
m2 = nn.Linear(1, 1)
h = m2.register_forward_hook(lambda mod, i, o: print('first'), prepend=False)
m2.register_forward_hook(lambda mod, i, o: print('prepended'), prepend=True)
m2(torch.ones(1))
'''

PROGRAMS['global_module_hooks'] = PRE + r'''
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
seen = []
h = register_module_forward_hook(lambda m, i, o: seen.append(type(m).__name__))
h2 = register_module_forward_pre_hook(lambda m, i: seen.append('pre:' + type(m).__name__))
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
net(torch.ones(1, 2))
h.remove(); h2.remove()
print(seen)
net(torch.ones(1, 2))
print(len(seen))
'''

PROGRAMS['state_dict_hooks_module'] = PRE + r'''
import torch.nn as nn
class Old(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
m = Old()
def rename(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    for k in list(state_dict):
        if k.startswith(prefix + 'linear.'):
            state_dict[k.replace('linear.', 'lin.')] = state_dict.pop(k)
m.register_load_state_dict_pre_hook(rename)
print(m.load_state_dict({'linear.weight': torch.eye(2), 'linear.bias': torch.zeros(2)}))
print(m.lin.weight)
m.register_state_dict_post_hook(lambda mod, sd, prefix, local_metadata: sd.__setitem__(prefix + 'version', torch.tensor(2)))
print(list(m.state_dict()))
def post(module, incompatible):
    print('post load', incompatible.missing_keys, incompatible.unexpected_keys)
m.register_load_state_dict_post_hook(post)
print(m.load_state_dict({'lin.weight': torch.eye(2), 'lin.bias': torch.zeros(2), 'x': torch.zeros(1)}, strict=False))
'''

PROGRAMS['scheduler_resume_epoch_arg'] = PRE + r'''
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = S.StepLR(opt, step_size=2, gamma=0.5)
for i in range(3):
    opt.step(); s.step()
sd = s.state_dict(); osd = opt.state_dict()
opt2 = torch.optim.SGD(m.parameters(), lr=0.1)
opt2.load_state_dict(osd)
s2 = S.StepLR(opt2, step_size=2, gamma=0.5)
s2.load_state_dict(sd)
print(s2.last_epoch, s2.get_last_lr(), opt2.param_groups[0]['lr'])
opt2.step(); s2.step()
print(s2.get_last_lr())
s2.step(10)
print(s2.get_last_lr(), s2.last_epoch)
opt3 = torch.optim.SGD([{'params': m.parameters(), 'initial_lr': 0.2}], lr=0.1)
s3 = S.ExponentialLR(opt3, gamma=0.5, last_epoch=2)
print(s3.get_last_lr(), opt3.param_groups[0]['lr'])
'''

PROGRAMS['plateau_eps_state'] = PRE + r'''
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau
m = nn.Linear(2, 1)
opt = torch.optim.Adam([{'params': m.weight}, {'params': m.bias, 'lr': 1e-3}], lr=0.01)
s = ReduceLROnPlateau(opt, factor=0.1, patience=0, min_lr=[1e-4, 1e-6], eps=1e-5)
for ep, v in enumerate([1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5]):
    opt.step()
    s.step(torch.tensor(v))
    print(ep, [g['lr'] for g in opt.param_groups], s.get_last_lr())
sd = s.state_dict()
print(sorted(sd), sd['best'], sd['mode'])
E(lambda: ReduceLROnPlateau(opt, min_lr=[0.1]))
s2 = ReduceLROnPlateau(opt)
print(s2.patience, s2.threshold, s2.threshold_mode)
'''

PROGRAMS['clip_total_norm_new_api'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 2)
m(torch.randn(4, 3)).pow(2).sum().backward()
grads = [p.grad for p in m.parameters()]
tn = nn.utils.get_total_norm(grads, norm_type=2.0)
print(tn)
nn.utils.clip_grads_with_norm_(m.parameters(), max_norm=0.5, total_norm=tn)
print(m.weight.grad, m.bias.grad)
print(nn.utils.clip_grad_norm_(m.weight, 0.1), m.weight.grad.norm())
print(nn.utils.clip_grad_norm_(m.parameters(), 0.1, foreach=True))
m.bias.grad = None
print(nn.utils.clip_grad_norm_(m.parameters(), 0.01, norm_type=3.0))
print(nn.utils.clip_grad_value_(m.weight, clip_value=0.001), m.weight.grad)
'''

PROGRAMS['nonscalar_backward_student'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 3)
out = m(torch.randn(4, 2))
E(lambda: out.backward())
E(lambda: nn.MSELoss(reduction='none')(out, torch.zeros(4, 3)).backward())
out.backward(torch.ones_like(out))
print(m.bias.grad)
E(lambda: out.backward(torch.ones(3)))
opt = torch.optim.Adam(m.parameters())
m.zero_grad()
opt.step()
print(m.bias.grad, opt.state)
E(lambda: out.mean().item().backward())
'''

PROGRAMS['torch_nn_really_sequential_lambda'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 6, 6)
model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(4, 3, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), Lambda(lambda x: x.view(x.size(0), -1)))
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.rand(8, 36); y = torch.randint(0, 3, (8,))
for ep in range(3):
    loss = F.cross_entropy(model(x), y)
    loss.backward(); opt.step(); opt.zero_grad()
    print(ep, loss)
print(model(x[:2]).grad_fn)
'''

PROGRAMS['parameter_arith_and_repr'] = PRE + r'''
import torch.nn as nn
p = nn.Parameter(torch.tensor([1., 2.]))
q = p * 2
print(p, q, type(q).__name__)
print(p.data, type(p.data).__name__, p.detach())
print(nn.Parameter(), nn.Parameter(torch.tensor(3.)))
print(isinstance(p, torch.Tensor), p.is_leaf, p.grad_fn)
r = p.clone()
print(type(r).__name__, r.grad_fn)
p2 = nn.Parameter(torch.ones(2, dtype=torch.float64))
print(p2)
E(lambda: nn.Parameter(torch.tensor([1, 2])))
p3 = nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
print(p3, p3.requires_grad)
print(repr(nn.Parameter(torch.zeros(2, 2)).T))
print(nn.Parameter(torch.ones(2)) + nn.Parameter(torch.ones(2)))
'''

# ---- printing, warnings, datasets and samplers, small training loops from the NLP tutorials

PROGRAMS['type_reprs'] = PRE + r'''
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
m = nn.Sequential(nn.Linear(2, 1))
opt = torch.optim.Adam(m.parameters())
s = torch.optim.lr_scheduler.StepLR(opt, 1)
ds = TensorDataset(torch.zeros(2, 2))
x = torch.ones(2, requires_grad=True)
for o in (m, m[0], m[0].weight, m[0].weight.data, opt, s, ds, DataLoader(ds), nn.MSELoss(), (x * 2).grad_fn, torch.float32, torch.Size([2]), torch.device('cpu'), torch.Generator(), nn.functional.relu, nn.init.xavier_uniform_):
    print(type(o))
print(type(opt.state_dict()['param_groups']), type(m.state_dict()), type(m._modules))
print(nn.MSELoss.__mro__)
print(type(nn.utils.clip_grad_norm_(m.parameters(), 1.0)), nn.Linear.__qualname__)
'''

PROGRAMS['target_size_warning'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 1)
x = torch.randn(4, 3)
y = torch.randn(4)
crit = nn.MSELoss()
loss = crit(m(x), y)
print(loss)
print(nn.L1Loss()(m(x), y))
print(nn.SmoothL1Loss()(m(x), y))
print(nn.HuberLoss()(m(x), y).shape)
E(lambda: nn.BCELoss()(torch.sigmoid(m(x)), y.sigmoid()))
E(lambda: nn.MSELoss()(m(x), torch.randn(3)))
print(nn.MSELoss()(m(x).squeeze(1), y))
print(nn.MSELoss()(m(x), y.unsqueeze(1)).grad_fn)
'''

PROGRAMS['deprecated_names_warn'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(2, 2)
m(torch.ones(1, 2)).sum().backward()
print(nn.utils.clip_grad_norm(m.parameters(), 1.0))
w = torch.empty(2, 2)
nn.init.normal(w)
nn.init.xavier_uniform(w)
nn.init.constant(w, 0.5)
print(w)
print(F.upsample(torch.ones(1, 1, 2), scale_factor=2).shape)
z = torch.empty(0, 3)
print(nn.init.kaiming_uniform_(z))
E(lambda: nn.init.xavier_uniform_(torch.empty(3)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, 1)
print(s.get_lr())
print(F.sigmoid(torch.zeros(1)), F.tanh(torch.zeros(1)))
'''

PROGRAMS['dataset_class_loader'] = PRE + r'''
from torch.utils.data import Dataset, DataLoader
class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return {'x': self.x[i], 'y': self.x[i] ** 2, 'i': i}
ds = Squares(7)
print(len(ds), ds[3])
dl = DataLoader(ds, batch_size=3)
for batch in dl:
    print(batch)
torch.manual_seed(0)
dl2 = DataLoader(ds, batch_size=4, shuffle=True, drop_last=False)
print([b['i'].tolist() for b in dl2])
def collate(items):
    return torch.stack([it['x'] for it in items]), [it['i'] for it in items]
print(next(iter(DataLoader(ds, batch_size=2, collate_fn=collate))))
tl = DataLoader([(torch.tensor([1., 2.]), 0), (torch.tensor([3., 4.]), 1)], batch_size=2)
print(next(iter(tl)))
'''

PROGRAMS['samplers'] = PRE + r'''
from torch.utils.data import WeightedRandomSampler, RandomSampler, SubsetRandomSampler, BatchSampler, SequentialSampler, DataLoader, TensorDataset
torch.manual_seed(0)
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 6, replacement=True)))
print(list(RandomSampler(range(5))))
print(list(SubsetRandomSampler([10, 20, 30])))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(RandomSampler(range(3), replacement=True, num_samples=5)))
g = torch.Generator().manual_seed(3)
ds = TensorDataset(torch.arange(6))
print([b[0].tolist() for b in DataLoader(ds, batch_size=2, shuffle=True, generator=g)])
print(list(WeightedRandomSampler(torch.tensor([1., 0., 1.]), 2, replacement=False)))
'''

PROGRAMS['classification_metrics_loop'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
N, C = 30, 3
X = torch.randn(N, 4)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 0.5).long()
model = nn.Sequential(nn.Linear(4, 10), nn.GELU(), nn.Linear(10, C))
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
for epoch in range(9):
    logits = model(X)
    loss = F.cross_entropy(logits, Y, label_smoothing=0.05)
    opt.zero_grad(); loss.backward(); opt.step()
    if epoch % 3 == 2:
        acc = (logits.argmax(dim=1) == Y).float().mean()
        print(f'epoch {epoch + 1:3d} loss {loss:.4f} acc {acc:.2%}')
with torch.no_grad():
    probs = F.softmax(model(X[:3]), dim=1)
    conf, pred = probs.max(dim=1)
print(probs, conf, pred, sep='\n')
cm = torch.zeros(C, C, dtype=torch.long)
for t, p in zip(Y, model(X).argmax(1)):
    cm[t, p] += 1
print(cm)
print(torch.bincount(Y, minlength=C), torch.topk(probs, 2, dim=1))
'''

PROGRAMS['format_specs_tensors'] = PRE + r'''
t = torch.tensor(3.14159265)
print(f'{t:.3f}', f'{t:10.2e}', f'{t}', '{:.1%}'.format(torch.tensor(0.256)))
E(lambda: f'{torch.tensor([1.0, 2.0]):.2f}')
print(f'{torch.tensor(5):d}', f'{torch.tensor(5):>4}', format(torch.tensor(2.5), ''))
print(f'{torch.tensor(1.5, requires_grad=True):.2f}')
print(str(torch.tensor(2.0)), repr(torch.tensor([1.5], dtype=torch.float64)))
print('%.3f' % torch.tensor(1.23456), '%d' % torch.tensor(7))
E(lambda: round(torch.tensor(2.567), 1))
print(int(torch.tensor(3.9)), float(torch.tensor([2])), bool(torch.tensor([0.0])))
E(lambda: float(torch.tensor([1., 2.])))
print(f'{torch.tensor(True)}', f'{torch.tensor(1e-8):g}')
'''

PROGRAMS['named_parameters_table'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(2 * 4 * 4, 5), nn.LayerNorm(5))
total = 0
print(f"{'name':<12}{'shape':<28}{'numel':>6} grad")
for name, p in model.named_parameters():
    total += p.numel()
    print(f'{name:<12}{str(p.shape):<28}{p.numel():>6} {p.requires_grad}')
print('total', total)
print(f'{sum(b.numel() for b in model.buffers())} buffer elements')
for name, mod in model.named_modules():
    if len(list(mod.children())) == 0:
        print(name, mod.__class__.__name__, sum(p.numel() for p in mod.parameters()))
print(model[0].weight.stride(), model[3].weight.T.is_contiguous(), model[0].weight.mean().item() != 0)
'''

PROGRAMS['autoencoder_mse'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 8), nn.Sigmoid())
    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z
ae = AE()
opt = torch.optim.Adam(ae.parameters(), lr=1e-2)
X = torch.rand(16, 8)
for ep in range(20):
    recon, z = ae(X)
    loss = nn.functional.mse_loss(recon, X)
    opt.zero_grad(); loss.backward(); opt.step()
    if ep % 5 == 0:
        print(ep, round(loss.item(), 6))
print(z[:2], recon.grad_fn, z.grad_fn)
with torch.no_grad():
    print(ae.decoder(torch.zeros(1, 2)))
'''

PROGRAMS['gan_detach_two_optimizers'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.2), nn.Linear(4, 2))
D = nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = torch.randn(8, 2) + 3
for step in range(5):
    z = torch.randn(8, 2)
    fake = G(z)
    lossD = crit(D(real), torch.ones(8, 1)) + crit(D(fake.detach()), torch.zeros(8, 1))
    optD.zero_grad(); lossD.backward(); optD.step()
    lossG = crit(D(fake), torch.ones(8, 1))
    optG.zero_grad(); lossG.backward(); optG.step()
    print(step, f'D {lossD.item():.5f} G {lossG.item():.5f}')
print(G[0].weight.grad is not None, D[0].weight.grad)
print(fake.grad_fn, fake.detach().grad_fn)
'''

PROGRAMS['word_embedding_ngram'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
CONTEXT_SIZE, EMBEDDING_DIM = 2, 5
sentence = "when forty winters shall besiege thy brow and dig deep trenches in thy beauty".split()
ngrams = [([sentence[i - j - 1] for j in range(CONTEXT_SIZE)], sentence[i]) for i in range(CONTEXT_SIZE, len(sentence))]
print(ngrams[:2])
vocab = sorted(set(sentence))
word_to_ix = {w: i for i, w in enumerate(vocab)}
class NGram(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 16)
        self.linear2 = nn.Linear(16, vocab_size)
    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        return F.log_softmax(self.linear2(out), dim=1)
losses = []
loss_function = nn.NLLLoss()
model = NGram(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
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
    losses.append(total_loss)
print(losses)
print(model.embeddings.weight[word_to_ix["beauty"]])
'''

PROGRAMS['bow_classifier_tutorial'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
data = [("me gusta comer en la cafeteria".split(), "SPANISH"), ("Give it to me".split(), "ENGLISH"),
        ("No creo que sea una buena idea".split(), "SPANISH"), ("No it is not a good idea to get lost at sea".split(), "ENGLISH")]
word_to_ix = {}
for sent, _ in data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
class BoWClassifier(nn.Module):
    def __init__(self, num_labels, vocab_size):
        super(BoWClassifier, self).__init__()
        self.linear = nn.Linear(vocab_size, num_labels)
    def forward(self, bow_vec):
        return F.log_softmax(self.linear(bow_vec), dim=1)
def make_bow_vector(sentence):
    vec = torch.zeros(len(word_to_ix))
    for word in sentence:
        vec[word_to_ix[word]] += 1
    return vec.view(1, -1)
model = BoWClassifier(2, len(word_to_ix))
for param in model.parameters():
    print(param)
with torch.no_grad():
    print(model(make_bow_vector(data[0][0])))
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(8):
    for instance, label in data:
        model.zero_grad()
        loss = loss_function(model(make_bow_vector(instance)), torch.tensor([label_to_ix[label]]))
        loss.backward()
        optimizer.step()
with torch.no_grad():
    for instance, label in data[:2]:
        print(model(make_bow_vector(instance)))
print(next(model.parameters())[:, word_to_ix["creo"]])
'''

PROGRAMS['lstm_tagger_tutorial'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
training_data = [("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
                 ("Everybody read that book".split(), ["NN", "V", "DET", "NN"])]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
def prepare_sequence(seq, to_ix):
    return torch.tensor([to_ix[w] for w in seq], dtype=torch.long)
class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)
    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        return F.log_softmax(tag_space, dim=1)
model = LSTMTagger(6, 6, len(word_to_ix), len(tag_to_ix))
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    print(model(prepare_sequence(training_data[0][0], word_to_ix)))
for epoch in range(8):
    for sentence, tags in training_data:
        model.zero_grad()
        loss = loss_function(model(prepare_sequence(sentence, word_to_ix)), prepare_sequence(tags, tag_to_ix))
        loss.backward()
        optimizer.step()
with torch.no_grad():
    print(model(prepare_sequence(training_data[0][0], word_to_ix)))
'''

# ---- the errors a student hits with CNNs, RNNs and optimizers; checkpoints; multi-task and tied weights

PROGRAMS['student_shape_errors_cnn'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
conv = nn.Conv2d(1, 6, 5)
E(lambda: conv(torch.randn(1, 3, 32, 32)))
E(lambda: conv(torch.randn(1, 1, 1, 32, 32)))
E(lambda: conv(torch.randn(32, 32)))
print(conv(torch.randn(1, 32, 32)).shape)
E(lambda: conv(torch.randn(1, 1, 3, 3)))
E(lambda: F.max_pool2d(torch.randn(1, 16, 1, 1), 2))
fc = nn.Linear(256, 120)
E(lambda: fc(torch.randn(1, 16, 5, 5).flatten(1)))
E(lambda: fc(torch.randn(16, 5, 5)))
x = torch.randn(2, 3, 4).transpose(1, 2)
E(lambda: x.view(2, -1))
print(x.reshape(2, -1).shape, x.contiguous().view(-1, 3).shape)
E(lambda: x.view(5, -1))
E(lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
E(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
E(lambda: nn.Linear(3, 2)(torch.tensor(1.0)))
'''

PROGRAMS['student_runtime_errors_nn'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
E(lambda: bn(torch.randn(1, 3)))
bn.eval()
print(bn(torch.randn(1, 3)).shape)
E(lambda: nn.BatchNorm2d(3)(torch.randn(2, 3, 4)))
lstm = nn.LSTM(3, 4)
E(lambda: lstm(torch.randn(5, 2, 5)))
E(lambda: lstm(torch.randn(5, 2, 3), (torch.zeros(2, 4), torch.zeros(2, 4))))
E(lambda: lstm(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 3, 4))))
E(lambda: lstm(torch.randn(5, 2, 3), torch.zeros(1, 2, 4)))
gru = nn.GRU(3, 4)
E(lambda: gru(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4),)))
E(lambda: nn.Embedding(4, 2)(torch.tensor([[1, 4]])))
E(lambda: nn.Embedding(4, 2)(torch.tensor([-1])))
E(lambda: nn.CrossEntropyLoss()(torch.randn(2, 3), torch.tensor([3, 0])))
E(lambda: nn.NLLLoss()(torch.randn(2, 3), torch.tensor([-1, 0])))
E(lambda: nn.LayerNorm(4)(torch.randn(4, 3)))
E(lambda: nn.GroupNorm(3, 4))
E(lambda: nn.MultiheadAttention(5, 2))
'''

PROGRAMS['optimizer_misuse'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
E(lambda: torch.optim.SGD(m, lr=0.1))
x = torch.ones(2, requires_grad=True)
y = x * 2
E(lambda: torch.optim.SGD([y], lr=0.1))
E(lambda: torch.optim.Adam({'params': m.parameters()}))
E(lambda: torch.optim.SGD([{'params': m.weight}, {'lr': 0.1}], lr=0.1))
E(lambda: torch.optim.SGD(m.parameters()))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
print(opt.step())
E(lambda: opt.load_state_dict({'state': {}, 'param_groups': []}))
sd = opt.state_dict()
sd['param_groups'][0]['params'] = [0]
E(lambda: opt.load_state_dict(sd))
E(lambda: torch.optim.SGD([torch.ones(2)], lr=0.1).step())
print(torch.optim.SGD([torch.ones(2)], lr=0.1).param_groups[0]['params'])
E(lambda: torch.optim.SGD([{'params': [torch.ones(2, requires_grad=True)], 'bogus': 1}], lr=0.1).step())
E(lambda: torch.optim.Adam(m.parameters(), lr=0.1, betas=0.9))
'''

PROGRAMS['opt_state_dict_printing'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    m(torch.randn(3, 2)).sum().backward()
    opt.step()
print(opt.state_dict())
print(opt.state)
for p, st in opt.state.items():
    print(p.shape, st['step'], st['step'].dtype)
'''

PROGRAMS['optimizer_state_bytes'] = PRE + r'''
import io
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
m(torch.randn(3, 2)).sum().backward()
opt.step(); sched.step()
buf = io.BytesIO()
torch.save({'epoch': 1, 'model_state_dict': m.state_dict(), 'optimizer_state_dict': opt.state_dict(), 'sched': sched.state_dict(), 'loss': torch.tensor(0.25)}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(ck['epoch'], ck['loss'], ck['sched'])
print(ck['optimizer_state_dict'])
m2 = nn.Linear(2, 2)
m2.load_state_dict(ck['model_state_dict'])
m2.train()
print(m2.weight)
buf2 = io.BytesIO()
torch.save(m, buf2)
buf2.seek(0)
E(lambda: torch.load(buf2))
buf2.seek(0)
print(torch.load(buf2, weights_only=False))
'''

PROGRAMS['multi_task_two_heads'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.SiLU())
        self.cls = nn.Linear(8, 3)
        self.reg = nn.Linear(8, 1)
    def forward(self, x):
        h = self.body(x)
        return self.cls(h), self.reg(h).squeeze(-1)
net = TwoHead()
opt = torch.optim.RMSprop(net.parameters(), lr=0.01, weight_decay=1e-3)
X = torch.randn(10, 4); yc = torch.randint(0, 3, (10,)); yr = torch.randn(10)
for it in range(5):
    lc, lr_ = net(X)
    loss_c = F.cross_entropy(lc, yc)
    loss_r = F.smooth_l1_loss(lr_, yr)
    loss = loss_c + 0.5 * loss_r
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, f'{loss_c.item():.5f} {loss_r.item():.5f} {loss.item():.5f}')
print(loss.grad_fn, loss.grad_fn.next_functions)
print(net.reg.bias.grad, opt.state[net.reg.bias]['square_avg'])
'''

PROGRAMS['manual_training_no_optim'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.Sigmoid(), nn.Linear(5, 1))
X = torch.randn(10, 3); Y = torch.randn(10, 1)
lr = 0.1
for ep in range(4):
    loss = ((model(X) - Y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p.data -= lr * p.grad.data
    print(ep, loss.item())
for p in model.parameters():
    p.data.add_(p.grad, alpha=-lr)
print(model[2].weight, model[2].weight.grad)
for name, p in model.named_parameters():
    print(name, p.grad.norm().item())
'''

PROGRAMS['weight_tying_shared'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.out = nn.Linear(3, 5, bias=False)
        self.out.weight = self.emb.weight
    def forward(self, idx):
        return self.out(self.emb(idx))
m = Tied()
print(len(list(m.parameters())), [n for n, _ in m.named_parameters()], list(m.state_dict()))
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
y = m(torch.tensor([1, 2]))
y.sum().backward()
print(m.emb.weight.grad)
shared = nn.Linear(2, 2)
seq = nn.Sequential(shared, nn.ReLU(), shared)
print(seq, len(list(seq.parameters())), len(list(seq.modules())))
print([n for n, _ in seq.named_modules()], [n for n, _ in seq.named_modules(remove_duplicate=False)])
'''

PROGRAMS['init_student_custom'] = PRE + r'''
import math
import torch.nn as nn
torch.manual_seed(0)
class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.reset_parameters()
    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
        bound = 1 / math.sqrt(fan_in)
        nn.init.uniform_(self.bias, -bound, bound)
    def forward(self, x):
        return x @ self.weight.t() + self.bias
torch.manual_seed(5)
a = MyLinear(3, 2)
torch.manual_seed(5)
b = nn.Linear(3, 2)
print(torch.equal(a.weight, b.weight), torch.equal(a.bias, b.bias))
x = torch.randn(4, 3)
print(torch.equal(a(x), b(x)), a(x).grad_fn, b(x).grad_fn)
print(a)
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 2)))
g = torch.Generator().manual_seed(1)
print(nn.init.normal_(torch.empty(3), generator=g), nn.init.uniform_(torch.empty(2), generator=g))
'''

PROGRAMS['mixed_schedulers_with_adam_print'] = PRE + r'''
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=1e-3)
s = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=1e-5)
lrs = []
for ep in range(10):
    opt.step()
    s.step()
    lrs.append(s.get_last_lr()[0])
print([f'{v:.6e}' for v in lrs])
print(lrs[4])
s.step(2.5)
print(s.get_last_lr(), s.T_cur, s.T_i)
E(lambda: S.CosineAnnealingWarmRestarts(opt, T_0=0))
E(lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5))
m2 = S.MultiplicativeLR(torch.optim.SGD(m.parameters(), lr=1.0), lr_lambda=lambda e: 0.95)
for _ in range(3):
    m2.optimizer.step(); m2.step()
print(m2.get_last_lr())
'''

# ---- foreach and fused optimizers, full-precision training losses, float64 default dtype, reduced precision

# fixed: fused=True Adagrad (and Adam, AdamW: see fused_adam_student) took MKL's square root, as Tensor.sqrt; the fused
# CPU kernels take the vector unit's correctly rounded one, so the last bit of some parameters differed
PROGRAMS['foreach_fused_sweep'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(16, 5); y = torch.randn(16, 2)
cfgs = [('Adam', dict(fused=True)), ('AdamW', dict(fused=True, amsgrad=True)), ('SGD', dict(fused=True, momentum=0.9)),
        ('Adagrad', dict(fused=True)), ('Adam', dict(foreach=True, weight_decay=0.1)), ('RMSprop', dict(foreach=True, centered=True, momentum=0.3)),
        ('Adagrad', dict(foreach=True, lr_decay=0.01)), ('NAdam', dict(foreach=True)), ('RAdam', dict(foreach=True)),
        ('Adamax', dict(foreach=True)), ('Adadelta', dict(foreach=True)), ('ASGD', dict(foreach=True)), ('Rprop', dict(foreach=True)),
        ('SGD', dict(foreach=True, momentum=0.9, nesterov=True, weight_decay=0.01))]
for name, kw in cfgs:
    torch.manual_seed(1)
    m = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 2))
    opt = getattr(torch.optim, name)(m.parameters(), lr=0.01, **kw)
    for i in range(6):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
    print(name, kw, loss.item(), m[2].bias.tolist())
'''

PROGRAMS['conv_training_full_precision'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 3 * 3, 4))
x = torch.randn(4, 3, 8, 8); y = torch.tensor([0, 1, 2, 3])
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for i in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(i, loss.item())
print(net[0].weight.grad.sum().item(), net[2].bias.grad.tolist())
print(net(x)[0].tolist())
'''

PROGRAMS['default_dtype_float64_model'] = PRE + r'''
import torch.nn as nn
torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
print(m[0].weight.dtype, torch.tensor([1.0]).dtype, torch.randn(2).dtype)
x = torch.randn(5, 3)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
for i in range(3):
    opt.zero_grad()
    loss = m(x).pow(2).mean()
    loss.backward()
    opt.step()
    print(i, loss.item(), loss)
print(m[2].weight)
print(torch.tensor(0.1), torch.arange(3) * 0.5)
'''

PROGRAMS['bf16_half_training'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(4, 2).to(torch.bfloat16)
x = torch.randn(3, 4, dtype=torch.bfloat16)
out = m(x)
print(out, out.dtype, out.grad_fn)
loss = out.float().pow(2).sum()
loss.backward()
print(m.weight.grad)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt.step()
print(m.weight)
h = nn.Linear(4, 2).half()
xh = torch.randn(3, 4).half()
print(h(xh))
print(nn.functional.relu(xh), torch.softmax(xh, 1))
'''

PROGRAMS['adam_differentiable'] = PRE + r'''
import torch.nn as nn
w = torch.tensor([1.0, -2.0], requires_grad=True)
lr = torch.tensor(0.1, requires_grad=True)
p = w.clone()
opt = torch.optim.SGD([p], lr=0.1, differentiable=True, momentum=0.5)
print(opt.defaults['differentiable'])
p2 = torch.tensor([1.0, -2.0], requires_grad=True)
opt2 = torch.optim.Adam([p2], lr=0.1)
(p2 ** 2).sum().backward()
opt2.step()
print(p2, p2.grad)
E(lambda: opt.step())
'''

# fixed: the same, for Adam and AdamW with fused=True (a few hundred parameters: some of them differed in the last bit)
PROGRAMS['fused_adam_student'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(16, 16); Y = torch.randint(0, 4, (16,))
for cls, kw in [(torch.optim.Adam, {}), (torch.optim.AdamW, dict(weight_decay=0.05, amsgrad=True)), (torch.optim.Adagrad, dict(lr_decay=0.01))]:
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = cls(model.parameters(), lr=0.01, fused=True, **kw)
    for step in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(X), Y)
        loss.backward()
        opt.step()
    print(cls.__name__, loss.item())
    print(model[0].weight[:2, :6].tolist())
    print(model[2].weight.sum().item(), model[0].weight.sum().item())
'''

# ---- module attribute mistakes, container manipulation, grad modes as decorators, d2l-style scratch code

PROGRAMS['module_attribute_mistakes'] = PRE + r'''
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 2)
net = Net()
E(lambda: net.fc3)
E(lambda: net(torch.ones(2)))
class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
E(lambda: Forgot())
class Forgot2(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))
E(lambda: Forgot2())
class Forgot3(nn.Module):
    def __init__(self):
        self.register_buffer('b', torch.ones(1))
E(lambda: Forgot3())
lin = nn.Linear(2, 2)
E(lambda: setattr(lin, 'weight', torch.ones(2, 2)))
lin.weight = nn.Parameter(torch.ones(2, 2))
print(lin.weight)
lin.scale = torch.ones(1)
print('scale' in dict(lin.named_parameters()), lin.scale)
E(lambda: delattr(lin, 'nothing'))
print(hasattr(lin, 'bias'), getattr(lin, 'bias').shape)
'''

PROGRAMS['sequential_manipulation'] = PRE + r'''
import torch.nn as nn
from collections import OrderedDict
torch.manual_seed(0)
model = nn.Sequential(OrderedDict([('fc1', nn.Linear(2, 4)), ('act', nn.ReLU()), ('fc2', nn.Linear(4, 1))]))
print(model)
print(model.fc1, model[0] is model.fc1, len(model))
print(model[:2])
print(model[-1], type(model[1:]).__name__)
model.append(nn.Sigmoid())
E(lambda: model.insert(1, nn.BatchNorm1d(4)))
print(model)
del model[1]
print(model)
m3 = nn.Sequential(nn.Linear(2, 4), nn.ReLU())
m3.insert(1, nn.BatchNorm1d(4))
m3.insert(-1, nn.Dropout(0.1))
print(m3)
E(lambda: m3.insert(9, nn.ReLU()))
print([name for name, _ in model.named_children()])
model.extend([nn.Identity(), nn.Flatten(0)])
print(len(model), model(torch.randn(3, 2)).shape)
print(list(reversed(model))[0])
E(lambda: model[10])
E(lambda: model(torch.randn(3, 2), torch.randn(3, 2)))
m2 = nn.Sequential(nn.Linear(1, 1)) + nn.Sequential(nn.ReLU())
print(m2)
E(lambda: model.pop(1))
print(model)
'''

PROGRAMS['modulelist_ops'] = PRE + r'''
import torch.nn as nn
ml = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()])
ml2 = ml + nn.ModuleList([nn.Tanh()])
print(ml2)
print(ml[1:], ml[-1])
ml.insert(0, nn.Sigmoid())
ml.extend([nn.Identity()])
print(ml)
del ml[0]
print(len(ml), [type(m).__name__ for m in ml])
E(lambda: ml.append(3))
E(lambda: nn.ModuleList([1, 2]))
print(nn.ModuleList())
md = nn.ModuleDict([('a', nn.ReLU()), ('b', nn.Tanh())])
md.update({'c': nn.Sigmoid()})
print(md, list(md.items())[0], 'a' in md, len(md))
print(md.pop('a'), list(md.keys()))
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3)])
print(pl, type(pl[1]).__name__)
pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(1)), 'b': torch.zeros(2)})
print(pd)
'''

PROGRAMS['nograd_decorator_eval'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2))
@torch.no_grad()
def evaluate(m, x):
    out = m(x)
    print('inside', torch.is_grad_enabled(), out.requires_grad)
    return out
@torch.inference_mode()
def infer(m, x):
    return m(x)
@torch.enable_grad()
def force(m, x):
    return m(x)
x = torch.randn(4, 3)
print(evaluate(model, x).grad_fn, torch.is_grad_enabled())
o = infer(model, x)
print(o.is_inference(), o.requires_grad)
with torch.no_grad():
    print(force(model, x).grad_fn)
with torch.set_grad_enabled(False):
    print(model(x).requires_grad)
torch.set_grad_enabled(False)
print(model(x).requires_grad)
torch.set_grad_enabled(True)
print(model(x).requires_grad, model.eval() is model, model.train().training)
'''

PROGRAMS['loss_printing_and_accumulate'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
X = torch.randn(8, 2); Y = torch.randn(8, 1)
running_loss = 0.0
history = []
for i in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(X[2*i:2*i+2]), Y[2*i:2*i+2])
    loss.backward()
    opt.step()
    running_loss += loss
    history.append(loss)
print(running_loss, running_loss.grad_fn)
print(history[0].grad_fn.next_functions)
print(torch.stack(history), torch.tensor([l.item() for l in history]))
print(sum(history) / len(history))
print(f'{running_loss / 4:.4f}', f'{running_loss.item() / 4:.4f}')
print(torch.tensor(history))
'''

PROGRAMS['bce_classifier_threshold'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(3)
X = torch.randn(40, 2)
y = ((X[:, 0] + X[:, 1]) > 0).float().unsqueeze(1)
model = nn.Sequential(nn.Linear(2, 1))
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
opt = torch.optim.Adam(model.parameters(), lr=0.1, amsgrad=True)
for ep in range(30):
    logits = model(X)
    loss = crit(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
    if ep % 10 == 9:
        preds = (torch.sigmoid(logits) > 0.5).float()
        acc = (preds == y).float().mean().item()
        print(f'ep {ep+1} loss {loss.item():.6f} acc {acc:.3f}')
w = model[0].weight.squeeze()
print(w, model[0].bias, -model[0].bias / w[1])
print(torch.sigmoid(model(torch.tensor([[1.0, 1.0], [-1.0, -1.0]]))))
'''

PROGRAMS['softmax_regression_scratch'] = PRE + r'''
torch.manual_seed(0)
num_inputs, num_outputs = 6, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition
def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)
def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
X = torch.randn(12, 6); y = torch.randint(0, 3, (12,))
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], [0, 2]], cross_entropy(y_hat, torch.tensor([0, 2])))
for epoch in range(3):
    l = cross_entropy(net(X), y)
    l.sum().backward()
    sgd([W, b], 0.5, 12)
    print(f'epoch {epoch + 1}, loss {float(l.mean()):f}')
print(W.grad, b)
print(net(X).sum(1)[:3], net(X).argmax(axis=1))
'''

PROGRAMS['mlp_scratch_relu_params'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
num_inputs, num_outputs, num_hiddens = 8, 3, 16
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs))
params = [W1, b1, W2, b2]
def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)
def net(X):
    H = relu(X @ W1 + b1)
    return H @ W2 + b2
loss = nn.CrossEntropyLoss(reduction='none')
updater = torch.optim.SGD(params, lr=0.1)
X = torch.randn(10, 8); y = torch.randint(0, 3, (10,))
for ep in range(3):
    l = loss(net(X), y)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    print(ep, l.mean().item(), l.grad_fn)
print(relu(torch.tensor([-1.0, 0.0, 2.0])), W2.grad.abs().sum())
'''

PROGRAMS['dropout_scratch_d2l'] = PRE + r'''
torch.manual_seed(0)
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))
torch.manual_seed(0)
print(torch.nn.functional.dropout(X, 0.5))
print(torch.nn.functional.dropout(X, 0.5, training=False))
X.requires_grad_()
y = torch.nn.functional.dropout(X, 0.25)
y.sum().backward()
print(X.grad)
print(torch.bernoulli(torch.full((2, 4), 0.3)), torch.rand(3).bernoulli())
'''

PROGRAMS['weight_decay_scratch_l2'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
n_train, num_inputs = 20, 50
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
X = torch.normal(0, 1, (n_train, num_inputs))
y = torch.matmul(X, true_w) + true_b + torch.normal(0, 0.01, (n_train, 1))
def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2
w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lambd, lr = 3, 0.003
for epoch in range(20):
    l = ((X @ w + b - y) ** 2 / 2).mean() + lambd * l2_penalty(w)
    l.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_(); b.grad.zero_()
print('L2 norm of w:', torch.norm(w).item())
net = nn.Sequential(nn.Linear(num_inputs, 1))
for param in net.parameters():
    param.data.normal_()
trainer = torch.optim.SGD([{"params": net[0].weight, 'weight_decay': 3}, {"params": net[0].bias}], lr=lr)
for epoch in range(20):
    trainer.zero_grad()
    l = nn.MSELoss(reduction='none')(net(X), y)
    l.mean().backward()
    trainer.step()
print('L2 norm of w:', net[0].weight.norm().item())
'''

# ---- lazy modules, gradient penalty, functional_call, datasets, transformers, attention, CTC, adaptive softmax, SWA batch norm, parametrizations

PROGRAMS['lazy_linear_student'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
print(m)
print(m[0].weight)
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1).step())
out = m(torch.randn(3, 5))
print(m)
print(m[0].weight.shape, type(m[0]).__name__, out.shape)
print(sum(p.numel() for p in m.parameters()))
c = nn.LazyConv2d(3, 2)
c(torch.randn(1, 2, 4, 4))
print(c, c.in_channels)
b = nn.LazyBatchNorm1d()
b(torch.randn(4, 3))
print(b, b.running_mean)
'''

PROGRAMS['gradient_penalty_wgan'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
D = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
real = torch.randn(4, 2); fake = torch.randn(4, 2)
alpha = torch.rand(4, 1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
d_interp = D(interp)
grads = torch.autograd.grad(outputs=d_interp, inputs=interp, grad_outputs=torch.ones_like(d_interp), create_graph=True, retain_graph=True)[0]
print(grads.shape, grads.grad_fn)
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(gp)
loss = D(fake).mean() - D(real).mean() + 10 * gp
loss.backward()
print(D[0].weight.grad)
print(D[2].bias.grad)
'''

PROGRAMS['functional_call_params'] = PRE + r'''
import torch.nn as nn
from torch.func import functional_call
torch.manual_seed(0)
m = nn.Linear(3, 2)
x = torch.randn(4, 3)
params = {k: v.detach().clone().requires_grad_() for k, v in m.named_parameters()}
params['weight'] = params['weight'] * 0 + 1
out = functional_call(m, params, (x,))
print(out, out.grad_fn)
out.sum().backward()
print([k for k in params], params['bias'].grad)
print(torch.equal(m(x), out))
out2 = functional_call(m, {'bias': torch.zeros(2)}, x, strict=False)
print(out2)
E(lambda: functional_call(m, {'bias': torch.zeros(2)}, x, strict=True))
'''

PROGRAMS['datasets_concat_subset'] = PRE + r'''
from torch.utils.data import TensorDataset, ConcatDataset, Subset, DataLoader, StackDataset
from torch.utils.data import default_collate
a = TensorDataset(torch.arange(3.), torch.tensor([0, 1, 0]))
b = TensorDataset(torch.arange(10., 12.), torch.tensor([1, 1]))
c = ConcatDataset([a, b])
print(len(c), c[3], c[-1], c.cumulative_sizes)
s = Subset(c, [4, 0, 2])
print(len(s), s[0], [s[i][0].item() for i in range(len(s))])
print(next(iter(DataLoader(s, batch_size=3))))
print(default_collate([(1, 2.0, 'a'), (3, 4.0, 'b')]))
print(default_collate([{'x': torch.ones(2), 'y': 1}, {'x': torch.zeros(2), 'y': 2}]))
st = StackDataset(a, torch.arange(3))
print(st[1], len(st))
E(lambda: a[5])
E(lambda: TensorDataset(torch.ones(3), torch.ones(2)))
'''

PROGRAMS['transformer_decoder_full'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=4)
model = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8, dropout=0.0, batch_first=True)
src = torch.randn(2, 3, 4); tgt = torch.randn(2, 2, 4)
mask = model.generate_square_subsequent_mask(2)
out = model(src, tgt, tgt_mask=mask)
print(out.shape, out.grad_fn)
print(out[0])
out.sum().backward()
print(model.decoder.layers[0].multihead_attn.in_proj_weight.grad.shape)
print(sum(p.numel() for p in model.parameters()))
print(model.encoder.layers[0].self_attn)
'''

PROGRAMS['sdpa_attention_manual'] = PRE + r'''
import math
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.randn(1, 2, 3, 4, requires_grad=True); k = torch.randn(1, 2, 3, 4); v = torch.randn(1, 2, 3, 4)
out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
att = (q @ k.transpose(-2, -1)) / math.sqrt(4)
att = att.masked_fill(torch.tril(torch.ones(3, 3)) == 0, float('-inf'))
man = F.softmax(att, dim=-1) @ v
print(out[0, 0], man[0, 0], sep='\n')
print(torch.allclose(out, man, atol=1e-6), out.grad_fn, man.grad_fn)
out.sum().backward()
print(q.grad[0, 1])
m = torch.tensor([[True, False, True]])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=m)[0, 0])
'''

PROGRAMS['pixel_channel_shuffle_misc'] = PRE + r'''
import torch.nn as nn
x = torch.arange(16.).view(1, 4, 2, 2)
print(nn.PixelShuffle(2)(x))
print(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x)).equal(x))
print(nn.ChannelShuffle(2)(x)[0, :, 0, 0])
print(nn.Softmax2d()(x)[0, :, 0, 0])
print(nn.Unflatten(1, (2, 2))(x.view(1, 4, 4)).shape)
print(nn.Threshold(5.0, -1.0)(x.view(-1)))
print(nn.Softmin(dim=0)(torch.tensor([1., 2.])), nn.LogSigmoid()(torch.tensor([0.])), nn.Softsign()(torch.tensor([1.])))
print(nn.Tanhshrink()(torch.tensor([1.])), nn.Softshrink(0.5)(torch.tensor([-1., 0.2])), nn.Hardshrink()(torch.tensor([0.4, 0.6])))
print(nn.GLU()(torch.tensor([[1., 2., 3., 4.]])), nn.RReLU(0.1, 0.3).eval()(torch.tensor([-1.])))
print(nn.ZeroPad2d(1)(torch.ones(1, 1, 1, 1)).shape, nn.ReflectionPad1d(1)(torch.tensor([[[1., 2., 3.]]])), nn.ReplicationPad1d((0, 2))(torch.tensor([[[1., 2.]]])))
'''

PROGRAMS['ctc_loss_small'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
T, C, N, S = 6, 4, 2, 3
logp = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
il = torch.full((N,), T, dtype=torch.long)
tl = torch.tensor([3, 2])
ctc = nn.CTCLoss()
loss = ctc(logp, targets, il, tl)
loss.backward()
print(loss, loss.grad_fn)
print(logp.grad[0])
print(nn.CTCLoss(reduction='none', zero_infinity=True)(logp, targets, il, tl))
print(nn.CTCLoss(reduction='sum')(logp, targets, il, tl))
'''

PROGRAMS['adaptive_log_softmax'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[4, 8], div_value=2.0)
print(asm)
x = torch.randn(5, 8)
y = torch.tensor([0, 3, 5, 9, 7])
out = asm(x, y)
print(out.output, out.loss)
print(asm.log_prob(x).shape, asm.predict(x))
out.loss.backward()
print(asm.head.weight.grad.shape)
E(lambda: asm(x, torch.tensor([0, 1, 2, 3, 10])))
'''

PROGRAMS['update_bn_swa'] = PRE + r'''
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, update_bn, get_ema_multi_avg_fn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
loader = [torch.randn(4, 2) for _ in range(3)]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for xb in loader:
    opt.zero_grad(); model(xb).pow(2).mean().backward(); opt.step()
    ema.update_parameters(model)
print(ema.module[0].bias, ema.n_averaged)
update_bn(loader, ema)
print(ema.module[1].running_mean, ema.module[1].running_var, ema.module[1].momentum)
'''

PROGRAMS['register_parametrization_custom'] = PRE + r'''
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
torch.manual_seed(0)
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
print(layer)
W = layer.weight
print(torch.equal(W, W.T), parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, 'bias'))
print([n for n, _ in layer.named_parameters()])
layer(torch.randn(2, 3)).sum().backward()
print(layer.parametrizations.weight.original.grad)
with parametrize.cached():
    print(layer.weight is layer.weight)
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print([n for n, _ in layer.named_parameters()], type(layer.weight).__name__)
'''

PROGRAMS['optimizer_zero_grad_details'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
y = m(torch.ones(1, 2)).sum()
y.backward(create_graph=True)
print(m.weight.grad.grad_fn is not None, m.weight.grad.requires_grad)
E(lambda: opt.zero_grad(set_to_none=False))
print(m.weight.grad)
opt.zero_grad()
print(m.weight.grad)
x = torch.ones(2, requires_grad=True)
v = x.expand(3, 2)
(v * 2).sum().backward()
g = x.grad
v2 = torch.ones(3, 2, requires_grad=True)
v2.grad = torch.ones(3, 2)[:, 0:1].expand(3, 2)
opt2 = torch.optim.SGD([v2], lr=0.1)
opt2.zero_grad(set_to_none=False)
print(v2.grad, v2.grad.stride())
'''

# ---- MNIST-sized training loops printed at full precision

PROGRAMS['mnist_sized_mlp_full_precision'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
X = torch.rand(64, 1, 28, 28); Y = torch.randint(0, 10, (64,))
for i in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    print(i, loss.item())
print(model[1].weight.grad.sum().item(), model[3].weight.grad.abs().sum().item())
print(model(X[:1]).tolist())
'''

PROGRAMS['reductions_full_precision'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(1000) * 3 + 1
print(x.sum().item(), x.mean().item(), x.var().item(), x.std().item(), x.norm().item())
m = torch.randn(37, 53)
print(m.sum(0)[:3].tolist(), m.mean(1)[:3].tolist(), m.std(0, unbiased=False)[:2].tolist())
print(m.logsumexp(1)[:3].tolist(), torch.log_softmax(m, 1)[0, :3].tolist())
print(torch.nn.functional.layer_norm(m, (53,))[0, :3].tolist())
print(m.pow(2).sum().sqrt().item(), torch.linalg.vector_norm(m).item(), m.abs().max().item())
b = torch.nn.BatchNorm1d(53)
print(b(m)[0, :3].tolist(), b.running_var[:3].tolist())
'''

PROGRAMS['cnn_mnist_sized_batch'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.fc1 = nn.Linear(8 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, 10)
    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)
model = Net()
model.eval()
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
X = torch.rand(4, 1, 12, 12); Y = torch.randint(0, 10, (4,))
for i in range(3):
    opt.zero_grad()
    out = model(X)
    loss = F.nll_loss(out, Y)
    loss.backward()
    opt.step(); sched.step()
    print(i, loss.item(), sched.get_last_lr())
with torch.no_grad():
    out = model(X)
    print(F.nll_loss(out, Y, reduction='sum').item(), out.argmax(dim=1, keepdim=True).eq(Y.view_as(out.argmax(dim=1, keepdim=True))).sum().item())
'''

# ---- reprs of many modules and of every optimizer

PROGRAMS['module_repr_sweep'] = PRE + r'''
import torch.nn as nn
mods = [nn.Conv2d(1, 2, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1), bias=False), nn.Conv1d(2, 4, 3, groups=2, padding_mode='replicate', padding=1),
        nn.Conv3d(1, 1, 2), nn.ConvTranspose1d(2, 3, 3, output_padding=1, stride=2), nn.ConvTranspose2d(1, 1, 3, dilation=2, groups=1, bias=False),
        nn.LSTM(3, 4, proj_size=2), nn.GRU(3, 4, bidirectional=True, num_layers=2, dropout=0.1), nn.RNN(2, 3, nonlinearity='relu', bias=False),
        nn.MaxPool2d(3, 2, 1, ceil_mode=True), nn.MaxPool1d(2, dilation=2, return_indices=True), nn.AvgPool2d(2, count_include_pad=False, divisor_override=2),
        nn.AdaptiveMaxPool2d((None, 3)), nn.AdaptiveAvgPool1d(4), nn.LPPool2d(2, 3), nn.FractionalMaxPool2d(3, output_size=2),
        nn.Upsample(size=(4, 4), mode='bicubic'), nn.UpsamplingNearest2d(scale_factor=3), nn.UpsamplingBilinear2d(size=5),
        nn.Embedding(10, 3, max_norm=2.0, norm_type=1.0, padding_idx=-1), nn.EmbeddingBag(5, 2, mode='sum', include_last_offset=True),
        nn.TransformerEncoderLayer(4, 2, 8, norm_first=True, activation='gelu'), nn.MultiheadAttention(4, 2, kdim=3, vdim=5, bias=False),
        nn.GroupNorm(2, 4, eps=1e-3, affine=False), nn.InstanceNorm2d(3, affine=True, track_running_stats=True), nn.LocalResponseNorm(2),
        nn.BatchNorm3d(2, eps=1e-3, momentum=None), nn.LayerNorm((2, 3), eps=1e-6), nn.RMSNorm([4], eps=None),
        nn.Hardtanh(-2, 2, inplace=True), nn.Softplus(2, 10), nn.ELU(0.5, True), nn.PReLU(3, 0.1), nn.Threshold(0.1, 0), nn.CELU(2.0),
        nn.LeakyReLU(inplace=True), nn.GELU('tanh'), nn.Softmax(), nn.LogSoftmax(dim=None), nn.Hardswish(inplace=True), nn.SiLU(True),
        nn.Dropout(0.3, inplace=True), nn.Dropout1d(0.1), nn.FeatureAlphaDropout(0.2), nn.Flatten(2, -2), nn.Unflatten(-1, [2, 2]),
        nn.Bilinear(2, 3, 4, bias=False), nn.Identity(3, x=4), nn.CosineSimilarity(0, 1e-6), nn.PairwiseDistance(1.0, keepdim=True),
        nn.CrossEntropyLoss(ignore_index=2, reduction='sum'), nn.NLLLoss(weight=torch.ones(2)), nn.MarginRankingLoss(0.5), nn.TripletMarginLoss(p=1, swap=True),
        nn.CTCLoss(blank=1, zero_infinity=True), nn.PoissonNLLLoss(log_input=False, full=True), nn.GaussianNLLLoss(full=True, eps=1e-3),
        nn.Fold(4, 2), nn.Unfold(2, dilation=2, padding=1, stride=2), nn.CircularPad2d(1), nn.ZeroPad1d((1, 2)), nn.ConstantPad3d(1, 3.5)]
for m in mods:
    print(m)
'''

PROGRAMS['optimizer_repr_sweep'] = PRE + r'''
import torch.nn as nn
p = [nn.Parameter(torch.ones(2))]
for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad, torch.optim.Adadelta, torch.optim.Adamax,
            torch.optim.NAdam, torch.optim.RAdam, torch.optim.ASGD, torch.optim.Rprop, torch.optim.LBFGS, torch.optim.SparseAdam):
    try:
        opt = cls(p, lr=0.01)
    except Exception as e:
        print(cls.__name__, type(e).__name__, e)
        continue
    print(opt)
    print(sorted(opt.defaults) == sorted(opt.param_groups[0].keys() - {'params'}), opt.param_groups[0].get('initial_lr'))
'''

# ---- device boilerplate, the quickstart tutorial end to end, logging, feature extraction with hooks, fine-tuning

PROGRAMS['device_boilerplate'] = PRE + r'''
import torch.nn as nn
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
device2 = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print(device2, torch.cuda.device_count(), torch.accelerator.device_count())
torch.manual_seed(0)
model = nn.Linear(2, 2).to(device)
x = torch.randn(3, 2, device=device)
print(model(x).device, next(model.parameters()).device, x.is_cuda, x.device.type)
print(x.to(device) is x, x.cpu() is x, x.to('cpu', torch.float64).dtype)
E(lambda: x.cuda())
E(lambda: torch.zeros(1, device='cuda'))
E(lambda: model.to('cuda'))
print(torch.device(device), torch.device('cpu', 0), torch.get_default_device())
print(torch.cuda.is_available(), torch.backends.cudnn.enabled, torch.backends.mps.is_built())
'''

PROGRAMS['tutorial_quickstart_full'] = PRE + r'''
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
training_data = TensorDataset(torch.rand(40, 1, 4, 4), torch.randint(0, 3, (40,)))
test_data = TensorDataset(torch.rand(12, 1, 4, 4), torch.randint(0, 3, (12,)))
batch_size = 16
train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)
for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break
device = "cpu"
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3))
    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))
model = NeuralNetwork().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(2):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
print("Saved PyTorch Model State to model.pth")
model2 = NeuralNetwork().to(device)
buf.seek(0)
print(model2.load_state_dict(torch.load(buf, weights_only=True)))
classes = ["a", "b", "c"]
model2.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    pred = model2(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
'''

PROGRAMS['tensorboard_free_logging'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(10, 3); Y = torch.randn(10, 1)
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    grad_norms = {n: p.grad.norm().item() for n, p in model.named_parameters()}
    total = torch.norm(torch.stack([p.grad.norm(2) for p in model.parameters()]), 2)
    opt.step()
    print(step, {k: round(v, 5) for k, v in grad_norms.items()}, total)
    for n, p in model.named_parameters():
        if 'weight' in n:
            print(' ', n, p.data.mean().item(), p.data.std().item(), p.data.min(), p.data.max())
print(model.state_dict()['0.weight'].numpy().round(3))
'''

PROGRAMS['hooks_feature_extraction'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=3)
model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 2))
features = {}
def get_activation(name):
    def hook(model, input, output):
        features[name] = output.detach()
    return hook
model[1].register_forward_hook(get_activation('relu'))
grads = {}
model[0].weight.register_hook(lambda g: grads.setdefault('w', g))
x = torch.randn(2, 1, 6, 6)
out = model(x)
out[:, 1].sum().backward()
print(features['relu'].shape, (features['relu'] > 0).float().mean())
print(grads['w'])
print(torch.equal(grads['w'], model[0].weight.grad))
saliency_x = x.clone().requires_grad_()
score = model(saliency_x)[0].max()
score.backward()
print(saliency_x.grad.abs().amax(dim=1)[0])
'''

PROGRAMS['finetune_param_groups_freeze'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
head = nn.Linear(8, 2)
model = nn.Sequential(backbone, head)
for p in backbone[0].parameters():
    p.requires_grad = False
opt = torch.optim.SGD([
    {'params': [p for p in backbone.parameters() if p.requires_grad], 'lr': 1e-3},
    {'params': head.parameters()}], lr=1e-2, momentum=0.9)
print([len(g['params']) for g in opt.param_groups], [g['lr'] for g in opt.param_groups])
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1], gamma=0.1)
X = torch.randn(6, 4); y = torch.tensor([0, 1, 0, 1, 1, 0])
for ep in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), y)
    loss.backward()
    opt.step(); sched.step()
    print(ep, round(loss.item(), 6), [g['lr'] for g in opt.param_groups])
print(backbone[0].weight.grad, backbone[2].weight.grad.shape)
for p in backbone.parameters():
    p.requires_grad_(True)
opt.add_param_group({'params': backbone[0].parameters(), 'lr': 1e-4})
print(len(opt.param_groups), opt.param_groups[2]['momentum'], opt.param_groups[2].get('initial_lr'))
'''

# ---- DataParallel on a machine without GPUs, DataLoader options, random_split

# fixed: nn.DataParallel was missing (AttributeError); on a machine without GPUs PyTorch's wraps the module and runs it
PROGRAMS['data_parallel_cpu_state_dict'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
if torch.cuda.device_count() > 1:
    print("Let's use", torch.cuda.device_count(), "GPUs!")
dp = nn.DataParallel(model)
print(dp)
print(type(dp), dp.device_ids, dp.module is model)
E(lambda: dp.dim)
x = torch.randn(4, 3)
out = dp(x)
print(out.grad_fn, torch.equal(out, model(x)))
sd = dp.state_dict()
print(list(sd))
plain = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
E(lambda: plain.load_state_dict(sd))
print(plain.load_state_dict({k.removeprefix('module.'): v for k, v in sd.items()}))
print(dp.module.state_dict().keys())
opt = torch.optim.SGD(dp.parameters(), lr=0.1)
dp(x).sum().backward()
opt.step()
print(model[0].bias)
from torch.nn.parallel import data_parallel
E(lambda: data_parallel(model, x))
'''

PROGRAMS['dataloader_options_student'] = PRE + r'''
from torch.utils.data import DataLoader, TensorDataset, SequentialSampler, RandomSampler
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.), torch.arange(10) % 3)
dl = DataLoader(ds, batch_size=4, pin_memory=True)
print([b[1].tolist() for b in dl])
E(lambda: DataLoader(ds, sampler=SequentialSampler(ds), shuffle=True))
E(lambda: DataLoader(ds, batch_size=0))
E(lambda: DataLoader(ds, batch_size=2, drop_last=True, batch_sampler=[[0, 1]]))
print([b for b in DataLoader(ds, batch_size=None)][:2])
dl2 = DataLoader(ds, batch_size=3, sampler=RandomSampler(ds, generator=torch.Generator().manual_seed(0)))
print([b[0].tolist() for b in dl2])
print(len(dl), len(dl2), dl.batch_size, dl.drop_last, dl.num_workers)
it = iter(dl)
print(next(it)[0], next(it)[0])
E(lambda: DataLoader(ds, num_workers=-1))
E(lambda: DataLoader(ds, prefetch_factor=2))
print(type(dl.sampler).__name__, type(dl.batch_sampler).__name__)
'''

PROGRAMS['random_split_fractions'] = PRE + r'''
from torch.utils.data import random_split, TensorDataset
ds = TensorDataset(torch.arange(7))
torch.manual_seed(0)
a, b, c = random_split(ds, [0.5, 0.3, 0.2])
print(len(a), len(b), len(c), a.indices, b.indices, c.indices)
d, e = random_split(range(5), [0.99, 0.01], generator=torch.Generator().manual_seed(2))
print(list(d), list(e))
E(lambda: random_split(ds, [3, 3]))
E(lambda: random_split(ds, [0.5, 0.6]))
f, g = random_split(range(10), [8, 2])
print(f.indices, g.indices, f.dataset)
'''

# ---- scheduler misuse, pickled optimizers, tensor learning rates, named parameters in optimizers

PROGRAMS['scheduler_misuse_errors'] = PRE + r'''
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
E(lambda: S.StepLR(m, step_size=1))
E(lambda: S.StepLR(opt))
p = S.ReduceLROnPlateau(opt)
E(lambda: p.step())
E(lambda: S.LambdaLR(opt, lr_lambda=0.5))
E(lambda: S.MultiStepLR(opt, milestones=5))
E(lambda: S.OneCycleLR(opt, max_lr=0.1))
E(lambda: S.OneCycleLR(opt, max_lr=0.1, total_steps=10, anneal_strategy='exp'))
E(lambda: S.LinearLR(opt, start_factor=0))
E(lambda: S.ConstantLR(opt, factor=2))
E(lambda: S.CosineAnnealingLR(opt))
E(lambda: S.ExponentialLR(opt))
E(lambda: torch.optim.LBFGS(m.parameters()).step())
E(lambda: S.SequentialLR(opt, [S.StepLR(opt, 1)], milestones=[]))
E(lambda: S.ChainedScheduler([]))
E(lambda: S.PolynomialLR(opt, total_iters=0))
print(opt.param_groups[0]['lr'])
'''

PROGRAMS['cosine_tmax_zero_and_pickle'] = PRE + r'''
import pickle
import torch.nn as nn
from torch.optim import lr_scheduler as S
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = S.CosineAnnealingLR(opt, T_max=1)
for i in range(3):
    opt.step(); s.step()
    print(i, s.get_last_lr())
opt2 = torch.optim.Adam(m.parameters(), lr=0.01)
sd = opt2.state_dict()
blob = pickle.dumps(sd)
print(pickle.loads(blob))
opt3 = pickle.loads(pickle.dumps(opt2))
print(opt3)
print(opt3.param_groups[0]['params'][0].shape)
'''

PROGRAMS['lr_as_tensor_and_dict_params'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=torch.tensor(0.01))
print(opt.param_groups[0]['lr'])
m(torch.ones(1, 2)).sum().backward()
opt.step()
print(m.bias)
E(lambda: torch.optim.SGD(m.parameters(), lr=torch.tensor([0.1, 0.2])))
E(lambda: torch.optim.Adam(m.parameters(), lr=torch.tensor(0.01), foreach=True))
opt2 = torch.optim.SGD(m.named_parameters(), lr=0.1)
print(opt2.param_groups[0]['param_names'])
print(opt2.state_dict()['param_groups'])
E(lambda: torch.optim.SGD([{'params': m.weight}, {'params': list(m.named_parameters())[1:]}], lr=0.1))
'''

# ---- full-precision training of GRU, transformer and distillation models; attention

PROGRAMS['gru_classifier_full'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(20, 6)
gru = nn.GRU(6, 5, batch_first=True, num_layers=2)
fc = nn.Linear(5, 2)
params = list(emb.parameters()) + list(gru.parameters()) + list(fc.parameters())
opt = torch.optim.RMSprop(params, lr=0.01)
X = torch.randint(0, 20, (6, 7)); y = torch.tensor([0, 1, 1, 0, 1, 0])
for ep in range(4):
    opt.zero_grad()
    out, h = gru(emb(X))
    loss = nn.functional.cross_entropy(fc(h[-1]), y)
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(ep, loss.item())
print(gru.weight_ih_l1.grad.abs().sum().item(), emb.weight.grad.sum().item())
'''

PROGRAMS['transformer_block_full'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))
model = nn.Sequential(Block(8), nn.LayerNorm(8))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
x = torch.randn(3, 5, 8); target = torch.randn(3, 5, 8)
for i in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), target)
    loss.backward()
    opt.step()
    print(i, loss.item())
print(model[0].attn.in_proj_weight.grad.sum().item(), model[0].mlp[0].bias.grad[:3].tolist())
'''

PROGRAMS['distillation_kl_temperature'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Linear(4, 3)
opt = torch.optim.SGD(student.parameters(), lr=0.5)
X = torch.randn(10, 4); y = torch.randint(0, 3, (10,))
T, alpha = 2.0, 0.7
for ep in range(4):
    with torch.no_grad():
        t_logits = teacher(X)
    s_logits = student(X)
    soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1), reduction='batchmean') * T * T
    hard = F.cross_entropy(s_logits, y)
    loss = alpha * soft + (1 - alpha) * hard
    opt.zero_grad(); loss.backward(); opt.step()
    print(ep, soft.item(), hard.item(), loss.item())
print(student.weight.grad)
'''

PROGRAMS['text_classifier_embedding_bag'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(1)
class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()
    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))
model = TextClassificationModel(30, 8, 4)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
text = torch.randint(0, 30, (20,)); offsets = torch.tensor([0, 3, 9, 12, 17]); label = torch.tensor([0, 1, 2, 3, 1])
for epoch in range(3):
    optimizer.zero_grad()
    predicted_label = model(text, offsets)
    loss = criterion(predicted_label, label)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    acc = (predicted_label.argmax(1) == label).sum().item()
    print(epoch, f'{loss.item():.8f}', acc, scheduler.get_last_lr())
    scheduler.step()
print(model.embedding.weight[text[0]])
'''

# fixed: F.scaled_dot_product_attention's fused CPU node computed with NumPy: last bits differed from PyTorch's
# flash kernel (its MKL gemm calls, glibc's expf, the reciprocal of the row sums, SLEEF's exp in the backward)
PROGRAMS['sdpa_causal_full_precision'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.randn(2, 2, 5, 4, requires_grad=True)
k = torch.randn(2, 2, 5, 4, requires_grad=True)
v = torch.randn(2, 2, 5, 4, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(out.grad_fn)
print(out[1, 0].tolist())
out.pow(2).sum().backward()
print(q.grad[0, 1].tolist(), k.grad[1, 1, 0].tolist(), v.grad.sum().item())
pad = torch.tensor([[True, True, True, False, False]])
out2 = F.scaled_dot_product_attention(q, k, v, attn_mask=pad)
print(out2[0, 0, 4].tolist())
'''

# fixed: the same for longer sequences (the kernel's vector exp and lane sums) inside a TransformerEncoderLayer
PROGRAMS['encoder_layer_seq20_full_precision'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
opt = torch.optim.Adam(layer.parameters(), lr=1e-3)
x = torch.randn(2, 20, 16); target = torch.randn(2, 20, 16)
mask = nn.Transformer.generate_square_subsequent_mask(20)
for step in range(2):
    opt.zero_grad()
    loss = nn.functional.mse_loss(layer(x, src_mask=mask, is_causal=True), target)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(layer.self_attn.in_proj_weight.grad.sum().item(), layer.linear1.bias.grad[:3].tolist())
'''

# ---- load_state_dict(assign=True), torch.device as a context, .data assignment, backward pre-hooks, packed sequences

# fixed: ``with torch.device('cpu'):`` raised TypeError ('device' object does not support the context manager protocol)
PROGRAMS['load_state_dict_assign_to_empty'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
src = nn.Linear(2, 2)
dst = nn.Linear(2, 2)
sd = {k: v.clone() for k, v in src.state_dict().items()}
r = dst.load_state_dict(sd, assign=True)
print(r, type(dst.weight).__name__, dst.weight.requires_grad, dst.weight.data_ptr() == sd['weight'].data_ptr())
with torch.device('cpu') as dev:
    m = nn.Linear(3, 1)
    print(dev, torch.get_default_device(), torch.zeros(2).device)
print(m.weight.device, m.weight.shape)
m2 = m.to_empty(device='cpu')
print(m2.weight.device, m2.weight.shape)
m3 = nn.utils.skip_init(nn.Linear, 2, 3)
print(m3.weight.shape, m3.bias.shape)
print(src.requires_grad_(False) is src, src.weight.requires_grad)
print(src.share_memory() is src)
'''

PROGRAMS['data_assign_shape_change'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
m.weight.data = torch.ones(3, 2)
print(m.weight.shape, m)
E(lambda: m(torch.ones(1, 2)))
m.bias.data = torch.zeros(3)
print(m(torch.ones(1, 2)))
p = nn.Parameter(torch.ones(2))
E(lambda: setattr(p, 'data', [1, 2]))
p.data = torch.zeros(2, dtype=torch.float64)
print(p, p.dtype)
w = m.weight
w.data.mul_(2)
print(m.weight)
with torch.no_grad():
    m.weight.copy_(torch.full((3, 2), 0.5))
    m.weight[0, 0] = 7
print(m.weight, m.weight.requires_grad, m.weight.grad_fn)
E(lambda: m.weight.copy_(torch.zeros(3, 2)))
'''

PROGRAMS['backward_pre_hook_module'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
def pre(mod, grad_output):
    print('bw pre', type(mod).__name__, [g.shape for g in grad_output])
    return (grad_output[0] * 10,)
h = m[1].register_full_backward_pre_hook(pre)
m[0].register_full_backward_hook(lambda mod, gi, go: print('bw', [None if g is None else g.shape for g in gi], go[0]))
x = torch.randn(3, 2)
m(x).sum().backward()
print(m[0].bias.grad)
h.remove()
m.zero_grad()
m(x).sum().backward()
print(m[0].bias.grad)
x2 = torch.randn(3, 2, requires_grad=True)
m(x2).sum().backward()
print(x2.grad)
'''

PROGRAMS['pack_sequence_gru_unsorted'] = PRE + r'''
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, unpack_sequence, unpad_sequence, pad_sequence
torch.manual_seed(0)
torch.set_printoptions(precision=4)
seqs = [torch.randn(2, 3), torch.randn(4, 3), torch.randn(1, 3)]
E(lambda: pack_sequence(seqs))
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices)
gru = nn.GRU(3, 2)
out, h = gru(packed)
print(type(out).__name__, h)
print([s.shape for s in unpack_sequence(out)])
padded = pad_sequence(seqs, padding_value=-1.0)
print(padded.shape, padded[:, 2, 0])
print([t.shape for t in unpad_sequence(padded, torch.tensor([2, 4, 1]))])
print(pad_sequence(seqs, batch_first=True, padding_side='left')[0, :, 0])
'''

# ---- repeated-module reprs, OneCycleLR with Adam, sparse embeddings with SparseAdam, optimizer state after add_param_group, clipping mixed dtypes

PROGRAMS['repeated_modules_repr'] = PRE + r'''
import torch.nn as nn
layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)] + [nn.ReLU(), nn.ReLU()] + [nn.Linear(4, 2)])
print(layers)
print(nn.Sequential(*[nn.Sequential(nn.Linear(2, 2), nn.Tanh()) for _ in range(4)]))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), num_layers=3, enable_nested_tensor=False)
print(str(enc).count('\n'), str(enc).splitlines()[:4])
'''

PROGRAMS['onecycle_adam_betas'] = PRE + r'''
import torch.nn as nn
from torch.optim.lr_scheduler import OneCycleLR
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=1e-3)
s = OneCycleLR(opt, max_lr=0.01, total_steps=6, pct_start=0.5)
for i in range(5):
    opt.step(); s.step()
    g = opt.param_groups[0]
    print(i, round(g['lr'], 9), tuple(round(b, 9) for b in g['betas']), sorted(k for k in g if k not in ('params',)))
print(sorted(s.state_dict()))
'''

PROGRAMS['sparse_embedding_sparseadam'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(6, 3, sparse=True)
lin = nn.Linear(3, 1)
opt_sparse = torch.optim.SparseAdam(list(emb.parameters()), lr=0.1)
opt_dense = torch.optim.Adam(lin.parameters(), lr=0.1)
idx = torch.tensor([[0, 2], [2, 5]])
for step in range(3):
    opt_sparse.zero_grad(); opt_dense.zero_grad()
    loss = lin(emb(idx).mean(1)).pow(2).sum()
    loss.backward()
    print(step, loss.item(), emb.weight.grad.is_sparse, emb.weight.grad._nnz())
    opt_sparse.step(); opt_dense.step()
print(emb.weight)
E(lambda: torch.optim.Adam(emb.parameters()).step())
E(lambda: torch.optim.SparseAdam(lin.parameters()).step())
'''

PROGRAMS['state_dict_after_add_group'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
a = nn.Linear(2, 2); b = nn.Linear(2, 1)
opt = torch.optim.SGD(a.parameters(), lr=0.1, momentum=0.9)
a(torch.ones(1, 2)).sum().backward(); opt.step()
opt.add_param_group({'params': b.parameters(), 'lr': 0.01})
b(torch.ones(1, 2)).sum().backward(); opt.step()
sd = opt.state_dict()
print(sd['param_groups'])
print(sorted(sd['state']), sd['state'][2])
opt2 = torch.optim.SGD(a.parameters(), lr=0.1, momentum=0.9)
E(lambda: opt2.load_state_dict(sd))
'''

PROGRAMS['clip_grad_mixed_dtypes'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
p1 = nn.Parameter(torch.randn(3)); p2 = nn.Parameter(torch.randn(2, dtype=torch.float64))
(p1.sum() * 3 + p2.pow(2).sum()).backward()
tn = nn.utils.clip_grad_norm_([p1, p2], 1.0)
print(tn, tn.dtype, p1.grad, p2.grad)
p3 = nn.Parameter(torch.randn(2))
p3.grad = torch.tensor([float('inf'), 1.0])
print(nn.utils.clip_grad_norm_([p3], 1.0), p3.grad)
print(nn.utils.clip_grad_norm_([p1], 0.5, norm_type=0.5), p1.grad)
'''


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
