"""Parity programs from a thirty-third hunt: the torch.func programs a student writes after the autograd chapter.

Per-sample gradients (``functional_call`` + ``vmap(grad)`` over small models, checked against a loop), model
ensembles (``stack_module_state``, ``vmap`` over parameters with ``in_dims``, ``randomness=`` with dropout), neural
tangent kernels (``jacrev`` of ``functional_call``, ``einsum`` contractions), ``jacfwd`` against ``jacrev``
(``argnums`` tuples, ``has_aux``, ``chunk_size``, pytree inputs and outputs), Hessians of ``nn`` losses, hvp through
``jvp(grad)`` and ``vjp(grad)``, ``linearize``, ``grad_and_value``, ``vmap`` with nested ``in_dims``/``out_dims``,
``replace_all_batch_norm_modules_``, ``functionalize``, reprs printed inside transforms, and the errors a student
hits on the way (``.item()`` under vmap, in-place on a captured tensor, data-dependent control flow, wrong
``in_dims``, mismatched batch sizes, ``grad`` of a non-scalar, a wrong ``has_aux`` structure). The harness is
hunt14's (``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout). Programs
marked "fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- per-sample gradients

PROGRAMS['per_sample_grads_mlp_vs_loop'] = PRE + r'''
from torch.func import functional_call, vmap, grad
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(5, 3)
y = torch.tensor([0, 1, 1, 0, 1])
def loss_fn(p, xi, yi):
    out = functional_call(model, p, (xi.unsqueeze(0),))
    return F.cross_entropy(out, yi.unsqueeze(0))
g = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
for k, v in g.items():
    print(k, v.shape, v.dtype, v.requires_grad)
print(g['2.bias'])
loop = []
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(x[i:i+1]), y[i:i+1]).backward()
    loop.append(model[0].weight.grad.clone())
loop = torch.stack(loop)
print(torch.allclose(loop, g['0.weight'], atol=1e-6), (loop - g['0.weight']).abs().max() < 1e-6)
print(g['0.weight'][0])
'''

PROGRAMS['per_sample_grads_mse_linear_sum_matches_batch'] = PRE + r'''
from torch.func import functional_call, vmap, grad
import torch.nn as nn
torch.manual_seed(1)
lin = nn.Linear(4, 1)
params = dict(lin.named_parameters())
x = torch.randn(6, 4)
t = torch.randn(6, 1)
def loss(p, xi, ti):
    return ((functional_call(lin, p, xi) - ti) ** 2).mean()
ps = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, t)
print({k: tuple(v.shape) for k, v in ps.items()})
print(ps['bias'].squeeze())
batch = ((lin(x) - t) ** 2).mean()
batch.backward()
print(lin.bias.grad, ps['bias'].mean(0))
print(torch.allclose(lin.weight.grad, ps['weight'].mean(0)))
print(ps['weight'].requires_grad, lin.weight.grad.grad_fn)
'''

PROGRAMS['per_sample_grads_conv_net'] = PRE + r'''
from torch.func import functional_call, vmap, grad
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(2)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.fc = nn.Linear(2 * 2 * 2, 3)
    def forward(self, x):
        x = F.relu(self.conv(x))
        x = F.max_pool2d(x, 2)
        return self.fc(x.flatten(1))
net = Net()
params = {k: v.detach() for k, v in net.named_parameters()}
buffers = {k: v.detach() for k, v in net.named_buffers()}
data = torch.randn(4, 1, 6, 6)
targets = torch.tensor([0, 2, 1, 2])
def compute_loss(params, buffers, sample, target):
    pred = functional_call(net, (params, buffers), (sample.unsqueeze(0),))
    return F.cross_entropy(pred, target.unsqueeze(0))
ft = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for k in ft:
    print(k, ft[k].shape)
print(ft['fc.bias'])
print(ft['conv.bias'])
'''

PROGRAMS['per_sample_grad_norms_clipping'] = PRE + r'''
from torch.func import functional_call, vmap, grad
import torch.nn as nn
torch.manual_seed(3)
m = nn.Linear(3, 2)
p = {k: v.detach() for k, v in m.named_parameters()}
x, y = torch.randn(5, 3), torch.randn(5, 2)
def f(p, x, y):
    return nn.functional.mse_loss(functional_call(m, p, (x,)), y)
g = vmap(grad(f), in_dims=(None, 0, 0))(p, x, y)
norms = torch.stack([v.flatten(1).norm(dim=1) for v in g.values()], 1).norm(dim=1)
print(norms)
factor = (1.0 / (norms + 1e-6)).clamp(max=1.0)
clipped = {k: v * factor.view(-1, *[1] * (v.dim() - 1)) for k, v in g.items()}
print(clipped['bias'])
print(torch.stack([v.flatten(1).norm(dim=1) for v in clipped.values()], 1).norm(dim=1))
noisy = {k: v.sum(0) for k, v in clipped.items()}
print(noisy['weight'], noisy['weight'].shape)
'''

PROGRAMS['grad_and_value_per_sample_with_aux'] = PRE + r'''
from torch.func import functional_call, vmap, grad_and_value
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(4)
m = nn.Linear(2, 3)
p = {k: v.detach() for k, v in m.named_parameters()}
x = torch.randn(4, 2)
y = torch.tensor([0, 1, 2, 1])
def f(p, xi, yi):
    logits = functional_call(m, p, (xi,))
    loss = F.cross_entropy(logits.unsqueeze(0), yi.unsqueeze(0))
    return loss, {'pred': logits.argmax(), 'logits': logits}
grads, (loss, aux) = vmap(grad_and_value(f, has_aux=True), in_dims=(None, 0, 0))(p, x, y)
print(loss)
print(aux['pred'], aux['pred'].dtype)
print(aux['logits'])
print(grads['bias'])
print(type(grads).__name__, type(aux).__name__, sorted(aux))
'''

# ---- ensembles

PROGRAMS['ensemble_stack_module_state_in_dims'] = PRE + r'''
from torch.func import stack_module_state, functional_call, vmap
import torch.nn as nn
import copy
torch.manual_seed(5)
models = [nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)) for _ in range(3)]
params, buffers = stack_module_state(models)
print(sorted(params), {k: tuple(v.shape) for k, v in params.items()}, buffers)
print(params['0.bias'].requires_grad, params['0.bias'].is_leaf, params['0.bias'].grad_fn)
base = copy.deepcopy(models[0]).to('meta')
def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))
x = torch.randn(2, 3)
out_same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out_same.shape, out_same.requires_grad)
print(out_same.squeeze(-1))
print(torch.stack([m(x) for m in models]).squeeze(-1))
xs = torch.randn(3, 2, 3)
out_diff = vmap(fmodel)(params, buffers, xs)
print(torch.allclose(out_diff, torch.stack([m(xi) for m, xi in zip(models, xs)])))
'''

PROGRAMS['ensemble_backward_through_stacked_params'] = PRE + r'''
from torch.func import stack_module_state, functional_call, vmap
import torch.nn as nn
torch.manual_seed(6)
models = [nn.Linear(2, 2) for _ in range(2)]
params, buffers = stack_module_state(models)
base = nn.Linear(2, 2, device='meta')
x = torch.randn(3, 2)
out = vmap(lambda p, b: functional_call(base, (p, b), (x,)))(params, buffers)
loss = out.pow(2).sum()
print(loss, loss.grad_fn)
loss.backward()
print(params['weight'].grad)
print(params['bias'].grad)
print(models[0].weight.grad)
opt = torch.optim.SGD(params.values(), lr=0.1)
opt.step()
print(params['bias'])
'''

PROGRAMS['ensemble_dropout_randomness_modes'] = PRE + r'''
from torch.func import stack_module_state, functional_call, vmap
import torch.nn as nn
torch.manual_seed(7)
models = [nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)) for _ in range(3)]
params, buffers = stack_module_state(models)
base = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)).to('meta')
x = torch.ones(2, 4)
def f(p, b, x):
    return functional_call(base, (p, b), (x,))
E(lambda: vmap(f, in_dims=(0, 0, None))(params, buffers, x))
E(lambda: vmap(f, in_dims=(0, 0, None), randomness='error')(params, buffers, x))
torch.manual_seed(0)
o = vmap(f, in_dims=(0, 0, None), randomness='different')(params, buffers, x)
print((o == 0).int())
torch.manual_seed(0)
o = vmap(f, in_dims=(0, 0, None), randomness='same')(params, buffers, x)
print((o == 0).int())
base.eval()
o = vmap(f, in_dims=(0, 0, None))(params, buffers, x)
print((o == 0).sum(), o.shape)
'''

PROGRAMS['vmap_randomness_rand_like_and_normal'] = PRE + r'''
from torch.func import vmap
x = torch.zeros(3, 2)
def f(x):
    return x + torch.rand_like(x)
torch.manual_seed(0)
a = vmap(f, randomness='different')(x)
print(a)
torch.manual_seed(0)
b = vmap(f, randomness='same')(x)
print(b, (b[0] == b[1]).all())
E(lambda: vmap(f)(x))
def g(x):
    return x + torch.randn(2)
torch.manual_seed(1)
print(vmap(g, randomness='same')(x))
torch.manual_seed(1)
print(vmap(g, randomness='different')(x).shape)
E(lambda: vmap(g, randomness='bogus')(x))
'''

# ---- neural tangent kernels

PROGRAMS['ntk_jacrev_functional_call_einsum'] = PRE + r'''
from torch.func import functional_call, vmap, jacrev
import torch.nn as nn
torch.manual_seed(8)
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
x1, x2 = torch.randn(4, 3), torch.randn(2, 3)
jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
print({k: tuple(v.shape) for k, v in jac1.items()})
j1 = [j.flatten(2) for j in jac1.values()]
j2 = [j.flatten(2) for j in jac2.values()]
full = torch.stack([torch.einsum('Naf,Mbf->NMab', a, b) for a, b in zip(j1, j2)]).sum(0)
print(full.shape)
print(full[0, 0])
trace = torch.stack([torch.einsum('Naf,Maf->NM', a, b) for a, b in zip(j1, j2)]).sum(0)
print(trace)
diag = torch.stack([torch.einsum('Naf,Maf->NMa', a, b) for a, b in zip(j1, j2)]).sum(0)
print(diag.shape, torch.allclose(diag.sum(-1), trace, atol=1e-5))
'''

PROGRAMS['ntk_via_vjp_jvp'] = PRE + r'''
from torch.func import functional_call, vmap, vjp, jvp
import torch.nn as nn
torch.manual_seed(9)
net = nn.Linear(3, 2)
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
x1, x2 = torch.randn(3, 3), torch.randn(2, 3)
def get_ntk(x1, x2):
    def func_x1(params):
        return fnet_single(params, x1)
    def func_x2(params):
        return fnet_single(params, x2)
    output, vjp_fn = vjp(func_x1, params)
    def get_ntk_slice(vec):
        vjps = vjp_fn(vec)
        _, jvps = jvp(func_x2, (params,), vjps)
        return jvps
    basis = torch.eye(output.numel(), dtype=output.dtype).view(output.numel(), -1)
    return vmap(get_ntk_slice)(basis)
r = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
print(r.shape)
print(r[1, 0])
print(torch.allclose(r[0, 1], r[0, 1].T))
'''

# ---- jacobians

PROGRAMS['jacfwd_vs_jacrev_argnums_tuple'] = PRE + r'''
from torch.func import jacfwd, jacrev
def f(x, y):
    return x.sin() * y + x @ torch.ones(3, 3) * y.cos()
x = torch.tensor([0.1, 0.2, 0.3])
y = torch.tensor([1.0, -1.0, 2.0])
jf = jacfwd(f, argnums=(0, 1))(x, y)
jr = jacrev(f, argnums=(0, 1))(x, y)
print(type(jf).__name__, len(jf), jf[0].shape)
print(jf[0])
print(jr[1])
print(torch.allclose(jf[0], jr[0]), torch.allclose(jf[1], jr[1]))
print(jacrev(f, argnums=1)(x, y).shape)
E(lambda: jacrev(f, argnums=2)(x, y))
E(lambda: jacfwd(f, argnums=(0, 0))(x, y))
E(lambda: jacrev(f, argnums=())(x, y))
E(lambda: jacrev(f, argnums=1.0)(x, y))
'''

PROGRAMS['jac_pytree_dict_inputs_outputs'] = PRE + r'''
from torch.func import jacfwd, jacrev
def f(d):
    return {'sum': d['a'].sum() * d['b'], 'prod': (d['a'] * 2, d['b'].exp())}
d = {'a': torch.tensor([1.0, 2.0]), 'b': torch.tensor(0.5)}
jr = jacrev(f)(d)
jf = jacfwd(f)(d)
print(sorted(jr), type(jr['prod']).__name__)
print(jr['sum']['a'], jr['sum']['b'])
print(jr['prod'][0]['a'])
print(jf['prod'][1]['b'], jf['prod'][1]['a'])
print(jr['prod'][1]['a'].shape, jr['sum']['b'].shape)
'''

PROGRAMS['jac_has_aux_and_chunk_size'] = PRE + r'''
from torch.func import jacrev, jacfwd
def f(x):
    y = x.tanh()
    return y * x.sum(), {'norm': y.norm(), 'y': y}
x = torch.linspace(-1, 1, 5)
j, aux = jacrev(f, has_aux=True)(x)
print(j)
print(aux['norm'], aux['y'])
j2, _ = jacrev(f, has_aux=True, chunk_size=2)(x)
j3, _ = jacrev(f, has_aux=True, chunk_size=1)(x)
print(torch.equal(j, j2), torch.allclose(j, j3))
jf, auxf = jacfwd(f, has_aux=True)(x)
print(torch.allclose(j, jf), auxf['norm'])
E(lambda: jacrev(f, chunk_size=0)(x))
E(lambda: jacrev(f, has_aux=True, chunk_size=-1)(x))
E(lambda: jacrev(lambda x: x, has_aux=True)(x))
E(lambda: jacfwd(lambda x: (x, x, x), has_aux=True)(x))
'''

PROGRAMS['jacobian_of_tuple_outputs_nested'] = PRE + r'''
from torch.func import jacrev, jacfwd
def f(x, y):
    return (x * y, (x.sum(), [y ** 2]))
x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
jr = jacrev(f, argnums=(0, 1))(x, y)
print(type(jr).__name__, type(jr[1]).__name__, type(jr[1][1]).__name__)
print(jr[0][0], jr[0][1])
print(jr[1][0])
print(jr[1][1][0][1])
jf = jacfwd(f)(x, y)
print(jf[1][1][0], jf[1][0])
'''

PROGRAMS['hessian_of_nn_losses'] = PRE + r'''
# fixed: under a transform binary_cross_entropy_with_logits is functorch's decomposition (-0. off the diagonal)
from torch.func import hessian, jacfwd, jacrev
import torch.nn.functional as F
t = torch.tensor([0, 2])
def ce(logits):
    return F.cross_entropy(logits.view(2, 3), t)
z = torch.tensor([0.1, 0.5, -0.3, 1.0, 0.0, 0.2])
H = hessian(ce)(z)
print(H.shape)
print(H)
print(torch.allclose(H, jacrev(jacrev(ce))(z), atol=1e-6), torch.allclose(H, H.T))
y = torch.tensor([1.0, 0.0, 1.0])
def bce(w):
    return F.binary_cross_entropy_with_logits(w, y)
print(hessian(bce)(torch.tensor([0.3, -0.2, 2.0])))
def mse(w):
    return F.mse_loss(w, y, reduction='sum')
print(hessian(mse)(torch.zeros(3)))
def huber(w):
    return F.smooth_l1_loss(w, y, beta=0.5)
print(jacfwd(jacrev(huber))(torch.tensor([0.9, 2.0, 0.8])))
'''

PROGRAMS['hessian_of_model_params_functional_call'] = PRE + r'''
from torch.func import hessian, functional_call
import torch.nn as nn
torch.manual_seed(10)
m = nn.Linear(2, 1)
x = torch.randn(4, 2)
y = torch.randn(4, 1)
p = {k: v.detach() for k, v in m.named_parameters()}
def loss(p):
    return ((functional_call(m, p, (x,)) - y) ** 2).mean()
H = hessian(loss)(p)
print(sorted(H), sorted(H['weight']))
print(H['weight']['weight'].shape, H['weight']['bias'].shape, H['bias']['bias'].shape)
print(H['bias']['bias'])
print(H['weight']['weight'].view(2, 2))
print(torch.allclose(H['weight']['weight'].view(2, 2), 2 * x.T @ x / 4, atol=1e-6))
'''

# ---- hvp

PROGRAMS['hvp_jvp_of_grad_vs_vjp_of_grad'] = PRE + r'''
from torch.func import jvp, grad, vjp, hessian
def f(x):
    return (x.sin() * x.cos().exp()).sum()
x = torch.tensor([0.3, -1.2, 2.0])
v = torch.tensor([1.0, 0.5, -0.25])
def hvp_fwd(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
def hvp_rev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), primals[0])
    return vjp_fn(tangents[0])[0]
a = hvp_fwd(f, (x,), (v,))
b = hvp_rev(f, (x,), (v,))
c = hessian(f)(x) @ v
print(a)
print(b)
print(c)
print(torch.allclose(a, b), torch.allclose(a, c))
out, vjp_fn = vjp(grad(f), x)
print(out, vjp_fn)
print(type(vjp_fn(v)).__name__)
E(lambda: jvp(grad(f), x, v))
E(lambda: jvp(grad(f), (x,), (v[:2],)))
'''

PROGRAMS['linearize_vs_jvp'] = PRE + r'''
from torch.func import linearize, jvp
warnings.simplefilter('ignore')  # (PyTorch's linearize traces with make_fx, whose own warnings are not the point)
def f(x):
    return x.sin() * 2 + x.pow(3)
x = torch.tensor([0.5, 1.0, -1.5])
out, jvp_fn = linearize(f, x)
print(out)
for t in (torch.ones(3), torch.tensor([1.0, 0.0, 0.0]), torch.arange(3.)):
    print(jvp_fn(t), jvp(f, (x,), (t,))[1])
E(lambda: jvp_fn(torch.ones(2)))
E(lambda: jvp_fn(torch.ones(3, dtype=torch.float64)))
def g(x, y):
    return (x * y).sum(), x - y
out2, fn2 = linearize(g, x, torch.ones(3))
print(out2)
print(fn2(torch.ones(3), torch.zeros(3)))
'''

PROGRAMS['grad_and_value_has_aux_structures'] = PRE + r'''
from torch.func import grad_and_value, grad
def f(x):
    y = (x ** 2).sum()
    return y, (x.detach().clone(), {'mean': x.mean()})
x = torch.tensor([1.0, 2.0, 3.0])
g, (v, aux) = grad_and_value(f, has_aux=True)(x)
print(g, v, aux[0], aux[1])
print(aux[1]['mean'].requires_grad, v.requires_grad, g.requires_grad)
E(lambda: grad_and_value(f)(x))
E(lambda: grad(lambda x: ((x ** 2).sum(), 1, 2), has_aux=True)(x))
E(lambda: grad(lambda x: (x ** 2).sum(), has_aux=True)(x))
E(lambda: grad(lambda x: ((x ** 2).sum(), 'aux'), has_aux=True)(x))
E(lambda: grad(lambda x: ([x.sum()], x), has_aux=True)(x))
E(lambda: grad(lambda x: ((x ** 2).sum(), 3), has_aux=True)(x))
E(lambda: grad(lambda x: ((x ** 2).sum(), None), has_aux=True)(x))
print(grad(lambda x: ((x ** 2).sum(), ()), has_aux=True)(x))
'''

# ---- binary_cross_entropy_with_logits under transforms (functorch's decomposition)

PROGRAMS['bce_with_logits_per_sample_grads_bits'] = PRE + r"""
# fixed: under a transform PyTorch decomposes binary_cross_entropy_with_logits (its own last bits)
from torch.func import functional_call, vmap, grad, grad_and_value
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(11)
m = nn.Linear(5, 1)
p = {k: v.detach() for k, v in m.named_parameters()}
x = torch.randn(8, 5)
y = torch.randint(0, 2, (8, 1)).float()
def loss(p, xi, yi):
    return F.binary_cross_entropy_with_logits(functional_call(m, p, (xi,)), yi)
g = vmap(grad(loss), in_dims=(None, 0, 0))(p, x, y)
loop = torch.stack([torch.autograd.grad(loss(dict(m.named_parameters()), x[i], y[i]), m.weight)[0] for i in range(8)])
print(torch.equal(g['weight'], loop), (g['weight'] - loop).abs().max().item())
print(g['bias'].squeeze().tolist())
gv, v = grad_and_value(lambda w: F.binary_cross_entropy_with_logits(x @ w, y.squeeze()))(torch.ones(5) * 0.3)
direct = F.binary_cross_entropy_with_logits(x @ (torch.ones(5) * 0.3), y.squeeze())
print(v.item(), direct.item(), v.item() == direct.item())
print(gv.tolist())
"""

PROGRAMS['bce_with_logits_pos_weight_under_grad'] = PRE + r"""
# fixed: pos_weight and weight in functorch's decomposition of binary_cross_entropy_with_logits
from torch.func import grad, vmap, hessian
import torch.nn as nn
import torch.nn.functional as F
torch.set_printoptions(precision=8)
x = torch.tensor([0.3, -0.2, 2.0, -4.0])
y = torch.tensor([1.0, 0.0, 1.0, 0.5])
pw = torch.tensor([2.0, 0.5, 3.0, 1.0])
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
print(grad(lambda v: F.binary_cross_entropy_with_logits(v, y, pos_weight=pw))(x))
print(grad(lambda v: nn.BCEWithLogitsLoss(weight=w, pos_weight=pw, reduction='sum')(v, y))(x))
print(grad(lambda t: F.binary_cross_entropy_with_logits(x, t))(y))
print(grad(lambda ww: F.binary_cross_entropy_with_logits(x, y, weight=ww))(w))
print(vmap(lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction='none'))(x.view(2, 2), y.view(2, 2)))
print(hessian(lambda v: F.binary_cross_entropy_with_logits(v, y, pos_weight=pw))(x))
E(lambda: grad(lambda v: F.binary_cross_entropy_with_logits(v, y.bool()))(x))
E(lambda: grad(lambda v: F.binary_cross_entropy_with_logits(v, y[:2]))(x))
"""

# ---- vmap in_dims / out_dims

PROGRAMS['vmap_nested_in_dims_and_none'] = PRE + r"""
from torch.func import vmap
def f(pair, scale, d):
    a, b = pair
    return a * scale + b.sum() * d['k']
a = torch.arange(6.).view(2, 3)
b = torch.arange(8.).view(4, 2)
d = {'k': torch.tensor([1.0, -1.0])}
out = vmap(f, in_dims=((0, 1), None, {'k': 0}))((a, b), 2.0, d)
print(out, out.shape)
out2 = vmap(f, in_dims=((1, None), None, None))((a, b), torch.tensor(3.0), {'k': torch.tensor(0.5)})
print(out2)
E(lambda: vmap(f, in_dims=((0, 1), None))((a, b), 2.0, d))
E(lambda: vmap(f, in_dims=((0, 0), None, {'k': 0}))((a, b), 2.0, d))
E(lambda: vmap(f, in_dims=((0, 1), None, {'j': 0}))((a, b), 2.0, d))
E(lambda: vmap(f, in_dims=[(0, 1), None, {'k': 0}])((a, b), 2.0, d))
E(lambda: vmap(f, in_dims=((0, 3), None, {'k': 0}))((a, b), 2.0, d))
E(lambda: vmap(f, in_dims=((0, 1.0), None, {'k': 0}))((a, b), 2.0, d))
"""

PROGRAMS['vmap_out_dims_tuple_and_dict_outputs'] = PRE + r"""
from torch.func import vmap
x = torch.arange(12.).view(3, 4)
def f(r):
    return r.sum(), r * 2, {'max': r.max(), 'cum': r.cumsum(0)}
s, d, dd = vmap(f)(x)
print(s, d.shape, sorted(dd), dd['cum'])
s, d, dd = vmap(f, out_dims=(0, 1, {'max': 0, 'cum': 1}))(x)
print(d.shape, dd['cum'].shape)
print(dd['cum'])
s, d, dd = vmap(f, out_dims=(0, -1, 0))(x)
print(d.shape)
E(lambda: vmap(f, out_dims=(0, 1))(x))
E(lambda: vmap(f, out_dims=(0, 2, 0))(x))
E(lambda: vmap(lambda r: (r.sum(), 3))(x))
print(vmap(lambda r: (r.sum(), torch.tensor(3.)), out_dims=(0, None))(x))
E(lambda: vmap(lambda r: (r.sum(), r), out_dims=(0, None))(x))
"""

PROGRAMS['vmap_mismatched_and_wrong_in_dims'] = PRE + r"""
from torch.func import vmap
x, y = torch.ones(3, 2), torch.ones(4, 2)
E(lambda: vmap(torch.add)(x, y))
E(lambda: vmap(torch.add, in_dims=(0, 1))(x, y))
E(lambda: vmap(torch.add, in_dims=(0, None))(x, y))
E(lambda: vmap(torch.add, in_dims=(2, 0))(x, x))
E(lambda: vmap(torch.add, in_dims=(-3, 0))(x, x))
print(vmap(torch.add, in_dims=(-1, 0))(x, x.T.contiguous()))
E(lambda: vmap(torch.add, in_dims=(None, None))(x, x))
E(lambda: vmap(torch.sum)(torch.tensor(1.0)))
E(lambda: vmap(torch.sum)([1.0, 2.0]))
E(lambda: vmap(torch.sum, in_dims=0)())
E(lambda: vmap(torch.add, in_dims=(0, 0, 0))(x, x))
E(lambda: vmap(torch.add, in_dims='0')(x, x))
E(lambda: vmap(lambda a: a)(torch.ones(0, 3)))
print(vmap(lambda a: a * 2)(torch.ones(0, 3)).shape)
"""

PROGRAMS['vmap_errors_item_control_flow_inplace'] = PRE + r"""
from torch.func import vmap
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
E(lambda: vmap(lambda r: r.sum().item())(x))
E(lambda: vmap(lambda r: float(r.sum()))(x))
E(lambda: vmap(lambda r: r * 2 if r.sum() > 0 else r)(x))
E(lambda: vmap(lambda r: r.tolist())(x))
E(lambda: vmap(lambda r: r.numpy())(x))
print(vmap(lambda r: torch.where(r.sum() > 0, r * 2, r))(x))
buf = torch.zeros(2)
def write(r):
    buf.add_(r)
    return buf
E(lambda: vmap(write)(x))
print(buf)
def write2(r):
    r.add_(buf)
    return r
print(vmap(write2)(x.clone()))
def write3(r):
    out = torch.zeros(2)
    out.copy_(r)
    return out
E(lambda: vmap(write3)(x))
E(lambda: vmap(lambda r: torch.nonzero(r))(x))
E(lambda: vmap(lambda r: r[r > 0])(x))
"""

PROGRAMS['print_inside_transforms'] = PRE + r"""
# fixed: inside vmap(grad(f)) an input prints as GradTrackingTensor around its BatchedTensor; prints show once
from torch.func import vmap, grad, jacrev, jvp, vjp
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
def f(r):
    print('inside', r)
    print(type(r).__name__, r.shape, r.dtype, r.requires_grad, r.grad_fn)
    return r.sin().sum()
vmap(f)(x)
grad(f)(x[0])
def g(r):
    y = r * 2
    print(y)
    print(y.shape, y.dim(), y.size(0))
    return y
jacrev(g)(x[0])
jvp(g, (x[0],), (torch.ones(2),))
vjp(g, x[0])
vmap(grad(f))(x)
"""

PROGRAMS['grad_of_non_scalar_and_wrong_outputs'] = PRE + r"""
from torch.func import grad, grad_and_value, vjp, jacrev
x = torch.tensor([1.0, 2.0])
E(lambda: grad(lambda x: x * 2)(x))
E(lambda: grad(lambda x: (x * 2).sum(0, keepdim=True))(x))
E(lambda: grad(lambda x: [x.sum()])(x))
E(lambda: grad(lambda x: x.sum().item())(x))
E(lambda: grad(lambda x: None)(x))
E(lambda: grad(lambda x: x.sum())(1.0))
E(lambda: grad(lambda x: x.sum())([x]))
E(lambda: grad(lambda x: x.sum())(torch.tensor([1, 2])))
E(lambda: grad(lambda x: x.abs().sum())(torch.tensor([1 + 1j])))
E(lambda: grad(lambda x: x.sum())())
E(lambda: grad(lambda x, y: (x * y).sum(), argnums=(0, 5))(x, x))
E(lambda: grad_and_value(lambda x: (x.sum(), x), has_aux=False)(x))
E(lambda: vjp(lambda x: x.sum().item(), x))
E(lambda: jacrev(lambda x: (x > 0))(x))
print(grad(lambda x: (x * 2).sum(0, keepdim=True).squeeze())(x))
print(grad(lambda x: x.sum().view(()))(x))
"""

PROGRAMS['grad_argnums_kwargs_and_captured'] = PRE + r"""
from torch.func import grad
def f(x, y, *, scale=1.0):
    return (x * y * scale).sum()
x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, -1.0])
print(grad(f)(x, y))
print(grad(f, argnums=1)(x, y, scale=2.0))
print(grad(f, argnums=(0, 1))(x, y, scale=torch.tensor(0.5)))
gx, gy = grad(f, argnums=(1, 0))(x, y)
print(gx, gy)
print(grad(f, argnums=-1)(x, y))
c = torch.tensor([10.0, 20.0], requires_grad=True)
r = grad(lambda x: (x * c).sum())(x)
print(r, r.requires_grad, r.grad_fn)
r.sum().backward()
print(c.grad)
E(lambda: grad(f, argnums=(0, 1))(x))
E(lambda: grad(f, argnums=-3)(x, y))
"""

# ---- prints inside vmap

PROGRAMS['print_inside_vmap_computed_tensors'] = PRE + r"""
# fixed: vmap's function prints once (PyTorch calls it once), a computed batched tensor as the whole batch
from torch.func import vmap
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
def f(r, w):
    print('shape', r.shape, 'w', w)
    h = r * w
    print('h', h)
    s = h.sum()
    print('s', s, s.shape, s.dim())
    print([h.max(), torch.ones(2)])
    return s
print(vmap(f, in_dims=(0, None))(x, torch.tensor(2.0)))
def g(r):
    print(r.exp().round(decimals=2), r.exp().shape)
    return r
vmap(g)(x.T)
calls = []
def h(r):
    calls.append(r.shape)
    print('chunk call', r.shape)
    return r
vmap(h, chunk_size=1)(x)
print(len(calls) > 0)
"""

PROGRAMS['print_inside_vmap_before_error'] = PRE + r"""
# fixed: what the function printed before vmap's error shows once, as PyTorch's one call prints it
from torch.func import vmap
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
def f(r):
    print('start', r.shape)
    y = r.relu()
    print('relu', y.shape, y.dtype)
    if y.sum() > 0:
        return y
    return -y
E(lambda: vmap(f)(x))
def g(r):
    print('before item')
    return r.sum().item()
E(lambda: vmap(g)(x))
print('after')
"""

# ---- batch norm, functionalize

PROGRAMS['replace_all_batch_norm_modules'] = PRE + r"""
from torch.func import replace_all_batch_norm_modules_, vmap, functional_call, stack_module_state
import torch.nn as nn
torch.manual_seed(12)
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU())
x = torch.randn(2, 5, 3)
E(lambda: vmap(net)(x))
print(net[1].running_mean, net[1].num_batches_tracked)
r = replace_all_batch_norm_modules_(net)
print(r is net, net[1].running_mean, net[1].running_var, net[1].track_running_stats)
print(net[1])
out = vmap(net)(x)
print(out.shape)
print(out[0, 0])
print(dict(net.named_buffers()))
bn = nn.BatchNorm1d(4, track_running_stats=False)
print(vmap(bn)(torch.randn(2, 3, 4)).shape, bn.running_mean)
"""

PROGRAMS['functionalize_programs'] = PRE + r"""
from torch.func import functionalize, grad, vmap
def f(x):
    y = x.clone()
    y.add_(1)
    z = y.view(-1)
    z.mul_(2)
    return y
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(functionalize(f)(x))
print(grad(lambda x: functionalize(f)(x).sum())(x))
print(vmap(functionalize(f))(x))
def g(x):
    x.add_(1)
    return x * 2
a = x.clone()
print(functionalize(g)(a), a)
b = x.clone()
print(functionalize(g, remove='mutations_and_views')(b), b)
E(lambda: functionalize(g, remove='bogus')(x))
"""

# ---- meta-learning, penalties, Newton

PROGRAMS['maml_inner_loop_with_grad'] = PRE + r"""
from torch.func import grad, functional_call, vmap
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(13)
net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
params = {k: v.detach() for k, v in net.named_parameters()}
def loss(p, x, y):
    return F.mse_loss(functional_call(net, p, (x,)), y)
def inner(p, x, y, steps=2, lr=0.1):
    for _ in range(steps):
        g = grad(loss)(p, x, y)
        p = {k: p[k] - lr * g[k] for k in p}
    return p
def task_loss(p, xs, ys, xq, yq):
    return loss(inner(p, xs, ys), xq, yq)
xs, ys = torch.randn(3, 5, 1), torch.randn(3, 5, 1)
xq, yq = torch.randn(3, 4, 1), torch.randn(3, 4, 1)
losses = vmap(task_loss, in_dims=(None, 0, 0, 0, 0))(params, xs, ys, xq, yq)
print(losses)
meta = grad(lambda p: vmap(task_loss, in_dims=(None, 0, 0, 0, 0))(p, xs, ys, xq, yq).mean())(params)
print({k: tuple(v.shape) for k, v in meta.items()})
print(meta['2.bias'], meta['0.weight'].norm())
"""

PROGRAMS['gradient_penalty_grad_of_grad'] = PRE + r"""
# fixed: grad of a function taking grad w.r.t. another argument kept a graph (the inner call's leaf was "outside")
from torch.func import grad, vmap, functional_call
import torch.nn as nn
torch.manual_seed(14)
critic = nn.Sequential(nn.Linear(2, 6), nn.Softplus(), nn.Linear(6, 1))
params = {k: v.detach() for k, v in critic.named_parameters()}
real, fake = torch.randn(4, 2), torch.randn(4, 2)
alpha = torch.rand(4, 1)
interp = alpha * real + (1 - alpha) * fake
def score(p, x):
    return functional_call(critic, p, (x,)).squeeze()
def penalty(p):
    g = vmap(grad(score, argnums=1), in_dims=(None, 0))(p, interp)
    return ((g.norm(dim=1) - 1) ** 2).mean()
print(penalty(params))
gp = grad(penalty)(params)
print(gp['2.bias'], gp['0.bias'])
x = interp.clone().requires_grad_()
out = critic(x).sum()
gx, = torch.autograd.grad(out, x, create_graph=True)
pen = ((gx.norm(dim=1) - 1) ** 2).mean()
pen.backward()
print(critic[2].bias.grad, torch.allclose(critic[0].bias.grad, gp['0.bias'], atol=1e-6), critic[0].bias.grad)
"""

PROGRAMS['newton_method_with_hessian'] = PRE + r"""
from torch.func import grad, hessian
def rosen(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 10 * (y - x ** 2) ** 2
p = torch.tensor([-1.0, 1.5], dtype=torch.float64)
for step in range(5):
    g = grad(rosen)(p)
    H = hessian(rosen)(p)
    p = p - torch.linalg.solve(H, g)
    print(step, p, rosen(p).item())
print(H, H.dtype)
print(torch.linalg.eigvalsh(H))
"""

# ---- jacobians w.r.t. parameters, vjp / jvp details

PROGRAMS['jacrev_wrt_params_batch_outputs'] = PRE + r"""
from torch.func import jacrev, functional_call
import torch.nn as nn
torch.manual_seed(15)
m = nn.Linear(3, 2)
p = {k: v.detach() for k, v in m.named_parameters()}
x = torch.randn(4, 3)
J = jacrev(lambda p: functional_call(m, p, (x,)))(p)
print({k: tuple(v.shape) for k, v in J.items()})
print(J['bias'][0])
print(torch.equal(J['weight'][1, 0, 0], x[1]), torch.equal(J['weight'][1, 0, 1], torch.zeros(3)))
Jx = jacrev(lambda x: m(x).sum(0))(x)
print(Jx.shape, torch.equal(Jx[0, :, 0], m.weight.detach()[0].expand(0, 3)) if False else Jx[0, 1])
jf = torch.func.jacfwd(lambda p: functional_call(m, p, (x,)))(p)
print(all(torch.allclose(J[k], jf[k]) for k in J))
"""

PROGRAMS['vjp_has_aux_and_reuse'] = PRE + r"""
from torch.func import vjp
x = torch.tensor([1.0, 2.0, 3.0])
def f(x):
    y = x.exp()
    return y * 2, {'y': y, 'n': y.norm()}
out, fn, aux = vjp(f, x, has_aux=True)
print(out, aux['n'])
print(fn(torch.ones(3)))
print(fn(torch.tensor([1.0, 0.0, 0.0])))
print(fn(torch.ones(3)))
E(lambda: fn(torch.ones(2)))
E(lambda: fn(torch.ones(3, dtype=torch.float64)))
E(lambda: fn((torch.ones(3),)))
E(lambda: fn([torch.ones(3)]))
E(lambda: vjp(f, x))
E(lambda: vjp(lambda x: x, x, has_aux=True))
o2, fn2 = vjp(lambda a, b: (a * b, a + b), x, torch.ones(3))
print(fn2((torch.ones(3), torch.ones(3))))
E(lambda: fn2(torch.ones(3)))
"""

PROGRAMS['jvp_has_aux_strict_and_shapes'] = PRE + r"""
from torch.func import jvp
x = torch.tensor([0.5, 1.0])
def f(x):
    return x.sin(), x.cos()
print(jvp(f, (x,), (torch.ones(2),)))
print(jvp(lambda x: (x ** 2, x.detach()), (x,), (torch.ones(2),), has_aux=True))
E(lambda: jvp(lambda x: torch.ones(2), (x,), (torch.ones(2),), strict=True))
print(jvp(lambda x: torch.ones(2), (x,), (torch.ones(2),)))
E(lambda: jvp(f, (x,), (torch.ones(3),)))
E(lambda: jvp(f, (x,), [torch.ones(2)]))
E(lambda: jvp(f, x, (torch.ones(2),)))
E(lambda: jvp(f, (x,), (torch.ones(2), torch.ones(2))))
E(lambda: jvp(f, (), ()))
E(lambda: jvp(f, (x,), (torch.ones(2, dtype=torch.int64),)))
E(lambda: jvp(lambda x: 3, (x,), (torch.ones(2),)))
"""

PROGRAMS['nested_grad_results_are_plain'] = PRE + r"""
# fixed: a grad transform's result depending on an inner transform's input kept its graph (grad_fn=AddBackward0)
from torch.func import grad, vjp, jacrev
torch.manual_seed(16)
w = torch.randn(3, 2)
x = torch.randn(2)
def pen(w):
    g = grad(lambda w, x: (w @ x).tanh().sum(), argnums=1)(w, x)
    return (g ** 2).sum()
r = grad(pen)(w)
print(r, r.requires_grad, r.grad_fn)
def pen_vjp(w):
    _, fn = vjp(lambda x: (w @ x).exp(), x)
    return fn(torch.ones(3))[0].pow(2).sum()
r2 = grad(pen_vjp)(w)
print(r2.requires_grad, r2.grad_fn, r2.shape)
J = jacrev(lambda w: grad(lambda x: (w @ x).sin().sum())(x))(w)
print(J.shape, J.requires_grad, J.grad_fn)
wr = w.clone().requires_grad_()
r3 = grad(pen)(wr)
print(r3.requires_grad, type(r3.grad_fn).__name__)
"""

# ---- functorch's hacks of linear and dropout

PROGRAMS['dropout_under_grad_and_vmap'] = PRE + r"""
from torch.func import grad, vmap, grad_and_value
import torch.nn.functional as F
x = torch.arange(1., 9.)
torch.manual_seed(0)
print(F.dropout(x, 0.5))
torch.manual_seed(0)
g, v = grad_and_value(lambda x: F.dropout(x, 0.5).sum())(x)
print(g, v)
torch.manual_seed(0)
print(vmap(lambda r: F.dropout(r, 0.5), randomness='different')(x.view(2, 4)))
torch.manual_seed(0)
print(vmap(lambda r: F.dropout(r, 0.5), randomness='same')(x.view(2, 4)))
torch.manual_seed(0)
print(grad(lambda x: F.dropout(x, 0.25, training=True).pow(2).sum())(x))
print(grad(lambda x: F.dropout(x, 0.5, training=False).sum())(x))
torch.manual_seed(0)
print(grad(lambda x: F.dropout(x, 1.0).sum())(x))
"""

PROGRAMS['linear_shapes_under_transforms'] = PRE + r"""
from torch.func import grad, vmap, jacrev
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(17)
lin = nn.Linear(3, 2)
W, b = lin.weight.detach(), lin.bias.detach()
x3 = torch.randn(2, 4, 3)
x1 = torch.randn(3)
print(grad(lambda W: F.linear(x3, W, b).sum())(W))
print(grad(lambda b: F.linear(x1, W, b).pow(2).sum())(b))
print(grad(lambda W: F.linear(x3.transpose(0, 1), W, b).sin().sum())(W))
print(jacrev(lambda x: F.linear(x, W, b))(x1))
print(vmap(lambda x: F.linear(x, W, b))(x3).shape)
print(vmap(lambda W: F.linear(x1, W))(torch.stack([W, 2 * W])))
"""

# ---- stack_module_state, functional_call arguments

PROGRAMS['stack_module_state_errors_and_buffers'] = PRE + r"""
from torch.func import stack_module_state, functional_call, vmap
import torch.nn as nn
torch.manual_seed(18)
E(lambda: stack_module_state([]))
E(lambda: stack_module_state([nn.Linear(2, 2), nn.Linear(2, 3)]))
E(lambda: stack_module_state([nn.Linear(2, 2), nn.Sequential(nn.Linear(2, 2))]))
m1, m2 = nn.BatchNorm1d(3), nn.BatchNorm1d(3)
m1.eval(); m2.eval()
E(lambda: stack_module_state([m1, nn.BatchNorm1d(3)]))
m2.running_mean.fill_(1.0)
p, b = stack_module_state([m1, m2])
print(sorted(p), sorted(b))
print(b['running_mean'], b['num_batches_tracked'])
x = torch.ones(4, 3)
out = vmap(lambda p, b: functional_call(m1, (p, b), (x,)))(p, b)
print(out[:, 0])
ms = [nn.Linear(2, 1) for _ in range(2)]
ms[1].weight.requires_grad_(False)
E(lambda: stack_module_state(ms))
"""

PROGRAMS['functional_call_arguments'] = PRE + r"""
from torch.func import functional_call
import torch.nn as nn
torch.manual_seed(19)
m = nn.Linear(2, 2)
x = torch.ones(1, 2)
zeros = {'weight': torch.zeros(2, 2), 'bias': torch.ones(2)}
print(functional_call(m, zeros, x))
print(functional_call(m, {'bias': torch.zeros(2)}, (x,)).shape)
E(lambda: functional_call(m, {'bias': torch.zeros(2)}, (x,), strict=True))
E(lambda: functional_call(m, {**zeros, 'extra': torch.zeros(1)}, (x,), strict=True))
E(lambda: functional_call(m, ({'weight': torch.zeros(2, 2)}, {'weight': torch.ones(2, 2)}), (x,)))
print(functional_call(m, ({'weight': torch.zeros(2, 2)}, {'bias': torch.ones(2)}), (x,)))
print(functional_call(m, zeros, args=(), kwargs={'input': x}))
print(m.weight.requires_grad, m.bias.grad_fn, torch.equal(m(x), functional_call(m, dict(m.named_parameters()), x)))
class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = self.a
    def forward(self, x):
        return self.b(self.a(x))
t = Tied()
print(functional_call(t, {'a.weight': torch.eye(2) * 2}, (x,)))
print(functional_call(t, {'a.weight': torch.eye(2) * 2}, (x,), tie_weights=False))
E(lambda: functional_call(t, {'a.weight': torch.eye(2), 'b.weight': torch.eye(2) * 3}, (x,)))
"""

# ---- more jacobians and hessians

PROGRAMS['hessian_of_mlp_wrt_inputs'] = PRE + r"""
from torch.func import hessian, jacrev, jacfwd, vmap
import torch.nn as nn
torch.manual_seed(20)
net = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 1))
for p in net.parameters():
    p.requires_grad_(False)
f = lambda x: net(x).squeeze()
x = torch.tensor([0.5, -0.3])
H = hessian(f)(x)
print(H)
print(torch.allclose(H, jacrev(jacrev(f))(x), atol=1e-6), torch.allclose(H, jacfwd(jacfwd(f))(x), atol=1e-6))
xs = torch.randn(3, 2)
Hs = vmap(hessian(f))(xs)
print(Hs.shape)
print(Hs[2])
lap = vmap(lambda x: torch.trace(hessian(f)(x)))(xs)
print(lap)
"""

PROGRAMS['jacobians_of_softmax_normalize_layer_norm'] = PRE + r"""
from torch.func import jacrev, jacfwd
import torch.nn.functional as F
x = torch.tensor([0.2, -1.0, 0.5, 1.5])
Js = jacrev(lambda x: F.softmax(x, dim=0))(x)
print(Js)
print(Js.sum(0), Js.sum(1))
Jn = jacfwd(lambda x: F.normalize(x, dim=0))(x)
print(Jn)
Jl = jacrev(lambda x: F.layer_norm(x, (4,)))(x)
print(Jl)
print(torch.allclose(Jl, jacfwd(lambda x: F.layer_norm(x, (4,)))(x), atol=1e-6))
Jls = jacrev(lambda x: F.log_softmax(x, dim=0))(x)
print(Jls)
"""

PROGRAMS['jacrev_jacfwd_errors'] = PRE + r"""
from torch.func import jacrev, jacfwd, hessian
x = torch.tensor([1.0, 2.0])
E(lambda: jacrev(lambda x: x.long())(x))
E(lambda: jacrev(lambda x: (x > 1))(x))
E(lambda: jacfwd(lambda x: x * 2)(torch.tensor([1, 2])))
E(lambda: jacrev(lambda x: x * 2)(torch.tensor([1, 2])))
E(lambda: jacrev(lambda x: x * 2)(torch.tensor([1 + 2j])))
E(lambda: jacfwd(lambda x: x * 2)(torch.tensor([1 + 2j])))
E(lambda: jacrev(lambda x: x.sum().item())(x))
E(lambda: jacfwd(lambda x: x.sum().item())(x))
E(lambda: jacrev(lambda x: [x, 1])(x))
E(lambda: jacfwd(lambda x: x, randomness='bogus')(x))
E(lambda: hessian(lambda x: x)(x) if False else hessian(lambda x: x.sum().item())(x))
print(jacrev(lambda x: x.sum())(x), jacfwd(lambda x: x.sum())(x))
print(jacrev(lambda x: x.view(2, 1) * x)(x).shape)
print(jacfwd(lambda x: torch.rand_like(x) * 0 + x, randomness='same')(x))
E(lambda: jacfwd(lambda x: torch.rand_like(x) + x)(x))
"""

PROGRAMS['vmap_chunk_size_results_and_errors'] = PRE + r"""
from torch.func import vmap, jacrev
x = torch.arange(10.).view(5, 2)
f = lambda r: (r ** 2).sum()
print(vmap(f, chunk_size=2)(x), vmap(f, chunk_size=5)(x), vmap(f, chunk_size=100)(x))
E(lambda: vmap(f, chunk_size=0)(x))
E(lambda: vmap(f, chunk_size=-1)(x))
E(lambda: vmap(f, chunk_size=1.5)(x))
print(jacrev(lambda x: x.exp(), chunk_size=3)(torch.zeros(4)))
E(lambda: jacrev(lambda x: x.exp(), chunk_size=0)(torch.zeros(4)))
J = jacrev(lambda a, b: a * b, argnums=(0, 1), chunk_size=1)(torch.ones(2), torch.arange(2.))
print(J)
"""

PROGRAMS['backward_and_autograd_grad_inside_transforms'] = PRE + r"""
from torch.func import grad, vmap
x = torch.tensor([1.0, 2.0])
def uses_backward(x):
    y = (x ** 2).sum()
    y.backward()
    return y
E(lambda: grad(uses_backward)(x))
def uses_autograd_grad(x):
    y = (x ** 2).sum()
    g, = torch.autograd.grad(y, x)
    return g.sum()
print(grad(uses_autograd_grad)(x))
E(lambda: vmap(uses_backward)(x.view(2, 1).clone().requires_grad_()))
def leaf_grad(x):
    y = (x ** 3).sum()
    print(x.grad, x.is_leaf, x.requires_grad)
    return y
print(grad(leaf_grad)(x))
E(lambda: grad(lambda x: x.retain_grad() or x.sum())(x))
"""

# ---- per-sample models with indexing and sequences

PROGRAMS['per_sample_grads_embedding_bag_of_words'] = PRE + r"""
from torch.func import functional_call, vmap, grad
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(21)
class BoW(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 3)
        self.out = nn.Linear(3, 2)
    def forward(self, tokens):
        return self.out(self.emb(tokens).mean(-2))
model = BoW()
params = {k: v.detach() for k, v in model.named_parameters()}
tokens = torch.tensor([[0, 1, 2], [3, 3, 5], [1, 4, 0]])
labels = torch.tensor([0, 1, 1])
def loss(p, t, y):
    return F.cross_entropy(functional_call(model, p, (t.unsqueeze(0),)), y.unsqueeze(0))
g = vmap(grad(loss), in_dims=(None, 0, 0))(params, tokens, labels)
print(g['emb.weight'].shape)
print(g['emb.weight'][1])
print((g['emb.weight'] != 0).any(-1))
print(g['out.bias'])
"""

# ---- second derivatives through activations' backward ops

PROGRAMS['hessian_gelu_mlp_and_logsigmoid'] = PRE + r"""
# fixed: a backward op's term of a missing tangent is 0·f' (a signed zero), as PyTorch's ZeroTensor fallback gives
from torch.func import hessian, jvp, grad
import torch.nn as nn
import torch.nn.functional as F
torch.set_printoptions(precision=6)
x = torch.tensor([1.5, -0.3, -2.2, 0.6])
print(hessian(lambda z: F.gelu(z).sum())(x))
print(hessian(lambda z: F.logsigmoid(z).sum())(x))
print(hessian(lambda z: F.gelu(z, approximate='tanh').sum())(x)[2])
print(jvp(grad(lambda z: F.gelu(z).sum()), (x,), (torch.tensor([0.0, 1.0, 0.0, 0.0]),)))
torch.manual_seed(22)
net = nn.Sequential(nn.Linear(4, 3), nn.GELU(), nn.Linear(3, 1))
for p in net.parameters():
    p.requires_grad_(False)
print(hessian(lambda z: net(z).squeeze())(x))
def nll_pos(z):
    return -F.logsigmoid(z * torch.tensor([1.0, -1.0, 1.0, -1.0])).mean()
print(hessian(nll_pos)(x))
"""

PROGRAMS['hessian_softmax_attention_weights'] = PRE + r"""
# fixed: forward AD of softmax's backward runs PyTorch's decomposition (g·y - y·Σ g·y): its bits and zeros
from torch.func import hessian, jacfwd, jacrev, jvp, grad
import torch.nn.functional as F
torch.set_printoptions(precision=8)
torch.manual_seed(23)
q = torch.randn(3)
K = torch.randn(4, 3)
V = torch.randn(4, 2)
def attend(q):
    w = F.softmax(K @ q / 3 ** 0.5, dim=0)
    return (w @ V).sum()
print(attend(q))
H = hessian(attend)(q)
print(H)
print(jacfwd(jacrev(attend))(q).equal(H))
s = torch.randn(2, 5)
t = torch.randn(2, 5)
print(jvp(grad(lambda z: (F.softmax(z, -1) * torch.arange(5.)).sum()), (s,), (t,)))
print(hessian(lambda z: F.softmax(z, 0)[1])(s[0]))
"""

# ---- what a student gets wrong with per-sample gradients

PROGRAMS['per_sample_grads_student_mistakes'] = PRE + r"""
from torch.func import functional_call, vmap, grad
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(24)
m = nn.Linear(3, 2)
params = dict(m.named_parameters())
x = torch.randn(4, 3)
y = torch.tensor([0, 1, 1, 0])
def loss(p, xi, yi):
    return F.cross_entropy(functional_call(m, p, (xi.unsqueeze(0),)), yi.unsqueeze(0))
E(lambda: vmap(grad(loss))(params, x, y))
E(lambda: vmap(grad(loss), in_dims=(None, 0))(params, x, y))
E(lambda: vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y[:3]))
g = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
print(g['bias'].requires_grad, g['bias'].shape, g['bias'].is_leaf)
E(lambda: vmap(grad(lambda p, xi, yi: F.cross_entropy(functional_call(m, p, (xi,)), yi)), in_dims=(None, 0, 0))(params, x, y)['bias'].detach())
def batch_loss(p, xb, yb):
    return F.cross_entropy(functional_call(m, p, (xb,)), yb)
gb = grad(batch_loss)({k: v.detach() for k, v in params.items()}, x, y)
print(torch.allclose(gb['weight'], g['weight'].mean(0)), gb['bias'])
E(lambda: grad(loss)(params, x, y))
"""

PROGRAMS['vmap_jacrev_per_sample_input_jacobians'] = PRE + r"""
from torch.func import vmap, jacrev, jacfwd
import torch.nn as nn
torch.manual_seed(25)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3)
J = vmap(jacrev(net))(x)
print(J.shape)
print(J[0])
J2 = vmap(jacfwd(net))(x)
print(torch.allclose(J, J2, atol=1e-6))
Jfull = jacrev(net)(x)
print(Jfull.shape, torch.allclose(Jfull.diagonal(dim1=0, dim2=2).permute(2, 0, 1), J))
print(J.requires_grad)
Jn = vmap(jacrev(lambda xi: net(xi).norm()))(x)
print(Jn.detach(), Jn.requires_grad)
"""

PROGRAMS['ensemble_training_steps_vs_separate'] = PRE + r"""
from torch.func import stack_module_state, functional_call, vmap, grad
import torch.nn as nn
import torch.nn.functional as F
import copy
torch.manual_seed(26)
models = [nn.Linear(2, 1) for _ in range(3)]
twins = copy.deepcopy(models)
params, buffers = stack_module_state(models)
params = {k: v.detach() for k, v in params.items()}
base = copy.deepcopy(models[0]).to('meta')
x, y = torch.randn(6, 2), torch.randn(6, 1)
def loss(p, b):
    return F.mse_loss(functional_call(base, (p, b), (x,)), y)
for step in range(3):
    g = vmap(grad(loss))(params, buffers)
    params = {k: params[k] - 0.1 * g[k] for k in params}
    losses = vmap(loss)(params, buffers)
    print(step, losses)
for m in twins:
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for step in range(3):
        opt.zero_grad()
        F.mse_loss(m(x), y).backward()
        opt.step()
print(torch.stack([m.weight.detach() for m in twins]))
print(params['weight'])
print(torch.allclose(torch.stack([m.bias.detach() for m in twins]), params['bias']))
"""

PROGRAMS['vmap_linalg_per_sample'] = PRE + r"""
from torch.func import vmap, grad, jacrev
A = torch.tensor([[[2.0, 1.0], [1.0, 3.0]], [[4.0, -1.0], [0.5, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
b = torch.tensor([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]])
print(vmap(torch.linalg.solve)(A, b))
print(vmap(torch.linalg.det)(A))
print(vmap(torch.linalg.inv)(A)[1])
print(vmap(lambda M: torch.linalg.eigvalsh(M @ M.T))(A))
print(vmap(grad(lambda M: torch.linalg.det(M)))(A))
print(vmap(jacrev(lambda M, v: torch.linalg.solve(M, v), argnums=1))(A, b)[0])
print(vmap(torch.trace)(A), vmap(torch.diag)(A))
E(lambda: vmap(torch.linalg.solve)(A, b[:2]))
"""

PROGRAMS['grad_modes_inside_transforms'] = PRE + r"""
from torch.func import grad, vmap, jacrev
x = torch.tensor([1.0, 2.0, 3.0])
def f(x):
    with torch.no_grad():
        c = (x * 2).sum()
    print('c', c.requires_grad)
    return (x ** 2).sum() * c
print(grad(f)(x))
def g(x):
    with torch.set_grad_enabled(False):
        y = x.exp()
    return (y * x).sum()
print(grad(g)(x))
def h(x):
    return (x.detach() * x).sum()
print(grad(h)(x))
with torch.no_grad():
    print(grad(lambda x: x.sin().sum())(x))
with torch.inference_mode():
    E(lambda: print(grad(lambda x: x.sin().sum())(x)))
print(vmap(grad(f))(x.view(3, 1).expand(3, 3).contiguous()))
print(jacrev(lambda x: x * torch.no_grad()(lambda: x.sum())())(x))
"""

PROGRAMS['forward_over_reverse_layer_norm_and_var_mean'] = PRE + r"""
# fixed: forward AD of layer norm's backward runs PyTorch's decomposition (was "not implemented"); var_mean's
# mean tangent is mean(t), Σ t / n; var's and std's tangents are PyTorch's var_jvp, Σ (2/(n - c)·t)·(x - x̄)
import torch.autograd.forward_ad as fwAD
from torch.func import hessian, jvp
import torch.nn.functional as F
torch.set_printoptions(precision=8)
torch.manual_seed(27)
x = torch.randn(2, 3)
t = torch.randn(2, 3)
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone().requires_grad_(), t)
    n = F.layer_norm(d, (3,))
    g, = torch.autograd.grad(n.pow(3).sum(), d, create_graph=True)
    p, tg = fwAD.unpack_dual(g)
    print(g.grad_fn, tg.grad_fn)
    print(p)
    print(tg)
print(jvp(lambda z: torch.var_mean(z, dim=1, keepdim=True), (x,), (t,)))
print(jvp(lambda z: torch.std_mean(z, dim=0), (x,), (t,))[1])
print(jvp(lambda z: torch.var_mean(z), (x,), (t,))[1])
print(jvp(lambda z: z.std(), (x,), (t,))[1], jvp(lambda z: z.var(1), (x,), (t,))[1])
x3, t3 = torch.randn(3, 4, 5), torch.randn(3, 4, 5)
print(jvp(lambda z: z.std((0, 2)), (x3,), (t3,))[1])
print(hessian(lambda z: z.std())(x.view(6))[0])
"""

PROGRAMS['forward_over_reverse_refused_by_pytorch'] = PRE + r"""
# fixed: soft_margin_loss_backward has no forward formula in PyTorch: jvp of its grad is refused, not computed
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, grad, jacrev
import torch.nn.functional as F
y = torch.tensor([1., -1., 1.])
x = torch.tensor([.3, -.2, 2.])
E(lambda: jvp(grad(lambda w: F.soft_margin_loss(w, y)), (x,), (torch.ones(3),)))
E(lambda: jvp(grad(lambda w: F.huber_loss(w, y)), (x,), (torch.ones(3),)))
print(jvp(lambda w: F.soft_margin_loss(w, y), (x,), (torch.ones(3),)))
print(grad(lambda w: F.soft_margin_loss(w, y))(x))
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone().requires_grad_(), torch.ones(3))
    E(lambda: torch.autograd.grad(F.soft_margin_loss(d, y), d, create_graph=True))
    E(lambda: torch.autograd.grad(F.mse_loss(d, y), d, create_graph=True))
    g, = torch.autograd.grad(F.l1_loss(d, y), d, create_graph=True)
    print(fwAD.unpack_dual(g))
"""


@pytest.fixture(autouse=True, scope="module")
def _jvp_decompositions_loaded():
    """PyTorch's first forward-mode transform loads its jvp decompositions, which warn that torch.jit.script is
    deprecated, and its first ``backward(gradient)`` and optimizer import modules for seconds: done here, so that
    no program's output or time depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.func.jacfwd(torch.sin)(torch.ones(2))
        (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
        torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
