"""Session 26 fixes of torch.func differences found by transform fuzzing and the last session's leftovers.

cat over a batch of no examples: PyTorch's cat batch rule passes an input of legacy-empty [0] examples on as its first
example at every vmap level it is batched at, so an inner level of some examples hands the select to an outer level
of none (vmap(vmap(cat), in_dims=1) of a [2, 0, 0] tensor raises). detach_() of jacrev's input inside another jacrev
works (PyTorch's wrapper is no view; nested seed 4496). A gradient that reaches a tensor unbatched at a vmap level
from ops batched there, differentiated outside that vmap, is PyTorch's sum over the batch dim: all -0 arrives as +0
(jacrev(jacrev(f)) of a scalar f, whose inner vmap has one example). vmap(randomness='same') replays its first
example's draws on a copy of the generator's state, so another thread's draws meanwhile stay drawn. Inside vmap,
addmm / baddbmm / addbmm are PyTorch's decompositions, beta * input + alpha * product (an input of shape [4, 1, 0]
broadcast against a [4, 1, 1] product; dtypes promoted; nested seed 4961, vmap seed 66), and bmm / mm name the
physical tensors' sizes and dtypes in their errors (bmm's rule is matmul of the physical tensors). resize_ of an
example whose physical batch dim is not 0 is functorch's NYI assert (nested 5468); jacrev(chunk_size=1) is a loop of
vjps without vmap (nested 5490); cat of a batch of [0] examples and unbatched tensors is unbatched (nested 5565); the
fallback's "at level N" counts the grad transforms around the vmap (nested 5592); linalg.cross's length error names
the physical dim (vmap 36269).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, vmap
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:160])
"""


def test_cat_over_no_examples_selects_at_every_level():
    # PyTorch's cat rule selects example 0 of a [0]-example input at each level it is batched at, innermost first:
    # an inner level of two examples succeeds, the outer level of none raises (its physical [0, 0] at dim 0)
    same_output(_E + r"""
cat = lambda t: torch.cat([t])
for shape in [(2, 0, 0), (0, 2, 0), (0, 0, 2), (2, 3, 0), (0, 3, 2, 0), (3, 0, 2, 0), (3, 2, 0, 0)]:
    for d in range(len(shape) - 1):
        f = vmap(vmap(cat), in_dims=d) if len(shape) == 3 else vmap(vmap(vmap(cat)), in_dims=d)
        E(lambda: f(torch.zeros(*shape)).shape)
E(lambda: vmap(vmap(lambda t: torch.cat([t, t * 2])))(torch.zeros(0, 2, 0)).shape)
E(lambda: vmap(lambda t: torch.cat([t]), in_dims=1)(torch.zeros(0, 0)))
""")


def test_detach_of_a_nested_transforms_input():
    # (nested seed 4496) jacrev's input inside another jacrev is PyTorch's wrapper of a wrapper, no view:
    # detach_() cuts it off; an in-place op on it afterwards meets the outer level's leaf
    same_output(_E + r"""
x = torch.tensor([1., 2.])
def f(a):
    a.detach_()
    return (a * 2).sum()
def g(a):
    a.detach_()
    a.mul_(2)
    return (a * a).sum()
def h(a):
    a.select(0, 0).detach_()
    return a.sum()
for fn in (f, g, h):
    E(lambda: jacrev(jacrev(fn))(x))
    E(lambda: jacfwd(jacrev(fn))(x))
    E(lambda: hessian(fn)(x))
    E(lambda: grad(grad(fn))(x[0]))
print(x)
""")


def test_gradient_of_an_unbatched_input_is_summed_over_the_batch():
    # PyTorch's backward outside a vmap runs each formula on the physical tensors and sums the gradient of an input
    # unbatched there over the batch dim, a sum from +0: all -0 arrives as +0 (a batch of one example too); a
    # backward inside the vmap (vmap of grad) keeps each example's gradient
    same_output(_E + r"""
x = torch.tensor([2., -1.])
u = torch.tensor([-0., 0., 3.])
b1 = torch.tensor([[-1., 0., 2.]])
b2 = torch.tensor([[-1., 0., 2.], [-3., 0., 1.]])
f = lambda x: torch.nan_to_num(x.log()).sum()
E(lambda: jacrev(jacrev(f))(x))
E(lambda: jacrev(grad(f))(x))
E(lambda: hessian(f)(x))
E(lambda: jacrev(jacrev(lambda x: (x * x * -0.).sum()))(x))
E(lambda: grad(lambda u: vmap(lambda b: (b * u * -0.).sum())(b1).sum())(u))
E(lambda: grad(lambda u: vmap(lambda b: (b * u * -0.).sum())(b2).sum())(u))
E(lambda: grad(lambda u: vmap(lambda b, v: (b * v * -0.).sum(), in_dims=(0, None))(b1, u).sum())(u))
E(lambda: vmap(lambda b: grad(lambda u: (b * u * -0.).sum())(u))(b1))
E(lambda: jacrev(lambda u: vmap(lambda b: b * u * -0.)(b1))(u))
uu = u.clone().requires_grad_()
for fn in (lambda b: (b * uu * -0.).sum(), lambda b: b @ (uu * -1), lambda b: (b[:2] * uu[:2] * -0.).sum()):
    vmap(fn)(b1).sum().backward()
    print(uu.grad)
    uu.grad = None
vmap(vmap(lambda b: (b * uu * -0.).sum()))(b1[None]).sum().backward()
print(uu.grad)
""")


def test_randomness_same_keeps_other_threads_draws():
    # PyTorch's vmap calls the function once: its draw moves the default generator, and another thread's draw
    # while the function runs stays drawn; the vmap's later examples draw nothing from the shared generator
    same_output(_E + r"""
import threading
torch.manual_seed(0)
ready, done = threading.Event(), threading.Event()
got, calls = [], [0]
def other():
    ready.wait()
    got.append(torch.rand(2))
    done.set()
t = threading.Thread(target=other)
t.start()
def f(x):
    r = torch.rand(())
    calls[0] += 1
    if calls[0] == 1:
        ready.set()
        done.wait()
    return x + r
out = vmap(f, randomness='same')(torch.zeros(3))
t.join()
print(out, got[0], torch.rand(2))
for outer in ('same', 'different'):
    for inner in ('same', 'different'):
        torch.manual_seed(1)
        print(vmap(vmap(lambda t: t + torch.rand(()), randomness=inner), randomness=outer)(torch.zeros(3, 2)),
              torch.rand(2))
torch.manual_seed(2)
print(vmap(lambda t: F.dropout(t + 1, 0.5), randomness='same')(torch.zeros(3, 4)), torch.rand(2))
g = torch.Generator().manual_seed(5)
torch.manual_seed(3)
print(vmap(lambda t: t + torch.rand(2, generator=g) + torch.randn(2), randomness='same')(torch.zeros(3, 2)),
      torch.rand(2), torch.rand(2, generator=g))
""")


def test_addmm_family_inside_vmap_is_the_decomposition():
    # (nested seed 4961) functorch batches addmm / baddbmm / addbmm as beta * input + alpha * product: an input of
    # shape [4, 1, 0] broadcasts against the [4, 1, 1] product (unbatched: expand's error), beta=0 leaves the input
    # unread, dtypes promote, and broadcast errors name the physical dims
    same_output(_E + r"""
torch.manual_seed(0)
a = torch.zeros(2, 4, 1, 0)
x, m1, m2 = torch.randn(2, 3, 1), torch.randn(2, 3, 4, 5), torch.randn(2, 3, 5, 2)
E(lambda: torch.baddbmm(a[0, :, :, :1], a[0], a[0].mT))
E(lambda: vmap(lambda a: torch.baddbmm(a[:, :, :1], a, a.mT, beta=0.5, alpha=2))(a))
E(lambda: vmap(lambda a: torch.addbmm(a[0, :, :1], a, a.mT))(a).shape)
E(lambda: vmap(lambda a: torch.addmm(a[0, :, :1], a[0], a[0].mT))(a).shape)
E(lambda: vmap(lambda i, a, b: torch.baddbmm(i, a, b, beta=0.5, alpha=2))(x, m1, m2))
E(lambda: vmap(lambda i, a, b: torch.baddbmm(i, a, b, beta=0, alpha=2))(torch.randn(2, 7), m1, m2))
E(lambda: vmap(lambda i, a, b: torch.baddbmm(i, a, b))(torch.randn(2, 7), m1, m2))
E(lambda: vmap(lambda i, a, b: torch.addbmm(i, a, b, alpha=3))(torch.randn(2, 1, 2), m1, m2))
E(lambda: vmap(lambda i, a, b: torch.addbmm(i, a, b))(torch.randn(2, 3), m1, m2))
E(lambda: vmap(lambda i, a, b: torch.addmm(i, a, b))(torch.randn(2, 4, 3), m1[:, 0], m2[:, 0]))
E(lambda: vmap(lambda i, a, b: torch.addmm(i, a, b, beta=0))(torch.randn(2, 4, 3), m1[:, 0], m2[:, 0]))
E(lambda: vmap(lambda a: torch.baddbmm(torch.zeros(3, 4, 2, dtype=torch.float64), a, a.mT[..., :2]))(m1[..., :4]))
E(lambda: grad(lambda i: vmap(lambda i, a, b: torch.baddbmm(i, a, b, beta=0.5))(i, m1, m2).sum())(x))
""")


def test_bmm_and_mm_inside_vmap_name_the_physical_tensors():
    # functorch's bmm rule checks the ranks, then runs matmul on the physical tensors (batch dim in front): their
    # folded sizes, broadcast and dtype errors, and a batch of one example broadcast; mm's rule is a bmm unless
    # only its first operand is batched
    same_output(_E + r"""
a, b = torch.randn(2, 3, 4), torch.randn(2, 4, 5)
m1, m2 = torch.randn(2, 3, 4, 5), torch.randn(2, 3, 5, 2)
E(lambda: vmap(torch.bmm)(m1, m2[:, :, :4]))
E(lambda: vmap(torch.bmm)(m1[:, 0], m2))
E(lambda: vmap(torch.bmm, in_dims=(0, None))(m1, m2[0, :, :4]))
E(lambda: vmap(torch.bmm, in_dims=(None, 0))(m1[0], m2[:, :2]))
E(lambda: vmap(torch.bmm)(m1, m2.double()))
E(lambda: vmap(torch.bmm, in_dims=(None, 0))(a, b[None, :1].expand(2, 1, 4, 5)).shape)
E(lambda: vmap(torch.mm)(a, b.double()))
E(lambda: vmap(torch.mm, in_dims=(0, None))(a, b[0].double()))
E(lambda: vmap(torch.mm, in_dims=(None, 0))(a[0], b.double()))
E(lambda: vmap(torch.matmul)(a, b.double()))
""")


def test_resize__of_an_example_not_batch_first():
    # (nested seeds 5468, 5473) functorch's resize_ rule asserts the physical batch dim is 0 at each level: an
    # in_dims=1 input's example, or an outer vmap's, fails (a NYI internal assert); batch-first ones resize
    same_output(_E + r"""
x = torch.arange(12.).view(3, 4)
E(lambda: vmap(lambda t: t.resize_(2), in_dims=1)(x.clone()))
E(lambda: vmap(lambda t: t.resize_(3), in_dims=1)(x.clone()))
E(lambda: vmap(lambda t: t.resize_(2), in_dims=-2)(x.clone()).shape)
E(lambda: vmap(vmap(lambda t: t.resize_(1)), in_dims=1)(x.clone().view(3, 2, 2)))
E(lambda: vmap(vmap(lambda t: t.resize_(1), in_dims=1))(x.clone().view(3, 2, 2)))
E(lambda: vmap(vmap(lambda t, u: t.resize_(1), in_dims=(None, 0)), in_dims=(1, 0))(x.clone(), x.clone()))
""")


def test_jacrev_chunk_size_one_is_a_loop_of_vjps():
    # (nested seed 5490) PyTorch's jacrev(chunk_size=1) calls vjp_fn once per basis row without vmap, so no batch
    # rule's error (flip of a 0-d example's gradient) and no vmap limits (.item()); an output of no elements fails
    # its basis sanity check
    same_output(_E + r"""
a = torch.tensor(-1.08, dtype=torch.float64)
for c in (None, 1, 2):
    E(lambda: jacrev(lambda a, b: a.flip((0,)) - torch.arange(1), argnums=(0, 1), chunk_size=c)(a, a))
    E(lambda: jacrev(lambda b: b * torch.zeros(0), chunk_size=c)(torch.tensor(1.)))
    E(lambda: jacrev(lambda x: (x.exp(), x.sum() * x[:1]), chunk_size=c)(torch.tensor([1., 2., 3.])))
    E(lambda: jacrev(lambda x: x.item() * x, chunk_size=c)(torch.tensor([1., 2.])))
    E(lambda: jacrev(jacrev(lambda x: x.pow(3).sum(), chunk_size=c), chunk_size=c)(torch.tensor([1., 2.])))
""")


def test_cat_of_a_batch_of_legacy_empty_examples_is_unbatched():
    # (nested seed 5565) PyTorch's cat rule leaves out inputs of [0] examples when it picks the batch size: with
    # no other batched input the result is unbatched, and an in-place op with a batched operand refuses to write it
    same_output(_E + r"""
b = torch.ones(2)
E(lambda: vmap(lambda a: torch.hstack((b, a)).mul_(a.sum() + 1))(torch.zeros(3, 0)))
E(lambda: vmap(lambda a: torch.cat((b, a)).xlogy_(a.sum() + 1))(torch.zeros(3, 0)))
E(lambda: vmap(lambda a: torch.cat((a, a)).add_(a.sum()))(torch.zeros(3, 0)))
E(lambda: vmap(lambda a: torch.cat((b, a)) * (a.sum() + 1))(torch.zeros(3, 0)))
E(lambda: vmap(lambda a: torch.cat((b, a, b * a.sum())))(torch.zeros(3, 0)))
E(lambda: vmap(vmap(lambda a: torch.cat((b, a)).mul_(a.sum())))(torch.zeros(2, 3, 0)))
""")


def test_fallback_level_counts_the_transforms_around():
    # (nested seed 5592) the "at level N" of PyTorch's fallback refusal numbers every transform layer: a grad around
    # the vmap is level 1 and the vmap level 2
    same_output(_E + r"""
u, x = torch.ones(3), torch.ones(2, 3)
E(lambda: vmap(lambda a: u.clone().xlogy_(a))(x))
E(lambda: grad(lambda u: vmap(lambda a: (u * 1).xlogy_(a))(x).sum())(u))
E(lambda: vmap(grad(lambda u, a: vmap(lambda b: (u * 1).xlogy_(b))(a).sum()), in_dims=(None, 0))(u, x[None]))
E(lambda: vmap(vmap(lambda a: u.clone().xlogy_(a)))(x[None]))
E(lambda: jacrev(lambda u: vmap(lambda a: (u * 1).xlogy_(a))(x))(u))
""")


def test_cross_inside_vmap_names_the_physical_dim():
    # (vmap seed 36269) functorch's linalg_cross rule gives the kernel the physical dim (wrapped, one further per
    # batch dim): its length error names that, where the unbatched op names the dim as given
    same_output(_E + r"""
a, b = torch.ones(2, 3, 1), torch.ones(2, 3, 3)
E(lambda: torch.linalg.cross(a[0], b[0], dim=-1))
E(lambda: vmap(lambda x, y: torch.cross(x, y, dim=-2))(b[:, :1], a))
E(lambda: vmap(lambda x, y: torch.linalg.cross(x, y, dim=-1))(a, b))
E(lambda: vmap(lambda y: torch.linalg.cross(a[0], y, dim=-1))(b))
E(lambda: vmap(vmap(lambda x, y: torch.linalg.cross(x, y, dim=-1)))(a[None], b[None]))
E(lambda: vmap(vmap(lambda x: torch.linalg.cross(x, b[0, 0, :1], dim=-1)))(a[None]))
""")
