"""Session 24 fixes of torch.func differences found by transform fuzzing and the last session's leftovers.

torch.func's refusal to write a captured tensor in place names the op as called (fill_diagonal_, clip_, an alias,
an overload such as fmod_.Scalar) before the op's own checks, warnings and random draws, and never refuses an
``out=`` argument (nested seed 3640: fill_diagonal_ of a captured tensor under vjp). The losses' backward ops under
forward AD and vmap: PyTorch's vmap runs mse / smooth_l1 / huber_loss_backward as Python decompositions in the
promoted dtype (hessian of mse_loss with a float64 target is float32: the engine casts the float64 gradient), its
mse_loss_backward forward formula refuses a missing tangent's ZeroTensor in the mean's in-place division,
smooth_l1_loss_backward has a forward formula and huber_loss_backward none. cat over a batch of no examples reads a
legacy-empty [0] input's first example (nested seed 3731: jacrev of split of an empty vector).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import re
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
def C(write):
    # write(c) on a tensor the transformed function captured: the op PyTorch names, or what happens instead
    c = torch.full((3, 3), 0.5)
    try:
        grad(lambda x: (write(c), x.sum())[1])(torch.ones(2))
        print('ok', c.sum().item())
    except Exception as e:
        m = re.search(r'in-place operation \((.*?)\) that would mutate', str(e))
        print(type(e).__name__, m.group(1) if m else e)
T = lambda: torch.full((3, 3), 0.25)
"""


def test_captured_write_names_the_composite_or_alias_called():
    # PyTorch's functorch checks the op at the front of the dispatcher, before a composite (fill_diagonal_, square_,
    # selu_, relu6_) or an alias (clip_, arctan2_, negative_, greater_, true_divide_) dispatches to another op
    same_output(_E + r"""
C(lambda c: c.fill_diagonal_(2.0))
C(lambda c: c[0].fill_diagonal_(2.0))   # (before fill_diagonal_'s own dimension check)
C(lambda c: c.square_())
C(lambda c: c.clip_(0, 1))
C(lambda c: c.clip_(T()))
C(lambda c: torch.clip_(c, 0, 1))
C(lambda c: c.arctan2_(T()))
C(lambda c: c.negative_())
C(lambda c: c.absolute_())
C(lambda c: c.fix_())
C(lambda c: c.greater_(0))
C(lambda c: c.less_equal_(T()))
C(lambda c: c.not_equal_(0))
C(lambda c: c.subtract_(1))
C(lambda c: c.multiply_(T()))
C(lambda c: c.divide_(2))
C(lambda c: c.divide_(2, rounding_mode='floor'))
C(lambda c: c.true_divide_(2))
C(lambda c: torch.selu_(c))
C(lambda c: F.selu(c, inplace=True))
C(lambda c: F.rrelu(c, inplace=True))
C(lambda c: F.relu6(c, inplace=True))
C(lambda c: c.float_power_(2))   # (before float_power_'s dtype check)
C(lambda c: c.double().float_power_(T()))
""")


def test_captured_write_names_the_overload():
    # the message names the aten overload: fmod_.Scalar / .Tensor, xlogy_.Scalar_Other, scatter_.value / .src /
    # .reduce, clamp_.Tensor, the comparisons' .Scalar / .Tensor, bernoulli_.float, random_.from / .to
    same_output(_E + r"""
C(lambda c: c.fmod_(1.5))
C(lambda c: c.fmod_(T()))
C(lambda c: c.remainder_(T()))
C(lambda c: c.copysign_(-1.0))
C(lambda c: c.copysign_(T()))
C(lambda c: c.xlogy_(2))
C(lambda c: c.xlogy_(T()))
C(lambda c: c.scatter_(0, torch.tensor([[0]]), 2.0))
C(lambda c: c.scatter_(0, torch.tensor([[0]]), T()))
C(lambda c: c.scatter_(0, torch.tensor([[0]]), T(), reduce='add'))   # (before the kernel's deprecation warning)
C(lambda c: c.scatter_(0, torch.tensor([[0]]), 2.0, reduce='multiply'))
C(lambda c: c.scatter_reduce_(0, torch.tensor([[0]]), T(), 'sum'))
C(lambda c: c.index_reduce_(0, torch.tensor([0]), torch.ones(1, 3), 'prod'))   # (before the beta warning)
C(lambda c: c.clamp_(min=T()))
C(lambda c: c.clamp_min_(T()))
C(lambda c: c.clamp_max_(0.3))
C(lambda c: c.eq_(T()))
C(lambda c: c.lt_(1))
C(lambda c: c.floor_divide_(2))
C(lambda c: c.__imod__(T()))
""")


def test_captured_write_refused_before_draws_and_logical_ops_checked():
    # a random fill is refused before it draws (the generator is untouched); logical_and_ / logical_not_ are
    # composites, but torch.func checks them too (minigrad wrote them)
    same_output(_E + r"""
for write in (lambda c: c.uniform_(), lambda c: c.normal_(), lambda c: c.bernoulli_(0.5),
              lambda c: c.bernoulli_(T()), lambda c: c.exponential_(), lambda c: c.random_(0, 3),
              lambda c: c.random_(3), lambda c: c.random_(), lambda c: c.log_normal_(), lambda c: c.cauchy_(),
              lambda c: c.geometric_(0.5), lambda c: F.rrelu(c, training=True, inplace=True)):
    torch.manual_seed(0)
    C(write)
    print(torch.rand(2))
C(lambda c: c.logical_and_(T()))
C(lambda c: c.logical_or_(T()))
C(lambda c: c.logical_not_())
""")


def test_out_argument_may_write_a_captured_tensor():
    # torch.func refuses in-place ops (whose first argument is written) on a captured tensor, not out= arguments
    same_output(_E + r"""
C(lambda c: torch.exp(c, out=c))
C(lambda c: torch.add(c, 1, out=c))
C(lambda c: torch.div(c, 2, out=c))
C(lambda c: F.normalize(c, out=c))
C(lambda c: torch.add(torch.ones(3, 3), 2, out=c))
""")


def test_mse_loss_backward_forward_formula_zero_tensor_and_order():
    # PyTorch's forward formula of mse_loss_backward: the self and target terms first, then grad_output's
    # (AddBackward0); mse_loss_double_backward divides the mean in place, which a missing tangent's ZeroTensor
    # refuses (jvp and jacfwd of grad); jacfwd(jacrev) and hessian decompose it under vmap and work, as does a jvp
    # nested in another
    same_output(_E + r"""
x = torch.tensor([[1., 2.], [3., 4.]])
for red in ('mean', 'sum'):
    for tgt in (torch.zeros(2, 2), torch.full((2, 2), 0.5, dtype=torch.float64)):
        f = lambda x: F.mse_loss(x, tgt, reduction=red)
        E(lambda: jvp(grad(f), (x,), (torch.ones(2, 2),)))
        E(lambda: jacfwd(grad(f))(x))
        E(lambda: hessian(f)(x))
        E(lambda: jacrev(jacrev(f))(x).dtype)
        E(lambda: jvp(lambda x: jvp(f, (x,), (x,))[1], (x,), (x * 2,)))
with fwAD.dual_level():
    x0 = x.clone().requires_grad_()
    xd = fwAD.make_dual(x0, torch.ones(2, 2))
    yd = fwAD.make_dual(torch.zeros(2, 2), torch.full((2, 2), 0.5))
    g, = torch.autograd.grad(F.mse_loss(xd, yd), xd, create_graph=True)
    print(fwAD.unpack_dual(g).tangent)
    E(lambda: torch.autograd.grad(F.mse_loss(xd, torch.zeros(2, 2)), xd, create_graph=True))
""")


def test_loss_backward_decomposed_under_vmap():
    # under jacrev's vmap (hessian, jacrev of jacrev) PyTorch runs mse / smooth_l1 / huber_loss_backward as their
    # torch._decomp decompositions: in the promoted dtype of grad, input and target (float64 with a float64 target,
    # then cast back to the input's float32), 2/n·(x - y)·g with a rounded 2/n (here n = 3), where-branches
    same_output(_E + r"""
x = torch.tensor([0.3, -1.7, 2.1]) * 1.3
for dy in (torch.float32, torch.float64):
    y = torch.tensor([0.1, 0.5, -1.3], dtype=dy)
    for name, fn in (('mse', lambda a: F.mse_loss(a, y)), ('sl1', lambda a: F.smooth_l1_loss(a, y, beta=0.7)),
                     ('huber', lambda a: F.huber_loss(a, y, delta=0.7))):
        f = lambda x: fn(x * 1.1)
        for tr in (hessian, lambda f: jacrev(jacrev(f)), lambda f: jacfwd(jacrev(f)), jacfwd,
                   lambda f: lambda x: vmap(grad(f))(torch.stack([x, x * 0.5]))):
            # (huber_loss's forward formula: a float64 target's term refuses the float32 input, see below)
            E(lambda: (lambda h: (name, h.dtype, h.tolist()))(tr(f)(x)))
b0 = torch.zeros(2, 2)
print(hessian(lambda x: F.mse_loss(x, b0.double()))(torch.ones(2, 2)).dtype)   # (session 23's leftover)
""")


def test_smooth_l1_and_huber_loss_backward_under_forward_ad():
    # smooth_l1_loss_backward has a forward formula in PyTorch (its double backward divides by beta as a C++
    # Scalar, which makes a missing tangent's ZeroTensor plain zeros: signs of zero follow); huber_loss_backward
    # has none, refused before its kernel; huber_loss's own forward formula meets the target's term first (its
    # mixed-dtype error names the input's dtype as found)
    same_output(_E + r"""
x = torch.tensor([0.3, -1.7, 2.1])
y = torch.tensor([0.1, 0.5, -1.3])
for red in ('mean', 'sum'):
    f = lambda x: F.smooth_l1_loss(x, y, reduction=red, beta=0.5)
    o, t = jvp(grad(f), (x,), (torch.tensor([-1., -2., -3.]),))
    print(t, 1 / t)
    E(lambda: jvp(grad(lambda x: F.huber_loss(x, y, reduction=red)), (x,), (x,)))
    E(lambda: hessian(lambda x: F.huber_loss(x, y, reduction=red, delta=0.5))(x))
with fwAD.dual_level():
    xd = fwAD.make_dual(x.clone().requires_grad_(), torch.ones(3))
    yd = fwAD.make_dual(y.clone().requires_grad_(), torch.tensor([2., -1., 0.5]))
    for red in ('mean', 'sum', 'none'):
        l = F.smooth_l1_loss(torch.zeros(3), yd, reduction=red, beta=0.5)
        g, = torch.autograd.grad(l, yd, torch.ones_like(l) * 0.7, create_graph=True)
        t = fwAD.unpack_dual(g).tangent
        print(t, 1 / t)
    for dy in (torch.float32, torch.float64):
        E(lambda: fwAD.unpack_dual(F.huber_loss(xd, y.to(dy))).tangent)
        E(lambda: fwAD.unpack_dual(F.huber_loss(xd.double(), y.to(dy))).tangent)
        E(lambda: fwAD.unpack_dual(F.smooth_l1_loss(xd, y.to(dy))).tangent)
""")


def test_cat_of_legacy_empty_examples_over_no_examples():
    # PyTorch's cat batch rule reads the first example of an input whose examples are the legacy empty [0]: over no
    # examples that select fails (jacrev of split of an empty vector: split's backward is a cat); the gradient
    # of an unbatched operand, summed back from its broadcast, stays batched (outer's backward)
    same_output(_E + r"""
z = torch.zeros(0, 0)
E(lambda: vmap(lambda t: torch.cat([t]))(z))
E(lambda: vmap(lambda t: torch.cat([t, torch.zeros(2)]))(z))
E(lambda: vmap(lambda t: torch.cat([t.reshape(0, 1)]))(z))
E(lambda: vmap(lambda t: torch.cat([t]))(torch.zeros(2, 0)))
a, b = torch.zeros(0), torch.zeros(0)
E(lambda: jacrev(lambda b: b.split(1, 0)[0])(b))
E(lambda: jacrev(lambda a, b: torch.outer(b.split(1, 0)[0].flatten(), a.reshape(-1)), argnums=(0, 1))(a, b))
E(lambda: jacrev(lambda b: torch.outer(b, torch.ones(2)))(torch.ones(3)).shape)
""")
