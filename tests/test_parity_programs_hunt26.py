"""Parity programs from a twenty-sixth hunt: PyTorch's own autograd tutorials and doc pages, as a student modifies them.

"A Gentle Introduction to torch.autograd" (Q = 3a^3 - b^2, external_grad, frozen parameters), "Automatic
Differentiation with torch.autograd" (the one-layer network, Jacobian products with eye), the "Autograd mechanics"
note (saved tensors, unpack hooks, version counters, Wirtinger gradients, save_on_cpu and disk-like pack hooks),
"Double Backward with Custom Functions" (Square, Exp, Sinh, Cube), "Forward-mode Automatic Differentiation"
(dual_level, custom jvp, functorch jvp, functional_call), "Jacobians, Hessians, hvp, vhp, and more" (torch.func and
torch.autograd.functional), "Per-sample gradients", "Model ensembling", "Extending PyTorch" (setup_context,
LinearFunction, MulConstant, mark_non_differentiable), torch.autograd.graph and torch.utils.checkpoint: each with
other shapes, dtypes and values, printed in full, with the errors a student hits. Each program must print exactly
what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also
printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- "A Gentle Introduction to torch.autograd"

PROGRAMS['gentle_q_float64_external_grad_values'] = PRE + r'''
a = torch.tensor([2., 3., -1.5], dtype=torch.float64, requires_grad=True)
b = torch.tensor([6., 4., 0.25], dtype=torch.float64, requires_grad=True)
Q = 3*a**3 - b**2
print(Q, Q.grad_fn, Q.grad_fn.next_functions)
m = Q.grad_fn.next_functions[0][0]
print(m.name(), m._saved_other, m._saved_self)
p = m.next_functions[0][0]
print(p.name(), p._saved_exponent, p._saved_self is a, p._saved_self.equal(a))
external_grad = torch.tensor([1., 0.5, -2.], dtype=torch.float64)
Q.backward(gradient=external_grad)
print(a.grad, b.grad)
print(9*a**2*external_grad == a.grad)
print(-2*b*external_grad == b.grad)
E(lambda: Q.backward(gradient=external_grad))
E(lambda: (3*a**3 - b**2).backward())
E(lambda: (3*a**3 - b**2).backward(gradient=torch.ones(2, dtype=torch.float64)))
E(lambda: (3*a**3 - b**2).backward(gradient=torch.ones(3)))
'''

PROGRAMS['gentle_q_scalar_and_2d'] = PRE + r'''
a = torch.tensor([[2., 3.], [1., -1.]], requires_grad=True)
b = torch.tensor([[6., 4.], [0.5, 2.]], requires_grad=True)
Q = 3*a**3 - b**2
Q.sum().backward(retain_graph=True)
print(a.grad, b.grad)
Q.backward(torch.full_like(Q, 0.1))
print(a.grad, b.grad)
print(Q.grad_fn.next_functions[1][0].next_functions)
print(Q.requires_grad, Q.is_leaf, a.is_leaf, Q.grad_fn._saved_alpha)
E(lambda: Q.grad)
q = Q.detach()
print(q.requires_grad, q.grad_fn, q._version)
'''

PROGRAMS['gentle_dag_exclusion_requires_grad'] = PRE + r'''
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
print(a.grad_fn, b.grad_fn, b.grad_fn.next_functions)
c = (x * 2).requires_grad_()
d = c + z
print(d.grad_fn.next_functions, c.is_leaf)
E(lambda: a.requires_grad_(False).backward(torch.ones(5, 5)))
E(lambda: b.requires_grad_(False))
E(lambda: torch.tensor([1, 2]).requires_grad_())
e = torch.tensor([1, 2])
E(lambda: setattr(e, 'requires_grad', True))
'''

PROGRAMS['gentle_frozen_small_model_finetune'] = PRE + r'''
from torch import nn, optim
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(6, 2)
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
print([n for n, p in model.named_parameters() if p.requires_grad])
data = torch.rand(3, 4)
labels = torch.rand(3, 2)
prediction = model(data)
print(prediction.grad_fn, prediction.grad_fn.next_functions)
loss = (prediction - labels).sum()
loss.backward()
for n, p in model.named_parameters():
    print(n, p.grad is None, None if p.grad is None else p.grad.shape)
before = model[2].weight.clone()
optimizer.step()
print(torch.allclose(before, model[2].weight), (before - model[2].weight).abs().max() > 0)
print(model[0].weight.grad, model[0].weight.requires_grad)
'''

PROGRAMS['gentle_frozen_requires_grad_toggle_module'] = PRE + r'''
from torch import nn
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
net[0].requires_grad_(False)
x = torch.randn(4, 3)
out = net(x).sum()
print(out.grad_fn.next_functions[0][0].next_functions)
h = net[1](net[0](x))
print(h.requires_grad, h.grad_fn)
out.backward()
print(net[0].weight.grad, net[2].weight.grad is not None, net[2].bias.grad)
net[0].weight.requires_grad_()
out2 = net(x).sum()
out2.backward()
print(net[0].weight.grad.shape, net[0].bias.grad)
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
'''

# ---- "Automatic Differentiation with torch.autograd"

PROGRAMS['autodiff_one_layer_shapes_3_2'] = PRE + r'''
torch.manual_seed(3)
x = torch.ones(3)
y = torch.tensor([1., 0.])
w = torch.randn(3, 2, requires_grad=True)
b = torch.randn(2, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
print(loss.grad_fn.next_functions, z.grad_fn.next_functions[0][0].next_functions)
print(loss.grad_fn._saved_self, loss.grad_fn._saved_target, loss.grad_fn._saved_reduction)
loss.backward()
print(w.grad)
print(b.grad)
E(lambda: loss.backward())
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z_det = (torch.matmul(x, w)+b).detach()
print(z_det.requires_grad, z_det)
'''

PROGRAMS['autodiff_one_layer_batch_mean_sum'] = PRE + r'''
torch.manual_seed(4)
x = torch.randn(4, 5)
y = torch.tensor([[0., 1., 1.]]).expand(4, 3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
F = torch.nn.functional
for red in ('mean', 'sum', 'none'):
    z = x @ w + b
    loss = F.binary_cross_entropy_with_logits(z, y, reduction=red)
    print(red, loss.shape, loss.grad_fn)
    if red == 'none':
        loss.backward(torch.ones_like(loss))
    else:
        loss.backward()
    print(w.grad.sum().item() != 0, b.grad)
    w.grad = None
    b.grad = None
print(z.grad_fn.name(), z.grad_fn._saved_alpha, z.grad_fn.next_functions[0][0]._saved_self_sym_sizes)
'''

PROGRAMS['autodiff_eye_jacobian_products_3_4'] = PRE + r'''
inp = torch.eye(3, 4, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
out.backward(torch.eye(4, 3))
print(inp.grad)
E(lambda: out.backward(torch.ones_like(out)))
print(out.grad_fn, out.grad_fn.next_functions[0][0]._saved_exponent)
'''

PROGRAMS['autodiff_eye_double_inp_float64_vjp_vs_jacobian'] = PRE + r'''
inp = torch.eye(2, 3, dtype=torch.float64, requires_grad=True)
f = lambda t: (t + 1).pow(3).t()
out = f(inp)
v = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=torch.float64)
out.backward(v)
J = torch.autograd.functional.jacobian(f, inp.detach())
print(J.shape)
print(torch.einsum('ij,ijkl->kl', v, J))
print(inp.grad)
print(torch.equal(inp.grad, torch.einsum('ij,ijkl->kl', v, J)))
'''

# ---- "Autograd mechanics": saved tensors, hooks on them, in-place checks, complex autograd, saved-tensor hooks

PROGRAMS['mech_saved_tensors_identity_and_equal'] = PRE + r'''
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
z = x.sin().cos()
print(z.grad_fn._saved_self.equal(x.sin()), z.grad_fn.next_functions[0][0]._saved_self is x)
w = torch.tanh(x)
print(w.grad_fn._saved_result is w, w.grad_fn._saved_result.grad_fn)
s = x.sigmoid()
r = s.grad_fn._saved_result
print(r.requires_grad, r.is_leaf, r._version)
'''

PROGRAMS['mech_raw_saved_register_hooks_errors'] = PRE + r'''
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__)
E(lambda: raw.register_hooks(lambda t: t))
E(lambda: raw.register_hooks(1, 2))
raw.register_hooks(lambda t: t * 1, lambda t: t * 2)
E(lambda: raw.register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
print(torch.allclose(x.grad, 4 * x))
y2 = x.exp()
y2.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: torch.ones(5))
x.grad = None
y2.sum().backward()
print(x.grad)
y3 = x * 2
print(y3.grad_fn._saved_self, y3.grad_fn._saved_other)
'''

PROGRAMS['mech_unpack_hook_wrong_shape_dtype'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: torch.ones(4))
E(lambda: y.sum().backward())
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: torch.ones(3, dtype=torch.float64))
E(lambda: y.sum().backward())
print(x.grad)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: 5)
E(lambda: y.sum().backward())
'''

PROGRAMS['mech_inplace_version_check_sigmoid_exp'] = PRE + r'''
a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
print(b._version)
c = b * 2
b.mul_(2)
print(b._version, b.grad_fn)
E(lambda: c.sum().backward())
a2 = torch.tensor([0.5, -1., 2.], requires_grad=True)
e = a2.exp()
f = e.sum()
e.add_(1)
E(lambda: f.backward())
g = a2 * 3
h = g.exp_()
print(h is g, g.grad_fn, g._version)
h.sum().backward()
print(a2.grad)
'''

PROGRAMS['mech_version_counter_shared_views'] = PRE + r'''
x = torch.zeros(2, 3)
v = x[0]
t = x.t()
print(x._version, v._version, t._version)
v.add_(1)
print(x._version, v._version, t._version)
t.mul_(2)
print(x._version, v._version, t._version)
x.data.add_(1)
print(x._version)
with torch.no_grad():
    x.sub_(1)
print(x._version, v._version)
y = x.detach()
y.zero_()
print(x._version, y._version)
z = torch.ones(2, requires_grad=True) * 1
q = z.pow(2)
z[0] = 5
E(lambda: q.sum().backward())
'''

PROGRAMS['mech_complex_wirtinger_abs_and_real'] = PRE + r'''
x = torch.tensor([1+2j, -3+0.5j, 0.25-1j], requires_grad=True)
y = (x * x.conj()).real.sum()
y.backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
(x.real ** 2 - x.imag).sum().backward()
print(x.grad)
x.grad = None
E(lambda: (x * 2).sum().backward())
E(lambda: (x * 2).backward(torch.ones(3)))
(x * 2).backward(torch.ones(3, dtype=torch.complex64))
print(x.grad)
print(x.angle().grad_fn, x.abs().grad_fn, x.conj().grad_fn)
'''

PROGRAMS['mech_complex_grad_is_conj_of_df_dz'] = PRE + r'''
z = torch.tensor(1.5-0.5j, dtype=torch.complex128, requires_grad=True)
for f in (lambda z: (z * z).real, lambda z: (z * z).imag, lambda z: z.abs() ** 2, lambda z: torch.exp(z).real):
    g, = torch.autograd.grad(f(z), z)
    print(g)
w = torch.tensor([2.+1j], requires_grad=True)
out = w.pow(2)
gout = torch.tensor([1.-1j])
out.backward(gout)
print(w.grad, gout * (2 * w).conj())
print(torch.view_as_real(w.grad))
'''

PROGRAMS['mech_save_on_cpu_matches'] = PRE + r'''
from torch.autograd.graph import save_on_cpu
torch.manual_seed(5)
a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
c = torch.randn(5, requires_grad=True)
def f(a, b, c):
    prod_1 = a * b
    with save_on_cpu(pin_memory=False):
        prod_2 = prod_1 * c
    y = prod_2 * a
    return y
y = f(a, b, c)
print(y.grad_fn.next_functions[0][0].name(), y.grad_fn.next_functions[0][0]._saved_other.equal(c))
y.sum().backward()
print(a.grad, b.grad, c.grad)
print(torch.allclose(a.grad, 2 * a * b * c), torch.equal(b.grad, a * c * a))
'''

PROGRAMS['mech_pack_to_disk_like_storage'] = PRE + r'''
storage = {}
counter = [0]
log = []
def pack_hook(tensor):
    name = f"t{counter[0]}"
    counter[0] += 1
    storage[name] = tensor.detach().clone()
    log.append(('pack', name, tuple(tensor.shape)))
    return name
def unpack_hook(name):
    log.append(('unpack', name))
    return storage.pop(name)
x = torch.linspace(-1, 1, 4, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.exp() * x.sin()
    z = y.pow(2).sum()
print(log)
z.backward()
print(log[-4:], len(storage))
print(x.grad)
E(lambda: z.grad_fn.next_functions[0][0]._saved_self)
'''

PROGRAMS['mech_saved_hooks_inner_override_and_errors'] = PRE + r'''
def pack_a(t):
    print('pack_a', t.shape)
    return t
def pack_b(t):
    print('pack_b', t.shape)
    return t
x = torch.ones(2, 3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_a, lambda t: t):
    y = x * x
    with torch.autograd.graph.saved_tensors_hooks(pack_b, lambda t: t):
        z = y.sum(0) * 2
        w = z.exp()
    u = w.log()
print(u.grad_fn, u.grad_fn._saved_self.shape)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    E(lambda: x.exp().grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t))
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks in this block"):
    E(lambda: torch.autograd.graph.saved_tensors_hooks(pack_a, pack_b).__enter__())
    print((x * 2).requires_grad)
'''


# ---- "Double Backward with Custom Functions"

PROGRAMS['dbl_square_gradcheck_gradgradcheck_shapes'] = PRE + r"""
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
torch.manual_seed(6)
for shape in [(3, 3), (2,), ()]:
    x = torch.rand(shape, requires_grad=True, dtype=torch.double)
    print(shape, torch.autograd.gradcheck(Square.apply, x), torch.autograd.gradgradcheck(Square.apply, x))
x = torch.tensor([1., -2.], dtype=torch.double, requires_grad=True)
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
E(lambda: torch.autograd.gradcheck(Square.apply, torch.rand(3, requires_grad=True)))
"""

PROGRAMS['dbl_square_wrong_backward_gradcheck_message'] = PRE + r"""
class BadSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 3 * x
x = torch.tensor([0.5, 1.0], dtype=torch.double, requires_grad=True)
try:
    torch.autograd.gradcheck(BadSquare.apply, x)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(str(e).splitlines()[1:3])
print(torch.autograd.gradcheck(BadSquare.apply, x, raise_exception=False))
class DetachedSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x.detach()
        return x**2
    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * 2 * ctx.x
print(torch.autograd.gradcheck(DetachedSquare.apply, x))
print(torch.autograd.gradgradcheck(DetachedSquare.apply, x, raise_exception=False))
"""

PROGRAMS['dbl_exp_saves_output_graph'] = PRE + r"""
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
x = torch.tensor([0., 0.5, 1.], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
out = Exp.apply(x)
print(out.grad_fn, type(out.grad_fn).__name__, out.grad_fn.next_functions)
print(out.grad_fn.saved_tensors[0].equal(out), out.grad_fn.saved_tensors[0].grad_fn)
g, = torch.autograd.grad(out, x, torch.ones_like(out), create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions)
g.sum().backward()
print(x.grad)
"""

PROGRAMS['dbl_sinh_intermediates_as_outputs'] = PRE + r"""
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
x = torch.tensor([-1., 0., 0.75], requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))
outs = Sinh.apply(x)
print([o.grad_fn for o in outs], [o.grad_fn is outs[0].grad_fn for o in outs])
print(outs[0])
g, = torch.autograd.grad(outs[0].sum(), x, create_graph=True)
print(g, torch.allclose(g, torch.cosh(x)))
h, = torch.autograd.grad(g.sum(), x)
print(h, torch.allclose(h, torch.sinh(x)))
"""

PROGRAMS['dbl_sinh_bad_saves_on_ctx'] = PRE + r"""
class SinhBad(torch.autograd.Function):
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
x = torch.tensor([0.2, -0.4], requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(SinhBad.apply, x))
out = SinhBad.apply(x)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn)
ok = torch.autograd.gradgradcheck(SinhBad.apply, x, raise_exception=False)
print(ok)
"""

PROGRAMS['dbl_cube_backward_is_a_function'] = PRE + r"""
def _cube_forward(x):
    return x**3
def _cube_backward(grad_out, x):
    return grad_out * 3 * x**2
def _cube_backward_backward(grad_out, sav_grad_out, x):
    return grad_out * sav_grad_out * 6 * x
def _cube_backward_backward_grad_out(grad_out, x):
    return grad_out * 3 * x**2
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _cube_forward(x)
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)
class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return _cube_backward(grad_out, x)
    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dx = _cube_backward_backward(grad_out, sav_grad_out, x)
        dgrad_out = _cube_backward_backward_grad_out(grad_out, x)
        return dgrad_out, dx
x = torch.tensor(2., requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Cube.apply, x), torch.autograd.gradgradcheck(Cube.apply, x))
y = Cube.apply(x)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
h, = torch.autograd.grad(g, x, create_graph=True)
print(h, h.grad_fn)
k, = torch.autograd.grad(h, x, allow_unused=True)
print(k)
"""

# ---- "Forward-mode Automatic Differentiation"

PROGRAMS['fwd_basic_dual_float64_and_plain_tensors'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
torch.manual_seed(7)
primal = torch.randn(4, 4, dtype=torch.float64)
tangent = torch.randn(4, 4, dtype=torch.float64)
def fn(x, y):
    return x ** 2 + y
y = torch.ones(4, 4, dtype=torch.float64)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is tangent.T, fwAD.unpack_dual(dual_input_alt).tangent.stride())
    plain_tensor = torch.randn(4, 4, dtype=torch.float64)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(torch.allclose(jvp, 2 * primal * tangent))
    u = fwAD.unpack_dual(dual_output)
    print(type(u).__name__, u._fields, u.primal.shape)
    print(fwAD.unpack_dual(plain_tensor))
    print(fwAD.unpack_dual(dual_output).tangent.dtype)
print(fwAD.unpack_dual(dual_output).tangent)
"""

PROGRAMS['fwd_make_dual_errors_students_hit'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
x = torch.ones(3)
E(lambda: fwAD.make_dual(x, torch.ones(3)))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(x, torch.ones(2)))
    E(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 1])))
    d = fwAD.make_dual(x, torch.full((3,), 2.))
    E(lambda: fwAD.make_dual(d, torch.ones(3)))
    print(d.requires_grad, d.is_leaf)
    E(lambda: fwAD.dual_level().__enter__())
print(fwAD.unpack_dual(d))
"""

PROGRAMS['fwd_modules_make_dual_params_linear'] = PRE + r"""
import torch.nn as nn
import torch.autograd.forward_ad as fwAD
torch.manual_seed(8)
model = nn.Linear(5, 3)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp.shape)
expected = input @ tangents['weight'].T + tangents['bias']
print(torch.allclose(jvp, expected, atol=1e-6))
print(type(model.weight).__name__, model.weight.requires_grad, list(dict(model.named_parameters())))
"""

PROGRAMS['fwd_modules_functional_call_dual'] = PRE + r"""
import torch.nn as nn
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(9)
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh())
input = torch.randn(2, 4)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.ones_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp = fwAD.unpack_dual(out).tangent
    prim = fwAD.unpack_dual(out).primal
print(jvp.shape, prim.requires_grad, prim.grad_fn)
print(torch.allclose(jvp, (1 - prim ** 2) * (input.sum(1, keepdim=True) + 1)))
print(model[0].weight.requires_grad, type(model[0].weight).__name__)
"""

PROGRAMS['fwd_custom_function_jvp_exp'] = PRE + r"""
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
torch.manual_seed(10)
primal = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
tangent = torch.randn(3, 3, dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp, tangent * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False))
E(lambda: Fn.apply(primal).sum().backward())
"""

PROGRAMS['fwd_custom_function_no_jvp_error'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
class OnlyBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.tensor([1., 2.])
print(OnlyBackward.apply(x))
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: OnlyBackward.apply(d))
class WrongJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def jvp(ctx, t):
        return t[:1]
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: WrongJvp.apply(d))
"""

PROGRAMS['fwd_functorch_jvp_two_inputs_errors'] = PRE + r"""
import torch.func as ft
torch.manual_seed(11)
primal0 = torch.randn(5)
tangent0 = torch.randn(5)
primal1 = torch.randn(5)
tangent1 = torch.randn(5)
def fn(x, y):
    return x ** 2 + y ** 2
primal_out, tangent_out = ft.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(torch.allclose(tangent_out, 2 * primal0 * tangent0 + 2 * primal1 * tangent1))
print(primal_out.requires_grad, tangent_out.grad_fn)
out, jt = ft.jvp(torch.sin, (primal0,), (tangent0,))
print(torch.allclose(jt, torch.cos(primal0) * tangent0), torch.equal(out, primal0.sin()))
E(lambda: ft.jvp(fn, (primal0,), (tangent0,)))
E(lambda: ft.jvp(fn, (primal0, primal1), (tangent0, tangent1[:3])))
E(lambda: ft.jvp(fn, [primal0, primal1], [tangent0, tangent1]))
E(lambda: ft.jvp(fn, (primal0, primal1), tangent0))
"""

PROGRAMS['fwd_functorch_jvp_functional_call_model'] = PRE + r"""
import torch.nn as nn
import torch.func as ft
from torch.func import functional_call
torch.manual_seed(12)
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
tangents = tuple([torch.rand_like(p) for p in model.parameters()])
def func(params):
    return functional_call(model, params, input)
params = dict(model.named_parameters())
E(lambda: ft.jvp(func, (params,), (tangents,)))
tangent_dict = dict(zip(params.keys(), tangents))
primal_out, jvp_out = ft.jvp(func, (params,), (tangent_dict,))
print(jvp_out.shape, torch.allclose(jvp_out, input @ tangents[0].T + tangents[1], atol=1e-6))
def func2(weight, bias):
    return functional_call(model, {'weight': weight, 'bias': bias}, (input,))
_, j2 = ft.jvp(func2, (model.weight, model.bias), tangents)
print(torch.equal(j2, jvp_out))
"""


# ---- "Jacobians, Hessians, hvp, vhp, and more"

PROGRAMS['jac_predict_jacrev_vs_vjp_rows'] = PRE + r"""
import torch.nn.functional as F
from functools import partial
from torch.func import jacrev, vjp, vmap
torch.manual_seed(13)
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
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
print(torch.allclose(ft_jacobian, jacobian))
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(ft_jacobian, jacobian))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(torch.allclose(ft_jac_bias, torch.diag(1 - predict(weight, bias, x) ** 2)))
"""

PROGRAMS['jac_jacfwd_vs_jacrev_wide_and_tall'] = PRE + r"""
import torch.nn.functional as F
from torch.func import jacrev, jacfwd
torch.manual_seed(14)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
for Din, Dout in [(6, 2), (2, 6)]:
    weight = torch.randn(Dout, Din, dtype=torch.float64)
    bias = torch.randn(Dout, dtype=torch.float64)
    x = torch.randn(Din, dtype=torch.float64)
    r = jacrev(predict, argnums=2)(weight, bias, x)
    f = jacfwd(predict, argnums=2)(weight, bias, x)
    print(Din, Dout, r.shape, f.shape, torch.allclose(r, f))
    rw = jacrev(predict)(weight, bias, x)
    fw = jacfwd(predict)(weight, bias, x)
    print(rw.shape, torch.allclose(rw, fw))
E(lambda: jacfwd(predict, argnums=3)(weight, bias, x))
E(lambda: jacrev(predict, argnums=(0, 0))(weight, bias, x))
E(lambda: jacrev(predict, argnums=())(weight, bias, x))
"""

PROGRAMS['jac_hessian_hvp_composed'] = PRE + r"""
from torch.func import hessian, jacfwd, jacrev, jvp, grad, vjp
torch.manual_seed(15)
def f(x):
    return x.sin().sum() + (x ** 3).sum() / 3
x = torch.randn(4, dtype=torch.float64)
h1 = hessian(f)(x)
h2 = jacfwd(jacfwd(f))(x)
h3 = jacrev(jacrev(f))(x)
print(torch.allclose(h1, h2), torch.allclose(h1, h3))
print(torch.allclose(h1, torch.diag(-x.sin() + 2 * x)))
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
v = torch.ones(4, dtype=torch.float64)
print(torch.allclose(hvp(f, (x,), (v,)), h1 @ v))
def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)
print(torch.allclose(hvp_revrev(f, (x,), (v,))[0], h1 @ v))
E(lambda: hessian(lambda x: x.sin())(x).shape)
print(hessian(lambda x: x.sin())(x).shape)
"""

PROGRAMS['jac_batch_jacobian_vmap_and_sum_trick'] = PRE + r"""
import torch.nn.functional as F
from torch.func import jacrev, vmap
torch.manual_seed(16)
batch_size = 3
feature_size = 4
weight = torch.randn(feature_size, feature_size)
bias = torch.randn(feature_size)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
x = torch.randn(batch_size, feature_size, requires_grad=True)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
print(batch_jacobian0.shape, batch_jacobian0.requires_grad)
def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)
batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(batch_jacobian1.shape, torch.allclose(batch_jacobian0, batch_jacobian1))
E(lambda: vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, x[:, :2].contiguous()).shape)
E(lambda: vmap(predict, in_dims=(None, None, 0))(weight, bias, x[:, :3].contiguous()).shape)
E(lambda: vmap(predict, in_dims=(None, 0, 0))(weight, bias[None].expand(3, 4)[:, :2], x).shape)
E(lambda: vmap(jacrev(predict, argnums=2), in_dims=(None, 0))(weight, bias, x))
"""

PROGRAMS['jac_batch_hessian_vmap'] = PRE + r"""
import torch.nn.functional as F
from torch.func import hessian, vmap
torch.manual_seed(17)
Din, Dout, B = 3, 2, 4
weight = torch.randn(Dout, Din, dtype=torch.float64)
bias = torch.randn(Dout, dtype=torch.float64)
x = torch.randn(B, Din, dtype=torch.float64)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape)
h0 = hessian(predict, argnums=2)(weight, bias, x[0])
print(torch.allclose(batch_hess[0], h0))
y = predict(weight, bias, x[0])
manual = torch.einsum('o,oi,oj->oij', -2 * y * (1 - y ** 2), weight, weight)
print(torch.allclose(h0, manual))
"""

PROGRAMS['jac_autograd_functional_jacobian_options'] = PRE + r"""
from torch.autograd.functional import jacobian
torch.manual_seed(18)
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True).grad_fn)
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
j = jacobian(exp_adder, inputs)
print(type(j).__name__, len(j), j[1])
print(jacobian(exp_adder, inputs, vectorize=True)[0].shape)
print(torch.allclose(jacobian(exp_adder, inputs, vectorize=True, strategy='forward-mode')[0], j[0]))
E(lambda: jacobian(exp_adder, inputs, strategy='forward-mode'))
E(lambda: jacobian(exp_adder, inputs, strategy='sideways'))
E(lambda: jacobian(exp_adder, inputs, strict=True, vectorize=True))
"""

PROGRAMS['jac_autograd_functional_strict_independent'] = PRE + r"""
from torch.autograd.functional import jacobian, hessian, vjp, jvp
def indep(x):
    return torch.ones(3)
def partly(x, y):
    return x * 2
x = torch.rand(2)
y = torch.rand(2)
print(jacobian(indep, x))
E(lambda: jacobian(indep, x, strict=True))
print(jacobian(partly, (x, y))[1])
E(lambda: jacobian(partly, (x, y), strict=True))
E(lambda: vjp(lambda x: x.detach() * 2, x, torch.ones(2), strict=True))
print(vjp(lambda x: x.detach() * 2, x, torch.ones(2)))
E(lambda: jvp(lambda x: x.sum(), x, torch.ones(3)))
E(lambda: hessian(lambda x: x, x))
"""

PROGRAMS['jac_autograd_functional_vjp_jvp_hvp_vhp'] = PRE + r"""
from torch.autograd.functional import vjp, jvp, hvp, vhp
def pow_reducer(x):
    return x.pow(3).sum()
x = torch.tensor([[1., -0.5], [2., 0.25]])
v = torch.tensor([[1., 1.], [0., 2.]])
print(vjp(pow_reducer, x))
print(jvp(pow_reducer, x, v))
print(hvp(pow_reducer, x, v))
print(vhp(pow_reducer, x, v))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
out, res = hvp(pow_adder_reducer, inputs, v)
print(res)
out, res = vhp(pow_adder_reducer, inputs, v, create_graph=True)
print(res[1].requires_grad, res[1].grad_fn)
E(lambda: hvp(pow_adder_reducer, inputs))
E(lambda: vhp(lambda x: x * 2, torch.ones(2), torch.ones(2)))
"""

PROGRAMS['jac_autograd_functional_hessian_options'] = PRE + r"""
from torch.autograd.functional import hessian
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
h = hessian(pow_adder_reducer, inputs)
print(type(h).__name__, len(h), type(h[0]).__name__)
print(h[0][0], h[1][1], h[0][1])
hv = hessian(pow_adder_reducer, inputs, vectorize=True)
print(torch.equal(hv[1][1], h[1][1]))
ho = hessian(pow_adder_reducer, inputs, vectorize=True, outer_jacobian_strategy='forward-mode')
print(torch.equal(ho[0][0], h[0][0]))
E(lambda: hessian(pow_adder_reducer, inputs, outer_jacobian_strategy='forward-mode'))
print(hessian(lambda x: x.pow(4).sum(), torch.tensor([1., -1., 2.])))
print(hessian(lambda x: x.pow(4).sum(), torch.tensor([1., 2.]), create_graph=True).grad_fn.name())
"""

# ---- "Per-sample gradients" and "Model ensembling"

PROGRAMS['persample_loop_vs_vmap_grad_mlp'] = PRE + r"""
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(19)
class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)
    def forward(self, x):
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)
model = SimpleMLP()
def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)
batch_size = 5
data = torch.randn(batch_size, 6)
targets = torch.randint(3, (batch_size,))
def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))
per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
per_sample_grads = zip(*per_sample_grads)
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    print(per_sample_grad.shape, torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5))
print(list(ft_per_sample_grads))
"""

PROGRAMS['persample_mean_of_persample_equals_batch_grad'] = PRE + r"""
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(20)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
data = torch.randn(6, 3, dtype=torch.float64)
target = torch.randn(6, 1, dtype=torch.float64)
model = model.double()
params = {k: v.detach() for k, v in model.named_parameters()}
def loss_one(params, x, y):
    return F.mse_loss(functional_call(model, params, (x.unsqueeze(0),)), y.unsqueeze(0))
g = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, data, target)
print({k: tuple(v.shape) for k, v in g.items()})
F.mse_loss(model(data), target).backward()
for k, p in model.named_parameters():
    print(k, torch.allclose(g[k].mean(0), p.grad))
E(lambda: vmap(grad(loss_one), in_dims=(None, 0))(params, data, target))
E(lambda: vmap(grad(loss_one), in_dims=(None, 0, 1))(params, data, target))
"""

PROGRAMS['ensemble_stack_module_state_vmap'] = PRE + r"""
import copy
import torch.nn as nn
import torch.nn.functional as F
from torch.func import stack_module_state, functional_call, vmap
torch.manual_seed(21)
class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 7)
        self.fc2 = nn.Linear(7, 3)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
num_models = 4
data = torch.randn(6, 2, 5)
minibatches = data[:num_models]
models = [SimpleMLP() for _ in range(num_models)]
minibatch = data[0]
predictions1 = [model(minibatch) for model in models]
predictions2 = [model(minibatch) for model, minibatch in zip(models, minibatches)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
print(params['fc1.weight'].requires_grad, params['fc1.weight'].is_leaf)
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')
def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))
predictions1_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(predictions1_vmap.shape, torch.allclose(predictions1_vmap, torch.stack(predictions1), atol=1e-6))
predictions2_vmap = vmap(fmodel)(params, buffers, minibatches)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-6))
print(base_model.fc1.weight.device, base_model.fc1.weight.is_meta)
"""

PROGRAMS['ensemble_randomness_dropout_modes'] = PRE + r"""
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap
torch.manual_seed(22)
models = [nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5)) for _ in range(2)]
params, buffers = stack_module_state(models)
base = models[0]
def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))
x = torch.ones(4, 3)
E(lambda: vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x))
out = vmap(fmodel, in_dims=(0, 0, None), randomness='different')(params, buffers, x)
print(out.shape)
out = vmap(fmodel, in_dims=(0, 0, None), randomness='same')(params, buffers, x)
print(out.shape, torch.equal(out[0] == 0, out[1] == 0))
E(lambda: vmap(fmodel, in_dims=(0, 0, None), randomness='sometimes')(params, buffers, x))
base.eval()
print(torch.allclose(vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)[0], models[0](x)))
"""

PROGRAMS['ensemble_stack_module_state_errors'] = PRE + r"""
import torch.nn as nn
from torch.func import stack_module_state
torch.manual_seed(23)
E(lambda: stack_module_state([]))
E(lambda: stack_module_state([nn.Linear(2, 2), nn.Linear(2, 3)]))
a, b = nn.Linear(2, 2), nn.Linear(2, 2)
a.train(); b.eval()
E(lambda: stack_module_state([a, b]))
m1, m2 = nn.BatchNorm1d(3), nn.BatchNorm1d(3)
p, bufs = stack_module_state([m1, m2])
print(sorted(p), sorted(bufs), bufs['num_batches_tracked'])
print(bufs['running_mean'].requires_grad, p['weight'].requires_grad)
"""


# ---- "Extending PyTorch": Function with setup_context, LinearFunction, MulConstant, mark_non_differentiable

PROGRAMS['ext_linear_function_setup_context_gradcheck'] = PRE + r"""
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
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        print('needs', ctx.needs_input_grad)
        return grad_input, grad_weight, grad_bias
torch.manual_seed(24)
input = (torch.randn(5, 4, dtype=torch.double, requires_grad=True), torch.randn(3, 4, dtype=torch.double, requires_grad=True))
test = torch.autograd.gradcheck(lambda i, w: LinearFunction.apply(i, w, None), input, eps=1e-6, atol=1e-4)
print(test)
x = torch.randn(2, 4)
w = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3)
y = LinearFunction.apply(x, w, b)
print(y.grad_fn, y.shape)
y.sum().backward()
print(w.grad.shape, torch.allclose(w.grad, x.sum(0).expand(3, 4)))
"""

PROGRAMS['ext_linear_function_combined_forward_ctx'] = PRE + r"""
class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
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
        return grad_input, grad_weight, grad_bias
linear = LinearFunction.apply
class MyLinear(torch.nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = torch.nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)
    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)
    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(2, 3, self.bias is not None)
torch.manual_seed(25)
m = MyLinear(2, 3)
print(m)
print(MyLinear(2, 3, bias=False))
out = m(torch.ones(4, 2))
print(out.grad_fn.name(), out.grad_fn.next_functions)
out.pow(2).mean().backward()
print(m.weight.grad, m.bias.grad)
E(lambda: m(torch.ones(4, 3)))
"""

PROGRAMS['ext_mulconstant_non_tensor_arg'] = PRE + r"""
class MulConstant(torch.autograd.Function):
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
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = MulConstant.apply(x, 2.5)
print(y, y.grad_fn.name())
y.backward(torch.tensor([1., 0., -1.]))
print(x.grad)
z = MulConstant.apply(x, torch.tensor(3.))
print(z.grad_fn.next_functions)
class MulConstantBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant
x.grad = None
E(lambda: MulConstantBad.apply(x, 2.).sum().backward())
class MulConstantGradForConst(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, torch.ones(1)
E(lambda: MulConstantGradForConst.apply(x, 2.).sum().backward())
print(x.grad)
"""

PROGRAMS['ext_sort_mark_non_differentiable'] = PRE + r"""
class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx
    @staticmethod
    def backward(ctx, g1, g2):
        x, idx = ctx.saved_tensors
        print('g2', g2)
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input
x = torch.tensor([3., -1., 2., 0.5], requires_grad=True)
a, b = Sort.apply(x)
print(a, b)
print(a.requires_grad, b.requires_grad, b.grad_fn, a.grad_fn.name())
(a * torch.arange(4.)).sum().backward()
print(x.grad)
E(lambda: b.sum().backward())
E(lambda: torch.autograd.grad(a.sum() + b.sum(), x))
"""

PROGRAMS['ext_mark_non_differentiable_float_output'] = PRE + r"""
class WithMask(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        mask = (x > 0).to(x.dtype)
        ctx.mark_non_differentiable(mask)
        ctx.save_for_backward(mask)
        return x * mask, mask
    @staticmethod
    def backward(ctx, g, gmask):
        mask, = ctx.saved_tensors
        print('gmask', gmask)
        return g * mask
x = torch.tensor([-1., 2., 0., 3.], requires_grad=True)
y, m = WithMask.apply(x)
print(m.requires_grad, m.grad_fn, m.is_leaf)
(y.sum() + m.sum()).backward()
print(x.grad)
class Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('g1', g1, 'g2', g2)
        return g1 if g2 is None else g1 + g2
x.grad = None
p, q = Once.apply(x)
p.sum().backward()
print(x.grad)
"""

PROGRAMS['ext_function_vmap_generate_rule_and_errors'] = PRE + r"""
from torch.func import vmap, grad
class MyCube(torch.autograd.Function):
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
        result = grad_output * dx + grad_dx * 6 * x
        return result
def my_cube(x):
    result, _ = MyCube.apply(x)
    return result
x = torch.tensor([1., -2., 0.5])
print(vmap(my_cube)(x))
print(grad(my_cube)(torch.tensor(2.)))
print(grad(grad(my_cube))(torch.tensor(2.)))
print(vmap(grad(my_cube))(x))
class NoRule(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: vmap(NoRule.apply)(x))
class OldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: vmap(OldStyle.apply)(x))
E(lambda: grad(lambda t: OldStyle.apply(t).sum())(x))
"""

PROGRAMS['ext_function_forward_ad_setup_context_jvp'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, jacfwd
class Mul2(torch.autograd.Function):
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
x = torch.tensor([1., 2.])
y = torch.tensor([3., -1.])
print(jvp(Mul2.apply, (x, y), (torch.ones(2), torch.zeros(2))))
E(lambda: jacfwd(Mul2.apply, argnums=(0, 1))(x, y))
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 1.]))
    out = Mul2.apply(d, y)
    print(fwAD.unpack_dual(out))
    out2 = Mul2.apply(d, d)
    print(fwAD.unpack_dual(out2).tangent)
"""

PROGRAMS['ext_function_save_for_backward_errors'] = PRE + r"""
class SaveNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.ones(2, requires_grad=True)
E(lambda: SaveNonTensor.apply(x))
class SaveNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print(a, b)
        return g * 2
SaveNone.apply(x).sum().backward()
print(x.grad)
class ReturnsWrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: ReturnsWrongCount.apply(x, x).sum().backward())
class ReturnsWrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return g.expand(3)
E(lambda: ReturnsWrongShape.apply(x).backward())
E(lambda: SaveNone(x))
E(lambda: SaveNone.forward(None, x))
"""

# ---- torch.autograd.graph: Node API, GradientEdge, versions, multi-grad hooks, mutation on saved tensors

PROGRAMS['graph_node_name_metadata_next_functions'] = PRE + r"""
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.exp()
c = (b * a).sum()
fn = c.grad_fn
print(fn.name(), fn.metadata, type(fn.metadata).__name__)
fn.metadata['tag'] = 'loss'
print(c.grad_fn.metadata)
print(fn.next_functions)
mul = fn.next_functions[0][0]
print(mul.name(), [(n.name() if n else None, i) for n, i in mul.next_functions])
acc = mul.next_functions[1][0]
print(acc.name(), acc.variable is a, acc.next_functions, acc.metadata)
print(isinstance(fn, torch.autograd.graph.Node), issubclass(type(acc), torch.autograd.graph.Node))
print(b.grad_fn.next_functions[0][0] is acc)
print(hasattr(fn, 'register_hook'), hasattr(fn, 'register_prehook'), fn._sequence_nr() > mul._sequence_nr())
"""

PROGRAMS['graph_node_register_hook_and_prehook_change_grads'] = PRE + r"""
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 3
c = b.pow(2).sum()
order = []
def pre(grad_outputs):
    order.append(('pre', grad_outputs[0].tolist()))
    return (grad_outputs[0] * 10,)
def post(grad_inputs, grad_outputs):
    order.append(('post', [None if g is None else g.tolist() for g in grad_inputs], [g.tolist() for g in grad_outputs]))
    return (grad_inputs[0] + 1,) + grad_inputs[1:]
h1 = b.grad_fn.register_prehook(pre)
h2 = b.grad_fn.register_hook(post)
print(type(h1).__name__, type(h2).__name__)
c.backward(retain_graph=True)
print(order, a.grad)
h1.remove()
order.clear()
a.grad = None
c.backward(retain_graph=True)
print(order, a.grad)
h2.remove()
a.grad = None
c.backward()
print(a.grad)
E(lambda: b.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0], gi[0])) and None)
"""

PROGRAMS['graph_gradient_edge_grad_wrt_intermediate'] = PRE + r"""
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([0.5, -1., 2.], requires_grad=True)
h = x.tanh()
y = (h * h).sum()
edge = get_gradient_edge(h)
print(type(edge).__name__, edge.node.name(), edge.output_nr)
gh, = torch.autograd.grad(y, edge, retain_graph=True)
print(gh, torch.allclose(gh, 2 * h))
gx, = torch.autograd.grad(y, get_gradient_edge(x), retain_graph=True)
print(gx)
print(get_gradient_edge(x).node.name(), get_gradient_edge(x).node.variable is x)
u, v = x.unbind()[:2]
print(get_gradient_edge(u).output_nr, get_gradient_edge(v).output_nr, get_gradient_edge(v).node.name())
E(lambda: get_gradient_edge(torch.ones(2)))
g, = torch.autograd.grad(y, [edge], grad_outputs=torch.tensor(2.))
print(g)
"""

PROGRAMS['graph_increment_version_and_saved_check'] = PRE + r"""
from torch.autograd.graph import increment_version
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
z = y.exp()
print(y._version)
increment_version(y)
print(y._version)
E(lambda: z.sum().backward())
w = torch.zeros(3)
increment_version(w)
increment_version([w, w])
print(w._version)
v = w[1:]
increment_version(v)
print(w._version, v._version)
E(lambda: increment_version(3))
with torch.inference_mode():
    t = torch.ones(2)
increment_version(t)
print(t.is_inference())
"""

PROGRAMS['graph_multi_grad_hook_all_and_any'] = PRE + r"""
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
c = torch.tensor(4., requires_grad=True)
seen = []
def all_hook(grads):
    seen.append(('all', [None if g is None else g.item() for g in grads]))
def any_hook(grad):
    seen.append(('any', grad.item()))
h = register_multi_grad_hook((a, b, c), all_hook)
h2 = register_multi_grad_hook((a, b), any_hook, mode="any")
(a * b).backward()
print(seen)
seen.clear()
(b * c * 2).backward()
print(seen)
h.remove(); h2.remove()
seen.clear()
(a + b + c).backward()
print(seen)
print(type(h).__name__)
E(lambda: register_multi_grad_hook((a, b), all_hook, mode="some"))
E(lambda: register_multi_grad_hook((a, torch.ones(1)), all_hook))
"""

PROGRAMS['graph_allow_mutation_on_saved_tensors_sin'] = PRE + r"""
import torch.autograd.graph as G
with G.allow_mutation_on_saved_tensors():
    a = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.backward()
    print(a.grad)
    c = a * 1
    d = c.exp()
    c.add_(5)
    d.sum().backward()
    print(a.grad, c)
a = torch.tensor([0.5, 1.0], requires_grad=True)
b = a.clone()
out = (b ** 2).sum()
b.sin_()
E(lambda: out.backward())
with G.allow_mutation_on_saved_tensors() as ctx:
    x = torch.ones(2, requires_grad=True) * 2
    y = x.pow(3)
print(type(ctx).__name__)
E(lambda: y.sum().backward())
"""

PROGRAMS['graph_disable_saved_tensors_hooks_messages'] = PRE + r"""
import torch.autograd.graph as G
with G.disable_saved_tensors_hooks("saving is off for this test"):
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    print(y.grad_fn.name())
    E(lambda: G.save_on_cpu().__enter__())
    try:
        with G.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as e:
        print('RuntimeError', e)
    with G.disable_saved_tensors_hooks("inner message"):
        E(lambda: G.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    E(lambda: G.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    E(lambda: G.disable_saved_tensors_hooks("late").__enter__())
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    pass
print('ok')
"""


# ---- torch.utils.checkpoint

PROGRAMS['ckpt_reentrant_true_false_same_grads'] = PRE + r"""
from torch.utils.checkpoint import checkpoint
import torch.nn as nn
torch.manual_seed(26)
block = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(3, 4, requires_grad=True)
ref = block(x).sum()
ref.backward()
gx, gw = x.grad.clone(), block[0].weight.grad.clone()
for reentrant in (True, False):
    x.grad = None
    block.zero_grad()
    out = checkpoint(block, x, use_reentrant=reentrant)
    print(reentrant, out.grad_fn.name() if out.grad_fn else None, out.requires_grad)
    out.sum().backward()
    print(torch.allclose(x.grad, gx), torch.allclose(block[0].weight.grad, gw))
"""

PROGRAMS['ckpt_default_use_reentrant_error'] = PRE + r"""
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
def f(x):
    return x.sin() * 2
x = torch.tensor([0.1, 0.2], requires_grad=True)
E(lambda: checkpoint(f, x))
out = checkpoint(f, x, use_reentrant=False)
out.sum().backward()
print(x.grad)
import torch.nn as nn
seq = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.ReLU())
E(lambda: checkpoint_sequential(seq, 2, x))
y = checkpoint_sequential(seq, 2, x, use_reentrant=False)
print(y)
E(lambda: checkpoint(f, x, use_reentrant=False, bogus=1))
"""

PROGRAMS['ckpt_reentrant_no_input_requires_grad_warning'] = PRE + r"""
from torch.utils.checkpoint import checkpoint
import torch.nn as nn
torch.manual_seed(27)
lin = nn.Linear(3, 1)
x = torch.randn(2, 3)
out = checkpoint(lin, x, use_reentrant=True)
print(out.requires_grad, out.grad_fn)
E(lambda: out.sum().backward())
print(lin.weight.grad)
out = checkpoint(lin, x, use_reentrant=False)
print(out.requires_grad, out.grad_fn is not None)
out.sum().backward()
print(lin.weight.grad)
"""

PROGRAMS['ckpt_reentrant_autograd_grad_error'] = PRE + r"""
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
out = checkpoint(lambda t: t.exp(), x, use_reentrant=True)
E(lambda: torch.autograd.grad(out.sum(), x))
out = checkpoint(lambda t: t.exp(), x, use_reentrant=False)
print(torch.autograd.grad(out.sum(), x))
out = checkpoint(lambda t: t.exp(), x, use_reentrant=False)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g.grad_fn is not None)
print(torch.autograd.grad(g.sum(), x))
"""

PROGRAMS['ckpt_recompute_counts_and_kwargs'] = PRE + r"""
from torch.utils.checkpoint import checkpoint
calls = []
def f(x, scale=1.0):
    calls.append(scale)
    return (x * scale).cos()
x = torch.tensor([0.3, -0.7], requires_grad=True)
out = checkpoint(f, x, use_reentrant=False, scale=3.0)
print(calls)
out.sum().backward()
print(calls, x.grad)
calls.clear()
E(lambda: checkpoint(f, x, use_reentrant=True, scale=2.0))
out = checkpoint(f, x, 2.0, use_reentrant=True)
out.sum().backward()
print(calls)
"""

PROGRAMS['ckpt_preserve_rng_state_dropout'] = PRE + r"""
from torch.utils.checkpoint import checkpoint
import torch.nn.functional as F
torch.manual_seed(28)
x = torch.ones(8, requires_grad=True)
def f(t):
    return F.dropout(t, 0.5, training=True) * 2
torch.manual_seed(1)
out = checkpoint(f, x, use_reentrant=False)
out.sum().backward()
print(out, x.grad)
print(torch.equal(x.grad, (out != 0).float() * 4))
x.grad = None
torch.manual_seed(1)
out = checkpoint(f, x, use_reentrant=True, preserve_rng_state=True)
out.sum().backward()
print(torch.equal(x.grad, (out != 0).float() * 4))
"""

# ---- "Autograd mechanics": more of its sections (non-differentiable points, hooks order, in-place hooks)

PROGRAMS['mech_nondiff_points_subgradients'] = PRE + r"""
x = torch.tensor([0., 1., -1.], requires_grad=True)
for name, f in [('relu', torch.relu), ('abs', torch.abs), ('sqrt', torch.sqrt), ('sign', torch.sign),
                ('clamp', lambda t: t.clamp(0, 1)), ('norm', lambda t: (t * torch.tensor([1., 0., 0.])).norm()),
                ('hardtanh', lambda t: torch.nn.functional.hardtanh(t)), ('floor', torch.floor)]:
    x.grad = None
    f(x).sum().backward()
    print(name, x.grad)
y = torch.tensor([2., 2., 1.], requires_grad=True)
y.max().backward()
print(y.grad)
y.grad = None
y.amax().backward()
print(y.grad)
z = torch.zeros(2, requires_grad=True)
torch.linalg.vector_norm(z).backward()
print(z.grad)
"""

PROGRAMS['mech_hooks_execution_order_all_kinds'] = PRE + r"""
log = []
a = torch.tensor([1., 2.], requires_grad=True)
a.register_hook(lambda g: log.append(('leaf tensor hook', g.tolist())))
a.register_post_accumulate_grad_hook(lambda p: log.append(('post acc', p.grad.tolist())))
b = a * 2
b.register_hook(lambda g: log.append(('b tensor hook', g.tolist())))
b.retain_grad()
b.grad_fn.register_prehook(lambda go: log.append(('b node prehook', go[0].tolist())))
b.grad_fn.register_hook(lambda gi, go: log.append(('b node hook', gi[0].tolist())))
b.register_hook(lambda g: g * 10)
c = b.sum()
c.backward()
for entry in log:
    print(entry)
print(b.grad, a.grad)
"""

PROGRAMS['mech_tensor_hook_after_inplace'] = PRE + r"""
t = torch.tensor(1., requires_grad=True).clone()
t.register_hook(lambda grad: print('old hook', grad) or grad * 2)
t.mul_(3)
t.register_hook(lambda grad: print('new hook', grad) or grad)
t.backward()
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
y.retain_grad()
y.add_(1)
(y * 3).sum().backward()
print(y.grad, x.grad, y.grad_fn)
"""

PROGRAMS['mech_hook_fire_conditions'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = x * 3
y.register_hook(lambda g: print('y hook', g))
z.register_hook(lambda g: print('z hook', g))
x.register_hook(lambda g: print('x hook', g))
print(torch.autograd.grad(z.sum(), x))
print(torch.autograd.grad(y.sum() + z.sum(), z))
out = (y * z).sum()
out.backward(inputs=[y])
print(y.grad, x.grad)
"""

PROGRAMS['mech_saved_hooks_torch_save_bytesio'] = PRE + r"""
import io
buffers = []
def pack_hook(t):
    buf = io.BytesIO()
    torch.save(t, buf)
    buffers.append(buf)
    return len(buffers) - 1
def unpack_hook(i):
    buffers[i].seek(0)
    return torch.load(buffers[i], weights_only=True)
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([[0.5], [-1.]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = (x @ w).tanh().sum()
print(len(buffers), y)
y.backward()
print(x.grad, w.grad)
"""

PROGRAMS['mech_grad_modes_table'] = PRE + r"""
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    a = x * 2
with torch.inference_mode():
    b = x * 2
with torch.set_grad_enabled(False):
    c = x * 2
with torch.enable_grad():
    d = x * 2
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad)
print(a.is_inference(), b.is_inference(), torch.is_inference_mode_enabled())
E(lambda: b.requires_grad_())
E(lambda: (b * x).sum().backward())
E(lambda: b.add_(1))
model = torch.nn.Dropout(0.5)
model.eval()
print(model.training, model(torch.ones(3)))
@torch.no_grad()
def f(t):
    return t * 2
print(f(x).requires_grad, f.__name__)
"""

PROGRAMS['mech_complex_gradcheck_and_view_as_real'] = PRE + r"""
def f(z):
    return (z * z.conj() + z.exp()).abs()
z = torch.tensor([0.5+0.5j, -1+0.25j], dtype=torch.complex128, requires_grad=True)
print(torch.autograd.gradcheck(f, z))
print(torch.autograd.gradgradcheck(f, z))
r = torch.view_as_real(z)
print(r.grad_fn, r.shape)
(r ** 2).sum().backward()
print(z.grad)
z.grad = None
torch.view_as_complex(torch.tensor([[1., 2.]], requires_grad=True)).abs().sum().backward()
w = torch.tensor([[3., 4.]], requires_grad=True)
c = torch.view_as_complex(w)
c.abs().sum().backward()
print(w.grad)
"""


# ---- more torch.func from the tutorials: has_aux, chunk_size, grad_and_value, functional_call options

PROGRAMS['func_persample_tiny_cnn'] = PRE + r"""
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(29)
class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3, 1)
        self.fc1 = nn.Linear(2 * 2 * 2, 3)
    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc1(x), dim=1)
model = SimpleCNN()
data = torch.randn(4, 1, 6, 6)
targets = torch.tensor([0, 2, 1, 2])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(predictions, target.unsqueeze(0))
g = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for i in range(4):
    model.zero_grad()
    F.nll_loss(model(data[i:i+1]), targets[i:i+1]).backward()
    print(i, all(torch.allclose(g[k][i], p.grad, atol=1e-6) for k, p in model.named_parameters()))
print({k: tuple(v.shape) for k, v in g.items()})
"""

PROGRAMS['func_grad_has_aux_and_grad_and_value'] = PRE + r"""
from torch.func import grad, grad_and_value, vjp, jacrev
x = torch.tensor([0.5, -1.5, 2.0])
def f(x):
    y = x.sin()
    return y.sum(), {'y': y, 'c': y.cos()}
g, aux = grad(f, has_aux=True)(x)
print(g, aux['y'], aux['c'], aux['y'].requires_grad)
(g2, (v, aux2)) = grad_and_value(f, has_aux=True)(x)
print(torch.equal(g, g2), v, sorted(aux2))
E(lambda: grad(lambda x: (x.sum(), {'n': 3}), has_aux=True)(x))
E(lambda: grad(f)(x))
E(lambda: grad(lambda x: x.sin())(x))
E(lambda: grad(lambda x: (x.sum(), 1, 2), has_aux=True)(x))
E(lambda: vjp(lambda x: (x.exp(), x.shape), x, has_aux=True))
out, fn, aux = vjp(lambda x: (x.exp(), x.sum()), x, has_aux=True)
print(fn(torch.ones(3)), aux)
j, a = jacrev(lambda x: (x ** 2, x.sum()), has_aux=True)(x)
print(j, a)
E(lambda: grad(lambda x: x.sum().item())(x))
"""

PROGRAMS['func_jacrev_chunk_size_and_argnums'] = PRE + r"""
from torch.func import jacrev, jacfwd
torch.manual_seed(30)
x = torch.randn(5)
W = torch.randn(4, 5)
f = lambda x: (W @ x).tanh()
j = jacrev(f)(x)
for cs in (1, 2, 3, None):
    print(cs, torch.allclose(jacrev(f, chunk_size=cs)(x), j))
E(lambda: jacrev(f, chunk_size=0)(x))
E(lambda: jacrev(f, chunk_size=-1)(x))
print(jacfwd(f, randomness='same')(x).shape)
E(lambda: jacfwd(f, randomness='bogus')(x))
def g(a, b):
    return (a * b).sum(0), a - b
ja, jb = jacrev(g, argnums=(0, 1))(torch.ones(2, 3), torch.full((2, 3), 2.))
print(type(ja).__name__, ja[0].shape, jb[1].shape)
"""

PROGRAMS['func_functional_call_strict_tie_and_buffers'] = PRE + r"""
import torch.nn as nn
from torch.func import functional_call
torch.manual_seed(31)
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
x = torch.randn(4, 2)
new_w = torch.zeros(2, 2)
out = functional_call(m, {'0.weight': new_w}, (x,))
print(torch.allclose(out, m[1](m[0].bias.expand(4, 2))), m[1].num_batches_tracked)
E(lambda: functional_call(m, {'0.weight': new_w}, (x,), strict=True))
E(lambda: functional_call(m, {'0.wieght': new_w}, (x,)))
E(lambda: functional_call(m, ({'0.weight': new_w}, {'0.weight': new_w}), (x,)))
print(m[0].weight.sum() != 0)
m.eval()
out2 = functional_call(m, {'1.running_mean': torch.ones(2)}, x)
print(out2.shape, m[1].running_mean)
class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = self.a
    def forward(self, x):
        return self.b(x)
t = Tied()
print(functional_call(t, {'a.weight': torch.eye(2)}, (torch.ones(1, 2),)))
print(functional_call(t, {'a.weight': torch.eye(2)}, (torch.ones(1, 2),), tie_weights=False).shape)
"""

PROGRAMS['func_vmap_in_dims_out_dims_tutorial'] = PRE + r"""
from torch.func import vmap
x = torch.arange(6.).reshape(2, 3)
y = torch.arange(3.)
print(vmap(torch.dot, in_dims=(0, None))(x, y))
print(vmap(lambda a: a.sum(), in_dims=1)(x))
print(vmap(lambda a: (a, a * 2), out_dims=(0, 1))(x)[1].shape)
print(vmap(vmap(torch.mul))(x, x))
E(lambda: vmap(torch.dot)(x, y))
E(lambda: vmap(torch.mul, in_dims=(0, 0))(x, torch.ones(3, 3)))
E(lambda: vmap(lambda a: a, in_dims=2)(x))
E(lambda: vmap(lambda a: a.item())(x))
E(lambda: vmap(lambda a: 3)(x))
print(vmap(lambda d: d['a'] + d['b'])({'a': x, 'b': x}))
print(vmap(torch.sum, in_dims=(0, None))(x, 0))
"""

PROGRAMS['func_hessian_of_loss_wrt_model_params'] = PRE + r"""
import torch.nn as nn
from torch.func import functional_call, hessian, jacrev
torch.manual_seed(32)
model = nn.Linear(2, 1)
x = torch.randn(5, 2, dtype=torch.float64)
y = torch.randn(5, 1, dtype=torch.float64)
model.double()
params = {k: v.detach() for k, v in model.named_parameters()}
def loss(p):
    return ((functional_call(model, p, (x,)) - y) ** 2).mean()
H = hessian(loss)(params)
print(sorted(H), sorted(H['weight']), H['weight']['weight'].shape, H['weight']['bias'].shape)
X = torch.cat([x, torch.ones(5, 1, dtype=torch.float64)], 1)
full = 2 * X.T @ X / 5
print(torch.allclose(H['weight']['weight'].reshape(2, 2), full[:2, :2]))
print(torch.allclose(H['bias']['bias'].reshape(1), full[2:, 2]))
J = jacrev(loss)(params)
print({k: v.shape for k, v in J.items()})
"""


PROGRAMS['func_functional_call_batchnorm_transposed_batch'] = PRE + r"""
import torch.nn as nn
from torch.func import functional_call
torch.manual_seed(33)
bn = nn.BatchNorm1d(3)
x = torch.randn(3, 6).t()
print(x.is_contiguous())
out = bn(x)
print(out.stride(), out[:2])
print(out.flatten().tolist()[:4], bn.running_var.tolist())
out2 = functional_call(bn, {'weight': torch.full((3,), 2.), 'bias': torch.ones(3)}, (x,))
print(out2[:2], bn.num_batches_tracked)
xr = x.detach().requires_grad_()
(bn(xr) * torch.arange(18.).reshape(6, 3)).sum().backward()
print(xr.grad[:2], bn.weight.grad, bn.bias.grad)
bn.eval()
print(bn(x)[:2])
print(bn(x[:1].expand(6, 3))[:2])
"""


PROGRAMS['ensemble_one_sample_vectors_and_errors'] = PRE + r"""
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap
torch.manual_seed(34)
models = [nn.Linear(5, 3) for _ in range(4)]
params, buffers = stack_module_state(models)
base = models[0]
f = lambda p, b, x: functional_call(base, (p, b), (x,))
x1 = torch.randn(5)
out = vmap(f, in_dims=(0, 0, None))(params, buffers, x1)
print(out.shape, torch.allclose(out, torch.stack([m(x1) for m in models])))
print(out.tolist()[0])
xb = torch.randn(4, 5)
print(vmap(f, in_dims=(0, 0, 0))(params, buffers, xb).tolist()[1])
E(lambda: vmap(f, in_dims=(0, 0, None))(params, buffers, torch.randn(4)))
E(lambda: vmap(f, in_dims=(0, 0, None))(params, buffers, torch.randn(2, 4)))
E(lambda: vmap(f, in_dims=(0, 0, None))(params, buffers, torch.randn(2, 2, 4)))
bad = dict(params)
bad['bias'] = params['bias'][:, :2]
E(lambda: vmap(f, in_dims=(0, 0, None))(bad, buffers, x1))
E(lambda: vmap(f, in_dims=(0, 0, None))(bad, buffers, torch.randn(2, 5)))
"""

# ---- forward-mode AD through the layers of the tutorials' models

PROGRAMS['fwd_dual_through_softmax_layernorm_conv'] = PRE + r"""
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
torch.manual_seed(35)
x = torch.randn(2, 4, dtype=torch.float64)
t = torch.randn(2, 4, dtype=torch.float64)
fns = [('softmax', lambda a: F.softmax(a, dim=1)), ('log_softmax', lambda a: F.log_softmax(a, 1)),
       ('layer_norm', lambda a: F.layer_norm(a, (4,))), ('gelu', F.gelu), ('tanh', torch.tanh)]
refs = [torch.func.jvp(fn, (x,), (t,))[1] for _, fn in fns]
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for (name, fn), ref in zip(fns, refs):
        out = fn(d)
        p, tan = fwAD.unpack_dual(out)
        print(name, torch.allclose(tan, ref), tan.dtype, tan[0].tolist())
    img = fwAD.make_dual(torch.randn(1, 1, 4, 4, dtype=torch.float64), torch.ones(1, 1, 4, 4, dtype=torch.float64))
    w = torch.randn(2, 1, 3, 3, dtype=torch.float64)
    out = F.conv2d(img, w)
    print(out.shape, torch.allclose(fwAD.unpack_dual(out).tangent, F.conv2d(torch.ones(1, 1, 4, 4, dtype=torch.float64), w)))
    E(lambda: F.conv2d(img, w.float()))
"""

PROGRAMS['fwd_dual_views_and_inplace'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    base = torch.zeros(2, 3)
    dual = fwAD.make_dual(base, torch.arange(6.).reshape(2, 3))
    row = dual[1]
    print(fwAD.unpack_dual(row).tangent)
    view = dual.t()
    print(fwAD.unpack_dual(view).tangent)
    plain = torch.ones(3)
    plain.mul_(fwAD.make_dual(torch.full((3,), 2.), torch.ones(3)))
    print(fwAD.unpack_dual(plain))
    y = torch.zeros(4)
    y[1:3] = fwAD.make_dual(torch.tensor([5., 6.]), torch.tensor([1., -1.]))
    print(fwAD.unpack_dual(y).tangent)
    z = fwAD.make_dual(torch.ones(2), torch.ones(2))
    z.exp_()
    print(fwAD.unpack_dual(z))
print(fwAD.unpack_dual(z).tangent)
"""

PROGRAMS['fwd_jvp_has_aux_and_jacfwd_module'] = PRE + r"""
import torch.nn as nn
from torch.func import jvp, jacfwd, functional_call
torch.manual_seed(36)
def f(x):
    return x.sin(), {'cos': x.cos()}
x = torch.tensor([0., 1., 2.])
out, tan, aux = jvp(f, (x,), (torch.ones(3),), has_aux=True)
print(out, tan, aux)
E(lambda: jvp(f, (x,), (torch.ones(3),)))
model = nn.Linear(3, 2)
params = dict(model.named_parameters())
J = jacfwd(lambda p: functional_call(model, p, (x,)))(params)
print({k: tuple(v.shape) for k, v in J.items()})
print(torch.equal(J['weight'][0, 0], x), J['weight'][1, 0], J['bias'])
def with_aux(p):
    o = functional_call(model, p, (x,))
    return o, o.detach()
J2, aux = jacfwd(with_aux, has_aux=True)(params)
print(torch.equal(J2['bias'], J['bias']), aux.requires_grad)
"""

PROGRAMS['jac_functional_tuple_outputs_create_graph'] = PRE + r"""
from torch.autograd.functional import jacobian, hessian
def f(x, y):
    return x * y, (x ** 2).sum() + y.sum()
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
J = jacobian(f, (x, y))
print(len(J), len(J[0]), J[0][0], J[1][1])
Jc = jacobian(f, (x, y), create_graph=True)
print(Jc[0][0].requires_grad, Jc[0][0].grad_fn is not None)
Jc[1][0].sum().backward()
print(x.grad, y.grad)
Jv = jacobian(f, (x, y), vectorize=True)
print(all(torch.equal(a, b) for ra, rb in zip(J, Jv) for a, b in zip(ra, rb)))
H = hessian(lambda x: (x ** 3).sum(), x, create_graph=True)
print(H, H.requires_grad)
print(jacobian(lambda x: x.sum(), x), jacobian(lambda x: x, torch.tensor(2.)))
"""

PROGRAMS['gentle_optimizer_step_after_backward'] = PRE + r"""
import torch.nn as nn
torch.manual_seed(37)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
data = torch.rand(2, 4)
labels = torch.rand(2, 2)
prediction = model(data)
loss = (prediction - labels).sum()
loss.backward()
optim = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
before = [p.detach().clone() for p in model.parameters()]
optim.step()
for (n, p), b in zip(model.named_parameters(), before):
    print(n, torch.allclose(p, b - 1e-2 * p.grad))
print(optim.state[model[0].weight]['momentum_buffer'].shape)
optim.zero_grad()
print([p.grad for p in model.parameters()])
loss2 = (model(data) - labels).sum()
loss2.backward()
optim.step()
print(sorted(optim.state_dict()['state'].keys()), optim.state_dict()['param_groups'][0]['momentum'])
"""


# ---- "Extending torch.func with autograd.Function" (NumPy inside forward, a vmap staticmethod)

PROGRAMS['extfunc_numpy_sort_with_vmap_staticmethod'] = PRE + r"""
import numpy as np
from torch.func import vmap, grad
def to_numpy(tensor):
    return tensor.cpu().numpy()
class NumpySort(torch.autograd.Function):
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
class NumpyTake(torch.autograd.Function):
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
x = torch.tensor([[3., 1., 2.], [0., -1., 5.]], requires_grad=True)
s, i, ii = NumpySort.apply(x, 1)
print(s, i, ii.requires_grad, s.grad_fn.name())
s.backward(torch.tensor([[1., 2., 3.], [4., 5., 6.]]))
print(x.grad)
r = vmap(NumpySort.apply, in_dims=(0, None))(x.detach(), 0)
print(r[0], r[1])
g = grad(lambda t: (NumpySort.apply(t, 0)[0] * torch.arange(3.)).sum())(torch.tensor([2., 0., 1.]))
print(g)
"""

PROGRAMS['mech_saved_hooks_tempfile_on_disk'] = PRE + r"""
import os, tempfile, uuid
tmp_dir_obj = tempfile.TemporaryDirectory()
tmp_dir = tmp_dir_obj.name
class SelfDeletingTempFile:
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
x = torch.tensor([0.25, 0.5, 1.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2) * x.sigmoid()
print(len(os.listdir(tmp_dir)))
y.sum().backward()
print(x.grad)
del y
print(len(os.listdir(tmp_dir)))
tmp_dir_obj.cleanup()
"""

PROGRAMS['mech_saved_hooks_numpy_roundtrip_only_large'] = PRE + r"""
import numpy as np
packed_types = []
def pack_hook(t):
    if t.numel() < 4:
        packed_types.append('kept')
        return t
    packed_types.append('numpy')
    return t.detach().numpy().copy()
def unpack_hook(p):
    return p if isinstance(p, torch.Tensor) else torch.from_numpy(p)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.arange(6.).reshape(2, 3).requires_grad_()
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    c = (a.unsqueeze(1) * b).exp().sum()
print(packed_types)
c.backward()
print(a.grad, b.grad)
"""

PROGRAMS['graph_node_hooks_on_accumulate_grad_and_custom_fn'] = PRE + r"""
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 3.], requires_grad=True)
y = Double.apply(x)
print(y.grad_fn.name(), type(y.grad_fn).__name__, y.grad_fn.next_functions)
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print('acc pre', go))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
y.grad_fn.register_hook(lambda gi, go: print('fn post', gi, go))
y.sum().backward()
print(x.grad)
print(y.grad_fn.metadata, acc.name())
E(lambda: y.grad_fn.register_hook(3))
"""


PROGRAMS['dbl_gradcheck_failure_messages_fast_and_slow'] = PRE + r"""
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2 * x + 0.01
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e))
show(lambda: torch.autograd.gradcheck(Bad.apply, x, fast_mode=True))
show(lambda: torch.autograd.gradcheck(Bad.apply, x))
show(lambda: torch.autograd.gradcheck(Bad.apply, x, check_batched_grad=True))
class NoUndef(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g.mul(3)
show(lambda: torch.autograd.gradcheck(NoUndef.apply, x, check_batched_grad=True))
class NoUndef2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g.mul(3)
show(lambda: torch.autograd.gradcheck(NoUndef2.apply, x))
z = torch.tensor([1+1j, 2-1j], dtype=torch.complex128, requires_grad=True)
class BadC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return g * 2 * z
show(lambda: torch.autograd.gradcheck(BadC.apply, z))
show(lambda: torch.autograd.gradcheck(BadC.apply, z, fast_mode=True))
show(lambda: torch.autograd.gradgradcheck(lambda t: t.pow(3), x, gen_non_contig_grad_outputs=True))
show(lambda: torch.autograd.gradcheck(lambda t: t.float() * 2, x))
show(lambda: torch.autograd.gradcheck(lambda t: t * 2, x.detach()))
show(lambda: torch.autograd.gradcheck(lambda t: t * 2, x.float().detach().requires_grad_()))
"""

PROGRAMS['ckpt_debug_determinism_and_metadata_check'] = PRE + r"""
from torch.utils.checkpoint import checkpoint
x = torch.tensor([0.5, 1.0], requires_grad=True)
def f(t):
    return t.sin().exp() * 2
out = checkpoint(f, x, use_reentrant=False, debug=True)
out.sum().backward()
print(x.grad)
E(lambda: checkpoint(f, x, use_reentrant=True, context_fn=lambda: None))
out = checkpoint(f, x, use_reentrant=False, determinism_check='none')
print(out)
E(lambda: checkpoint(f, x, use_reentrant=False, determinism_check='bogus'))
def g(t):
    g.calls += 1
    return t * g.calls
g.calls = 0
out = checkpoint(g, x, use_reentrant=False)
E(lambda: out.sum().backward())
print(x.grad)
g.calls = 0
def h(t):
    h.calls += 1
    return t[: h.calls].exp()
h.calls = 0
out = checkpoint(h, x, use_reentrant=False)
E(lambda: out.sum().backward())
"""


PROGRAMS['mech_complex_cross_domain_complex_polar_fft'] = PRE + r"""
a = torch.tensor([1., -2.], requires_grad=True)
b = torch.tensor([0.5, 3.], requires_grad=True)
z = torch.complex(a, b)
print(z, z.grad_fn)
(z * z.conj()).real.sum().backward()
print(a.grad, b.grad)
a.grad = b.grad = None
r = torch.tensor([1., 2.], requires_grad=True)
th = torch.tensor([0.3, -1.2], requires_grad=True)
p = torch.polar(r, th)
print(p.grad_fn)
(p.real + 2 * p.imag).sum().backward()
print(r.grad, th.grad)
z = torch.tensor([1+1j, -2+0.5j], requires_grad=True)
y = z.real * z.imag
y.sum().backward()
print(z.grad)
z.grad = None
w = torch.fft.fft(z)
w.abs().sum().backward()
print(z.grad)
z.grad = None
(z.angle() * 1).sum().backward()
print(z.grad)
z.grad = None
torch.sgn(z).real.sum().backward()
print(z.grad)
E(lambda: torch.autograd.grad(z * 2, z, torch.ones(2)))
print(torch.autograd.grad((z * 2).sum().abs(), z))
c = torch.tensor(1+2j, requires_grad=True)
(c.abs() ** 2).backward()
print(c.grad, 2 * c)
"""


# ---- torch.utils.benchmark, as the Jacobians, per-sample-gradients and ensembling tutorials time their code

PROGRAMS['bench_timer_tutorial_get_perf'] = PRE + r"""
import re
import torch.nn.functional as F
from torch.func import jacrev
from torch.utils.benchmark import Timer
torch.manual_seed(38)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
weight, bias, x = torch.randn(4, 4), torch.randn(4), torch.randn(4)
xp = x.clone().requires_grad_()
def compute_jac(xp):
    rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in torch.eye(4)]
    return torch.stack(rows)
without_vmap = Timer(stmt="compute_jac(xp)", globals=globals())
with_vmap = Timer(stmt="jacrev(predict, argnums=2)(weight, bias, x)", globals=globals())
no_vmap_timer = without_vmap.timeit(5)
with_vmap_timer = with_vmap.timeit(5)
mask = lambda m: re.sub(r"[0-9.]+ (ns|us|ms|s)\b", "<t>", repr(m))
print(mask(no_vmap_timer))
print(mask(with_vmap_timer))
def get_perf(first, first_descriptor, second, second_descriptor):
    faster = second.times[0]
    slower = first.times[0]
    gain = (slower - faster) / slower
    return isinstance(gain, float)
print(get_perf(no_vmap_timer, "without vmap", with_vmap_timer, "vmap"))
print(type(no_vmap_timer), no_vmap_timer.number_per_run, len(no_vmap_timer.times), no_vmap_timer.stmt)
m = Timer("a + b", setup="a = torch.ones(2); b = 2", label="add", sub_label="f32", description="n=2").timeit(3)
print(mask(m), m.title, m.label, m.num_threads, m.mean > 0, m.median == m.times[0])
E(lambda: Timer(lambda: 1))
E(lambda: Timer("1", global_setup="x"))
E(lambda: Timer("1").repeat())
E(lambda: m.foo)
"""


PROGRAMS['ext_inplace_function_mark_dirty_jvp_and_views'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
class InplaceMul2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        t.mul_(2)
        return t
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
out = InplaceMul2.apply(b)
print(out is b, b, b.grad_fn.name(), b._version)
out.sum().backward()
print(a.grad)
E(lambda: InplaceMul2.apply(a))
with torch.no_grad():
    c = torch.ones(2)
    print(InplaceMul2.apply(c), c._version)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 1.]))
    r = InplaceMul2.apply(d)
    print(r is d, fwAD.unpack_dual(d))
class WrongJvpInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def jvp(ctx, t):
        return t * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 1.]))
    E(lambda: WrongJvpInplace.apply(d))
class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g.view(2, 2)
x = torch.ones(2, 2, requires_grad=True)
v = ViewOut.apply(x * 1)
print(v._base is not None, v.grad_fn.name())
E(lambda: v.mul_(2))
class NotDirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
y = torch.zeros(2, requires_grad=True).clone()
E(lambda: NotDirty.apply(y))
"""


PROGRAMS['graph_gradient_edge_ctor_input_metadata_custom_fn_saved'] = PRE + r"""
from torch.autograd.graph import GradientEdge, get_gradient_edge, Node
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = (y * 2).sum()
e = GradientEdge(y.grad_fn, 0)
print(e, e.node is y.grad_fn, e.output_nr, tuple(e) == (y.grad_fn, 0))
print(torch.autograd.grad(z, e, retain_graph=True))
print(get_gradient_edge(y) == e, type(e).__name__, GradientEdge.__mro__[1].__name__)
h = y.grad_fn.register_hook(lambda gi, go: None)
h.remove(); h.remove()
print(y.grad_fn._input_metadata if hasattr(y.grad_fn, '_input_metadata') else 'none')
print(Node.__subclasshook__ is not None, isinstance(y.grad_fn, Node), isinstance(x, Node))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.k = 3
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a
out = F.apply(x, torch.tensor([3., 4.]))
fn = out.grad_fn
print(len(fn.saved_tensors), fn.k, fn.needs_input_grad, fn.next_functions)
print([type(t).__name__ for t in fn._raw_saved_tensors])
out.sum().backward()
E(lambda: fn.saved_tensors)
print(x.grad)
E(lambda: GradientEdge(None, 0))
print(GradientEdge(None, 0))
"""


PROGRAMS['gentle_frozen_cnn_batchnorm_channels_last_grads'] = PRE + r"""
import torch.nn as nn
torch.manual_seed(39)
model = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU())
model[0].requires_grad_(False)
x = (torch.randn(4, 2, 5, 6) * 2 + 1).to(memory_format=torch.channels_last)
h = model[0](x)
print(h.is_contiguous(memory_format=torch.channels_last), h.requires_grad)
hr = h.detach().requires_grad_()
y = model[1](hr)
print(y.stride(), y.flatten()[:3].tolist(), model[1].running_var.tolist())
(y * torch.linspace(-1, 1, y.numel()).reshape(y.shape)).sum().backward()
print(hr.grad.stride(), hr.grad.flatten()[:3].tolist())
print(model[1].weight.grad.tolist(), model[1].bias.grad.tolist())
out = model(x).sum()
out.backward()
print(model[0].weight.grad, model[1].weight.grad.tolist())
"""


PROGRAMS['mech_inplace_on_views_errors_students_hit'] = PRE + r"""
a = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: a[0].mul_(2))
E(lambda: a.view(3).add_(1))
b = a * 1
v = b[:2]
v.mul_(3)
print(b.grad_fn, v.grad_fn, b._version, v._version)
b.sum().backward()
print(a.grad)
with torch.no_grad():
    w = a.view(3)
E(lambda: w.mul_(2))
u = a.detach()
u.zero_()
print(a, a._version)
E(lambda: (a * 2).sum().backward())
x = torch.ones(2, 2, requires_grad=True) * 1
for t in x.unbind():
    E(lambda: t.add_(1))
s = x.split(1)
E(lambda: s[0].mul_(2))
c = x.chunk(2)[0]
E(lambda: c.add_(1))
y = torch.ones(3, requires_grad=True).clone()
z = y.exp()
y.add_(1)
E(lambda: z.sum().backward())
q = torch.ones(3, requires_grad=True).clone()
r = q.sigmoid()
r.mul_(2)
E(lambda: r.sum().backward())
"""


@pytest.fixture(autouse=True, scope="module")
def _forward_ad_warmed_up():
    """PyTorch's first forward-AD op imports modules that warn once per process: done here, silently, so that no
    program's output depends on whether it is the first to use forward AD."""
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as fwAD
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fwAD.dual_level():
            fwAD.make_dual(torch.ones(1), torch.ones(1)).sin()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
