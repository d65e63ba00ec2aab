"""Transform fuzz fixes of session 28: in-place refusals inside vmap, cat over no examples, out= of list ops.

transpose(0, -1) (t(), swapaxes) of a batched 0-d example is PyTorch's batch rule returning the BatchedTensor itself,
not a view, so the example of a vmapped leaf is refused in place as "a leaf Variable" (nested 8497). Writing a
batched value into an unbatched tensor is refused by vmap's batch rule or fallback before autograd's check of a leaf
or a view of one (its Batched dispatch key comes first), unless a grad transform runs inside the vmap or the rule
runs the kernel first (add_, atan2_); so the KNOWN entry of nested 789 left. The logical in-place ops are not
differentiable, so autograd does not refuse them on a leaf; an unbatched argument of grad inside vmap is seen from
outside the vmap, refusing a batched value. scatter_add_ / scatter_reduce_ name their own batch rules. cat inside a
vmap over no examples skips 0-d examples, whose physical tensors are [0]. out= of cat, stack, hstack and the like
with a batched tensor: PyTorch cannot generate a fallback for ops taking a list of tensors. The index-bound errors of
gather / scatter / index_select / index_fill inside vmap name the physical dim. A tangent cast to its output's real
dtype or copied into its primal's layout stays batched (jacfwd: an in-place op then writes a batched value into it).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
from torch.func import grad, vmap
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:160])
"""


def test_transpose_of_a_scalar_example_is_the_example():
    # PyTorch's transpose batch rule returns a 0-d example's BatchedTensor as it is: writing it in place writes the
    # vmapped leaf itself ("a leaf Variable"); minigrad's slice view said "a view of a leaf Variable"
    same_output(_E + r"""
a = torch.ones(3)
for fn in (lambda v: v.t(), lambda v: v.transpose(0, -1), lambda v: v.swapaxes(-1, 0), lambda v: v.T,
           lambda v: v.view(())):
    def f(x):
        fn(x).div_(2)
        return x
    E(lambda: grad(lambda x: vmap(f)(x).sum())(a))
    E(lambda: vmap(f)(torch.ones(3, requires_grad=True)))
    E(lambda: vmap(grad(lambda x: f(x).sum()))(a))   # (grad innermost: autograd's view of its leaf)
def g(x):
    x.t().mul_(2)
    return x
E(lambda: grad(lambda x: vmap(g)(x).sum())(torch.ones(3, 2)))   # (1-d examples: a view)
E(lambda: grad(lambda x: vmap(vmap(g))(x).sum())(torch.ones(2, 3)))
E(lambda: vmap(lambda x: (x * 1).t().mul_(2))(torch.ones(3, requires_grad=True)).detach())
""")


def test_vmap_refuses_a_batched_write_before_autograd():
    # vmap's batch rule (or slow fallback) runs before autograd's kernel: a batched value written into an unbatched
    # leaf or view of one is refused as vmap's; minigrad refused the leaf first
    same_output(_E + r"""
a = torch.ones(3, 2) * 0.5
ops = [lambda x, y: x.mul_(y), lambda x, y: x[0].mul_(y[0]), lambda x, y: x.sub_(y, alpha=2),
       lambda x, y: x.div_(y), lambda x, y: x.copy_(y), lambda x, y: x.pow_(y), lambda x, y: x.addcmul_(y, y),
       lambda x, y: x.clamp_(y), lambda x, y: x.clamp_min_(y), lambda x, y: x.masked_fill_(y > 0, 1.),
       lambda x, y: x.masked_fill_(torch.tensor([True, False]), y.sum()), lambda x, y: x.addmv_(torch.ones(2, 2), y),
       lambda x, y: x.__imul__(y), lambda x, y: x.add_(y), lambda x, y: x[0].atan2_(y[0]), lambda x, y: x.exp_(),
       lambda x, y: x.div_(y, rounding_mode='floor')]
for fn in ops:
    E(lambda: vmap(fn, in_dims=(None, 0))(torch.ones(2, requires_grad=True), a))
    E(lambda: vmap(fn, in_dims=(None, 0))(torch.ones(2, requires_grad=True)[:], a))
    E(lambda: grad(lambda x: vmap(fn, in_dims=(None, 0))(x, a).sum())(torch.ones(2)))
    E(lambda: vmap(grad(lambda x, y: fn(x, y).sum()), in_dims=(None, 0))(torch.ones(2), a))
""")


def test_logical_inplace_ops_are_no_leaf_refusal():
    # logical_and_ & co. are not differentiable: PyTorch lets a leaf be written and gives their own errors; under
    # vmap(grad), grad's unbatched argument refuses a batched value (minigrad wrote it)
    same_output(_E + r"""
x = torch.ones(2, requires_grad=True)
E(lambda: x.logical_and_(torch.ones(3)))
E(lambda: x[:].logical_xor_(torch.ones(3)))
E(lambda: x.logical_or_(torch.zeros(2)))
a = torch.ones(3, 2) * 0.5
E(lambda: vmap(grad(lambda x, y: x.logical_and_(y).sum()), in_dims=(None, 0))(torch.ones(2), a))
E(lambda: vmap(grad(lambda x, y: (x * y).sum() + x.logical_or_(y).sum()), in_dims=(None, 0))(torch.ones(2), a))
""")


def test_scatter_rule_names():
    # scatter_add_ and scatter_reduce_ have batch rules of their own, named without "aten::" in the refusal
    same_output(_E + r"""
a = torch.ones(3, 2)
x = torch.ones(2)
i = torch.tensor([1, 0])
E(lambda: vmap(lambda y: x.scatter_add_(0, i, y))(a))
E(lambda: vmap(lambda y: x.scatter_reduce_(0, i, y, 'amax'))(a))
E(lambda: vmap(lambda y: x.scatter_(0, i, y, reduce='add'))(a))
E(lambda: vmap(lambda y: x.index_add_(0, i, y))(a))
""")


def test_cat_of_scalar_examples_of_an_empty_batch():
    # vmap over no examples: a 0-d example's physical tensor is [0], which PyTorch's cat skips (the legacy empty
    # tensor); minigrad's harmless 0-d example refused to be concatenated
    same_output(_E + r"""
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.ones(0), torch.ones(0)))
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.ones(0, dtype=torch.int64), torch.ones(0)).dtype)
E(lambda: vmap(lambda t: torch.cat([t, t]))(torch.ones(0)).shape)
E(lambda: vmap(lambda t, u: torch.cat([t, u]), in_dims=(0, None))(torch.ones(0), torch.ones(2)).shape)
E(lambda: vmap(lambda t, u: torch.cat([t, u], -1), in_dims=(0, None))(torch.ones(0), torch.ones(2, 3)).shape)
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.ones(0), torch.ones(0, 2)).shape)
E(lambda: vmap(lambda t, u: torch.cat((t, u, t)))(torch.ones(0), torch.ones(0, 3)).shape)
E(lambda: vmap(vmap(lambda t, u: torch.cat([t, u])))(torch.ones(0, 2), torch.ones(0, 2)).shape)
E(lambda: vmap(lambda t, u: torch.cat([t, u], 1), in_dims=(0, None))(torch.ones(0), torch.ones(2)))
""")


def test_out_of_list_ops_inside_vmap():
    # out= of an op taking a list of tensors, with a batched one: PyTorch cannot generate the fallback (minigrad gave
    # the out= message of other ops, under cat's name for hstack & co.)
    same_output(_E + r"""
a = torch.ones(2, 1)
for name in ["cat", "stack", "hstack", "vstack", "dstack", "column_stack", "row_stack"]:
    fn = getattr(torch, name)
    E(lambda: vmap(lambda t, u: fn([t, u], out=torch.empty(0)))(a, a))
    E(lambda: vmap(lambda t, u: fn([u, u], out=torch.empty(0)), in_dims=(0, None))(a, a[0]).shape)
E(lambda: vmap(lambda t, u: torch.add(t, u, out=torch.empty(0)))(a, a))
""")


def test_index_bounds_inside_vmap_name_the_physical_dim():
    # PyTorch's batch rules run gather / scatter / index_select / index_fill on the physical tensors, batch dims first:
    # their index-bound errors name the dim one further per level (minigrad named the example's; index_select's
    # kernel message became the gather one's) (nested 9410)
    same_output(_E + r"""
c = torch.ones(3, 2, 3)
i = torch.tensor([[0, 3]])
E(lambda: vmap(lambda c: c.scatter_add(1, i, c))(c))
E(lambda: vmap(lambda c: c.scatter(-1, i, 2.))(c))
E(lambda: vmap(lambda c: c.scatter_reduce(1, i, c, 'sum', include_self=False))(c))
E(lambda: vmap(lambda c: c.gather(1, i))(c))
E(lambda: vmap(lambda c: c.gather(1, i), in_dims=1)(c))
E(lambda: vmap(vmap(lambda c: c.gather(0, i[0])))(c))
E(lambda: vmap(lambda i: c[0].scatter_add(1, i, c[0]))(torch.tensor([[[0, 3]], [[0, 1]]])))
E(lambda: c[0].scatter_add(1, i, c[0]))
E(lambda: vmap(lambda c: c.index_select(1, torch.tensor([3])))(c))
E(lambda: vmap(lambda c: c.index_select(0, torch.tensor([5])))(c))
E(lambda: vmap(lambda c: c[0, 0].index_select(0, torch.tensor([3])))(c))
E(lambda: c[0].index_select(1, torch.tensor([3])))
E(lambda: vmap(lambda c: c.index_add(1, torch.tensor([3]), c[:, :1]))(c))
E(lambda: vmap(lambda c: c.index_fill(1, torch.tensor([3]), 1.))(c))
""")


def test_real_tangent_of_a_complex_one_stays_batched():
    # jacfwd of abs of a complex tensor: the formula's complex tangent, cast to the real output's dtype, is batched
    # as it was; minigrad's cast made an unbatched copy, which addcmul_ then refused to write a batched value into
    # (func 39105)
    same_output(_E + r"""
from torch.func import jacfwd
b = torch.tensor(4.39)
d = torch.tensor(-1.43)
def f(b, d):
    v4 = torch.log_softmax((b * (1 + 0.5j)).abs(), 0, dtype=torch.float64)
    v4.addcmul_(d, d)
    return v4
E(lambda: jacfwd(f, argnums=(0, 1))(b, d))
E(lambda: jacfwd(lambda b: torch.view_as_real(b * (1 + 0.5j)).abs())(torch.ones(2)))
""")


def test_tangent_copied_to_its_primal_layout_stays_batched():
    # a tangent copied into zeros laid out as its primal (mse_loss's 0-d value sits in its loss buffer) is batched as
    # the tangent was; minigrad's copy was unbatched, so mul_ refused jacfwd's batched tangent into it (func 39417)
    same_output(_E + r"""
from torch.func import jacfwd
a = torch.tensor([1., 2., 3., 4.], dtype=torch.float64)
b = torch.ones(2, 3, dtype=torch.float64)
def f(a, b):
    v4 = torch.nn.functional.mse_loss(b * 2, b)
    v4.mul_(a.mean())
    return v4
E(lambda: jacfwd(f, argnums=(0, 1))(a, b))
""")


def test_masked_fill_value_gradient_under_vmap():
    # masked_fill's gradient for a tensor value is masked_select(...).sum(), but a where(...).sum() for functorch's
    # wrapped tensors: a mask batched by vmap would be refused by masked_select (nested 10161)
    same_output(_E + r"""
from torch.func import jacrev
a = torch.tensor([1., 2., 3.], dtype=torch.float64)
c = torch.tensor([[-1., 2.], [3., -4.], [1., 1.]], dtype=torch.float64)
def f(a, c):
    return (a * torch.ones(2)).masked_fill(c < 0, c.sum()).sum()
E(lambda: vmap(grad(f, argnums=(0, 1)))(a, c))
E(lambda: jacrev(f, argnums=(0, 1))(a[0], c[0]))
E(lambda: grad(lambda c: vmap(f, in_dims=(None, 0))(a[0], c).sum())(c))
x = torch.ones(3, requires_grad=True)
v = torch.tensor(2., requires_grad=True)
g, = torch.autograd.grad(x.masked_fill(torch.tensor([True, False, True]), v).sum(), v, create_graph=True)
print(g, g.grad_fn)
""")
