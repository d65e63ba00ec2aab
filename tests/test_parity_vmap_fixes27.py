"""Session 27 fixes of torch.func differences found by transform fuzzing and the last session's leftovers.

cat inside vmap is PyTorch's cat batch rule level by level (innermost first): dim wrapped against each level's
examples, the batch dim put in front (an unbatched input expanded), dim moved one on; the plain cat of the physical
tensors then names their ranks, sizes and dims in its errors (a 0-d example concatenated with [0] examples: dim 1
out of range of the 1-d physical tensor). mv of two dtypes inside vmap is the bmm or mm its batch rule runs. The +0
that PyTorch's batch sum adds to a gradient keeps it batched at the vmaps still running, so jacrev(jacrev(prod))
takes the formulas' safe paths there (a +0 on the Hessian's diagonal). With chunk_size, the batch rules' errors name
the chunk's size (nested 6005). Slicing a batched 0-d tensor is slice on the physical tensor, dim 1 of a 1-d one
(nested 6018); so are slice_scatter's and cumulative_trapezoid's errors (and cumulative_trapezoid(0-d y, 1-d x) reads
y.size(dim) first, in plain PyTorch too). An argument grad / vjp does not differentiate is wrapped at its level, as
PyTorch wraps every argument: a value that requires grad written into it leaves the caller's tensor without a grad_fn
(nested 6329). Under forward AD, an in-place op on a view made before its base required grad is refused as on
a leaf before the formula clones self (func 37284). An in-place op with a batching rule (atan2_, mul_) promotes a
batched 0-d operand as the dimensioned physical tensor it is there (vmap 37556); an op through the slow fallback
refuses a batched value written into an unbatched tensor before the output shape's error (vmap 37727). A tensor the
function reaches through a helper's closure is restored per slice, written once per call (nested 7197), and one in a
dict of its closure is seen from outside, refusing a batched value (nested 8303).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
from torch.func import jacfwd, jacrev, vmap
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:160])
"""


def test_cat_inside_vmap_checks_the_physical_tensors():
    # PyTorch's cat rule: a [0] example is passed on as it is, a 0-d one gets the batch dim (1-d), and dim moves one
    # on, so cat([t, u]) of [0] and 0-d examples asks dim 1 of a 1-d tensor; ranks and sizes are the physical ones
    same_output(_E + r"""
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.zeros(2, 0), torch.ones(2)))
E(lambda: vmap(lambda t, u: torch.cat([u, t]))(torch.zeros(2, 0), torch.ones(2)))
E(lambda: vmap(lambda t, u: torch.cat([t, u]), in_dims=(0, None))(torch.zeros(2, 0), torch.ones(())))
E(lambda: vmap(lambda t, u: torch.cat([t, u]), in_dims=(None, 0))(torch.zeros(0), torch.ones(2)))
E(lambda: vmap(lambda t, u: torch.cat([t, u], -1))(torch.zeros(2, 0), torch.ones(2)))
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.ones(2, 3), torch.ones(2)))
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.ones(2, 3), torch.ones(2, 2, 3)))
E(lambda: vmap(lambda t, u: torch.cat([t, u], 1), in_dims=(0, None))(torch.ones(2, 3, 4), torch.ones(2, 3)))
E(lambda: vmap(vmap(lambda t, u: torch.cat([t, u])), in_dims=(0, None))(torch.zeros(0, 2, 0), torch.ones(2)))
E(lambda: vmap(vmap(lambda t, u: torch.cat([t, u])), in_dims=(0, None))(torch.zeros(1, 2, 0), torch.ones(2)))
E(lambda: vmap(vmap(lambda t, u: torch.cat([t, u])))(torch.ones(1, 2, 3), torch.ones(1, 2, 2, 3)))
E(lambda: vmap(lambda t, u: torch.cat([t, u]))(torch.zeros(2, 3), torch.ones(2, 2)).shape)
""")


def test_mv_of_two_dtypes_inside_vmap():
    # mv's batch rule: both batched a bmm, the vector alone an mm (matrix first), the matrix alone mv's own check
    same_output(_E + r"""
for a, b in ((torch.float32, torch.float64), (torch.float64, torch.float32), (torch.float32, torch.complex64)):
    E(lambda: vmap(torch.mv)(torch.ones(2, 3, 3, dtype=a), torch.ones(2, 3, dtype=b)))
    E(lambda: vmap(torch.mv, in_dims=(None, 0))(torch.ones(3, 3, dtype=a), torch.ones(2, 3, dtype=b)))
    E(lambda: vmap(torch.mv, in_dims=(0, None))(torch.ones(2, 3, 3, dtype=a), torch.ones(3, dtype=b)))
    E(lambda: vmap(lambda m, v: m @ v, in_dims=(None, 0))(torch.ones(3, 3, dtype=a), torch.ones(2, 3, dtype=b)))
    E(lambda: vmap(lambda m, v: m @ v)(torch.ones(2, 3, 3, dtype=a), torch.ones(2, 3, dtype=b)))
""")


def test_batch_sums_stay_batched_for_the_running_vmaps():
    # the gradient jacrev's vjp_fn hands cumprod's backward is summed over the inner vmap's one example and still
    # batched at jacrev's own vmap: the formula's safe path (PyTorch: tensor-subclass-like), +0 where the plain
    # reversed-cumsum path divides 0 by a negative x (-0)
    same_output(_E + r"""
x = torch.tensor([.5, -.3, 1.1])
print(jacrev(jacrev(lambda x: x.prod()))(x))
print(jacrev(jacrev(lambda x: x.prod()))(torch.tensor([[.5, -.3], [1.1, 2.]])))
print(jacrev(lambda x: vmap(lambda c: c * x.cumprod(0))(torch.ones(1)))(x))
print(jacrev(lambda x: vmap(lambda c: c * torch.cat([torch.ones(1), x[:2]]).cumprod(0))(torch.ones(1)))(x))
print(torch.func.vjp(lambda x: vmap(lambda c: c * x.cumprod(0))(torch.ones(1)), x)[1](torch.tensor([[1., 0., 0.]])))
""")


def test_chunked_vmap_errors_name_the_chunk_size():
    # (nested 6005) PyTorch runs vmap once per chunk: an unbatched tensor written with a batched value names the
    # physical shape of the chunk's batch
    same_output(_E + r"""
def f(c, d):
    v0 = c.clamp_max(0.3)
    v0[2:].atan2_(d)
    return v0
c = torch.tensor([0.1, 0.5, 0.7])
for chunk in (None, 1, 2, 3, 5):
    E(lambda: vmap(f, in_dims=(None, 0), chunk_size=chunk)(c, torch.ones(3)))
E(lambda: vmap(lambda m, v: m.mv(v), in_dims=(None, 0), chunk_size=2)(torch.ones(2, 3), torch.ones(5, 2)))
""")


def test_slicing_a_batched_scalar():
    # (nested 6018) slice's batch rule wraps dim against the 0-d example, then slices dim 1 of the physical
    # [B] tensor; an int index and an unbatched 0-d tensor keep their own errors
    same_output(_E + r"""
x = torch.arange(6.).reshape(2, 3)
E(lambda: vmap(lambda b: b[0][1:])(x))
E(lambda: vmap(lambda b: b[0][:])(x))
E(lambda: vmap(lambda b: b[0][::2])(x))
E(lambda: vmap(lambda b: b[0][1])(x))
E(lambda: vmap(lambda b: b[0][..., 1:])(x))
E(lambda: vmap(vmap(lambda b: b[1:]))(x))
E(lambda: vmap(torch.func.grad(lambda b: b[0][1:].sum()))(x))
E(lambda: vmap(lambda b: torch.tensor(1.)[1:] + b)(x))
E(lambda: jacfwd(lambda b: b.sum()[1:])(x))
def st(b):
    s = b.sum()
    s[1:] = 2.
    return s
E(lambda: vmap(st)(x))
E(lambda: vmap(lambda b: torch.slice_scatter(b.sum(), torch.tensor(1.), 0, 1))(x))
E(lambda: vmap(lambda b: torch.slice_scatter(torch.tensor(1.), b.sum(), -1, 1))(x))
E(lambda: vmap(lambda b: torch.cumulative_trapezoid(b.sum(), dim=0))(x))
E(lambda: vmap(lambda b: torch.cumulative_trapezoid(b.sum(), dim=3))(x))
E(lambda: vmap(lambda b: torch.cumulative_trapezoid(b.sum(), b))(x))
E(lambda: vmap(lambda b: torch.cumulative_trapezoid(b.sum(), dx=2.))(x))
E(lambda: torch.cumulative_trapezoid(torch.tensor(1.), torch.tensor([1., 2.])))
E(lambda: torch.cumulative_trapezoid(torch.tensor(1.), torch.tensor(2.)))
""")


def test_arguments_not_differentiated_are_wrapped_too():
    # (nested 6329) PyTorch wraps every argument at a grad / vjp level: writing a value that requires grad there into
    # one not in argnums makes its wrapper require grad, the caller's tensor keeps no grad_fn (its values and version
    # written); a global reached beside the argument is captured; inside vmap an unbatched one refuses a batched value
    same_output(_E + r"""
from torch.func import grad, vjp
b = torch.tensor([1., 2.])
def f(a, b):
    a.mul_(b)
    return a.sum()
for fn in (grad(f, argnums=1), grad(f, argnums=-1), jacrev(lambda a, b: a.mul_(b), argnums=1),
           lambda a, b: vjp(lambda b: f(a, b), b)[1](torch.tensor(1.))):
    a = torch.ones(2)
    E(lambda: fn(a, b))
    print(a, a.requires_grad, a.grad_fn, a._version)
a = torch.ones(2)
E(lambda: grad(lambda a, b: (a.mul_(b).sum(), a), argnums=1, has_aux=True)(a, b)[1] is a)
print(a.requires_grad)
def g(a, b):
    y = b * a
    a.mul_(2)
    return y.sum()
E(lambda: grad(g, argnums=1)(torch.ones(2), b))
E(lambda: vmap(grad(f, argnums=1), in_dims=(None, 0))(torch.ones(2), torch.ones(3, 2)))
A = torch.ones(3, 2)
E(lambda: vmap(grad(f, argnums=1))(A, torch.ones(3, 2)))
print(A.requires_grad, A.grad_fn)
a = torch.ones(2)
def cap(x, y):
    a.mul_(y)
    return (x * y).sum()
E(lambda: grad(cap, argnums=1)(a, b))
def p(a, b):
    print(a, b)
    return (a * b).sum()
E(lambda: grad(p, argnums=1)(torch.ones(2), b))
E(lambda: vmap(grad(p, argnums=1))(torch.ones(2, 2), torch.ones(2, 2)))
""")


def test_inplace_check_before_the_forward_formulas_clone():
    # (func 37284) a view made before its base required grad, written in place once the base got a history: PyTorch's
    # check_inplace refuses it as a leaf before the forward formula clones self (which would give it its grad_fn),
    # under dual_level and under jvp / hessian alike
    same_output(_E + r"""
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
def run(write_grad, dual):
    with fwAD.dual_level():
        v0 = torch.zeros(3, 2)
        v1 = v0[1:]
        y = fwAD.make_dual(x, torch.ones(2)) if dual else x
        v0.sub_(y if write_grad else y.detach())
        v1.pow_(2)
        return fwAD.unpack_dual(v1)
for w in (True, False):
    for d in (True, False):
        E(lambda: run(w, d))
a, b = torch.tensor([1.83], dtype=torch.float64), torch.tensor([-0.98])
i = torch.tensor([[-1, -1], [0, -1]])
def f(a, b):
    v0 = torch.take(b, i)
    v1 = v0.narrow(-2, 1, 0)
    v0.sub_(a, alpha=2)
    v1.pow_(2)
    return v1.sum()
E(lambda: torch.func.hessian(f)(a, b))
E(lambda: torch.func.jvp(lambda a: torch.func.grad(f)(a, b), (a,), (a,)))
E(lambda: jacrev(f)(a, b))
""")


def test_inplace_rules_promote_a_batched_scalar_as_dimensioned():
    # (vmap 37556) an in-place op with a batching rule of its own (atan2_, mul_ ...) runs on the physical tensors,
    # where a batched 0-d operand is [B] padded to self's rank: it promotes as a dimensioned tensor (complex64 with
    # float64 examples: ComplexDouble); ops through the slow fallback (fmod_, pow_) see each example's 0-d value
    same_output(_E + r"""
c = torch.ones(3, 2, 1, dtype=torch.complex64)
m = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
E(lambda: vmap(lambda c, m: c.atan2_(m))(c.clone(), m))
E(lambda: vmap(lambda c, m: c.atan2_(m), in_dims=(0, None))(c.clone(), m[0]))
E(lambda: vmap(lambda c, m: c.atan2_(m))(c[:, 0, 0].clone(), m))
x = torch.tensor([[1.1, 2.3], [0.7, 0.9], [1.3, 1.7]])
for op in ("mul_", "div_", "atan2_", "copysign_", "fmod_", "remainder_", "pow_"):
    E(lambda: vmap(lambda x, m: getattr(x, op)(m))(x.clone(), m * 1.1))
""")


def test_fallback_inplace_refusal_before_the_output_shape():
    # (vmap 37727) an op without a batching rule (addcdiv_, addcmul_, hypot_: the slow fallback) writing a batched
    # value into an unbatched tensor whose shape the value does not fit: the fallback's refusal comes first
    same_output(_E + r"""
u = torch.ones(1, 1, 1)
for shape in ((3, 1, 0), (3, 1, 1), (3, 2, 1)):
    v = torch.ones(*shape)
    E(lambda: vmap(lambda v: u.clone().addcdiv_(v, v))(v))
    E(lambda: vmap(lambda v: u.clone().addcmul_(v, v))(v))
    E(lambda: vmap(lambda v: u.clone().mul_(v))(v))
    E(lambda: vmap(lambda v: u.clone().hypot_(v))(v))
    E(lambda: vmap(lambda v: u.clone().clamp_(v))(v))
""")


def test_tensor_reached_through_a_helper_is_written_once_per_call():
    # (nested 7197) PyTorch calls the vmapped function once: a tensor it reaches only through a helper's closure,
    # halved under no_grad by each call of the helper, is halved once per call of the helper, not once per example
    same_output(_E + r"""
c = torch.tensor([0.58, -1.99, 2.55])
def helper(x):
    with torch.no_grad():
        c.mul_(0.5)
    return x * 2
g = lambda x: (helper(x), helper(x).sum())
print(vmap(g, out_dims=(-1, 0))(torch.ones(3, 2)))
print(c)
print(vmap(lambda x: helper(x))(torch.ones(4, 2)), c)
print(vmap(lambda x: helper(x), chunk_size=2)(torch.ones(4, 2)), c)
""")


def test_tensor_in_a_closures_dict_is_seen_from_outside():
    # (nested 8303) a tensor the vmapped function reaches through a dict in its closure is the user's unbatched
    # tensor: writing a batched value into it is refused (under vmap(grad(f)), the grad level's capture check first)
    same_output(_E + r"""
from torch.func import grad
state = {"d": torch.ones(2)}
def make():
    held = state
    def f(x):
        held["d"].masked_fill_(x.sum() < 0, x.sum())
        return (x * 2).sum()
    return f
f = make()
E(lambda: vmap(f)(-torch.ones(3, 2)))
E(lambda: vmap(f, chunk_size=2)(-torch.ones(3, 2)))
E(lambda: vmap(grad(f))(-torch.ones(3, 2)))
print(state["d"])
""")
