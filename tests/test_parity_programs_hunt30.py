"""Parity programs from a thirtieth hunt: the small training loops a student writes after the autograd chapter.

Seeded synthetic data (``randn``/``rand``/``randint``/``randperm``, ``normal_``/``uniform_``/``bernoulli``/
``multinomial``, ``torch.Generator``), tiny models (``Linear``/``Sequential``/custom modules, small convolutions,
``Embedding``, recurrent layers, normalization and dropout in train and eval), the losses, the optimizers (momentum,
Nesterov, weight decay, AMSGrad, LBFGS with a closure, parameter groups), the learning-rate schedulers and their
chains, gradient clipping, freezing, state dicts and accuracy computations, printed step by step at the default
print precision. Each program must print exactly what PyTorch prints (hunt14's harness: ``parity.run_both`` with
hunt13's ``E``/``W`` helpers, every warning also printed on stdout). Programs marked "fixed:" printed something
different from PyTorch before this hunt's fixes (all in ``minigrad/_conv_bits.py``).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- regression and classification with Linear / Sequential / custom modules

PROGRAMS['linreg_sgd_nesterov_wd'] = PRE + r'''
torch.manual_seed(0)
X = torch.randn(32, 3)
w_true = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ w_true + 0.1 * torch.randn(32, 1)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3)
loss_fn = torch.nn.MSELoss()
for step in range(6):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item(), loss)
print(model.weight, model.bias)
print(model.weight.grad)
print(opt.state[model.weight]['momentum_buffer'])
'''

PROGRAMS['mlp_ce_label_smoothing_adamw_amsgrad'] = PRE + r'''
torch.manual_seed(1)
X = torch.randn(24, 4)
y = torch.randint(0, 3, (24,))
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
opt = torch.optim.AdamW(model.parameters(), lr=0.01, amsgrad=True, weight_decay=0.05)
crit = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
for epoch in range(5):
    opt.zero_grad()
    out = model(X)
    loss = crit(out, y)
    loss.backward()
    opt.step()
    acc = (out.argmax(dim=1) == y).float().mean()
    print(f"epoch {epoch}: loss={loss.item():.6f} acc={acc.item():.4f}", acc)
print(model[2].bias)
st = opt.state_dict()['state'][0]
print(sorted(st), st['step'], st['max_exp_avg_sq'][0])
'''

PROGRAMS['custom_module_weighted_ce_rmsprop'] = PRE + r'''
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(5, 6)
        self.fc2 = torch.nn.Linear(6, 4)
        self.scale = torch.nn.Parameter(torch.ones(1))
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * self.scale
torch.manual_seed(2)
net = Net()
X = torch.rand(16, 5)
y = torch.randint(0, 4, (16,))
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
crit = torch.nn.CrossEntropyLoss(weight=w)
opt = torch.optim.RMSprop(net.parameters(), lr=0.01, alpha=0.9, momentum=0.5, centered=True)
for i in range(4):
    opt.zero_grad()
    loss = crit(net(X), y)
    loss.backward()
    opt.step()
    print(i, loss)
print(net.scale, net.scale.grad)
print([k for k in net.state_dict()])
print(opt.state[net.scale])
'''

PROGRAMS['logistic_bce_logits_pos_weight_adagrad'] = PRE + r'''
g = torch.Generator().manual_seed(3)
X = torch.randn(40, 2, generator=g)
y = (X[:, 0] + X[:, 1] > 0).float().unsqueeze(1)
torch.manual_seed(3)
model = torch.nn.Linear(2, 1)
crit = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
opt = torch.optim.Adagrad(model.parameters(), lr=0.1, initial_accumulator_value=0.1)
for step in range(5):
    opt.zero_grad()
    logits = model(X)
    loss = crit(logits, y)
    loss.backward()
    opt.step()
    pred = (torch.sigmoid(logits) > 0.5).float()
    print(step, round(loss.item(), 6), (pred == y).sum().item(), pred.eq(y).float().mean())
print(model.state_dict())
print(opt.state[model.bias]['sum'])
'''

PROGRAMS['bce_sigmoid_manual_adam'] = PRE + r'''
torch.manual_seed(4)
X = torch.rand(20, 3)
y = torch.bernoulli(torch.full((20, 1), 0.4))
print(y.view(-1))
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1), torch.nn.Sigmoid())
opt = torch.optim.Adam(model.parameters(), lr=0.02, betas=(0.8, 0.99), eps=1e-6)
bce = torch.nn.BCELoss()
for step in range(5):
    p = model(X)
    loss = bce(p, y)
    opt.zero_grad(set_to_none=False)
    loss.backward()
    opt.step()
    print(step, loss, p[:3].detach().view(-1))
print(model[0].weight.grad)
print(opt.param_groups[0]['betas'], opt.param_groups[0]['eps'])
'''

PROGRAMS['l1_smoothl1_huber_compare'] = PRE + r'''
torch.manual_seed(5)
x = torch.linspace(-2, 2, 16).unsqueeze(1)
y = 3 * x + 0.5 + torch.randn(16, 1) * 0.3
y[3] = 10.0
for name, crit in [('l1', torch.nn.L1Loss()), ('smooth', torch.nn.SmoothL1Loss(beta=0.5)),
                   ('huber', torch.nn.HuberLoss(delta=0.5))]:
    torch.manual_seed(0)
    m = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for _ in range(8):
        opt.zero_grad()
        loss = crit(m(x), y)
        loss.backward()
        opt.step()
    print(name, loss, m.weight.item(), m.bias.item())
    print(crit)
'''

PROGRAMS['nll_logsoftmax_nadam_radam'] = PRE + r'''
torch.manual_seed(6)
X = torch.randn(18, 4)
y = torch.randint(0, 3, (18,))
for cls, kw in [(torch.optim.NAdam, dict(lr=0.01, momentum_decay=0.004)),
                (torch.optim.RAdam, dict(lr=0.01, decoupled_weight_decay=True, weight_decay=0.01)),
                (torch.optim.Adamax, dict(lr=0.02))]:
    torch.manual_seed(1)
    m = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3), torch.nn.LogSoftmax(dim=1))
    opt = cls(m.parameters(), **kw)
    losses = []
    for _ in range(7):
        opt.zero_grad()
        loss = torch.nn.functional.nll_loss(m(X), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(cls.__name__, [round(v, 5) for v in losses])
    print(m[2].weight[0])
    print(list(opt.state[m[2].bias].keys()))
'''

PROGRAMS['adadelta_regression_print_state'] = PRE + r'''
torch.manual_seed(7)
X = torch.empty(12, 2).uniform_(-1, 1)
y = (X ** 2).sum(1, keepdim=True)
m = torch.nn.Sequential(torch.nn.Linear(2, 6), torch.nn.Sigmoid(), torch.nn.Linear(6, 1))
opt = torch.optim.Adadelta(m.parameters(), lr=1.0, rho=0.8)
for step in range(6):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
sd = opt.state_dict()
print(sd['param_groups'])
print(sd['state'][3])
'''

PROGRAMS['lbfgs_closure_linear_fit'] = PRE + r'''
torch.manual_seed(8)
X = torch.randn(30, 2)
y = X @ torch.tensor([2.0, -1.0]) + 0.3
m = torch.nn.Linear(2, 1)
opt = torch.optim.LBFGS(m.parameters(), lr=1, max_iter=5, history_size=4)
calls = []
def closure():
    opt.zero_grad()
    loss = ((m(X).squeeze(1) - y) ** 2).mean()
    loss.backward()
    calls.append(loss.item())
    return loss
for i in range(3):
    out = opt.step(closure)
    print(i, out, len(calls))
print(m.weight.data, m.bias.data)
print(opt.state[m.weight]['n_iter'], opt.state[m.weight]['func_evals'])
'''

PROGRAMS['param_groups_per_layer_and_add'] = PRE + r'''
torch.manual_seed(9)
body = torch.nn.Linear(3, 4)
head = torch.nn.Linear(4, 2)
opt = torch.optim.SGD([{'params': body.parameters(), 'lr': 0.01},
                       {'params': head.parameters()}], lr=0.1, momentum=0.9)
print(opt)
extra = torch.nn.Parameter(torch.zeros(2))
opt.add_param_group({'params': [extra], 'lr': 0.5, 'momentum': 0.0})
print([g['lr'] for g in opt.param_groups], [g['momentum'] for g in opt.param_groups])
X = torch.randn(10, 3)
t = torch.randint(0, 2, (10,))
for step in range(3):
    opt.zero_grad()
    out = head(torch.relu(body(X))) + extra
    loss = torch.nn.functional.cross_entropy(out, t)
    loss.backward()
    opt.step()
    print(step, loss.item(), extra)
print(len(opt.state), [len(g['params']) for g in opt.param_groups])
'''

PROGRAMS['freeze_then_unfreeze'] = PRE + r'''
torch.manual_seed(10)
m = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
for p in m[0].parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, m.parameters()), lr=0.05)
X, y = torch.randn(8, 3), torch.randn(8, 1)
w0 = m[0].weight.clone()
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item(), m[0].weight.grad, m[2].weight.grad is None)
print(torch.equal(w0, m[0].weight))
print(sum(p.numel() for p in m.parameters() if p.requires_grad))
m[0].requires_grad_(True)
opt.add_param_group({'params': m[0].parameters(), 'lr': 0.001})
opt.zero_grad()
torch.nn.functional.mse_loss(m(X), y).backward()
opt.step()
print(m[0].weight)
print(opt.state_dict()['param_groups'])
'''

# ---- gradient clipping and zero_grad

PROGRAMS['clip_grad_norm_returns_norm_loop'] = PRE + r'''
torch.manual_seed(11)
m = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.5)
X = torch.randn(16, 4) * 5
y = torch.randn(16, 1) * 10
for step in range(4):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0)
    after = torch.norm(torch.stack([p.grad.norm() for p in m.parameters()]))
    opt.step()
    print(step, loss.item(), norm, after)
n2 = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type='inf')
print(n2, m[2].bias.grad)
n3 = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=1.0)
print(n3)
'''

PROGRAMS['clip_grad_value_and_zero_grad_modes'] = PRE + r'''
torch.manual_seed(12)
m = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(5, 3) * 4
loss = (m(x) ** 2).sum()
loss.backward()
print(m.weight.grad)
torch.nn.utils.clip_grad_value_(m.parameters(), clip_value=0.5)
print(m.weight.grad, m.bias.grad)
opt.step()
opt.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
m.zero_grad()
print(m.weight.grad)
loss = (m(x) ** 2).mean()
loss.backward()
loss2 = (m(x) ** 2).mean()
loss2.backward()
print(m.bias.grad)
opt.zero_grad()
print(m.bias.grad)
'''

# ---- schedulers

PROGRAMS['steplr_multistep_exponential_print'] = PRE + r'''
torch.manual_seed(13)
for make in [lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
             lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[1, 3, 4], gamma=0.3),
             lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)]:
    m = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    sched = make(opt)
    x = torch.randn(4, 2)
    lrs = []
    for epoch in range(6):
        opt.zero_grad()
        m(x).sum().backward()
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    print(type(sched).__name__, lrs)
    print(sched.state_dict())
'''

PROGRAMS['cosine_annealing_training'] = PRE + r'''
torch.manual_seed(14)
m = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)
X, y = torch.randn(10, 3), torch.randn(10, 1)
for epoch in range(8):
    opt.zero_grad()
    loss = torch.nn.functional.l1_loss(m(X), y)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.5f}", sched.get_last_lr(), opt.param_groups[0]['lr'])
print(m.weight)
'''

PROGRAMS['onecycle_sgd_momentum_steps'] = PRE + r'''
torch.manual_seed(15)
m = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=8, pct_start=0.25)
X = torch.randn(6, 2)
y = torch.randint(0, 2, (6,))
for step in range(8):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(m(X), y)
    loss.backward()
    opt.step()
    sched.step() if step < 7 else None
    g = opt.param_groups[0]
    print(step, round(loss.item(), 6), sched.get_last_lr(), g['momentum'])
print(sorted(opt.param_groups[0].keys()))
'''

PROGRAMS['reduce_on_plateau_training'] = PRE + r'''
torch.manual_seed(16)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.5)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, threshold=0.05)
X, y = torch.randn(8, 2), torch.randn(8, 1)
for epoch in range(8):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = torch.nn.functional.mse_loss(m(X), y)
    sched.step(val)
    print(epoch, val.item(), sched.get_last_lr(), sched.num_bad_epochs, sched.best)
'''

PROGRAMS['lambda_warmup_sequential_chained'] = PRE + r'''
torch.manual_seed(17)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.2)
warm = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: (e + 1) / 3)
decay = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
x = torch.randn(3, 2)
for e in range(7):
    opt.zero_grad()
    m(x).pow(2).mean().backward()
    opt.step()
    seq.step()
    print(e, seq.get_last_lr())
m2 = torch.nn.Linear(2, 1)
opt2 = torch.optim.Adam(m2.parameters(), lr=0.01)
ch = torch.optim.lr_scheduler.ChainedScheduler([
    torch.optim.lr_scheduler.ConstantLR(opt2, factor=0.5, total_iters=2),
    torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9)])
for e in range(5):
    opt2.zero_grad()
    m2(x).sum().backward()
    opt2.step()
    ch.step()
    print(e, ch.get_last_lr())
'''


# ---- convolutions, recurrent layers, embeddings

PROGRAMS['conv1d_signal_classifier'] = PRE + r'''
torch.manual_seed(20)
X = torch.randn(8, 2, 12)
y = torch.randint(0, 2, (8,))
model = torch.nn.Sequential(
    torch.nn.Conv1d(2, 4, kernel_size=3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool1d(2),
    torch.nn.Conv1d(4, 4, kernel_size=3, stride=2), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool1d(1),
    torch.nn.Flatten(), torch.nn.Linear(4, 2))
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(4):
    opt.zero_grad()
    out = model(X)
    loss = torch.nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(step, loss.item(), (out.argmax(1) == y).sum().item())
print(model[0].weight.grad[0])
print(model[7].bias)
'''

PROGRAMS['conv2d_tiny_images_adam_eval'] = PRE + r'''
torch.manual_seed(21)
imgs = torch.rand(6, 1, 8, 8)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
class TinyCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 3, 3)
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(3 * 3 * 3, 3)
    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        return self.fc(x.flatten(1))
net = TinyCNN()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(4):
    net.train()
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(imgs), labels)
    loss.backward()
    opt.step()
    net.eval()
    with torch.no_grad():
        pred = net(imgs).argmax(dim=1)
        acc = pred.eq(labels).float().mean()
    print(epoch, loss, pred, acc)
print(net.conv.weight.grad.sum(), net.conv.bias)
'''

PROGRAMS['conv2d_bn_dropout_train_eval'] = PRE + r'''
torch.manual_seed(22)
model = torch.nn.Sequential(
    torch.nn.Conv2d(2, 4, 3, padding=1, bias=False), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
    torch.nn.Dropout(0.25), torch.nn.Conv2d(4, 1, 1))
x = torch.randn(4, 2, 5, 5)
target = torch.randn(4, 1, 5, 5)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    model.train()
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), target)
    loss.backward()
    opt.step()
    print(step, loss)
print(model[1].running_mean, model[1].running_var, model[1].num_batches_tracked)
model.eval()
with torch.no_grad():
    print(torch.nn.functional.mse_loss(model(x), target))
print(model.training, model[3].training)
'''

PROGRAMS['embedding_bag_of_words_sgd'] = PRE + r'''
torch.manual_seed(23)
vocab, dim = 10, 4
emb = torch.nn.Embedding(vocab, dim, padding_idx=0)
fc = torch.nn.Linear(dim, 2)
sents = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9], [2, 4, 6, 0]])
labels = torch.tensor([0, 1, 1, 0])
opt = torch.optim.SGD(list(emb.parameters()) + list(fc.parameters()), lr=0.5)
for epoch in range(4):
    opt.zero_grad()
    mask = (sents != 0).float().unsqueeze(-1)
    mean = (emb(sents) * mask).sum(1) / mask.sum(1)
    loss = torch.nn.functional.cross_entropy(fc(mean), labels)
    loss.backward()
    opt.step()
    print(epoch, loss.item())
print(emb.weight.grad[0], emb.weight[0])
print(emb.weight.grad[2])
print(emb)
'''

PROGRAMS['lstm_sequence_regression'] = PRE + r'''
torch.manual_seed(24)
class Seq(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(input_size=1, hidden_size=5, batch_first=True)
        self.head = torch.nn.Linear(5, 1)
    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.head(out[:, -1])
t = torch.linspace(0, 6.28, 40)
wave = torch.sin(t)
X = torch.stack([wave[i:i + 6] for i in range(10)]).unsqueeze(-1)
y = torch.stack([wave[i + 6] for i in range(10)]).unsqueeze(-1)
m = Seq()
opt = torch.optim.Adam(m.parameters(), lr=0.02)
for step in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss)
print(m.lstm.weight_hh_l0.grad[:2])
print([n for n, _ in m.named_parameters()])
'''

PROGRAMS['gru_two_layer_classifier_clip'] = PRE + r'''
torch.manual_seed(25)
rnn = torch.nn.GRU(3, 4, num_layers=2, dropout=0.0)
fc = torch.nn.Linear(4, 2)
params = list(rnn.parameters()) + list(fc.parameters())
opt = torch.optim.RMSprop(params, lr=0.01)
X = torch.randn(5, 6, 3)
y = torch.randint(0, 2, (6,))
h0 = torch.zeros(2, 6, 4)
for step in range(4):
    opt.zero_grad()
    out, hn = rnn(X, h0)
    loss = torch.nn.functional.cross_entropy(fc(hn[-1]), y)
    loss.backward()
    n = torch.nn.utils.clip_grad_norm_(params, 0.5)
    opt.step()
    print(step, loss.item(), n)
print(out.shape, hn.shape, out.grad_fn)
print(rnn.bias_ih_l1)
'''

PROGRAMS['rnn_tanh_char_model'] = PRE + r'''
torch.manual_seed(26)
text = "hello world"
chars = sorted(set(text))
idx = torch.tensor([chars.index(c) for c in text])
V = len(chars)
emb = torch.nn.Embedding(V, 3)
rnn = torch.nn.RNN(3, 6, nonlinearity='tanh', batch_first=True)
out_layer = torch.nn.Linear(6, V)
opt = torch.optim.Adam([*emb.parameters(), *rnn.parameters(), *out_layer.parameters()], lr=0.05)
inp, tgt = idx[:-1].unsqueeze(0), idx[1:]
for step in range(5):
    opt.zero_grad()
    h, _ = rnn(emb(inp))
    logits = out_layer(h[0])
    loss = torch.nn.functional.cross_entropy(logits, tgt)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", ''.join(chars[i] for i in logits.argmax(1).tolist()))
print(rnn)
'''

PROGRAMS['lstm_cell_manual_unroll'] = PRE + r'''
torch.manual_seed(27)
cell = torch.nn.LSTMCell(2, 3)
head = torch.nn.Linear(3, 1)
opt = torch.optim.SGD([*cell.parameters(), *head.parameters()], lr=0.1)
xs = torch.randn(4, 5, 2)
target = xs.sum(dim=(0, 2)).unsqueeze(1)
for step in range(3):
    h = torch.zeros(5, 3)
    c = torch.zeros(5, 3)
    for t in range(4):
        h, c = cell(xs[t], (h, c))
    loss = torch.nn.functional.smooth_l1_loss(head(h), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss, h.grad_fn, c.grad_fn)
print(cell.weight_ih.grad)
'''

# ---- normalization and dropout

PROGRAMS['layernorm_mlp_train_eval'] = PRE + r'''
torch.manual_seed(28)
m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.LayerNorm(8), torch.nn.GELU(), torch.nn.Dropout(0.2),
                        torch.nn.Linear(8, 1))
X, y = torch.randn(12, 4), torch.randn(12, 1)
opt = torch.optim.AdamW(m.parameters(), lr=0.01)
for step in range(4):
    m.train()
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    m.eval()
    with torch.no_grad():
        ev = torch.nn.functional.mse_loss(m(X), y)
    print(step, loss.item(), ev.item())
print(m[1].weight, m[1].bias)
print(m[1].weight.grad)
'''

PROGRAMS['batchnorm1d_mlp_momentum_none'] = PRE + r'''
torch.manual_seed(29)
bn = torch.nn.BatchNorm1d(3, momentum=None)
m = torch.nn.Sequential(torch.nn.Linear(2, 3), bn, torch.nn.ReLU(), torch.nn.Linear(3, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.8, dampening=0.1)
for step in range(4):
    X = torch.randn(8, 2)
    y = X.sum(1, keepdim=True)
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item(), bn.running_mean, bn.num_batches_tracked.item())
m.eval()
print(m(torch.ones(2, 2)))
print(bn)
print(bn.state_dict())
'''

PROGRAMS['dropout_masks_seeded_train'] = PRE + r'''
torch.manual_seed(30)
drop = torch.nn.Dropout(p=0.5)
x = torch.ones(2, 8)
print(drop(x))
drop.eval()
print(drop(x))
drop.train()
torch.manual_seed(30)
print(drop(x))
m = torch.nn.Sequential(torch.nn.Linear(3, 6), torch.nn.ReLU(), torch.nn.Dropout(0.3), torch.nn.Linear(6, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.05)
X, y = torch.randn(10, 3), torch.randn(10, 1)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss)
print(m[0].weight.grad)
print(torch.nn.functional.dropout(x, 0.25, training=True))
'''

# ---- other losses

PROGRAMS['kldiv_distill_student'] = PRE + r'''
torch.manual_seed(31)
teacher = torch.nn.Linear(4, 3)
student = torch.nn.Linear(4, 3)
X = torch.randn(10, 4)
T = 2.0
opt = torch.optim.SGD(student.parameters(), lr=0.5)
kl = torch.nn.KLDivLoss(reduction='batchmean')
for step in range(4):
    with torch.no_grad():
        soft = torch.softmax(teacher(X) / T, dim=1)
    logp = torch.log_softmax(student(X) / T, dim=1)
    loss = kl(logp, soft) * T * T
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss)
kl2 = torch.nn.KLDivLoss(reduction='sum', log_target=True)
print(kl2(logp, torch.log(soft)))
print(student.weight.grad)
'''

PROGRAMS['cosine_embedding_margin_ranking'] = PRE + r'''
torch.manual_seed(32)
enc = torch.nn.Linear(5, 3)
a, b = torch.randn(6, 5), torch.randn(6, 5)
same = torch.tensor([1, -1, 1, 1, -1, -1])
crit = torch.nn.CosineEmbeddingLoss(margin=0.2)
opt = torch.optim.SGD(enc.parameters(), lr=0.3)
for step in range(4):
    opt.zero_grad()
    loss = crit(enc(a), enc(b), same)
    loss.backward()
    opt.step()
    print(step, loss)
scorer = torch.nn.Linear(5, 1)
rank = torch.nn.MarginRankingLoss(margin=0.5)
opt2 = torch.optim.Adam(scorer.parameters(), lr=0.1)
for step in range(4):
    opt2.zero_grad()
    s1, s2 = scorer(a).squeeze(1), scorer(b).squeeze(1)
    loss = rank(s1, s2, same.float())
    loss.backward()
    opt2.step()
    print(step, loss, (s1 > s2).float().mul(2).sub(1).eq(same).float().mean())
'''

PROGRAMS['triplet_margin_embedding'] = PRE + r'''
torch.manual_seed(33)
net = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 2))
anchor, pos, neg = torch.randn(8, 4), torch.randn(8, 4), torch.randn(8, 4)
pos = anchor + 0.1 * pos
crit = torch.nn.TripletMarginLoss(margin=1.0, p=2, swap=True)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.5)
for step in range(5):
    opt.zero_grad()
    loss = crit(net(anchor), net(pos), net(neg))
    loss.backward()
    opt.step()
    print(step, loss.item())
with torch.no_grad():
    d_ap = torch.nn.functional.pairwise_distance(net(anchor), net(pos))
    d_an = torch.nn.functional.pairwise_distance(net(anchor), net(neg))
print(d_ap, d_an, (d_ap < d_an).float().mean())
print(crit)
'''

# ---- data: sampling, mini-batches, generators

PROGRAMS['randperm_minibatch_epochs'] = PRE + r'''
torch.manual_seed(34)
N = 20
X = torch.randn(N, 3)
y = X @ torch.tensor([1.0, -1.0, 2.0]) + 0.5
m = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.05)
for epoch in range(3):
    perm = torch.randperm(N)
    total = 0.0
    for i in range(0, N, 6):
        idx = perm[i:i + 6]
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(m(X[idx]).squeeze(-1), y[idx])
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(epoch, perm[:6], total / N)
print(m.weight, m.bias)
'''

PROGRAMS['multinomial_generator_dataset'] = PRE + r'''
g = torch.Generator()
g.manual_seed(35)
probs = torch.tensor([0.1, 0.6, 0.3])
labels = torch.multinomial(probs, 16, replacement=True, generator=g)
print(labels, torch.bincount(labels))
centers = torch.tensor([[0., 0.], [3., 3.], [-3., 3.]])
X = centers[labels] + torch.randn(16, 2, generator=g)
print(torch.multinomial(torch.ones(6), 4, generator=g))
torch.manual_seed(35)
m = torch.nn.Linear(2, 3)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(m(X), labels)
    loss.backward()
    opt.step()
print(loss, m(X).argmax(1).eq(labels).sum())
print(g.initial_seed(), torch.rand(2, generator=g))
'''

PROGRAMS['normal_uniform_init_inplace_training'] = PRE + r'''
torch.manual_seed(36)
m = torch.nn.Linear(3, 2)
with torch.no_grad():
    m.weight.normal_(0, 0.1)
    m.bias.uniform_(-0.05, 0.05)
print(m.weight, m.bias)
torch.nn.init.xavier_uniform_(m.weight)
torch.nn.init.zeros_(m.bias)
print(m.weight)
X = torch.empty(10, 3).normal_(mean=1.0, std=2.0)
y = torch.empty(10).bernoulli_(0.5).long()
print(y)
opt = torch.optim.SGD(m.parameters(), lr=0.01, weight_decay=0.1)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss)
'''


# ---- full-precision prints (the last bits of products, reductions and optimizer arithmetic)

PROGRAMS['mlp_batch32_full_precision_adam'] = PRE + r'''
torch.manual_seed(40)
torch.set_printoptions(precision=10)
X = torch.randn(32, 20)
y = torch.randint(0, 5, (32,))
m = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 32), torch.nn.SiLU(),
                        torch.nn.Linear(32, 5))
opt = torch.optim.Adam(m.parameters(), lr=3e-3, weight_decay=1e-4)
for step in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(m(X), y)
    loss.backward()
    opt.step()
    print(step, loss, m[4].bias.grad)
print(m[0].weight[0, :6])
print(m[2].weight.grad.sum(), m[0].weight.grad.abs().max())
'''

# (default precision: a grouped convolution other than a depthwise one runs oneDNN's gemm-based kernel, not emulated)
PROGRAMS['depthwise_conv2d_groups'] = PRE + r'''
torch.manual_seed(41)
m = torch.nn.Sequential(torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), torch.nn.Conv2d(4, 8, 1),
                        torch.nn.ReLU(), torch.nn.Conv2d(8, 2, 3, stride=2, dilation=1, groups=2))
x = torch.randn(3, 4, 7, 7)
t = torch.randn(3, 2, 3, 3)
opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(x), t)
    loss.backward()
    opt.step()
    print(step, loss)
print(m[0].weight.grad[1, 0])
print(m[3].weight.grad[0, :, 0])
print(m[3].bias.grad)
'''

PROGRAMS['conv1d_dilated_stride_full_precision'] = PRE + r'''
torch.manual_seed(42)
torch.set_printoptions(precision=9)
m = torch.nn.Sequential(torch.nn.Conv1d(3, 6, 5, stride=2, padding=2, dilation=2), torch.nn.Tanh(),
                        torch.nn.Conv1d(6, 2, 3, padding='same'), torch.nn.AvgPool1d(2))
x = torch.randn(4, 3, 20)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for step in range(3):
    opt.zero_grad()
    out = m(x)
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    print(step, out.shape, loss)
print(m[0].weight.grad[0])
print(m[2].bias.grad)
'''

# (default precision: the fused oneDNN LSTM layer's gemms and gate functions are not emulated bit for bit)
PROGRAMS['lstm_bidirectional_two_layers_dropout'] = PRE + r'''
torch.manual_seed(43)
lstm = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, dropout=0.3, batch_first=True)
fc = torch.nn.Linear(8, 2)
opt = torch.optim.Adam([*lstm.parameters(), *fc.parameters()], lr=0.01)
X = torch.randn(3, 5, 3)
y = torch.tensor([0, 1, 1])
for step in range(3):
    lstm.train()
    opt.zero_grad()
    out, (h, c) = lstm(X)
    loss = torch.nn.functional.cross_entropy(fc(out[:, -1]), y)
    loss.backward()
    opt.step()
    print(step, loss, h.shape)
lstm.eval()
with torch.no_grad():
    out, _ = lstm(X)
print(out[0, -1])
print(lstm.weight_hh_l1_reverse.grad[0])
'''

PROGRAMS['gru_dropout_train_eval_bits'] = PRE + r'''
torch.manual_seed(44)
torch.set_printoptions(precision=8)
gru = torch.nn.GRU(2, 3, num_layers=3, dropout=0.5)
x = torch.randn(4, 2, 2)
gru.train()
o1, _ = gru(x)
o2, _ = gru(x)
print(o1[-1], o2[-1])
gru.eval()
o3, h = gru(x)
print(o3[-1], h[0])
opt = torch.optim.SGD(gru.parameters(), lr=0.1)
gru.train()
for step in range(3):
    opt.zero_grad()
    o, h = gru(x)
    loss = o.sum()
    loss.backward()
    opt.step()
    print(step, loss)
print(gru.weight_ih_l2.grad[:2])
'''

PROGRAMS['lstm_proj_size_training'] = PRE + r'''
torch.manual_seed(45)
torch.set_printoptions(precision=8)
lstm = torch.nn.LSTM(4, 6, proj_size=2, num_layers=1)
x = torch.randn(5, 3, 4)
target = torch.randn(5, 3, 2)
opt = torch.optim.SGD(lstm.parameters(), lr=0.2)
for step in range(3):
    opt.zero_grad()
    out, (h, c) = lstm(x)
    loss = torch.nn.functional.mse_loss(out, target)
    loss.backward()
    opt.step()
    print(step, loss, h.shape, c.shape)
print(lstm.weight_hr_l0.grad)
print([n for n, p in lstm.named_parameters()])
'''

PROGRAMS['bce_multilabel_weights_pos_weight_bits'] = PRE + r'''
torch.manual_seed(46)
torch.set_printoptions(precision=10)
X = torch.randn(16, 6)
Y = torch.randint(0, 2, (16, 4)).float()
m = torch.nn.Linear(6, 4)
crit = torch.nn.BCEWithLogitsLoss(weight=torch.tensor([1.0, 0.5, 2.0, 1.0]), pos_weight=torch.tensor([1., 2., 3., .5]))
opt = torch.optim.SGD(m.parameters(), lr=0.3, nesterov=True, momentum=0.7)
for step in range(4):
    opt.zero_grad()
    logits = m(X)
    loss = crit(logits, Y)
    loss.backward()
    opt.step()
    pred = (logits > 0).float()
    print(step, loss, (pred == Y).all(dim=1).float().mean(), (pred == Y).float().mean())
print(m.weight.grad)
print(torch.nn.functional.binary_cross_entropy_with_logits(logits, Y, reduction='none')[0])
'''

PROGRAMS['ce_soft_targets_smoothing_3d'] = PRE + r'''
torch.manual_seed(47)
torch.set_printoptions(precision=10)
logits = torch.randn(4, 3, 5, requires_grad=True)
hard = torch.randint(0, 3, (4, 5))
hard[0, 0] = -100
soft = torch.softmax(torch.randn(4, 3, 5), dim=1)
w = torch.tensor([0.2, 1.0, 3.0])
l1 = torch.nn.functional.cross_entropy(logits, hard, weight=w, label_smoothing=0.2)
l2 = torch.nn.functional.cross_entropy(logits, soft, label_smoothing=0.1)
l3 = torch.nn.functional.cross_entropy(logits, soft, weight=w)
print(l1, l2, l3)
(l1 + l2 + l3).backward()
print(logits.grad[0])
E(lambda: torch.nn.functional.cross_entropy(logits, hard, reduction='none', ignore_index=1))
hard[0, 0] = 1
print(torch.nn.functional.cross_entropy(logits, hard, reduction='none', ignore_index=1)[0])
'''


# ---- optimizer and scheduler state printed, resumed, misused

PROGRAMS['adam_state_dict_printed_and_resumed'] = PRE + r'''
torch.manual_seed(50)
m = torch.nn.Linear(2, 2)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
x = torch.randn(4, 2)
for _ in range(2):
    opt.zero_grad()
    m(x).pow(2).sum().backward()
    opt.step()
sd = opt.state_dict()
print(sd)
m2 = torch.nn.Linear(2, 2)
m2.load_state_dict(m.state_dict())
opt2 = torch.optim.Adam(m2.parameters(), lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]['lr'], opt2.state[m2.weight]['step'])
for o, mm in ((opt, m), (opt2, m2)):
    o.zero_grad()
    mm(x).pow(2).sum().backward()
    o.step()
print(torch.equal(m.weight, m2.weight), m2.weight)
'''

PROGRAMS['sgd_state_dict_momentum_print'] = PRE + r'''
torch.manual_seed(51)
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)
print(opt.state_dict())
x = torch.randn(5, 2)
m(x).mean().backward()
opt.step()
print(opt.state_dict())
print(m.state_dict())
print(list(m.state_dict().keys()), m.state_dict()['1.bias'])
'''

PROGRAMS['cosine_warm_restarts_cyclic_poly'] = PRE + r'''
torch.manual_seed(52)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
s1 = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
out = []
for e in range(10):
    opt.step()
    s1.step()
    out.append(round(s1.get_last_lr()[0], 6))
print(out, s1.T_cur, s1.T_i)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
s2 = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='triangular2')
out = []
for e in range(9):
    opt.step()
    s2.step()
    out.append((round(s2.get_last_lr()[0], 6), round(opt.param_groups[0]['momentum'], 4)))
print(out)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
s3 = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
out = []
for e in range(6):
    opt.step()
    s3.step()
    out.append(s3.get_last_lr())
print(out)
'''

PROGRAMS['linear_multiplicative_constant_lr'] = PRE + r'''
torch.manual_seed(53)
m = torch.nn.Linear(2, 1)
x, y = torch.randn(6, 2), torch.randn(6, 1)
for make in [lambda o: torch.optim.lr_scheduler.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=3),
             lambda o: torch.optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.8),
             lambda o: torch.optim.lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2)]:
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    sched = make(opt)
    print(type(sched).__name__, sched.get_last_lr(), sched.last_epoch)
    for e in range(4):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        sched.step()
        print(' ', e, f"{loss.item():.6f}", sched.get_last_lr())
    print(sorted(sched.state_dict().keys()))
'''

PROGRAMS['scheduler_before_optimizer_warning'] = PRE + r'''
torch.manual_seed(54)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
x = torch.randn(3, 2)
for e in range(3):
    sched.step()
    opt.zero_grad()
    m(x).sum().backward()
    opt.step()
    print(e, sched.get_last_lr(), m.bias)
print(sched.get_lr())
'''

PROGRAMS['plateau_max_mode_accuracy'] = PRE + r'''
torch.manual_seed(55)
m = torch.nn.Linear(3, 2)
opt = torch.optim.Adam([{'params': m.weight}, {'params': m.bias, 'lr': 0.01}], lr=0.05)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='max', factor=0.2, patience=0, cooldown=1,
                                                   min_lr=[1e-3, 5e-3])
X = torch.randn(20, 3)
y = (X[:, 0] > 0).long()
for epoch in range(7):
    opt.zero_grad()
    out = m(X)
    loss = torch.nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    acc = (out.argmax(1) == y).float().mean().item()
    sched.step(acc if epoch < 3 else 0.5)
    print(epoch, round(loss.item(), 5), acc, sched.get_last_lr(), sched.cooldown_counter)
print(sched.state_dict()['best'], sched.state_dict()['mode'])
'''

PROGRAMS['optimizer_errors_student'] = PRE + r'''
torch.manual_seed(56)
m = torch.nn.Linear(2, 1)
E(lambda: torch.optim.SGD(m.parameters(), lr=-0.1))
E(lambda: torch.optim.Adam(m.parameters(), lr=0.1, betas=(1.0, 0.9)))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, momentum=-1))
E(lambda: torch.optim.AdamW(m.parameters(), weight_decay=-1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
E(lambda: opt.add_param_group({'params': m.weight}))
E(lambda: torch.optim.lr_scheduler.StepLR(opt, step_size=0))
E(lambda: torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[3, 1]))
E(lambda: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1))
E(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.5))
E(lambda: torch.optim.LBFGS(m.parameters()).step())
'''

PROGRAMS['adam_none_grads_and_set_to_none'] = PRE + r'''
torch.manual_seed(57)
a = torch.nn.Linear(2, 2)
b = torch.nn.Linear(2, 2)
opt = torch.optim.Adam([*a.parameters(), *b.parameters()], lr=0.1)
x = torch.randn(3, 2)
for step in range(3):
    opt.zero_grad(set_to_none=True)
    out = a(x) if step != 1 else b(x)
    out.sum().backward()
    opt.step()
    print(step, [p.grad is None for p in opt.param_groups[0]['params']], len(opt.state))
print([opt.state[p].get('step') for p in opt.param_groups[0]['params']])
opt.zero_grad(set_to_none=False)
print(a.weight.grad, b.weight.grad)
'''


# ---- sweeps at full precision: optimizers, activations, losses, samplers

PROGRAMS['optimizer_sweep_full_precision'] = PRE + r'''
torch.manual_seed(60)
torch.set_printoptions(precision=10)
X = torch.randn(16, 5)
y = torch.randn(16, 2)
cfgs = [
  (torch.optim.SGD, dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
  (torch.optim.SGD, dict(lr=0.05, momentum=0.9, nesterov=True, maximize=False)),
  (torch.optim.Adam, dict(lr=0.01, amsgrad=True, weight_decay=0.1)),
  (torch.optim.AdamW, dict(lr=0.01, betas=(0.85, 0.95))),
  (torch.optim.NAdam, dict(lr=0.01, weight_decay=0.01)),
  (torch.optim.NAdam, dict(lr=0.01, decoupled_weight_decay=True, weight_decay=0.01)),
  (torch.optim.RAdam, dict(lr=0.01)),
  (torch.optim.Adamax, dict(lr=0.01, weight_decay=0.01)),
  (torch.optim.Adagrad, dict(lr=0.05, lr_decay=0.01, weight_decay=0.01)),
  (torch.optim.Adadelta, dict(lr=1.0, weight_decay=0.01)),
  (torch.optim.RMSprop, dict(lr=0.01, centered=True, momentum=0.9, weight_decay=0.01)),
  (torch.optim.RMSprop, dict(lr=0.01)),
  (torch.optim.Rprop, dict(lr=0.01, etas=(0.4, 1.3))),
  (torch.optim.ASGD, dict(lr=0.01, t0=2)),
]
for cls, kw in cfgs:
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    opt = cls(m.parameters(), **kw)
    for step in range(8):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(m(X), y)
        loss.backward()
        opt.step()
    print(cls.__name__, loss, m[2].bias, m[0].weight[0, :3])
'''

PROGRAMS['activation_sweep_full_precision'] = PRE + r'''
torch.manual_seed(61)
torch.set_printoptions(precision=10)
X = torch.randn(12, 6)
y = torch.randint(0, 3, (12,))
acts = [torch.nn.ELU(), torch.nn.SELU(), torch.nn.CELU(0.5), torch.nn.Softplus(beta=2), torch.nn.Mish(),
        torch.nn.LeakyReLU(0.1), torch.nn.Hardswish(), torch.nn.Hardsigmoid(), torch.nn.LogSigmoid(),
        torch.nn.SiLU(), torch.nn.GELU(), torch.nn.GELU('tanh'), torch.nn.Softsign(), torch.nn.Tanhshrink(),
        torch.nn.ReLU6(), torch.nn.Hardtanh(-0.5, 0.5), torch.nn.PReLU(), torch.nn.Sigmoid(), torch.nn.Softmin(dim=1)]
for act in acts:
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(6, 10), act, torch.nn.Linear(10, 3))
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    for step in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(m(X), y)
        loss.backward()
        opt.step()
    print(act, loss.item(), m[0].weight.grad[0, :3])
'''

PROGRAMS['loss_sweep_full_precision'] = PRE + r'''
torch.manual_seed(62)
torch.set_printoptions(precision=10)
X = torch.randn(10, 4)
F = torch.nn.functional
yc = torch.randint(0, 3, (10,))
ysign = torch.randint(0, 2, (10, 3)).float() * 2 - 1
ymulti = torch.randint(0, 2, (10, 3)).float()
ycount = torch.poisson(torch.full((10, 3), 2.0))
yreal = torch.randn(10, 3)
var = torch.rand(10, 3) + 0.1
ml = torch.tensor([[0, 2, -1], [1, -1, 0]] * 5)
losses = [
  ('poisson', lambda o: torch.nn.PoissonNLLLoss()(o, ycount)),
  ('poisson_nolog', lambda o: torch.nn.PoissonNLLLoss(log_input=False, full=True)(o.abs() + 0.1, ycount)),
  ('gauss', lambda o: torch.nn.GaussianNLLLoss()(o, yreal, var)),
  ('gauss_full', lambda o: torch.nn.GaussianNLLLoss(full=True, eps=1e-3)(o, yreal, o.pow(2))),
  ('multimargin', lambda o: torch.nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1., 2., 3.]))(o, yc)),
  ('softmargin', lambda o: torch.nn.SoftMarginLoss()(o, ysign)),
  ('mlsm', lambda o: torch.nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1., .5, 2.]))(o, ymulti)),
  ('hinge', lambda o: torch.nn.HingeEmbeddingLoss(margin=0.7)(o, ysign)),
  ('mlmargin', lambda o: torch.nn.MultiLabelMarginLoss()(o, ml)),
  ('nll_w_ignore', lambda o: torch.nn.NLLLoss(weight=torch.tensor([1., 3., .5]), ignore_index=2)(F.log_softmax(o, 1), yc)),
  ('mse_sum', lambda o: torch.nn.MSELoss(reduction='sum')(o, yreal)),
  ('l1_none_mean', lambda o: torch.nn.L1Loss(reduction='none')(o, yreal).mean(1).sum()),
  ('kl_mean', lambda o: torch.nn.KLDivLoss(reduction='mean')(F.log_softmax(o, 1), F.softmax(yreal, 1))),
  ('bce', lambda o: F.binary_cross_entropy(torch.sigmoid(o), ymulti, weight=torch.tensor([1., 2., 3.]))),
]
for name, fn in losses:
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 3))
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    for step in range(5):
        opt.zero_grad()
        loss = fn(m(X))
        loss.backward()
        opt.step()
    print(name, loss, m[2].bias.grad)
'''

PROGRAMS['sampler_sweep_generator'] = PRE + r'''
torch.manual_seed(7)
g = torch.Generator().manual_seed(70)
print(torch.randint(0, 10, (5,), generator=g, dtype=torch.float32))
print(torch.normal(torch.zeros(4), torch.arange(1., 5.), generator=g))
print(torch.normal(2., 3., size=(3,), generator=g))
print(torch.normal(torch.ones(2, 2), 0.5))
print(torch.rand(3, dtype=torch.float64, generator=g))
print(torch.randn(2, 3, dtype=torch.float16, generator=g))
print(torch.randn(2, 3, dtype=torch.bfloat16))
x = torch.empty(6)
print(x.exponential_(2.0, generator=g), x.geometric_(0.3, generator=g), x.log_normal_(generator=g))
print(x.cauchy_(generator=g), x.random_(0, 5, generator=g), x.random_(generator=g))
print(torch.randn_like(x), torch.rand_like(x), torch.randint_like(x, 3, 9))
p = torch.tensor([[0.2, 0.8], [0.9, 0.1]])
print(torch.bernoulli(p, generator=g), torch.bernoulli(p, 0.5))
print(torch.multinomial(torch.tensor([[1., 2., 3., 4.], [4., 0., 0., 1.]]), 2, generator=g))
print(torch.randperm(10, generator=g), torch.randperm(5, dtype=torch.float32))
print(torch.poisson(torch.tensor([1., 5., 20.]), generator=g))
print(g.initial_seed(), torch.initial_seed())
s = g.get_state()
a = torch.rand(2, generator=g)
g.set_state(s)
print(torch.equal(a, torch.rand(2, generator=g)), s.dtype, s.shape)
print(torch.rand(2, 2, generator=g).uniform_(-1, 1, generator=g))
print(torch.empty(3, 2).normal_(5, 0.1, generator=g))
print(torch.empty(3).bernoulli_(torch.tensor([0.1, 0.5, 0.9]), generator=g))
print(torch.randint(3, (2, 2), generator=g), torch.randint(-5, 5, (4,), dtype=torch.int8))
print(torch.rand(20)[-3:], torch.randn(20)[-3:], torch.randn(17, dtype=torch.float64)[-2:])
'''


# ---- what a student prints around the loop: metrics, confusion matrices, formatting, early stopping

PROGRAMS['manual_update_p_data_and_metrics'] = PRE + r'''
torch.manual_seed(80)
X = torch.randn(30, 2)
y = (X[:, 0] * X[:, 1] > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
lr = 0.5
for epoch in range(5):
    out = model(X)
    loss = torch.nn.functional.cross_entropy(out, y)
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data.add_(p.grad.data, alpha=-lr)
    _, predicted = torch.max(out.data, 1)
    correct = (predicted == y).sum()
    print('epoch %d loss %.4f acc %.3f' % (epoch, loss, correct / len(y)), correct, correct / len(y))
print(torch.max(out, 1))
print(out.max(dim=1).indices.eq(y).type(torch.float).sum().item())
print(f"{(predicted == y).float().mean():.2%}", format(loss, '.3e'))
'''

PROGRAMS['confusion_matrix_precision_recall'] = PRE + r'''
torch.manual_seed(81)
X = torch.randn(40, 3)
y = torch.randint(0, 3, (40,))
m = torch.nn.Linear(3, 3)
opt = torch.optim.Adam(m.parameters(), lr=0.05)
for _ in range(10):
    opt.zero_grad()
    torch.nn.functional.cross_entropy(m(X), y).backward()
    opt.step()
with torch.no_grad():
    pred = m(X).argmax(1)
cm = torch.zeros(3, 3, dtype=torch.int64)
for t, p in zip(y, pred):
    cm[t, p] += 1
print(cm)
print(torch.bincount(3 * y + pred, minlength=9).reshape(3, 3))
tp = cm.diag()
precision = tp / cm.sum(0)
recall = tp / cm.sum(1)
f1 = 2 * precision * recall / (precision + recall)
print(precision, recall, f1, f1.mean())
print(cm.trace() / cm.sum(), (cm.sum(0) == 0).any())
top2 = m(X).topk(2, dim=1).indices
print((top2 == y.unsqueeze(1)).any(1).float().mean(), top2[:4])
'''

PROGRAMS['manual_bce_softmax_regression_scratch'] = PRE + r'''
torch.manual_seed(82)
X = torch.randn(20, 3)
y = (X.sum(1) > 0).float()
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(4):
    p = torch.sigmoid(X @ w + b).clamp(1e-7, 1 - 1e-7)
    loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(epoch, loss, torch.where(p > 0.5, 1, 0)[:6])
W = torch.randn(3, 4, requires_grad=True)
labels = torch.randint(0, 4, (20,))
Y = torch.nn.functional.one_hot(labels, num_classes=4).float()
for epoch in range(3):
    z = X @ W
    probs = torch.exp(z) / torch.exp(z).sum(1, keepdim=True)
    loss = -(Y * probs.log()).sum(1).mean()
    loss.backward()
    with torch.no_grad():
        W.sub_(W.grad * 0.3)
        W.grad = None
    print(epoch, loss.item(), probs[0])
print(Y[:2], Y.dtype, W.grad)
'''

PROGRAMS['early_stopping_deepcopy_load'] = PRE + r'''
import copy
torch.manual_seed(83)
Xtr, ytr = torch.randn(24, 4), torch.randn(24, 1)
Xva, yva = torch.randn(8, 4), torch.randn(8, 1)
m = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.Adam(m.parameters(), lr=0.05)
best, best_state, bad, patience = float('inf'), None, 0, 2
for epoch in range(20):
    m.train()
    opt.zero_grad()
    torch.nn.functional.mse_loss(m(Xtr), ytr).backward()
    opt.step()
    m.eval()
    with torch.no_grad():
        val = torch.nn.functional.mse_loss(m(Xva), yva).item()
    if val < best:
        best, best_state, bad = val, copy.deepcopy(m.state_dict()), 0
    else:
        bad += 1
    print(epoch, round(val, 6), bad)
    if bad >= patience:
        print('early stop at', epoch)
        break
print(m.load_state_dict(best_state))
print(m.load_state_dict({'0.weight': best_state['0.weight']}, strict=False))
with torch.no_grad():
    print(torch.nn.functional.mse_loss(m(Xva), yva), best)
'''

PROGRAMS['kfold_standardize_split_chunks'] = PRE + r'''
torch.manual_seed(84)
X = torch.randn(15, 3) * torch.tensor([1., 10., 100.]) + 5
y = X[:, :1] * 0.1 + torch.randn(15, 1) * 0.01
mu, sd = X.mean(0), X.std(0)
Xn = (X - mu) / sd
print(mu, sd, Xn.mean(0), Xn.std(0, unbiased=False))
folds = torch.randperm(15).chunk(3)
scores = []
for k, val_idx in enumerate(folds):
    tr_idx = torch.cat([f for j, f in enumerate(folds) if j != k])
    torch.manual_seed(k)
    m = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for xb, yb in zip(Xn[tr_idx].split(4), y[tr_idx].split(4)):
        opt.zero_grad()
        torch.nn.functional.mse_loss(m(xb), yb).backward()
        opt.step()
    with torch.no_grad():
        scores.append(torch.nn.functional.mse_loss(m(Xn[val_idx]), y[val_idx]).item())
    print(k, val_idx, len(tr_idx))
print([round(s, 5) for s in scores], torch.tensor(scores).mean(), torch.tensor(scores).std())
'''

PROGRAMS['l2_penalty_param_count_grad_norms'] = PRE + r'''
torch.manual_seed(85)
m = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.Tanh(), torch.nn.Linear(7, 2))
print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.dim() > 1))
X, y = torch.randn(9, 5), torch.randint(0, 2, (9,))
opt = torch.optim.SGD(m.parameters(), lr=0.2)
for step in range(3):
    opt.zero_grad()
    ce = torch.nn.functional.cross_entropy(m(X), y)
    l2 = sum(p.pow(2).sum() for name, p in m.named_parameters() if 'weight' in name)
    loss = ce + 1e-3 * l2
    loss.backward()
    grads = {n: round(p.grad.norm().item(), 6) for n, p in m.named_parameters()}
    opt.step()
    print(step, ce.item(), l2, grads)
print(loss.grad_fn, loss.grad_fn.next_functions[1][0])
vec = torch.nn.utils.parameters_to_vector(m.parameters())
print(vec.shape, vec[:4], vec.grad_fn)
'''

PROGRAMS['gradient_accumulation_microbatches'] = PRE + r'''
torch.manual_seed(86)
X, y = torch.randn(16, 3), torch.randn(16, 1)
m = torch.nn.Linear(3, 1)
m_full = torch.nn.Linear(3, 1)
m_full.load_state_dict(m.state_dict())
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt_full = torch.optim.SGD(m_full.parameters(), lr=0.1)
accum = 4
for epoch in range(2):
    opt.zero_grad()
    for i, (xb, yb) in enumerate(zip(X.split(4), y.split(4))):
        loss = torch.nn.functional.mse_loss(m(xb), yb) / accum
        loss.backward()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
    opt_full.zero_grad()
    torch.nn.functional.mse_loss(m_full(X), y).backward()
    opt_full.step()
    print(epoch, m.weight.data, m_full.weight.data)
    print(torch.allclose(m.weight, m_full.weight), (m.weight - m_full.weight).abs().max())
'''

PROGRAMS['knn_cdist_and_centroids'] = PRE + r'''
torch.manual_seed(87)
centers = torch.tensor([[0., 0.], [4., 0.], [0., 4.]])
labels = torch.randint(0, 3, (30,))
X = centers[labels] + torch.randn(30, 2)
train_x, test_x = X[:24], X[24:]
train_y, test_y = labels[:24], labels[24:]
d = torch.cdist(test_x, train_x)
nn_idx = d.topk(3, largest=False).indices
votes = train_y[nn_idx]
pred = votes.mode(dim=1).values
print(d.shape, nn_idx[:2], pred, test_y, (pred == test_y).float().mean())
mu = torch.stack([train_x[train_y == k].mean(0) for k in range(3)])
print(mu)
c = torch.nn.Parameter(torch.zeros(3, 2))
opt = torch.optim.SGD([c], lr=0.5)
for step in range(4):
    opt.zero_grad()
    loss = ((train_x - c[train_y]) ** 2).sum(1).mean()
    loss.backward()
    opt.step()
    print(step, loss, c.grad.abs().sum())
print(c)
'''


# ---- scheduler API, more layers in training loops

PROGRAMS['scheduler_api_groups_errors'] = PRE + r'''
torch.manual_seed(1)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD([{'params': m.weight}, {'params': m.bias, 'lr': 0.5}], lr=0.1)
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[1.0, 2.0], total_steps=3)
print(s.get_last_lr(), [g['initial_lr'] for g in opt.param_groups], [g['max_lr'] for g in opt.param_groups], s.base_lrs)
for i in range(3):
    opt.step()
    E(lambda: s.step())
    print(s.get_last_lr(), s.last_epoch)
opt = torch.optim.SGD([{'params': m.weight}, {'params': m.bias, 'lr': 0.5}], lr=0.1)
s = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.9 ** e, lambda e: 1 / (e + 1)])
for i in range(3):
    opt.step(); s.step()
print(s.get_last_lr(), s.state_dict()['lr_lambdas'], s.state_dict()['base_lrs'])
E(lambda: torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0]))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
p1 = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
E(lambda: torch.optim.lr_scheduler.SequentialLR(opt, [p1, torch.optim.lr_scheduler.StepLR(opt, 2)], milestones=[2]))
E(lambda: torch.optim.lr_scheduler.ChainedScheduler([p1, torch.optim.lr_scheduler.StepLR(opt, 2)]))
opt2 = torch.optim.SGD(m.parameters(), lr=0.1)
E(lambda: torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.StepLR(opt, 2), torch.optim.lr_scheduler.StepLR(opt2, 2)], milestones=[2]))
E(lambda: torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.StepLR(opt, 2)], milestones=[2]))
E(lambda: torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3))
opt3 = torch.optim.Adam(m.parameters(), lr=0.01)
s3 = torch.optim.lr_scheduler.CosineAnnealingLR(opt3, T_max=4)
print(opt3.param_groups[0]['lr'], s3.get_last_lr(), s3.optimizer is opt3, s3.T_max, s3.eta_min)
E(lambda: s3.get_lr())
W(lambda: s3.step(2))
print(s3.get_last_lr(), s3.last_epoch)
E(lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt3, T_0=0))
E(lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt3, T_0=2, T_mult=1.5))
E(lambda: torch.optim.lr_scheduler.CyclicLR(opt3, 0.01, 0.1))
E(lambda: torch.optim.lr_scheduler.CyclicLR(opt3, 0.01, 0.1, mode='bad', cycle_momentum=False))
E(lambda: torch.optim.lr_scheduler.LinearLR(opt3, start_factor=0))
E(lambda: torch.optim.lr_scheduler.ConstantLR(opt3, factor=2))
E(lambda: torch.optim.lr_scheduler.ExponentialLR(opt3))
E(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt3, mode='avg'))
E(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt3, threshold_mode='x'))
E(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt3, min_lr=[0.1, 0.2]))
'''

# (no padding wider than the kernel: oneDNN then runs its gemm-based kernel, not emulated)
PROGRAMS['cnn_padding_modes_pools_bn_lazy'] = PRE + r'''
torch.manual_seed(90)
F = torch.nn.functional
cfgs = [
  dict(pm='zeros', n=1, k=3, s=1, d=1, pool='max'),
  dict(pm='reflect', n=4, k=3, s=1, d=1, pool='avg'),
  dict(pm='circular', n=2, k=3, s=2, d=1, pool='adapt'),
  dict(pm='replicate', n=3, k=5, s=1, d=1, pool='max'),
  dict(pm='zeros', n=1, k=3, s=1, d=2, pool='avg'),
  dict(pm='zeros', n=2, k=3, s=1, d=2, pool='max'),
  dict(pm='zeros', n=1, k=1, s=1, d=1, pool='max'),
]
for c in cfgs:
    torch.manual_seed(1)
    conv = torch.nn.Conv2d(3, 6, c['k'], stride=c['s'], dilation=c['d'], padding=1, padding_mode=c['pm'])
    pool = {'max': torch.nn.MaxPool2d(2, ceil_mode=True), 'avg': torch.nn.AvgPool2d(2, count_include_pad=False, padding=1),
            'adapt': torch.nn.AdaptiveAvgPool2d((2, 2))}[c['pool']]
    m = torch.nn.Sequential(conv, torch.nn.BatchNorm2d(6), torch.nn.ReLU(), pool, torch.nn.Flatten(), torch.nn.LazyLinear(3))
    x = torch.randn(c['n'], 3, 9, 9)
    y = torch.randint(0, 3, (c['n'],))
    m(x)
    opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
    for step in range(2):
        opt.zero_grad()
        loss = F.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        print(c['pm'], c['n'], step, loss.item())
    print(conv.weight.grad.sum().item(), conv.bias.grad.tolist()[:3], m[5].weight.grad.sum().item())
'''

PROGRAMS['conv_autoencoder_group_instance_norm'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(3)
# conv autoencoder with transpose conv + upsample
enc = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, stride=2, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(4, 8, 3, stride=2, padding=1))
dec = torch.nn.Sequential(torch.nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), torch.nn.ReLU(),
                          torch.nn.Upsample(scale_factor=2, mode='nearest'), torch.nn.Conv2d(4, 1, 3, padding=1), torch.nn.Sigmoid())
x = torch.rand(4, 1, 8, 8)
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters()], lr=0.01)
for step in range(3):
    opt.zero_grad()
    rec = dec(enc(x))
    loss = F.binary_cross_entropy(rec, x)
    loss.backward()
    opt.step()
    print(step, loss.item(), rec.shape)
# group norm / instance norm
m = torch.nn.Sequential(torch.nn.Conv1d(2, 6, 3), torch.nn.GroupNorm(3, 6), torch.nn.ReLU(), torch.nn.InstanceNorm1d(6, affine=True), torch.nn.Flatten(), torch.nn.Linear(6 * 8, 1))
x = torch.randn(5, 2, 10); y = torch.randn(5, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad(); loss = F.mse_loss(m(x), y); loss.backward(); opt.step()
    print(step, loss.item())
print(m[1].weight.grad, m[3].bias.grad)
'''

PROGRAMS['bilinear_bag_attention_pixelshuffle'] = PRE + r'''
F = torch.nn.functional
# bilinear + embeddingbag
torch.manual_seed(4)
bag = torch.nn.EmbeddingBag(10, 3, mode='mean')
bil = torch.nn.Bilinear(3, 3, 2)
tok = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
off = torch.tensor([0, 3, 5])
y = torch.tensor([0, 1, 1])
opt = torch.optim.Adagrad([*bag.parameters(), *bil.parameters()], lr=0.1)
for step in range(3):
    opt.zero_grad()
    e = bag(tok, off)
    loss = F.cross_entropy(bil(e, e.flip(0)), y)
    loss.backward(); opt.step()
    print(step, loss.item())
print(bag.weight.grad[4], bil.bias.grad)
# MHA
torch.manual_seed(5)
mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
q = torch.randn(2, 5, 8)
opt = torch.optim.SGD(mha.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    out, w = mha(q, q, q)
    loss = out.pow(2).mean(); loss.backward(); opt.step()
    print(step, loss.item(), w.shape)
print(mha.in_proj_weight.grad.sum().item(), w[0, 0])
# pixel shuffle + unflatten
torch.manual_seed(6)
m = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Unflatten(1, (4, 2, 2)), torch.nn.PixelShuffle(2), torch.nn.Flatten(), torch.nn.Linear(16, 1))
x = torch.randn(3, 4)
opt = torch.optim.RMSprop(m.parameters(), lr=0.01)
for step in range(3):
    opt.zero_grad(); loss = m(x).abs().mean(); loss.backward(); opt.step()
    print(step, loss.item())
'''


# ---- float64 models and data loaders

# fixed: a float64 convolution's weight gradient from a non-contiguous output gradient (here the LSTM's input
# gradient, transposed back) is summed by MKL's dgemm from one 64-byte-aligned contiguous copy, as PyTorch's
PROGRAMS['float64_models_conv1d_into_lstm'] = PRE + r'''
torch.manual_seed(7)
torch.set_default_dtype(torch.float64)
X = torch.randn(20, 4)
y = torch.randint(0, 3, (20,))
m = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6), torch.nn.ELU(), torch.nn.Dropout(0.1), torch.nn.Linear(6, 3))
opt = torch.optim.NAdam(m.parameters(), lr=0.02)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(m(X), y, label_smoothing=0.05)
    loss.backward()
    opt.step()
    print(step, loss.item(), loss.dtype)
print(m[0].weight.grad[0].tolist())
torch.set_default_dtype(torch.float32)
m2 = torch.nn.Conv1d(2, 3, 3).double()
lstm = torch.nn.LSTM(3, 4, batch_first=True).double()
x = torch.randn(2, 2, 7, dtype=torch.float64)
opt = torch.optim.Adam([*m2.parameters(), *lstm.parameters()], lr=0.01)
for step in range(3):
    opt.zero_grad()
    out, (h, c) = lstm(m2(x).transpose(1, 2))
    loss = out.pow(2).sum()
    loss.backward(); opt.step()
    print(step, loss.item())
print(lstm.weight_ih_l0.grad[0].tolist(), m2.weight.grad.sum().item())
'''

PROGRAMS['dataloader_weighted_sampler_random_split'] = PRE + r'''
from torch.utils.data import TensorDataset, DataLoader, random_split, WeightedRandomSampler
torch.manual_seed(8)
X = torch.randn(23, 3); y = (X[:, 0] > 0).long()
ds = TensorDataset(X, y)
g = torch.Generator().manual_seed(8)
tr, va = random_split(ds, [0.75, 0.25], generator=g)
print(len(tr), len(va), tr.indices[:5])
w = torch.where(y[tr.indices] == 1, 3.0, 1.0)
sampler = WeightedRandomSampler(w, num_samples=len(tr), replacement=True, generator=g)
dl = DataLoader(tr, batch_size=5, sampler=sampler)
vl = DataLoader(va, batch_size=4, shuffle=False)
m = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.3)
for epoch in range(2):
    m.train(); tot = 0.0; n = 0
    for i, (xb, yb) in enumerate(dl):
        opt.zero_grad(); loss = torch.nn.functional.cross_entropy(m(xb), yb); loss.backward(); opt.step()
        tot += loss.item() * len(xb); n += len(xb)
        if i == 0: print(' first batch', yb, xb.shape)
    m.eval(); correct = 0
    with torch.no_grad():
        for xb, yb in vl:
            correct += (m(xb).argmax(1) == yb).sum().item()
    print(epoch, tot / n, correct, len(vl), len(dl))
dl2 = DataLoader(ds, batch_size=6, shuffle=True, drop_last=True, generator=torch.Generator().manual_seed(1))
print([yb.tolist() for _, yb in dl2], len(dl2))
'''


PROGRAMS['online_sgd_one_sample_steps'] = PRE + r'''
torch.manual_seed(9)
X = torch.randn(12, 5)
y = torch.randn(12)
m = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.Tanh(), torch.nn.Linear(7, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True)
for epoch in range(2):
    for xi, yi in zip(X, y):
        opt.zero_grad()
        out = m(xi)
        loss = (out - yi).pow(2).sum()
        loss.backward()
        opt.step()
    print(epoch, loss.item(), out.shape, out.grad_fn)
print(m[0].weight.grad[0].tolist(), m[2].weight.tolist())
m1 = torch.nn.Linear(5, 3)
o = m1(X[0])
o.sum().backward()
print(o.tolist(), m1.weight.grad[0].tolist(), o.grad_fn, o.grad_fn.next_functions)
x1 = X[:1]
o2 = m1(x1.t().contiguous().t())
print(o2.tolist())
w = torch.randn(5, requires_grad=True)
for i in range(3):
    p = torch.sigmoid(X @ w)
    l = torch.nn.functional.binary_cross_entropy(p, (y > 0).float())
    l.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        w.grad.zero_()
    print(i, l.item(), (X @ w)[:2].tolist())
'''

PROGRAMS['student_training_errors'] = PRE + r'''
torch.manual_seed(10)
m = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
E(lambda: m(x.double()))
E(lambda: m(torch.randn(4, 2)))
E(lambda: torch.nn.functional.cross_entropy(m(x), torch.tensor([0., 1., 1., 0.])))
E(lambda: torch.nn.functional.cross_entropy(m(x), torch.tensor([0, 1, 2, 5])))
E(lambda: torch.nn.functional.cross_entropy(m(x), torch.tensor([[0], [1], [1], [0]])))
E(lambda: torch.nn.functional.binary_cross_entropy(m(x), torch.rand(4, 2)))
E(lambda: torch.nn.functional.binary_cross_entropy(torch.sigmoid(m(x)), torch.randint(0, 2, (4, 2))))
E(lambda: torch.nn.functional.binary_cross_entropy_with_logits(m(x), torch.rand(4, 3)))
E(lambda: torch.nn.Embedding(5, 2)(torch.tensor([1, 5])))
E(lambda: torch.nn.Embedding(5, 2)(torch.tensor([1.0, 2.0])))
bn = torch.nn.BatchNorm1d(2)
E(lambda: bn(torch.randn(1, 2)))
E(lambda: torch.nn.Conv2d(3, 4, 3)(torch.randn(2, 1, 5, 5)))
E(lambda: torch.nn.Conv2d(3, 4, 3)(torch.randn(2, 3, 2, 2)))
E(lambda: torch.nn.LSTM(3, 4)(torch.randn(5, 2, 4)))
E(lambda: torch.optim.SGD(m, lr=0.1))
E(lambda: torch.optim.SGD([m(x)], lr=0.1))
E(lambda: torch.optim.SGD([{'params': m.weight}, {'params': m.weight}], lr=0.1))
E(lambda: m(x).backward())
E(lambda: m.weight.add_(1))
y = m(x)
with torch.no_grad():
    m.weight.mul_(2)
E(lambda: y.sum().backward())
print(m.weight.grad)
opt = torch.optim.Adam(m.parameters())
print(opt.step(), m.weight.grad)
E(lambda: torch.nn.functional.mse_loss(m(x), torch.randn(4, 2).long()))
E(lambda: torch.nn.functional.nll_loss(m(x), torch.tensor([0, 1, 1])))
E(lambda: torch.nn.functional.kl_div(m(x), torch.rand(4, 2), reduction='batchmean', log_target='yes'))
E(lambda: torch.nn.MSELoss(reduction='avg')(m(x), torch.randn(4, 2)))
E(lambda: torch.nn.Dropout(1.5))
E(lambda: torch.nn.functional.dropout(x, p=-0.1))
E(lambda: torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=3.0, error_if_nonfinite=True))
m.weight.grad = torch.full_like(m.weight, float('nan'))
E(lambda: torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0), m.weight.grad)
'''


# fixed: a dilated convolution of one sample runs slow_conv_dilated2d (im2col + MKL gemm, as slow_conv2d): its
# float32 bits (forward and the three gradients) were NumPy's
PROGRAMS['dilated_conv1d_one_sequence_wavenet_style'] = PRE + r'''
torch.manual_seed(91)
class Dilated(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = torch.nn.ModuleList([torch.nn.Conv1d(1 if i == 0 else 4, 4, 2, dilation=2 ** i) for i in range(3)])
        self.out = torch.nn.Conv1d(4, 1, 1)
    def forward(self, x):
        for conv in self.convs:
            x = torch.tanh(conv(x))
        return self.out(x)
net = Dilated()
seq = torch.sin(torch.linspace(0, 12, 40)).view(1, 1, -1)
target = seq[:, :, 7:]
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(4):
    opt.zero_grad()
    pred = net(seq)
    loss = torch.nn.functional.mse_loss(pred, target)
    loss.backward()
    opt.step()
    print(step, pred.shape, loss.item())
print(net.convs[2].weight.grad[0].tolist(), net.convs[1].bias.grad.tolist())
img = torch.randn(1, 2, 9, 9)
c2 = torch.nn.Conv2d(2, 3, 3, padding=2, dilation=2)
out = c2(img)
out.pow(2).mean().backward()
print(out[0, 0, 0].tolist(), c2.weight.grad.sum().item(), c2.bias.grad.tolist())
'''


# fixed: depthwise convolutions (groups = channels) run oneDNN's jit_dw kernels: their float32 bits (forward,
# input gradient, and the weight and bias gradients of 3x3 kernels) were NumPy's
PROGRAMS['depthwise_convs_full_precision'] = PRE + r'''
torch.manual_seed(92)
class DWNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(1, 8, 3, padding=1)
        self.dw1 = torch.nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8)
        self.dw2 = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False)
        self.head = torch.nn.Linear(8, 3)
    def forward(self, x):
        x = torch.relu(self.dw1(torch.relu(self.stem(x))))
        x = torch.relu(self.dw2(x) + x)
        return self.head(x.mean(dim=(2, 3)))
net = DWNet()
x = torch.randn(6, 1, 10, 10)
y = torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(net.dw1.weight.grad[0, 0].tolist())
print(net.dw1.bias.grad.tolist()[:4], net.dw2.weight.grad.sum().item())
with torch.no_grad():
    print(net.dw1(torch.ones(1, 8, 4, 4))[0, 0].tolist())
print(net.dw1)
'''


# ---- init recipes, a VAE, sampling text, mixup and class weights

PROGRAMS['init_recipes_generator_then_train'] = PRE + r'''
import math
torch.manual_seed(11)
g = torch.Generator().manual_seed(11)
m = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 6), torch.nn.Tanh(), torch.nn.Linear(6, 2))
torch.nn.init.kaiming_normal_(m[0].weight, mode='fan_out', nonlinearity='relu', generator=g)
torch.nn.init.orthogonal_(m[2].weight, gain=torch.nn.init.calculate_gain('tanh'), generator=g)
torch.nn.init.trunc_normal_(m[4].weight, std=0.02, a=-0.04, b=0.04, generator=g)
torch.nn.init.constant_(m[0].bias, 0.1)
torch.nn.init.uniform_(m[2].bias, -0.1, 0.1, generator=g)
torch.nn.init.normal_(m[4].bias, 0, 0.01)
print(m[0].weight[0].tolist(), m[2].weight[0].tolist(), m[4].weight[0].tolist())
print(m[2].bias.tolist(), m[4].bias.tolist())
print(torch.nn.init.calculate_gain('leaky_relu', 0.2), torch.nn.init.calculate_gain('selu'), torch.nn.init.calculate_gain('conv2d'))
w = torch.empty(3, 5)
torch.nn.init.sparse_(w, sparsity=0.5, std=0.1, generator=g)
print(w)
torch.nn.init.xavier_normal_(w, gain=2.0, generator=g); print(w)
torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5), generator=g); print(w)
torch.nn.init.eye_(w); print(w)
c = torch.empty(4, 2, 3, 3)
torch.nn.init.dirac_(c[:2]); print(c[0, 0], c[1, 1])
X = torch.randn(16, 4); y = torch.randint(0, 2, (16,))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(m(X), y)
    loss.backward(); opt.step()
    print(step, loss.item())
def init_fn(mod):
    if isinstance(mod, torch.nn.Linear):
        torch.nn.init.xavier_uniform_(mod.weight)
        mod.bias.data.fill_(0.01)
print(m.apply(init_fn))
print(m[4].weight)
'''

PROGRAMS['tiny_vae_reparameterization'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(93)
class VAE(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.Linear(8, 6)
        self.mu = torch.nn.Linear(6, 2)
        self.logvar = torch.nn.Linear(6, 2)
        self.dec = torch.nn.Sequential(torch.nn.Linear(2, 6), torch.nn.ReLU(), torch.nn.Linear(6, 8))
    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return self.dec(z), mu, logvar
vae = VAE()
data = torch.rand(16, 8).round()
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
for step in range(4):
    opt.zero_grad()
    logits, mu, logvar = vae(data)
    rec = F.binary_cross_entropy_with_logits(logits, data, reduction='sum')
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / data.size(0)
    loss.backward()
    opt.step()
    print(step, loss.item(), rec.item(), kld.item())
vae.eval()
with torch.no_grad():
    z = torch.randn(3, 2)
    print(torch.sigmoid(vae.dec(z)))
'''

PROGRAMS['char_gru_train_then_sample'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(94)
text = "abcabcabdabcabe"
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
data = torch.tensor([stoi[c] for c in text])
emb = torch.nn.Embedding(len(vocab), 4)
gru = torch.nn.GRU(4, 8, batch_first=True)
head = torch.nn.Linear(8, len(vocab))
params = [*emb.parameters(), *gru.parameters(), *head.parameters()]
opt = torch.optim.Adam(params, lr=0.05)
x, y = data[:-1].unsqueeze(0), data[1:].unsqueeze(0)
for step in range(5):
    opt.zero_grad()
    out, h = gru(emb(x))
    loss = F.cross_entropy(head(out).view(-1, len(vocab)), y.view(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(step, round(loss.item(), 5))
g = torch.Generator().manual_seed(0)
with torch.no_grad():
    idx = torch.tensor([[stoi['a']]])
    h = None
    s = 'a'
    for _ in range(10):
        out, h = gru(emb(idx), h)
        probs = F.softmax(head(out[:, -1]) / 0.8, dim=-1)
        idx = torch.multinomial(probs, 1, generator=g)
        s += vocab[idx.item()]
    print(s, probs)
    print(torch.argmax(probs, dim=-1), probs.max(), torch.distributions.Categorical(probs=probs).entropy())
'''

PROGRAMS['mixup_soft_labels_class_weights'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(95)
X = torch.randn(12, 4)
y = torch.randint(0, 3, (12,))
m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
beta = torch.distributions.Beta(torch.tensor([0.4]), torch.tensor([0.4]))
for step in range(4):
    lam = beta.sample().item()
    perm = torch.randperm(X.size(0))
    xm = lam * X + (1 - lam) * X[perm]
    noisy = xm + 0.05 * torch.randn_like(xm)
    out = m(noisy)
    loss = lam * F.cross_entropy(out, y) + (1 - lam) * F.cross_entropy(out, y[perm])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(lam, 6), loss.item())
soft = F.one_hot(y, 3).float() * 0.9 + 0.1 / 3
loss = torch.sum(-soft * F.log_softmax(m(X), dim=1), dim=1).mean()
print(loss, F.cross_entropy(m(X), y, label_smoothing=0.1))
counts = torch.bincount(y, minlength=3).float()
w = counts.sum() / (3 * counts)
print(w, F.cross_entropy(m(X), y, weight=w))
idx = torch.multinomial(w[y], 12, replacement=True)
print(idx, y[idx].bincount(minlength=3))
'''


PROGRAMS['embedding_max_norm_bags_encoder_lbfgs_wolfe'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(96)
emb = torch.nn.Embedding(12, 5, max_norm=1.0, norm_type=2.0)
lin = torch.nn.Linear(5, 2)
idx = torch.randint(0, 12, (6, 3))
y = torch.randint(0, 2, (6,))
opt = torch.optim.SGD([*emb.parameters(), *lin.parameters()], lr=0.5)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(lin(emb(idx).mean(1)), y)
    loss.backward(); opt.step()
    print(step, loss.item(), emb.weight.norm(dim=1)[:4].tolist())
bag = torch.nn.EmbeddingBag(12, 4, mode='max')
bag2 = torch.nn.EmbeddingBag(12, 4, mode='sum', padding_idx=0)
w = torch.rand(6, 3)
o = bag(idx) + bag2(idx, per_sample_weights=w)
o.sum().backward()
print(o[0].tolist(), bag.weight.grad.sum().item(), bag2.weight.grad[idx[0, 0]].tolist())
torch.manual_seed(97)
enc = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 1)
head = torch.nn.Linear(8, 2)
x = torch.randn(3, 4, 8)
t = torch.tensor([0, 1, 1])
opt = torch.optim.AdamW([*enc.parameters(), *head.parameters()], lr=1e-3)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(head(enc(x).mean(1)), t)
    loss.backward(); opt.step()
    print(step, loss.item())
torch.manual_seed(98)
m = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 1))
X, Y = torch.randn(20, 3), torch.randn(20, 1)
opt = torch.optim.LBFGS(m.parameters(), lr=0.5, max_iter=4, line_search_fn='strong_wolfe')
def closure():
    opt.zero_grad(); l = F.mse_loss(m(X), Y); l.backward(); return l
for i in range(2):
    print(i, opt.step(closure).item())
print(m[0].weight[0].tolist())
'''


PROGRAMS['norm_layers_dropout_nd_train_eval_items'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(99)
net = torch.nn.Sequential(torch.nn.Conv1d(3, 8, 3, padding=1), torch.nn.BatchNorm1d(8), torch.nn.ReLU(),
                          torch.nn.Dropout1d(0.2), torch.nn.AvgPool1d(2), torch.nn.Conv1d(8, 8, 3),
                          torch.nn.LayerNorm([8, 3]), torch.nn.Flatten(), torch.nn.Linear(24, 2))
x = torch.randn(5, 3, 10)
y = torch.tensor([0, 1, 0, 1, 1])
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(3):
    net.train()
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward(); opt.step()
    net.eval()
    with torch.no_grad():
        ev = F.cross_entropy(net(x), y)
    print(step, loss.item(), ev.item(), net[1].running_var[:3].tolist())
print(net[6].weight.grad[0].tolist(), net[1].weight.grad.tolist()[:3])
torch.manual_seed(100)
net2 = torch.nn.Sequential(torch.nn.Conv2d(2, 6, 3), torch.nn.GroupNorm(2, 6), torch.nn.SiLU(), torch.nn.Dropout2d(0.3),
                           torch.nn.MaxPool2d(2, return_indices=False), torch.nn.BatchNorm2d(6), torch.nn.Flatten(), torch.nn.LazyLinear(1))
x2 = torch.randn(4, 2, 8, 8)
net2(x2)
opt = torch.optim.RMSprop(net2.parameters(), lr=0.01)
for step in range(3):
    opt.zero_grad()
    loss = net2(x2).pow(2).mean()
    loss.backward(); opt.step()
    print(step, loss.item(), net2[5].running_mean[:2].tolist())
print(net2[1].weight.grad.tolist(), net2[7])
'''


PROGRAMS['checkpoint_save_resume_model_optimizer_scheduler'] = PRE + r'''
import io
F = torch.nn.functional
torch.manual_seed(101)
def make():
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    opt = torch.optim.Adam(m.parameters(), lr=0.05)
    sch = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return m, opt, sch
X, y = torch.randn(10, 3), torch.randn(10, 1)
m, opt, sch = make()
def epoch(m, opt, sch):
    opt.zero_grad(); loss = F.mse_loss(m(X), y); loss.backward(); opt.step(); sch.step(); return loss.item()
for e in range(3):
    print('a', e, epoch(m, opt, sch), sch.get_last_lr())
buf = io.BytesIO()
torch.save({'epoch': 3, 'model': m.state_dict(), 'opt': opt.state_dict(), 'sched': sch.state_dict(),
            'rng': torch.get_rng_state()}, buf)
print(len(buf.getvalue()) > 0)
for e in range(3, 5):
    print('a', e, epoch(m, opt, sch), sch.get_last_lr())
buf.seek(0)
ck = torch.load(buf)
print(sorted(ck), ck['epoch'], ck['sched'])
m2, opt2, sch2 = make()
m2.load_state_dict(ck['model']); opt2.load_state_dict(ck['opt']); sch2.load_state_dict(ck['sched'])
torch.set_rng_state(ck['rng'])
for e in range(ck['epoch'], 5):
    print('b', e, epoch(m2, opt2, sch2), sch2.get_last_lr())
print(torch.equal(m[0].weight, m2[0].weight), opt2.state_dict()['state'][0]['step'])
print(ck['opt']['param_groups'])
'''


PROGRAMS['fgsm_saliency_input_optimization'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(102)
model = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 3))
imgs = torch.rand(4, 1, 8, 8)
labels = torch.tensor([0, 1, 2, 1])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(imgs), labels)
    loss.backward()
    opt.step()
model.eval()
for p in model.parameters():
    p.requires_grad_(False)
x = imgs.clone().requires_grad_(True)
loss = F.cross_entropy(model(x), labels)
loss.backward()
print(loss.item(), x.grad.abs().sum().item(), x.grad.sign()[0, 0, 0])
for eps in (0.0, 0.05, 0.1):
    adv = (x + eps * x.grad.sign()).clamp(0, 1).detach()
    with torch.inference_mode():
        pred = model(adv).argmax(1)
    print(eps, pred, (pred == labels).float().mean().item(), adv.requires_grad, pred.is_inference())
sal = torch.autograd.grad(model(x)[torch.arange(4), labels].sum(), x)[0]
print(sal.abs().amax(dim=(1, 2, 3)), sal.shape)
x2 = imgs[:1].clone().requires_grad_(True)
opt_x = torch.optim.Adam([x2], lr=0.05)
for step in range(3):
    opt_x.zero_grad()
    score = -model(x2)[0, 2]
    score.backward()
    opt_x.step()
    print(step, score.item(), x2.grad.norm().item())
print([p.grad is None for p in model.parameters()], model[0].weight.requires_grad)
'''


PROGRAMS['two_optimizers_shared_body_tensor_lr'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(103)
shared = torch.nn.Linear(4, 6)
head_a, head_b = torch.nn.Linear(6, 2), torch.nn.Linear(6, 1)
opt_body = torch.optim.SGD(shared.parameters(), lr=torch.tensor(0.05), momentum=0.9)
opt_heads = torch.optim.Adam([*head_a.parameters(), *head_b.parameters()], lr=0.01)
X = torch.randn(10, 4); ya = torch.randint(0, 2, (10,)); yb = torch.randn(10, 1)
for step in range(3):
    opt_body.zero_grad(); opt_heads.zero_grad()
    h = torch.relu(shared(X))
    la, lb = F.cross_entropy(head_a(h), ya), F.mse_loss(head_b(h), yb)
    total = la + 0.5 * lb
    total.backward()
    opt_body.step(); opt_heads.step()
    print(step, la.item(), lb.item(), total.item())
print(opt_body.param_groups[0]['lr'], shared.bias.grad)
vec = torch.nn.utils.parameters_to_vector(head_b.parameters())
torch.nn.utils.vector_to_parameters(vec * 0, head_b.parameters())
print(head_b.weight, head_b.bias.grad)
shared.zero_grad()
print(shared.weight.grad, head_a.weight.grad is None)
with torch.no_grad():
    for g in opt_heads.param_groups:
        g['lr'] = g['lr'] * 0.1
print(opt_heads.param_groups[0]['lr'], opt_heads.state_dict()['param_groups'][0]['lr'])
'''


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
