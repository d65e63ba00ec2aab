"""Parity programs from a forty-ninth hunt: the programs of PyTorch's autograd docs and tutorials.

Programs taken from the kinds of code in PyTorch's own documentation, and a student's variations on them: the
torch.func tutorials (per-sample gradients with ``functional_call`` + ``vmap`` + ``grad``, model ensembling with
``stack_module_state``, Jacobians / Hessians / hvp with ``jacrev`` / ``jacfwd``, neural tangent kernels, a MAML
step), "Extending PyTorch" (custom Functions with ``setup_context``, ``once_differentiable``,
``mark_non_differentiable``, ``set_materialize_grads``, ``mark_dirty``, ``vmap`` staticmethods and
``generate_vmap_rule``, ``jvp`` staticmethods, ``__torch_function__``), the "Double Backward with Custom Functions"
and "Fusing Convolution and Batch Norm" tutorials, the "Autograd mechanics" notes (in-place correctness checks,
complex autograd, saved tensors and their hooks, multithreaded backward, hooks), and gradcheck / gradgradcheck
usage and failure messages. Each program prints values, reprs, grad_fn names, warnings (hunt14's ``W`` prelude)
and errors (``E``) and must print exactly what PyTorch prints. Programs marked "fixed:" printed something
different from PyTorch before this hunt's fixes (gradcheck of a function with integer outputs: PyTorch makes
numerical Jacobians of the floating point outputs only, in slow mode, and looks at every output in fast mode).
"""
from __future__ import annotations

import contextlib
import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE as _PRE

PRE = _PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function, Variable, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable, FunctionCtx
from torch.autograd.gradcheck import GradcheckError
from torch.func import functional_call, vmap, grad, jacrev, jacfwd, hessian, vjp, jvp, stack_module_state
'''

PROGRAMS: dict[str, str] = {}

# ---- torch.func tutorials: per-sample gradients, model ensembling, Jacobians / Hessians / hvp, NTK

PROGRAMS['func_per_sample_grads_cnn_like'] = PRE + r'''
torch.manual_seed(0)
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.fc1 = nn.Linear(4, 3)
        s.fc2 = nn.Linear(3, 2)
    def forward(s, x):
        return s.fc2(F.relu(s.fc1(x)))
model = M()
data = torch.randn(5, 4)
targets = torch.tensor([0, 1, 1, 0, 1])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
g = ft_compute_sample_grad(params, buffers, data, targets)
for k, v in g.items():
    print(k, v.shape, v.dtype, v.requires_grad, v.grad_fn)
# compare against a python loop
for i in range(5):
    model.zero_grad()
    loss = F.cross_entropy(model(data[i:i+1]), targets[i:i+1])
    loss.backward()
    print(i, [torch.allclose(p.grad, g[k][i], atol=1e-6) for k, p in model.named_parameters()])
print(g['fc2.bias'])
'''

PROGRAMS['func_per_sample_grads_has_aux'] = PRE + r'''
torch.manual_seed(1)
model = nn.Linear(3, 1)
params = dict(model.named_parameters())
x = torch.randn(4, 3); y = torch.randn(4, 1)
def loss_fn(p, xi, yi):
    out = functional_call(model, p, (xi,))
    l = ((out - yi) ** 2).mean()
    return l, out
gs, outs = vmap(grad(loss_fn, has_aux=True), in_dims=(None, 0, 0))(params, x, y)
print({k: v.shape for k, v in gs.items()})
print(outs.shape, outs.requires_grad, outs.grad_fn is None)
print(gs['bias'].flatten())
E(lambda: grad(loss_fn)(params, x[0], y[0]))
'''

PROGRAMS['func_model_ensembling_stack_module_state'] = PRE + r'''
torch.manual_seed(0)
class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 5)
        self.fc2 = nn.Linear(5, 3)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
num_models = 3
models = [SimpleMLP() for _ in range(num_models)]
minibatches = torch.randn(num_models, 4, 6)
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = minibatches[0]
predictions2 = [model(minibatch) for model in models]
params, buffers = stack_module_state(models)
print(sorted(params), {k: v.shape for k, v in params.items()}, buffers)
print(params['fc1.weight'].requires_grad, params['fc1.weight'].is_leaf, params['fc1.weight'].grad_fn)
import copy
base_model = copy.deepcopy(models[0]).to('meta')
print(base_model.fc1.weight.device, base_model.fc1.weight.shape)
def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape, predictions1_vmap.requires_grad)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-6, rtol=1e-6))
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-6, rtol=1e-6))
'''

PROGRAMS['func_stack_module_state_errors'] = PRE + r'''
torch.manual_seed(0)
E(lambda: stack_module_state([]))
a, b = nn.Linear(2, 2), nn.Linear(2, 3)
E(lambda: stack_module_state([a, b]))
c = nn.Linear(2, 2); c.train(False)
E(lambda: stack_module_state([a, c]))
bn1, bn2 = nn.BatchNorm1d(2), nn.BatchNorm1d(2)
p, bufs = stack_module_state([bn1, bn2])
print(sorted(p), sorted(bufs), bufs['num_batches_tracked'], bufs['running_mean'].shape)
'''

PROGRAMS['func_jacobians_jacrev_jacfwd_tutorial'] = PRE + r'''
torch.manual_seed(0)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)
jacobian = compute_jac(xp)
print(jacobian.shape, jacobian[0])
jac_rev = jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jac_rev, jacobian))
jac_fwd = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jac_fwd, jac_rev, atol=1e-6))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias)
'''

PROGRAMS['func_batch_jacobian_vmap_and_sum_trick'] = PRE + r'''
torch.manual_seed(0)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
batch_size, Din, Dout = 3, 5, 4
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(batch_size, Din)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
print(batch_jacobian0.shape)
def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)
batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(batch_jacobian1.shape, torch.allclose(batch_jacobian0, batch_jacobian1))
print(batch_jacobian0[1, 2])
'''

PROGRAMS['func_hessian_and_hessian_of_jacfwd_jacrev'] = PRE + r'''
torch.manual_seed(0)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
Din, Dout = 3, 2
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd, atol=1e-6), torch.allclose(hess_api, hess_revrev, atol=1e-6))
print(hess_api[0])
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
print(compute_batch_hessian(weight, bias, torch.randn(4, Din)).shape)
'''

PROGRAMS['func_hvp_via_jvp_of_grad'] = PRE + r'''
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
def f(x):
    return x.sin().sum()
x = torch.tensor([0.1, 0.2, 0.3, 0.4])
tangent = torch.tensor([1., 0., 2., -1.])
r = hvp(f, (x,), (tangent,))
print(r, r.dtype, -x.sin() * tangent)
def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)
print(hvp_revrev(f, (x,), (tangent,)))
E(lambda: jvp(f, x, tangent))
E(lambda: jvp(f, (x,), (tangent[:2],)))
E(lambda: jvp(f, (x,), (tangent.double(),)))
'''

PROGRAMS['func_ntk_empirical_jacobian_contraction'] = PRE + r'''
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 2)
    def forward(self, x):
        return self.fc2(self.fc1(x).tanh())
net = Net()
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
x_train = torch.randn(5, 3)
x_test = torch.randn(2, 3)
def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    result = torch.stack([torch.einsum('Naf,Mbf->NMab', j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result
result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape, result.dtype)
print(result[0, 0])
def empirical_ntk_trace(fnet_single, params, x1, x2):
    jac1 = [j.flatten(2) for j in vmap(jacrev(fnet_single), (None, 0))(params, x1).values()]
    jac2 = [j.flatten(2) for j in vmap(jacrev(fnet_single), (None, 0))(params, x2).values()]
    return torch.stack([torch.einsum('Naf,Maf->NM', j1, j2) for j1, j2 in zip(jac1, jac2)]).sum(0)
r2 = empirical_ntk_trace(fnet_single, params, x_train, x_test)
print(r2.shape, torch.allclose(r2, result.diagonal(dim1=-2, dim2=-1).sum(-1), atol=1e-5))
'''

PROGRAMS['func_ntk_implicit_vjp_jvp'] = PRE + r'''
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def empirical_ntk_ntk_vps(func, params, x1, x2):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)
        def func_x2(params):
            return func(params, x2)
        output, vjp_fn = vjp(func_x1, params)
        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps
        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)
    return vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
x1 = torch.randn(3, 3); x2 = torch.randn(2, 3)
r = empirical_ntk_ntk_vps(fnet_single, params, x1, x2)
print(r.shape)
print(r[1, 1])
'''

PROGRAMS['func_grad_argnums_and_errors'] = PRE + r'''
def f(x, y):
    return (x * y).sum()
x = torch.tensor([1., 2.]); y = torch.tensor([3., 4.])
print(grad(f)(x, y), grad(f, argnums=1)(x, y), grad(f, argnums=(0, 1))(x, y))
E(lambda: grad(f, argnums=2)(x, y))
E(lambda: grad(f, argnums=-3)(x, y))
E(lambda: grad(f, argnums=(0, 0))(x, y))
E(lambda: grad(f, argnums=1.0)(x, y))
E(lambda: grad(lambda x: x * 2)(x))
E(lambda: grad(lambda x: 3.0)(x))
E(lambda: grad(f)(torch.tensor([1, 2]), y))
E(lambda: grad(f)())
'''

PROGRAMS['func_vmap_in_dims_out_dims_errors'] = PRE + r'''
x = torch.arange(6.).reshape(2, 3)
print(vmap(torch.sum)(x), vmap(torch.sum, in_dims=1)(x))
print(vmap(lambda a: a * 2, out_dims=1)(x))
E(lambda: vmap(torch.sum, in_dims=2)(x))
E(lambda: vmap(torch.add)(x, torch.ones(3, 3)))
E(lambda: vmap(torch.add, in_dims=(0,))(x, x))
E(lambda: vmap(lambda a: 1.0)(x))
E(lambda: vmap(torch.sum, in_dims=None)(x))
E(lambda: vmap(lambda a: (a, a), out_dims=(0, 1, 2))(x))
print(vmap(lambda a, b: a + b, in_dims=(0, None))(x, torch.tensor(1.)))
'''

PROGRAMS['func_vmap_randomness_modes'] = PRE + r'''
torch.manual_seed(0)
x = torch.ones(3, 2)
E(lambda: vmap(lambda a: a + torch.rand(2))(x))
torch.manual_seed(0)
r = vmap(lambda a: a + torch.rand(2), randomness='same')(x)
print(r, (r[0] == r[1]).all())
torch.manual_seed(0)
r = vmap(lambda a: a * F.dropout(a, 0.5), randomness='different')(x)
print(r.shape)
E(lambda: vmap(lambda a: a, randomness='bad')(x))
'''

PROGRAMS['func_functional_call_tie_and_strict'] = PRE + r'''
torch.manual_seed(0)
m = nn.Linear(2, 2)
x = torch.ones(1, 2)
new = {'weight': torch.eye(2), 'bias': torch.zeros(2)}
print(functional_call(m, new, (x,)))
print(functional_call(m, {'weight': torch.eye(2)}, x))
E(lambda: functional_call(m, {'weight': torch.eye(2)}, (x,), strict=True))
E(lambda: functional_call(m, {'weight': torch.eye(2), 'foo': torch.ones(1)}, (x,), strict=True))
print(functional_call(m, ({'weight': torch.eye(2)}, {'bias': torch.ones(2)}), (x,)))
E(lambda: functional_call(m, ({'weight': torch.eye(2)}, {'weight': torch.ones(2, 2)}), (x,)))
print(m.weight.shape, torch.equal(m.weight, torch.eye(2)))
print(functional_call(m, new, args=(), kwargs={'input': x}))
'''

PROGRAMS['func_jacrev_has_aux_chunk_size'] = PRE + r'''
def f(x):
    y = x.sin()
    return y, {'cos': x.cos()}
x = torch.tensor([0.5, 1.0, 1.5])
j, aux = jacrev(f, has_aux=True)(x)
print(j, aux)
print(jacrev(lambda x: x.exp(), chunk_size=1)(x))
E(lambda: jacrev(lambda x: x.exp(), chunk_size=0)(x))
j2, aux2 = jacfwd(f, has_aux=True)(x)
print(torch.allclose(j, j2), aux2['cos'])
E(lambda: jacrev(f)(x))
E(lambda: jacfwd(lambda x: x, randomness='bad')(x))
print(jacfwd(lambda x: x * torch.rand(3), randomness='same')(x).shape)
'''

PROGRAMS['func_grad_and_value_training_loop'] = PRE + r'''
from torch.func import grad_and_value
torch.manual_seed(0)
model = nn.Linear(2, 1)
params = {k: v.detach().clone() for k, v in model.named_parameters()}
x = torch.randn(8, 2); y = x @ torch.tensor([[2.], [-1.]]) + 0.5
def loss(p):
    return F.mse_loss(functional_call(model, p, (x,)), y)
for step in range(4):
    g, l = grad_and_value(loss)(params)
    params = {k: v - 0.1 * g[k] for k, v in params.items()}
    print(step, round(l.item(), 5), l.grad_fn)
print(params)
'''

PROGRAMS['func_vjp_multiple_outputs_and_has_aux'] = PRE + r'''
x = torch.tensor([1., 2.]); y = torch.tensor([3., 4.])
out, fn = vjp(lambda a, b: (a * b, a + b), x, y)
print(out)
print(fn((torch.ones(2), torch.ones(2))))
E(lambda: fn(torch.ones(2)))
E(lambda: fn((torch.ones(3), torch.ones(2))))
out, fn, aux = vjp(lambda a: (a.exp(), a.log()), x, has_aux=True)
print(out, aux, fn(torch.ones(2)))
E(lambda: vjp(lambda a: [a], x, has_aux=True))
'''

PROGRAMS['func_jvp_linearize'] = PRE + r'''
from torch.func import linearize
x = torch.tensor([0.1, 0.2, 0.3])
with warnings.catch_warnings():
    warnings.simplefilter('ignore')  # (PyTorch's make_fx warns about its own graph)
    out, jvp_fn = linearize(torch.sin, x)
print(out, jvp_fn(torch.ones(3)), jvp_fn(torch.tensor([1., 2., 3.])))
print(jvp(torch.sin, (x,), (torch.ones(3),)))
p, t = jvp(lambda a, b: a * b, (x, x), (torch.ones(3), torch.zeros(3)))
print(p, t)
p, t, aux = jvp(lambda a: (a.exp(), a.sum()), (x,), (torch.ones(3),), has_aux=True)
print(p, t, aux)
'''

PROGRAMS['func_functionalize_and_vmap_inplace_error'] = PRE + r'''
from torch.func import functionalize
def f(a):
    b = a.clone()
    b.add_(1)
    return b
print(functionalize(f)(torch.zeros(2)))
x = torch.zeros(3)
def g(a, b):
    a.add_(b)
    return a
E(lambda: vmap(g, in_dims=(None, 0))(x, torch.ones(2, 3)))
print(vmap(g, in_dims=(0, None))(torch.zeros(2, 3), torch.ones(3)))
'''

PROGRAMS['func_grad_with_torch_no_grad_inside'] = PRE + r'''
def f(x):
    with torch.no_grad():
        c = x ** 2
    return x.sin() + c
x = torch.tensor(0.5)
print(grad(f)(x), x.cos())
def g(x):
    with torch.enable_grad():
        return x.exp()
with torch.no_grad():
    print(grad(g)(x))
    print(grad(lambda x: x.exp())(x))
'''

PROGRAMS['func_vmap_over_module_call_and_chunk'] = PRE + r'''
torch.manual_seed(0)
m = nn.Linear(3, 2)
x = torch.randn(4, 5, 3)
r = vmap(m)(x)
print(r.shape, r.requires_grad)
r = vmap(m, chunk_size=2)(x)
print(r.shape)
print(torch.allclose(r, m(x)))
E(lambda: vmap(m, chunk_size=0)(x))
print(vmap(vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))
'''

# ---- "Extending PyTorch": custom Functions, setup_context, once_differentiable, double backward, jvp, vmap rules

PROGRAMS['ext_linear_function_setup_context'] = PRE + r'''
class LinearFunction(Function):
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
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        print('needs', ctx.needs_input_grad)
        return grad_input, grad_weight, grad_bias
linear = LinearFunction.apply
torch.manual_seed(0)
inp = (torch.randn(4, 3, dtype=torch.double, requires_grad=True),
       torch.randn(2, 3, dtype=torch.double, requires_grad=True),
       torch.randn(2, dtype=torch.double, requires_grad=False))
print(gradcheck(linear, inp, eps=1e-6, atol=1e-4))
out = linear(*inp)
print(out.grad_fn, out.grad_fn.name(), out.shape, out.dtype)
out.sum().backward()
print(inp[0].grad.sum(), inp[1].grad, inp[2].grad)
out2 = linear(inp[0], inp[1], None)
print(out2.grad_fn.next_functions)
'''

PROGRAMS['ext_mul_constant_non_tensor_arg'] = PRE + r'''
class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
x = torch.tensor([1., 2.], requires_grad=True)
y = MulConstant.apply(x, 3.5)
print(y, y.grad_fn.next_functions)
y.backward(torch.ones(2))
print(x.grad)
class Bad(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Bad.apply(x, 2.0).sum().backward())
'''

PROGRAMS['ext_mymul_save_intermediate_via_output'] = PRE + r'''
class MyCube(Function):
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
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result
x = torch.tensor([1., 2., 3.], dtype=torch.double, requires_grad=True)
print(gradcheck(my_cube, (x,)), gradgradcheck(my_cube, (x,)))
r, dx = MyCube.apply(x)
print(r.grad_fn is dx.grad_fn, r.grad_fn.name(), dx)
g, = torch.autograd.grad(r.sum(), x, create_graph=True)
print(g, g.grad_fn)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
'''

PROGRAMS['ext_once_differentiable_double_backward_error'] = PRE + r'''
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        y, = ctx.saved_tensors
        print('in backward', g.requires_grad, y.requires_grad, torch.is_grad_enabled())
        return g * y
x = torch.tensor([0., 1.], requires_grad=True)
y = Exp.apply(x)
gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn)
E(lambda: gx.sum().backward())
E(lambda: torch.autograd.grad(gx.sum(), x))
y2 = Exp.apply(x)
gx2, = torch.autograd.grad(y2.sum(), x)
print(gx2, gx2.requires_grad)
'''

PROGRAMS['ext_mark_non_differentiable_sort'] = PRE + r'''
class Sort(Function):
    @staticmethod
    def forward(ctx, x):
        sorted_, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted_, idx
    @staticmethod
    def backward(ctx, g1, g2):
        x, idx = ctx.saved_tensors
        print('g2', g2)
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input
x = torch.tensor([3., 1., 2.], requires_grad=True)
a, b = Sort.apply(x)
print(a, b, a.requires_grad, b.requires_grad, b.grad_fn, b.dtype)
(a * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
class Bad(Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.mark_non_differentiable(y)
        return y
    @staticmethod
    def backward(ctx, g):
        return g
z = Bad.apply(x)
print(z.requires_grad, z.grad_fn)
E(lambda: z.sum().backward())
'''

PROGRAMS['ext_set_materialize_grads_false'] = PRE + r'''
class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()
    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        print('grads', g1, g2)
        grad_input = torch.zeros_like(x)
        if g1 is not None:
            grad_input += g1
        if g2 is not None:
            grad_input += g2 * 2
        return grad_input
x = torch.tensor([1., 2.], requires_grad=True)
a, b = SimpleFunc.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = SimpleFunc.apply(x)
(b * 3).sum().backward()
print(x.grad)
class Mat(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('materialized', g1, g2)
        return g1 + g2
x.grad = None
a, b = Mat.apply(x)
a.sum().backward()
print(x.grad)
'''

PROGRAMS['ext_set_materialize_grads_returns_none'] = PRE + r'''
class F2(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1 is None, g2 is None)
        return None
x = torch.tensor([1., 2.], requires_grad=True)
a, b = F2.apply(x)
(a.sum() + b.sum()).backward()
print(x.grad)
a, b = F2.apply(x)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['ext_double_backward_my_pow'] = PRE + r'''
class MyPow(Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * ctx.n * x ** (ctx.n - 1), None
x = torch.tensor([1.5, 2.0], dtype=torch.double, requires_grad=True)
f = lambda x: MyPow.apply(x, 3)
print(gradcheck(f, x), gradgradcheck(f, x))
y = f(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn.name(), [n.name() if n else None for n, _ in g.grad_fn.next_functions])
h, = torch.autograd.grad(g.sum(), x)
print(h)
'''

PROGRAMS['ext_double_backward_square_saved_input'] = PRE + r'''
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
torch.manual_seed(0)
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))
out = Square.apply(x)
grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(grad_x.grad_fn.name(), grad_x.grad_fn.next_functions)
'''

PROGRAMS['ext_double_backward_save_output_exp'] = PRE + r'''
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out
x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(x.is_leaf, x.grad_fn)
print(torch.autograd.gradcheck(Exp.apply, x))
print(torch.autograd.gradgradcheck(Exp.apply, x))
out = Exp.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(grad_x, grad_x.grad_fn.name())
'''

PROGRAMS['ext_double_backward_intermediate_sinh'] = PRE + r'''
class Sinh(Function):
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
torch.manual_seed(3)
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x))
print(torch.autograd.gradgradcheck(sinh, x))
outs = Sinh.apply(x)
print([o.grad_fn.name() for o in outs], outs[1].requires_grad)
class SinhBad(Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2
    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input
print(torch.autograd.gradcheck(SinhBad.apply, x))
E(lambda: torch.autograd.gradgradcheck(SinhBad.apply, x))
'''

PROGRAMS['ext_double_backward_non_tracked_cube'] = PRE + r'''
import numpy as np
def cube_forward(x):
    return x**3
def cube_backward(grad_out, x):
    return grad_out * 3 * x**2
def cube_backward_backward(grad_out, sav_grad_out, x):
    return grad_out * sav_grad_out * 6 * x
def cube_backward_backward_grad_out(grad_out, x):
    return grad_out * 3 * x**2
class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return cube_forward(x)
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)
class CubeBackward(Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return cube_backward(grad_out, x)
    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dx = cube_backward_backward(grad_out, sav_grad_out, x)
        dgrad_out = cube_backward_backward_grad_out(grad_out, x)
        return dgrad_out, dx
torch.manual_seed(0)
x = torch.tensor(2., requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Cube.apply, x))
print(torch.autograd.gradgradcheck(Cube.apply, x))
out = Cube.apply(x)
g, = torch.autograd.grad(out, x, create_graph=True)
print(g, g.grad_fn.name())
h, = torch.autograd.grad(g, x)
print(h)
'''

PROGRAMS['ext_forward_mode_jvp_staticmethod'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class MySquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
x = torch.tensor([1., 2., 3.], dtype=torch.double)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(3, dtype=torch.double))
    y = MySquare.apply(d)
    p, t = fwAD.unpack_dual(y)
    print(p, t)
print(gradcheck(MySquare.apply, x.clone().requires_grad_(), check_forward_ad=True))
class NoJvp(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(3, dtype=torch.double))
    E(lambda: NoJvp.apply(d))
'''

PROGRAMS['ext_jvp_setup_context_forward_ad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Mul(Function):
    @staticmethod
    def forward(x, y):
        return x * y
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_forward(x, y)
        ctx.save_for_backward(x, y)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.saved_tensors
        return tx * y + x * ty
x = torch.tensor([1., 2.], dtype=torch.double); y = torch.tensor([3., 4.], dtype=torch.double)
with fwAD.dual_level():
    out = Mul.apply(fwAD.make_dual(x, torch.ones(2, dtype=torch.double)), y)
    print(fwAD.unpack_dual(out))
    out = Mul.apply(fwAD.make_dual(x, torch.ones(2, dtype=torch.double)), fwAD.make_dual(y, torch.ones(2, dtype=torch.double)))
    print(fwAD.unpack_dual(out).tangent)
print(gradcheck(Mul.apply, (x.requires_grad_(), y.requires_grad_()), check_forward_ad=True, check_backward_ad=True))
'''

PROGRAMS['ext_vmap_staticmethod_numpy_sort'] = PRE + r'''
import numpy as np
def to_numpy(tensor):
    return tensor.cpu().numpy()
class NumpySort(Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (torch.tensor(result, device=device), torch.tensor(ind, device=device),
                torch.tensor(ind_inv, device=device))
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None
    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        result = NumpySort.apply(x, dim + 1)
        return NumpySort.apply(x, dim + 1), (0, 0, 0)
class NumpyTake(Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = to_numpy(x)
        ind = to_numpy(ind)
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None
    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim
        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)
        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0
def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
result = torch.vmap(numpy_sort)(x.detach())
print(result, torch.allclose(result, numpy_sort(x, 1)))
g = torch.func.grad(lambda t: numpy_sort(t).mul(torch.tensor([1., 2., 3.])).sum())(x[0].detach())
print(g)
s = numpy_sort(x)
s.backward(torch.tensor([[1., 2., 3.], [4., 5., 6.]]))
print(x.grad)
'''

PROGRAMS['ext_generate_vmap_rule_numpy_free'] = PRE + r'''
class MyCube(Function):
    generate_vmap_rule = True
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
        return grad_output * dx + grad_dx * 6 * x
def my_cube(x):
    result, _ = MyCube.apply(x)
    return result
x = torch.tensor([[1., 2.], [3., 4.]])
print(torch.vmap(my_cube)(x))
print(torch.func.grad(lambda t: my_cube(t).sum())(x))
print(torch.vmap(torch.func.grad(lambda t: my_cube(t).sum()))(x))
print(torch.func.jacrev(my_cube)(x[0]))
E(lambda: torch.func.hessian(lambda t: my_cube(t).sum())(x[0]))
print(torch.func.jacrev(torch.func.jacrev(lambda t: my_cube(t).sum()))(x[0]))
'''

PROGRAMS['ext_vmap_without_rule_errors'] = PRE + r'''
class Old(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
class New(Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.ones(2, 3)
E(lambda: torch.vmap(Old.apply)(x))
E(lambda: torch.vmap(New.apply)(x))
E(lambda: torch.func.grad(lambda t: Old.apply(t).sum())(x))
print(torch.func.grad(lambda t: New.apply(t).sum())(x))
class Both(Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def vmap(info, in_dims, x):
        return x * 2, 0
E(lambda: torch.vmap(Both.apply)(x))
'''

PROGRAMS['ext_function_ctx_attributes_and_misuse'] = PRE + r'''
class F1(Function):
    @staticmethod
    def forward(ctx, x, y):
        print(type(ctx).__name__, isinstance(ctx, FunctionCtx), ctx.needs_input_grad)
        ctx.save_for_backward(x, None, y)
        return x + y
    @staticmethod
    def backward(ctx, g):
        a, b, c = ctx.saved_tensors
        print(a, b, c)
        return g, g
x = torch.tensor([1.], requires_grad=True); y = torch.tensor([2.])
out = F1.apply(x, y)
out.backward()
print(x.grad, y.grad)
E(lambda: F1.apply(x, 3))
class F2(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x * 2)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g
print(F2.apply(x))
class F3(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(5)
        return x.clone()
E(lambda: F3.apply(x))
E(lambda: F1())
E(lambda: F1.forward(None, x, y))
E(lambda: Function.apply(x))
'''

PROGRAMS['ext_backward_returns_wrong_count_shape_dtype'] = PRE + r'''
def mk(ret):
    class Fn(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y
        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return Fn
x = torch.ones(2, requires_grad=True); y = torch.ones(2, requires_grad=True)
for name, ret in [('one', lambda g: g), ('three', lambda g: (g, g, g)), ('shape', lambda g: (g, torch.ones(3))),
                  ('dtype', lambda g: (g, g.double())), ('nontensor', lambda g: (g, 1.0)),
                  ('extra_none', lambda g: (g, g, None)), ('bcast', lambda g: (g, torch.ones(1)))]:
    print(name)
    E(lambda: mk(ret).apply(x, y).sum().backward())
print(x.grad, y.grad)
'''

PROGRAMS['ext_forward_returns_input_and_view'] = PRE + r'''
class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = Identity.apply(x)
print(y is x, y.grad_fn.name(), y._base is None)
y.sum().backward()
print(x.grad)
class View(Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(2)
    @staticmethod
    def backward(ctx, g):
        return g * 3
a = torch.tensor([1., 2.], requires_grad=True).clone()
v = View.apply(a)
print(v._base is a, v.grad_fn.name(), v._is_view())
E(lambda: v.mul_(2))
class MarkDirty(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
b = torch.tensor([1., 2.], requires_grad=True)
E(lambda: MarkDirty.apply(b))
c = b.clone()
d = MarkDirty.apply(c)
print(d is c, d, d.grad_fn.name(), c._version)
d.sum().backward()
print(b.grad)
'''

PROGRAMS['ext_function_in_module_and_no_grad'] = PRE + r'''
import torch.nn as nn
class ReLUFn(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (x > 0).to(g.dtype)
class MyReLU(nn.Module):
    def forward(self, x):
        return ReLUFn.apply(x)
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), MyReLU(), nn.Linear(4, 1))
x = torch.randn(5, 3)
out = net(x)
print(out.grad_fn.name(), out.grad_fn.next_functions[1][0].next_functions)
out.sum().backward()
print(net[0].weight.grad)
with torch.no_grad():
    o = ReLUFn.apply(torch.randn(2, requires_grad=True))
print(o.requires_grad, o.grad_fn)
with torch.inference_mode():
    o = ReLUFn.apply(torch.randn(2))
print(o.is_inference(), o.requires_grad)
print(net)
'''

# ---- gradcheck usage and failures; "Autograd mechanics": in-place checks, saved tensors, threads, hooks

PROGRAMS['gc_failure_message_wrong_backward'] = PRE + r'''
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(Wrong.apply, x))
print(gradcheck(Wrong.apply, x, raise_exception=False))
E(lambda: gradcheck(Wrong.apply, x, fast_mode=True))
print(issubclass(GradcheckError, RuntimeError))
'''

# fixed: integer output: no numerical Jacobian, so no "expected to be zero" error
PROGRAMS['gc_float32_warning_and_no_requires_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: gradcheck(torch.sin, x))
y = torch.tensor([1., 2.], dtype=torch.double)
E(lambda: gradcheck(torch.sin, y))
E(lambda: gradcheck(torch.sin, (y,)))
print(gradcheck(torch.sin, (y.requires_grad_(),)))
E(lambda: gradcheck(lambda a: a.detach(), (y,)))
E(lambda: gradcheck(lambda a: (a * 2).int(), (y,)))
'''

PROGRAMS['gc_nondet_tol_and_atol_rtol'] = PRE + r'''
x = torch.tensor([0.3, 0.7], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.exp, x, eps=1e-3, atol=1e-2, rtol=1e-2))
E(lambda: gradcheck(torch.exp, x, eps=1e-1, atol=1e-8, rtol=1e-8))
print(gradcheck(torch.exp, x, nondet_tol=1e-10))
print(gradgradcheck(torch.exp, x))
E(lambda: gradgradcheck(torch.exp, x, eps=1e-1, atol=1e-9, rtol=1e-9))
'''

PROGRAMS['gc_complex_function'] = PRE + r'''
torch.manual_seed(0)
z = torch.randn(3, dtype=torch.cdouble, requires_grad=True)
print(gradcheck(lambda z: z * z.conj(), z))
print(gradcheck(lambda z: (z.abs() ** 2).sum(), z))
print(gradcheck(torch.sin, z), gradgradcheck(torch.sin, z))
class BadC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z * z
    @staticmethod
    def backward(ctx, g):
        return g * 2  # wrong
E(lambda: gradcheck(BadC.apply, z))
'''

PROGRAMS['gc_outputs_multiple_and_non_differentiable'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
y = torch.tensor([3., 4.], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda a, b: (a * b, a + b), (x, y)))
print(gradcheck(lambda a, b: (a * b, a.argmax()), (x, y)))
print(gradcheck(lambda a, b: a * b, (x, 2.0)))
print(gradcheck(lambda a, b: a * b, (x, y.detach())))
print(gradcheck(torch.sort, (x,)))
'''

PROGRAMS['gc_check_undefined_grad_and_batched'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, x, check_undefined_grad=True, check_batched_grad=True))
print(gradgradcheck(torch.sin, x, check_batched_grad=True))
class NoUndef(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g.clone() * 2
print(gradcheck(NoUndef.apply, x, check_undefined_grad=True))
'''

PROGRAMS['gc_gradgradcheck_with_grad_outputs'] = PRE + r'''
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
go = torch.tensor([1., -2.], dtype=torch.double, requires_grad=True)
print(gradgradcheck(lambda a: a ** 3, (x,), (go,)))
print(gradgradcheck(lambda a: a ** 3, (x,), gen_non_contig_grad_outputs=True))
E(lambda: gradgradcheck(lambda a: a ** 3, (x,), (go.detach().float(),)))
'''

PROGRAMS['gc_inplace_on_input_and_view'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
def f(a):
    b = a.clone()
    b.mul_(3)
    return b.view(2, 1)
print(gradcheck(f, x))
E(lambda: gradcheck(lambda a: a.mul_(2), x))
print(gradcheck(lambda a: a.t(), torch.ones(2, 3, dtype=torch.double, requires_grad=True)))
print(gradcheck(lambda a: a.expand(3, 2), x))
'''

# ---- autograd mechanics: in-place correctness checks, saved tensors

PROGRAMS['mech_inplace_version_counter_error'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
c = b * 2
b.mul_(2)
print(b._version, b.grad_fn.name())
E(lambda: c.sum().backward())
a2 = torch.tensor([1., 2., 3.], requires_grad=True)
b2 = a2.exp()
c2 = b2.sum()
b2.add_(1)
E(lambda: c2.backward())
a3 = torch.tensor([1., 2.], requires_grad=True)
d = a3 * 1
e = d.sin()
d.zero_()
E(lambda: e.sum().backward())
f = a3.tanh()
g = f.sum()
f[0] = 5
E(lambda: g.backward())
print(f.grad_fn.name(), f._version)
'''

PROGRAMS['mech_inplace_on_leaf_and_view_of_leaf'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
E(lambda: a.add_(1))
E(lambda: a[0].fill_(3))
E(lambda: a.view(2).mul_(2))
with torch.no_grad():
    a.add_(1)
print(a, a.is_leaf, a.grad_fn, a._version)
b = a.detach()
b.add_(1)
print(a, a._version, b._version)
y = (a * a).sum()
a.data.mul_(2)
y.backward()
print(a.grad)
'''

PROGRAMS['mech_inplace_on_view_rebases_graph'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x.clone()
v = y[1:3]
v.mul_(10)
print(y, y.grad_fn.name(), v.grad_fn.name(), v._base is y)
y.sum().backward()
print(x.grad)
x.grad = None
z = x.clone().view(2, 2)
row = z[0]
row.exp_()
print(z.grad_fn.name(), row.grad_fn.name())
z.sum().backward()
print(x.grad)
w = x.clone()
u = w.unbind(0)
E(lambda: u[0].mul_(2))
s = w.split(2)
E(lambda: s[0].mul_(2))
'''

PROGRAMS['mech_saved_tensor_attributes_and_hooks'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = a.exp()
print(b.grad_fn._saved_result.equal(b), b.grad_fn._saved_result is b)
c = a.pow(2)
print(c.grad_fn._saved_self is a, c.grad_fn._saved_exponent)
def pack(t):
    print('pack', t.shape)
    return t.tolist()
def unpack(t):
    print('unpack', t)
    return torch.tensor(t)
d = a * 3
e = d.sin()
e.grad_fn._raw_saved_self.register_hooks(pack, unpack)
print(e.grad_fn._saved_self)
e.sum().backward()
print(a.grad)
E(lambda: e.grad_fn._raw_saved_self.register_hooks(pack, unpack))
'''

PROGRAMS['mech_saved_tensors_hooks_context_nested'] = PRE + r'''
def pack1(x):
    print('pack1', x.shape)
    return x
def unpack1(x):
    print('unpack1')
    return x
def pack2(x):
    print('pack2')
    return ('w', x)
def unpack2(x):
    print('unpack2', x[0])
    return x[1]
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack1, unpack1):
    y = a * a
    with torch.autograd.graph.saved_tensors_hooks(pack2, unpack2):
        z = y.exp()
y2 = z.sum()
y2.backward()
print(a.grad)
def bad_pack(x):
    x.mul_(2)
    return x
with torch.autograd.graph.saved_tensors_hooks(bad_pack, lambda x: x):
    E(lambda: (a * 1).sin())
'''

PROGRAMS['mech_save_on_cpu_and_disable'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    y = (a * a).exp().sum()
y.backward()
print(a.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    E(lambda: torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x).__enter__())
    z = (a * 2).sum()
print(z)
'''

PROGRAMS['mech_multithreaded_backward'] = PRE + r'''
import threading
x = torch.ones(5, 5, requires_grad=True)
results = {}
def train_fn(i):
    y = (x + 3) * (x + 4) * 0.5
    y.sum().backward()
lock = threading.Lock()
threads = []
for i in range(4):
    p = threading.Thread(target=train_fn, args=(i,))
    p.start()
    threads.append(p)
for p in threads:
    p.join()
print(x.grad)
x.grad = None
y = (x * x).sum()
def bw():
    try:
        y.backward()
        results['ok'] = results.get('ok', 0) + 1
    except RuntimeError as e:
        results['err'] = str(e)[:60]
t1 = threading.Thread(target=bw); t1.start(); t1.join()
t2 = threading.Thread(target=bw); t2.start(); t2.join()
print(sorted(results.items()), x.grad[0])
'''

PROGRAMS['mech_threads_grad_mode_is_thread_local'] = PRE + r'''
import threading
out = []
def worker():
    out.append(torch.is_grad_enabled())
    with torch.no_grad():
        out.append(torch.is_grad_enabled())
with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start(); t.join()
    out.append(torch.is_grad_enabled())
print(out)
torch.set_grad_enabled(False)
t = threading.Thread(target=worker); t.start(); t.join()
torch.set_grad_enabled(True)
print(out)
'''

PROGRAMS['mech_hooks_tensor_hook_order_and_modify'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
h1 = y.register_hook(lambda g: print('h1', g))
h2 = y.register_hook(lambda g: g * 10)
h3 = y.register_hook(lambda g: print('h3', g))
y.sum().backward()
print(x.grad)
h2.remove()
x.grad = None
y2 = x * 2
y2.register_hook(lambda g: g + 1)
y2.sum().backward()
print(x.grad)
acc = x.register_hook(lambda g: print('leaf', g))
post = x.register_post_accumulate_grad_hook(lambda p: print('post', p.grad))
(x * 3).sum().backward()
E(lambda: torch.tensor([1.]).register_hook(lambda g: g))
E(lambda: torch.tensor([1.]).register_post_accumulate_grad_hook(lambda p: None))
E(lambda: y.register_post_accumulate_grad_hook(lambda p: None))
'''

PROGRAMS['mech_hooks_retain_grad_interplay'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 100)
z = y.sum()
z.backward()
print(y.grad, x.grad)
x.grad = None
y = x * 2
y.register_hook(lambda g: g * 100)
y.retain_grad()
y.sum().backward()
print(y.grad, x.grad)
E(lambda: y.register_hook(5))
print(y.grad_fn._backward_hooks if hasattr(y.grad_fn, '_backward_hooks') else 'nohooks')
'''

PROGRAMS['mech_hooks_on_node_pre_and_post'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 2,)
def post(grad_inputs, grad_outputs):
    print('post', grad_inputs, grad_outputs)
y.grad_fn.register_prehook(pre)
y.grad_fn.register_hook(post)
y.sum().backward()
print(x.grad)
z = x.sin()
z.grad_fn.register_hook(lambda gi, go: (gi[0] * 0,))
z.sum().backward()
print(x.grad)
w = x.cos()
w.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: w.sum().backward())
'''

# ---- complex autograd (Wirtinger), module hooks, checkpoint, anomaly mode, autograd.functional, autograd tutorial

PROGRAMS['cplx_wirtinger_real_loss_grad_is_conj'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
loss = (z * z.conj()).real.sum()
loss.backward()
print(z.grad, z.grad.dtype)
z.grad = None
(z.abs() ** 2).sum().backward()
print(z.grad)
z.grad = None
z.abs().sum().backward()
print(z.grad)
z.grad = None
z.angle().sum().backward()
print(z.grad)
'''

PROGRAMS['cplx_backward_nonreal_output_errors'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
E(lambda: (z * 2).sum().backward())
y = (z * 2).sum()
y.backward(torch.tensor(1 + 0j))
print(z.grad)
E(lambda: torch.autograd.grad((z * z).sum(), z))
g, = torch.autograd.grad((z * z).sum(), z, grad_outputs=torch.tensor(1j))
print(g)
E(lambda: (z * z).sum().backward(torch.tensor(1.)))
'''

PROGRAMS['cplx_view_as_real_and_polar'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., -1.]], requires_grad=True)
z = torch.view_as_complex(x)
print(z, z.grad_fn.name())
w = z * (1 + 1j)
r = torch.view_as_real(w)
print(r.grad_fn.name(), r)
r.pow(2).sum().backward()
print(x.grad)
absv = torch.tensor([1., 2.], requires_grad=True)
ang = torch.tensor([0.5, -0.3], requires_grad=True)
p = torch.polar(absv, ang)
print(p, p.grad_fn.name())
p.real.sum().backward()
print(absv.grad, ang.grad)
c = torch.complex(absv, ang)
print(c.grad_fn.name(), c.dtype)
'''

PROGRAMS['cplx_linear_layer_complex_dtype'] = PRE + r'''
torch.manual_seed(0)
lin = nn.Linear(3, 2, dtype=torch.cfloat)
x = torch.randn(4, 3, dtype=torch.cfloat)
y = lin(x)
print(y.dtype, y.grad_fn.name(), lin.weight.dtype)
loss = y.abs().pow(2).mean()
loss.backward()
print(loss, lin.weight.grad.dtype, lin.bias.grad.shape)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
opt.step()
print(lin.bias)
'''

PROGRAMS['cplx_gradcheck_and_grad_conj_props'] = PRE + r'''
torch.manual_seed(0)
z = torch.randn(3, dtype=torch.cdouble, requires_grad=True)
def f(z):
    return (z.conj() * z.exp()).real
print(torch.autograd.gradcheck(f, z))
y = f(z).sum()
g, = torch.autograd.grad(y, z, create_graph=True)
print(g.dtype, g.grad_fn.name(), g.is_conj())
h, = torch.autograd.grad(g.real.sum(), z)
print(h.dtype)
print(torch.autograd.gradgradcheck(f, z))
'''

PROGRAMS['cplx_fft_backward'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
X = torch.fft.rfft(x)
print(X, X.grad_fn.name())
X.abs().sum().backward()
print(x.grad)
x.grad = None
y = torch.fft.irfft(torch.fft.rfft(x), n=4)
y.pow(2).sum().backward()
print(y.grad_fn.name(), x.grad)
z = torch.fft.fft(x.to(torch.cfloat))
print(z.grad_fn.name(), z.dtype)
'''

PROGRAMS['cplx_real_imag_views_inplace'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 2j], requires_grad=True)
w = z.clone()
w.real.mul_(3)
print(w, w.grad_fn.name())
w.abs().sum().backward()
print(z.grad)
E(lambda: torch.tensor([1., 2.]).imag)
print(torch.tensor([1., 2.]).real)
zz = torch.tensor([1 + 1j], requires_grad=True)
print(zz.real.grad_fn.name(), zz.imag.grad_fn.name(), zz.conj().grad_fn.name(), zz.conj().is_conj())
'''

# ---- module hooks semantics

PROGRAMS['hook_module_forward_pre_and_post'] = PRE + r'''
torch.manual_seed(0)
m = nn.Linear(2, 2)
def pre(mod, args):
    print('pre', type(mod).__name__, [a.shape for a in args])
    return (args[0] * 0,)
def post(mod, args, out):
    print('post', out.grad_fn.name())
    return out + 1
h1 = m.register_forward_pre_hook(pre)
h2 = m.register_forward_hook(post)
print(m(torch.ones(1, 2)))
h1.remove()
def pre_kw(mod, args, kwargs):
    print('pre_kw', kwargs)
    return args, kwargs
m.register_forward_pre_hook(pre_kw, with_kwargs=True)
m.register_forward_hook(lambda mod, a, k, o: print('post_kw', k), with_kwargs=True)
print(m(input=torch.ones(1, 2)))
print(len(m._forward_hooks), len(m._forward_pre_hooks))
'''

PROGRAMS['hook_full_backward_hook_grad_input_output'] = PRE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
def bh(mod, gin, gout):
    print(type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin], [tuple(g.shape) for g in gout])
m[0].register_full_backward_hook(bh)
m[1].register_full_backward_hook(bh)
m.register_full_backward_hook(bh)
x = torch.randn(4, 3)
m(x).sum().backward()
x.requires_grad_()
m(x).sum().backward()
def bpre(mod, gout):
    print('bpre', type(mod).__name__)
    return (gout[0] * 0,)
m[1].register_full_backward_pre_hook(bpre)
m.zero_grad()
m(x).sum().backward()
print(m[0].weight.grad.abs().sum())
'''

PROGRAMS['hook_backward_hook_inplace_error'] = PRE + r'''
m = nn.ReLU(inplace=True)
m.register_full_backward_hook(lambda mod, gi, go: None)
x = torch.randn(3, requires_grad=True)
E(lambda: m(x))
y = x * 1
E(lambda: m(y))
print(y.grad_fn.name(), y._version)
m2 = nn.Identity()
m2.register_full_backward_hook(lambda mod, gi, go: None)
a = torch.ones(2, requires_grad=True) * 1
b = m2(a)
E(lambda: b.add_(1))
'''

PROGRAMS['hook_state_dict_and_load_hooks'] = PRE + r'''
m = nn.Linear(2, 1)
def sd_hook(module, state_dict, prefix, local_metadata):
    print('sd hook', prefix, sorted(state_dict))
    state_dict[prefix + 'extra'] = torch.zeros(1)
m._register_state_dict_hook(sd_hook)
sd = m.state_dict()
print(sorted(sd))
def pre_load(module, state_dict, prefix, local_metadata, strict, missing, unexpected, error_msgs):
    print('pre load', sorted(state_dict))
    state_dict.pop(prefix + 'extra', None)
m._register_load_state_dict_pre_hook(pre_load, with_module=True)
print(m.load_state_dict(sd))
m.register_load_state_dict_post_hook(lambda mod, keys: print('post', keys.missing_keys, keys.unexpected_keys))
print(m.load_state_dict(sd))
'''

PROGRAMS['hook_register_module_forward_global'] = PRE + r'''
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
seen = []
h = register_module_forward_hook(lambda m, i, o: seen.append(type(m).__name__))
hp = register_module_forward_pre_hook(lambda m, i: seen.append('pre ' + type(m).__name__))
net = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
net(torch.ones(1, 2))
h.remove(); hp.remove()
net(torch.ones(1, 2))
print(seen)
'''

# ---- checkpoint, anomaly detection, profiler-free utilities

PROGRAMS['ckpt_checkpoint_sequential_and_use_reentrant'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(2, 3, requires_grad=True)
out = checkpoint_sequential(model, 2, x, use_reentrant=False)
out.sum().backward()
g1 = x.grad.clone()
x.grad = None
model.zero_grad()
model(x).sum().backward()
print(torch.allclose(g1, x.grad), out.grad_fn.name())
y = checkpoint(model, x, use_reentrant=True)
print(y.grad_fn.name())
E(lambda: checkpoint(model, x))
z = checkpoint(lambda a: a.sin() * 2, x, use_reentrant=False)
print(z.grad_fn.name())
'''

PROGRAMS['ckpt_reentrant_no_input_requires_grad_warning'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
lin = nn.Linear(2, 2)
x = torch.randn(1, 2)
y = checkpoint(lin, x, use_reentrant=True)
print(y.requires_grad)
y2 = checkpoint(lin, x, use_reentrant=False)
print(y2.requires_grad, y2.grad_fn.name())
y2.sum().backward()
print(lin.bias.grad)
E(lambda: torch.autograd.grad(checkpoint(lin, x.requires_grad_(), use_reentrant=True).sum(), x))
'''

PROGRAMS['anomaly_detect_nan_backward'] = PRE + r'''
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    z = (y * 0).sum()
    E(lambda: torch.autograd.grad(x.sqrt().div(x).sum(), x))
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    g, = torch.autograd.grad(x.sqrt().sum(), x)
    print(g)
'''

PROGRAMS['func_torch_autograd_functional_jacobian_hessian_vhp'] = PRE + r'''
import torch.autograd.functional as AF
def f(x):
    return x.pow(3).sum()
x = torch.tensor([1., 2.])
print(AF.jacobian(lambda a: a ** 2, x))
print(AF.hessian(f, x))
print(AF.vhp(f, x, torch.ones(2)))
print(AF.hvp(f, x, torch.ones(2)))
print(AF.vjp(lambda a: a * 2, x, torch.ones(2)))
print(AF.jvp(lambda a: a * 2, x, torch.ones(2)))
print(AF.jacobian(lambda a, b: a * b, (x, x), vectorize=True))
print(AF.jacobian(lambda a: a ** 2, x, strategy='forward-mode', vectorize=True))
E(lambda: AF.jacobian(lambda a: a ** 2, x, strategy='forward-mode'))
E(lambda: AF.hessian(f, x, outer_jacobian_strategy='bad'))
'''

PROGRAMS['func_autograd_functional_strict_errors'] = PRE + r'''
import torch.autograd.functional as AF
x = torch.tensor([1., 2.])
E(lambda: AF.jacobian(lambda a: torch.ones(2), x, strict=True))
print(AF.jacobian(lambda a: torch.ones(2), x))
E(lambda: AF.vjp(lambda a: a.detach(), x, torch.ones(2), strict=True))
E(lambda: AF.hessian(lambda a: (a * 2).sum(), x, strict=True))
print(AF.hessian(lambda a: (a * 2).sum(), x))
E(lambda: AF.jacobian(lambda a: torch.ones(2), x, strict=True, vectorize=True))
E(lambda: AF.jvp(lambda a: a, x, torch.ones(3)))
E(lambda: AF.vjp(lambda a: a.sum(), x, torch.ones(2)))
'''

PROGRAMS['tutorial_autograd_basics_custom_relu'] = PRE + r'''
import math
dtype = torch.float
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
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
'''

PROGRAMS['tutorial_autograd_tensor_vs_leaf_grad_warning'] = PRE + r'''
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
loss.backward()
print(w.grad.shape, b.grad.shape)
print(z.grad)
z_det = z.detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
'''

# ---- custom Function corner cases, forward AD, torch.func with modules

PROGRAMS['fn_apply_kwargs_and_nontensor_outputs'] = PRE + r'''
class F1(Function):
    @staticmethod
    def forward(ctx, x, scale=2.0):
        return x * scale, 'tag', 3
    @staticmethod
    def backward(ctx, g, g2, g3):
        print('g2 g3', g2, g3)
        return g * 2, None
x = torch.tensor([1., 2.], requires_grad=True)
out = F1.apply(x)
print(out[1:], out[0].grad_fn.name())
out[0].sum().backward()
print(x.grad)
E(lambda: F1.apply(x, scale=3.0))
E(lambda: F1.apply(x=x))
'''

PROGRAMS['fn_saved_tensors_after_backward_and_twice'] = PRE + r'''
class S(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = S.apply(x)
node = y.grad_fn
print(node.saved_tensors[0] is x, node.needs_input_grad, node.next_functions)
y.sum().backward()
E(lambda: node.saved_tensors)
E(lambda: y.sum().backward())
y2 = S.apply(x)
y2.sum().backward(retain_graph=True)
y2.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_double_backward_once_differentiable_create_graph'] = PRE + r'''
from torch.autograd.function import once_differentiable
class Sq(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([3.], requires_grad=True)
y = Sq.apply(x)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g, x))
with torch.no_grad():
    y = Sq.apply(x)
print(y.requires_grad)
'''

PROGRAMS['fn_needs_input_grad_mixed_inputs'] = PRE + r'''
class Mix(Function):
    @staticmethod
    def forward(ctx, a, n, b, flag):
        print('fwd needs', ctx.needs_input_grad)
        ctx.n = n
        return a * n + b
    @staticmethod
    def backward(ctx, g):
        print('bwd needs', ctx.needs_input_grad)
        return g * ctx.n if ctx.needs_input_grad[0] else None, None, g if ctx.needs_input_grad[2] else None, None
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.])
Mix.apply(a, 3, b, True).backward()
print(a.grad)
b.requires_grad_()
Mix.apply(a.detach(), 3, b, False).backward()
print(b.grad)
out = Mix.apply(a.detach(), 3, b.detach(), None)
print(out.requires_grad, out.grad_fn)
'''

PROGRAMS['fn_mark_dirty_view_and_leaf_errors'] = PRE + r'''
class Inc(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
base = torch.zeros(4, requires_grad=True)
v = base.clone()[1:3]
out = Inc.apply(v)
print(out is v, out.grad_fn.name(), v._base.grad_fn.name())
v._base.sum().backward()
print(base.grad)
class NotReturned(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NotReturned.apply(torch.zeros(2, requires_grad=True).clone()))
class Unmarked(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
c = torch.zeros(2, requires_grad=True).clone()
r = Unmarked.apply(c)
print(r is c, r.grad_fn.name(), c._version)
'''

PROGRAMS['fn_backward_returns_tensor_requiring_grad_warning'] = PRE + r'''
class Leak(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return x * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Leak.apply(x)
y.sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn.name())
x.grad = None
Leak.apply(x).sum().backward()
print(x.grad, x.grad.requires_grad)
'''

PROGRAMS['fn_vmap_info_batch_size_randomness'] = PRE + r'''
class Scale(Function):
    @staticmethod
    def forward(x, s):
        return x * s
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.s = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.s, None
    @staticmethod
    def vmap(info, in_dims, x, s):
        print('info', info.batch_size, info.randomness, in_dims)
        return Scale.apply(x.movedim(in_dims[0], 0), s), 0
x = torch.arange(6.).reshape(2, 3)
print(vmap(Scale.apply, in_dims=(1, None))(x, 2.0))
print(vmap(Scale.apply, in_dims=(0, None), randomness='same')(x, 3.0))
class BadRule(Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def vmap(info, in_dims, x):
        return x * 2
E(lambda: vmap(BadRule.apply)(x))
'''

PROGRAMS['fn_jvp_returns_wrong_and_forward_ad_errors'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class J(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        return t[:1]
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], dtype=torch.double)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2, dtype=torch.double))
    E(lambda: J.apply(d))
    E(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.double)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.int64)))
    print(fwAD.unpack_dual(x))
    dd = fwAD.make_dual(x, torch.ones(2, dtype=torch.double))
    y = dd.sin() * dd
    p, t = fwAD.unpack_dual(y)
    print(p, t, type(fwAD.unpack_dual(y)).__name__)
E(lambda: fwAD.make_dual(x, x))
'''

PROGRAMS['fwad_dual_level_nesting_and_exit'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.])
with fwAD.dual_level() as lvl:
    print(lvl)
    d = fwAD.make_dual(x, torch.ones(2))
    print(d, d.requires_grad, d.is_leaf, d.grad_fn)
print(fwAD.unpack_dual(d).tangent)
E(lambda: fwAD.make_dual(x, torch.ones(2)))
def nested():
    with fwAD.dual_level():
        with fwAD.dual_level():
            pass
E(nested)
'''

PROGRAMS['fwad_module_jvp_with_functional_call'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
model = nn.Linear(3, 2)
input = torch.randn(4, 3)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp_out = fwAD.unpack_dual(out).tangent
print(jvp_out)
p, t = jvp(lambda prm: functional_call(model, prm, (input,)), (params,), (tangents,))
print(torch.allclose(t, jvp_out))
'''

PROGRAMS['fwad_tutorial_custom_function_jvp_exp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Fn(Function):
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
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp_result = fwAD.unpack_dual(dual_output).tangent
print(jvp_result.dtype, torch.allclose(jvp_result, tangent.double() * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
'''

PROGRAMS['func_grad_of_module_params_dropout_eval'] = PRE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5), nn.Linear(3, 1))
m.eval()
params = dict(m.named_parameters())
x = torch.randn(2, 3)
g = grad(lambda p: functional_call(m, p, (x,)).sum())(params)
print(sorted(g), g['2.bias'])
m.train()
E(lambda: vmap(lambda xi: functional_call(m, params, (xi,)))(x))
out = vmap(lambda xi: functional_call(m, params, (xi,)), randomness='different')(x)
print(out.shape)
'''

PROGRAMS['func_vmap_batchnorm_errors_and_replace'] = PRE + r'''
from torch.func import replace_all_batch_norm_modules_
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
x = torch.randn(2, 5, 3)
E(lambda: vmap(net)(x))
replace_all_batch_norm_modules_(net)
print(net[1].running_mean, net[1].track_running_stats)
print(vmap(net)(x).shape)
'''

PROGRAMS['func_jacrev_dict_inputs_outputs'] = PRE + r'''
def f(d):
    return {'s': d['a'].sin() * d['b'], 'p': d['a'] * 2}
d = {'a': torch.tensor([0.1, 0.2]), 'b': torch.tensor([1., 3.])}
j = jacrev(f)(d)
print(sorted(j), sorted(j['s']), j['s']['a'], j['p']['b'])
jf = jacfwd(f)(d)
print(torch.allclose(jf['s']['a'], j['s']['a']))
E(lambda: jacrev(f)({'a': torch.tensor([1, 2]), 'b': torch.tensor([1., 3.])}))
E(lambda: jacrev(lambda x: 3)(torch.ones(2)))
E(lambda: jacrev(lambda x: x, argnums=())(torch.ones(2)))
'''

PROGRAMS['func_grad_nested_higher_order'] = PRE + r'''
x = torch.tensor(0.7)
f = lambda x: x.sin()
print(grad(f)(x), grad(grad(f))(x), grad(grad(grad(f)))(x))
print(vmap(grad(grad(f)))(torch.tensor([0.1, 0.2])))
print(jacrev(jacfwd(lambda x: x ** 3))(torch.tensor([1., 2.])))
print(hessian(lambda x: (x ** 3).sum())(torch.tensor([1., 2.])))
y = torch.tensor(2., requires_grad=True)
g = grad(lambda x: x * y)(x)
print(g, g.requires_grad, g.grad_fn is not None)
g.backward()
print(y.grad)
'''

PROGRAMS['func_per_sample_grads_opacus_style_clip'] = PRE + r'''
torch.manual_seed(0)
model = nn.Linear(4, 2)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(6, 4); y = torch.randint(0, 2, (6,))
def loss_fn(p, xi, yi):
    return F.cross_entropy(functional_call(model, p, (xi[None],)), yi[None])
per = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
norms = torch.stack([g.flatten(1).norm(dim=1) for g in per.values()]).norm(dim=0)
print(norms)
clip = (1.0 / (norms + 1e-6)).clamp(max=1.0)
summed = {k: torch.einsum('n,n...->...', clip, g) for k, g in per.items()}
print(summed['bias'], summed['weight'].shape)
'''

PROGRAMS['func_vmap_nested_in_dims_tuple_structs'] = PRE + r'''
def f(pair, scale):
    a, b = pair
    return {'sum': a + b, 'prod': a * b * scale}
a = torch.arange(6.).reshape(3, 2); b = torch.ones(2, 3)
r = vmap(f, in_dims=((0, 1), None))((a, b), torch.tensor(2.))
print(r)
E(lambda: vmap(f, in_dims=((0,), None))((a, b), torch.tensor(2.)))
r2 = vmap(f, in_dims=((0, 1), None), out_dims={'sum': 1, 'prod': 0})((a, b), torch.tensor(2.))
print(r2['sum'].shape, r2['prod'].shape)
'''

PROGRAMS['func_functional_call_buffers_and_tied'] = PRE + r'''
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(2, 2, bias=False)
        self.l2 = self.l1
        self.register_buffer('scale', torch.tensor(2.))
    def forward(self, x):
        return self.l2(self.l1(x)) * self.scale
m = M()
x = torch.ones(1, 2)
print(functional_call(m, {'l1.weight': torch.eye(2), 'scale': torch.tensor(3.)}, (x,)))
print(functional_call(m, {'l2.weight': torch.eye(2) * 2}, (x,), tie_weights=True))
E(lambda: functional_call(m, {'l1.weight': torch.eye(2), 'l2.weight': torch.eye(2) * 2}, (x,)))
print(functional_call(m, {'l1.weight': torch.eye(2), 'l2.weight': torch.eye(2) * 2}, (x,), tie_weights=False))
print(sorted(dict(m.named_parameters())), sorted(dict(m.named_parameters(remove_duplicate=False))))
'''

# ---- gradcheck failure messages, __torch_function__ extension, parametrizations, grad modes

PROGRAMS['gc_check_batched_grad_custom_function_fails'] = PRE + r'''
class NoVmap(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(NoVmap.apply, x))
E(lambda: gradcheck(NoVmap.apply, x, check_batched_grad=True))
'''

PROGRAMS['gc_check_undefined_grad_failure'] = PRE + r'''
class Strict(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(Strict.apply, x))
class Fragile(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(Fragile.apply, x))
'''

PROGRAMS['gc_not_reentrant_message'] = PRE + r'''
calls = [0]
class NonDet(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        calls[0] += 1
        return g * 2 + calls[0] * 1e-3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(NonDet.apply, x, atol=1e-1))
print(calls[0] > 0)
E(lambda: gradcheck(NonDet.apply, x, atol=1e-1, nondet_tol=1.0))
'''

PROGRAMS['gc_check_grad_dtypes_failure'] = PRE + r'''
class WrongDtype(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(WrongDtype.apply, x))
E(lambda: gradcheck(WrongDtype.apply, x, check_grad_dtypes=True))
'''

PROGRAMS['gc_fast_mode_mismatch_message_values'] = PRE + r'''
class Off(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        return g * 0.5
x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.double, requires_grad=True)
try:
    gradcheck(Off.apply, x, fast_mode=True)
except Exception as e:
    print(type(e).__name__)
    print(str(e))
'''

PROGRAMS['gc_mismatch_message_two_inputs_second_wrong'] = PRE + r'''
class Two(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * b
a = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
b = torch.tensor([3., 5.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(Two.apply, (a, b)))
E(lambda: gradcheck(Two.apply, (a, b.detach())))
print(gradcheck(Two.apply, (a.detach(), b), raise_exception=False))
'''

PROGRAMS['gc_forward_ad_mismatch_message'] = PRE + r'''
class BadJvp(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(BadJvp.apply, x))
E(lambda: gradcheck(BadJvp.apply, x, check_forward_ad=True))
E(lambda: gradcheck(BadJvp.apply, x, check_forward_ad=True, check_backward_ad=False))
'''

# ---- extending torch: __torch_function__ (docs "Extending torch.func / Extending torch Python API")

PROGRAMS['ext_scalar_tensor_torch_function'] = PRE + r'''
import functools
HANDLED_FUNCTIONS = {}
class ScalarTensor(object):
    def __init__(self, N, value):
        self._N = N
        self._value = value
    def __repr__(self):
        return "ScalarTensor(N={}, value={})".format(self._N, self._value)
    def tensor(self):
        return self._value * torch.eye(self._N)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(issubclass(t, (torch.Tensor, ScalarTensor)) for t in types):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)
def implements(torch_function):
    def decorator(func):
        functools.update_wrapper(func, torch_function)
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator
@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N
@implements(torch.add)
def add(input, other):
    try:
        if input._N == other._N:
            return ScalarTensor(input._N, input._value + other._value)
        else:
            raise ValueError("Shape mismatch!")
    except AttributeError:
        return torch.add(input.tensor(), other)
d = ScalarTensor(5, 2)
print(d)
print(d.tensor())
print(torch.mean(d))
s = ScalarTensor(2, 2)
print(torch.add(s, s))
t = torch.tensor([[1, 1,], [1, 1]])
print(torch.add(s, t))
print(mean.__name__, mean.__doc__ == torch.mean.__doc__)
E(lambda: torch.mul(s, 3))
'''

PROGRAMS['ext_tensor_subclass_logging_torch_function'] = PRE + r'''
class LoggingTensor(torch.Tensor):
    log = []
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        name = getattr(func, '__name__', str(func))
        cls.log.append(name)
        return super().__torch_function__(func, types, args, kwargs)
x = torch.tensor([1., 2., 3.]).as_subclass(LoggingTensor)
y = x * 2 + 1
print(type(y).__name__, y)
z = torch.sin(y).sum()
print(type(z).__name__, z)
print(LoggingTensor.log[:8])
w = torch.tensor([1., 2.]).as_subclass(LoggingTensor).requires_grad_()
out = (w * w).sum()
out.backward()
print(type(w.grad).__name__, w.grad)
'''

PROGRAMS['ext_subclass_disable_torch_function'] = PRE + r'''
class Meta(torch.Tensor):
    pass
a = torch.ones(2).as_subclass(Meta)
print(type(a + 1).__name__, type(a.sum()).__name__, type(a[0]).__name__)
with torch._C.DisableTorchFunctionSubclass():
    print(type(a + 1).__name__)
print(type(torch.Tensor.add(a, 1)).__name__)
print(type(a.detach()).__name__, type(a.clone()).__name__, type(a.data).__name__)
print(torch.overrides.is_tensor_like(a), torch.overrides.has_torch_function((a,)))
print(repr(a))
'''

PROGRAMS['ext_torch_function_mode'] = PRE + r'''
from torch.overrides import TorchFunctionMode
class Record(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.calls = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls.append(getattr(func, '__name__', str(func)))
        return func(*args, **(kwargs or {}))
with Record() as r:
    x = torch.ones(2)
    y = torch.add(x, 1).mul(3)
    z = F.relu(y)
print(r.calls)
print(z)
'''

# ---- nn tutorials: parametrizations, custom modules, grad accumulate

PROGRAMS['nn_parametrize_symmetric_tutorial'] = PRE + r'''
import torch.nn.utils.parametrize as parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
torch.manual_seed(0)
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.allclose(A, A.T))
print(layer)
print(layer.parametrizations.weight.original.shape)
x = torch.randn(2, 3)
layer(x).sum().backward()
print(layer.parametrizations.weight.original.grad)
print(parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, 'bias'))
with parametrize.cached():
    print(layer.weight is layer.weight)
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(layer, type(layer.weight).__name__)
'''

PROGRAMS['nn_parametrize_right_inverse_and_errors'] = PRE + r'''
import torch.nn.utils.parametrize as parametrize
class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.T
    def right_inverse(self, A):
        return A.triu(1)
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Skew())
X = torch.rand(3, 3)
X = X - X.T
layer.weight = X
print(torch.allclose(layer.weight, X))
class NoInv(nn.Module):
    def forward(self, X):
        return X * 2
l2 = nn.Linear(2, 2)
parametrize.register_parametrization(l2, "weight", NoInv())
def setw():
    l2.weight = torch.eye(2)
E(setw)
class WrongShape(nn.Module):
    def forward(self, X):
        return X[0]
E(lambda: parametrize.register_parametrization(nn.Linear(2, 2), "weight", WrongShape()))
E(lambda: parametrize.remove_parametrizations(nn.Linear(2, 2), "weight"))
'''

PROGRAMS['nn_custom_module_extending_linear_docs'] = PRE + r'''
class MyLinear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)
    def forward(self, input):
        return F.linear(input, self.weight, self.bias)
    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None)
torch.manual_seed(0)
m = MyLinear(3, 2)
print(m)
print(MyLinear(3, 2, bias=False))
x = torch.randn(4, 3)
out = m(x)
print(out.grad_fn, out.shape)
print([n for n, _ in m.named_parameters()])
print(m.bias)
'''

PROGRAMS['autograd_grad_accumulate_and_set_to_none'] = PRE + r'''
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 2)
for i in range(2):
    model(x).sum().backward()
print(model.bias.grad)
opt.zero_grad()
print(model.bias.grad)
model(x).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.bias.grad)
model.zero_grad()
print(model.weight.grad)
'''

PROGRAMS['autograd_locally_disabling_modes'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
@torch.no_grad()
def doubler(x):
    return x * 2
print(doubler(x).requires_grad, doubler.__name__)
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    print(tripler(x).requires_grad)
with torch.inference_mode():
    z = x * 2
print(z.requires_grad, z.is_inference())
E(lambda: z.requires_grad_())
E(lambda: (z * x).sum().backward())
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.inference_mode(mode=False):
    print((x * 2).requires_grad)
'''

PROGRAMS['autograd_eval_mode_vs_no_grad'] = PRE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5), nn.BatchNorm1d(3))
x = torch.randn(4, 3)
m.eval()
y = m(x)
print(y.requires_grad, y.grad_fn.name(), m.training, m[1].training)
with torch.no_grad():
    y2 = m(x)
print(y2.requires_grad, torch.equal(y, y2))
m.train()
print(m[2].training, m[2].num_batches_tracked)
m(x)
print(m[2].num_batches_tracked, m[2].running_mean)
'''

# ---- torch.func errors, autograd mechanics details, tutorial training loops

PROGRAMS['func_complex_inputs_grad_jac'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j])
E(lambda: grad(lambda z: (z * z).sum())(z))
print(grad(lambda z: (z * z.conj()).real.sum())(z))
print(grad(lambda z: z.abs().sum())(z))
E(lambda: jacrev(lambda z: z * 2)(z))
E(lambda: jacfwd(lambda z: z * 2)(z))
E(lambda: jacrev(lambda x: torch.polar(x, x))(torch.tensor([1., 2.])))
print(vjp(lambda z: z * z, z)[1](torch.ones(2, dtype=torch.cfloat)))
'''

PROGRAMS['func_grad_errors_nonscalar_and_requires_grad'] = PRE + r'''
x = torch.ones(3)
E(lambda: grad(lambda x: x)(x))
E(lambda: grad(lambda x: x.sum().unsqueeze(0))(x))
E(lambda: grad(lambda x: x.sum(), argnums=0)(x, 1))
E(lambda: grad(lambda x, y: x.sum(), argnums=1)(x, 1))
E(lambda: grad(lambda x: x.sum())(1.0))
E(lambda: grad(lambda x: x.sum())([x, x]))
print(grad(lambda xs: (xs[0] * xs[1]).sum())([x, x * 2]))
print(grad(lambda x: x.detach().sum() + x.sum())(x))
E(lambda: grad(lambda x: x.item())(x.sum()))
'''

PROGRAMS['func_vmap_item_and_data_dependent_errors'] = PRE + r'''
x = torch.tensor([1., -2., 3.])
E(lambda: vmap(lambda a: a.item())(x))
E(lambda: vmap(lambda a: float(a))(x))
E(lambda: vmap(lambda a: a if a > 0 else -a)(x))
print(vmap(lambda a: torch.where(a > 0, a, -a))(x))
E(lambda: vmap(lambda a: a.nonzero())(x.reshape(3, 1)))
E(lambda: vmap(lambda a: a[a > 0])(x.reshape(3, 1)))
print(vmap(lambda a: a.abs())(x))
'''

PROGRAMS['func_vmap_inplace_captured_errors'] = PRE + r'''
y = torch.zeros(3)
def f(a):
    y.add_(a)
    return y
E(lambda: vmap(f)(torch.ones(2, 3)))
print(y)
def g(a):
    a.mul_(2)
    return a
x = torch.ones(2, 3)
print(vmap(g)(x), x)
def h(a):
    b = torch.zeros(3)
    b.copy_(a)
    return b
E(lambda: vmap(h)(torch.ones(2, 3)))
def k(a):
    b = torch.zeros(3)
    b[0] = a[1]
    return b
E(lambda: vmap(k)(torch.ones(2, 3)))
'''

PROGRAMS['mech_set_multithreading_enabled'] = PRE + r'''
print(torch.autograd.is_multithreading_enabled())
with torch.autograd.set_multithreading_enabled(False):
    print(torch.autograd.is_multithreading_enabled())
    x = torch.ones(2, requires_grad=True)
    (x * 3).sum().backward()
    print(x.grad)
print(torch.autograd.is_multithreading_enabled())
'''

PROGRAMS['mech_threads_shared_graph_retain'] = PRE + r'''
import threading
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
errs = []
def go():
    try:
        y.backward(retain_graph=True)
    except Exception as e:
        errs.append(type(e).__name__)
ts = [threading.Thread(target=go) for _ in range(3)]
for t in ts: t.start()
for t in ts: t.join()
print(x.grad, errs)
'''

PROGRAMS['mech_grad_fn_attributes_saved_values'] = PRE + r'''
a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = a.sum(dim=1, keepdim=True)
print(b.grad_fn._saved_dim, b.grad_fn._saved_keepdim, b.grad_fn._saved_self_sym_sizes)
c = a.transpose(0, 1)
print(c.grad_fn._saved_dim0, c.grad_fn._saved_dim1)
d = a.clamp(min=0.5, max=3)
print(d.grad_fn.name(), d.grad_fn._saved_min, d.grad_fn._saved_max)
e = a.view(4)
print(e.grad_fn._saved_self_sym_sizes)
f = F.softmax(a, dim=1)
print(f.grad_fn.name(), f.grad_fn._saved_dim, f.grad_fn._saved_result.shape)
g = torch.cat([a, a], 1)
print(g.grad_fn._saved_dim, g.grad_fn.name())
h = a.index_select(0, torch.tensor([1]))
print(h.grad_fn._saved_index, h.grad_fn._saved_dim)
print(sorted(k for k in dir(a.mm(a).grad_fn) if k.startswith('_saved')))
'''

PROGRAMS['mech_retain_graph_hooks_fire_each_time'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
count = [0]
def h(g):
    count[0] += 1
    return g
y.register_hook(h)
z = y.sum()
z.backward(retain_graph=True)
z.backward(retain_graph=True)
print(count, x.grad)
torch.autograd.grad(z, x, retain_graph=True)
print(count)
torch.autograd.grad(z, y)
print(count)
'''

PROGRAMS['mech_grad_inputs_only_partial_graph'] = PRE + r'''
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
c = a * b
d = c.exp()
a.register_hook(lambda g: print('a hook', g))
c.register_hook(lambda g: print('c hook', g))
d.backward(inputs=[b])
print(a.grad, b.grad)
e = (a * b).sin()
e.backward(inputs=(a,))
print(a.grad, b.grad)
E(lambda: (a * b).backward(inputs=[]))
E(lambda: (a * b).backward(inputs=[torch.tensor(1.)]))
f = a * b
g = f * 2
g.backward(inputs=[f])
print(f.grad, f.is_leaf)
'''

PROGRAMS['mech_grad_allow_unused_and_materialize'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3.], requires_grad=True)
out = (x * 2).sum()
E(lambda: torch.autograd.grad(out, [x, y], retain_graph=True))
print(torch.autograd.grad(out, [x, y], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, [x, y], materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, [x, y], allow_unused=False, materialize_grads=True))
print(torch.autograd.grad([out, out], [x], grad_outputs=[torch.tensor(1.), torch.tensor(2.)]))
'''

PROGRAMS['mech_is_grads_batched'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
I = torch.eye(3)
g, = torch.autograd.grad(y, x, I, is_grads_batched=True)
print(g)
z = x.sin()
g2, = torch.autograd.grad(z, x, torch.stack([torch.ones(3), torch.zeros(3)]), is_grads_batched=True)
print(g2)
E(lambda: torch.autograd.grad(x * 2, x, torch.ones(3), is_grads_batched=True))
'''

PROGRAMS['mech_leaf_nonleaf_grad_access_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
print(y.grad)
print(y.is_leaf, y.retains_grad, x.retains_grad)
z = torch.tensor([1.])
print(z.grad, z.is_leaf)
E(lambda: x.retain_grad() or None)
w = x.detach()
E(lambda: w.retain_grad())
p = nn.Parameter(torch.ones(2))
print(p.is_leaf, p.grad, p.requires_grad, repr(p))
'''

PROGRAMS['mech_detach_shares_storage_version'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
d = y.detach()
d.zero_()
E(lambda: y.sum().backward())
x2 = torch.tensor([1., 2.], requires_grad=True)
y2 = x2.exp()
d2 = y2.detach_()
print(d2 is y2, y2.grad_fn, y2.requires_grad)
y3 = x2 * 2
v = y3[0]
E(lambda: v.detach_())
'''

PROGRAMS['mech_requires_grad_int_and_errors'] = PRE + r'''
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.ones(2, dtype=torch.long).requires_grad_())
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.requires_grad_(False))
print(y.requires_grad_(True) is y)
idx = x.argmax()
print(idx.requires_grad, idx.grad_fn)
print((x > 1).requires_grad, x.round().requires_grad, x.round().grad_fn.name())
print(x.floor().grad_fn.name(), x.sign().grad_fn.name())
'''

PROGRAMS['mech_backward_on_view_and_base_grad'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
v = x.view(2, 3)
print(v.grad_fn.name(), v._base is x, v.is_leaf)
v[0].sum().backward()
print(x.grad)
y = x.clone()
w = y.view(2, 3)
w[1, 1] = 100
print(y.grad_fn.name(), w.grad_fn.name())
y.sum().backward()
print(x.grad)
'''

PROGRAMS['tutorial_nn_sequential_training_manual_sgd'] = PRE + r'''
import math
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 100)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1))
loss_fn = nn.MSELoss(reduction='sum')
learning_rate = 1e-6
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.5f} + {linear_layer.weight[:, 0].item():.5f} x')
'''

PROGRAMS['tutorial_dynamic_net_control_flow'] = PRE + r'''
import math, random
class DynamicNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Parameter(torch.tensor(0.1))
        self.b = nn.Parameter(torch.tensor(0.2))
        self.c = nn.Parameter(torch.tensor(0.3))
        self.d = nn.Parameter(torch.tensor(0.4))
        self.e = nn.Parameter(torch.tensor(0.5))
    def forward(self, x, k):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, k):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3 + {self.e.item():.4f} x^4 ? + {self.e.item():.4f} x^5 ?'
x = torch.linspace(-math.pi, math.pi, 50)
y = torch.sin(x)
model = DynamicNet()
criterion = nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t, k in enumerate([4, 5, 6, 4, 6, 5] * 10):
    y_pred = model(x, k)
    loss = criterion(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(round(loss.item(), 3))
print(model.string())
'''

# ---- complex gradcheck messages, torch.func meta-learning / Hessians, custom Functions returning views

PROGRAMS['gc_complex_mismatch_message_parts'] = PRE + r'''
class BadC(Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return g * 2 * z  # missing conj
z = torch.tensor([1 + 2j, -1 + 0.5j], dtype=torch.cdouble, requires_grad=True)
try:
    gradcheck(BadC.apply, z)
except Exception as e:
    print(str(e))
try:
    gradcheck(BadC.apply, z, fast_mode=True)
except Exception as e:
    print(str(e).splitlines()[0])
'''

PROGRAMS['gc_complex_real_input_complex_output'] = PRE + r'''
class ToC(Function):
    @staticmethod
    def forward(ctx, x):
        return x * (1 + 2j)
    @staticmethod
    def backward(ctx, g):
        return (g * (1 + 2j)).real
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
try:
    gradcheck(ToC.apply, x)
    print('passed')
except Exception as e:
    print(str(e))
print(gradcheck(lambda x: x * (1 + 2j), x))
'''

PROGRAMS['gc_gradgradcheck_failure_message'] = PRE + r'''
class BadSecond(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x.detach() ** 2
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(BadSecond.apply, x))
try:
    gradgradcheck(BadSecond.apply, x)
except Exception as e:
    print(type(e).__name__)
    print(str(e))
'''

PROGRAMS['gc_gradcheck_masked_sparse'] = PRE + r'''
i = torch.tensor([[0, 1], [1, 0]])
v = torch.tensor([1., 2.], dtype=torch.double)
s = torch.sparse_coo_tensor(i, v, (2, 2)).coalesce().requires_grad_()
print(gradcheck(lambda t: t.to_dense().sin(), s, masked=True))
E(lambda: gradcheck(lambda t: t.to_dense().sin(), s, masked=False))
print(gradcheck(lambda t: torch.sparse.sum(t), s, masked=True))
'''

PROGRAMS['gc_input_dtypes_and_layouts'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
h = torch.tensor([1., 2.], dtype=torch.half, requires_grad=True)
E(lambda: gradcheck(torch.sin, h))
E(lambda: gradcheck(torch.sin, torch.ones(2, 2, dtype=torch.double).t().requires_grad_()))
print(gradcheck(torch.sin, torch.ones(2, 3, dtype=torch.double)[:, ::2].requires_grad_()))
E(lambda: gradcheck(torch.sin, torch.ones(3, dtype=torch.double).expand(2, 3).requires_grad_()))
E(lambda: gradcheck(torch.sin, [x]))
E(lambda: gradcheck(torch.sin, {'x': x}))
'''

PROGRAMS['func_vmap_autograd_grad_inside'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
def f(xi):
    y = (xi ** 2).sum()
    return torch.autograd.grad(y, xi, create_graph=True)[0]
E(lambda: vmap(f)(x))
def g(xi):
    xi = xi.detach().requires_grad_()
    return xi
E(lambda: vmap(g)(x))
print(vmap(grad(lambda xi: (xi ** 2).sum()))(x.detach()))
'''

PROGRAMS['func_jacrev_module_with_buffers_and_mha'] = PRE + r'''
torch.manual_seed(0)
mha = nn.MultiheadAttention(4, 2, batch_first=True)
params = dict(mha.named_parameters())
q = torch.randn(1, 3, 4)
def f(p):
    out, w = functional_call(mha, p, (q, q, q))
    return out.sum()
g = grad(f)(params)
print(sorted(g), g['out_proj.bias'])
mha.eval()
out, w = mha(q, q, q)
print(w.shape, out.grad_fn.name())
'''

PROGRAMS['func_grad_through_optimizer_meta_learning'] = PRE + r'''
torch.manual_seed(0)
model = nn.Linear(1, 1)
params = {k: v.detach().clone() for k, v in model.named_parameters()}
x_support = torch.tensor([[1.], [2.]]); y_support = torch.tensor([[2.], [4.]])
x_query = torch.tensor([[3.]]); y_query = torch.tensor([[6.]])
def inner_loss(p, x, y):
    return F.mse_loss(functional_call(model, p, (x,)), y)
def maml_loss(p):
    g = grad(inner_loss)(p, x_support, y_support)
    adapted = {k: v - 0.1 * g[k] for k, v in p.items()}
    return inner_loss(adapted, x_query, y_query)
meta_g = grad(maml_loss)(params)
print(meta_g)
print(maml_loss(params))
'''

PROGRAMS['func_hessian_of_nn_loss_wrt_input'] = PRE + r'''
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
x = torch.randn(2)
H = hessian(lambda x: net(x).squeeze())(x)
print(H.shape, torch.allclose(H, H.T, atol=1e-6))
H2 = torch.autograd.functional.hessian(lambda x: net(x).squeeze(), x)
print(torch.allclose(H, H2, atol=1e-6), H2.requires_grad)
J = jacrev(net)(x)
print(J.shape)
'''

PROGRAMS['func_jvp_with_dual_module_gradcheck_forward'] = PRE + r'''
torch.manual_seed(0)
lin = nn.Linear(3, 2).double()
x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(gradcheck(lin, x, check_forward_ad=True))
print(gradgradcheck(lambda x: torch.tanh(lin(x)), x))
print(gradcheck(F.softmax, (x, 0), check_forward_ad=True))
print(gradcheck(lambda x: F.layer_norm(x, (3,)), x, check_forward_ad=True, check_batched_grad=True))
'''

PROGRAMS['ext_function_returning_view_of_input'] = PRE + r'''
class Slice(Function):
    @staticmethod
    def forward(ctx, x):
        return x[1:]
    @staticmethod
    def backward(ctx, g):
        out = torch.zeros(3)
        out[1:] = g
        return out
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = Slice.apply(x)
print(y._is_view(), y._base is x, y.grad_fn.name())
y.sum().backward()
print(x.grad)
z = Slice.apply(x.clone())
E(lambda: z.add_(1))
with torch.no_grad():
    w = Slice.apply(x)
print(w.requires_grad, w._is_view())
'''

PROGRAMS['ext_function_hooks_on_custom_node'] = PRE + r'''
class Double(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('backward', g)
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = Double.apply(x)
y.grad_fn.register_prehook(lambda go: print('pre', go))
y.grad_fn.register_hook(lambda gi, go: print('post', gi, go))
y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))
y.sum().backward()
print(x.grad)
print(y.grad_fn.name(), type(y.grad_fn).__name__, y.grad_fn.metadata)
print(isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction))
'''

PROGRAMS['ext_function_save_non_tensor_and_ctx_attr_tensor'] = PRE + r'''
class F1(Function):
    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = shape
        ctx.mid = x * 3
        return x.reshape(shape)
    @staticmethod
    def backward(ctx, g):
        print(type(ctx.shape).__name__, ctx.mid.requires_grad)
        return g.reshape(ctx.mid.shape), None
x = torch.arange(4., requires_grad=True)
y = F1.apply(x, (2, 2))
y.sum().backward()
print(x.grad, y.shape)
y = F1.apply(x, torch.Size([4, 1]))
print(y.shape, y.grad_fn.next_functions)
'''

PROGRAMS['ext_function_forward_no_grad_inside'] = PRE + r'''
class G(Function):
    @staticmethod
    def forward(ctx, x):
        print('grad enabled in forward:', torch.is_grad_enabled())
        y = x * 2
        print('y requires_grad:', y.requires_grad)
        return y
    @staticmethod
    def backward(ctx, g):
        print('grad enabled in backward:', torch.is_grad_enabled())
        return g * 2
x = torch.tensor([1.], requires_grad=True)
G.apply(x).backward()
G.apply(x).backward(create_graph=True)
print(x.grad, x.grad.requires_grad)
'''

PROGRAMS['autograd_inference_mode_tensor_in_autograd'] = PRE + r'''
with torch.inference_mode():
    t = torch.ones(2)
x = torch.ones(2, requires_grad=True)
y = x + t
print(y.requires_grad, y.grad_fn.name())
E(lambda: x * t)
y.sum().backward()
print(x.grad)
E(lambda: t.add_(1))
with torch.inference_mode():
    t.add_(1)
print(t)
z = x.clone()
with torch.inference_mode():
    E(lambda: z.add_(1))
    w = z * 2
print(w.is_inference(), w.requires_grad)
'''

PROGRAMS['autograd_torch_no_grad_inside_function_with_parameters'] = PRE + r'''
torch.manual_seed(0)
net = nn.Linear(2, 2)
with torch.no_grad():
    net.weight.copy_(torch.eye(2))
    net.bias.fill_(0.5)
print(net.weight.requires_grad, net.weight.grad_fn, net.weight._version)
out = net(torch.ones(1, 2))
print(out)
def setw():
    net.weight.copy_(torch.eye(2))
E(setw)
net.weight.data = torch.zeros(2, 2)
print(net.weight.requires_grad, type(net.weight).__name__)
'''

# ---- misdefined custom Functions, hook errors, autograd.backward, gradient penalty, anomaly errors

PROGRAMS['fn_misdefined_functions_errors'] = PRE + r'''
class NoForward(Function):
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoForward.apply(torch.ones(1)))
class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
x = torch.ones(2, requires_grad=True)
y = NoBackward.apply(x)
print(y.grad_fn.name())
E(lambda: y.sum().backward())
class NotStatic(Function):
    def forward(self, ctx, x):
        return x
    def backward(self, ctx, g):
        return g
E(lambda: NotStatic.apply(x))
class SetupNoCtx(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
E(lambda: SetupNoCtx.apply(x))
E(lambda: NoForward()(x))
'''

PROGRAMS['fn_ctx_repr_and_types'] = PRE + r'''
class F1(Function):
    @staticmethod
    def forward(ctx, x):
        print(type(ctx).__name__, type(ctx).__mro__[1].__name__)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        print(type(ctx).__name__)
        return g
x = torch.ones(2, requires_grad=True)
y = F1.apply(x)
print(type(y.grad_fn).__name__, type(y.grad_fn).__mro__[1].__name__, F1._backward_cls.__name__)
y.sum().backward()
print(issubclass(F1, torch.autograd.Function), isinstance(y.grad_fn, torch.autograd.graph.Node))
print(y.grad_fn._forward_cls is F1, y.grad_fn.name())
'''

PROGRAMS['fn_save_for_backward_setup_context_output_and_nontensor'] = PRE + r'''
class F2(Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * out
x = torch.tensor([0., 1.], dtype=torch.double, requires_grad=True)
print(gradcheck(F2.apply, x), gradgradcheck(F2.apply, x))
y = F2.apply(x)
print(y.grad_fn.saved_tensors[0] is y, y.grad_fn.saved_tensors[0].equal(y))
class F3(Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output * 2)
    @staticmethod
    def backward(ctx, g):
        o, = ctx.saved_tensors
        return g * o / 2
print(F3.apply(x).grad_fn.name())
'''

PROGRAMS['fn_save_for_forward_misuse'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class F4(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x, 3)
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(2), torch.ones(2))
    E(lambda: F4.apply(d))
class F5(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(2), torch.ones(2))
    print(fwAD.unpack_dual(F5.apply(d)).tangent)
'''

PROGRAMS['hooks_tensor_hook_wrong_return'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def run(h):
    y = x * 2
    y.register_hook(h)
    y.sum().backward()
    return x.grad
E(lambda: run(lambda g: torch.ones(3)))
E(lambda: run(lambda g: g.double()))
E(lambda: run(lambda g: 5))
E(lambda: run(lambda g: (g,)))
x.grad = None
print(run(lambda g: g.to(torch.float32)))
def leaf_hook_bad(g):
    return torch.ones(5)
x.register_hook(leaf_hook_bad)
E(lambda: (x * 1).sum().backward())
'''

PROGRAMS['hooks_multi_grad_hook_any_all'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.], requires_grad=True)
c = torch.tensor([3.], requires_grad=True)
def all_hook(grads):
    print('all', [None if g is None else g.item() for g in grads])
h = register_multi_grad_hook((a, b, c), all_hook)
(a * b).sum().backward()
(a * b * c).sum().backward()
h.remove()
(a * b).sum().backward()
def any_hook(g):
    print('any', g)
h2 = register_multi_grad_hook((a, b), any_hook, mode="any")
(a * b).sum().backward()
E(lambda: register_multi_grad_hook((a, b), any_hook, mode="bad"))
'''

PROGRAMS['hooks_module_backward_multiple_inputs'] = PRE + r'''
class Add(nn.Module):
    def forward(self, a, b):
        return a + b * 2
m = Add()
def bh(mod, gin, gout):
    print('gin', gin, 'gout', gout)
m.register_full_backward_hook(bh)
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.])
m(a, b).sum().backward()
b.requires_grad_()
m(a, b).sum().backward()
print(a.grad, b.grad)
def bh_replace(mod, gin, gout):
    return (gin[0] * 0, gin[1])
m.register_full_backward_hook(bh_replace)
a.grad = None
m(a, b).sum().backward()
print(a.grad)
def bh_wrong(mod, gin, gout):
    return (gin[0],)
m2 = Add(); m2.register_full_backward_hook(bh_wrong)
E(lambda: m2(a, b).sum().backward())
'''

PROGRAMS['hooks_legacy_backward_hook_warning'] = PRE + r'''
m = nn.Linear(2, 2)
m.register_backward_hook(lambda mod, gi, go: None)
x = torch.ones(1, 2, requires_grad=True)
m(x).sum().backward()
m2 = nn.Linear(2, 2)
m2.register_backward_hook(lambda mod, gi, go: None)
E(lambda: m2.register_full_backward_hook(lambda mod, gi, go: None))
'''

PROGRAMS['autograd_backward_function_multiple_roots'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y1 = x * 2
y2 = x ** 2
torch.autograd.backward([y1, y2], [torch.ones(2), torch.tensor([1., 0.])])
print(x.grad)
x.grad = None
torch.autograd.backward((x * 3).sum())
print(x.grad)
E(lambda: torch.autograd.backward([x * 2], [torch.ones(2), torch.ones(2)]))
E(lambda: torch.autograd.backward([x * 2], [torch.ones(3)]))
E(lambda: torch.autograd.backward(x * 2))
E(lambda: torch.autograd.backward([], []))
'''

PROGRAMS['autograd_grad_create_graph_warning_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
y.backward(create_graph=True)
print(x.grad, x.grad.grad_fn.name())
x.grad.sum().backward()
print(x.grad)
x.grad = None
'''

PROGRAMS['autograd_grad_of_grad_penalty_wgan'] = PRE + r'''
torch.manual_seed(0)
D = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
real = torch.randn(3, 2); fake = torch.randn(3, 2)
alpha = torch.rand(3, 1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(gp, gp.grad_fn.name())
gp.backward()
print(D[0].weight.grad)
'''

PROGRAMS['autograd_jacobian_by_loops_vs_functional'] = PRE + r'''
def f(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.sum()])
x = torch.tensor([1., 2.], requires_grad=True)
y = f(x)
rows = []
for i in range(3):
    g, = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(g)
J = torch.stack(rows)
print(J)
print(torch.autograd.functional.jacobian(f, x))
print(torch.autograd.functional.jacobian(f, x, create_graph=True).grad_fn)
'''

PROGRAMS['autograd_anomaly_forward_trace_warning'] = PRE + r'''
class Boom(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError('boom in backward')
x = torch.ones(2, requires_grad=True)
warnings.simplefilter('ignore')  # (anomaly mode's warning shows the forward's stack: library paths)
with torch.autograd.detect_anomaly(check_nan=True):
    y = Boom.apply(x)
    try:
        y.sum().backward()
    except ValueError as e:
        print('ValueError', e)
'''

PROGRAMS['autograd_nan_anomaly_function_name'] = PRE + r'''
class NanBack(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
x = torch.ones(2, requires_grad=True)
warnings.simplefilter('ignore')  # (anomaly mode's warning shows the forward's stack: library paths)
with torch.autograd.detect_anomaly():
    y = NanBack.apply(x)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print('RuntimeError', e)
'''

# ---- the "Fusing Convolution and Batch Norm" and numpy/scipy custom Function tutorials, higher-order gradients

PROGRAMS['tut_fused_conv_bn_conv2d_function'] = PRE + r'''
def convolution_backward(grad_out, X, weight):
    grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = torch.nn.functional.conv_transpose2d(grad_out, weight)
    return grad_X, grad_input
class Conv2D(Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)
    @staticmethod
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        return convolution_backward(grad_out, X, weight)
torch.manual_seed(0)
weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(10, 3, 7, 7, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Conv2D.apply, (X, weight)))
'''

PROGRAMS['tut_fused_conv_bn_batchnorm_function'] = PRE + r'''
def unsqueeze_all(t):
    return t[None, :, None, None]
def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
    tmp = ((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
    tmp *= -1
    d_denom = tmp / (sqrt_var + eps)**2
    d_var = d_denom / (2 * sqrt_var)
    d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
    d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
    grad_input = X * unsqueeze_all(d_var * N)
    grad_input += unsqueeze_all(-d_var * sum)
    grad_input *= 2 / ((N - 1) * N)
    grad_input += d_mean_dx
    grad_input *= unsqueeze_all(sqrt_var + eps)
    grad_input += grad_out
    grad_input /= unsqueeze_all(sqrt_var + eps)
    return grad_input
class BatchNorm(Function):
    @staticmethod
    def forward(ctx, X, eps=1e-3):
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.save_for_backward(X)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out
    @staticmethod
    def backward(ctx, grad_out):
        X, = ctx.saved_tensors
        return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)
torch.manual_seed(0)
a = torch.rand(1, 2, 3, 4, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(BatchNorm.apply, (a,), fast_mode=False))
out = BatchNorm.apply(a)
print(out.grad_fn.name(), out.mean(dim=(0, 2, 3)))
'''

PROGRAMS['tut_fused_conv_bn_fused_function'] = PRE + r'''
def unsqueeze_all(t):
    return t[None, :, None, None]
def convolution_backward(grad_out, X, weight):
    grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = F.conv_transpose2d(grad_out, weight)
    return grad_X, grad_input
def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
    tmp = ((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
    tmp *= -1
    d_denom = tmp / (sqrt_var + eps)**2
    d_var = d_denom / (2 * sqrt_var)
    d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
    d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
    grad_input = X * unsqueeze_all(d_var * N)
    grad_input += unsqueeze_all(-d_var * sum)
    grad_input *= 2 / ((N - 1) * N)
    grad_input += d_mean_dx
    grad_input *= unsqueeze_all(sqrt_var + eps)
    grad_input += grad_out
    grad_input /= unsqueeze_all(sqrt_var + eps)
    return grad_input
class FusedConvBN2DFunction(Function):
    @staticmethod
    def forward(ctx, X, conv_weight, eps=1e-3):
        assert X.ndim == 4
        ctx.save_for_backward(X, conv_weight)
        X = F.conv2d(X, conv_weight)
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out
    @staticmethod
    def backward(ctx, grad_out):
        X, conv_weight, = ctx.saved_tensors
        X_conv_out = F.conv2d(X, conv_weight)
        grad_out = batch_norm_backward(grad_out, X_conv_out, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)
        grad_X, grad_input = convolution_backward(grad_out, X, conv_weight)
        return grad_X, grad_input, None, None, None, None, None
class FusedConvBN(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, exp_avg_factor=0.1, eps=1e-3, device=None, dtype=None):
        super().__init__()
        factory_kwargs = {'device': device, 'dtype': dtype}
        weight_shape = (out_channels, in_channels, kernel_size, kernel_size)
        self.conv_weight = nn.Parameter(torch.empty(*weight_shape, **factory_kwargs))
        self.eps = eps
        self.reset_parameters()
    def forward(self, X):
        return FusedConvBN2DFunction.apply(X, self.conv_weight, self.eps)
    def reset_parameters(self) -> None:
        nn.init.kaiming_uniform_(self.conv_weight, a=__import__('math').sqrt(5))
torch.manual_seed(0)
weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(2, 3, 4, 4, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(FusedConvBN2DFunction.apply, (X, weight)))
m = FusedConvBN(3, 4, 3)
print(m.conv_weight.shape, m.conv_weight[0, 0, 0])
x = torch.rand(2, 3, 6, 6)
out = m(x)
out.sum().backward()
print(out.grad_fn.name(), m.conv_weight.grad.abs().sum() < 1e-4)
'''

PROGRAMS['tut_nn_grad_conv_helpers'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(1, 2, 5, 5, dtype=torch.double, requires_grad=True)
w = torch.randn(3, 2, 3, 3, dtype=torch.double, requires_grad=True)
y = F.conv2d(x, w, padding=1, stride=2)
go = torch.randn_like(y)
gx, gw = torch.autograd.grad(y, (x, w), go)
gx2 = torch.nn.grad.conv2d_input(x.shape, w, go, padding=1, stride=2)
gw2 = torch.nn.grad.conv2d_weight(x, w.shape, go, padding=1, stride=2)
print(torch.allclose(gx, gx2), torch.allclose(gw, gw2))
print(y.grad_fn.name())
x1 = torch.randn(1, 1, 6, dtype=torch.double, requires_grad=True)
w1 = torch.randn(2, 1, 3, dtype=torch.double, requires_grad=True)
y1 = F.conv1d(x1, w1)
g1 = torch.randn_like(y1)
print(torch.allclose(torch.nn.grad.conv1d_input(x1.shape, w1, g1), torch.autograd.grad(y1, x1, g1)[0]))
'''

PROGRAMS['tut_custom_function_numpy_fft_docs'] = PRE + r'''
import numpy as np
from numpy.fft import rfft2, irfft2
class BadFFTFunction(Function):
    @staticmethod
    def forward(ctx, input):
        numpy_input = input.detach().numpy()
        result = abs(rfft2(numpy_input))
        return input.new(result)
    @staticmethod
    def backward(ctx, grad_output):
        numpy_go = grad_output.numpy()
        result = irfft2(numpy_go)
        return grad_output.new(result)
def incorrect_fft(input):
    return BadFFTFunction.apply(input)
torch.manual_seed(0)
input = torch.randn(8, 8, requires_grad=True)
result = incorrect_fft(input)
print(result.shape, result.dtype, result.grad_fn.name())
result.backward(torch.randn(result.size()))
print(input.grad.shape, input.grad.dtype)
'''

PROGRAMS['tut_custom_function_scipy_conv_docs'] = PRE + r'''
import numpy as np
from numpy import flip
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter
def correlate2d_valid(a, k):
    kh, kw = k.shape
    out = np.zeros((a.shape[0] - kh + 1, a.shape[1] - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = (a[i:i+kh, j:j+kw] * k).sum()
    return out
def convolve2d_full(a, k):
    kh, kw = k.shape
    pad = np.pad(a, ((kh - 1, kh - 1), (kw - 1, kw - 1)))
    return correlate2d_valid(pad, flip(flip(k, 0), 1))
class ScipyConv2dFunction(Function):
    @staticmethod
    def forward(ctx, input, filter, bias):
        input, filter, bias = input.detach(), filter.detach(), bias.detach()
        result = correlate2d_valid(input.numpy(), filter.numpy())
        result += bias.numpy()
        ctx.save_for_backward(input, filter, bias)
        return torch.as_tensor(result, dtype=input.dtype)
    @staticmethod
    def backward(ctx, grad_output):
        grad_output = grad_output.detach()
        input, filter, bias = ctx.saved_tensors
        grad_output = grad_output.numpy()
        grad_bias = np.sum(grad_output, keepdims=True)
        grad_input = convolve2d_full(grad_output, filter.numpy())
        grad_filter = correlate2d_valid(input.numpy(), grad_output)
        return torch.from_numpy(grad_input), torch.from_numpy(grad_filter).to(torch.float), torch.from_numpy(grad_bias).to(torch.float)
class ScipyConv2d(Module):
    def __init__(self, filter_width, filter_height):
        super(ScipyConv2d, self).__init__()
        self.filter = Parameter(torch.randn(filter_width, filter_height))
        self.bias = Parameter(torch.randn(1, 1))
    def forward(self, input):
        return ScipyConv2dFunction.apply(input, self.filter, self.bias)
torch.manual_seed(0)
module = ScipyConv2d(3, 3)
print("Filter and bias: ", list(module.parameters()))
input = torch.randn(10, 10, requires_grad=True)
output = module(input)
print("Output from the convolution: ", output.shape, output.dtype)
output.backward(torch.randn(8, 8))
print("Gradient for the input map: ", input.grad.shape, input.grad.dtype)
moduleConv = ScipyConv2d(3, 3)
input = [torch.randn(20, 20, dtype=torch.double, requires_grad=True)]
test = gradcheck(moduleConv, input, eps=1e-6, atol=1e-4)
print("Are the gradients correct: ", test)
'''

PROGRAMS['tut_autograd_higher_order_gradients_nn'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(4, 1, requires_grad=True)
net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
u = net(x)
du = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]
d2u = torch.autograd.grad(du, x, torch.ones_like(du), create_graph=True)[0]
residual = (d2u + u).pow(2).mean()
print(residual.grad_fn.name(), du.grad_fn.name(), d2u.grad_fn.name())
residual.backward()
print(net[0].weight.grad.flatten()[:3])
'''

PROGRAMS['tut_pinn_style_with_torch_func'] = PRE + r'''
from torch.func import functional_call, vmap, grad, jacrev
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
params = {k: v.detach() for k, v in net.named_parameters()}
def u(p, x):
    return functional_call(net, p, (x.reshape(1, 1),)).squeeze()
du = grad(u, argnums=1)
d2u = grad(du, argnums=1)
xs = torch.linspace(0, 1, 5)
print(vmap(u, in_dims=(None, 0))(params, xs))
print(vmap(d2u, in_dims=(None, 0))(params, xs))
def loss(p):
    r = vmap(d2u, in_dims=(None, 0))(p, xs) + vmap(u, in_dims=(None, 0))(p, xs)
    return r.pow(2).mean()
g = grad(loss)(params)
print(g['2.bias'])
'''

# ---- old Variable-era tutorials, gradients of non-smooth and indexing ops

PROGRAMS['old_variable_api'] = PRE + r'''
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x, type(x).__name__, isinstance(x, Variable), isinstance(torch.ones(1), Variable))
y = x + 2
print(y.data, y.grad_fn.name())
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)
v = Variable(torch.ones(2))
print(v.requires_grad)
E(lambda: Variable(torch.ones(2), volatile=True))
E(lambda: Variable([1, 2]))
print(Variable(torch.ones(1), requires_grad=False).requires_grad)
'''

PROGRAMS['old_saved_variables_and_function_vjp_alias'] = PRE + r'''
class F1(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_variables
        return g * 2
x = torch.ones(2, requires_grad=True)
F1.apply(x).sum().backward()
print(x.grad)
print(Function.vjp is Function.backward, F1.vjp is F1.backward)
class F2(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def vjp(ctx, g):
        return g * 3
x.grad = None
F2.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['old_tutorial_volatile_and_data_manip'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
for i in range(3):
    loss = (w * torch.tensor([1., 2., 3.])).sum() ** 2
    loss.backward()
    w.data -= 0.01 * w.grad.data
    w.grad.data.zero_()
print(w, w.grad)
print(w.data.requires_grad, w.data.is_leaf, w.grad.is_leaf)
'''

PROGRAMS['old_style_function_instance_error'] = PRE + r'''
class Old(Function):
    def forward(self, x):
        return x * 2
    def backward(self, g):
        return g * 2
E(lambda: Old()(torch.ones(2)))
E(lambda: Old.apply(torch.ones(2)))
E(lambda: Old().apply(torch.ones(2)))
'''

PROGRAMS['fn_jvp_not_implemented_message'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class NoJ(Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    E(lambda: NoJ.apply(fwAD.make_dual(torch.ones(2), torch.ones(2))))
E(lambda: torch.func.jvp(NoJ.apply, (torch.ones(2),), (torch.ones(2),)))
E(lambda: torch.func.jacfwd(NoJ.apply)(torch.ones(2)))
print(torch.func.jacrev(NoJ.apply)(torch.ones(2)))
'''

PROGRAMS['fn_apply_under_grad_transform_old_style_error'] = PRE + r'''
class Old(Function):
    @staticmethod
    def forward(ctx, x):
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: torch.func.grad(lambda x: Old.apply(x).sum())(torch.ones(2)))
E(lambda: torch.func.vjp(Old.apply, torch.ones(2)))
E(lambda: torch.func.jacrev(Old.apply)(torch.ones(2)))
'''

PROGRAMS['mech_no_grad_leaf_creation_and_requires_grad_propagation'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
    y.requires_grad_()
print(y.is_leaf, y.requires_grad, y.grad_fn)
z = (y * 3).sum()
z.backward()
print(y.grad, x.grad)
a = torch.ones(2)
b = torch.ones(2, requires_grad=True)
print((a + b).requires_grad, (a + a).requires_grad, torch.cat([a, b]).requires_grad)
print(torch.stack([a, a]).requires_grad, torch.where(a > 0, a, b).requires_grad)
'''

PROGRAMS['mech_grad_of_integer_ops_and_nondiff'] = PRE + r'''
x = torch.tensor([1.5, -2.5, 3.5], requires_grad=True)
y = x.floor() + x.ceil() + x.round() + x.trunc() + x.frac()
y.sum().backward()
print(x.grad, y.grad_fn.name())
x.grad = None
(x.sign() * x).sum().backward()
print(x.grad)
x.grad = None
v, i = x.max(0)
v.backward()
print(x.grad, i, i.requires_grad)
x.grad = None
s, idx = x.sort(descending=True)
(s * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad, idx)
E(lambda: x.argmax().backward())
E(lambda: (x > 0).float().sum().backward())
'''

PROGRAMS['mech_grad_through_indexing_and_scatter'] = PRE + r'''
x = torch.arange(5., requires_grad=True)
idx = torch.tensor([0, 2, 2, 4])
y = x[idx]
y.sum().backward()
print(x.grad, y.grad_fn.name())
x.grad = None
z = torch.zeros(3).scatter_add(0, torch.tensor([0, 1, 0, 2, 1]), x)
z.pow(2).sum().backward()
print(x.grad, z.grad_fn.name())
x.grad = None
w = x.gather(0, torch.tensor([4, 4, 1]))
w.sum().backward()
print(x.grad, w.grad_fn.name())
x.grad = None
m = x.masked_fill(x > 2, 0.)
m.sum().backward()
print(x.grad, m.grad_fn.name())
x.grad = None
q = x.clone()
q[torch.tensor([1, 1])] = torch.tensor([7., 8.])
q.sum().backward()
print(q, x.grad, q.grad_fn.name())
'''

PROGRAMS['mech_grad_of_norms_at_zero'] = PRE + r'''
x = torch.zeros(3, requires_grad=True)
x.norm().backward()
print(x.grad)
x.grad = None
torch.linalg.vector_norm(x, ord=1).backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
torch.sqrt(x).sum().backward()
print(x.grad)
x.grad = None
(x ** 0.5).sum().backward()
print(x.grad)
x.grad = None
torch.linalg.vector_norm(x, ord=float('inf')).backward()
print(x.grad)
y = torch.tensor([1., 1., 0.5], requires_grad=True)
torch.linalg.vector_norm(y, ord=float('inf')).backward()
print(y.grad)
y.grad = None
y.max().backward()
print(y.grad)
y.grad = None
y.amax().backward()
print(y.grad)
'''

PROGRAMS['mech_grad_min_max_ties_and_median'] = PRE + r'''
x = torch.tensor([3., 1., 3., 1.], requires_grad=True)
x.max().backward()
print(x.grad)
x.grad = None
x.min().backward()
print(x.grad)
x.grad = None
x.amin().backward()
print(x.grad)
x.grad = None
x.median().backward()
print(x.grad)
x.grad = None
x.nanmedian().backward()
print(x.grad)
x.grad = None
torch.max(x, 0)[0].backward()
print(x.grad)
x.grad = None
x.logsumexp(0).backward()
print(x.grad)
x.grad = None
torch.kthvalue(x, 2).values.backward()
print(x.grad)
x.grad = None
x.topk(2).values.sum().backward()
print(x.grad)
'''

# ---- gradcheck of functions with integer outputs

# fixed: integer outputs have no numerical Jacobian in slow mode; fast mode looks at every output
PROGRAMS['gc_integer_outputs_have_no_numerical_jacobian'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda a: (a * 2).int(), x))
print(gradcheck(lambda a: (a * 2.5).long(), x))
print(gradcheck(lambda a: (a * 2).int(), x, raise_exception=False))
E(lambda: gradcheck(lambda a: (a * 2).int(), x, fast_mode=True))
print(gradcheck(lambda a: (a * 2).int(), x, fast_mode=True, raise_exception=False))
print(gradcheck(lambda a: (a * 2, a.argmax()), x))
E(lambda: gradcheck(lambda a: a.detach() * 2, x))
E(lambda: gradcheck(lambda a: ((a * 2).int(), a.detach() * 2), x))
E(lambda: gradcheck(lambda a: (a.detach() * 2, (a * 2).int()), x))
E(lambda: gradcheck(lambda a: (a > 1.5), x))
'''

# fixed: PyTorch pairs the floating point outputs' Jacobians with the outputs in order: IndexError
PROGRAMS['gc_integer_output_ahead_of_differentiable_one'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(lambda a: (a.argmax(), a * 2), x))
E(lambda: gradcheck(lambda a: ((a * 2).int(), a * 2), x))
print(gradcheck(lambda a: (a * 2, a.argmax()), x, fast_mode=True))
print(gradcheck(lambda a: (a * 3, (a * 2).int(), a.sin()), x, fast_mode=True))
'''

PROGRAMS['gc_check_batched_forward_grad_and_tuple_outputs'] = PRE + r'''
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, x, check_forward_ad=True, check_batched_forward_grad=True))
print(gradcheck(lambda a: [a.sin(), a.cos()], x))
print(gradcheck(lambda a: (a.sin(),), x))
print(gradcheck(lambda a, n: a ** n, (x, 3)))
print(gradgradcheck(lambda a, n: a ** n, (x, 3)))
E(lambda: gradcheck(lambda a: a.sum().item(), x))
'''

PROGRAMS['gc_gradgradcheck_integer_and_nondiff'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradgradcheck(lambda a: (a ** 2, a.argmax()), x))
E(lambda: gradgradcheck(lambda a: (a * 2).int(), x))
print(gradgradcheck(lambda a: a * 2, x))
print(gradgradcheck(lambda a: a.relu(), x))
'''

# ---- torch.func ensembles trained with vmap(grad), generated vmap rules with jvp, materialize_grads off twice

PROGRAMS['func_stack_module_state_frozen_and_grads'] = PRE + r'''
torch.manual_seed(0)
ms = [nn.Linear(2, 2) for _ in range(2)]
ms[0].bias.requires_grad_(False)
ms[1].bias.requires_grad_(False)
p, b = stack_module_state(ms)
print(p['weight'].requires_grad, p['bias'].requires_grad, p['bias'].is_leaf)
x = torch.ones(2, 3, 2)
base = nn.Linear(2, 2).to('meta')
out = vmap(lambda pp, xx: functional_call(base, pp, (xx,)))(p, x)
out.sum().backward()
print(p['weight'].grad.shape, p['bias'].grad, ms[0].weight.grad)
'''

PROGRAMS['func_functional_call_grads_flow_to_replacements'] = PRE + r'''
torch.manual_seed(0)
m = nn.Linear(2, 1)
w = torch.ones(1, 2, requires_grad=True)
out = functional_call(m, {'weight': w}, (torch.tensor([[1., 2.]]),))
out.sum().backward()
print(w.grad, m.weight.grad, m.bias.grad)
print(out.grad_fn.name(), m.weight.requires_grad)
'''

PROGRAMS['fn_generate_vmap_rule_mark_dirty_and_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Inplace(Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        x.mul_(2)
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: vmap(Inplace.apply)(torch.ones(2, 3)))
class Sq(Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
x = torch.tensor([[1., 2.], [3., 4.]])
print(vmap(lambda a: jvp(Sq.apply, (a,), (torch.ones(2),))[1])(x))
print(jacfwd(Sq.apply)(x[0]))
print(vmap(jacfwd(Sq.apply))(x))
print(hessian(lambda a: Sq.apply(a).sum())(x[0]))
'''

PROGRAMS['fn_materialize_off_double_backward_none'] = PRE + r'''
class G(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x * x, x + 1
    @staticmethod
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        out = None
        if g1 is not None:
            out = g1 * 2 * x
        if g2 is not None:
            out = g2 if out is None else out + g2
        return out
x = torch.tensor([1., 3.], dtype=torch.double, requires_grad=True)
a, b = G.apply(x)
g, = torch.autograd.grad(a.sum(), x, create_graph=True)
print(g, g.grad_fn.name())
h, = torch.autograd.grad(g.sum(), x)
print(h)
g2, = torch.autograd.grad(b.sum(), x, create_graph=True)
print(g2, g2.requires_grad)
print(gradcheck(lambda t: G.apply(t)[0], x), gradgradcheck(lambda t: G.apply(t)[0], x))
'''

PROGRAMS['gc_raise_exception_false_variants'] = PRE + r'''
class Fragile(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(Fragile.apply, x, raise_exception=False))
print(gradcheck(Fragile.apply, x, raise_exception=False, check_undefined_grad=False))
print(gradcheck(torch.sin, x.float().detach().requires_grad_(), raise_exception=False))
print(gradgradcheck(torch.sin, x, raise_exception=False, eps=1e-1, atol=1e-9, rtol=0))
'''

PROGRAMS['func_ensemble_training_step_with_vmap_grad'] = PRE + r'''
torch.manual_seed(0)
models = [nn.Linear(3, 1) for _ in range(3)]
params, buffers = stack_module_state(models)
base = nn.Linear(3, 1).to('meta')
x = torch.randn(5, 3); y = torch.randn(5, 1)
def loss(p, b, x, y):
    return F.mse_loss(functional_call(base, (p, b), (x,)), y)
for step in range(3):
    grads = vmap(grad(loss), in_dims=(0, 0, None, None))(params, buffers, x, y)
    losses = vmap(loss, in_dims=(0, 0, None, None))(params, buffers, x, y)
    with torch.no_grad():
        for k in params:
            params[k] -= 0.1 * grads[k]
    print(step, losses.detach())
print(params['bias'].flatten())
'''

# ---- the "Hooks for saved tensors" tutorial and the complex autograd notes

PROGRAMS['tut_saved_tensor_hooks_to_disk'] = PRE + r'''
import os, tempfile, uuid
tmp_dir_obj = tempfile.TemporaryDirectory()
tmp_dir = tmp_dir_obj.name
class SelfDeletingTempFile():
    def __init__(self):
        self.name = os.path.join(tmp_dir, str(uuid.uuid4()))
    def __del__(self):
        os.remove(self.name)
def pack_hook(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file
def unpack_hook(temp_file):
    return torch.load(temp_file.name, weights_only=True)
x = torch.randn(5, requires_grad=True) * 0 + torch.arange(5.)
x = x.detach().requires_grad_()
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(len(os.listdir(tmp_dir)))
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
del y
import gc; gc.collect()
print(len(os.listdir(tmp_dir)))
tmp_dir_obj.cleanup()
'''

PROGRAMS['tut_saved_tensor_hooks_only_large'] = PRE + r'''
SAVE_ON_DISK_THRESHOLD = 4
stored = []
def pack_hook(x):
    if x.numel() < SAVE_ON_DISK_THRESHOLD:
        return x
    stored.append(x.clone())
    return len(stored) - 1
def unpack_hook(packed):
    if isinstance(packed, torch.Tensor):
        return packed
    return stored[packed]
a = torch.arange(6., requires_grad=True)
b = torch.tensor([2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = (a * b).sin().sum()
print(len(stored))
y.backward()
print(a.grad, b.grad)
'''

PROGRAMS['tut_saved_tensor_identity_rules'] = PRE + r'''
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self), x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result), y is y.grad_fn._saved_result)
def pack_hook(x):
    print("Packing", x.shape)
    return x
def unpack_hook(x):
    print("Unpacking", x.shape)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
y = a.exp()
y.grad_fn._raw_saved_result.register_hooks(lambda t: t * 2, lambda t: t)
print(y.grad_fn._saved_result)
'''

PROGRAMS['tut_saved_tensor_hooks_error_cases'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
def pack(t):
    return t
def unpack_wrong(t):
    return t.sum()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack_wrong):
    y = x.pow(2)
E(lambda: y.sum().backward())
def unpack_none(t):
    return None
with torch.autograd.graph.saved_tensors_hooks(pack, unpack_none):
    y = x.pow(2)
E(lambda: y.sum().backward())
def unpack_dtype(t):
    return t.double()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack_dtype):
    y = x.pow(2)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['cplx_autograd_notes_examples'] = PRE + r'''
z = torch.tensor(1 + 2j, requires_grad=True)
y = (z.real ** 2 + z.imag ** 2)
y.backward()
print(z.grad)
z.grad = None
w = torch.tensor(0.5 - 1j, requires_grad=True)
s = (z * w).abs()
s.backward()
print(z.grad, w.grad)
c = torch.tensor([1 + 1j, 2 + 0j], requires_grad=True)
d = c.conj()
e = (d * c).real.sum()
e.backward()
print(c.grad, d.is_conj(), d.grad_fn.name())
c.grad = None
f = torch.view_as_real(c.conj().resolve_conj())
f.sum().backward()
print(c.grad)
'''

PROGRAMS['cplx_inplace_on_complex_leaf_views'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
w = z.clone()
r = torch.view_as_real(w)
r[:, 1] = 0
print(w, w.grad_fn.name(), r.grad_fn.name())
w.abs().sum().backward()
print(z.grad)
E(lambda: torch.view_as_real(z).mul_(2))
E(lambda: z.real.add_(1))
'''

# ---- reprs of transforms, custom Function contexts, nodes and hook handles

PROGRAMS['repr_of_transforms_ctx_and_handles'] = PRE + r'''
def f(x):
    "doc of f"
    return x.sin().sum()
for t in (grad(f), vmap(f), jacrev(f), jacfwd(f), hessian(f), torch.func.grad_and_value(f)):
    print(t.__name__, t.__doc__, t.__wrapped__ is f if hasattr(t, '__wrapped__') else 'nowrap')
class F1(Function):
    @staticmethod
    def forward(ctx, x):
        print(ctx)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        print(ctx)
        return g
x = torch.ones(1, requires_grad=True)
y = F1.apply(x)
print(F1, F1._backward_cls, y.grad_fn)
y.backward()
h = x.register_hook(lambda g: g)
print(h)
print(type(h).__name__)
'''

PROGRAMS['repr_of_nodes_and_edges'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
print(y.grad_fn, y.grad_fn.next_functions)
print(type(y.grad_fn).__module__, type(y.grad_fn).__qualname__)
e = torch.autograd.graph.get_gradient_edge(y)
print(type(e).__name__, e.output_nr, e.node.name())
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(acc, acc.name(), type(acc).__name__, acc.variable is x)
print(str(y.grad_fn.next_functions[0][0]) == repr(y.grad_fn.next_functions[0][0]))
'''

PROGRAMS['repr_gradcheck_module_attrs'] = PRE + r'''
from torch.autograd import gradcheck as gcm_fn
import sys
gcm = sys.modules['torch.autograd.gradcheck']
print(gcm.GradcheckError.__mro__[1].__name__, gcm.GradcheckError.__name__)
print(torch.autograd.gradcheck.__name__, torch.autograd.gradgradcheck.__name__)
print(sorted(n for n in ['gradcheck', 'gradgradcheck', 'GradcheckError'] if hasattr(gcm, n)))
print(type(torch.autograd.functional.jacobian).__name__)
'''

# ---- the autograd notes on hooks: in-place modification, order, removal; gradient layout

PROGRAMS['notes_hooks_inplace_modification_semantics'] = PRE + r'''
t = torch.tensor(1., requires_grad=True).sin()
t.cos_()
t.register_hook(lambda g: print('after inplace', g))
t.sum().backward()
t2 = torch.tensor(1., requires_grad=True).sin()
t2.register_hook(lambda g: print('before inplace', g))
t2.cos_()
t2.sum().backward()
t3 = torch.tensor([1., 2.], requires_grad=True).clone()
t3.register_hook(lambda g: print('t3 hook', g))
t3.mul_(3)
t3.register_hook(lambda g: print('t3 hook after', g))
(t3 * 2).sum().backward()
'''

PROGRAMS['notes_hooks_order_tensor_pre_post_node'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
order = []
y.grad_fn.register_prehook(lambda go: order.append('node pre'))
y.register_hook(lambda g: order.append('tensor hook'))
y.grad_fn.register_hook(lambda gi, go: order.append('node post'))
x.register_hook(lambda g: order.append('leaf tensor hook'))
x.register_post_accumulate_grad_hook(lambda p: order.append('post accumulate'))
y.retain_grad()
y.sum().backward()
print(order, y.grad)
'''

PROGRAMS['notes_hooks_on_tensor_without_grad_fn_paths'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
y.register_hook(lambda g: print('y hook', g))
torch.autograd.grad(z.sum(), x)

w = x * 2
w.register_hook(lambda g: print('w hook', g))
torch.autograd.grad((w * 3).sum(), w)
'''

PROGRAMS['notes_hook_remove_inside_hook'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
y = x * 2
handles = []
def h1(g):
    print('h1', g)
    handles[1].remove()
    return g * 2
def h2(g):
    print('h2', g)
    return g
handles.append(y.register_hook(h1))
handles.append(y.register_hook(h2))
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
'''

PROGRAMS['notes_grad_accumulation_with_expanded_and_shared'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
e = x.expand(3, 2)
e.sum().backward()
print(x.grad)
x.grad = None
a = x * 1
b = a + a + a
b.sum().backward()
print(x.grad)
w = torch.tensor([1.], requires_grad=True)
out = w * w * w
out.backward()
print(w.grad)
g = x.grad
(x * 5).sum().backward()
print(x.grad is g, x.grad)
'''

PROGRAMS['notes_leaf_grad_layout_and_stealing'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
y = (x * 2).t()
y.sum().backward()
print(x.grad.stride(), x.grad.is_contiguous())
x.grad = None
z = torch.ones(3, 2).t()
(x * z).sum().backward()
print(x.grad.stride())
p = torch.ones(3, 2).t().requires_grad_()
(p * 2).sum().backward()
print(p.grad.stride(), p.stride())
E(lambda: setattr(x, 'grad', torch.ones(3, 2)))
E(lambda: setattr(x, 'grad', torch.ones(2, 3, dtype=torch.double)))
E(lambda: setattr(x, 'grad', [1, 2]))
'''

# ---- torch.func argument errors

PROGRAMS['func_error_medley_vjp_jvp'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: vjp(lambda a: 3, x))
E(lambda: vjp(lambda a: (a, 3), x))
E(lambda: vjp(lambda a: a, 3.0))
E(lambda: vjp(lambda a: a, torch.tensor([1, 2])))
E(lambda: jvp(lambda a: a, x, (torch.ones(2),)))
E(lambda: jvp(lambda a: a, (x,), torch.ones(2)))
E(lambda: jvp(lambda a: 3, (x,), (torch.ones(2),)))
E(lambda: jvp(lambda a, b: a, (x,), (torch.ones(2), torch.ones(2))))
E(lambda: jvp(lambda a: a, (), ()))
out, fn = vjp(lambda a: a * 2, x)
E(lambda: fn(torch.ones(2, dtype=torch.double)))
E(lambda: fn(torch.ones(2), torch.ones(2)))
print(fn(torch.ones(2)))
'''

PROGRAMS['func_error_medley_jacrev_hessian'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: jacrev(lambda a: a, argnums=1)(x))
E(lambda: jacrev(lambda a: a, argnums=(0, 1))(x))
E(lambda: jacfwd(lambda a: a, argnums=-2)(x))
E(lambda: jacrev(lambda a: a, has_aux=True)(x))
E(lambda: jacrev(lambda a: (a, a, a), has_aux=True)(x))
print(jacrev(lambda a: a.sum())(x), jacfwd(lambda a: a.sum())(x))
print(jacrev(lambda a: (a, a * 2))(x))
print(hessian(lambda a: a.prod())(x))
E(lambda: hessian(lambda a: a)(torch.tensor([1, 2])))
'''

PROGRAMS['func_error_medley_functional_call'] = PRE + r'''
m = nn.Linear(2, 2)
x = torch.ones(1, 2)
E(lambda: functional_call(m, {'weight': torch.ones(3, 3)}, (x,)))
E(lambda: functional_call(m, {'nope.weight': torch.ones(2, 2)}, (x,)))
E(lambda: functional_call(m, [torch.ones(2, 2)], (x,)))
E(lambda: functional_call(m, {'weight': 5}, (x,)))
print(functional_call(m, {}, (x,)).shape)
print(functional_call(m, {'weight': torch.zeros(2, 2), 'bias': torch.zeros(2)}, x))
'''

PROGRAMS['func_vmap_error_medley_shapes'] = PRE + r'''
E(lambda: vmap(torch.sum)(torch.tensor(1.)))
E(lambda: vmap(torch.sum)(torch.ones(2), torch.ones(3)))
E(lambda: vmap(torch.add)(torch.ones(2), torch.ones(3)))
E(lambda: vmap(lambda a: a)(5.0))
E(lambda: vmap(lambda a: a, in_dims=0)([]))
E(lambda: vmap(lambda a: a, out_dims=2)(torch.ones(2, 3)))
E(lambda: vmap(lambda a: a, in_dims='0')(torch.ones(2)))
E(lambda: vmap(lambda a: None)(torch.ones(2)))
E(lambda: vmap(lambda a: [a, 'x'])(torch.ones(2)))
print(vmap(lambda a: a, in_dims=-1)(torch.arange(6.).reshape(2, 3)))
print(vmap(lambda a: a.sum(), out_dims=0)(torch.ones(2, 3)))
'''


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first run of a program imports modules, its first dual tensor scripts functions (with
    DeprecationWarnings of torch.jit.script): done here, so that no program's output depends on it."""
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as fwAD
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore")
        run_both("import torch\nimport torch.utils.checkpoint\n")
        fwAD.make_dual(torch.ones(1), torch.ones(1))


@contextlib.contextmanager
def _anomaly_off():
    """A program failing inside anomaly mode must not leave it on for the next one."""
    try:
        yield
    finally:
        for module in ("minigrad", "torch"):
            __import__(module).autograd.set_detect_anomaly(False)


# Each program runs as in a fresh process (``parity.fresh_warn_once``).
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces)
    with warnings.catch_warnings(), fresh_warn_once(), _anomaly_off():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
