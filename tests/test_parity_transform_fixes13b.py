"""Session 13 (second wave) fixes of forward-AD and torch.func differences.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_pow_tensor_exponent_tangent_dtype_under_jacfwd():
    # fixed (func seeds 26751, 26779): pow_backward_self's zero is PyTorch's ``at::zeros({}, grad.options())``, a
    # new 0-d tensor that vmap does not batch; minigrad's zeros_like(grad) was batched, so the float64 tangent of
    # ``a + 0.5`` promoted the float32 result of jacfwd / hessian to float64
    same_output(r"""
import torch
f = lambda a: torch.pow(a + 0.5, torch.arange(1))
a = torch.tensor(0.7)
for name, g in [('jacfwd', torch.func.jacfwd(f)), ('hessian', torch.func.hessian(f)), ('jacrev', torch.func.jacrev(f))]:
    r = g(a)
    print(name, r, r.dtype)
h = lambda a: torch.pow(a + 0.5, torch.ones(2))
print(torch.func.jacfwd(h)(a).dtype, torch.func.vmap(lambda t: torch.func.jvp(h, (a,), (t,))[1])(torch.ones(3)).dtype)
x = torch.tensor([1.5, 2.0], requires_grad=True)
torch.pow(x, torch.tensor([0., 2.])).sum().backward()
print(x.grad)
""")


def test_tangent_records_the_zero_tangent_terms():
    # fixed: PyTorch's forward formula of mul is ``other_t * self_p + self_t * other_p`` with a ZeroTensor for a
    # missing tangent: with grad mode on the sum is recorded (AddBackward0) when a term requires grad, and the
    # ZeroTensor's term reaches its factor's primal; minigrad left the missing term out (MulBackward0). The value
    # stays the other term's (-0. kept), except where PyTorch's term is real zeros (pow's base, xlogy's self)
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
def walk(fn, d=0):
    if fn is None or d > 4:
        return 'None'
    return fn.name() + '(' + ', '.join(walk(n, d + 1) for n, _ in fn.next_functions) + ')'
with fwAD.dual_level():
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([0.5, -1.], requires_grad=True)
    y = fwAD.make_dual(torch.tensor([3., 4.]), torch.tensor([1., -0.]))
    yw = fwAD.make_dual(w * 1, torch.tensor([1., 2.]))
    for name, f in [('mul', lambda: y * x), ('mul2', lambda: x * y), ('pow', lambda: torch.pow(y, x)),
                    ('pow2', lambda: torch.pow(x, y)), ('hypot', lambda: torch.hypot(x, y)), ('xlogy', lambda: torch.xlogy(x, y)),
                    ('mulw', lambda: yw * x), ('sin', lambda: (yw * x).sin()), ('div', lambda: y / x), ('add', lambda: x + y)]:
        t = fwAD.unpack_dual(f()).tangent
        print(name, t, walk(t.grad_fn))
    t = fwAD.unpack_dual(y * x).tangent
    print(torch.autograd.grad(t.sum(), [x, w], allow_unused=True, materialize_grads=True))
with torch.no_grad(), fwAD.dual_level():
    y = fwAD.make_dual(torch.tensor([3., 4.]), torch.tensor([1., -0.]))
    print(fwAD.unpack_dual(y * x).tangent.grad_fn)

class OldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 3
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def jvp(ctx, t):
        return t * 3
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        r = g * y
        print('backward', fwAD.unpack_dual(r).tangent)
        return r
with fwAD.dual_level():
    xr = torch.tensor([0., 1., -1.]).requires_grad_()
    d = fwAD.make_dual(xr, torch.tensor([1., 2., 3.]))
    y2 = OldStyle.apply(d)
    g2, = torch.autograd.grad(y2.sum(), xr, create_graph=True)
    print(g2, fwAD.unpack_dual(g2).tangent)
""")


def test_unpack_dual_inside_a_grad_transform_nested_in_jvp():
    # fixed: inside torch.func.jvp, a grad / vjp transform wraps every tensor anew, and those wrappers carry no
    # tangent: unpack_dual there gives None (for captured tensors too); directly inside jvp it gives the tangent
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
def show(tag, v):
    u = fwAD.unpack_dual(v)
    print(tag, u.tangent is None, None if u.tangent is None else (u.tangent.shape, u.tangent.requires_grad))
def f(x):
    show('x', x)
    y = x.sin()
    show('y', y)
    return y
x = torch.tensor([1., 2.])
t = torch.ones(2)
print(torch.func.jvp(f, (x,), (t,))[1])
print(torch.func.jvp(torch.func.grad(lambda x: f(x).sum()), (x,), (t,))[1])
print(torch.func.jvp(lambda x: torch.func.vjp(f, x)[0], (x,), (t,))[1])
def h(x):
    c = x.cos()
    def inner(z):
        show('captured', c)
        show('z', z)
        return z * c
    out = torch.func.grad(lambda z: inner(z).sum())(x)
    show('after', c)
    return out
print(torch.func.jvp(h, (x,), (t,))[1])
print(torch.func.hessian(lambda x: f(x).sum())(torch.tensor([0.5])))
""")


def test_masked_scatter_in_place_from_a_source_sharing_its_memory():
    # fixed (forward_ad seed 27407): PyTorch's CPU masked_scatter_ walks self's masked positions in order, reading
    # the contiguous source straight from memory: a source that is self (v.permute(0, 1)) is read as written, for
    # the primal and for the tangent (``self_t.masked_scatter_(mask, source_t)``); a non-contiguous source is
    # copied first, and the out-of-place masked_scatter writes a new tensor
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
v = torch.arange(12.).reshape(3, 4)
m = torch.tensor([[True, False, True, True], [False, True, True, False], [True, True, True, True]])
w = v.clone(); print(w.masked_scatter_(m, w.permute(0, 1)))
w = v.clone(); print(w.masked_scatter_(m, w))
w = v.clone(); print(w.masked_scatter_(m, w.flip(0)))
w = v.clone(); print(w.masked_scatter_(m, w.t()))
w = v.clone(); print(w.view(-1)[:6].masked_scatter_(m.view(-1)[:6], w.view(-1)[1:]), w)
w = v.clone(); print(w.view(-1)[3:].masked_scatter_(m.view(-1)[3:], w.view(-1)), w)
w = v.clone(); print(w.masked_scatter(m, w), w)
with fwAD.dual_level():
    b = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
    d = fwAD.make_dual(b, torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64))
    v2 = torch.outer(d, d)
    v4 = v2.permute(0, 1)
    v2.masked_scatter_(torch.tensor([[False, True, True], [True, False, True], [True, True, False]]), v4)
    print(v2, fwAD.unpack_dual(v4).tangent)
""")


def test_retain_grad_of_a_batched_tensor_inside_vmap():
    # fixed (partly; the KNOWN "open" entry of test_parity_transform_fuzz): inside vmap PyTorch's batched tensor is
    # a wrapper that does not require grad, so retain_grad() raises "can't retain_grad on Tensor that has
    # requires_grad=False"; an unbatched tensor that requires grad gets functorch's refusal (vmap is a transform
    # too); under a grad transform inside the vmap, functorch's refusal. (Each message printed once: minigrad's
    # vmap runs the function once per example.)
    same_output(r"""
import torch
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.], requires_grad=True)
seen = {}
def tryit(tag, t):
    try:
        t.retain_grad()
        seen[tag] = 'ok'
    except RuntimeError as e:
        seen[tag] = str(e)[:70]
def f(v):
    tryit('v', v)
    y = v * 2
    tryit('y', y)
    tryit('c', c)
    return y + v * c
for name, g in [('vmap', torch.func.vmap(f)), ('vmap of non-leaf', lambda x: torch.func.vmap(f)(x * 1)),
                ('vmap(grad)', torch.func.vmap(torch.func.grad(lambda v: f(v).sum()))),
                ('grad(vmap)', torch.func.grad(lambda v: torch.func.vmap(f)(v).sum())),
                ('vmap(vmap)', lambda x: torch.func.vmap(torch.func.vmap(f))(x[None] * torch.ones(2, 1)))]:
    seen.clear()
    r = g(x)
    print(name, r.detach(), sorted(seen.items()))
""")
