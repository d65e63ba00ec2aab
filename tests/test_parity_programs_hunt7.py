"""Parity programs from a seventh hunt: whole tutorial-style programs on the newer areas.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch) and
both stdouts must be identical once object addresses are masked. The areas: ``torch.func`` (per-sample gradients
with ``vmap(grad)``, jacrev/jacfwd/hessian, functional_call, ensembling), ``torch.distributions`` (VAE
reparameterisation, policy gradients, MultivariateNormal, Gamma/Beta/Dirichlet rsample), attention
(``nn.MultiheadAttention``, ``nn.TransformerEncoder`` training with masks, ``F.scaled_dot_product_attention``),
``torch.fft`` losses, packed sequences with LSTM/GRU, ``nn.utils.parametrizations``, ``torch.testing.assert_close``,
``torch.compile``, NumPy interop and classic seeded training loops. Programs marked "fixed:" printed something
different from PyTorch before this hunt's fix; the others matched from the start and guard the new features.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both, skip_on_intel_gemm_bits

PROGRAMS: dict[str, str] = {}

PROGRAMS['adam_state_inspect'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=0.1, betas=(0.8, 0.99), amsgrad=True)
for _ in range(2):
    opt.zero_grad()
    m(torch.randn(3, 2)).pow(2).mean().backward()
    opt.step()
st = opt.state[m.weight]
print(sorted(st.keys()))
print(st['step'], st['exp_avg'], st['exp_avg_sq'], st['max_exp_avg_sq'])
print(opt)
sd = opt.state_dict()
print(sd['param_groups'][0]['params'], sd['param_groups'][0]['amsgrad'])
opt.zero_grad(set_to_none=False)
print(m.weight.grad)
opt.zero_grad()
print(m.weight.grad)
opt.add_param_group({'params': [nn.Parameter(torch.zeros(1))], 'lr': 0.5})
print(len(opt.param_groups), opt.param_groups[1]['lr'], opt.param_groups[1]['betas'])
'''

PROGRAMS['attn_encoder_eval_inference'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2)
x = torch.randn(2, 3, 8)
enc.eval()
with torch.no_grad():
    y = enc(x)
print(y[0])
pad = torch.tensor([[False, False, True], [False, False, False]])
with torch.no_grad():
    y2 = enc(x, src_key_padding_mask=pad)
print(y2[0])
with torch.inference_mode():
    y3 = layer(x)
print(y3[1, 0], y3.requires_grad)
'''

PROGRAMS['attn_encoder_padding_train'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
vocab, d = 12, 8
emb = nn.Embedding(vocab, d, padding_idx=0)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 2, 16, 0.0, batch_first=True), 1, enable_nested_tensor=False)
clf = nn.Linear(d, 2)
params = [*emb.parameters(), *enc.parameters(), *clf.parameters()]
opt = torch.optim.AdamW(params, lr=5e-3, weight_decay=0.01)
x = torch.tensor([[5, 6, 7, 0, 0], [1, 2, 3, 4, 5], [8, 9, 0, 0, 0]])
y = torch.tensor([1, 0, 1])
pad = x == 0
for ep in range(3):
    h = enc(emb(x), src_key_padding_mask=pad)
    h = h.masked_fill(pad.unsqueeze(-1), 0.0)
    pooled = h.sum(1) / (~pad).sum(1, keepdim=True).float()
    logits = clf(pooled)
    loss = nn.functional.cross_entropy(logits, y, label_smoothing=0.1)
    opt.zero_grad(); loss.backward()
    torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)
    opt.step()
    print(f"ep {ep} loss {loss.item():.4f} pred {logits.argmax(-1).tolist()}")
'''

PROGRAMS['attn_manual_selfattention_train'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Head(nn.Module):
    def __init__(self, n_embd, head_size, block):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer('tril', torch.tril(torch.ones(block, block)))
    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x); q = self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)
vocab, n_embd, block = 7, 8, 4
emb = nn.Embedding(vocab, n_embd)
head = Head(n_embd, 8, block)
lm = nn.Linear(8, vocab)
params = list(emb.parameters()) + list(head.parameters()) + list(lm.parameters())
opt = torch.optim.AdamW(params, lr=1e-2)
idx = torch.randint(0, vocab, (2, block + 1))
xb, yb = idx[:, :-1], idx[:, 1:]
for step in range(4):
    logits = lm(head(emb(xb)))
    B, T, C = logits.shape
    loss = F.cross_entropy(logits.view(B * T, C), yb.reshape(B * T))
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    print(f"step {step}: {loss.item():.4f}")
probs = F.softmax(logits[:, -1, :], dim=-1)
print(torch.multinomial(probs, num_samples=1))
'''

PROGRAMS['attn_mha'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
x = torch.randn(2, 5, 8)
out, w = mha(x, x, x)
print(out.shape, w.shape)
print(out[0, 0])
print(w[0].sum(-1))
mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
out2, w2 = mha(x, x, x, attn_mask=mask)
print(w2[0])
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
out3, w3 = mha(x, x, x, key_padding_mask=kpm, average_attn_weights=False)
print(w3.shape, w3[0, 0, 0])
print(mha)
out3.sum().backward()
print(mha.in_proj_weight.grad.shape, f"{mha.out_proj.weight.grad.abs().sum().item():.4f}")
'''

PROGRAMS['attn_mha_average_weights'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(6, 3, dropout=0.0, batch_first=False)
q = torch.randn(2, 1, 6)
kv = torch.randn(4, 1, 6)
o, w = mha(q, kv, kv)
print(w)
o, w = mha(q, kv, kv, average_attn_weights=False)
print(w.shape, w[0, 1])
float_mask = torch.zeros(2, 4)
float_mask[:, 0] = float('-inf')
o, w = mha(q, kv, kv, attn_mask=float_mask)
print(w[0])
mha.eval()
with torch.no_grad():
    o2, _ = mha(q, kv, kv, attn_mask=float_mask)
print(torch.allclose(o, o2))
print(mha.in_proj_bias.shape, mha.out_proj)
'''

PROGRAMS['attn_mha_kdim_vdim'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(6, 3, kdim=4, vdim=5)
q = torch.randn(3, 2, 6)
k = torch.randn(7, 2, 4)
v = torch.randn(7, 2, 5)
o, w = mha(q, k, v)
print(o.shape, w.shape)
print(o[0, 0])
print([n for n, _ in mha.named_parameters()])
o, w = mha(q, k, v, need_weights=False)
print(w)
mha2 = nn.MultiheadAttention(4, 2, bias=False, add_bias_kv=True, dropout=0.0)
x = torch.randn(3, 1, 4)
o2, w2 = mha2(x, x, x)
print(w2.shape, o2.sum())
try:
    nn.MultiheadAttention(5, 2)
except AssertionError as e:
    print('AssertionError', e)
'''

PROGRAMS['attn_mha_need_weights_false_train'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(4, 1, batch_first=True)
opt = torch.optim.SGD(mha.parameters(), lr=0.1)
q = torch.randn(2, 3, 4)
target = torch.randn(2, 3, 4)
for i in range(3):
    out, w = mha(q, q, q, need_weights=False)
    loss = (out - target).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, w, f"{loss.item():.4f}")
print(out.grad_fn.name())
'''

PROGRAMS['attn_positional_encoding'] = r'''
import torch
import torch.nn as nn
import math
torch.manual_seed(0)
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=50):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)
    def forward(self, x):
        return x + self.pe[:x.size(0)]
pe = PositionalEncoding(6)
print(pe.pe[:3, 0])
emb = nn.Embedding(10, 6)
tok = torch.tensor([[1, 2], [3, 4], [5, 6]])
x = pe(emb(tok) * math.sqrt(6))
print(x.shape)
print(x[2, 1])
print(list(pe.state_dict().keys()))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(6, 2, 12, 0.0), 1, enable_nested_tensor=False)
print(enc(x).shape)
mask = torch.tensor([[False, False, True], [False, False, False]])
print(enc(x, src_key_padding_mask=mask)[0, 0])
'''

# fixed: the causal first row of F.scaled_dot_product_attention had a tiny nonzero query gradient (now an exact 0)
PROGRAMS['attn_sdpa'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.randn(2, 2, 4, 8, requires_grad=True)
k = torch.randn(2, 2, 4, 8)
v = torch.randn(2, 2, 4, 8)
o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(o[0, 0])
o.sum().backward()
print(q.grad[0, 0, 0])
print(o.grad_fn)
m = torch.ones(4, 4, dtype=torch.bool).tril()
o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
print(torch.allclose(o, o2))
o3 = F.scaled_dot_product_attention(q, k, v, scale=0.5)
print(o3[1, 1, 3])
fm = torch.zeros(4, 4).masked_fill(~m, float('-inf'))
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=fm), o, atol=1e-6))
'''

PROGRAMS['attn_transformer_decoder'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0, batch_first=True)
src = torch.randn(2, 5, 8)
tgt = torch.randn(2, 4, 8)
tgt_mask = model.generate_square_subsequent_mask(4)
out = model(src, tgt, tgt_mask=tgt_mask)
print(out.shape)
print(out[0, 0])
out.mean().backward()
print(f"{model.encoder.layers[0].self_attn.in_proj_weight.grad.abs().sum().item():.5f}")
dl = nn.TransformerDecoderLayer(8, 2, 16, 0.0, batch_first=True, norm_first=True)
print(dl(tgt, src, tgt_is_causal=False).shape)
print(sum(p.numel() for p in model.parameters()))
'''

PROGRAMS['attn_transformer_train'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
head = nn.Linear(8, 3)
opt = torch.optim.SGD(list(enc.parameters()) + list(head.parameters()), lr=0.1)
x = torch.randn(4, 6, 8)
y = torch.randint(0, 3, (4,))
mask = nn.Transformer.generate_square_subsequent_mask(6)
print(mask)
for step in range(3):
    h = enc(x, mask=mask, is_causal=True)
    logits = head(h.mean(1))
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
    acc = (logits.argmax(1) == y).float().mean()
    print(f"step {step}: loss={loss.item():.4f} acc={acc.item():.2f}")
'''

PROGRAMS['clip_and_sched_plateau_train'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 6), nn.ELU(), nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.1, patience=0, threshold=0.5)
x = torch.randn(12, 3); y = torch.randn(12, 1)
for epoch in range(5):
    loss = nn.functional.smooth_l1_loss(model(x), y)
    opt.zero_grad(); loss.backward()
    total = nn.utils.clip_grad_value_(model.parameters(), 0.05)
    opt.step()
    sched.step(loss.item())
    print(f"{epoch}: {loss.item():.5f} lr={opt.param_groups[0]['lr']:.5f} {sched.get_last_lr()}")
print(sched.num_bad_epochs, sched.best)
'''

PROGRAMS['compile_model'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
cmodel = torch.compile(model)
x = torch.randn(5, 3)
print(torch.allclose(cmodel(x), model(x)))
opt = torch.optim.SGD(cmodel.parameters(), lr=0.1)
for i in range(3):
    loss = cmodel(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{loss.item():.6f}")
@torch.compile
def f(a, b):
    return a.sin() + b.cos()
print(f(torch.tensor([0.5]), torch.tensor([1.0])))
print(list(cmodel.state_dict().keys()))
'''

PROGRAMS['complex_basic_grad'] = r'''
import torch
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
loss = (z * z.conj()).real.sum()
loss.backward()
print(z.grad)
w = torch.complex(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0]))
print(w, w.abs(), w.angle(), torch.view_as_real(w))
print(torch.polar(torch.tensor([1.0]), torch.tensor([3.14159 / 2])))
x = torch.randn(3, dtype=torch.cfloat, generator=torch.Generator().manual_seed(0))
print(x)
print(x.real.dtype, (x @ x.conj()).item())
'''

PROGRAMS['dist_beta_policy'] = r'''
import torch
import torch.nn as nn
from torch.distributions import Beta
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2), nn.Softplus())
opt = torch.optim.SGD(net.parameters(), lr=0.01)
s = torch.randn(4, 2)
for it in range(3):
    ab = net(s) + 1.0
    d = Beta(ab[:, 0], ab[:, 1])
    a = d.sample()
    loss = -(d.log_prob(a) * torch.tensor([1.0, -1.0, 0.5, 2.0])).mean() - 0.01 * d.entropy().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, a, f"{loss.item():.5f}")
print(d.mean, d.concentration1.shape)
'''

PROGRAMS['dist_categorical_sampling_lm'] = r'''
import torch
import torch.nn.functional as F
from torch.distributions import Categorical
torch.manual_seed(0)
logits = torch.randn(2, 5)
temperature = 0.7
probs = F.softmax(logits / temperature, dim=-1)
print(probs)
print(torch.multinomial(probs, num_samples=2))
d = Categorical(logits=logits / temperature)
print(d.sample((3,)))
topk = torch.topk(logits, 3)
print(topk.values, topk.indices)
masked = logits.masked_fill(logits < topk.values[:, -1:], float('-inf'))
print(Categorical(logits=masked).probs)
print(torch.argmax(probs, dim=-1), Categorical(probs=probs).entropy())
'''

PROGRAMS['dist_entropy_bonus_a2c'] = r'''
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal
torch.manual_seed(0)
class AC(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 8)
        self.pi = nn.Linear(8, 2)
        self.v = nn.Linear(8, 1)
    def forward(self, s):
        h = torch.relu(self.body(s))
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)
ac = AC()
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
s = torch.randn(6, 3)
r = torch.tensor([1., 0., 1., 1., 0., 0.])
gamma = 0.9
ret = torch.zeros(6)
run = 0.0
for t in reversed(range(6)):
    run = r[t] + gamma * run
    ret[t] = run
print(ret)
for it in range(3):
    dist, v = ac(s)
    a = dist.sample()
    adv = ret - v.detach()
    loss = -(dist.log_prob(a) * adv).mean() + 0.5 * (ret - v).pow(2).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad(); loss.backward()
    gn = nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
    opt.step()
    print(f"{it} {loss.item():.5f} {gn.item():.5f} {a.tolist()}")
mu = torch.zeros(2, requires_grad=True)
ns = Normal(mu, torch.ones(2) * 0.5)
act = ns.sample()
(-ns.log_prob(act).sum()).backward()
print(act, mu.grad)
'''

PROGRAMS['dist_gamma_beta_rsample'] = r'''
import torch
from torch.distributions import Gamma, Beta, Dirichlet
torch.manual_seed(0)
conc = torch.tensor([1.5, 2.0], requires_grad=True)
rate = torch.tensor([1.0, 0.5], requires_grad=True)
g = Gamma(conc, rate)
s = g.rsample()
print(s)
s.sum().backward()
print(conc.grad, rate.grad)
a = torch.tensor([2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
be = Beta(a, b)
x = be.rsample((4,))
print(x)
x.mean().backward()
print(a.grad, b.grad)
print(be.log_prob(torch.tensor([0.3])), be.mean, be.variance)
d = Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(d.sample(), d.mean)
'''

PROGRAMS['dist_gaussian_nll_train'] = r'''
import torch
import torch.nn as nn
from torch.distributions import Normal
torch.manual_seed(0)
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 2 * x + 0.3 * torch.randn_like(x)
net = nn.Linear(1, 2)
opt = torch.optim.Adam(net.parameters(), lr=0.05)
for it in range(4):
    out = net(x)
    mu, log_sigma = out[:, :1], out[:, 1:]
    dist = Normal(mu, log_sigma.exp())
    nll = -dist.log_prob(y).mean()
    opt.zero_grad(); nll.backward(); opt.step()
    print(f"{it}: nll={nll.item():.5f}")
g = nn.GaussianNLLLoss()
print(g(mu, y, log_sigma.exp() ** 2))
print(torch.nn.functional.gaussian_nll_loss(mu, y, torch.ones_like(mu)))
'''

PROGRAMS['dist_independent_kl'] = r'''
import torch
from torch.distributions import Normal, Independent, kl_divergence, Bernoulli, ContinuousBernoulli
torch.manual_seed(0)
p = Independent(Normal(torch.zeros(4, 3), torch.ones(4, 3)), 1)
q = Independent(Normal(torch.ones(4, 3) * 0.5, torch.ones(4, 3) * 2), 1)
print(kl_divergence(p, q))
x = p.sample()
print(p.log_prob(x), p.entropy())
print(p.mean.shape, p.variance.shape)
b = Independent(Bernoulli(logits=torch.zeros(2, 5)), 1)
print(b.log_prob(torch.ones(2, 5)))
cb = ContinuousBernoulli(logits=torch.tensor([0.0, 1.0]))
print(cb.log_prob(torch.tensor([0.3, 0.7])), cb.mean)
'''

PROGRAMS['dist_kl_various'] = r'''
import torch
from torch.distributions import Normal, Categorical, Bernoulli, kl_divergence, Beta, MultivariateNormal
p = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
q = Normal(torch.tensor([0.5, 0.0]), torch.tensor([2.0, 1.0]))
print(kl_divergence(p, q))
c1 = Categorical(probs=torch.tensor([0.1, 0.6, 0.3]))
c2 = Categorical(logits=torch.tensor([0.0, 0.0, 1.0]))
print(kl_divergence(c1, c2))
print(kl_divergence(Bernoulli(torch.tensor(0.3)), Bernoulli(torch.tensor(0.6))))
print(kl_divergence(Beta(torch.tensor(2.), torch.tensor(3.)), Beta(torch.tensor(1.), torch.tensor(1.))))
m1 = MultivariateNormal(torch.zeros(2), torch.eye(2))
m2 = MultivariateNormal(torch.ones(2), 2 * torch.eye(2))
print(kl_divergence(m1, m2))
try:
    kl_divergence(p, c1)
except NotImplementedError as e:
    print('NotImplementedError', e)
mu = torch.tensor([0.3, -0.2], requires_grad=True)
kl = kl_divergence(Normal(mu, torch.ones(2)), Normal(0., 1.)).sum()
kl.backward()
print(kl, mu.grad)
'''

PROGRAMS['dist_lowrank_and_studentt'] = r'''
import torch
from torch.distributions import LowRankMultivariateNormal, StudentT, Cauchy, Gumbel, HalfNormal, VonMises
torch.manual_seed(0)
lr = LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(3))
x = lr.sample()
print(x, lr.log_prob(x))
print(lr.covariance_matrix)
st = StudentT(3.0)
print(st.sample((2,)), st.log_prob(torch.tensor(0.5)))
print(Cauchy(0., 1.).log_prob(torch.tensor(1.0)), Gumbel(0., 1.).mean)
h = HalfNormal(1.0)
print(h.log_prob(torch.tensor(0.3)), h.mean)
print(VonMises(0.0, 1.0).log_prob(torch.tensor(0.5)))
'''

PROGRAMS['dist_mixture_and_support'] = r'''
import torch
from torch.distributions import MixtureSameFamily, Categorical, Normal, Independent, constraints
torch.manual_seed(0)
mix = Categorical(torch.ones(3))
comp = Normal(torch.tensor([-2.0, 0.0, 2.0]), torch.tensor([0.5, 0.5, 0.5]))
gmm = MixtureSameFamily(mix, comp)
print(gmm.sample((4,)))
print(gmm.log_prob(torch.tensor([0.0, 1.0])))
print(gmm.mean, gmm.variance)
print(Normal(0., 1.).support, Categorical(torch.ones(2)).support)
print(constraints.positive.check(torch.tensor([-1.0, 1.0])))
print(Normal.arg_constraints)
print(Normal(0., 1.).has_rsample, Categorical(torch.ones(2)).has_rsample)
try:
    Categorical(torch.ones(2)).rsample()
except NotImplementedError as e:
    print('NotImplementedError', e)
n = Normal(torch.zeros(2), torch.ones(2))
print(n.expand((3, 2)).batch_shape)
try:
    n.log_prob(torch.zeros(3))
except (ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
'''

PROGRAMS['dist_mvn'] = r'''
import torch
from torch.distributions import MultivariateNormal, Normal, Independent
torch.manual_seed(0)
loc = torch.zeros(2)
cov = torch.tensor([[2.0, 0.5], [0.5, 1.0]])
m = MultivariateNormal(loc, covariance_matrix=cov)
s = m.sample((3,))
print(s)
print(m.log_prob(s))
print(m.entropy())
print(m.scale_tril)
print(m.mean, m.variance)
print(m)
L = torch.linalg.cholesky(cov)
m2 = MultivariateNormal(loc, scale_tril=L)
print(torch.allclose(m2.log_prob(s), m.log_prob(s)))
ind = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.ones(3)))
print(ind)
'''

PROGRAMS['dist_mvn_rsample_grad'] = r'''
import torch
from torch.distributions import MultivariateNormal
torch.manual_seed(0)
mu = torch.zeros(2, requires_grad=True)
L = torch.tensor([[1.0, 0.0], [0.5, 0.8]], requires_grad=True)
d = MultivariateNormal(mu, scale_tril=L)
s = d.rsample((5,))
loss = s.pow(2).sum()
loss.backward()
print(s)
print(mu.grad, L.grad)
print(d.log_prob(s).detach())
print(d.covariance_matrix, d.precision_matrix)
batch = MultivariateNormal(torch.zeros(3, 2), torch.eye(2).expand(3, 2, 2))
print(batch.batch_shape, batch.event_shape, batch.sample().shape)
'''

# fixed: harness: an earlier torch.compile had turned PyTorch's distribution checks off (run_both resets them)
PROGRAMS['dist_normal_misc'] = r'''
import torch
from torch.distributions import Normal, Bernoulli, Uniform, Laplace
torch.manual_seed(0)
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
x = n.sample()
print(x, n.log_prob(x), n.cdf(x), n.icdf(torch.tensor([0.5, 0.9])))
print(n.entropy(), n.batch_shape, n.event_shape)
print(n.sample((2, 3)).shape, n.rsample((4,)).shape)
b = Bernoulli(probs=torch.tensor([0.3, 0.7]))
s = b.sample((3,))
print(s, b.log_prob(s), b.entropy())
b2 = Bernoulli(logits=torch.tensor([0.0, 2.0]))
print(b2.probs, b2.mean)
u = Uniform(0.0, 2.0)
print(u.sample((3,)), u.log_prob(torch.tensor(1.0)), u.entropy())
try:
    print(u.log_prob(torch.tensor(3.0)))
except ValueError as e:
    print('ValueError', str(e)[:120])
l = Laplace(0.0, 1.0)
print(l.sample(), l.log_prob(torch.tensor(0.5)))
try:
    Normal(0.0, -1.0)
except ValueError as e:
    print(e)
print(repr(Normal(0., 1.)))
'''

PROGRAMS['dist_onehot_multinomial'] = r'''
import torch
from torch.distributions import OneHotCategorical, Multinomial, Poisson, Exponential, Geometric, Binomial
torch.manual_seed(0)
oh = OneHotCategorical(probs=torch.tensor([0.2, 0.5, 0.3]))
s = oh.sample((2,))
print(s, oh.log_prob(s), oh.entropy())
mn = Multinomial(10, torch.tensor([0.2, 0.5, 0.3]))
s = mn.sample()
print(s, mn.log_prob(s))
po = Poisson(torch.tensor([2.0, 5.0]))
s = po.sample()
print(s, po.log_prob(s), po.mean)
ex = Exponential(torch.tensor([1.5]))
print(ex.rsample((2,)), ex.log_prob(torch.tensor([1.0])), ex.entropy())
g = Geometric(probs=torch.tensor(0.3))
print(g.sample((3,)), g.log_prob(torch.tensor(2.)))
b = Binomial(5, torch.tensor([0.3, 0.8]))
print(b.sample(), b.log_prob(torch.tensor([1., 4.])), b.mean, b.variance)
'''

PROGRAMS['dist_policy_gradient'] = r'''
import torch
import torch.nn as nn
from torch.distributions import Categorical
torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=0.01)
states = torch.randn(10, 4)
rewards = torch.randn(10)
for it in range(3):
    logits = policy(states)
    m = Categorical(logits=logits)
    actions = m.sample()
    logp = m.log_prob(actions)
    ent = m.entropy().mean()
    returns = (rewards - rewards.mean()) / (rewards.std() + 1e-8)
    loss = -(logp * returns).mean() - 0.01 * ent
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, actions.tolist(), f"{loss.item():.5f}", f"{ent.item():.5f}")
print(m)
print(m.probs[:2])
p = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(p.sample((4,)), p.log_prob(torch.tensor(2)), p.entropy())
print(p.batch_shape, p.event_shape, p.param_shape if hasattr(p, 'param_shape') else None)
'''

PROGRAMS['dist_reparam_grad_check'] = r'''
import torch
from torch.distributions import Normal, Gamma, Beta, Dirichlet, Exponential, Uniform
torch.manual_seed(0)
mu = torch.tensor(0.5, requires_grad=True)
sig = torch.tensor(1.5, requires_grad=True)
samples = Normal(mu, sig).rsample((1000,))
loss = (samples ** 2).mean()
loss.backward()
print(f"{loss.item():.4f} {mu.grad.item():.4f} {sig.grad.item():.4f}")
alpha = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = Dirichlet(alpha).rsample()
print(d, d.sum())
d[0].backward()
print(alpha.grad)
lam = torch.tensor(2.0, requires_grad=True)
e = Exponential(lam).rsample((3,))
e.sum().backward()
print(e, lam.grad)
lo = torch.tensor(0.0, requires_grad=True)
u = Uniform(lo, 1.0).rsample((2,))
u.sum().backward()
print(u, lo.grad)
'''

# fixed: harness: an earlier torch.compile had turned PyTorch's distribution checks off (run_both resets them)
PROGRAMS['dist_sample_shapes_validate'] = r'''
import torch
from torch.distributions import Normal, Categorical, Bernoulli, Beta
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
torch.manual_seed(0)
n = Normal(torch.zeros(3, 2), torch.ones(3, 2))
print(n.sample().shape, n.sample((4,)).shape, n.sample(torch.Size([2, 5])).shape)
c = Categorical(logits=torch.zeros(3, 4))
print(c.sample().shape, c.sample((2,)).shape, c.logits[0], c.probs.sum(-1))
E(lambda: Categorical(probs=torch.tensor([-0.1, 1.1])))
E(lambda: Bernoulli(probs=torch.tensor(1.5)))
E(lambda: Beta(torch.tensor(-1.0), torch.tensor(1.0)))
E(lambda: Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(3)))
E(lambda: Normal(torch.zeros(2), torch.ones(3)))
E(lambda: Normal(0., 1., validate_args=False).log_prob(torch.tensor(float('nan'))))
E(lambda: Categorical(logits=torch.tensor([1.0, 2.0])).enumerate_support())
E(lambda: Bernoulli(0.3).enumerate_support())
print(Categorical(probs=torch.tensor([1., 3.])).probs)
'''

# fixed: parity harness: torch.distributions.transforms came from PyTorch in the minigrad run
PROGRAMS['dist_transformed_tanh'] = r'''
import torch
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import TanhTransform, AffineTransform, ExpTransform
torch.manual_seed(0)
base = Normal(torch.zeros(2), torch.ones(2))
d = TransformedDistribution(base, [TanhTransform(cache_size=1)])
a = d.rsample()
print(a, d.log_prob(a))
ln = TransformedDistribution(base, [ExpTransform()])
print(ln.sample(), ln.log_prob(torch.tensor([1.0, 2.0])))
af = TransformedDistribution(base, [AffineTransform(loc=1.0, scale=2.0)])
print(af.log_prob(torch.tensor([1.0, 3.0])))
from torch.distributions import LogNormal
print(LogNormal(0., 1.).log_prob(torch.tensor(2.0)))
mu = torch.zeros(2, requires_grad=True)
dist = Normal(mu, 1.0)
act = torch.tanh(dist.rsample())
lp = dist.log_prob(torch.atanh(act)).sum() - torch.log(1 - act.pow(2) + 1e-6).sum()
lp.backward()
print(mu.grad)
'''

PROGRAMS['dist_vae'] = r'''
import torch
import torch.nn as nn
from torch.distributions import Normal, kl_divergence
torch.manual_seed(0)
enc = nn.Linear(6, 4)
dec = nn.Linear(2, 6)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
x = torch.rand(8, 6)
for epoch in range(3):
    h = enc(x)
    mu, logvar = h.chunk(2, dim=-1)
    std = torch.exp(0.5 * logvar)
    q = Normal(mu, std)
    z = q.rsample()
    recon = torch.sigmoid(dec(z))
    rec = nn.functional.binary_cross_entropy(recon, x, reduction='sum')
    kl = kl_divergence(q, Normal(torch.zeros_like(mu), torch.ones_like(std))).sum()
    loss = rec + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} rec {rec.item():.4f} kl {kl.item():.4f}")
print(q)
print(q.mean.shape, q.stddev.shape)
'''

PROGRAMS['dist_vae_full_model'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 6)
        self.fc21 = nn.Linear(6, 2)
        self.fc22 = nn.Linear(6, 2)
        self.fc3 = nn.Linear(2, 6)
        self.fc4 = nn.Linear(6, 10)
    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std
    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 10))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 10), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.rand(12, 10)
for epoch in range(1, 4):
    model.train()
    train_loss = 0
    for i in range(0, 12, 4):
        batch = data[i:i + 4]
        optimizer.zero_grad()
        recon, mu, logvar = model(batch)
        loss = loss_function(recon, batch, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / 12))
with torch.no_grad():
    sample = model.decode(torch.randn(2, 2))
print(sample)
'''

PROGRAMS['einsum_attention_scores'] = r'''
import torch
torch.manual_seed(0)
q = torch.randn(2, 3, 4)
k = torch.randn(2, 5, 4)
s1 = torch.einsum('bqd,bkd->bqk', q, k)
s2 = torch.bmm(q, k.transpose(1, 2))
print(torch.allclose(s1, s2), s1.shape)
print(s1[0, 0])
w = s1.softmax(-1)
print(w.sum(-1))
print(torch.einsum('ii->i', torch.eye(3) * 2), torch.einsum('i,j->ij', torch.ones(2), torch.arange(3.)))
print(torch.einsum('bij,bkj', q, k).shape)
'''

PROGRAMS['err_attn_misc'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
torch.manual_seed(0)
mha = nn.MultiheadAttention(4, 2, batch_first=True)
x = torch.randn(2, 3, 4)
E(lambda: mha(x, x, x, attn_mask=torch.ones(2, 2, dtype=torch.bool))[0].shape)
E(lambda: mha(x, x, x, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))[0].shape)
E(lambda: mha(torch.randn(2, 3, 5), x, x))
E(lambda: mha(x, x, x, is_causal=True))
E(lambda: mha(x, x, x, attn_mask=torch.ones(3, 3).bool().triu(1), is_causal=True)[0].shape)
E(lambda: F.scaled_dot_product_attention(x, x, torch.randn(2, 4, 4)))
E(lambda: F.scaled_dot_product_attention(x, x, x, attn_mask=torch.ones(3, 3, dtype=torch.bool), is_causal=True))
E(lambda: F.scaled_dot_product_attention(x, x.double(), x))
E(lambda: nn.TransformerEncoderLayer(4, 3))
'''

# fixed: harness: an earlier torch.compile had turned PyTorch's distribution checks off (run_both resets them)
PROGRAMS['err_dist_misc'] = r'''
import torch
from torch.distributions import MultivariateNormal, Normal, Categorical, Dirichlet
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
E(lambda: MultivariateNormal(torch.zeros(2)))
E(lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
E(lambda: MultivariateNormal(torch.zeros(2), torch.eye(3)))
E(lambda: Normal(torch.tensor([0.0]), torch.tensor([0.0])))
E(lambda: Categorical())
E(lambda: Categorical(probs=torch.ones(2), logits=torch.ones(2)))
E(lambda: Dirichlet(torch.tensor(1.0)))
E(lambda: Normal(0., 1.).sample(3))
print(Categorical(logits=torch.tensor([1., 2.])))
print(Normal(torch.zeros(2), torch.ones(2)))
print(MultivariateNormal(torch.zeros(2), torch.eye(2)))
'''

PROGRAMS['err_func_misc'] = r'''
import torch
from torch.func import vmap, grad, jacrev, functional_call
import torch.nn as nn
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
E(lambda: vmap(lambda x: torch.rand(2) + x)(torch.ones(3)))
E(lambda: vmap(lambda x: torch.rand(2) + x, randomness='same')(torch.ones(3, 2)).shape)
E(lambda: grad(lambda x: x.sum())(torch.tensor([1, 2])))
E(lambda: grad(lambda x: (x, x))(torch.ones(1)))
E(lambda: jacrev(lambda x: x, argnums=2)(torch.ones(1)))
torch.manual_seed(0)
m = nn.Linear(2, 1)
E(lambda: functional_call(m, {'weight': torch.ones(1, 2)}, (torch.ones(1, 2),)))
E(lambda: functional_call(m, {'weight': torch.ones(1, 2), 'foo': torch.ones(1)}, (torch.ones(1, 2),), strict=True))
E(lambda: functional_call(m, {'weight': torch.ones(1, 2)}, torch.ones(1, 2)))
'''

# fixed: from_numpy/as_tensor/tensor of a negatively strided ndarray raise ValueError
PROGRAMS['err_numpy_interop'] = r'''
import torch
import numpy as np
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
a = np.arange(6.).reshape(2, 3)
E(lambda: torch.from_numpy(a[:, ::-1]))
E(lambda: torch.from_numpy(a.T).stride())
E(lambda: torch.from_numpy([1, 2]))
E(lambda: torch.tensor(a, dtype=torch.float32).dtype)
E(lambda: torch.as_tensor(a).data_ptr() == torch.as_tensor(a).data_ptr())
E(lambda: torch.ones(2) + np.ones(2))
E(lambda: (np.ones(2) + torch.ones(2)))
E(lambda: torch.ones(2).sum(axis=0, dim=0))
E(lambda: torch.ones(2, 3).mean(axis=(0, 1)))
E(lambda: torch.tensor([1, 2]).numpy().dtype)
'''

# fixed: pad_sequence (copy_) of non-broadcastable shapes raised NumPy's ValueError
PROGRAMS['err_rnn_misc'] = r'''
import torch
import torch.nn as nn
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
lstm = nn.LSTM(3, 4, batch_first=True)
E(lambda: lstm(torch.randn(2, 5)))
E(lambda: lstm(torch.randn(2, 5, 3), torch.zeros(1, 2, 4)))
E(lambda: lstm(torch.randn(2, 5, 3), (torch.zeros(1, 3, 4), torch.zeros(1, 3, 4))))
E(lambda: nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(2, 2, 4)))
E(lambda: nn.RNN(3, 4, nonlinearity='sigmoid'))
E(lambda: nn.LSTM(3, 4, proj_size=5))
E(lambda: lstm(torch.randn(2, 5, 3, dtype=torch.float64)))
E(lambda: nn.utils.rnn.pad_sequence([torch.ones(2, 3), torch.ones(2, 4)]))
'''

PROGRAMS['err_testing_misc'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:400])
E(lambda: torch.testing.assert_close(torch.ones(2), torch.ones(2), rtol=1e-3))
E(lambda: torch.testing.assert_close(torch.ones(2), torch.ones(2).double(), check_dtype=False))
E(lambda: torch.testing.assert_close(torch.tensor([1 + 1j]), torch.tensor([1 + 2j])))
E(lambda: torch.testing.assert_close(torch.ones(2, 2), torch.ones(2, 2).t()))
E(lambda: torch.testing.assert_close(torch.ones(2, 2), torch.ones(2, 2).t(), check_stride=True))
E(lambda: torch.testing.assert_close(torch.tensor([float('inf')]), torch.tensor([float('inf')])))
E(lambda: torch.testing.assert_close(torch.tensor([float('inf')]), torch.tensor([float('-inf')])))
E(lambda: torch.testing.assert_close(torch.zeros(3, 4), torch.eye(3, 4)))
E(lambda: torch.testing.assert_close(torch.tensor(3), 3))
E(lambda: torch.testing.assert_close(2, 3))
E(lambda: torch.testing.assert_close(torch.ones(1), torch.ones(1), atol=0.1))
'''

PROGRAMS['fft_conv_theorem'] = r'''
import torch
torch.manual_seed(0)
a = torch.randn(8)
b = torch.randn(8)
circ = torch.fft.ifft(torch.fft.fft(a) * torch.fft.fft(b)).real
direct = torch.stack([sum(a[j] * b[(i - j) % 8] for j in range(8)) for i in range(8)])
print(torch.allclose(circ, direct, atol=1e-5))
print(circ)
img = torch.randn(1, 1, 6, 6)
F = torch.fft.fft2(img)
print(F.shape, F.dtype)
lowpass = torch.zeros(6, 6); lowpass[:2, :2] = 1
out = torch.fft.ifft2(F * lowpass).real
print(out[0, 0, 0])
print(torch.fft.rfft(torch.arange(8.), norm='forward'))
print(torch.fft.irfft(torch.tensor([1.0, 0.0, 0.0])))
'''

PROGRAMS['fft_errors_misc'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
E(lambda: torch.fft.rfft(torch.ones(4, dtype=torch.complex64)))
E(lambda: torch.fft.fft(torch.arange(4)))
E(lambda: torch.fft.fft(torch.ones(4), n=0))
E(lambda: torch.fft.fft(torch.ones(4), norm='bad'))
E(lambda: torch.fft.fft(torch.ones(2, 3), dim=2))
E(lambda: torch.fft.rfft(torch.ones(5)).shape)
E(lambda: torch.fft.irfft(torch.ones(3, dtype=torch.complex64)).shape)
E(lambda: torch.fft.fft(torch.ones(4, dtype=torch.float64)).dtype)
E(lambda: torch.fft.fft(torch.ones(4, dtype=torch.float16)))
'''

PROGRAMS['fft_filters'] = r'''
import torch
import math
torch.manual_seed(0)
t = torch.linspace(0, 1, 32)
sig = torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.randn(32)
S = torch.fft.rfft(sig)
freqs = torch.fft.rfftfreq(32, d=1/32)
S[freqs > 5] = 0
clean = torch.fft.irfft(S, n=32)
print(clean[:5])
print(torch.fft.fft(sig).abs().argmax())
print(torch.fft.fft(sig, norm='ortho').abs()[:3])
print(torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5))))
x = torch.randn(8, dtype=torch.complex64)
print(x.dtype, torch.fft.ifft(torch.fft.fft(x)).sub(x).abs().max() < 1e-5)
print(torch.fft.rfft2(torch.ones(2, 4)))
print(torch.fft.fftn(torch.ones(2, 2, 2)).real.sum())
print(torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0])))
'''

PROGRAMS['fft_grad_complex'] = r'''
import torch
torch.manual_seed(0)
x = torch.randn(8, requires_grad=True)
F = torch.fft.fft(x)
power = (F.real ** 2 + F.imag ** 2).sum()
power.backward()
print(power, x.grad)
y = torch.randn(4, 4, requires_grad=True)
z = torch.fft.fft2(y)
z.abs().mean().backward()
print(y.grad[0])
w = torch.randn(6, requires_grad=True)
out = torch.fft.irfft(torch.fft.rfft(w) * torch.tensor([1., 0.5, 0.25, 0.]), n=6)
out.pow(2).sum().backward()
print(out.grad_fn, w.grad)
c = torch.fft.fft(x)
print(c.grad_fn, torch.view_as_real(c).shape)
print(torch.angle(c)[:3], c.conj()[:2])
'''

PROGRAMS['fft_shift_dims_norms'] = r'''
import torch
x = torch.arange(12.).view(3, 4)
print(torch.fft.fftshift(x))
print(torch.fft.fftshift(x, dim=1))
print(torch.fft.ifftshift(x, dim=(0,)))
X = torch.fft.fft(x, dim=0)
print(X)
print(torch.fft.fft(x, norm='forward')[0])
print(torch.fft.ifft(torch.fft.fft(x, norm='ortho'), norm='ortho').real)
print(torch.fft.rfftn(x).shape, torch.fft.irfftn(torch.fft.rfftn(x), s=x.shape).sub(x).abs().max() < 1e-5)
print(torch.fft.fftfreq(5, 0.1), torch.fft.rfftfreq(5))
'''

PROGRAMS['fft_spectral_loss'] = r'''
import torch
torch.manual_seed(0)
x = torch.randn(16, requires_grad=True)
t = torch.randn(16)
X = torch.fft.rfft(x)
T = torch.fft.rfft(t)
loss = (X.abs() - T.abs()).pow(2).mean()
loss.backward()
print(f"{loss.item():.5f}")
print(x.grad[:4])
print(X.shape, X.dtype)
print(torch.fft.fftfreq(8))
print(torch.fft.rfftfreq(8, d=0.5))
y = torch.fft.irfft(X, n=16)
print(torch.allclose(y, x, atol=1e-5))
Z = torch.fft.fft(torch.arange(4.))
print(Z)
print(torch.fft.ifft(Z).real)
print(torch.fft.fftshift(torch.arange(6)))
img = torch.randn(4, 4)
print(torch.fft.fft2(img).abs().sum())
'''

PROGRAMS['fft_spectral_loss_train'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
target = torch.sin(torch.linspace(0, 6.28, 32))
net = nn.Sequential(nn.Linear(32, 32))
z = torch.randn(1, 32)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for it in range(4):
    out = net(z)[0]
    spec_loss = (torch.fft.rfft(out).abs() - torch.fft.rfft(target).abs()).pow(2).mean()
    time_loss = nn.functional.l1_loss(out, target)
    loss = time_loss + 0.1 * spec_loss
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{it}: {loss.item():.4f} {spec_loss.item():.4f}")
'''

PROGRAMS['func_batchnorm_buffers'] = r'''
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
m.eval()
params = dict(m.named_parameters())
buffers = dict(m.named_buffers())
print(sorted(buffers))
x = torch.randn(5, 3)
out = functional_call(m, (params, buffers), (x,))
print(torch.allclose(out, m(x)))
new_buf = {k: v.clone() for k, v in buffers.items()}
new_buf['1.running_mean'] = torch.ones(4)
print(functional_call(m, (params, new_buf), (x,))[0])
print(m[1].running_mean)
ms = [nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).eval() for _ in range(2)]
p, b = stack_module_state(ms)
print({k: tuple(v.shape) for k, v in b.items()})
'''

PROGRAMS['func_ensemble'] = r'''
import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap
import copy
torch.manual_seed(0)
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 5)
        self.fc2 = nn.Linear(5, 2)
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
models = [MLP() for _ in range(3)]
params, buffers = stack_module_state(models)
print({k: v.shape for k, v in params.items()})
base_model = copy.deepcopy(models[0]).to('meta')
def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))
x = torch.randn(4, 6)
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape)
print(out[1])
print(torch.allclose(out[1], models[1](x)))
'''

PROGRAMS['func_ensemble_predictions'] = r'''
import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap
torch.manual_seed(0)
models = [nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)) for _ in range(4)]
params, buffers = stack_module_state(models)
print([(k, tuple(v.shape), v.requires_grad) for k, v in params.items()])
base = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
def call(p, b, x):
    return functional_call(base, (p, b), (x,))
minibatches = torch.randn(4, 5, 3)
preds = vmap(call)(params, buffers, minibatches)
expected = torch.stack([m(x) for m, x in zip(models, minibatches)])
print(preds.shape, torch.allclose(preds, expected, atol=1e-6))
same = vmap(call, in_dims=(0, 0, None))(params, buffers, minibatches[0])
print(same.argmax(-1))
loss = preds.pow(2).mean()
loss.backward()
print(params['0.weight'].grad.shape)
'''

PROGRAMS['func_functional_call_stateless'] = r'''
import torch
import torch.nn as nn
from torch.func import functional_call, grad
torch.manual_seed(0)
model = nn.Linear(3, 1)
x = torch.randn(4, 3)
y = torch.randn(4, 1)
params = dict(model.named_parameters())
def loss_fn(p):
    return ((functional_call(model, p, (x,)) - y) ** 2).mean()
g = grad(loss_fn)({k: v.detach() for k, v in params.items()})
print(g)
new = {k: v - 0.1 * g[k] for k, v in params.items()}
print(loss_fn(params).item() > loss_fn(new).item())
print(functional_call(model, {'weight': torch.ones(1, 3), 'bias': torch.zeros(1)}, x))
# MAML-style inner step
w = {k: v.clone().requires_grad_() for k, v in params.items()}
inner = loss_fn(w)
gr = torch.autograd.grad(inner, list(w.values()), create_graph=True)
fast = {k: v - 0.01 * gg for (k, v), gg in zip(w.items(), gr)}
outer = loss_fn(fast)
outer.backward()
print(w['weight'].grad)
print(model.weight.grad)
'''

PROGRAMS['func_functional_call_tied'] = r'''
import torch
import torch.nn as nn
from torch.func import functional_call
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
print([n for n, _ in m.named_parameters()])
idx = torch.tensor([1, 2])
w = torch.ones(5, 3)
print(functional_call(m, {'emb.weight': w}, (idx,)))
print(functional_call(m, {'emb.weight': w}, (idx,), tie_weights=False))
print(functional_call(m, {'emb.weight': w, 'out.weight': torch.zeros(5, 3)}, (idx,), tie_weights=False))
'''

PROGRAMS['func_grad_and_value'] = r'''
import torch
from torch.func import grad, grad_and_value, vmap
x = torch.tensor([1.0, 2.0, 3.0])
def loss(w, x):
    return ((w * x).sum() - 1.0) ** 2
w = torch.tensor([0.1, 0.2, 0.3])
g, v = grad_and_value(loss)(w, x)
print(g, v)
print(grad(loss, argnums=1)(w, x))
def with_aux(w):
    y = (w ** 2).sum()
    return y, {'y': y.detach()}
print(grad(with_aux, has_aux=True)(w))
print(vmap(torch.dot)(torch.ones(2, 3), torch.arange(6.).reshape(2, 3)))
print(vmap(lambda a: a.sum(), in_dims=1)(torch.arange(6.).reshape(2, 3)))
print(vmap(torch.mul, in_dims=(0, None))(torch.ones(3, 2), torch.tensor([2., 3.])))
'''

PROGRAMS['func_hessian_newton'] = r'''
import torch
from torch.func import hessian, grad, jacrev
def rosen(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
x = torch.tensor([-1.0, 1.5])
for it in range(4):
    g = grad(rosen)(x)
    H = hessian(rosen)(x)
    x = x - 0.001 * g
    print(it, x, f"{rosen(x).item():.6f}")
print(jacrev(jacrev(rosen))(x))
print(torch.autograd.functional.hessian(rosen, x))
'''

PROGRAMS['func_hvp_tutorial'] = r'''
import torch
import torch.nn.functional as F
from torch.func import jacrev, jacfwd, hessian, jvp, grad, vjp, vmap
torch.manual_seed(0)
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
cotangents = torch.eye(D)
_, vjp_fn = vjp(predict, weight, bias, x)
print(vjp_fn(cotangents[0])[2])
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(ft_jacobian[1])
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
def f(x):
    return x.sin().sum()
tangent = torch.randn(D)
print(hvp(f, (x,), (tangent,)))
print(hessian(f)(x) @ tangent)
print(jacfwd(jacrev(f))(x).diagonal())
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
print(compute_batch_jacobian(weight, bias, torch.randn(3, D)).shape)
'''

PROGRAMS['func_jacobian_batch'] = r'''
import torch
from torch.func import vmap, jacrev, jacfwd, hessian, vjp, jvp
torch.manual_seed(0)
def predict(weight, bias, x):
    return torch.nn.functional.linear(x, weight, bias).tanh()
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
jac = jacrev(predict, argnums=2)(weight, bias, x)
print(jac.shape)
print(jac[0])
jf = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jac, jf, atol=1e-6))
xb = torch.randn(3, D)
bj = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, xb)
print(bj.shape)
h = hessian(lambda x: predict(weight, bias, x).sum())(x)
print(h.shape, torch.allclose(h, h.T, atol=1e-6))
out, vjp_fn = vjp(lambda x: predict(weight, bias, x), x)
print(vjp_fn(torch.ones(D)))
print(jvp(lambda x: predict(weight, bias, x), (x,), (torch.ones(D),)))
'''

PROGRAMS['func_jacrev_dict_and_aux'] = r'''
import torch
from torch.func import jacrev, jacfwd, grad, vmap
def f(d):
    return (d['a'] * d['b']).sum() + d['a'].pow(2).sum()
inp = {'a': torch.tensor([1., 2.]), 'b': torch.tensor([3., 4.])}
print(grad(f)(inp))
print(jacrev(lambda x: (x.sin(), x.cos()))(torch.tensor([0.0, 1.0])))
def g(x):
    y = x.exp()
    return y, y.sum()
j, aux = jacrev(g, has_aux=True)(torch.tensor([0., 1.]))
print(j, aux)
print(jacfwd(lambda x: x ** 2)(torch.tensor(3.0)))
print(jacrev(lambda x: x.sum())(torch.ones(2, 2)))
print(vmap(grad(lambda x: (x ** 2).sum()))(torch.arange(6.).view(3, 2)))
try:
    grad(lambda x: x ** 2)(torch.ones(2))
except RuntimeError as e:
    print(e)
'''

PROGRAMS['func_jacrev_jacfwd'] = r'''
import torch
from torch.func import jacrev, jacfwd, hessian, vmap
torch.manual_seed(1)
x = torch.randn(3)
def f(x):
    return x.sin() * x.cos().sum()
print(jacrev(f)(x))
print(jacfwd(f)(x))
print(torch.allclose(jacrev(f)(x), jacfwd(f)(x)))
def g(x):
    return (x ** 3).sum()
print(hessian(g)(x))
W = torch.randn(2, 3)
def lin(x):
    return W @ x
print(jacrev(lin)(x).shape)
print(vmap(jacrev(lin))(torch.randn(4, 3)).shape)
def two(a, b):
    return a * b.exp()
ja, jb = jacrev(two, argnums=(0, 1))(x, x)
print(ja)
print(jb)
'''

PROGRAMS['func_jvp_linearize'] = r'''
import torch
from torch.func import jvp, vjp, linearize
x = torch.tensor([1.0, 2.0, 3.0])
out, tangent = jvp(torch.sin, (x,), (torch.ones(3),))
print(out, tangent)
out, fn = vjp(lambda a, b: a * b, x, x)
print(fn(torch.ones(3)))
o, jvp_fn = linearize(torch.exp, x)
print(o, jvp_fn(torch.tensor([1.0, 0.0, 0.0])))
print(torch.autograd.functional.jacobian(lambda a: a ** 2, x))
print(torch.autograd.functional.jvp(lambda a: a ** 2, x, torch.ones(3)))
print(torch.autograd.functional.vjp(lambda a: a ** 2, x, torch.ones(3)))
print(torch.autograd.functional.hvp(lambda a: (a ** 3).sum(), x, torch.ones(3)))
'''

PROGRAMS['func_maml_vmap_grad'] = r'''
import torch
from torch.func import grad, vmap, functional_call
import torch.nn as nn
torch.manual_seed(0)
net = nn.Linear(1, 1)
params = {k: v.detach() for k, v in net.named_parameters()}
def loss(p, x, y):
    return ((functional_call(net, p, (x,)) - y) ** 2).mean()
def inner(p, x, y):
    g = grad(loss)(p, x, y)
    return {k: p[k] - 0.1 * g[k] for k in p}
def task_loss(p, xs, ys, xq, yq):
    return loss(inner(p, xs, ys), xq, yq)
xs = torch.randn(3, 5, 1); ys = 2 * xs
xq = torch.randn(3, 5, 1); yq = 2 * xq
per_task = vmap(task_loss, in_dims=(None, 0, 0, 0, 0))(params, xs, ys, xq, yq)
print(per_task)
meta_grad = grad(lambda p: vmap(task_loss, in_dims=(None, 0, 0, 0, 0))(p, xs, ys, xq, yq).mean())(params)
print(meta_grad)
'''

PROGRAMS['func_ntk'] = r'''
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, jacrev
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def empirical_ntk(params, x1, x2):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = [j.flatten(2) for j in jac1.values()]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = [j.flatten(2) for j in jac2.values()]
    result = torch.stack([torch.einsum('Naf,Mbf->NMab', j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)
x1 = torch.randn(3, 2)
x2 = torch.randn(2, 2)
ntk = empirical_ntk(params, x1, x2)
print(ntk.shape)
print(ntk.squeeze())
'''

# fixed: vmap(grad(...)) per-sample weight gradients printed -0. where PyTorch prints 0.
PROGRAMS['func_per_sample_grads'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
data = torch.randn(5, 4)
targets = torch.randint(3, (5,))
g = ft_compute_sample_grad(params, buffers, data, targets)
for k, v in g.items():
    print(k, v.shape, f"{v.sum().item():.5f}")
print(g['0.weight'][0])
'''

PROGRAMS['func_per_sample_grads_cnn'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(0)
class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.fc1 = nn.Linear(2 * 2 * 2, 4)
        self.fc2 = nn.Linear(4, 3)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)
model = SimpleCNN()
data = torch.randn(4, 1, 6, 6)
targets = torch.randint(3, (4,))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(predictions, target.unsqueeze(0))
psg = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
print(psg['fc1.weight'][1])
print(psg['fc2.weight'][0], psg['fc2.bias'])
print(psg['conv1.weight'].shape, psg['conv1.bias'])
for i in range(2):
    model.zero_grad()
    F.nll_loss(model(data[i:i+1]), targets[i:i+1]).backward()
    print(torch.allclose(model.fc1.weight.grad, psg['fc1.weight'][i], atol=1e-6))
'''

PROGRAMS['func_vmap_jacrev_model_input'] = r'''
import torch
import torch.nn as nn
from torch.func import vmap, jacrev, functional_call
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3)
J = vmap(jacrev(model))(x)
print(J.shape)
print(J[0])
params = {k: v.detach() for k, v in model.named_parameters()}
jp = jacrev(lambda p, x: functional_call(model, p, (x,)))(params, x[0])
print({k: tuple(v.shape) for k, v in jp.items()})
print(torch.autograd.functional.jacobian(model, x[0]))
'''

PROGRAMS['func_vmap_model_batch'] = r'''
import torch
import torch.nn as nn
from torch.func import vmap, functional_call, grad
torch.manual_seed(0)
model = nn.Linear(3, 2)
x = torch.randn(5, 3)
print(torch.allclose(vmap(model)(x), model(x)))
def per_example(x):
    return model(x).softmax(-1)
print(vmap(per_example)(x)[0])
batched_dot = vmap(torch.dot)
print(batched_dot(torch.randn(4, 3), torch.randn(4, 3)))
print(vmap(vmap(torch.mul))(torch.ones(2, 3), torch.arange(6.).view(2, 3)))
print(vmap(lambda t: t.sum(), out_dims=0)(torch.arange(6.).view(3, 2)))
def f(a):
    return a, a * 2
r = vmap(f)(torch.arange(3.))
print(r)
try:
    vmap(torch.sum, in_dims=1)(torch.ones(2))
except ValueError as e:
    print('ValueError', e)
try:
    vmap(torch.add)(torch.ones(2), torch.ones(3))
except ValueError as e:
    print('ValueError', e)
'''

PROGRAMS['func_vmap_out_dims_chunks'] = r'''
import torch
from torch.func import vmap
x = torch.arange(12.).view(3, 4)
print(vmap(lambda r: r * 2, out_dims=1)(x).shape)
print(vmap(lambda r: (r.sum(), r.max()), out_dims=(0, 0))(x))
print(vmap(torch.outer, chunk_size=2)(x[:, :2], x[:, 2:]).shape)
print(vmap(lambda a, b: a @ b, in_dims=(0, None))(torch.ones(2, 3, 4), torch.ones(4, 5)).shape)
print(vmap(lambda d: d['a'] + d['b'])({'a': torch.ones(3), 'b': torch.arange(3.)}))
print(vmap(torch.trace)(torch.eye(3).expand(2, 3, 3)))
f = vmap(lambda x, scale: x * scale, in_dims=(0, None))
print(f(torch.ones(2, 2), 3.0))
'''

PROGRAMS['loop_autoencoder'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 2))
dec = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 8), nn.Sigmoid())
ae = nn.Sequential(enc, dec)
opt = torch.optim.Adam(ae.parameters(), lr=1e-2)
x = torch.rand(16, 8)
for epoch in range(5):
    recon = ae(x)
    loss = nn.functional.mse_loss(recon, x)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"epoch [{epoch + 1}/5], loss:{loss.item():.4f}")
z = enc(x[:3])
print(z.detach())
print(ae)
'''

PROGRAMS['loop_bn_cnn_eval'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.5), nn.Linear(3, 2))
x = torch.randn(4, 1, 6, 6)
y = torch.tensor([0, 1, 1, 0])
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-3)
for epoch in range(3):
    model.train()
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.cross_entropy(model(x), y)
    print(f"epoch {epoch:02d} train {loss.item():.4f} val {val.item():.4f}")
print(model[1].running_mean, model[1].running_var, model[1].num_batches_tracked)
print(model.training, model[5].training)
'''

PROGRAMS['loop_cnn_sgd_momentum'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 4 * 4, 3)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = torch.flatten(x, 1)
        return self.fc(x)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
x = torch.randn(6, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2])
for epoch in range(3):
    running = 0.0
    for i in range(0, 6, 2):
        opt.zero_grad()
        loss = F.cross_entropy(net(x[i:i+2]), y[i:i+2])
        loss.backward()
        opt.step()
        running += loss.item()
    print(f"[{epoch + 1}] loss: {running / 3:.3f}")
with torch.no_grad():
    pred = net(x).argmax(1)
    correct = (pred == y).sum().item()
print(f"Accuracy: {100 * correct // len(y)} %")
print(net)
'''

PROGRAMS['loop_custom_dataset_acc'] = r'''
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader
torch.manual_seed(0)
class Blobs(Dataset):
    def __init__(self, n):
        self.x = torch.cat([torch.randn(n, 2) + 2, torch.randn(n, 2) - 2])
        self.y = torch.cat([torch.zeros(n), torch.ones(n)]).long()
    def __len__(self):
        return len(self.y)
    def __getitem__(self, i):
        return self.x[i], self.y[i]
ds = Blobs(10)
dl = DataLoader(ds, batch_size=8, shuffle=True, drop_last=True)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(3):
    correct = total = 0
    for xb, yb in dl:
        out = model(xb)
        loss = nn.functional.cross_entropy(out, yb)
        opt.zero_grad(); loss.backward(); opt.step()
        _, predicted = torch.max(out.data, 1)
        total += yb.size(0)
        correct += (predicted == yb).sum().item()
    print(f'Epoch {epoch}: acc {100 * correct / total:.1f}% loss {loss.item():.4f}')
print(len(dl))
'''

PROGRAMS['loop_gan_tiny'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1), nn.Sigmoid())
og = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
od = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCELoss()
real = torch.randn(16, 2) * 0.5 + 2
for step in range(3):
    z = torch.randn(16, 2)
    fake = G(z)
    d_loss = bce(D(real), torch.ones(16, 1)) + bce(D(fake.detach()), torch.zeros(16, 1))
    od.zero_grad(); d_loss.backward(); od.step()
    g_loss = bce(D(fake), torch.ones(16, 1))
    og.zero_grad(); g_loss.backward(); og.step()
    print(f"step {step} D {d_loss.item():.4f} G {g_loss.item():.4f}")
'''

# fixed: nn.Linear on one sample (1 x k @ k x 1 addmm): gemv dot then + bias
PROGRAMS['loop_gradient_accumulation'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(4, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
X = torch.randn(8, 4); y = torch.randn(8, 1)
accum = 4
opt.zero_grad()
for i in range(8):
    loss = nn.functional.mse_loss(m(X[i:i+1]), y[i:i+1]) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        opt.step(); opt.zero_grad()
        print(f"step after {i+1}: w={m.weight.data.view(-1).tolist()}")
print(m.bias.grad)
for p in m.parameters():
    p.requires_grad_(False)
print([p.requires_grad for p in m.parameters()])
print(sum(p.numel() for p in m.parameters() if p.requires_grad))
'''

PROGRAMS['loop_lr_warmup_sequential'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
p = [nn.Parameter(torch.ones(2))]
opt = torch.optim.SGD(p, lr=0.1)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)
s = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
lrs = []
for i in range(8):
    opt.step(); s.step()
    lrs.append(round(opt.param_groups[0]['lr'], 6))
print(lrs)
opt2 = torch.optim.Adam(p, lr=0.01)
ms = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[2, 4], gamma=0.1)
ex = torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9)
for i in range(5):
    opt2.step(); ms.step(); ex.step()
    print(f"{opt2.param_groups[0]['lr']:.6e}")
print(ms.last_epoch, ms.get_last_lr())
'''

PROGRAMS['loop_mlp_adam_steplr'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(42)
X = torch.randn(64, 2)
y = (X[:, 0] * X[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
crit = nn.CrossEntropyLoss()
for epoch in range(5):
    opt.zero_grad()
    out = model(X)
    loss = crit(out, y)
    loss.backward()
    opt.step()
    sched.step()
    acc = (out.argmax(dim=1) == y).sum().item() / len(y)
    print(f"Epoch {epoch+1}: loss={loss.item():.4f} acc={acc:.3f} lr={sched.get_last_lr()[0]:.4f}")
print(sched.state_dict())
'''

PROGRAMS['loop_mnist_like_cnn_acc'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.dropout = nn.Dropout2d(0.25)
        self.fc1 = nn.Linear(8 * 2 * 2, 10)
    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.dropout(x)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc1(x), dim=1)
model = CNN()
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
data = torch.randn(8, 1, 8, 8)
target = torch.randint(0, 10, (8,))
for epoch in range(1, 4):
    model.train()
    output = model(data)
    loss = F.nll_loss(output, target)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    model.eval()
    with torch.no_grad():
        out = model(data)
        test_loss = F.nll_loss(out, target, reduction='sum').item() / len(data)
        pred = out.argmax(dim=1, keepdim=True)
        correct = pred.eq(target.view_as(pred)).sum().item()
    print('Epoch {} Train loss: {:.6f} Test: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)'.format(
        epoch, loss.item(), test_loss, correct, len(data), 100. * correct / len(data)))
'''

PROGRAMS['loop_multilabel_bce'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(8, 5)
y = (torch.rand(8, 3) > 0.5).float()
m = nn.Linear(5, 3)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5]))
opt = torch.optim.Adagrad(m.parameters(), lr=0.1)
for i in range(4):
    logits = m(x)
    loss = crit(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
    pred = (torch.sigmoid(logits) > 0.5).float()
    acc = (pred == y).float().mean()
    print(f"{i}: {loss.item():.4f} {acc.item():.4f}")
print(torch.sigmoid(logits[:2]))
print(nn.functional.binary_cross_entropy_with_logits(logits, y, reduction='none')[0])
'''

# fixed: nn.Linear on one sample (1 x k @ k x 1 addmm): gemv dot then + bias
PROGRAMS['loop_per_sample_sgd'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(6, 3)
y = X @ torch.tensor([[1.0], [-1.0], [2.0]]) + 0.5
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    total = 0.0
    for i in range(len(X)):
        pred = model(X[i:i+1])
        loss = (pred - y[i:i+1]).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        total += loss.item()
    print(f"epoch {epoch}: {total:.6f}")
for i in range(2):
    print(model(X[i]), model(X[i]).shape)
print(model.weight, model.bias)
'''

PROGRAMS['loop_perceptron_manual'] = r'''
import torch
torch.manual_seed(0)
X = torch.randn(10, 2)
y = (X[:, 0] + X[:, 1] > 0).float()
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.5
for epoch in range(4):
    for xi, yi in zip(X, y):
        p = torch.sigmoid(xi @ w + b)
        loss = -(yi * torch.log(p) + (1 - yi) * torch.log(1 - p))
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad.zero_(); b.grad.zero_()
    with torch.no_grad():
        acc = ((torch.sigmoid(X @ w + b) > 0.5).float() == y).float().mean()
    print(f"epoch {epoch} acc {acc:.2f} w {w.data} b {b.item():.5f}")
'''

PROGRAMS['loop_regression_early_stop'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(7)
X = torch.linspace(-2, 2, 40).unsqueeze(1)
y = X.pow(3) - X + 0.1 * torch.randn_like(X)
net = nn.Sequential(nn.Linear(1, 10), nn.Tanh(), nn.Linear(10, 1))
for m in net.modules():
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
best, bad = float('inf'), 0
losses = []
for epoch in range(30):
    pred = net(X)
    loss = nn.MSELoss()(pred, y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
    if loss.item() < best - 1e-3:
        best, bad = loss.item(), 0
    else:
        bad += 1
    if bad >= 3:
        print("early stop at", epoch)
        break
print(losses[::5])
print(f"best={best:.5f}")
print(net[0].weight.data[:3].T)
'''

PROGRAMS['loop_rnn_char'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(1)
text = "hello world"
chars = sorted(set(text))
idx = {c: i for i, c in enumerate(chars)}
data = torch.tensor([idx[c] for c in text])
class CharRNN(nn.Module):
    def __init__(self, n, h):
        super().__init__()
        self.emb = nn.Embedding(n, h)
        self.rnn = nn.RNN(h, h, batch_first=True)
        self.out = nn.Linear(h, n)
    def forward(self, x, hidden=None):
        o, hidden = self.rnn(self.emb(x), hidden)
        return self.out(o), hidden
m = CharRNN(len(chars), 8)
opt = torch.optim.RMSprop(m.parameters(), lr=0.01)
for ep in range(4):
    logits, _ = m(data[:-1].unsqueeze(0))
    loss = nn.functional.cross_entropy(logits.view(-1, len(chars)), data[1:])
    opt.zero_grad(); loss.backward()
    nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    print(f"ep {ep} loss {loss.item():.4f} ppl {torch.exp(loss).item():.3f}")
print(''.join(chars[i] for i in logits.argmax(-1)[0].tolist()))
'''

PROGRAMS['loop_word_embedding_skipgram'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
sentence = "we are about to study the idea of a computational process".split()
vocab = sorted(set(sentence))
w2i = {w: i for i, w in enumerate(vocab)}
ngrams = [([sentence[i - j - 1] for j in range(2)], sentence[i]) for i in range(2, len(sentence))]
class NGram(nn.Module):
    def __init__(self, V, D, C):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.l1 = nn.Linear(C * D, 16)
        self.l2 = nn.Linear(16, V)
    def forward(self, x):
        e = self.emb(x).view((1, -1))
        return F.log_softmax(self.l2(F.relu(self.l1(e))), dim=1)
model = NGram(len(vocab), 5, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.001)
losses = []
for epoch in range(3):
    total = 0
    for ctx, tgt in ngrams:
        ids = torch.tensor([w2i[w] for w in ctx], dtype=torch.long)
        model.zero_grad()
        lp = model(ids)
        loss = F.nll_loss(lp, torch.tensor([w2i[tgt]], dtype=torch.long))
        loss.backward(); opt.step()
        total += loss.item()
    losses.append(total)
print(losses)
print(model.emb.weight[w2i["process"]])
'''

PROGRAMS['mha_self_attention_train'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.norm = nn.LayerNorm(8)
        self.fc = nn.Linear(8, 2)
    def forward(self, x, pad):
        h = self.emb(x)
        a, w = self.attn(h, h, h, key_padding_mask=pad)
        h = self.norm(h + a)
        h = h.masked_fill(pad.unsqueeze(-1), 0).sum(1) / (~pad).sum(1, keepdim=True)
        return self.fc(h), w
x = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9]])
pad = x == 0
y = torch.tensor([0, 1, 0])
m = Model()
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for ep in range(3):
    logits, w = m(x, pad)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{ep} {loss.item():.5f}")
print(w[1])
'''

PROGRAMS['np_dataset_loader'] = r'''
import torch
import numpy as np
from torch.utils.data import TensorDataset, DataLoader, Dataset, random_split
torch.manual_seed(0)
X = np.linspace(-1, 1, 10, dtype=np.float32).reshape(-1, 1)
Y = 2 * X + 1
ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(Y))
print(len(ds), ds[3])
loader = DataLoader(ds, batch_size=4, shuffle=True)
for xb, yb in loader:
    print(xb.view(-1).tolist())
model = torch.nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(3):
    tot = 0.0
    for xb, yb in DataLoader(ds, batch_size=5):
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        tot += loss.item() * len(xb)
    print(f"epoch {epoch}: {tot / len(ds):.5f}")
tr, va = random_split(ds, [7, 3])
print(len(tr), len(va), va.indices)
class Sq(Dataset):
    def __len__(self): return 3
    def __getitem__(self, i): return {'x': torch.tensor([i, i * i])}
print(next(iter(DataLoader(Sq(), batch_size=3))))
'''

# fixed: x.permute(...).float() kept a contiguous copy (PyTorch preserves the layout)
PROGRAMS['np_image_pipeline'] = r'''
import torch
import numpy as np
rng = np.random.default_rng(0)
img = (rng.random((4, 4, 3)) * 255).astype(np.uint8)
t = torch.from_numpy(img).permute(2, 0, 1).float() / 255.0
print(t.shape, t.dtype, t.is_contiguous())
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
norm = (t - mean) / std
print(norm[:, 0, 0])
back = (norm * std + mean).clamp(0, 1).mul(255).round().byte().permute(1, 2, 0).numpy()
print(back.dtype, back.shape, np.abs(back.astype(int) - img.astype(int)).max())
batch = torch.stack([t, t.flip(-1)])
print(batch.shape, batch.mean(dim=(0, 2, 3)))
print(torch.from_numpy(img).sum(), torch.from_numpy(img).sum(dtype=torch.int32).dtype)
'''

# fixed: torch.tensor(list of ndarrays) warns that it is slow
PROGRAMS['np_list_of_arrays_warning'] = r'''
import torch
import numpy as np
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    t = torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])])
    print(t, t.dtype)
    t = torch.tensor((np.array([1.0, 2.0]), np.array([3.0, 4.0])))
    t = torch.tensor(np.array([np.array([1, 2]), np.array([3, 4])]))
    print(t, t.dtype)
    print([str(m.message) for m in w])
print(torch.tensor(np.array([[1, 2]], dtype=np.int16)).dtype)
print(torch.tensor([np.float32(1.0), np.float32(2.0)]).dtype)
'''

# fixed: from_numpy's TypeError named numpy.str32 and omitted the unsigned types
PROGRAMS['np_mixing'] = r'''
import torch
import numpy as np
np.random.seed(0)
a = np.random.rand(3, 2).astype(np.float32)
t = torch.tensor(a)
print(t)
print(torch.from_numpy(a).sum(axis=1))
print(t.std(axis=0), t.var(axis=0, keepdim=True))
print(t.argmax(axis=1), t.amax(axis=0))
print(t.numpy() @ np.ones(2, dtype=np.float32))
print(torch.from_numpy(np.arange(4)).dtype, torch.from_numpy(np.arange(4.)).dtype)
x = torch.zeros(3)
x[np.array([0, 2])] = 1
print(x)
print(torch.tensor([np.float64(1.5), 2]))
print(t[np.int64(1)])
print(torch.as_tensor([1, 2]).numpy().tolist())
print(torch.stack([torch.from_numpy(np.ones(2)), torch.zeros(2, dtype=torch.float64)]))
print(np.mean(t.numpy()), float(t.mean()))
try:
    torch.from_numpy(np.array(['a']))
except TypeError as e:
    print('TypeError', e)
print(torch.tensor(np.array(3.0)).shape, torch.from_numpy(np.array(3.0)).dim())
print(t.shape == (3, 2), t.size() == (3, 2), tuple(t.shape))
n = torch.ones(2).numpy(force=True)
print(n, type(n))
'''

# fixed: x.permute(...).float() kept a contiguous copy (PyTorch preserves the layout)
PROGRAMS['np_permute_float_view'] = r'''
import torch
import numpy as np
img = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
t = torch.from_numpy(img).permute(2, 0, 1).float()
print(t.is_contiguous(), t.stride())
try:
    print(t.view(-1)[:4])
except RuntimeError as e:
    print(e)
print(t.reshape(-1)[:4], t.contiguous().view(-1)[:4])
print(t.double().stride(), t.to(torch.float16).is_contiguous())
x = torch.arange(6.).view(2, 3).t()
print(x.float().stride(), x.double().stride(), x.double().is_contiguous())
print(x.to(torch.int32).stride())
'''

PROGRAMS['np_random_consistency'] = r'''
import torch
import numpy as np
torch.manual_seed(0)
print(torch.rand(3))
print(torch.randn(2, 2))
print(torch.randint(0, 10, (5,)))
print(torch.randperm(6))
g = torch.Generator().manual_seed(1)
print(torch.rand(2, generator=g))
print(torch.normal(0.0, 1.0, size=(3,)))
print(torch.empty(3).uniform_(-1, 1))
print(torch.bernoulli(torch.full((4,), 0.5)))
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, replacement=True))
st = torch.get_rng_state()
a = torch.randn(2)
torch.set_rng_state(st)
print(torch.equal(a, torch.randn(2)))
print(torch.initial_seed())
'''

PROGRAMS['np_tensor_ops_mix'] = r'''
import torch
import numpy as np
t = torch.tensor([1.0, 2.0, 3.0])
a = np.array([1.0, 1.0, 1.0])
r = t + torch.from_numpy(a)
print(r, r.dtype)
print(type(a + t.numpy()).__name__)
print(t * 2.5, t ** np.float64(2))
print(torch.tensor(np.float32(3.0)).dtype, torch.tensor(np.int32(3)).dtype)
x = torch.ones(2, 2, requires_grad=True)
try:
    np.array(x)
except RuntimeError as e:
    print(e)
print(np.array(x.detach()))
print(x.detach().cpu().numpy().tolist())
print(torch.tensor([[1, 2], [3, 4]]).numpy().T.flags['C_CONTIGUOUS'])
try:
    torch.tensor([torch.ones(2), torch.ones(2)])
except (ValueError, TypeError) as e:
    print(type(e).__name__, e)
print(torch.tensor([torch.tensor(1.), torch.tensor(2.)]))
print(torch.stack([torch.tensor(1.), torch.tensor(2.)]))
print(t.tolist(), t.sum().item(), int(t.argmax()))
arr = t.numpy(); arr += 1
print(t)
print(torch.from_numpy(np.array([[1, 2], [3, 4]], dtype=np.int32)).float().mean(dim=0))
'''

PROGRAMS['numpy_interop'] = r'''
import torch
import numpy as np
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
print(t, t.dtype)
a[0, 0] = 100
print(t[0, 0])
print(t.sum(axis=0), t.mean(axis=1, keepdims=True))
print(t.numpy().dtype, type(t.numpy()).__name__)
print(torch.tensor(np.array([1, 2, 3])).dtype)
print(torch.as_tensor(np.array([1.5, 2.5])).dtype)
x = torch.ones(3, requires_grad=True)
try:
    x.numpy()
except RuntimeError as e:
    print(e)
print(x.detach().numpy())
print(np.asarray(torch.arange(3)))
print(t * np.float32(2.0))
print((t + np.ones((2, 3))).dtype)
print(torch.from_numpy(np.array([True, False])))
print(t.max(axis=1))
'''

PROGRAMS['orthogonal_maps'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal
torch.manual_seed(0)
for m in ['matrix_exp', 'cayley', 'householder']:
    lin = orthogonal(nn.Linear(3, 3), orthogonal_map=m)
    W = lin.weight
    print(m, torch.allclose(W @ W.T, torch.eye(3), atol=1e-5), tuple(lin.parametrizations.weight.original.shape))
rect = orthogonal(nn.Linear(4, 2))
W = rect.weight
print(W.shape, torch.allclose(W @ W.T, torch.eye(2), atol=1e-5))
rect.weight = torch.eye(2, 4)
print(rect.weight)
'''

PROGRAMS['orthogonal_train'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal
torch.manual_seed(0)
rnn_w = orthogonal(nn.Linear(4, 4, bias=False))
opt = torch.optim.Adam(rnn_w.parameters(), lr=0.1)
x = torch.randn(8, 4)
target = torch.randn(8, 4)
for i in range(3):
    loss = (rnn_w(x) - target).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    W = rnn_w.weight
    print(f"{loss.item():.5f}", torch.allclose(W.T @ W, torch.eye(4), atol=1e-4))
print(rnn_w.parametrizations.weight)
'''

PROGRAMS['param_errors_misc'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal, weight_norm
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
class Bad(nn.Module):
    def forward(self, X):
        return X[0]
E(lambda: parametrize.register_parametrization(nn.Linear(2, 2), 'weight', Bad()))
E(lambda: parametrize.register_parametrization(nn.Linear(2, 2), 'nothere', nn.Identity()))
E(lambda: parametrize.remove_parametrizations(nn.Linear(2, 2), 'weight'))
E(lambda: orthogonal(nn.Linear(2, 2), orthogonal_map='bad'))
E(lambda: type(orthogonal(nn.Linear(3, 2)).weight).__name__)
E(lambda: weight_norm(nn.Linear(2, 2), name='nope'))
torch.manual_seed(0)
l = nn.Linear(2, 2)
parametrize.register_parametrization(l, 'weight', nn.Identity())
E(lambda: setattr(l, 'weight', nn.Parameter(torch.zeros(2, 2))) or l.weight)
E(lambda: l.parametrizations.weight.original)
'''

PROGRAMS['parametrizations_weight_norm'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm, orthogonal
torch.manual_seed(0)
lin = weight_norm(nn.Linear(4, 3))
print(lin)
print(sorted(n for n, _ in lin.named_parameters()))
print(lin.parametrizations.weight.original0.shape, lin.parametrizations.weight.original1.shape)
x = torch.randn(2, 4)
y = lin(x)
y.sum().backward()
print(lin.parametrizations.weight.original0.grad.view(-1))
o = orthogonal(nn.Linear(3, 3))
W = o.weight
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))
print(list(o.state_dict().keys()))
'''

PROGRAMS['parametrize_custom'] = r'''
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
torch.manual_seed(0)
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.allclose(A, A.T))
print(layer)
print(P.is_parametrized(layer), P.is_parametrized(layer, 'bias'))
print(list(layer.state_dict().keys()))
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
x = torch.randn(2, 3)
layer(x).pow(2).sum().backward()
opt.step()
print(torch.allclose(layer.weight, layer.weight.T))
with P.cached():
    print(layer.weight is layer.weight)
P.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(list(layer.state_dict().keys()), type(layer.weight).__name__)
'''

PROGRAMS['reduce_lr_plateau_cosine'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
p = nn.Parameter(torch.randn(3))
opt = torch.optim.SGD([p], lr=0.1)
s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1)
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5]:
    s.step(loss)
    print(opt.param_groups[0]['lr'])
opt2 = torch.optim.SGD([p], lr=1.0)
c = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=4, eta_min=0.1)
for i in range(6):
    opt2.step(); c.step()
    print(f"{c.get_last_lr()[0]:.6f}")
opt3 = torch.optim.AdamW([p], lr=1e-3)
oc = torch.optim.lr_scheduler.OneCycleLR(opt3, max_lr=0.01, total_steps=5)
for i in range(5):
    opt3.step(); oc.step() if i < 4 else None
    print(f"{opt3.param_groups[0]['lr']:.6f}", opt3.param_groups[0].get('betas'))
lam = torch.optim.lr_scheduler.LambdaLR(torch.optim.SGD([p], lr=0.5), lambda e: 0.9 ** e)
lam.optimizer.step(); lam.step(); print(lam.get_last_lr())
'''

PROGRAMS['rnn_gru_hidden_seq2one'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(3)
gru = nn.GRU(input_size=2, hidden_size=3, num_layers=2, dropout=0.0)
x = torch.randn(5, 1, 2)
h0 = torch.zeros(2, 1, 3)
out, hn = gru(x, h0)
print(out.shape, hn.shape)
print(out[-1])
print(torch.equal(out[-1], hn[-1]))
cell = nn.LSTMCell(2, 3)
h, c = torch.zeros(1, 3), torch.zeros(1, 3)
for t in range(5):
    h, c = cell(x[t], (h, c))
print(h)
rc = nn.GRUCell(2, 3)
print(rc(x[0]).shape, rc(x[0, 0]).shape)
print([n for n, _ in gru.named_parameters()][:4])
try:
    gru(torch.randn(5, 1, 3))
except RuntimeError as e:
    print(e)
'''

PROGRAMS['rnn_lstm_classifier_train'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence
torch.manual_seed(0)
class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6, padding_idx=0)
        self.lstm = nn.LSTM(6, 5, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(10, 2)
    def forward(self, x, lengths):
        e = self.emb(x)
        packed = pack_padded_sequence(e, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        h = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(h)
x = torch.tensor([[3, 4, 5, 0], [6, 7, 0, 0], [8, 9, 10, 11], [12, 0, 0, 0]])
lengths = (x != 0).sum(1)
y = torch.tensor([1, 0, 1, 0])
model = Clf()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(4):
    model.train()
    logits = model(x, lengths)
    loss = nn.CrossEntropyLoss()(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
    preds = logits.argmax(1)
    print(f"Epoch {epoch} | loss {loss.item():.4f} | acc {(preds == y).float().mean().item():.2%}")
print(model.emb.weight.grad[0])
'''

PROGRAMS['rnn_lstm_h0_packed_bidir'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
torch.manual_seed(0)
lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True, batch_first=True)
x = torch.randn(3, 4, 2)
lengths = torch.tensor([4, 2, 3])
h0 = torch.zeros(4, 3, 3)
c0 = torch.zeros(4, 3, 3)
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
out, (hn, cn) = lstm(packed, (h0, c0))
y, l = pad_packed_sequence(out, batch_first=True)
print(y.shape, l)
print(y[1, 2:], hn.shape)
print(hn[-1])
print(torch.allclose(y[0, -1, :3], hn[-2, 0]))
y.sum().backward()
print(lstm.weight_ih_l0.grad.sum(), lstm.bias_hh_l1_reverse.grad[:3])
'''

PROGRAMS['rnn_lstm_seq_regression'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
t = torch.linspace(0, 4 * 3.14159, 40)
series = torch.sin(t)
X = torch.stack([series[i:i + 5] for i in range(30)]).unsqueeze(-1)
Y = torch.stack([series[i + 5] for i in range(30)]).unsqueeze(-1)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 8, batch_first=True)
        self.head = nn.Linear(8, 1)
    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])
m = M()
opt = torch.optim.Adam(m.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.5)
for ep in range(4):
    pred = m(X)
    loss = nn.functional.mse_loss(pred, Y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    print(f"Epoch [{ep + 1}/4], Loss: {loss.item():.4f}")
with torch.no_grad():
    print(m(X[:2]).squeeze())
'''

PROGRAMS['rnn_pack_errors'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence, unpack_sequence, unpad_sequence
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.randn(3, 4, 2)
E(lambda: pack_padded_sequence(x, [2, 4, 3], batch_first=True))
E(lambda: pack_padded_sequence(x, [4, 0, 3], batch_first=True, enforce_sorted=False))
E(lambda: pack_padded_sequence(x, torch.tensor([4, 3, 2]), batch_first=True).batch_sizes)
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])]
print(pad_sequence(seqs, batch_first=True, padding_value=-1))
print(pad_sequence(seqs, batch_first=True, padding_side='left'))
ps = pack_sequence(seqs)
print(ps)
print(unpack_sequence(ps))
p, l = pad_packed_sequence(ps, batch_first=True, padding_value=0)
print(p, l)
print(unpad_sequence(p, l, batch_first=True))
'''

PROGRAMS['rnn_pack_gru_unsorted'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence
torch.manual_seed(0)
seqs = [torch.randn(2, 3), torch.randn(4, 3), torch.randn(3, 3)]
lengths = [2, 4, 3]
padded = pad_sequence(seqs)
gru = nn.GRU(3, 5, num_layers=2, bidirectional=True)
packed = pack_padded_sequence(padded, lengths, enforce_sorted=False)
print(packed.sorted_indices, packed.unsorted_indices)
out, h = gru(packed)
u, l = pad_packed_sequence(out, total_length=5)
print(u.shape, l)
print(h.shape)
print(h[-1])
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.data.shape)
print(type(ps).__name__)
'''

PROGRAMS['rnn_pack_lstm'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
torch.manual_seed(0)
seqs = [torch.randn(5, 3), torch.randn(3, 3), torch.randn(2, 3)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape)
lstm = nn.LSTM(3, 4, batch_first=True)
fc = nn.Linear(4, 2)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=True)
print(packed.batch_sizes)
out, (h, c) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
logits = fc(h[-1])
print(logits)
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1, 0]))
loss.backward()
print(f"{loss.item():.4f}", lstm.weight_hh_l0.grad.abs().sum())
'''

PROGRAMS['save_load_full_model'] = r'''
import torch
import torch.nn as nn
import io
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
print(buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
net2 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
res = net2.load_state_dict(sd)
print(res, res.missing_keys)
x = torch.randn(2, 2)
print(torch.equal(net(x), net2(x)))
b2 = io.BytesIO()
torch.save([torch.arange(3), {'k': torch.ones(2, dtype=torch.float64)}, 'text', 3.5], b2)
b2.seek(0)
print(torch.load(b2))
t = torch.arange(6.).view(2, 3)
b3 = io.BytesIO(); torch.save(t[:, 1], b3); b3.seek(0)
v = torch.load(b3)
print(v)
sd['0.weight'].fill_(0)
print(net2[0].weight.sum() != 0)
'''

PROGRAMS['sdpa_math_masks_grad'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(1)
q = torch.randn(1, 3, 4, requires_grad=True)
k = torch.randn(1, 5, 4, requires_grad=True)
v = torch.randn(1, 5, 4, requires_grad=True)
mask = torch.tensor([[True, True, False, True, False]] * 3)
o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
print(o)
print(o.grad_fn)
o.pow(2).sum().backward()
print(k.grad[0, 2], v.grad[0, 4])
q2 = torch.randn(2, 2, 3, 4)
o2 = F.scaled_dot_product_attention(q2, q2, q2, is_causal=True)
print(o2.grad_fn, o2[0, 0, 0])
def manual(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / (q.size(-1) ** 0.5)
    s = s.masked_fill(~mask, float('-inf'))
    return s.softmax(-1) @ v
print(torch.allclose(manual(q, k, v, mask), o, atol=1e-6))
'''

PROGRAMS['spectral_norm_gan_disc'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm
torch.manual_seed(0)
D = nn.Sequential(spectral_norm(nn.Linear(3, 8)), nn.LeakyReLU(0.1), spectral_norm(nn.Linear(8, 1)))
opt = torch.optim.Adam(D.parameters(), lr=1e-3)
x = torch.randn(6, 3)
for i in range(3):
    loss = D(x).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{i}: {loss.item():.6f}")
print(sorted(D.state_dict().keys()))
print(D[0].parametrizations.weight.original.grad.abs().sum() > 0)
D.eval()
with torch.no_grad():
    print(torch.linalg.matrix_norm(D[0].weight, ord=2))
'''

PROGRAMS['state_dict_bytesio'] = r'''
import torch
import torch.nn as nn
import io
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.1)
x = torch.randn(5, 3)
model(x).sum().backward(); opt.step()
buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 3}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck['epoch'], list(ck['model'].keys()))
m2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
print(m2.load_state_dict(ck['model']))
o2 = torch.optim.Adam(m2.parameters(), lr=0.1)
o2.load_state_dict(ck['opt'])
print(o2.state_dict()['param_groups'])
print(o2.state_dict()['state'][0]['step'])
model.eval(); m2.eval()
print(torch.equal(model(x), m2(x)))
print(ck['model']['1.num_batches_tracked'], ck['model']['1.running_mean'])
try:
    m2.load_state_dict({'0.weight': torch.zeros(4, 3)})
except RuntimeError as e:
    print(str(e)[:200])
print(m2.load_state_dict({'0.weight': torch.zeros(4, 3)}, strict=False))
'''

PROGRAMS['testing_assert_close'] = r'''
import torch
def check(a, b, **kw):
    try:
        torch.testing.assert_close(a, b, **kw)
        print("ok")
    except AssertionError as e:
        print("AssertionError:", e)
    except Exception as e:
        print(type(e).__name__, e)
check(torch.tensor([1., 2.]), torch.tensor([1., 2.]))
check(torch.tensor([1., 2.]), torch.tensor([1., 2.1]))
check(torch.tensor([1., 2.]), torch.tensor([1, 2]))
check(torch.tensor([1., 2.]), torch.tensor([1, 2]), check_dtype=False)
check(torch.tensor([1., 2.]), torch.tensor([1., 2., 3.]))
check(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3., 4.5]]), rtol=0, atol=0.1)
check(torch.tensor(float('nan')), torch.tensor(float('nan')))
check(torch.tensor(float('nan')), torch.tensor(float('nan')), equal_nan=True)
check(1.0, 1.0 + 1e-9)
check([torch.ones(2)], [torch.ones(2)])
check({'a': torch.ones(2)}, {'a': torch.zeros(2)})
'''

PROGRAMS['testing_assert_close_callable_msg'] = r'''
import torch
def check(*a, **kw):
    try:
        torch.testing.assert_close(*a, **kw)
        print('ok')
    except AssertionError as e:
        print(str(e))
check(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0]), msg=lambda m: 'CUSTOM: ' + m.splitlines()[0])
check(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 5]]))
check(torch.tensor(1e-10), torch.tensor(0.0))
check(torch.tensor(1e-3), torch.tensor(0.0))
check(torch.arange(10.), torch.arange(10.) + torch.linspace(0, 1e-3, 10))
check(torch.tensor([1.0], dtype=torch.float16), torch.tensor([1.001], dtype=torch.float16))
check(torch.tensor([1.0], dtype=torch.float64), torch.tensor([1.0 + 1e-6], dtype=torch.float64))
'''

PROGRAMS['testing_assert_close_models'] = r'''
import torch
import torch.nn as nn
import io
torch.manual_seed(0)
m = nn.Linear(3, 2)
buf = io.BytesIO()
torch.save(m.state_dict(), buf); buf.seek(0)
m2 = nn.Linear(3, 2); m2.load_state_dict(torch.load(buf))
for (n1, p1), (n2, p2) in zip(m.named_parameters(), m2.named_parameters()):
    torch.testing.assert_close(p1, p2)
    print(n1, 'ok')
torch.testing.assert_close(m.state_dict(), m2.state_dict())
print('state dicts ok')
x = torch.randn(2, 3)
torch.testing.assert_close(m(x), x @ m.weight.T + m.bias)
print('forward ok')
try:
    torch.testing.assert_close(m(x), m(x) + 1e-3)
except AssertionError as e:
    print(str(e).splitlines()[:3])
'''

PROGRAMS['testing_assert_close_msgs'] = r'''
import torch
def check(a, b, **kw):
    try:
        torch.testing.assert_close(a, b, **kw)
        print("ok")
    except Exception as e:
        print(type(e).__name__, e)
check(torch.ones(3, 3), torch.ones(3, 3).add(torch.eye(3) * 1e-3))
check(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))
check(torch.ones(2, dtype=torch.float64), torch.ones(2))
check(torch.ones(2), torch.ones(2, 1))
check(torch.ones(2, requires_grad=True), torch.ones(2))
check(torch.ones(2), torch.ones(2) * 1.00001)
check(torch.ones(2), [1.0, 1.0])
check(torch.tensor([True, False]), torch.tensor([True, True]))
check((torch.ones(1), 2), (torch.ones(1), 3))
check(torch.ones(2), torch.ones(2), rtol=1e-3)
check(torch.tensor(1.0), torch.tensor(1.0 + 1e-4), msg="custom")
try:
    torch.testing.assert_allclose(torch.ones(1), torch.ones(1))
    print('allclose ok')
except Exception as e:
    print(type(e).__name__, e)
print(torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cpu', low=0, high=1).shape)
'''

PROGRAMS['testing_unit_style'] = r'''
import torch
import torch.nn as nn
import unittest
class T(unittest.TestCase):
    def test_linear_shape(self):
        torch.manual_seed(0)
        m = nn.Linear(3, 2)
        self.assertEqual(m(torch.randn(4, 3)).shape, torch.Size([4, 2]))
    def test_grad(self):
        x = torch.tensor([2.0], requires_grad=True)
        (x ** 3).backward()
        torch.testing.assert_close(x.grad, torch.tensor([12.0]))
    def test_fail(self):
        torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]))
    def test_raises(self):
        with self.assertRaises(RuntimeError):
            torch.ones(2) @ torch.ones(3)
suite = unittest.TestLoader().loadTestsFromTestCase(T)
import io
res = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
print(res.testsRun, len(res.failures), len(res.errors))
print(res.failures[0][1].strip().splitlines()[-5:])
'''

PROGRAMS['transformer_encoder_layer_options'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, activation='gelu', norm_first=True)
print(layer)
x = torch.randn(3, 2, 4)
y = layer(x)
print(y[0])
layer2 = nn.TransformerEncoderLayer(4, 2, 8, 0.0, activation=nn.functional.silu, batch_first=True, layer_norm_eps=1e-6, bias=False)
print(layer2(x.transpose(0, 1)).shape)
enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4), enable_nested_tensor=False)
print(f"{enc(x).abs().sum().item():.3f}")
print(len(enc.layers), enc.layers[0] is layer)
'''

PROGRAMS['weight_norm_conv_training'] = r'''
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm
torch.manual_seed(0)
conv = weight_norm(nn.Conv1d(2, 3, 3), dim=0)
opt = torch.optim.SGD(conv.parameters(), lr=0.1)
x = torch.randn(2, 2, 8)
for i in range(3):
    loss = conv(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{loss.item():.5f}")
print(conv.parametrizations.weight.original0.view(-1))
sd = conv.state_dict()
print(list(sd.keys()))
c2 = weight_norm(nn.Conv1d(2, 3, 3), dim=0)
c2.load_state_dict(sd)
print(torch.equal(c2(x), conv(x)))
'''

PROGRAMS['weight_norm_old_and_spectral'] = r'''
import torch
import torch.nn as nn
import warnings
torch.manual_seed(0)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    m = nn.utils.weight_norm(nn.Linear(3, 2))
    print(len(w) > 0, str(w[0].message)[:60] if w else None)
print(sorted(n for n, _ in m.named_parameters()))
print(m.weight_g.shape, m.weight_v.shape)
x = torch.randn(4, 3)
m(x).sum().backward()
print(m.weight_g.grad.view(-1))
nn.utils.remove_weight_norm(m)
print(sorted(n for n, _ in m.named_parameters()))
s = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3))
print(s)
s.eval()
print(torch.linalg.matrix_norm(s.weight, 2) <= 1.0001)
'''

# fixed: torch.hann_window, hamming_window, blackman_window, bartlett_window were missing
PROGRAMS['windows'] = r'''
import torch
for n in [0, 1, 2, 5, 8, 16]:
    for p in [True, False]:
        print(n, p, torch.hann_window(n, periodic=p))
        print(torch.hamming_window(n, p), torch.blackman_window(n, p), torch.bartlett_window(n, p))
print(torch.hann_window(6, dtype=torch.float64))
print(torch.hamming_window(7, False, 0.5, 0.4))
w = torch.hann_window(4, requires_grad=True)
print(w.requires_grad, w.is_leaf)
try:
    torch.hann_window(4, dtype=torch.int64)
except RuntimeError as e:
    print(e)
sig = torch.arange(8.)
frames = sig.unfold(0, 4, 2) * torch.hann_window(4)
print(torch.fft.rfft(frames).abs())
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    if name in {'func_vmap_jacrev_model_input'}:   # (last bits of MKL's batched products)
        skip_on_intel_gemm_bits()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)


def test_from_numpy_of_a_read_only_array_warns_once() -> None:
    # PyTorch warns once per process (TORCH_WARN_ONCE), so its side cannot be replayed here: the text is PyTorch's
    import numpy as np

    import minigrad
    from minigrad import _warn_once
    a = np.ones(2)
    a.setflags(write=False)
    saved = "ndarray not writable" in _warn_once._WARNED
    _warn_once._WARNED.discard("ndarray not writable")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            minigrad.from_numpy(a)
            minigrad.as_tensor(a)
    finally:
        if saved:
            _warn_once._WARNED.add("ndarray not writable")
    assert [str(w.message)[:60] for w in caught] == ["The given NumPy array is not writable, and PyTorch does not "]
