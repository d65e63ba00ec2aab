"""Parity programs from a thirty-seventh hunt: higher-order derivatives, as a student writes them once they learn
``create_graph=True``.

Second and third derivatives of scalar functions (powers, sin, exp, log, tanh, sigmoid, softplus, erf, atan2, pow with
tensor exponents, where/clamp/abs/relu at their kinks), ``torch.autograd.grad(..., create_graph=True)`` followed by
backward through the result, gradient penalties (WGAN-GP on a tiny MLP, double-backprop regularizers),
Hessian-vector products by double backward against ``torch.autograd.functional.hvp/vhp/hessian``, Newton steps,
physics-informed losses, MAML-style inner loops, Taylor coefficients by repeated grad, the ``grad_fn`` names and
``next_functions`` of double-backward graphs, ``retain_graph`` and its errors, ``allow_unused``/``materialize_grads``
at second order, double backward of nn layers, reductions, indexing and scans, custom Functions with differentiable
backwards (and ``once_differentiable``), and ``torch.func.hessian``/``jacfwd(jacrev)``. float64 and float32 both:
printed float32 values show last-bit differences. The harness is hunt14's (``E``/``W``, every warning printed on
stdout). Programs marked "fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- scalar functions: second and third derivatives

PROGRAMS['nth_derivatives_of_cube_and_sin'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    x = torch.tensor(1.3, dtype=dt, requires_grad=True)
    for f in (lambda x: x ** 3, torch.sin, lambda x: x.sin() * x.cos()):
        y = f(x)
        ds = []
        g = y
        for k in range(4):
            (g,) = torch.autograd.grad(g, x, create_graph=True)
            ds.append(g)
        print(y.item(), [d.item() for d in ds])
        print([d.grad_fn for d in ds])
'''

PROGRAMS['second_derivatives_exp_log_tanh_sigmoid'] = PRE + r'''
xs = torch.tensor([-2.5, -0.3, 0.7, 1.9], requires_grad=True)
for name in ('exp', 'log1p', 'tanh', 'sigmoid', 'expm1', 'sqrt', 'rsqrt', 'reciprocal'):
    x = xs.abs() + 0.1 if name in ('sqrt', 'rsqrt', 'reciprocal') else xs
    y = getattr(torch, name)(x)
    g, = torch.autograd.grad(y.sum(), xs, create_graph=True)
    h, = torch.autograd.grad(g.sum(), xs, create_graph=True)
    t, = torch.autograd.grad(h.sum(), xs)
    print(name, g, h, t, sep='\n')
    print(g.grad_fn, h.grad_fn)
'''

PROGRAMS['second_derivatives_log_family_float64'] = PRE + r'''
x = torch.tensor([0.2, 1.0, 3.5], dtype=torch.float64, requires_grad=True)
for f in (torch.log, torch.log2, torch.log10, torch.lgamma, torch.digamma, torch.special.entr, torch.logit):
    xx = x / 4 if f in (torch.logit, torch.special.entr) else x
    y = f(xx).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    try:
        h, = torch.autograd.grad(g.sum(), x)
        print(f.__name__, g.detach(), h)
    except Exception as e:
        print(f.__name__, g.detach(), type(e).__name__, e)
'''

PROGRAMS['softplus_erf_family_second_order'] = PRE + r'''
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    x = torch.randn(5, dtype=dt).mul(2).requires_grad_()
    for f in (torch.nn.functional.softplus, torch.erf, torch.erfc, torch.erfinv, torch.special.ndtr,
              torch.special.log_ndtr, torch.nn.functional.logsigmoid):
        xx = torch.tanh(x) * 0.9 if f is torch.erfinv else x
        y = f(xx)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        h, = torch.autograd.grad(g.sum(), x)
        print(f.__name__ if hasattr(f, '__name__') else f, g.grad_fn)
        print(g.detach(), h)
'''

PROGRAMS['atan2_hessian_entries'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    y = torch.tensor([0.5, -1.0, 2.0], dtype=dt, requires_grad=True)
    x = torch.tensor([1.5, 0.3, -0.7], dtype=dt, requires_grad=True)
    z = torch.atan2(y, x)
    gy, gx = torch.autograd.grad(z.sum(), (y, x), create_graph=True)
    print(gy, gx)
    hyy, hyx = torch.autograd.grad(gy.sum(), (y, x), retain_graph=True)
    hxy, hxx = torch.autograd.grad(gx.sum(), (y, x))
    print(hyy, hyx, hxy, hxx, sep='\n')
    print(torch.allclose(hyx, hxy))
'''

PROGRAMS['pow_tensor_exponent_second_order'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    b = torch.tensor([0.5, 1.5, 2.0, 3.0], dtype=dt, requires_grad=True)
    e = torch.tensor([2.0, -1.5, 0.5, 1.0], dtype=dt, requires_grad=True)
    y = (b ** e).sum()
    gb, ge = torch.autograd.grad(y, (b, e), create_graph=True)
    print(gb, ge)
    print(gb.grad_fn, ge.grad_fn)
    hb = torch.autograd.grad(gb.sum(), (b, e), retain_graph=True)
    he = torch.autograd.grad(ge.sum(), (b, e))
    print(hb, he)
    s = torch.tensor(2.0, dtype=dt, requires_grad=True)
    w = (s ** b).sum()
    g1, = torch.autograd.grad(w, s, create_graph=True)
    g2, = torch.autograd.grad(g1, s, create_graph=True)
    print(g1, g2, torch.autograd.grad(g2, b)[0])
'''

PROGRAMS['pow_at_zero_base_higher_order'] = PRE + r'''
x = torch.tensor([0.0, 0.0, 0.0, 1.0], requires_grad=True)
for p in (2, 3, 0.5, 1.5, 0, 1):
    y = (x ** p).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    if g.requires_grad:
        h, = torch.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)
    else:
        h = None
    print(p, g, h)
e = torch.tensor([2.0, 0.0, 1.0, 3.0], requires_grad=True)
y = (x ** e).sum()
gx, ge = torch.autograd.grad(y, (x, e), create_graph=True)
print(gx, ge)
print(torch.autograd.grad((gx + ge).sum(), (x, e)))
'''

PROGRAMS['kinks_where_clamp_abs_relu'] = PRE + r'''
x = torch.tensor([-1.0, 0.0, 0.5, 1.0, 2.0], requires_grad=True)
fs = {
    'abs': lambda x: x.abs() * x,
    'relu': lambda x: torch.relu(x) ** 2,
    'clamp': lambda x: x.clamp(0, 1) * x ** 2,
    'where': lambda x: torch.where(x > 0, x ** 3, -x ** 2),
    'max0': lambda x: torch.maximum(x, torch.zeros_like(x)) ** 3,
    'hardtanh': lambda x: torch.nn.functional.hardtanh(x) * x,
    'sgn': lambda x: x.sign() * x ** 2,
}
for n, f in fs.items():
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad(g.sum(), x, create_graph=True)
    print(n, g.detach(), h.detach(), g.grad_fn, h.grad_fn)
'''

PROGRAMS['third_derivative_relu_is_zero_no_graph'] = PRE + r'''
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = torch.relu(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), x))
E(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True))
y = torch.relu(x) * x
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
h, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(h, h.grad_fn)
E(lambda: torch.autograd.grad(h.sum(), x))
E(lambda: torch.autograd.grad(h.sum(), x, allow_unused=True, materialize_grads=True))
print(h.requires_grad, h.is_leaf)
'''

PROGRAMS['taylor_coefficients_by_repeated_grad'] = PRE + r'''
import math
for dt in (torch.float32, torch.float64):
    a = torch.tensor(0.3, dtype=dt, requires_grad=True)
    for f in (torch.exp, torch.cos, lambda t: 1 / (1 - t), lambda t: torch.log1p(t), torch.atan):
        y = f(a)
        coeffs = [y.item()]
        d = y
        for k in range(1, 5):
            d, = torch.autograd.grad(d, a, create_graph=True)
            coeffs.append(d.item() / math.factorial(k))
        print([round(c, 6) for c in coeffs], d.grad_fn)
        h = torch.tensor(0.1, dtype=dt)
        approx = sum(c * h ** k for k, c in enumerate(coeffs))
        print(approx, f(a.detach() + h))
'''

# ---- gradient penalties and double-backprop regularizers

PROGRAMS['wgan_gp_tiny_mlp_float32'] = PRE + r'''
torch.manual_seed(0)
D = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.LeakyReLU(0.2), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
real, fake = torch.randn(4, 3), torch.randn(4, 3) + 1
for step in range(3):
    eps = torch.rand(4, 1)
    xh = (eps * real + (1 - eps) * fake).requires_grad_(True)
    out = D(xh)
    g, = torch.autograd.grad(out, xh, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)
    gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
    loss = D(fake).mean() - D(real).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    print(step, loss.item(), gp.item(), g.grad_fn)
    print(D[0].weight.grad[0], D[2].bias.grad)
    opt.step()
print(D[2].weight)
'''

PROGRAMS['wgan_gp_float64_tanh_grad_fn_chain'] = PRE + r'''
torch.manual_seed(1)
D = torch.nn.Sequential(torch.nn.Linear(2, 5), torch.nn.Tanh(), torch.nn.Linear(5, 1)).double()
x = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
out = D(x).sum()
g, = torch.autograd.grad(out, x, create_graph=True)
print(g)
print(g.grad_fn, g.grad_fn.next_functions)
nrm = g.norm(dim=1)
print(nrm.grad_fn, nrm.grad_fn.next_functions[0][0])
pen = (nrm - 1).pow(2).mean()
pen.backward()
for n, p in D.named_parameters():
    print(n, p.grad)
print(x.grad)
'''

PROGRAMS['double_backprop_input_gradient_regularizer'] = PRE + r'''
torch.manual_seed(2)
model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Softplus(), torch.nn.Linear(6, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(5, 4)
y = torch.tensor([0, 2, 1, 1, 0])
for it in range(3):
    xi = x.clone().requires_grad_()
    ce = torch.nn.functional.cross_entropy(model(xi), y)
    gx, = torch.autograd.grad(ce, xi, create_graph=True)
    reg = gx.pow(2).sum()
    loss = ce + 0.5 * reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, ce.item(), reg.item())
print(model[0].weight.grad)
print(model[2].bias)
'''

PROGRAMS['gradient_norm_penalty_on_parameters'] = PRE + r'''
torch.manual_seed(3)
lin = torch.nn.Linear(3, 2)
x = torch.randn(6, 3)
t = torch.randn(6, 2)
loss = torch.nn.functional.mse_loss(lin(x), t)
grads = torch.autograd.grad(loss, lin.parameters(), create_graph=True)
print([g.grad_fn for g in grads])
gn = torch.sqrt(sum((g ** 2).sum() for g in grads))
print(gn, gn.grad_fn)
(loss + 0.1 * gn).backward()
print(lin.weight.grad, lin.bias.grad)
gn2 = torch.nn.utils.clip_grad_norm_(lin.parameters(), 0.5)
print(gn2, lin.weight.grad)
'''

# ---- Hessian-vector products, Hessians, Newton's method

PROGRAMS['hvp_double_backward_vs_functional'] = PRE + r'''
from torch.autograd.functional import hvp, vhp, hessian
def f(x):
    return (x.sin() * x.roll(1)).sum() + (x ** 4).sum() / 12
for dt in (torch.float32, torch.float64):
    x = torch.tensor([0.3, -1.2, 0.8, 2.0], dtype=dt, requires_grad=True)
    v = torch.tensor([1.0, 0.5, -0.25, 2.0], dtype=dt)
    g, = torch.autograd.grad(f(x), x, create_graph=True)
    hv, = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
    hv2, = torch.autograd.grad((g * v).sum(), x)
    print(hv, hv2)
    print(hvp(f, x.detach(), v))
    print(vhp(f, x.detach(), v))
    H = hessian(f, x.detach())
    print(H)
    print(H @ v, torch.equal(H, H.T))
'''

PROGRAMS['hessian_functional_options'] = PRE + r'''
from torch.autograd.functional import hessian
def f(a, b):
    return (a.exp() * b).sum() + (a @ b) ** 2
a = torch.tensor([0.1, 0.2], dtype=torch.float64)
b = torch.tensor([1.0, -1.0], dtype=torch.float64)
H = hessian(f, (a, b))
for row in H:
    print([h for h in row])
Hc = hessian(f, (a, b), create_graph=True)
print(Hc[0][0].requires_grad, Hc[0][1].grad_fn is None)
print(hessian(lambda x: x.pow(3).sum(), torch.tensor(2.0)))
print(hessian(lambda x: x.pow(3).sum(), torch.tensor([1.0, 2.0])))
E(lambda: hessian(lambda x: x.pow(3).sum(), torch.tensor([1.0, 2.0]), outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(lambda x: x.pow(3), torch.tensor([1.0, 2.0])))
E(lambda: hessian(lambda x: torch.tensor(1.0), torch.tensor([1.0, 2.0]), strict=True))
print(hessian(lambda x: (x * 0).sum(), torch.tensor([1.0, 2.0])))
'''

PROGRAMS['newton_method_explicit_hessian_rosenbrock'] = PRE + r'''
def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
for dt in (torch.float32, torch.float64):
    p = torch.tensor([-1.2, 1.0], dtype=dt, requires_grad=True)
    for it in range(5):
        f = rosen(p)
        g, = torch.autograd.grad(f, p, create_graph=True)
        H = torch.stack([torch.autograd.grad(g[i], p, retain_graph=True)[0] for i in range(2)])
        with torch.no_grad():
            p -= torch.linalg.solve(H, g)
        print(it, f.item(), g.detach(), H)
    print(p)
'''

PROGRAMS['newton_1d_root_and_minimum'] = PRE + r'''
x = torch.tensor(2.0, requires_grad=True)
for i in range(6):
    f = x ** 4 - 3 * x ** 2 + x
    d1, = torch.autograd.grad(f, x, create_graph=True)
    d2, = torch.autograd.grad(d1, x)
    x = (x - d1 / d2).detach().requires_grad_()
    print(i, f.item(), d1.item(), d2.item(), x.item())
y = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
for i in range(5):
    f = torch.cos(y) - y
    d, = torch.autograd.grad(f, y)
    y = (y - f / d).detach().requires_grad_()
    print(i, y.item())
'''

PROGRAMS['hessian_by_loop_vs_jacobian_of_grad'] = PRE + r'''
torch.manual_seed(4)
A = torch.randn(3, 3)
A = A @ A.T
def f(x):
    return 0.5 * x @ A @ x + torch.logsumexp(x, 0)
x = torch.randn(3, requires_grad=True)
g, = torch.autograd.grad(f(x), x, create_graph=True)
H = torch.zeros(3, 3)
for i in range(3):
    H[i] = torch.autograd.grad(g[i], x, retain_graph=True)[0]
print(H)
J = torch.autograd.functional.jacobian(lambda z: torch.autograd.grad(f(z), z, create_graph=True)[0], x)
print(J)
print(torch.autograd.functional.hessian(f, x))
print((H - A).diagonal(), torch.linalg.eigvalsh(H - A))
'''

# ---- physics-informed losses and MAML-style inner loops

PROGRAMS['pinn_heat_equation_residual_step'] = PRE + r'''
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 8), torch.nn.Tanh(),
                          torch.nn.Linear(8, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
x = torch.rand(6, 1, requires_grad=True)
t = torch.rand(6, 1, requires_grad=True)
for step in range(2):
    u = net(torch.cat([x, t], dim=1))
    u_t, u_x = torch.autograd.grad(u, (t, x), torch.ones_like(u), create_graph=True)
    u_xx, = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)
    res = u_t - 0.1 * u_xx
    x0 = torch.zeros(6, 1)
    bc = net(torch.cat([x0, t], 1))
    loss = res.pow(2).mean() + bc.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), u_xx.grad_fn, res.grad_fn)
print(u_x[:3], u_xx[:3])
print(net[0].weight.grad, net[4].bias.grad)
'''

PROGRAMS['pinn_burgers_float64_sum_trick'] = PRE + r'''
torch.manual_seed(5)
net = torch.nn.Sequential(torch.nn.Linear(2, 6), torch.nn.Tanh(), torch.nn.Linear(6, 1)).double()
xt = torch.rand(5, 2, dtype=torch.float64, requires_grad=True)
u = net(xt)
du, = torch.autograd.grad(u.sum(), xt, create_graph=True)
u_x, u_t = du[:, 0:1], du[:, 1:2]
d2, = torch.autograd.grad(u_x.sum(), xt, create_graph=True)
u_xx = d2[:, :1]
r = u_t + u * u_x - (0.01 / torch.pi) * u_xx
loss = torch.mean(r ** 2)
print(loss, loss.grad_fn)
print(u_x.grad_fn, u_xx.grad_fn, d2.grad_fn)
loss.backward()
print(net[0].weight.grad)
print(xt.grad)
'''

PROGRAMS['pinn_ode_lbfgs_step'] = PRE + r'''
torch.manual_seed(6)
net = torch.nn.Sequential(torch.nn.Linear(1, 6), torch.nn.Sigmoid(), torch.nn.Linear(6, 1))
x = torch.linspace(0, 1, 7).unsqueeze(1).requires_grad_()
opt = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=4)
def closure():
    opt.zero_grad()
    y = net(x)
    dy, = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)
    loss = ((dy + y) ** 2).mean() + (net(torch.zeros(1, 1)) - 1).pow(2).sum()
    loss.backward()
    return loss
for i in range(2):
    print(i, opt.step(closure).item())
print(net[2].weight)
'''

PROGRAMS['maml_inner_loop_functional_update'] = PRE + r'''
torch.manual_seed(7)
w = torch.randn(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
meta = torch.optim.SGD([w, b], lr=0.01)
xs, ys = torch.randn(4, 3), torch.randn(4, 1)
xq, yq = torch.randn(4, 3), torch.randn(4, 1)
for outer in range(2):
    fw, fb = w, b
    for inner in range(2):
        loss = torch.nn.functional.mse_loss(xs @ fw + fb, ys)
        gw, gb = torch.autograd.grad(loss, (fw, fb), create_graph=True)
        fw, fb = fw - 0.1 * gw, fb - 0.1 * gb
        print(outer, inner, loss.item(), fw.grad_fn, gw.grad_fn)
    qloss = torch.nn.functional.mse_loss(xq @ fw + fb, yq)
    meta.zero_grad()
    qloss.backward()
    print(qloss.item(), w.grad.T, b.grad)
    meta.step()
'''

PROGRAMS['maml_first_order_vs_second_order'] = PRE + r'''
torch.manual_seed(8)
model = torch.nn.Linear(2, 1)
x, y = torch.randn(5, 2), torch.randn(5, 1)
xq, yq = torch.randn(5, 2), torch.randn(5, 1)
for first_order in (False, True):
    params = dict(model.named_parameters())
    loss = torch.nn.functional.mse_loss(torch.func.functional_call(model, params, (x,)), y)
    grads = torch.autograd.grad(loss, params.values(), create_graph=not first_order)
    fast = {n: p - 0.5 * g for (n, p), g in zip(params.items(), grads)}
    ql = torch.nn.functional.mse_loss(torch.func.functional_call(model, fast, (xq,)), yq)
    model.zero_grad()
    ql.backward()
    print(first_order, ql.item(), model.weight.grad, model.bias.grad)
    print([g.grad_fn for g in grads], fast['weight'].grad_fn)
'''

PROGRAMS['maml_mlp_two_steps_float64'] = PRE + r'''
torch.manual_seed(9)
net = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1)).double()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
x = torch.randn(6, 2, dtype=torch.float64)
y = (x[:, :1] * 2).sin()
def fwd(ps, x):
    h = torch.relu(x @ ps[0].T + ps[1])
    return h @ ps[2].T + ps[3]
ps = list(net.parameters())
for s in range(2):
    l = (fwd(ps, x[:3]) - y[:3]).pow(2).mean()
    gs = torch.autograd.grad(l, ps, create_graph=True)
    ps = [p - 0.1 * g for p, g in zip(ps, gs)]
ql = (fwd(ps, x[3:]) - y[3:]).pow(2).mean()
opt.zero_grad()
ql.backward()
print(ql)
for p in net.parameters():
    print(p.grad)
'''

# ---- graphs of gradients: grad_fn names and next_functions

PROGRAMS['double_backward_graph_of_mul'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0], requires_grad=True)
y = (x * w).sum()
gx, gw = torch.autograd.grad(y, (x, w), create_graph=True)
print(gx, gw)
print(gx.grad_fn, gx.grad_fn.next_functions)
print(gw.grad_fn, gw.grad_fn.next_functions)
z = (x * x * w).sum()
gx, = torch.autograd.grad(z, x, create_graph=True)
print(gx.grad_fn, gx.grad_fn.next_functions)
for f, _ in gx.grad_fn.next_functions:
    print(f, f.next_functions if f is not None else None)
'''

PROGRAMS['double_backward_graph_names_unary'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
for f in (torch.sin, torch.cos, torch.exp, torch.tanh, torch.sigmoid, torch.log, torch.sqrt, torch.relu,
          torch.nn.functional.gelu, torch.nn.functional.silu, torch.nn.functional.elu, torch.nn.functional.softplus,
          torch.nn.functional.mish, torch.nn.functional.leaky_relu, torch.nn.functional.hardswish,
          torch.nn.functional.selu, torch.nn.functional.celu, torch.nn.functional.logsigmoid, torch.abs,
          torch.square, torch.reciprocal, torch.atan, torch.asinh, torch.erf):
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    nf = g.grad_fn.next_functions if g.grad_fn is not None else None
    print(getattr(f, '__name__', f), g.grad_fn, nf)
'''

PROGRAMS['double_backward_graph_names_binary_and_reduce'] = PRE + r'''
a = torch.tensor([[0.5, 1.5], [2.0, -1.0]], requires_grad=True)
b = torch.tensor([[1.0, 0.25], [-0.5, 3.0]], requires_grad=True)
cases = {
    'div': lambda: a / b, 'mm': lambda: a @ b, 'pow': lambda: a.abs() ** b, 'maximum': lambda: torch.maximum(a, b),
    'sum': lambda: (a * b).sum(1), 'mean': lambda: (a * b).mean(), 'prod': lambda: a.prod(0) * b[0],
    'norm': lambda: a.norm() * b, 'softmax': lambda: a.softmax(1) * b, 'logsumexp': lambda: a.logsumexp(1) * b[0],
    'std': lambda: a.std() * b, 'cumsum': lambda: a.cumsum(0) * b, 'hypot': lambda: torch.hypot(a, b),
    'addcmul': lambda: torch.addcmul(a, a, b, value=0.5),
}
for n, f in cases.items():
    out = f().sum()
    ga, gb = torch.autograd.grad(out, (a, b), create_graph=True)
    print(n, ga.grad_fn, gb.grad_fn)
    print(' ', ga.grad_fn.next_functions if ga.grad_fn else None)
'''

PROGRAMS['second_order_graph_saved_tensors'] = PRE + r'''
x = torch.tensor([0.3, 0.9], requires_grad=True)
y = torch.tanh(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
fn = g.grad_fn
print(fn, [n for n in dir(fn) if n.startswith('_saved')])
print(fn._saved_output if hasattr(fn, '_saved_output') else None)
y2 = torch.sigmoid(x) * x
g2, = torch.autograd.grad(y2.sum(), x, create_graph=True)
print(g2.grad_fn, g2.grad_fn.next_functions)
for f, _ in g2.grad_fn.next_functions:
    print(f, sorted(n for n in dir(f) if n.startswith('_saved')))
h, = torch.autograd.grad(g2.sum(), x, create_graph=True)
print(h, h.grad_fn)
'''

# ---- nn layers at second order

PROGRAMS['double_backward_linear_conv1d_conv2d'] = PRE + r'''
torch.manual_seed(10)
for dt in (torch.float32, torch.float64):
    lin = torch.nn.Linear(3, 2).to(dt)
    c1 = torch.nn.Conv1d(2, 3, 3, padding=1).to(dt)
    c2 = torch.nn.Conv2d(1, 2, 2, stride=1).to(dt)
    x1 = torch.randn(2, 2, 5, dtype=dt, requires_grad=True)
    x2 = torch.randn(1, 1, 4, 4, dtype=dt, requires_grad=True)
    x0 = torch.randn(4, 3, dtype=dt, requires_grad=True)
    for m, x in ((lin, x0), (c1, x1), (c2, x2)):
        out = torch.tanh(m(x)).pow(2).sum()
        gx, = torch.autograd.grad(out, x, create_graph=True)
        pen = gx.pow(2).sum()
        m.zero_grad()
        pen.backward()
        print(type(m).__name__, gx.grad_fn, pen.item())
        print(m.weight.grad.flatten()[:6], m.bias.grad)
        print(x.grad.flatten()[:6])
'''

PROGRAMS['double_backward_conv_grad_fn_names'] = PRE + r'''
torch.manual_seed(11)
x = torch.randn(1, 2, 5, 5, requires_grad=True)
w = torch.randn(3, 2, 3, 3, requires_grad=True)
y = torch.nn.functional.conv2d(x, w, padding=1, stride=2)
gx, gw = torch.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)
print(y.grad_fn, gx.grad_fn, gw.grad_fn)
print(gx.grad_fn.next_functions)
h = torch.autograd.grad(gx.sum() + gw.pow(2).sum(), (x, w))
print(h[0][0, 0], h[1][0, 0])
x1 = torch.randn(2, 2, 6, requires_grad=True)
w1 = torch.randn(2, 1, 3, requires_grad=True)
y1 = torch.nn.functional.conv1d(x1, w1, groups=2, dilation=2)
g1, = torch.autograd.grad((y1 ** 3).sum(), x1, create_graph=True)
print(g1.grad_fn, torch.autograd.grad(g1.sum(), w1)[0])
'''

PROGRAMS['double_backward_layer_norm'] = PRE + r'''
torch.manual_seed(12)
for dt in (torch.float32, torch.float64):
    ln = torch.nn.LayerNorm(4).to(dt)
    with torch.no_grad():
        ln.weight.uniform_(0.5, 1.5)
        ln.bias.uniform_(-0.1, 0.1)
    x = torch.randn(3, 4, dtype=dt, requires_grad=True)
    y = ln(x)
    gx, = torch.autograd.grad((y * y.detach().roll(1, 1)).sum(), x, create_graph=True)
    print(y.grad_fn, gx.grad_fn)
    print(gx)
    gx.pow(2).sum().backward()
    print(ln.weight.grad, ln.bias.grad)
    print(x.grad)
'''

PROGRAMS['double_backward_batch_norm_training'] = PRE + r'''
torch.manual_seed(13)
for dt in (torch.float32, torch.float64):
    bn = torch.nn.BatchNorm1d(3).to(dt)
    x = torch.randn(5, 3, dtype=dt, requires_grad=True)
    y = bn(x)
    loss = (y ** 3).sum()
    gx, = torch.autograd.grad(loss, x, create_graph=True)
    print(y.grad_fn, gx.grad_fn)
    print(gx)
    gx.abs().sum().backward()
    print(bn.weight.grad, bn.bias.grad)
    print(x.grad)
    print(bn.running_mean, bn.running_var)
'''

PROGRAMS['double_backward_batch_norm2d_and_group_norm'] = PRE + r'''
torch.manual_seed(14)
x = torch.randn(2, 2, 3, 3, requires_grad=True)
bn = torch.nn.BatchNorm2d(2)
gn = torch.nn.GroupNorm(1, 2)
for m in (bn, gn):
    y = m(x)
    g, = torch.autograd.grad(y.sin().sum(), x, create_graph=True)
    print(type(m).__name__, y.grad_fn, g.grad_fn)
    print(g[0, 0])
    hw = torch.autograd.grad(g.pow(2).sum(), (x, m.weight))
    print(hw[0][1, 1], hw[1])
'''

PROGRAMS['double_backward_softmax_log_softmax'] = PRE + r'''
torch.manual_seed(15)
for dt in (torch.float32, torch.float64):
    x = torch.randn(2, 4, dtype=dt, requires_grad=True)
    w = torch.randn(2, 4, dtype=dt)
    for f in (torch.softmax, torch.log_softmax):
        y = f(x, dim=1)
        g, = torch.autograd.grad((y * w).sum(), x, create_graph=True)
        h, = torch.autograd.grad((g * w).sum(), x)
        print(f.__name__, y.grad_fn, g.grad_fn)
        print(g.detach())
        print(h)
'''

PROGRAMS['double_backward_cross_entropy_nll'] = PRE + r'''
torch.manual_seed(16)
for dt in (torch.float32, torch.float64):
    logits = torch.randn(4, 3, dtype=dt, requires_grad=True)
    target = torch.tensor([0, 2, 1, 2])
    for kw in ({}, {'label_smoothing': 0.1}, {'reduction': 'sum'}, {'weight': torch.tensor([1., 2., 0.5], dtype=dt)}):
        loss = torch.nn.functional.cross_entropy(logits, target, **kw)
        g, = torch.autograd.grad(loss, logits, create_graph=True)
        v = torch.arange(12, dtype=dt).reshape(4, 3) / 10
        hv, = torch.autograd.grad(g, logits, v)
        print(kw.keys(), loss.item(), g.grad_fn)
        print(hv)
    p = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4], [0.6, 0.2, 0.2]], dtype=dt)
    loss = torch.nn.functional.cross_entropy(logits, p)
    g, = torch.autograd.grad(loss, logits, create_graph=True)
    print(torch.autograd.grad(g.pow(2).sum(), logits)[0])
'''

PROGRAMS['double_backward_regression_losses'] = PRE + r'''
torch.manual_seed(17)
F = torch.nn.functional
for dt in (torch.float32, torch.float64):
    x = torch.randn(6, dtype=dt, requires_grad=True)
    t = torch.tensor([0.0, 1.0, -0.5, 2.0, 0.2, -1.5], dtype=dt)
    for name, f in (('mse', F.mse_loss), ('l1', F.l1_loss), ('smooth_l1', lambda a, b: F.smooth_l1_loss(a, b, beta=0.5)),
                    ('huber', lambda a, b: F.huber_loss(a, b, delta=0.7)), ('bce_logits', lambda a, b: F.binary_cross_entropy_with_logits(a, b.sigmoid())),
                    ('soft_margin', lambda a, b: F.soft_margin_loss(a, b.sign())), ('kl', lambda a, b: F.kl_div(a.log_softmax(0), b.softmax(0), reduction='batchmean'))):
        l = f(x * 2, t)
        g, = torch.autograd.grad(l, x, create_graph=True)
        if g.requires_grad:
            h, = torch.autograd.grad((g * t).sum(), x)
        else:
            h = None
        print(name, l.item(), g.grad_fn)
        print(g.detach(), h)
'''

PROGRAMS['double_backward_bce_and_poisson'] = PRE + r'''
torch.manual_seed(18)
F = torch.nn.functional
p = torch.rand(5, dtype=torch.float64).mul(0.8).add(0.1).requires_grad_()
t = torch.tensor([0., 1., 1., 0., 0.5], dtype=torch.float64)
for f in (lambda: F.binary_cross_entropy(p, t), lambda: F.poisson_nll_loss(p, t),
          lambda: F.poisson_nll_loss(p, t, log_input=False), lambda: F.gaussian_nll_loss(p, t, p * 0 + 0.3),
          lambda: F.margin_ranking_loss(p, t, torch.ones(5, dtype=torch.float64)),
          lambda: F.cosine_embedding_loss(p.view(1, 5), t.view(1, 5) + 0.1, torch.ones(1))):
    l = f()
    g, = torch.autograd.grad(l, p, create_graph=True)
    print(l.item(), g.grad_fn)
    print(g.detach())
    if g.requires_grad:
        print(torch.autograd.grad(g.sum(), p, allow_unused=True, materialize_grads=True)[0])
'''

PROGRAMS['double_backward_activation_modules'] = PRE + r'''
torch.manual_seed(19)
mods = [torch.nn.GELU(), torch.nn.GELU('tanh'), torch.nn.SiLU(), torch.nn.ELU(0.7), torch.nn.Softplus(2.0, 5.0),
        torch.nn.Mish(), torch.nn.CELU(1.3), torch.nn.SELU(), torch.nn.Hardswish(), torch.nn.Hardsigmoid(),
        torch.nn.LogSigmoid(), torch.nn.Tanhshrink(), torch.nn.Softsign(), torch.nn.PReLU(), torch.nn.RReLU().eval()]
for dt in (torch.float32, torch.float64):
    x = (torch.randn(6, dtype=dt) * 3).requires_grad_()
    for m in mods:
        m = m.to(dt)
        g, = torch.autograd.grad(m(x).sum(), x, create_graph=True)
        print(m, g.detach(), g.grad_fn)
        if g.requires_grad:
            E(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)[0])
'''

# ---- reductions at second order

PROGRAMS['double_backward_prod_with_zeros'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    for vals in ([2., 3., 4.], [2., 0., 4.], [0., 3., 0.], [0., 0., 0.]):
        x = torch.tensor(vals, dtype=dt, requires_grad=True)
        y = x.prod()
        g, = torch.autograd.grad(y, x, create_graph=True)
        H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])
        print(vals, g.detach(), g.grad_fn)
        print(H)
    m = torch.tensor([[1., 0., 2.], [3., 4., 0.5]], dtype=dt, requires_grad=True)
    g, = torch.autograd.grad(m.prod(1).sum(), m, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), m)[0])
    g, = torch.autograd.grad(m.prod(0, keepdim=True).pow(2).sum(), m, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), m)[0])
'''

PROGRAMS['double_backward_norms_incl_zero'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    x = torch.tensor([[3., -4., 0.], [0., 0., 0.]], dtype=dt, requires_grad=True)
    for p in (2, 1, 3, float('inf'), 0.5):
        n = torch.linalg.vector_norm(x, ord=p, dim=1)
        g, = torch.autograd.grad(n.sum(), x, create_graph=True)
        h = torch.autograd.grad(g.pow(2).sum(), x, allow_unused=True, materialize_grads=True)[0] if g.requires_grad else None
        print(p, n.detach(), g.detach(), g.grad_fn)
        print(h)
    f = x[0].norm()
    g, = torch.autograd.grad(f, x, create_graph=True)
    print(torch.autograd.grad(g[0, 0], x)[0])
'''

PROGRAMS['double_backward_std_var_corrections'] = PRE + r'''
torch.manual_seed(20)
for dt in (torch.float32, torch.float64):
    x = torch.randn(3, 4, dtype=dt, requires_grad=True)
    for f in (lambda t: t.var(), lambda t: t.std(dim=1).sum(), lambda t: t.var(dim=0, correction=0).sum(),
              lambda t: t.std(dim=1, keepdim=True, unbiased=False).prod(), lambda t: torch.var_mean(t, 1)[0].sum(),
              lambda t: torch.std_mean(t, 0)[0].pow(2).sum()):
        y = f(x)
        g, = torch.autograd.grad(y, x, create_graph=True)
        h, = torch.autograd.grad(g.pow(2).sum(), x)
        print(y.item(), g.grad_fn)
        print(h[0])
    one = torch.tensor([2.0], dtype=dt, requires_grad=True)
    g, = torch.autograd.grad(one.var(correction=0), one, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), one)[0])
'''

PROGRAMS['double_backward_logsumexp_max_amax_ties'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    x = torch.tensor([[1., 3., 3.], [2., 2., 2.], [-1., 0.5, 4.]], dtype=dt, requires_grad=True)
    for name, f in (('lse', lambda t: t.logsumexp(1)), ('max', lambda t: t.max(1).values), ('amax', lambda t: t.amax(1)),
                    ('amin', lambda t: t.amin(0)), ('maxall', lambda t: t.max()), ('min', lambda t: t.min(0)[0]),
                    ('softmax_max', lambda t: (t.softmax(1) * t).sum(1))):
        y = f(x)
        g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)
        h, = torch.autograd.grad(g.sum(), x)
        print(name, g.grad_fn)
        print(g.detach(), h, sep='\n')
'''

PROGRAMS['double_backward_mean_sum_dims'] = PRE + r'''
torch.manual_seed(21)
x = torch.randn(2, 3, 2, requires_grad=True)
for f in (lambda t: t.sum((0, 2)).pow(3).sum(), lambda t: t.mean(1, keepdim=True).exp().sum(),
          lambda t: t.nansum() ** 2, lambda t: t.nanmean(0).pow(2).sum(), lambda t: t.sum(dtype=torch.float64) ** 2,
          lambda t: t.mean(-1).norm()):
    y = f(x)
    g, = torch.autograd.grad(y, x, create_graph=True)
    h, = torch.autograd.grad(g.sum(), x)
    print(y.dtype, g.grad_fn, g[0, 0])
    print(h[1])
'''

# ---- indexing, gather/scatter, scans

PROGRAMS['double_backward_indexing_gather_scatter'] = PRE + r'''
torch.manual_seed(22)
x = torch.randn(3, 4, requires_grad=True)
idx = torch.tensor([[0, 2], [3, 3], [1, 0]])
cases = {
    'getitem': lambda t: t[[0, 2, 2], [1, 1, 3]].pow(3).sum(),
    'gather': lambda t: t.gather(1, idx).pow(3).sum(),
    'index_select': lambda t: t.index_select(0, torch.tensor([2, 0, 2])).sin().sum(),
    'masked': lambda t: t[t > 0].pow(2).sum() * t.sum(),
    'scatter': lambda t: torch.zeros(3, 4).scatter(1, idx, t[:, :2] ** 2).sum() * t[0, 0],
    'scatter_add': lambda t: torch.zeros(3, 4).scatter_add(1, idx, t[:, 1:3]).pow(2).sum(),
    'index_add': lambda t: t.index_add(0, torch.tensor([0, 0, 1]), t * t).exp().sum(),
    'take': lambda t: torch.take(t, torch.tensor([0, 5, 5, 11])).pow(3).sum(),
    'masked_fill': lambda t: t.masked_fill(t < 0, 0.5).pow(3).sum(),
}
for n, f in cases.items():
    g, = torch.autograd.grad(f(x), x, create_graph=True)
    h, = torch.autograd.grad(g.pow(2).sum(), x)
    print(n, g.grad_fn)
    print(h)
'''

PROGRAMS['double_backward_scatter_reduce_index_put'] = PRE + r'''
torch.manual_seed(23)
src = torch.randn(5, dtype=torch.float64, requires_grad=True)
index = torch.tensor([0, 1, 0, 1, 2])
for red in ('sum', 'prod', 'mean', 'amax', 'amin'):
    out = torch.zeros(3, dtype=torch.float64).scatter_reduce(0, index, src, reduce=red, include_self=False)
    g, = torch.autograd.grad(out.pow(2).sum(), src, create_graph=True)
    try:
        h, = torch.autograd.grad(g.sum(), src)
        print(red, g.grad_fn, g.detach(), h)
    except Exception as e:
        print(red, g.grad_fn, type(e).__name__, e)
base = torch.zeros(4, dtype=torch.float64, requires_grad=True)
y = base.index_put((torch.tensor([1, 1, 3]),), src[:3] ** 2, accumulate=True)
g = torch.autograd.grad(y.pow(2).sum(), (base, src), create_graph=True)
print(g)
print(torch.autograd.grad(g[1].sum(), (base, src)))
'''

PROGRAMS['double_backward_cumsum_cumprod_logcumsumexp'] = PRE + r'''
for dt in (torch.float32, torch.float64):
    for vals in ([1.5, -2., 0.5, 3.], [1.5, 0., 0.5, 3.], [0., 2., 0., 1.]):
        x = torch.tensor(vals, dtype=dt, requires_grad=True)
        for f in (torch.cumsum, torch.cumprod, torch.logcumsumexp, torch.cummax):
            y = f(x, 0)
            y = y[0] if isinstance(y, tuple) else y
            g, = torch.autograd.grad((y * torch.arange(1., 5., dtype=dt)).sum(), x, create_graph=True)
            if g.requires_grad:
                h, = torch.autograd.grad(g.pow(2).sum(), x)
            else:
                h = None
            print(f.__name__, vals, g.detach(), h)
'''

PROGRAMS['double_backward_views_and_shapes'] = PRE + r'''
torch.manual_seed(24)
x = torch.randn(2, 3, requires_grad=True)
cases = {
    'transpose': lambda t: (t.T @ t).pow(2).sum(), 'expand': lambda t: t[:, :1].expand(2, 4).pow(3).sum(),
    'repeat': lambda t: t.repeat(2, 1).sin().sum(), 'unfold': lambda t: t.unfold(1, 2, 1).prod(-1).sum(),
    'flip': lambda t: (t.flip(1) * t).exp().sum(), 'roll': lambda t: (t.roll(1, 1) * t).pow(2).sum(),
    'diag': lambda t: torch.diag(t @ t.T).pow(2).sum(), 'tril': lambda t: (t.T @ t).tril().pow(2).sum(),
    'narrow_cat': lambda t: torch.cat([t.narrow(1, 0, 2), t], 1).pow(3).sum(),
    'stack_split': lambda t: torch.stack(t.split(1, 1)).prod(0).sum(),
    'trace': lambda t: torch.trace(t @ t.T) ** 2,
}
for n, f in cases.items():
    g, = torch.autograd.grad(f(x), x, create_graph=True)
    h, = torch.autograd.grad(g.sum(), x)
    print(n, g.grad_fn)
    print(g.detach(), h)
'''

# ---- backward(create_graph=True), retain_graph, allow_unused / materialize_grads

PROGRAMS['backward_create_graph_grad_has_grad_fn'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
y.backward(create_graph=True)
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
g = x.grad
x.grad = None
g.sum().backward()
print(x.grad)
x.grad = None
z = (x.exp()).sum()
z.backward(create_graph=True)
z2 = (x * x).sum()
z2.backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
x.grad.sum().backward()
print(x.grad)
'''

PROGRAMS['retain_graph_missing_at_second_order'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = torch.sin(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
h1, = torch.autograd.grad(g.sum(), x)
print(h1)
E(lambda: torch.autograd.grad(g.sum(), x))
E(lambda: torch.autograd.grad(y, x))
y = torch.exp(x).prod()
g, = torch.autograd.grad(y, x, create_graph=True)
h1, = torch.autograd.grad(g[0], x, retain_graph=True)
h2, = torch.autograd.grad(g[1], x)
print(h1, h2)
E(lambda: torch.autograd.grad(g[0], x))
y = torch.tanh(x).sum()
g, = torch.autograd.grad(y, x, retain_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), x))
E(lambda: g.sum().backward())
'''

PROGRAMS['retain_graph_false_with_create_graph_true'] = PRE + r'''
x = torch.tensor([2.0], requires_grad=True)
y = x ** 4
g, = torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
print(g)
E(lambda: torch.autograd.grad(y, x))
h, = torch.autograd.grad(g, x, create_graph=True)
print(h)
w = torch.tensor([3.0], requires_grad=True)
z = (w * w).sin()
z.backward(create_graph=True)
print(w.grad)
E(lambda: z.backward())
print(w.grad)
E(lambda: w.grad.backward())
print(w.grad)
'''

PROGRAMS['allow_unused_materialize_second_order'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
y = (a * x ** 2).sum()
gx, ga, gb = torch.autograd.grad(y, (x, a, b), create_graph=True, allow_unused=True)
print(gx, ga, gb)
E(lambda: torch.autograd.grad(ga, (x, a, b), retain_graph=True))
print(torch.autograd.grad(ga, (x, a, b), retain_graph=True, allow_unused=True))
print(torch.autograd.grad(ga, (x, a, b), retain_graph=True, materialize_grads=True))
print(torch.autograd.grad(gx.sum(), (x, a, b), retain_graph=True, allow_unused=True, materialize_grads=True))
E(lambda: torch.autograd.grad(gx.sum(), (x, b), retain_graph=True, allow_unused=False, materialize_grads=True))
gx, ga, gb = torch.autograd.grad(y, (x, a, b), create_graph=True, materialize_grads=True)
print(gb, gb.requires_grad, gb.grad_fn)
E(lambda: torch.autograd.grad(gb, x))
print(torch.autograd.grad(gx, x, torch.ones(2), is_grads_batched=False))
'''

PROGRAMS['grad_outputs_requiring_grad_second_order'] = PRE + r'''
x = torch.tensor([1.0, -2.0], requires_grad=True)
v = torch.tensor([0.5, 2.0], requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, grad_outputs=v, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
gv, gx = torch.autograd.grad(g.sum(), (v, x))
print(gv, gx)
g, = torch.autograd.grad(y, x, grad_outputs=v)
print(g, g.requires_grad)
y = x.exp()
g, = torch.autograd.grad(y, x, grad_outputs=v * 2, create_graph=True)
print(torch.autograd.grad(g, (x, v), torch.ones(2)))
'''

PROGRAMS['is_grads_batched_jacobian_of_gradient'] = PRE + r'''
x = torch.tensor([0.3, -0.4, 1.2], requires_grad=True)
y = (x.sin() * x.roll(1)).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
H, = torch.autograd.grad(g, x, torch.eye(3), is_grads_batched=True)
print(H)
H2 = torch.autograd.functional.hessian(lambda t: (t.sin() * t.roll(1)).sum(), x.detach())
print(torch.allclose(H, H2), H2)
'''

# ---- custom autograd.Function at second order

PROGRAMS['custom_function_differentiable_backward'] = PRE + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = Cube.apply(x)
print(y, y.grad_fn)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
h, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(h, h.grad_fn)
t, = torch.autograd.grad(h.sum(), x)
print(t)
print(torch.autograd.gradgradcheck(Cube.apply, (x.detach().double().requires_grad_(),)))
'''

PROGRAMS['custom_function_once_differentiable_error'] = PRE + r'''
from torch.autograd.function import once_differentiable
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('inside backward', g.requires_grad, x.requires_grad, torch.is_grad_enabled())
        return 2 * x * g
x = torch.tensor([1.0, 3.0], requires_grad=True)
y = Sq.apply(x)
g, = torch.autograd.grad(y.sum(), x)
print(g)
y = Sq.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
E(lambda: torch.autograd.grad(g.sum(), x))
y = Sq.apply(x * 2)
y.sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
'''

PROGRAMS['custom_function_saved_output_second_order'] = PRE + r'''
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r
for dt in (torch.float32, torch.float64):
    x = torch.tensor([0.1, 1.3], dtype=dt, requires_grad=True)
    y = MyExp.apply(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    h, = torch.autograd.grad(g.sum(), x, create_graph=True)
    print(g, h)
    print(g.grad_fn.next_functions, h.grad_fn)
class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b, a + b
    @staticmethod
    def backward(ctx, g1, g2):
        a, b = ctx.saved_tensors
        return g1 * b + g2, g1 * a + g2
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
p, s = TwoOut.apply(a, b)
ga, gb = torch.autograd.grad(p * s, (a, b), create_graph=True)
print(ga, gb, torch.autograd.grad(ga + gb, (a, b)))
'''

PROGRAMS['custom_function_backward_with_nondiff_ops'] = PRE + r'''
class Floorish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.floor()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * torch.sigmoid(x) * (1 - torch.sigmoid(x)) * 4
x = torch.tensor([0.2, -1.7, 2.5], requires_grad=True)
y = Floorish.apply(x)
g, = torch.autograd.grad((y * x).sum(), x, create_graph=True)
print(g, g.grad_fn)
h, = torch.autograd.grad(g.sum(), x)
print(h)
class Detached(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.detach()
y = Detached.apply(x)
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
print(g, g.grad_fn)
print(torch.autograd.grad(g.sum(), x))
'''

PROGRAMS['custom_function_setup_context_double_backward'] = PRE + r'''
class Sin(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
x = torch.tensor([0.4, 2.2], dtype=torch.float64, requires_grad=True)
d = Sin.apply(x)
for k in range(3):
    d, = torch.autograd.grad(d.sum(), x, create_graph=True)
    print(k, d, d.grad_fn)
print(torch.func.grad(torch.func.grad(lambda t: Sin.apply(t).sum()))(x.detach()) if False else None)
'''

# ---- torch.func: hessian, jacfwd(jacrev), grad of grad

PROGRAMS['func_hessian_vs_double_backward'] = PRE + r'''
from torch.func import hessian, jacfwd, jacrev, grad
def f(x):
    return (x.sin() * x.exp()).sum() + x.prod()
for dt in (torch.float32, torch.float64):
    x = torch.tensor([0.5, -0.3, 1.1], dtype=dt)
    H1 = hessian(f)(x)
    H2 = jacfwd(jacrev(f))(x)
    H3 = jacrev(jacrev(f))(x)
    xr = x.clone().requires_grad_()
    g, = torch.autograd.grad(f(xr), xr, create_graph=True)
    H4 = torch.stack([torch.autograd.grad(g[i], xr, retain_graph=True)[0] for i in range(3)])
    print(H1, H2, H3, H4, sep='\n')
    print(torch.equal(H1, H2), torch.equal(H3, H4))
    print(grad(grad(lambda t: t.sin().sum() if t.dim() else t.sin()))(torch.tensor(0.7, dtype=dt)))
'''

PROGRAMS['func_grad_of_grad_scalar_chain'] = PRE + r'''
from torch.func import grad, vmap
f = lambda x: torch.tanh(x) ** 2
d1, d2, d3 = grad(f), grad(grad(f)), grad(grad(grad(f)))
x = torch.tensor(0.3)
print(d1(x), d2(x), d3(x))
xs = torch.linspace(-1, 1, 5)
print(vmap(d2)(xs))
print(vmap(d3)(xs.double()))
xr = xs.clone().requires_grad_()
g, = torch.autograd.grad(f(xr).sum(), xr, create_graph=True)
h, = torch.autograd.grad(g.sum(), xr, create_graph=True)
t, = torch.autograd.grad(h.sum(), xr)
print(g.detach(), h.detach(), t)
'''

PROGRAMS['func_hessian_of_mlp_loss_params'] = PRE + r'''
from torch.func import functional_call, hessian
torch.manual_seed(25)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
x, y = torch.randn(4, 2), torch.randn(4, 1)
params = {k: v.detach() for k, v in model.named_parameters()}
def loss(p):
    return torch.nn.functional.mse_loss(functional_call(model, p, (x,)), y)
H = hessian(loss)(params)
print(H['2.bias']['2.bias'], H['2.weight']['2.bias'])
print(H['0.bias']['0.bias'])
l = loss({k: v.clone().requires_grad_() for k, v in params.items()})
ps = [p for p in model.parameters()]
g = torch.autograd.grad(torch.nn.functional.mse_loss(model(x), y), ps, create_graph=True)
print(torch.autograd.grad(g[3].sum(), ps[3], retain_graph=True)[0], torch.autograd.grad(g[1][0], ps[1])[0])
'''

PROGRAMS['func_jvp_of_grad_hvp'] = PRE + r'''
from torch.func import jvp, grad, vjp
def f(x):
    return (x ** 3).sum() + (x[0] * x[1]).sin()
x = torch.tensor([0.4, -0.9], dtype=torch.float64)
v = torch.tensor([1.0, 2.0], dtype=torch.float64)
_, hv = jvp(grad(f), (x,), (v,))
print(hv)
_, vjp_fn = vjp(grad(f), x)
print(vjp_fn(v))
print(torch.autograd.functional.hvp(f, x, v)[1])
print(torch.autograd.functional.hvp(f, x, v, create_graph=False))
'''

# fixed: torch.func.grad's backward, vmap over a batched gradient and hessian see wrapped ("subclass-like") inputs:
# prod takes its safe (cumprod) backward there, cumprod its stacked O(n²) one; a vjp_fn called later does not
PROGRAMS['func_prod_and_cumprod_wrapped_backward_bits'] = PRE + r'''
from torch.func import grad, vjp, vmap, jacrev, jacfwd, hessian
torch.manual_seed(26)
y = torch.rand(6) + 0.5
print(grad(lambda t: t.prod())(y))
print(jacrev(lambda t: t.prod())(y))
print(vmap(grad(lambda t: t.prod()))(y.reshape(2, 3)))
print(hessian(lambda t: t.prod())(y[:4]))
print(jacrev(jacrev(lambda t: t.prod()))(y[:3]))
_, fn = vjp(lambda t: t.prod(), y)
print(fn(torch.tensor(1.0)))
yr = y.clone().requires_grad_()
print(grad(lambda t: t.prod())(yr))
print(jacrev(lambda t: t.cumprod(0))(y[:4]))
print(hessian(lambda t: t.cumprod(0).sum())(torch.tensor([0.5, -0.3, 1.1])))
print(grad(lambda t: t.cumprod(0).sum())(y))
'''

# ---- more nn at second order: pooling, embeddings, attention, recurrent cells, normalize

PROGRAMS['double_backward_pooling'] = PRE + r'''
torch.manual_seed(27)
F = torch.nn.functional
x = torch.randn(1, 2, 4, 4, requires_grad=True)
for name, f in (('max_pool2d', lambda t: F.max_pool2d(t, 2)), ('avg_pool2d', lambda t: F.avg_pool2d(t, 3, 1, 1)),
                ('adaptive_avg', lambda t: F.adaptive_avg_pool2d(t, (3, 2))), ('adaptive_max', lambda t: F.adaptive_max_pool2d(t, 2)),
                ('lp_pool', lambda t: F.lp_pool2d(t, 2, 2)), ('max_pool1d', lambda t: F.max_pool1d(t.flatten(2), 3, 2))):
    y = f(x)
    g, = torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)
    print(name, y.grad_fn, g.grad_fn)
    h = torch.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)[0]
    print(g[0, 0], h[0, 1])
'''

PROGRAMS['double_backward_embedding_and_bag'] = PRE + r'''
torch.manual_seed(28)
emb = torch.nn.Embedding(5, 3)
idx = torch.tensor([[0, 2, 2], [4, 1, 0]])
out = emb(idx)
loss = (out.sum(1) ** 2).sum()
g, = torch.autograd.grad(loss, emb.weight, create_graph=True)
print(g.grad_fn, g)
pen = g.pow(2).sum()
pen.backward()
print(emb.weight.grad)
bag = torch.nn.EmbeddingBag(5, 2, mode='mean')
o = bag(torch.tensor([0, 1, 1, 3]), torch.tensor([0, 2]))
g, = torch.autograd.grad((o ** 2).sum(), bag.weight, create_graph=True)
print(g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), bag.weight))
'''

PROGRAMS['double_backward_attention_sdpa_mha'] = PRE + r'''
torch.manual_seed(29)
F = torch.nn.functional
q = torch.randn(1, 2, 3, 4, requires_grad=True)
k = torch.randn(1, 2, 3, 4, requires_grad=True)
v = torch.randn(1, 2, 3, 4, requires_grad=True)
o = F.scaled_dot_product_attention(q, k, v)
print(o.grad_fn)
gq, = torch.autograd.grad(o.pow(2).sum(), q, create_graph=True)
print(gq.grad_fn, gq[0, 0])
E(lambda: torch.autograd.grad(gq.sum(), (k, v), retain_graph=True))
def attn(q, k, v):
    w = (q @ k.transpose(-1, -2) / 2).softmax(-1)
    return w @ v
o2 = attn(q, k, v)
gq2, = torch.autograd.grad(o2.pow(2).sum(), q, create_graph=True)
print(torch.allclose(gq, gq2), gq2.grad_fn)
print(torch.autograd.grad(gq2.sum(), v)[0][0, 1])
'''

PROGRAMS['double_backward_rnn_cells'] = PRE + r'''
torch.manual_seed(30)
for cell in (torch.nn.RNNCell(3, 4), torch.nn.GRUCell(3, 4), torch.nn.LSTMCell(3, 4)):
    x = torch.randn(2, 3, requires_grad=True)
    h = cell(x)
    h = h[0] if isinstance(h, tuple) else h
    g, = torch.autograd.grad(h.pow(2).sum(), x, create_graph=True)
    print(type(cell).__name__, g.grad_fn)
    print(g)
    cell.zero_grad()
    g.pow(2).sum().backward()
    print(cell.weight_ih.grad[0], cell.bias_hh.grad[:4])
'''

PROGRAMS['double_backward_lstm_gru_layers'] = PRE + r'''
torch.manual_seed(31)
for m in (torch.nn.LSTM(2, 3, batch_first=True), torch.nn.GRU(2, 3, num_layers=2), torch.nn.RNN(2, 3, nonlinearity='relu')):
    x = torch.randn(2, 3, 2, requires_grad=True)
    out, _ = m(x)
    g, = torch.autograd.grad(out.pow(2).sum(), x, create_graph=True)
    print(type(m).__name__, out.grad_fn, g.grad_fn)
    try:
        m.zero_grad()
        g.pow(2).sum().backward()
        print(m.weight_hh_l0.grad[0], x.grad[0])
    except Exception as e:
        print(type(e).__name__, e)
'''

PROGRAMS['double_backward_normalize_cosine_distances'] = PRE + r'''
torch.manual_seed(32)
F = torch.nn.functional
for dt in (torch.float32, torch.float64):
    a = torch.randn(3, 4, dtype=dt, requires_grad=True)
    b = torch.randn(3, 4, dtype=dt, requires_grad=True)
    for name, f in (('normalize', lambda: F.normalize(a, dim=1) * b), ('cos', lambda: F.cosine_similarity(a, b)),
                    ('pairwise', lambda: F.pairwise_distance(a, b)), ('cdist', lambda: torch.cdist(a, b)),
                    ('pdist', lambda: F.pdist(a)), ('dist', lambda: torch.dist(a, b, 3))):
        y = f()
        ga, = torch.autograd.grad(y.sum(), a, create_graph=True)
        print(name, y.grad_fn, ga.grad_fn)
        try:
            h = torch.autograd.grad(ga.pow(2).sum(), (a, b), allow_unused=True, materialize_grads=True)
            print(ga[0], h[0][1], h[1][2])
        except Exception as e:
            print(type(e).__name__, e)
'''

PROGRAMS['double_backward_interpolate_pad_pixelshuffle'] = PRE + r'''
torch.manual_seed(33)
F = torch.nn.functional
x = torch.randn(1, 4, 3, 3, dtype=torch.float64, requires_grad=True)
for name, f in (('bilinear', lambda t: F.interpolate(t, scale_factor=2, mode='bilinear', align_corners=False)),
                ('nearest', lambda t: F.interpolate(t, size=(5, 4))),
                ('bicubic', lambda t: F.interpolate(t, size=4, mode='bicubic', align_corners=True)),
                ('reflect', lambda t: F.pad(t, (1, 1, 2, 0), mode='reflect')),
                ('replicate', lambda t: F.pad(t, (2, 1, 1, 1), mode='replicate')),
                ('circular', lambda t: F.pad(t, (1, 2, 1, 0), mode='circular')),
                ('pixel_shuffle', lambda t: F.pixel_shuffle(t, 2)), ('unfold', lambda t: F.unfold(t, 2)),
                ('grid_sample', lambda t: F.grid_sample(t, torch.zeros(1, 2, 2, 2, dtype=torch.float64) + 0.3, align_corners=False))):
    y = f(x)
    g, = torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)
    print(name, y.grad_fn, g.grad_fn)
    try:
        h, = torch.autograd.grad(g.sum(), x)
        print(h[0, 1])
    except Exception as e:
        print(type(e).__name__, e)
'''

PROGRAMS['double_backward_dropout_seeded'] = PRE + r'''
torch.manual_seed(34)
x = torch.randn(8, requires_grad=True)
torch.manual_seed(0)
y = torch.nn.functional.dropout(x, 0.5) ** 2
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(y.grad_fn, g.grad_fn, g)
print(torch.autograd.grad(g.sum(), x)[0])
torch.manual_seed(1)
d = torch.nn.Dropout(0.25)
z = d(x.exp()).sum()
g, = torch.autograd.grad(z, x, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x)[0])
d.eval()
g, = torch.autograd.grad(d(x.exp()).sum(), x, create_graph=True)
print(g.grad_fn)
'''

# fixed: torch.func.grad differentiates in grad mode (PyTorch's create_graph=True): the formulas take their
# differentiable forms (silu, mish, group_norm, linalg.solve/slogdet), and det its SVD form for wrapped matrices
PROGRAMS['func_grad_runs_formulas_in_grad_mode'] = PRE + r'''
from torch.func import grad, vmap, hessian
F = torch.nn.functional
torch.manual_seed(35)
x = torch.randn(3, 4)
fs = {
    'silu': lambda t: F.silu(t).pow(2).sum(), 'mish': lambda t: F.mish(t).pow(2).sum(),
    'group_norm': lambda t: (F.group_norm(t.unsqueeze(0), 1) ** 3).sum(),
    'det': lambda t: torch.linalg.det(t[:, :3]), 'slogdet': lambda t: torch.linalg.slogdet(t[:, :3])[1],
    'solve': lambda t: torch.linalg.solve(t[:, :3] + 3 * torch.eye(3), t[:, 3]).pow(2).sum(),
}
for n, f in fs.items():
    print(n, grad(f)(x))
    print(vmap(grad(f))(torch.stack([x, x * 0.5]))[1, 0])
with torch.no_grad():
    print(grad(fs['silu'])(x)[0])
print(hessian(torch.linalg.det)(x[:, :3])[0, 1])
'''

# fixed: hessian (jacfwd over jacrev) of linalg.matrix_exp raised vmap's in-place error: under torch.func PyTorch
# joins the block matrix of its differential with cat instead of copying into zeros
PROGRAMS['func_hessian_of_matrix_exp'] = PRE + r'''
from torch.func import hessian, jacrev, grad
torch.manual_seed(36)
A = torch.randn(3, 3) * 0.3
f = lambda t: torch.linalg.matrix_exp(t).sum()
print(hessian(f)(A)[0, 1])
print(jacrev(grad(f))(A)[2, 2])
Ar = A.clone().requires_grad_()
g, = torch.autograd.grad(f(Ar), Ar, create_graph=True)
print(g)
print(torch.autograd.grad(g[0, 1], Ar)[0])
print(hessian(lambda t: torch.linalg.matrix_exp(t)[0, 0])(A.double())[1, 1])
'''


# ---- more student programs: closed forms, Laplacians, the double-vjp trick, hooks at second order

PROGRAMS['logistic_regression_hessian_vs_closed_form'] = PRE + r"""
torch.manual_seed(37)
X = torch.randn(6, 3)
y = (torch.rand(6) > 0.5).float()
w = torch.zeros(3, requires_grad=True)
for it in range(3):
    loss = torch.nn.functional.binary_cross_entropy_with_logits(X @ w, y)
    g, = torch.autograd.grad(loss, w, create_graph=True)
    H = torch.stack([torch.autograd.grad(g[i], w, retain_graph=True)[0] for i in range(3)])
    p = torch.sigmoid(X @ w).detach()
    Hc = X.T @ torch.diag(p * (1 - p)) @ X / 6
    print(it, loss.item(), g.detach(), H, torch.allclose(H, Hc), (H - Hc).abs().max().item())
    with torch.no_grad():
        w -= torch.linalg.solve(H, g)
print(w)
"""

PROGRAMS['laplacian_of_mlp_scalar_field'] = PRE + r"""
torch.manual_seed(38)
net = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Softplus(), torch.nn.Linear(5, 1)).double()
x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
u = net(x).squeeze(1)
g, = torch.autograd.grad(u.sum(), x, create_graph=True)
lap = sum(torch.autograd.grad(g[:, i].sum(), x, create_graph=True)[0][:, i] for i in range(3))
print(u, g, lap, sep='\n')
print(lap.grad_fn)
loss = (lap - 1).pow(2).mean()
loss.backward()
print(net[0].weight.grad)
print(net[2].bias.grad)
"""

PROGRAMS['double_vjp_trick_for_jvp'] = PRE + r"""
torch.manual_seed(39)
W = torch.randn(3, 4)
def f(x):
    return torch.tanh(x @ W.T) * x[:3]
for dt in (torch.float32, torch.float64):
    x = torch.randn(4, dtype=dt, requires_grad=True)
    v = torch.randn(4, dtype=dt)
    Wd = W.to(dt)
    y = torch.tanh(x @ Wd.T) * x[:3]
    u = torch.zeros_like(y, requires_grad=True)
    g, = torch.autograd.grad(y, x, u, create_graph=True)
    jv, = torch.autograd.grad(g, u, v)
    print(g.grad_fn, jv)
    print(torch.autograd.functional.jvp(lambda t: torch.tanh(t @ Wd.T) * t[:3], x.detach(), v))
"""

PROGRAMS['hooks_during_double_backward'] = PRE + r"""
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = x.sin()
h.register_hook(lambda g: print('hook on h', g, g.requires_grad, g.grad_fn))
y = (h ** 2).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
g.register_hook(lambda t: print('hook on g', t))
x.register_hook(lambda t: print('hook on x', t.requires_grad))
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
h2 = x.exp()
h2.register_hook(lambda t: t * 2)
g2, = torch.autograd.grad(h2.sum(), x, create_graph=True)
print(g2, g2.grad_fn, torch.autograd.grad(g2.sum(), x)[0])
"""

PROGRAMS['functional_jacobian_create_graph_then_backward'] = PRE + r"""
from torch.autograd.functional import jacobian, hessian, vjp, jvp
torch.manual_seed(40)
x = torch.randn(3, requires_grad=True)
J = jacobian(lambda t: t.sin() * t.sum(), x, create_graph=True)
print(J.grad_fn, J)
J.pow(2).sum().backward()
print(x.grad)
x.grad = None
H = hessian(lambda t: (t ** 3).sum() * t[0], x, create_graph=True)
print(H.requires_grad, H)
H.trace().backward()
print(x.grad)
out, v = vjp(lambda t: t.exp(), x, torch.ones(3), create_graph=True)
print(v.grad_fn, torch.autograd.grad(v.sum(), x)[0])
out, t = jvp(lambda t: t.exp() * t, x, torch.ones(3), create_graph=True)
print(t.requires_grad, torch.autograd.grad(t.sum(), x)[0])
"""


@pytest.fixture(autouse=True, scope="module")
def _transforms_warmed_up():
    """PyTorch's first forward-mode transform loads its jvp decompositions, which warn that torch.jit.script is
    deprecated, and its first optimizer imports modules for seconds: done here, so that no program's output or time
    depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.func.jacfwd(torch.sin)(torch.ones(2))
        torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        run_both("import torch\n")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
