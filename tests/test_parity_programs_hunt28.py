"""Parity programs from a twenty-eighth hunt: numerical-methods programs a student writes with autograd.

What a science or engineering student writes after learning autograd: gradient descent on Rosenbrock, Himmelblau
and quadratics with a hand-written loop, Newton's method with ``torch.autograd.functional.hessian`` / ``jacobian``
and ``torch.linalg.solve``, root finding and implicit differentiation, least-squares curve fits (``linalg.lstsq``
and gradient descent), small physics simulations differentiated through their Euler steps, log-likelihoods and MLE
with ``torch.distributions``, special functions and their gradients, linear-algebra gradients, float32 against
float64 runs of one algorithm, ``gradcheck`` of the student's own functions and the ``torch.func`` versions of the
same. Each program must print exactly what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's
``E``/``W`` helpers, every warning also printed on stdout). Programs marked "fixed:" printed something different
from PyTorch before this hunt's fixes (float32 atan2's SLEEF bits, pdist's sums, gammainc / gammaincc as ATen's
float and double templates, entr's logf, torch.gradient's slice order, complex cumprod's fused products,
slogdet's backward through lu_solve, and ``torch._is_all_true`` for the distributions' checks under vmap).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- optimization by hand: gradient descent, Newton, line search

PROGRAMS['opt_rosenbrock_gd_hand_loop'] = PRE + r'''
def rosen(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2
p = torch.tensor([-1.5, 2.0], requires_grad=True)
lr = 1e-3
for it in range(301):
    f = rosen(p)
    f.backward()
    if it % 50 == 0:
        print(it, f.item(), p.data, p.grad)
    with torch.no_grad():
        p -= lr * p.grad
    p.grad.zero_()
print(p, rosen(p), rosen(p).grad_fn)
'''

PROGRAMS['opt_rosenbrock_newton_hessian_float64'] = PRE + r'''
from torch.autograd.functional import hessian, jacobian
def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
p = torch.tensor([-1.2, 1.0], dtype=torch.float64)
for k in range(8):
    g = jacobian(rosen, p)
    H = hessian(rosen, p)
    step = torch.linalg.solve(H, g)
    p = p - step
    print(k, p, rosen(p).item(), g.norm().item())
print(H, H.dtype)
print(torch.linalg.eigvalsh(H))
'''

PROGRAMS['opt_himmelblau_many_starts'] = PRE + r'''
def himmelblau(x, y):
    return (x ** 2 + y - 11) ** 2 + (x + y ** 2 - 7) ** 2
starts = torch.tensor([[0., 0.], [-2., 3.], [-3., -3.], [3., -2.]])
for s in starts:
    p = s.clone().requires_grad_(True)
    opt = torch.optim.SGD([p], lr=0.01)
    for i in range(80):
        opt.zero_grad()
        f = himmelblau(p[0], p[1])
        f.backward()
        opt.step()
    print(s.tolist(), p.detach(), f.item(), p.grad)
x, y = torch.meshgrid(torch.linspace(-5, 5, 5), torch.linspace(-5, 5, 5), indexing='ij')
print(himmelblau(x, y))
'''

PROGRAMS['opt_quadratic_exact_line_search_cg'] = PRE + r'''
torch.manual_seed(0)
A = torch.randn(4, 4, dtype=torch.float64)
A = A @ A.T + 4 * torch.eye(4, dtype=torch.float64)
b = torch.randn(4, dtype=torch.float64)
def f(x):
    return 0.5 * x @ A @ x - b @ x
x = torch.zeros(4, dtype=torch.float64, requires_grad=True)
for k in range(6):
    g, = torch.autograd.grad(f(x), x)
    alpha = (g @ g) / (g @ A @ g)
    with torch.no_grad():
        x -= alpha * g
    print(k, f(x).item(), g.norm().item(), alpha.item())
xs = torch.linalg.solve(A, b)
print(xs, (x - xs).abs().max())
# conjugate gradient, hand-written
x = torch.zeros(4, dtype=torch.float64)
r = b - A @ x; d = r.clone()
for k in range(4):
    a = (r @ r) / (d @ A @ d)
    x = x + a * d
    rn = r - a * A @ d
    d = rn + (rn @ rn) / (r @ r) * d
    r = rn
    print(k, r.norm())
print(torch.allclose(x, xs), x)
'''

PROGRAMS['opt_backtracking_armijo'] = PRE + r'''
def f(x):
    return torch.log(torch.exp(x[0] + 3 * x[1] - 0.1) + torch.exp(x[0] - 3 * x[1] - 0.1) + torch.exp(-x[0] - 0.1))
x = torch.tensor([1.0, 1.0], requires_grad=True)
for k in range(10):
    fx = f(x)
    g, = torch.autograd.grad(fx, x)
    t = 1.0
    while f(x.detach() - t * g) > fx - 0.3 * t * (g @ g):
        t *= 0.5
    x = (x.detach() - t * g).requires_grad_()
    print(k, round(t, 6), fx.item(), g)
print(x, f(x), f(x).grad_fn.name())
'''

PROGRAMS['opt_newton_1d_and_bisection_roots'] = PRE + r'''
def g(x):
    return x ** 3 - 2 * x - 5
x = torch.tensor(2.0, requires_grad=True)
for k in range(6):
    y = g(x)
    dy, = torch.autograd.grad(y, x)
    with torch.no_grad():
        x = x - y / dy
    x.requires_grad_()
    print(k, x.item(), y.item(), dy.item())
lo, hi = torch.tensor(2.0), torch.tensor(3.0)
for k in range(30):
    mid = (lo + hi) / 2
    if g(mid) * g(lo) > 0:
        lo = mid
    else:
        hi = mid
print(mid, g(mid), (mid - x).abs())
x64 = torch.tensor(2.0, dtype=torch.float64)
for k in range(6):
    x64 = x64.requires_grad_()
    y = g(x64); dy, = torch.autograd.grad(y, x64)
    x64 = (x64 - y / dy).detach()
print(x64, x64.item())
'''

PROGRAMS['opt_fixed_point_implicit_diff'] = PRE + r'''
# x* = cos(a x*): differentiate x* w.r.t. a by the implicit function theorem and by unrolling
a = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
x = torch.tensor(0.5, dtype=torch.float64)
with torch.no_grad():
    for _ in range(100):
        x = torch.cos(a * x)
print(x)
xs = x.clone().requires_grad_()
F = xs - torch.cos(a * xs)
dFdx, dFda = torch.autograd.grad(F, (xs, a))
print(dFdx, dFda, -dFda / dFdx)
y = torch.tensor(0.5, dtype=torch.float64)
for _ in range(60):
    y = torch.cos(a * y)
y.backward()
print(y.grad_fn, a.grad, (a.grad + dFda / dFdx).abs() < 1e-12)
'''

PROGRAMS['opt_newton_system_jacobian'] = PRE + r'''
from torch.autograd.functional import jacobian
def F(v):
    x, y = v[0], v[1]
    return torch.stack([x ** 2 + y ** 2 - 4, torch.exp(x) + y - 1])
v = torch.tensor([1.0, -1.7])
for k in range(6):
    J = jacobian(F, v)
    r = F(v)
    v = v - torch.linalg.solve(J, r)
    print(k, v, r.norm().item())
print(J)
print(torch.linalg.det(J), torch.linalg.cond(J))
J0 = torch.tensor([[1., 2.], [2., 4.]])
E(lambda: torch.linalg.solve(J0, r))
E(lambda: torch.linalg.inv(J0))
print(torch.linalg.det(J0), torch.linalg.matrix_rank(J0))
'''

PROGRAMS['opt_gd_momentum_vs_adam_on_ill_conditioned'] = PRE + r'''
D = torch.tensor([1., 50.])
def f(x):
    return 0.5 * (D * x ** 2).sum()
for name, make in [('sgd', lambda p: torch.optim.SGD([p], lr=0.019)),
                   ('mom', lambda p: torch.optim.SGD([p], lr=0.019, momentum=0.9)),
                   ('nest', lambda p: torch.optim.SGD([p], lr=0.019, momentum=0.9, nesterov=True)),
                   ('adam', lambda p: torch.optim.Adam([p], lr=0.1))]:
    p = torch.tensor([1., 1.], requires_grad=True)
    opt = make(p)
    for i in range(40):
        opt.zero_grad()
        loss = f(p)
        loss.backward()
        opt.step()
    print(name, loss.item(), p.detach())
'''

PROGRAMS['opt_lbfgs_rosenbrock'] = PRE + r'''
p = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=1, max_iter=20, line_search_fn='strong_wolfe')
calls = []
def closure():
    opt.zero_grad()
    f = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
    f.backward()
    calls.append(f.item())
    return f
for step in range(3):
    loss = opt.step(closure)
    print(step, loss.item(), p.detach(), len(calls))
print(opt.state[p]['n_iter'], opt.state[p]['func_evals'])
'''

# ---- least squares and curve fitting

PROGRAMS['fit_polynomial_lstsq_vander'] = PRE + r'''
x = torch.linspace(-1, 1, 9, dtype=torch.float64)
y = 1 - 2 * x + 0.25 * x ** 2 + 0.5 * x ** 3
A = torch.linalg.vander(x, N=4)
print(A[:3])
sol = torch.linalg.lstsq(A, y.unsqueeze(1))
print(sol.solution.squeeze(), sol.residuals, sol.rank, sol.singular_values)
print(type(sol).__name__, sol._fields if hasattr(sol, '_fields') else None)
coef = torch.linalg.pinv(A) @ y
print(coef)
normal = torch.linalg.solve(A.T @ A, A.T @ y)
print(normal, (normal - coef).abs().max() < 1e-12)
A32 = A.float()
s32 = torch.linalg.lstsq(A32, y.float().unsqueeze(1), driver='gelsd')
print(s32.solution.squeeze(), s32.residuals, s32.rank, s32.singular_values)
# (the default driver, gelsy, is not bit-deterministic in PyTorch: its pivots start uninitialized)
print(torch.linalg.lstsq(A, y, driver='gelss').solution.squeeze().round(decimals=10))
'''

PROGRAMS['fit_exponential_decay_gd'] = PRE + r'''
t = torch.linspace(0, 4, 20)
y = 3.0 * torch.exp(-0.7 * t) + 0.02 * torch.sin(13 * t)
A = torch.tensor(1.0, requires_grad=True)
k = torch.tensor(0.1, requires_grad=True)
opt = torch.optim.Adam([A, k], lr=0.05)
for i in range(301):
    opt.zero_grad()
    pred = A * torch.exp(-k * t)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    opt.step()
    if i % 60 == 0:
        print(i, loss.item(), A.item(), k.item(), A.grad.item(), k.grad.item())
print(pred.grad_fn, loss.grad_fn)
# linearized fit: log y = log A - k t
sol = torch.linalg.lstsq(torch.stack([torch.ones_like(t), -t], 1), torch.log(y).unsqueeze(1)).solution
print(sol.squeeze(), sol[0].exp())
'''

PROGRAMS['fit_sinusoid_gd_and_fft_init'] = PRE + r'''
torch.manual_seed(3)
t = torch.arange(64.) / 64
y = 1.5 * torch.sin(2 * torch.pi * 5 * t + 0.3) + 0.1 * torch.randn(64)
spec = torch.fft.rfft(y)
f0 = spec.abs()[1:].argmax() + 1
print(f0, spec.abs()[f0], spec[f0].angle())
amp = torch.tensor(1.0, requires_grad=True)
ph = torch.tensor(0.0, requires_grad=True)
w = torch.tensor(2 * torch.pi * f0.item(), requires_grad=True)
opt = torch.optim.SGD([amp, ph, w], lr=0.05)
for i in range(200):
    opt.zero_grad()
    loss = ((amp * torch.sin(w * t + ph) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if i % 40 == 0:
        print(i, loss.item(), amp.item(), ph.item(), w.item())
print(w.grad, ph.grad, amp.grad)
'''

PROGRAMS['fit_weighted_least_squares_and_gradients_of_lstsq'] = PRE + r'''
x = torch.tensor([0., 1., 2., 3., 4.], dtype=torch.float64)
y = torch.tensor([1.1, 2.9, 5.2, 7.1, 8.8], dtype=torch.float64, requires_grad=True)
w = torch.tensor([1., 2., 1., 2., 1.], dtype=torch.float64)
A = torch.stack([torch.ones_like(x), x], 1)
W = torch.diag(w.sqrt())
sol = torch.linalg.lstsq(W @ A, (W @ y).unsqueeze(1)).solution.squeeze(1)
print(sol, sol.grad_fn)
sol[1].backward()
print(y.grad)
Ad = A.clone().requires_grad_()
s2 = torch.linalg.lstsq(Ad, y.detach().unsqueeze(1)).solution
s2.sum().backward()
print(Ad.grad)
print(torch.linalg.lstsq(A, y.detach()).solution if False else None)
E(lambda: torch.linalg.lstsq(A, y.detach()))
E(lambda: torch.linalg.lstsq(A.float(), y.detach().unsqueeze(1)))
'''

PROGRAMS['fit_logistic_growth_float64_vs_float32'] = PRE + r'''
t = torch.arange(0., 10.)
pop = torch.tensor([2., 4., 9., 18., 33., 52., 68., 78., 83., 86.])
def run(dtype):
    K = torch.tensor(50., dtype=dtype, requires_grad=True)
    r = torch.tensor(0.5, dtype=dtype, requires_grad=True)
    t0 = torch.tensor(4., dtype=dtype, requires_grad=True)
    opt = torch.optim.Adam([K, r, t0], lr=0.1)
    for i in range(150):
        opt.zero_grad()
        pred = K * torch.sigmoid(r * (t.to(dtype) - t0))
        loss = torch.nn.functional.mse_loss(pred, pop.to(dtype))
        loss.backward()
        opt.step()
    return loss.item(), K.item(), r.item(), t0.item()
a, b = run(torch.float32), run(torch.float64)
print(a)
print(b)
print([abs(u - v) < 1e-2 for u, v in zip(a, b)])
'''

# ---- physics simulations

PROGRAMS['phys_projectile_drag_angle_gradient'] = PRE + r'''
import math
def shoot(theta, v0=30., k=0.05, dt=0.04):
    vx, vy = v0 * torch.cos(theta), v0 * torch.sin(theta)
    x = torch.zeros(()); y = torch.zeros(())
    for _ in range(200):
        v = torch.sqrt(vx ** 2 + vy ** 2)
        vx = vx - k * v * vx * dt
        vy = vy - (9.81 + k * v * vy) * dt
        x = x + vx * dt
        y = y + vy * dt
        if y.item() < 0:
            break
    return x
theta = torch.tensor(math.pi / 4, requires_grad=True)
for it in range(3):
    r = shoot(theta)
    r.backward()
    print(it, r.item(), theta.item(), theta.grad.item())
    with torch.no_grad():
        theta += 0.002 * theta.grad
    theta.grad = None
print(r.grad_fn)
'''

PROGRAMS['phys_spring_mass_energy_and_forces'] = PRE + r'''
k = torch.tensor([1.0, 2.0, 1.5])
def energy(q):
    ext = torch.cat([q[:1], q[1:] - q[:-1]])
    return 0.5 * (k * ext ** 2).sum()
q = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)
U = energy(q)
F, = torch.autograd.grad(-U, q)
print(U, F)
K = torch.autograd.functional.hessian(energy, q.detach())
print(K)
w2 = torch.linalg.eigvalsh(K)
print(w2, w2.sqrt())
# leapfrog integration, energy drift
p = torch.zeros(3)
qq = q.detach().clone()
dt = 0.05
for step in range(200):
    qq.requires_grad_(True)
    f, = torch.autograd.grad(-energy(qq), qq)
    p = p + 0.5 * dt * f
    qq = qq.detach() + dt * p
    qq.requires_grad_(True)
    f, = torch.autograd.grad(-energy(qq), qq)
    p = p + 0.5 * dt * f
    if step % 50 == 0:
        print(step, (energy(qq) + 0.5 * (p ** 2).sum()).item())
'''

PROGRAMS['phys_pendulum_period_sensitivity'] = PRE + r'''
def simulate(theta0, L, g=9.81, dt=0.01, n=300):
    th, om = theta0, torch.zeros_like(theta0)
    traj = []
    for i in range(n):
        om = om - (g / L) * torch.sin(th) * dt
        th = th + om * dt
        traj.append(th)
    return torch.stack(traj)
theta0 = torch.tensor(0.5, requires_grad=True)
L = torch.tensor(1.0, requires_grad=True)
traj = simulate(theta0, L)
print(traj[::50])
traj[-1].backward()
print(theta0.grad, L.grad)
crossings = ((traj[:-1] > 0) & (traj[1:] <= 0)).nonzero().squeeze(1)
print(crossings, crossings.dtype)
import math
print(2 * math.pi * math.sqrt(1.0 / 9.81))
energy = 0.5 * ((traj[1:] - traj[:-1]) / 0.01) ** 2 - 9.81 * torch.cos(traj[1:])
print(energy[::60].detach())
'''

PROGRAMS['phys_heat_equation_explicit_param_grad'] = PRE + r'''
n = 11
x = torch.linspace(0, 1, n)
u0 = torch.sin(torch.pi * x)
alpha = torch.tensor(0.1, requires_grad=True)
dx = 1 / (n - 1); dt = 0.001
u = u0
for step in range(100):
    lap = torch.zeros_like(u)
    lap[1:-1] = (u[2:] - 2 * u[1:-1] + u[:-2]) / dx ** 2
    u = u + alpha * dt * lap
print(u)
print(u.grad_fn, lap.grad_fn)
target = u0 * torch.exp(torch.tensor(-0.1 * torch.pi ** 2 * 0.1))
err = ((u - target) ** 2).sum()
err.backward()
print(err, alpha.grad)
'''

PROGRAMS['phys_orbit_symplectic_vs_euler'] = PRE + r'''
def accel(r):
    return -r / r.norm() ** 3
def run(method, dt=0.01, n=300):
    r = torch.tensor([1.0, 0.0], dtype=torch.float64)
    v = torch.tensor([0.0, 1.0], dtype=torch.float64)
    for i in range(n):
        if method == 'euler':
            r, v = r + dt * v, v + dt * accel(r)
        else:
            v = v + dt * accel(r)
            r = r + dt * v
    E = 0.5 * v @ v - 1 / r.norm()
    L = r[0] * v[1] - r[1] * v[0]
    return r, E, L
for m in ['euler', 'symplectic']:
    r, En, L = run(m)
    print(m, r, En.item(), L.item())
r = torch.tensor([1.0, 0.5], requires_grad=True)
U = -1 / r.norm()
g, = torch.autograd.grad(U, r, create_graph=True)
print(g, accel(r.detach()))
H = torch.stack([torch.autograd.grad(g[i], r, retain_graph=True)[0] for i in range(2)])
print(H)
'''


# ---- probability: log-likelihoods, MLE, reparameterization

PROGRAMS['prob_normal_mle_closed_form_vs_gd'] = PRE + r"""
from torch.distributions import Normal
torch.manual_seed(0)
data = 2.0 + 0.5 * torch.randn(50)
mu = torch.tensor(0.0, requires_grad=True)
log_sigma = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.SGD([mu, log_sigma], lr=0.1)
for i in range(101):
    opt.zero_grad()
    nll = -Normal(mu, log_sigma.exp()).log_prob(data).mean()
    nll.backward()
    opt.step()
    if i % 25 == 0:
        print(i, nll.item(), mu.item(), log_sigma.exp().item())
print(data.mean(), data.std(unbiased=False), data.std())
d = Normal(mu, log_sigma.exp())
print(d, d.mean, d.stddev, d.variance)
print(d.entropy(), d.cdf(torch.tensor(2.0)), d.icdf(torch.tensor(0.975)))
"""

PROGRAMS['prob_bernoulli_logistic_regression_mle'] = PRE + r"""
from torch.distributions import Bernoulli
x = torch.tensor([-2., -1., -0.5, 0., 0.5, 1., 2., 3.])
y = torch.tensor([0., 0., 1., 0., 1., 1., 1., 1.])
w = torch.zeros(2, requires_grad=True)
for it in range(6):
    logits = w[0] + w[1] * x
    ll = Bernoulli(logits=logits).log_prob(y).sum()
    g = torch.autograd.grad(ll, w, create_graph=True)[0]
    H = torch.stack([torch.autograd.grad(g[i], w, retain_graph=True)[0] for i in range(2)])
    with torch.no_grad():
        w -= torch.linalg.solve(H, g)
    print(it, ll.item(), w.tolist())
print(H, torch.linalg.inv(-H).diagonal().sqrt())
b = Bernoulli(probs=torch.tensor([0., 0.3, 1.]))
print(b.log_prob(torch.tensor([0., 1., 1.])), b.entropy(), b.logits)
E(lambda: Bernoulli(probs=torch.tensor([1.5])))
E(lambda: Bernoulli(probs=torch.tensor(0.5)).log_prob(torch.tensor(0.5)))
"""

PROGRAMS['prob_poisson_rate_mle_and_grad'] = PRE + r"""
from torch.distributions import Poisson
counts = torch.tensor([2., 4., 3., 0., 5., 1., 3., 2.])
log_rate = torch.tensor(0.0, requires_grad=True)
for it in range(8):
    ll = Poisson(log_rate.exp()).log_prob(counts).sum()
    g, = torch.autograd.grad(ll, log_rate, create_graph=True)
    h, = torch.autograd.grad(g, log_rate)
    with torch.no_grad():
        log_rate -= g / h
    print(it, ll.item(), g.item(), h.item(), log_rate.exp().item())
print(counts.mean())
rate = torch.tensor([0.5, 2.0, 10.0], requires_grad=True)
lp = Poisson(rate).log_prob(torch.tensor([[0.], [3.]]))
print(lp, lp.grad_fn)
lp.sum().backward()
print(rate.grad)
print(Poisson(torch.tensor(0.)).log_prob(torch.tensor([0., 1.])))
E(lambda: Poisson(torch.tensor(2.)).log_prob(torch.tensor(1.5)))
"""

PROGRAMS['prob_categorical_mle_softmax_logits'] = PRE + r"""
from torch.distributions import Categorical
obs = torch.tensor([0, 2, 2, 1, 2, 0, 2, 2])
logits = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([logits], lr=1.0)
for i in range(30):
    opt.zero_grad()
    nll = -Categorical(logits=logits).log_prob(obs).mean()
    nll.backward()
    opt.step()
print(nll.item(), logits.softmax(0), torch.bincount(obs) / 8.)
c = Categorical(logits=logits)
print(c.probs, c.logits, c.entropy(), c.param_shape, c.batch_shape, c.event_shape)
print(c.log_prob(torch.tensor([0, 1, 2])).exp())
c2 = Categorical(probs=torch.tensor([[0.2, 0.8], [0.5, 0.5]]))
print(c2.log_prob(torch.tensor([1, 0])), c2.entropy())
E(lambda: c.log_prob(torch.tensor(3)))
E(lambda: Categorical(probs=torch.tensor([0.5, -0.1])))
"""

PROGRAMS['prob_reparameterized_rsample_gradient'] = PRE + r"""
from torch.distributions import Normal
mu = torch.tensor(1.0, requires_grad=True)
sigma = torch.tensor(0.5, requires_grad=True)
torch.manual_seed(42)
z = Normal(mu, sigma).rsample((1000,))
obj = (z ** 2).mean()
obj.backward()
print(obj, z.grad_fn, mu.grad, sigma.grad)
print('exact', 2 * mu.item(), 2 * sigma.item())
torch.manual_seed(42)
eps = torch.randn(1000)
z2 = mu + sigma * eps
print(torch.equal(z.detach(), z2.detach()))
torch.manual_seed(42)
s = Normal(mu, sigma).sample((3,))
print(s, s.requires_grad)
"""

PROGRAMS['prob_score_function_vs_pathwise'] = PRE + r"""
from torch.distributions import Normal
torch.manual_seed(1)
theta = torch.tensor(0.3, requires_grad=True)
d = Normal(theta, 1.0)
x = d.sample((2000,))
f = torch.cos(x)
score = (f * d.log_prob(x)).mean()
g_score, = torch.autograd.grad(score, theta)
torch.manual_seed(1)
xr = Normal(theta, 1.0).rsample((2000,))
g_path, = torch.autograd.grad(torch.cos(xr).mean(), theta)
import math
print(g_score, g_path, -math.sin(0.3) * math.exp(-0.5))
"""

PROGRAMS['prob_gaussian_mixture_em_logsumexp'] = PRE + r"""
torch.manual_seed(0)
data = torch.cat([torch.randn(30) - 2, 0.5 * torch.randn(20) + 1.5])
mu = torch.tensor([-1., 1.])
sd = torch.tensor([1., 1.])
pi = torch.tensor([0.5, 0.5])
for it in range(15):
    lp = torch.distributions.Normal(mu, sd).log_prob(data[:, None]) + pi.log()
    ll = torch.logsumexp(lp, 1)
    r = (lp - ll[:, None]).exp()
    nk = r.sum(0)
    mu = (r * data[:, None]).sum(0) / nk
    sd = ((r * (data[:, None] - mu) ** 2).sum(0) / nk).sqrt()
    pi = nk / len(data)
    if it % 5 == 0:
        print(it, ll.sum().item())
print(mu, sd, pi)
m = torch.tensor([-1., 1.], requires_grad=True)
ll = torch.logsumexp(torch.distributions.Normal(m, sd).log_prob(data[:, None]) + pi.log(), 1).sum()
ll.backward()
print(ll, m.grad)
"""

PROGRAMS['prob_beta_binomial_conjugate_and_map'] = PRE + r"""
from torch.distributions import Beta, Binomial
heads, n = 7., 10.
p = torch.tensor(0.5, requires_grad=True)
for it in range(50):
    lp = Binomial(n, probs=p).log_prob(torch.tensor(heads)) + Beta(2., 2.).log_prob(p)
    g, = torch.autograd.grad(lp, p)
    with torch.no_grad():
        p += 0.01 * g
print(p, (heads + 1) / (n + 2))
post = Beta(2. + heads, 2. + n - heads)
print(post.mean, post.mode if hasattr(post, 'mode') else None, post.variance)
print(post.log_prob(torch.tensor([0.5, 0.7, 0.9])))
print(Binomial(10, probs=torch.tensor(0.3)).log_prob(torch.arange(0., 11.)).exp())
"""

PROGRAMS['prob_exponential_and_gamma_mle'] = PRE + r"""
from torch.distributions import Exponential, Gamma
x = torch.tensor([0.5, 1.2, 0.3, 2.2, 0.9, 1.7, 0.4])
rate = torch.tensor(1.0, requires_grad=True)
ll = Exponential(rate).log_prob(x).sum()
ll.backward()
print(ll, rate.grad, len(x) / x.sum())
a = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
b = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([a, b], lr=0.1)
for i in range(60):
    opt.zero_grad()
    nll = -Gamma(a, b).log_prob(x.double()).sum()
    nll.backward()
    opt.step()
print(nll.item(), a.item(), b.item(), a.grad.item())
g = Gamma(a, b)
print(g.mean, g.variance, g.entropy())
"""

# ---- special functions and their gradients

PROGRAMS['sf_erf_family_values_and_grads'] = PRE + r"""
x = torch.tensor([-3., -1., -0.1, 0., 1e-4, 0.5, 2., 5.], requires_grad=True)
for f in [torch.erf, torch.erfc, torch.special.erfcx, torch.special.ndtr, torch.special.log_ndtr]:
    y = f(x)
    g, = torch.autograd.grad(y.sum(), x)
    print(f.__name__, y.detach(), g, y.grad_fn.name())
p = torch.tensor([-0.999, -0.5, 0., 0.3, 0.9, 0.9999], requires_grad=True)
y = torch.erfinv(p)
y.sum().backward()
print(y, p.grad)
print(torch.erf(torch.erfinv(p)) - p)
q = torch.tensor([0.001, 0.1, 0.5, 0.975], requires_grad=True)
z = torch.special.ndtri(q)
z.sum().backward()
print(z, q.grad)
print(torch.erfinv(torch.tensor([1., -1., 1.5])))
"""

PROGRAMS['sf_gamma_family_values_and_grads'] = PRE + r"""
x = torch.tensor([0.1, 0.5, 1., 1.5, 2., 3.5, 10.], dtype=torch.float64, requires_grad=True)
lg = torch.lgamma(x)
g1, = torch.autograd.grad(lg.sum(), x, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), x)
print(lg, g1, g2)
print(torch.digamma(x.detach()) - g1.detach(), torch.polygamma(1, x.detach()) - g2)
for n in range(4):
    y = torch.polygamma(n, x)
    gy, = torch.autograd.grad(y.sum(), x)
    print(n, y.detach(), gy, y.grad_fn.name())
xf = torch.tensor([-2.5, -1., 0., 0.5], requires_grad=True)
y = torch.lgamma(xf) + torch.digamma(xf)
y.sum().backward()
print(y, xf.grad)
print(torch.special.gammaln(torch.tensor(5.)), torch.special.multigammaln(torch.tensor(3.), 2))
"""

PROGRAMS['sf_xlogy_entropy_and_kl_by_hand'] = PRE + r"""
p = torch.tensor([0.0, 0.1, 0.4, 0.5], requires_grad=True)
q = torch.tensor([0.25, 0.25, 0.25, 0.25])
H = -torch.xlogy(p, p).sum()
KL = torch.xlogy(p, p / q).sum()
H.backward(retain_graph=True)
print(H, p.grad)
p.grad = None
KL.backward()
print(KL, p.grad)
x = torch.tensor([0., 0., 1., 2.], requires_grad=True)
y = torch.tensor([0., -1., 0., 3.], requires_grad=True)
z = torch.special.xlog1py(x, y)
z.sum().backward()
print(z, x.grad, y.grad)
print(torch.xlogy(torch.tensor([0., 1.]), torch.tensor([float('nan'), 0.])))
print(torch.special.entr(torch.tensor([-1., 0., 0.5, 1.])))
"""

PROGRAMS['sf_small_argument_accuracy_expm1_log1p'] = PRE + r"""
for dtype in [torch.float32, torch.float64]:
    x = torch.tensor([1e-10, 1e-6, 1e-3, 0.1], dtype=dtype, requires_grad=True)
    naive = torch.exp(x) - 1
    good = torch.expm1(x)
    print(dtype, naive.detach(), good.detach())
    print((torch.log(1 + x) - torch.log1p(x)).detach())
    good.sum().backward()
    print(x.grad)
    x.grad = None
    torch.log1p(x).sum().backward()
    print(x.grad)
torch.set_printoptions(precision=10)
x = torch.tensor([1e-8, 1e-4, 1.], dtype=torch.float64)
print(torch.expm1(x) / x, (torch.exp(x) - 1) / x)
torch.set_printoptions(profile='default')
"""

PROGRAMS['sf_sinc_and_bessel_grads'] = PRE + r"""
x = torch.tensor([0., 1e-5, 0.5, 1., 2.5], requires_grad=True)
s = torch.sinc(x)
s.sum().backward()
print(s, x.grad)
t = torch.linspace(-3, 3, 7)
print(torch.sinc(t))
xb = torch.tensor([0., 0.5, 1., 5., 20.], requires_grad=True)
for f in [torch.i0, torch.special.i0e, torch.special.i1, torch.special.i1e]:
    y = f(xb)
    g, = torch.autograd.grad(y.sum(), xb)
    print(f.__name__, y.detach(), g)
xd = xb.detach().double().requires_grad_()
print(torch.autograd.gradcheck(torch.special.i1e, (xd[1:],)))
print(torch.special.bessel_j0(xb.detach()), torch.special.bessel_j1(xb.detach()))
E(lambda: torch.special.bessel_j0(xb).sum().backward())
"""

PROGRAMS['sf_softplus_logaddexp_logsumexp_stability'] = PRE + r"""
x = torch.tensor([-100., -10., 0., 10., 100.], requires_grad=True)
sp = torch.nn.functional.softplus(x)
sp.sum().backward()
print(sp, x.grad)
naive = torch.log(1 + torch.exp(x.detach()))
print(naive)
a = torch.tensor([1000., -1000., 0.], requires_grad=True)
b = torch.tensor([1000., 5., float('-inf')], requires_grad=True)
l = torch.logaddexp(a, b)
l.sum().backward()
print(l, a.grad, b.grad)
print(torch.logaddexp2(torch.tensor([1., 10.]), torch.tensor([1., 0.])))
m = torch.tensor([[1e3, 1e3 + 1, 1e3 - 1], [-1e3, 0., 1.]], requires_grad=True)
lse = torch.logsumexp(m, dim=1)
lse.sum().backward()
print(lse, m.grad, torch.log(torch.exp(m.detach()).sum(1)))
z = torch.full((3,), float('-inf'), requires_grad=True)
lz = torch.logsumexp(z, 0)
lz.backward()
print(lz, z.grad)
"""

PROGRAMS['sf_atan2_hypot_polar_coordinates'] = PRE + r"""
x = torch.tensor([1., 0., -1., -1., 0., 3.], requires_grad=True)
y = torch.tensor([1., 1., 0., -1e-30, 0., -4.], requires_grad=True)
r = torch.hypot(x, y)
th = torch.atan2(y, x)
(r + th).sum().backward()
print(r, th)
print(x.grad, y.grad)
print(torch.atan2(torch.tensor([0., -0.]), torch.tensor([-1., -1.])))
z = torch.polar(r.detach(), th.detach())
print(z, z.real, z.imag)
xx = torch.tensor([3e20, 1e-30]); yy = torch.tensor([4e20, 1e-30])
print(torch.hypot(xx, yy), torch.sqrt(xx ** 2 + yy ** 2))
"""

PROGRAMS['sf_norms_of_every_p'] = PRE + r"""
v = torch.tensor([3., -4., 0., 1.], requires_grad=True)
for p in [0, 0.5, 1, 1.5, 2, 3, float('inf'), float('-inf')]:
    n = torch.linalg.vector_norm(v, ord=p)
    g, = torch.autograd.grad(n, v, allow_unused=True)  # (ord=0: PyTorch's backward gives no gradient)
    print(p, n.item(), g, n.grad_fn.name())
for p in ['fro', 'nuc', 1, -1, 2, -2, float('inf'), float('-inf')]:
    M = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    n = torch.linalg.matrix_norm(M, ord=p)
    n.backward()
    print(p, n.item(), M.grad)
print(torch.norm(v, p=3), torch.norm(v.detach(), p='fro'), v.norm(dim=0, keepdim=True))
z = torch.zeros(3, requires_grad=True)
torch.linalg.norm(z).backward()
print(z.grad)
E(lambda: torch.autograd.grad(v.norm(p=0), v))
"""

PROGRAMS['sf_cumulative_integration_trapezoid'] = PRE + r"""
x = torch.linspace(0, torch.pi, 21, dtype=torch.float64)
a = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
y = torch.sin(a * x)
I = torch.trapezoid(y, x)
I.backward()
print(I, a.grad, I.grad_fn.name())
print(torch.trapezoid(y.detach(), dx=x[1] - x[0]), torch.trapz(y.detach(), x))
ct = torch.cumulative_trapezoid(torch.cos(x), x)
print(ct[::5], torch.sin(x[1:])[::5])
h = torch.tensor([1., 2., 3., 4.], requires_grad=True)
c = torch.cumsum(h, 0)
p = torch.cumprod(h, 0)
d = torch.diff(h ** 2, n=2, prepend=torch.tensor([0.]))
(c.sum() + p.sum() + d.sum()).backward()
print(c, p, d, h.grad)
hz = torch.tensor([2., 0., 3., 0.5], requires_grad=True)
torch.cumprod(hz, 0).sum().backward()
print(hz.grad)
"""


# ---- linear-algebra gradients

PROGRAMS['la_det_slogdet_inv_grads_and_singular'] = PRE + r"""
A = torch.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]], requires_grad=True)
d = torch.linalg.det(A)
d.backward()
print(d, A.grad)
print(d.item() * torch.linalg.inv(A.detach()).T)
A.grad = None
sign, logabs = torch.linalg.slogdet(A)
logabs.backward()
print(sign, logabs, A.grad, logabs.grad_fn.name())
S = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
ds = torch.det(S)
ds.backward()
print(ds, S.grad)
S.grad = None
sg, la = torch.linalg.slogdet(S)
print(sg, la)
E(lambda: la.backward())
print(S.grad)
E(lambda: torch.linalg.inv(S))
inv, info = torch.linalg.inv_ex(S)
print(inv, info)
"""

PROGRAMS['la_solve_grads_and_batched'] = PRE + r"""
torch.manual_seed(0)
A = (torch.randn(2, 3, 3) + 3 * torch.eye(3)).requires_grad_()
b = torch.randn(2, 3, requires_grad=True)
x = torch.linalg.solve(A, b)
print(x, x.grad_fn.name())
loss = (x ** 2).sum()
loss.backward()
print(A.grad, b.grad)
x2 = torch.linalg.solve(A, b.unsqueeze(-1), left=True)
print(x2.shape, torch.allclose(x2.squeeze(-1), x))
xl = torch.linalg.solve(A, b.unsqueeze(-2), left=False)
print(xl.shape)
E(lambda: torch.linalg.solve(A, torch.randn(4)))
E(lambda: torch.linalg.solve(torch.zeros(3, 3), torch.ones(3)))
E(lambda: torch.linalg.solve(A.double(), b))
"""

PROGRAMS['la_cholesky_gaussian_process_nll'] = PRE + r"""
x = torch.linspace(0, 1, 6, dtype=torch.float64)
y = torch.sin(6 * x)
log_ell = torch.tensor(-1.0, dtype=torch.float64, requires_grad=True)
log_noise = torch.tensor(-3.0, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([log_ell, log_noise], lr=0.1)
for i in range(31):
    opt.zero_grad()
    K = torch.exp(-0.5 * (x[:, None] - x[None]) ** 2 / log_ell.exp() ** 2) + log_noise.exp() * torch.eye(6, dtype=torch.float64)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y[:, None], L)
    nll = 0.5 * (y[:, None] * alpha).sum() + L.diagonal().log().sum()
    nll.backward()
    opt.step()
    if i % 10 == 0:
        print(i, nll.item(), log_ell.exp().item(), log_noise.exp().item())
print(L.grad_fn.name(), alpha.grad_fn.name())
E(lambda: torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]])))
Lx, info = torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]]))
print(Lx, info)
"""

PROGRAMS['la_eigh_rayleigh_and_grad'] = PRE + r"""
A = torch.tensor([[2., 1., 0.], [1., 2., 1.], [0., 1., 2.]], dtype=torch.float64, requires_grad=True)
w, V = torch.linalg.eigh(A)
print(w, V.abs())
w.sum().backward()
print(A.grad)
A.grad = None
w, V = torch.linalg.eigh(A)
w[-1].backward()
print(A.grad, torch.outer(V[:, -1], V[:, -1]).detach())
v = torch.ones(3, dtype=torch.float64)
for k in range(20):
    v = A.detach() @ v
    v = v / v.norm()
print(v @ A.detach() @ v, torch.linalg.eigvalsh(A.detach())[-1])
B = torch.eye(2, requires_grad=True)
w2, V2 = torch.linalg.eigh(B)
print(w2, V2)
E(lambda: (V2.sum()).backward())
print(B.grad)
"""

PROGRAMS['la_svd_pca_and_low_rank_grad'] = PRE + r"""
torch.manual_seed(0)
X = torch.randn(8, 3) @ torch.tensor([[3., 0., 0.], [1., 1., 0.], [0., 0., 0.1]])
Xc = X - X.mean(0)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
print(S, (S ** 2 / (S ** 2).sum()))
print(torch.linalg.svdvals(Xc))
M = Xc.clone().requires_grad_()
s = torch.linalg.svdvals(M)
s[0].backward()
print(M.grad.abs().sum(), s.grad_fn.name())
M.grad = None
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
rec = U[:, :2] @ torch.diag(S[:2]) @ Vh[:2]
err = ((rec - M) ** 2).sum()
err.backward()
print(err, M.grad.norm(), S[2] ** 2)
print(torch.linalg.matrix_rank(Xc), torch.linalg.matrix_rank(Xc, atol=0.5))
"""

PROGRAMS['la_qr_gram_schmidt_and_grad'] = PRE + r"""
A = torch.tensor([[1., 1., 0.], [1., 0., 1.], [0., 1., 1.], [1., 1., 1.]], dtype=torch.float64, requires_grad=True)
Q, R = torch.linalg.qr(A)
print(Q, R)
def gram_schmidt(A):
    qs = []
    for j in range(A.shape[1]):
        v = A[:, j]
        for q in qs:
            v = v - (q @ A[:, j]) * q
        qs.append(v / v.norm())
    return torch.stack(qs, 1)
Qg = gram_schmidt(A)
print((Qg.abs() - Q.abs()).abs().max() < 1e-12)
(Q.sum() + R.diagonal().sum()).backward()
print(A.grad)
A.grad = None
Qg.sum().backward()
print(A.grad)
Qc, Rc = torch.linalg.qr(A.detach(), mode='complete')
print(Qc.shape, Rc.shape)
E(lambda: torch.linalg.qr(A, mode='complete')[0].sum().backward())
"""

PROGRAMS['la_matrix_exp_linear_ode'] = PRE + r"""
A = torch.tensor([[0., 1.], [-4., -0.4]], dtype=torch.float64, requires_grad=True)
x0 = torch.tensor([1., 0.], dtype=torch.float64)
t = 2.0
xt = torch.linalg.matrix_exp(A * t) @ x0
print(xt, xt.grad_fn)
xt[0].backward()
print(A.grad)
x = x0.clone()
dt = 0.001
with torch.no_grad():
    for i in range(2000):
        x = x + dt * (A @ x)
print(x, (x - xt).abs().max())
R = torch.linalg.matrix_exp(torch.tensor([[0., -1.], [1., 0.]]) * torch.pi / 2)
print(R)
print(torch.matrix_exp(torch.zeros(2, 2)), torch.linalg.matrix_exp(torch.diag(torch.tensor([1., 2.]))))
"""

PROGRAMS['la_pinv_and_matrix_norm_ord_grads'] = PRE + r"""
A = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=torch.float64, requires_grad=True)
P = torch.linalg.pinv(A)
print(P, P.grad_fn.name())
P.sum().backward()
print(A.grad)
print(torch.dist(P @ A, torch.eye(2, dtype=torch.float64)) < 1e-12)
for ord in ['fro', 'nuc', 2, -2, 1, float('inf')]:
    B = A.detach().clone().requires_grad_()
    n = torch.linalg.norm(B, ord=ord)
    n.backward()
    print(ord, n.item(), B.grad)
print(torch.linalg.cond(A.detach()), torch.linalg.cond(A.detach()[:2], p='fro'))
E(lambda: torch.linalg.norm(A, ord=3))
E(lambda: torch.linalg.cond(A, p=1))
"""

PROGRAMS['la_condition_number_hilbert_float32_vs_64'] = PRE + r"""
def hilbert(n, dtype):
    i = torch.arange(n, dtype=dtype)
    return 1 / (i[:, None] + i[None] + 1)
for dtype in [torch.float32, torch.float64]:
    for n in [4, 8]:
        H = hilbert(n, dtype)
        x_true = torch.ones(n, dtype=dtype)
        b = H @ x_true
        x = torch.linalg.solve(H, b)
        print(dtype, n, (x - x_true).abs().max().item() < (1e-2 if n == 4 else 1e3), torch.linalg.cond(H).log10().round())
H = hilbert(3, torch.float64).requires_grad_()
c = torch.linalg.cond(H)
c.backward()
print(c, H.grad.abs().max() > 0)
"""

PROGRAMS['la_complex_inputs_errors'] = PRE + r"""
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
E(lambda: (z * z).sum().backward())
y = (z * z.conj()).real.sum()
y.backward()
print(y, z.grad)
A = torch.tensor([[2 + 0j, 1j], [-1j, 3 + 0j]], requires_grad=True)
w = torch.linalg.eigvalsh(A)
w.sum().backward()
print(w, A.grad)
E(lambda: torch.linalg.cholesky(torch.tensor([[1 + 0j, 2j], [3j, 1 + 0j]])))
E(lambda: torch.erf(z))
E(lambda: torch.lgamma(z))
E(lambda: torch.atan2(z, z))
E(lambda: torch.linalg.solve(A, torch.ones(2)))
print(torch.linalg.det(A.detach()), torch.linalg.norm(A.detach()))
"""


# ---- torch.func and torch.autograd.functional versions, gradcheck of the student's own functions

PROGRAMS['fn_func_grad_hessian_newton_himmelblau'] = PRE + r"""
from torch.func import grad, hessian, jacrev, jacfwd, vmap
def f(p):
    x, y = p[0], p[1]
    return (x ** 2 + y - 11) ** 2 + (x + y ** 2 - 7) ** 2
p = torch.tensor([4., 4.], dtype=torch.float64)
for k in range(6):
    g = grad(f)(p)
    H = hessian(f)(p)
    p = p - torch.linalg.solve(H, g)
    print(k, p, f(p).item())
print(torch.allclose(jacrev(jacrev(f))(p), jacfwd(jacrev(f))(p)), hessian(f)(p))
starts = torch.tensor([[4., 4.], [-4., 4.], [-4., -4.], [4., -4.]], dtype=torch.float64)
P = starts
for k in range(3):
    P = P - vmap(lambda q: torch.linalg.solve(hessian(f)(q), grad(f)(q)))(P)
print(P, vmap(f)(P))
"""

PROGRAMS['fn_functional_jacobian_strategies_and_vectorize'] = PRE + r"""
from torch.autograd.functional import jacobian, hessian, hvp, vhp
def F(x):
    return torch.stack([x[0] * x[1], torch.sin(x[0]) + x[1] ** 3, torch.exp(-x[1])])
x = torch.tensor([0.5, 1.5])
J1 = jacobian(F, x)
J2 = jacobian(F, x, vectorize=True)
J3 = jacobian(F, x, vectorize=True, strategy='forward-mode')
print(J1, torch.equal(J1, J2), torch.equal(J1, J3))
Jc = jacobian(F, x, create_graph=True)
print(Jc.requires_grad, Jc.grad_fn is not None)
def scalar(x):
    return (x ** 3).sum() + x[0] * x[1]
H = hessian(scalar, x)
print(H, hessian(scalar, x, vectorize=True, outer_jacobian_strategy='forward-mode'))
v = torch.tensor([1., -1.])
print(hvp(scalar, x, v), vhp(scalar, x, v))
E(lambda: jacobian(F, x, strategy='forward-mode'))
E(lambda: hessian(F, x))
"""

PROGRAMS['fn_gradcheck_students_functions'] = PRE + r"""
from torch.autograd import gradcheck, gradgradcheck
def smooth_abs(x, eps=1e-3):
    return torch.sqrt(x * x + eps)
def pnorm(x, p=3.):
    return (x.abs() ** p).sum() ** (1 / p)
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * g  # wrong on purpose: x, not x ** 2
x = torch.tensor([0.3, -0.7, 1.2], dtype=torch.float64, requires_grad=True)
print(gradcheck(smooth_abs, (x,)), gradgradcheck(smooth_abs, (x,)))
print(gradcheck(pnorm, (x,)), gradcheck(torch.special.erfinv, (x.detach().clamp(-0.9, 0.9).requires_grad_(),)))
E(lambda: gradcheck(Cube.apply, (x,)))
print(gradcheck(Cube.apply, (x,), raise_exception=False))
x32 = x.detach().float().requires_grad_()
W = []
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    E(lambda: gradcheck(smooth_abs, (x32,)))
print([str(w.message)[:60] for w in ws])
"""

PROGRAMS['fn_finite_differences_vs_autograd_float32'] = PRE + r"""
def f(x):
    return torch.sin(x) * torch.exp(-x / 3)
x0 = torch.tensor(1.3, requires_grad=True)
g_auto, = torch.autograd.grad(f(x0), x0)
print(g_auto.item())
for h in [1e-1, 1e-2, 1e-3, 1e-4, 1e-5]:
    with torch.no_grad():
        fd = (f(x0 + h) - f(x0)) / h
        cd = (f(x0 + h) - f(x0 - h)) / (2 * h)
    print(h, fd.item(), cd.item(), abs(cd.item() - g_auto.item()))
x64 = x0.detach().double()
for h in [1e-4, 1e-6, 1e-8]:
    cd = (f(x64 + h) - f(x64 - h)) / (2 * h)
    print(h, cd.item())
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps, torch.finfo(torch.float32).tiny)
"""

PROGRAMS['fn_forward_mode_jvp_of_special_functions'] = PRE + r"""
import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.2, 0.7, 1.5])
t = torch.ones(3)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in [('lgamma', torch.lgamma), ('digamma', torch.digamma), ('erfinv', lambda u: torch.erfinv(u / 2)),
                    ('i0', torch.i0), ('sinc', torch.sinc), ('xlogy', lambda u: torch.xlogy(u, u)),
                    ('log_ndtr', torch.special.log_ndtr), ('logit', torch.logit), ('softplus', torch.nn.functional.softplus)]:
        out = f(d)
        print(name, fwAD.unpack_dual(out).tangent)
from torch.func import jvp, jacfwd
print(jvp(torch.special.erfcx, (x,), (t,)))
print(jacfwd(lambda u: torch.polygamma(2, u))(x))
"""

# ---- nan and inf gradients a student runs into

PROGRAMS['nan_sqrt_at_zero_and_where_trap'] = PRE + r"""
x = torch.tensor([0., 1., 4.], requires_grad=True)
torch.sqrt(x).sum().backward()
print(x.grad)
x.grad = None
y = torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x))
y.sum().backward()
print(y, x.grad)
x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x))
y = torch.where(x > 0, torch.sqrt(safe), torch.zeros_like(x))
y.sum().backward()
print(x.grad)
v = torch.zeros(2, requires_grad=True)
n = (v ** 2).sum().sqrt()
n.backward()
print(n, v.grad)
w = torch.tensor([0., 0.], requires_grad=True)
w.norm().backward()
print(w.grad)
z = torch.tensor([-1., 0., 2.], requires_grad=True)
(z ** 0.5).sum().backward()
print(z.grad)
z.grad = None
torch.log(z).sum().backward()
print(z.grad)
"""

PROGRAMS['nan_detect_anomaly_in_a_fit'] = PRE + r"""
x = torch.tensor([1., 2., 0., 4.])
a = torch.tensor(1.0, requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    loss = (torch.log(a * x) * x).sum()
    print(loss)
    try:
        loss.backward()
    except RuntimeError as e:
        print(type(e).__name__, str(e).splitlines()[0])
print(a.grad)
a.grad = None
with torch.autograd.set_detect_anomaly(False):
    y = (a * x).pow(0.5).sum()
    y.backward()
print(a.grad, torch.isnan(a.grad), torch.nan_to_num(a.grad))
b = torch.tensor([1., float('nan')], requires_grad=True)
print(torch.nansum(b), torch.nanmean(b))
torch.nansum(b * 2).backward()
print(b.grad)
"""

PROGRAMS['nan_clamp_abs_max_subgradients'] = PRE + r"""
x = torch.tensor([-1., 0., 0.5, 1., 2.], requires_grad=True)
for name, f in [('abs', torch.abs), ('relu', torch.relu), ('clamp', lambda t: t.clamp(0, 1)),
                ('sign', torch.sign), ('max0', lambda t: torch.maximum(t, torch.zeros(()))),
                ('fmax', lambda t: torch.fmax(t, torch.tensor(0.5))), ('round', torch.round),
                ('hardtanh', torch.nn.functional.hardtanh), ('floor', torch.floor), ('frac', torch.frac)]:
    g, = torch.autograd.grad(f(x).sum(), x)
    print(name, g)
m = torch.tensor([1., 3., 3., 2.], requires_grad=True)
m.max().backward()
print(m.grad)
m.grad = None
m.amax().backward()
print(m.grad)
m.grad = None
torch.norm(m - 3, p=float('inf')).backward()
print(m.grad)
"""


# ---- more numerical methods: ODE solvers, quadrature, interpolation, series, Monte Carlo

PROGRAMS['ode_rk4_logistic_param_gradient'] = PRE + r"""
def f(t, y, r, K):
    return r * y * (1 - y / K)
def rk4(y0, r, K, h=0.25, n=24):
    y = y0
    ys = [y]
    for i in range(n):
        t = i * h
        k1 = f(t, y, r, K)
        k2 = f(t + h / 2, y + h / 2 * k1, r, K)
        k3 = f(t + h / 2, y + h / 2 * k2, r, K)
        k4 = f(t + h, y + h * k3, r, K)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)
r = torch.tensor(0.8, requires_grad=True)
K = torch.tensor(10.0, requires_grad=True)
ys = rk4(torch.tensor(0.5), r, K)
print(ys[::6])
ys[-1].backward()
print(r.grad, K.grad, ys.grad_fn.name())
exact = 10 / (1 + 19 * torch.exp(torch.tensor(-0.8 * 6)))
print(exact, (ys[-1] - exact).abs().item() < 1e-3)
"""

PROGRAMS['ode_euler_vs_rk2_stiff_decay_float64'] = PRE + r"""
lam = torch.tensor(-15.0, dtype=torch.float64, requires_grad=True)
for h in [0.2, 0.1, 0.05]:
    y_e = torch.tensor(1.0, dtype=torch.float64)
    y_m = torch.tensor(1.0, dtype=torch.float64)
    for i in range(int(round(1 / h))):
        y_e = y_e + h * lam * y_e
        k1 = lam * y_m
        y_m = y_m + h * lam * (y_m + h / 2 * k1)
    g_e, = torch.autograd.grad((y_e, y_m), lam, grad_outputs=(torch.tensor(1., dtype=torch.float64),
                                                               torch.tensor(0., dtype=torch.float64)))
    print(h, y_e.item(), y_m.item(), g_e.item())
print(torch.exp(lam).item())
"""

PROGRAMS['quad_gauss_legendre_golub_welsch'] = PRE + r"""
def gauss_legendre(n, dtype=torch.float64):
    k = torch.arange(1, n, dtype=dtype)
    beta = k / torch.sqrt(4 * k ** 2 - 1)
    J = torch.diag(beta, 1) + torch.diag(beta, -1)
    nodes, V = torch.linalg.eigh(J)
    weights = 2 * V[0] ** 2
    return nodes, weights
x, w = gauss_legendre(5)
print(x, w, w.sum())
for f, name in [(torch.exp, 'exp'), (lambda t: t ** 8, 't^8'), (lambda t: 1 / (1 + 25 * t ** 2), 'runge')]:
    print(name, (w * f(x)).sum().item())
a = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
I = (w * torch.exp(a * x)).sum()
I.backward()
print(I, a.grad, (2 * torch.sinh(a) / a).item())
xs = torch.linspace(-1, 1, 101, dtype=torch.float64)
print(torch.trapezoid(torch.exp(xs), xs).item(), torch.trapezoid(torch.exp(xs), xs).item() - 2 * torch.sinh(torch.tensor(1.)).item())
"""

PROGRAMS['quad_simpson_and_romberg_by_hand'] = PRE + r"""
def simpson(f, a, b, n):
    x = torch.linspace(a, b, n + 1, dtype=torch.float64)
    y = f(x)
    h = (b - a) / n
    return h / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
for n in [2, 4, 8, 16, 32]:
    s = simpson(torch.sin, 0.0, torch.pi, n)
    print(n, s.item(), abs(s.item() - 2))
def trap(f, n):
    x = torch.linspace(0, 1, n + 1, dtype=torch.float64)
    return torch.trapezoid(f(x), x)
R = [[trap(torch.exp, 2 ** k)] for k in range(5)]
for k in range(1, 5):
    for j in range(1, k + 1):
        R[k].append(R[k][j - 1] + (R[k][j - 1] - R[k - 1][j - 1]) / (4 ** j - 1))
print([r[-1].item() for r in R])
c = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
val = simpson(lambda t: torch.exp(-c * t ** 2), -3.0, 3.0, 40)
val.backward()
print(val.item(), c.grad.item(), (torch.pi / c).sqrt().item())
"""

PROGRAMS['interp_linear_searchsorted_and_grad'] = PRE + r"""
xp = torch.tensor([0., 1., 2.5, 4., 6.])
fp = torch.tensor([1., 3., 2., 5., 4.], requires_grad=True)
def interp(x, xp, fp):
    i = torch.searchsorted(xp, x, right=True).clamp(1, len(xp) - 1)
    x0, x1 = xp[i - 1], xp[i]
    t = (x - x0) / (x1 - x0)
    return torch.lerp(fp[i - 1], fp[i], t)
x = torch.tensor([0., 0.5, 2.5, 3.9, 5.99, 6.])
y = interp(x, xp, fp)
print(y, y.grad_fn.name())
y.sum().backward()
print(fp.grad)
print(torch.searchsorted(xp, x), torch.bucketize(x, xp), torch.bucketize(x, xp, right=True))
w = torch.tensor(0.25, requires_grad=True)
l = torch.lerp(torch.tensor([1., 2.]), torch.tensor([3., 6.]), w)
l.sum().backward()
print(l, w.grad)
E(lambda: torch.searchsorted(torch.tensor([3., 1.]).unsqueeze(0), torch.tensor([[2.]]), sorter=torch.tensor([[0]])))
"""

PROGRAMS['series_taylor_and_horner_derivatives'] = PRE + r"""
coef = torch.tensor([1., -3., 0., 2., 0.5])   # 1 - 3x + 2x^3 + 0.5x^4
def horner(c, x):
    y = torch.zeros_like(x)
    for a in reversed(c):
        y = y * x + a
    return y
x = torch.tensor([-2., -0.5, 0., 1., 3.], requires_grad=True)
y = horner(coef, x)
d1, = torch.autograd.grad(y.sum(), x, create_graph=True)
d2, = torch.autograd.grad(d1.sum(), x, create_graph=True)
d3, = torch.autograd.grad(d2.sum(), x)
print(y, d1, d2, d3)
k = torch.arange(12.)
x0 = torch.tensor(0.7, dtype=torch.float64)
terms = x0 ** k.double() / torch.exp(torch.lgamma(k.double() + 1))
print(terms.cumsum(0)[[2, 5, 11]], torch.exp(x0))
print(torch.special.multigammaln(torch.tensor(2.5), 2), torch.lgamma(k[:5] + 1).exp())
"""

PROGRAMS['mc_pi_and_integral_with_seed'] = PRE + r"""
torch.manual_seed(123)
pts = torch.rand(4000, 2)
inside = (pts ** 2).sum(1) <= 1
print(inside.sum(), 4 * inside.float().mean())
torch.manual_seed(7)
u = torch.rand(2000, dtype=torch.float64)
est = torch.exp(-u ** 2).mean()
se = torch.exp(-u ** 2).std() / 2000 ** 0.5
print(est.item(), se.item(), (torch.pi ** 0.5 / 2 * torch.erf(torch.tensor(1.))).item())
g = torch.Generator().manual_seed(5)
a = torch.tensor(1.0, requires_grad=True)
z = torch.randn(1000, generator=g)
obj = torch.relu(a + z).mean()
obj.backward()
print(obj, a.grad, (z > -1).float().mean())
"""

PROGRAMS['fp_machine_epsilon_and_kahan_sum'] = PRE + r"""
for dtype in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    eps = torch.tensor(1.0, dtype=dtype)
    one = torch.tensor(1.0, dtype=dtype)
    while one + eps / 2 > one:
        eps = eps / 2
    print(dtype, eps.item(), torch.finfo(dtype).eps, eps.item() == torch.finfo(dtype).eps)
x = torch.full((10000,), 0.1)
naive = torch.tensor(0.)
s = torch.tensor(0.); c = torch.tensor(0.)
for v in x[:2000]:
    naive = naive + v
    yk = v - c
    t = s + yk
    c = (t - s) - yk
    s = t
print(naive.item(), s.item(), x[:2000].sum().item(), x[:2000].double().sum().item())
print(x.sum().item(), torch.cumsum(x, 0)[-1].item(), x.double().sum().item())
print(torch.tensor(1e8) + 1 - 1e8, torch.tensor(1e8, dtype=torch.float64) + 1 - 1e8)
print(torch.tensor(0.1) + torch.tensor(0.2) == torch.tensor(0.3), torch.isclose(torch.tensor(0.1 + 0.2), torch.tensor(0.3)))
"""

PROGRAMS['la_lu_factor_solve_and_power_iteration'] = PRE + r"""
A = torch.tensor([[4., 3., 2.], [2., 1., 3.], [3., 2., 1.]], dtype=torch.float64, requires_grad=True)
LU, piv = torch.linalg.lu_factor(A)
print(LU, piv)
b = torch.tensor([[1.], [2.], [3.]], dtype=torch.float64)
x = torch.linalg.lu_solve(LU, piv, b)
print(x.squeeze(), x.grad_fn.name())
x.sum().backward()
print(A.grad)
P, L, U = torch.linalg.lu(A.detach())
print(P, torch.allclose(P @ L @ U, A.detach()))
B = torch.tensor([[2., 1.], [1., 3.]])
v = torch.tensor([1., 0.])
for k in range(25):
    v = B @ v
    v = v / v.norm()
print(v, v @ B @ v, torch.linalg.eigvalsh(B), torch.linalg.matrix_norm(B, 2))
w = torch.linalg.eigvals(torch.tensor([[0., -1.], [1., 0.]]))
print(w, w.dtype)
"""

PROGRAMS['la_eig_nonsymmetric_complex_grads'] = PRE + r"""
A = torch.tensor([[2., 1.], [0.5, 3.]], dtype=torch.float64, requires_grad=True)
w, V = torch.linalg.eig(A)
print(w, w.dtype, w.grad_fn.name())
w.real.sum().backward()
print(A.grad, torch.trace(A.detach()))
A.grad = None
w, V = torch.linalg.eig(A)
E(lambda: V.abs().sum().backward())
R = torch.tensor([[0., -2.], [2., 0.]], requires_grad=True)
wr = torch.linalg.eigvals(R)
print(wr)
(wr.imag ** 2).sum().backward()
print(R.grad)
E(lambda: torch.linalg.eigvalsh(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.int64)))
"""

PROGRAMS['la_cdist_kernel_ridge_regression'] = PRE + r"""
torch.manual_seed(2)
Xtr = torch.rand(12, 1, dtype=torch.float64) * 6
ytr = torch.sin(Xtr).squeeze(1)
log_ls = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
def kern(A, B):
    return torch.exp(-0.5 * torch.cdist(A, B) ** 2 / torch.exp(log_ls) ** 2)
K = kern(Xtr, Xtr) + 1e-3 * torch.eye(12, dtype=torch.float64)
alpha = torch.linalg.solve(K, ytr)
Xte = torch.linspace(0, 6, 5, dtype=torch.float64).unsqueeze(1)
pred = kern(Xte, Xtr) @ alpha
print(pred, torch.sin(Xte).squeeze(1))
loss = ((pred - torch.sin(Xte).squeeze(1)) ** 2).mean()
loss.backward()
print(loss.item(), log_ls.grad.item())
D = torch.cdist(Xte.float(), Xtr.float(), p=1)
print(D.shape, D[0, :4], torch.cdist(Xte, Xtr, p=float('inf'))[1, :3])
"""

PROGRAMS['sf_logcumsumexp_quantile_and_cummax'] = PRE + r"""
x = torch.tensor([0.5, -1., 3., 2., 10., -5.], requires_grad=True)
lc = torch.logcumsumexp(x, 0)
lc.sum().backward()
print(lc, x.grad)
print(torch.log(torch.cumsum(torch.exp(x.detach()), 0)))
v, i = torch.cummax(x.detach(), 0)
print(v, i, torch.cummin(x.detach(), 0))
data = torch.tensor([1., 7., 3., 9., 4., 4., 2.], requires_grad=True)
q = torch.quantile(data, torch.tensor([0.1, 0.5, 0.9]))
q.sum().backward()
print(q, data.grad)
for m in ['linear', 'lower', 'higher', 'midpoint', 'nearest']:
    print(m, torch.quantile(data.detach(), 0.35, interpolation=m))
print(torch.nanquantile(torch.tensor([1., float('nan'), 3.]), 0.5), torch.median(data.detach()))
"""

PROGRAMS['sf_kl_divergence_normal_and_grad'] = PRE + r"""
from torch.distributions import Normal, kl_divergence, Laplace, Uniform
mu = torch.tensor([0.0, 1.0], requires_grad=True)
sd = torch.tensor([1.0, 0.5], requires_grad=True)
p = Normal(mu, sd)
q = Normal(torch.tensor(0.5), torch.tensor(2.0))
kl = kl_divergence(p, q)
kl.sum().backward()
print(kl, mu.grad, sd.grad)
closed = torch.log(2.0 / sd.detach()) + (sd.detach() ** 2 + (mu.detach() - 0.5) ** 2) / (2 * 4.0) - 0.5
print(closed)
print(kl_divergence(Laplace(0., 1.), Laplace(1., 2.)), kl_divergence(Uniform(0., 1.), Uniform(-1., 2.)))
E(lambda: kl_divergence(Uniform(-1., 2.), Uniform(0., 1.)).item())
print(kl_divergence(Uniform(-1., 2.), Uniform(0., 1.)))
"""


PROGRAMS['fn_complex_step_derivative_vs_autograd'] = PRE + r"""
def f(x):
    return torch.exp(x) / torch.sqrt(torch.sin(x) ** 3 + torch.cos(x) ** 3)
x0 = 1.5
for h in [1e-5, 1e-10, 1e-20]:
    z = torch.tensor(x0 + 1j * h, dtype=torch.complex128)
    print(h, (f(z).imag / h).item())
xr = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(f(xr), xr)
print(g.item())
zc = torch.tensor(x0 + 0j, dtype=torch.complex128, requires_grad=True)
E(lambda: torch.autograd.grad(f(zc), zc))
gc, = torch.autograd.grad(f(zc).real, zc)
print(gc)
print(torch.sqrt(torch.tensor(-4. + 0j)), torch.sqrt(torch.tensor(-4.)), torch.tensor(-8.) ** (1 / 3))
"""

PROGRAMS['fn_fisher_information_and_cramer_rao'] = PRE + r"""
# fixed: a distribution's argument checks use torch._is_all_true, which works under vmap (no data-dependent `if`)
from torch.func import hessian, grad, vmap
torch.manual_seed(0)
data = torch.distributions.Gamma(torch.tensor(3.0), torch.tensor(2.0)).sample((200,)).double()
def nll(theta):
    a, b = theta.exp()
    return -torch.distributions.Gamma(a, b).log_prob(data).sum()
theta = torch.tensor([1.0, 0.5], dtype=torch.float64)
for it in range(6):
    g = grad(nll)(theta)
    H = hessian(nll)(theta)
    theta = theta - torch.linalg.solve(H, g)
    print(it, nll(theta).item(), theta.exp())
cov = torch.linalg.inv(hessian(nll)(theta))
print(cov.diagonal().sqrt(), torch.linalg.eigvalsh(H))
score = grad(lambda t, x: -torch.distributions.Gamma(t.exp()[0], t.exp()[1], validate_args=False).log_prob(x))
print(vmap(score, in_dims=(None, 0))(theta, data[:5]))
E(lambda: vmap(grad(lambda t, x: -torch.distributions.Gamma(t.exp()[0], t.exp()[1]).log_prob(x)), in_dims=(None, 0))(theta, data[:5]))
"""

PROGRAMS['fn_jvp_directional_derivatives_and_sensitivity'] = PRE + r"""
from torch.autograd.functional import jvp, vjp, jacobian
def model(p):
    k, c = p[0], p[1]
    t = torch.linspace(0, 2, 5, dtype=p.dtype)
    return torch.exp(-c * t) * torch.cos(k * t)
p = torch.tensor([3.0, 0.5], dtype=torch.float64)
out, tang = jvp(model, p, torch.tensor([1.0, 0.0], dtype=torch.float64))
print(out, tang)
out, cot = vjp(model, p, torch.ones(5, dtype=torch.float64))
print(cot)
J = jacobian(model, p)
print(J, torch.linalg.svdvals(J), torch.linalg.matrix_rank(J))
from torch.func import jacfwd, jacrev
print(torch.allclose(jacfwd(model)(p), J), torch.allclose(jacrev(model)(p), J))
E(lambda: jvp(model, p, torch.ones(3, dtype=torch.float64)))
"""

PROGRAMS['fn_implicit_linear_system_sensitivity'] = PRE + r"""
# x(θ) solves A(θ) x = b; dL/dθ by autograd through solve and by the adjoint method
theta = torch.tensor([2.0, 0.5], dtype=torch.float64, requires_grad=True)
def A_of(t):
    return torch.stack([torch.stack([t[0], t[1]]), torch.stack([t[1], t[0] + 1])])
b = torch.tensor([1.0, 2.0], dtype=torch.float64)
c = torch.tensor([0.3, -1.0], dtype=torch.float64)
A = A_of(theta)
x = torch.linalg.solve(A, b)
L = c @ x
L.backward()
print(x, L.item(), theta.grad)
with torch.no_grad():
    lam = torch.linalg.solve(A.T, c)
dA = torch.autograd.functional.jacobian(A_of, theta.detach())
adj = torch.stack([-(lam @ dA[:, :, i] @ x.detach()) for i in range(2)])
print(adj, torch.allclose(adj, theta.grad))
print(torch.autograd.gradcheck(lambda t: c @ torch.linalg.solve(A_of(t), b), (theta,)))
"""

PROGRAMS['fn_gradcheck_linalg_functions_float64'] = PRE + r"""
from torch.autograd import gradcheck, gradgradcheck
torch.manual_seed(0)
M = torch.randn(3, 3, dtype=torch.float64)
S = (M @ M.T + 3 * torch.eye(3, dtype=torch.float64)).requires_grad_()
fns = {'det': torch.linalg.det, 'logdet': lambda s: torch.linalg.slogdet(s)[1], 'inv': torch.linalg.inv,
       'chol': lambda s: torch.linalg.cholesky(s @ s.mT), 'eigvalsh': lambda s: torch.linalg.eigvalsh(s + s.mT), 'mexp': lambda s: torch.linalg.matrix_exp(s / 3),
       'svdvals': torch.linalg.svdvals, 'pinv': torch.linalg.pinv, 'norm_nuc': lambda s: torch.linalg.matrix_norm(s, 'nuc'),
       'solve': lambda s: torch.linalg.solve(s, s[:, :1])}
for name, fn in fns.items():
    print(name, gradcheck(fn, (S,)), gradgradcheck(fn, (S,)) if name in ('det', 'inv', 'solve') else '')
print(gradcheck(lambda s: torch.linalg.eigh(s + s.mT)[1].abs().sum(), (S,)))
E(lambda: gradcheck(torch.linalg.cholesky, (S,)))
"""


# ---- fixed: last bits of float32 atan2 (SLEEF's vector atan2f), pdist (its kernel's sums), gammainc / gammaincc
# (ATen's float template and the compiler's fused multiply-adds), entr (glibc's logf)

PROGRAMS['bits_two_link_arm_inverse_kinematics_atan2'] = PRE + r"""
# fixed: float32 atan2 on 32 or more contiguous elements is SLEEF's vector atan2f, not the correctly rounded value
l1, l2 = 1.0, 0.7
t = torch.linspace(0, 2 * torch.pi, 40)
px, py = 1.2 * torch.cos(t) + 0.1, 0.9 * torch.sin(t)
c2 = (px ** 2 + py ** 2 - l1 ** 2 - l2 ** 2) / (2 * l1 * l2)
q2 = torch.atan2(torch.sqrt(1 - c2 ** 2), c2)
q1 = torch.atan2(py, px) - torch.atan2(l2 * torch.sin(q2), l1 + l2 * torch.cos(q2))
print(q1.tolist()[:12])
print(q2.tolist()[:12])
print(torch.atan2(py, px).sum().item(), torch.atan2(py.double(), px.double()).sum().item())
x = torch.stack([px, py]).requires_grad_()
ang = torch.atan2(x[1], x[0])
ang.sum().backward()
print(x.grad[:, :4], ang.grad_fn.name())
z = torch.complex(px, py)
print(z.angle().tolist()[30:38])
"""

PROGRAMS['bits_lennard_jones_cluster_pdist_forces'] = PRE + r"""
# fixed: pdist's kernel adds the squared differences in its own order (vectors of 8 floats or 4 doubles)
torch.manual_seed(0)
for dtype in [torch.float32, torch.float64]:
    pos = (torch.randn(7, 3, dtype=dtype) * 1.2).requires_grad_()
    r = torch.pdist(pos)
    energy = (4 * ((1 / r) ** 12 - (1 / r) ** 6)).sum()
    forces, = torch.autograd.grad(-energy, pos)
    print(dtype, energy.item(), r.min().item(), r.grad_fn.name())
    print(forces.sum(0).tolist(), forces[0].tolist())
feat = torch.randn(6, 19, requires_grad=True)
for p in [1., 2., 3., float('inf')]:
    d = torch.pdist(feat, p=p)
    g, = torch.autograd.grad(d.sum(), feat)
    print(p, d.sum().item(), g.abs().sum().item())
"""

PROGRAMS['bits_chi_square_test_gammainc_pvalues'] = PRE + r"""
# fixed: gammainc / gammaincc in float32 are ATen's float template (float steps, fused multiply-adds)
observed = torch.tensor([18., 22., 29., 31., 25., 15.])
expected = observed.sum() / 6 * torch.ones(6)
chi2 = ((observed - expected) ** 2 / expected).sum()
dof = torch.tensor(5.)
p_value = torch.special.gammaincc(dof / 2, chi2 / 2)
print(chi2.item(), p_value.item(), torch.special.gammainc(dof / 2, chi2 / 2).item())
x = torch.linspace(0.5, 12, 40)
cdf = torch.distributions.Chi2(torch.tensor(3.)).cdf(x)
print(cdf.tolist()[:10])
print(torch.special.gammainc(torch.tensor(2.5), x).tolist()[-6:])
lam = torch.tensor(4.0)
k = torch.arange(0., 9.)
print(torch.special.gammaincc(k + 1, lam).tolist())   # the Poisson CDF P(N <= k)
a = torch.tensor([0.5, 1.5, 3., 8., 25., 60.], dtype=torch.float64)
print(torch.special.gammainc(a, 0.9 * a).tolist(), torch.special.gammaincc(a, 1.3 * a).tolist())
xs = x.clone().requires_grad_()
torch.special.gammainc(torch.tensor(2.5), xs).sum().backward()
print(xs.grad[:4])
"""

PROGRAMS['bits_entropy_of_distributions_entr'] = PRE + r"""
# fixed: special.entr is -x·logf(x) (glibc's logf), as PyTorch's scalar kernel computes it
torch.manual_seed(0)
p = torch.softmax(torch.randn(5, 12), dim=1)
h = torch.special.entr(p).sum(1)
print(h.tolist())
print((-(p * p.log()).sum(1)).tolist())
print(torch.distributions.Categorical(probs=p).entropy().tolist())
q = p.clone().requires_grad_()
torch.special.entr(q).sum().backward()
print(q.grad[0].tolist())
print(torch.special.entr(torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16)), torch.special.entr(p.half())[0])
grid = torch.linspace(0.01, 0.99, 50)
binary = torch.special.entr(grid) + torch.special.entr(1 - grid)   # the binary entropy in nats
print(binary.tolist()[30:46], binary.max().item())
"""


PROGRAMS['bits_finite_difference_residual_through_torch_gradient'] = PRE + r"""
# fixed: torch.gradient makes its slices in C++'s right-to-left order, so their gradients add in PyTorch's order
torch.manual_seed(0)
x = torch.linspace(0, 1, 12)
u = (torch.sin(torch.pi * x) + 0.05 * torch.randn(12)).requires_grad_()
for edge_order in [1, 2]:
    du, = torch.gradient(u, spacing=(x,), edge_order=edge_order)
    d2u, = torch.gradient(du, spacing=1 / 11, edge_order=edge_order)
    residual = ((d2u + torch.pi ** 2 * u) ** 2).mean()
    g, = torch.autograd.grad(residual, u)
    print(edge_order, residual.item(), g.tolist())
field = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
gy, gx = torch.gradient(field, spacing=[0.5, 0.25])
(gx ** 2 + gy ** 2).sum().backward()
print(field.grad.tolist())
"""


PROGRAMS['bits_complex_euler_oscillator_cumprod'] = PRE + r"""
# fixed: complex cumprod multiplies as PyTorch's compiled complex<double> *= does (fused multiply-adds)
omega, h = 2.0, 0.05
steps = torch.full((40,), 1 + 1j * omega * h, dtype=torch.complex128)
y = torch.cumprod(steps, 0)
print(y[-4:].tolist(), y.abs()[-1].item(), (1 + (omega * h) ** 2) ** 20)
damp = torch.tensor(0.1, dtype=torch.float64, requires_grad=True)
factors = torch.complex(1 - damp * h * torch.ones(30, dtype=torch.float64), omega * h * torch.ones(30, dtype=torch.float64))
traj = torch.cumprod(factors, 0)
energy = (traj.abs() ** 2).sum()
energy.backward()
print(traj[-1].item(), energy.item(), damp.grad.item(), traj.grad_fn.name())
print(torch.cumprod(steps.to(torch.complex64), 0)[-1].item())
"""


PROGRAMS['bits_complex_slater_determinant_slogdet_grad'] = PRE + r"""
# fixed: slogdet's backward without create_graph solves with the forward's LU factors (lu_solve), as PyTorch's
torch.manual_seed(1)
k = torch.tensor([0.0, 1.0, -1.0, 2.0], dtype=torch.float64)
x = torch.tensor([0.1, 0.7, 1.9, 2.6], dtype=torch.float64, requires_grad=True)
phase = torch.polar(torch.ones(4, 4, dtype=torch.float64), x[:, None] * k[None, :])   # plane-wave orbitals
sign, logabs = torch.linalg.slogdet(phase)
logabs.backward()
print(sign, logabs.item(), x.grad.tolist())
A = torch.randn(3, 3, dtype=torch.complex64, requires_grad=True)
s, la = torch.linalg.slogdet(A)
(la + s.angle()).backward()
print(la.item(), A.grad.tolist())
R = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(torch.linalg.slogdet(R)[1], R)
gt, = torch.autograd.grad(torch.linalg.slogdet(R.mT)[1], R)
print(g.tolist(), torch.equal(g, gt.mT))
"""


@pytest.fixture(autouse=True, scope="module")
def _pytorch_warmed_up():
    """PyTorch's first ``backward(gradient)``, optimizer step, forward-AD op and vmap import modules (seconds; the
    last two warn once per process that ``torch.jit.script`` is deprecated): done here, silently, so that no
    program's time or output depends on whether it is the first to use them."""
    torch = pytest.importorskip("torch")
    (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
    p = torch.ones(2, requires_grad=True)
    p.sum().backward()
    torch.optim.Adam([p]).step()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.func.vmap(torch.func.jacfwd(torch.sin))(torch.ones(2, 1))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
