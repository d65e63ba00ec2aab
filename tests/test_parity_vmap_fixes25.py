"""Session 25 fixes of torch.func differences found by transform fuzzing and the last session's leftovers.

max() / min() / median() / nanmedian() of a batched tensor differentiated outside the vmap (grad of a vmap, plain
backward or forward AD of a vmapped function) is PyTorch's batch rule, the dim overload along the flattened example:
the gradient goes to the picked index (not spread over ties) and nothing saved is read back, so an in-place write of
the input or the result afterwards is fine (nested seed 3993: nanmedian of a frac() written by log_ on a select).
A torch.func.jvp nested in another (the double-vjp trick here, PyTorch's real nested forward AD) reads each op's
inputs as they are when the op runs: a later in-place write of a saved tensor is no error and changes no value
(jacfwd(jacfwd(lambda v: v.relu().exp_().sum()))). nll_loss's backward op has a tangent only when its grad_output
has one (PyTorch's jvp decomposition reads no other). cat over a batch of no examples names the physical batch dim
of an input's slice where vmap's in_dims put it (in_dims=1: dimension 1). Inside vmap, a comparison's broadcast
error names the physical dim, an in-place op without a batching rule the example's (nested seed 4078), and dot /
vdot of two dtypes give the error of the matmul their batch rule runs (vmap seed 34981).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vmap
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:160])
b = torch.tensor([[1., 1., 0.], [2., 2., 2.]])
t = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
"""


def test_grad_of_vmap_of_full_reductions_picks_one_index():
    # PyTorch's batch rule of max() / min() / median() / nanmedian() reduces the flattened example along a dim: the
    # gradient goes to that overload's index (the first of tied maxima, the lower median's), as in grad of a vmap,
    # backward of a vmapped function and forward AD around it; a transform inside the vmap sees the op unbatched
    # and spreads it evenly over ties
    same_output(_E + r"""
for name in ('max', 'min', 'median', 'nanmedian'):
    fn = lambda x, name=name: getattr(x, name)()
    print(name)
    E(lambda: grad(lambda b: vmap(fn)(b).sum())(b))
    E(lambda: grad(lambda b: vmap(fn, in_dims=1)(b).sum())(b))
    E(lambda: grad(lambda b: vmap(vmap(fn))(b).sum())(b.view(2, 3, 1)))
    x = b.clone().requires_grad_()
    vmap(fn)(x).sum().backward()
    print(x.grad)
    E(lambda: jvp(vmap(fn), (b,), (t,))[1])
    E(lambda: jacrev(vmap(fn))(b))
    E(lambda: vmap(grad(fn))(b))                 # (evenly: grad inside the vmap)
    E(lambda: vmap(lambda p, q: jvp(fn, (p,), (q,))[1])(b, t))
    E(lambda: grad(lambda b: vmap(fn)(b[:, :0]).sum())(b))   # (no elements: the dim overload's error)
""")


def test_grad_of_vmap_of_full_reductions_saves_neither_input_nor_result():
    # (nested seed 3993) nothing the dim overload saves is written: PyTorch computes the gradient; with grad inside
    # the vmap the op itself is recorded and the write refused
    same_output(_E + r"""
def f(b):
    v0 = b.frac()
    v2 = v0.nanmedian()
    v0.select(0, -1).log_()
    return v2
def g(b):
    v = b.max()
    v.exp2_()
    return v
def h(b):
    v0 = b * 1
    v2 = v0.median()
    v0.mul_(2)
    return v2
for fn in (f, g, h):
    E(lambda: grad(lambda b: vmap(fn)(b).sum())(t.exp()))
    E(lambda: vmap(grad(fn))(t.exp()))
""")


def test_nested_jvp_reads_saved_tensors_before_later_writes():
    # PyTorch's nested forward AD computes each tangent when the op runs: relu's result written by exp_ afterwards
    # is no error (jacfwd of jacfwd, jvp of jvp or of jacfwd), and the values are those of the time of each op;
    # a reverse-mode level keeps PyTorch's error (hessian, jacfwd of jacrev)
    same_output(_E + r"""
x = torch.tensor([.3, -.2, 2.])
u = torch.tensor([1., 2., 3.])
f = lambda v: v.relu().exp_().sum()
E(lambda: jacfwd(jacfwd(f))(x))
E(lambda: jvp(jacfwd(f), (x,), (u,)))
E(lambda: jvp(lambda y: jvp(f, (y,), (u,)), (x,), (u,)))
E(lambda: hessian(f)(x))
E(lambda: jacfwd(jacrev(f))(x))
def f2(v):
    w = v.exp()
    y = w * w
    w.mul_(2)
    w[1] = 5.
    return y.sum() + w.sum()
E(lambda: jvp(lambda y: jvp(f2, (y,), (u,)), (x,), (u * 0.5,)))
def f3(v):   # (a grad inside: its own backward checks the versions as PyTorch's, the jvp's reads later writes)
    a = v * 1
    def g(q):
        q2 = q.clone()
        r = q2 * q2
        q2.add_(1)
        return r.sum()
    return grad(g)(a)
def f4(v):
    w = v * 2
    y = grad(lambda q: (q * w).sin().sum())(v)
    w.add_(1)
    return y
E(lambda: jvp(lambda y: jvp(f3, (y,), (u,)), (x,), (u,)))
E(lambda: jvp(lambda y: jvp(f4, (y,), (u,)), (x,), (u,))[1][1])
""")


def test_nll_loss_backward_has_a_tangent_only_from_grad_output():
    # forward AD over a double backward of nll_loss: PyTorch's jvp decomposition of nll_loss_backward reads
    # grad_output's tangent only, so a tangent of the input alone leaves the gradient without one
    same_output(_E + r"""
x = torch.tensor([[0.2, -0.3, 1.0], [0.5, 0.1, -1.0]], requires_grad=True)
y = torch.tensor([2, 0])
x4 = torch.linspace(-1, 1, 24).view(2, 3, 2, 2).requires_grad_()
y4 = torch.tensor([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])
for inp, tgt in ((x, y), (x4, y4)):
    with fwAD.dual_level():
        d = fwAD.make_dual(inp, torch.ones_like(inp))
        for red in ('mean', 'sum', 'none'):
            loss = F.nll_loss(d, tgt, reduction=red)
            g, = torch.autograd.grad(loss, d, torch.ones_like(loss), create_graph=True)
            print(red, g.grad_fn.name(), fwAD.unpack_dual(g).tangent)
        go = fwAD.make_dual(torch.tensor(1.), torch.tensor(2.))
        g, = torch.autograd.grad(F.nll_loss(d, tgt), d, go, create_graph=True)
        print(fwAD.unpack_dual(g).tangent)
""")


def test_cat_over_no_examples_names_the_inputs_batch_dim():
    # cat's batch rule reads the first example of a legacy-empty input: PyTorch's select runs on the physical
    # tensor, outer levels' batch dims first, the level's where in_dims put it for an input's slice
    same_output(_E + r"""
cat = lambda t: torch.cat([t])
E(lambda: vmap(cat, in_dims=1)(torch.zeros(0, 0)))
E(lambda: vmap(cat, in_dims=-1)(torch.zeros(0, 0)))
E(lambda: vmap(cat)(torch.zeros(0, 0)))
E(lambda: vmap(lambda t, u: torch.cat([u, t]), in_dims=(1, None))(torch.zeros(0, 0), torch.ones(2)))
E(lambda: vmap(vmap(cat, in_dims=1), in_dims=1)(torch.zeros(0, 2, 0)))
E(lambda: vmap(vmap(cat, in_dims=0), in_dims=0)(torch.zeros(2, 0, 0)))
E(lambda: vmap(vmap(cat, in_dims=1), in_dims=2)(torch.zeros(0, 0, 2)))
E(lambda: vmap(lambda t: vmap(cat)(torch.zeros(0, 0)))(torch.zeros(3, 0)))
E(lambda: vmap(lambda t: cat(t * 2), in_dims=1)(torch.zeros(0, 0)))
""")


def test_comparison_broadcast_error_names_the_physical_dim():
    # (nested seed 4078) PyTorch's comparison batch rules broadcast the physical tensors, batch dims in front: the
    # user's dim 0 is dim 1 (also in a backward formula under vmap(grad): scatter_reduce amax's source gradient);
    # the in-place comparisons and the other ops without a batching rule run example by example: dim 0
    same_output(_E + r"""
y = torch.ones(3)
x = torch.ones(2, 4)
E(lambda: vmap(lambda x: x == y)(x))
E(lambda: vmap(lambda x: torch.ne(y, x))(x))
E(lambda: vmap(lambda x: x.ge(y.double()))(x))
E(lambda: vmap(lambda x: x < y)(torch.ones(2, 4, 2)))
E(lambda: vmap(vmap(lambda x: x == y))(torch.ones(2, 2, 4)))
for name in ('eq_', 'lt_', 'not_equal_', 'fmod_', 'hypot_', 'pow_', 'xlogy_', 'floor_divide_', 'logical_and_',
             'atan2_', 'maximum_'):
    E(lambda: vmap(lambda x: getattr(x, name)(y))(x))
a = torch.tensor([[1.93, -2.13, -0.18], [-1.29, 2.3, 2.47], [-1.07, 1.9, -0.61], [-1.04, 1.99, 0.19]])
i = torch.tensor([[3], [1], [0]])
f = lambda a: a.scatter_reduce(-2, i, a, 'amax', include_self=False).sum()
E(lambda: grad(f)(a))
E(lambda: vmap(grad(f))(torch.stack([a, a * 2])))
""")


def test_dot_of_two_dtypes_under_vmap_is_the_batch_rules_matmul_error():
    # (vmap seed 34981) dot's batch rule runs bmm (both batched), mv (the first alone) or mm (the second alone), and
    # their dtype checks speak first; vdot too; unbatched, dot's own message
    same_output(_E + r"""
f, c, d = torch.ones(2, 3), torch.ones(2, 3, dtype=torch.complex64), torch.ones(2, 3, dtype=torch.float64)
for op in (torch.dot, torch.vdot):
    E(lambda: op(f[0], c[0]))
    E(lambda: vmap(op)(f, c))
    E(lambda: vmap(op)(c, f))
    E(lambda: vmap(op, in_dims=(0, None))(f, c[0]))
    E(lambda: vmap(op, in_dims=(None, 0))(f[0], c))
    E(lambda: vmap(op)(f, d))
    E(lambda: vmap(op, in_dims=(None, 0))(f[0], d))
""")
