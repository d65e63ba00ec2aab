"""Forward-AD and vmap leftovers of session 29: where's tangent, ZeroTensor tangents beside Python numbers, vmap's
fallback over no examples.

where's forward formula is PyTorch's ``where(condition, self_t, other_t)``: the tangents' own promotion gives the
dtype (under jacfwd both are batched, physically 1-d: a 0-d float64 input's tangent wins, func 40731), and a Python
number is cast to the result type first, so its zero tangent does not promote a 0-d float32 one. sgn's tangent is a
ZeroTensor, whose mul/div kernels promote a Python number as a 0-d tensor (float64) and whose sum with another
missing tangent is a ZeroTensor again, +0. (forward_ad 41103). PyTorch's ops without a batching rule (the in-place
forms of most binary ops, masked_fill with a tensor value, take, put, renorm, cummaxmin_backward ...) are refused
inside a vmap over no examples by the slow fallback.

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``).
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
from torch.func import grad, jacfwd, jacrev, jvp, vjp, vmap
fa = torch.autograd.forward_ad
def E(f):
    try:
        r = f()
        print('ok', r if not isinstance(r, torch.Tensor) else (r.shape, r.dtype, r))
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
"""


def test_where_tangent_is_a_where_of_the_tangents():
    same_output(_E + r"""
E(lambda: jacfwd(lambda b, c: torch.where(c > b, c, b), argnums=(0, 1))(torch.tensor(0.5, dtype=torch.float64),
                                                                        torch.tensor([.2, .9])))
c0, c = torch.tensor(True), torch.tensor([True, False])
for x in (torch.tensor(0.3), torch.tensor([0.3, -1.]), torch.tensor(0.3, dtype=torch.float16)):
    for f in (lambda x: torch.where(c, x, 0.5), lambda x: torch.where(c0, 0.5, x), lambda x: x.where(c, 2),
              lambda x: torch.where(c, x, 1j), lambda x: torch.where(c, x, torch.tensor(0.5, dtype=torch.float64)),
              lambda x: torch.where(c0, x, torch.tensor([1j, 2])), lambda x: torch.where(x > 0, x.double(), x)):
        E(lambda: jvp(f, (x,), (torch.ones_like(x),)))
        E(lambda: jacfwd(f)(x))
        with fa.dual_level():
            E(lambda: fa.unpack_dual(f(fa.make_dual(x, torch.ones_like(x)))))
            t = torch.ones_like(x).requires_grad_()
            E(lambda: (lambda u: (u, u.grad_fn.name()))(fa.unpack_dual(f(fa.make_dual(x, t))).tangent))
for x in (torch.ones(2, 1).t(), torch.ones(3, 1, 2).permute(1, 2, 0)):   # (where stays elementwise: its layout)
    print(torch.where(x > 0, x, 2.).stride(), torch.where(x > 0, x, x).stride())
""")


def test_zero_tensor_tangent_beside_a_python_number():
    same_output(_E + r"""
with fa.dual_level():
    for p in (torch.tensor(-0.7), torch.tensor([-0.7]), torch.tensor([0.3, -0.7])):
        s = fa.make_dual(p, torch.ones_like(p)).sgn()
        for f in (lambda: s * 2.0, lambda: s / 2.0, lambda: s * 2, lambda: s * 1j, lambda: 2.0 * s, lambda: s + 2.0,
                  lambda: s + 1j, lambda: 1j - s, lambda: (s * 2.0) + 1.0, lambda: s.add(2.0, alpha=3),
                  lambda: s.add(torch.tensor(2.), alpha=3.), lambda: s + torch.tensor(-0.5),
                  lambda: torch.tensor(1.) - s, lambda: torch.tensor(-0.5).sgn() + s, lambda: (s * 2.0) * float('inf'),
                  lambda: s + fa.make_dual(torch.tensor(1.), torch.tensor(-0.))):
            t = fa.unpack_dual(f()).tangent
            print(t, torch._is_zerotensor(t))
    x = fa.make_dual(torch.tensor(0.3), torch.tensor(1., dtype=torch.float64))   # (a tangent of its own dtype)
    print([fa.unpack_dual(f()).tangent for f in (lambda: x + 1.0, lambda: 1.0 - x, lambda: x.add(1.0, alpha=2.))])
""")


def test_fallback_ops_refused_over_no_examples():
    same_output(_E + r"""
import warnings
warnings.simplefilter('ignore')
idx = torch.tensor([0, 2])
for f in (lambda a: a.masked_fill(a > 0, torch.tensor(2.)), lambda a: a.clone().masked_fill_(a > 0, torch.tensor(2.)),
          lambda a: a.masked_fill(a > 0, 2.), lambda a: a.index_reduce(0, idx, torch.ones(2), 'prod'),
          lambda a: a.clone().square_(), lambda a: a.clone().pow_(2), lambda a: a.clone().clamp_(0, 1),
          lambda a: a.clamp(0, 1), lambda a: a.clone().clamp_(torch.tensor(0.), torch.tensor(1.)),
          lambda a: a.clone().hypot_(a), lambda a: a.hypot(a), lambda a: a.clone().scatter_(0, idx, torch.ones(2)),
          lambda a: a.clone().scatter_(0, idx, 2.), lambda a: a.scatter(0, idx, torch.ones(2)),
          lambda a: a.clone().addcdiv_(a, a), lambda a: a.clone().addcmul_(a, a, value=2.),
          lambda a: a.clone().lerp_(a, 0.5), lambda a: a.clone().lerp_(a, torch.tensor(0.5)),
          lambda a: a.unsqueeze(0).renorm(2, 0, 1.), lambda a: a.unsqueeze(0).clone().renorm_(2, 0, 1.),
          lambda a: a.clone().put_(idx, torch.ones(2)), lambda a: a.put(idx, torch.ones(2)), lambda a: a.take(idx),
          lambda a: a.masked_scatter(a > 0, torch.ones(3)), lambda a: a.clone().xlogy_(2.),
          lambda a: a.clone().fmod_(a), lambda a: a.clone().remainder_(a), lambda a: a.unsqueeze(0).clone().tril_(),
          lambda a: a.clone().cumsum_(0),
          lambda a: a.clone().add_(a), lambda a: a.clone().index_add_(0, idx, torch.ones(2)),
          lambda a: a.clone().sin_()):
    E(lambda: vmap(f)(torch.ones(0, 3)))
    E(lambda: vmap(f)(torch.ones(2, 3)))
    E(lambda: vmap(grad(lambda a: f(a).sum()))(torch.ones(0, 3)))
    E(lambda: jacrev(f)(torch.ones(0)))
E(lambda: vmap(lambda a: a.clone().index_copy_(0, idx, torch.ones(2)))(torch.ones(0, 3)))
x = torch.tensor([1., 3., 2.])
_, fn = vjp(lambda b: b.cummax(0)[0], x)
E(lambda: vmap(fn)(torch.ones(0, 3)))
E(lambda: vmap(fn)(torch.ones(2, 3)))
E(lambda: jacrev(lambda b: b.cummin(0)[0])(torch.ones(0)))
E(lambda: vmap(grad(lambda b: b.cummax(0)[0].sum()))(torch.ones(0, 3)))
""")


def test_batched_tensor_has_no_base():
    # PyTorch's BatchedTensor wrapper is no view: a vmapped tensor and its views have no _base (minigrad's loop
    # slices views); an unbatched tensor's view inside the vmap has one, as does a view under grad inside vmap
    same_output(_E + r"""
x = torch.ones(2, 3)
print(vmap(lambda a: torch.tensor([a[0]._base is None, a._base is None, a.view(3)._base is None,
                                   torch.ones(3)[0]._base is None]))(x))
print(vmap(vmap(lambda a: torch.tensor([a[0]._base is None, a._base is None])))(torch.ones(2, 2, 3)))
def f(a):
    print(a[0]._base is None, a.view(3)._base is None)
    return a.sum()
vmap(grad(f))(x)
b = torch.ones(3)
print(b[0]._base is b)
E(lambda: setattr(b[0], '_base', b))
""")


def test_legacy_vmap_transpose_of_0d_is_itself():
    # graph fuzz s14 319791: the legacy vmap's (is_grads_batched) transpose rule returns a 0-d BatchedTensor as it is,
    # so TBackward0 of a 0-d tensor passes the batched gradient on unchanged: the result is no view (a custom
    # backward's g.t() is the grad_output itself); permute(()) and T stay views
    same_output(_E + r"""
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
class T(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g.t()
d = torch.tensor(-0.04, dtype=torch.float64, requires_grad=True)
e = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
for f, x, twice in ((lambda: Cube.apply(d.t()), d, True), (lambda: d.t() * 2, d, True),
                    (lambda: d.transpose(0, -1) * 2, d, True), (lambda: Cube.apply(d.permute(())), d, False),
                    (lambda: Cube.apply(e.t()), e, False), (lambda: e.t() * 2, e, False)):
    v = f()
    n = v.numel()
    go = torch.eye(n, dtype=torch.float64).reshape(n, *v.shape)
    g, = torch.autograd.grad(v, x, go, is_grads_batched=True, retain_graph=True)
    print(g.shape, g.stride(), g._is_view())
    if twice:   # (with create_graph the transposes record: views as before)
        g, = torch.autograd.grad(v, x, go.requires_grad_(), is_grads_batched=True, create_graph=True)
        print(g.detach(), g._is_view())
go = torch.ones(1, dtype=torch.float64)
g, = torch.autograd.grad(T.apply(d), d, go, is_grads_batched=True)
print(g is go, g._is_view())
""")
