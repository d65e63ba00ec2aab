"""vmap fixes of session 30 (third wave): the fallback's warnings for ops without a batching rule, their forward
formulas on batched tangents, permute's dims under vmap.

PyTorch's vmap runs an op without a batching rule (``_vmap_batched._FALLBACK_NAMES``: masked_fill with a tensor
value, masked_scatter, index_copy_, scatter_, put, take, lerp_, pow_ ...) through its slow fallback, which warns
("There is a performance drop ...") for every batch size, not only refuses a batch of no examples. Where the forward
formula is the op itself on the tangents (masked_fill's ``self_t.masked_fill(mask, value_t)``, masked_scatter's,
put's, index_copy's, scatter's), jacfwd's batched tangents reach the fallback too, and for an in-place op the
formula is the in-place op on self_t: jacfwd of ``masked_fill_`` with a tensor value names masked_fill_.Tensor (and
refuses a function of empty tensors: the formula read an unbatched copy of the old tangent). float_power_, which
reaches the fallback itself, runs pow_ as its kernel there, without pow_'s warning (``_vmap_batched.composite``);
so do the aliases vmap does not decompose (fix_, negative_, greater_ ..., subtract_) and the in-place comparisons,
which have no rule at all. histc and isin warn too; rrelu is refused under any vmap ("we do not yet support").

permute's batch rule wraps each dim as the example's, then permutes the physical tensor: a dim out of the
example's range is refused first (vmap 49022), and the count error counts the batch dim. The view batch rule views
the physical tensor, which has no elements over no examples: a -1 in the size is ambiguous there.

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values,
exception messages and warnings must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import warnings
import torch
from torch.func import grad, jacfwd, jvp, vmap
def E(f):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = f()
            print('ok', tuple(r.shape), round(r.sum().item(), 4))
        except Exception as e:
            print(type(e).__name__, str(e)[:200])
    print(sorted({str(w.message)[:110] for w in caught if 'performance drop' in str(w.message)}))
"""


def test_fallback_warns_for_any_batch():
    # minigrad gave no warning (it only refused a batch of no examples)
    same_output(_E + r"""
T = torch.tensor(2.)
i, m = torch.tensor([0, 2]), torch.tensor([True, False, True])
ops = [lambda a: a.masked_fill(m, T), lambda a: a.clone().masked_fill_(m, T), lambda a: a.masked_scatter(m, a * 2),
       lambda a: a.clone().index_copy_(0, i, a[:2]), lambda a: a.clone().scatter_(0, i, a),
       lambda a: a.clone().scatter_(0, i, 2.), lambda a: a.put(i, a[:2]), lambda a: a.take(i),
       lambda a: a.clone().index_reduce_(0, i, a[:2], 'prod'), lambda a: a.reshape(1, 3).renorm(2, 0, 1.),
       lambda a: a.clone().lerp_(a * 2, a), lambda a: a.clone().fmod_(2.), lambda a: a.abs().pow_(a),
       lambda a: a.clone().cumsum_(0), lambda a: a.clone().heaviside_(a)]
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
for f in ops:
    E(lambda: vmap(f)(x))
    E(lambda: jacfwd(f)(x[0]))
""")


def test_inplace_formula_through_fallback():
    # jacfwd of masked_fill_ with a tensor value: minigrad returned (0, 0) zeros for empty tensors, no warnings
    same_output(_E + r"""
T = torch.tensor(2.)
for n in (0, 2):
    E(lambda: jacfwd(lambda a: a.clone().masked_fill_(a > 0, T))(torch.ones(n)))
    E(lambda: jacfwd(lambda a: a.masked_fill(a > 0, T))(torch.ones(n)))
    E(lambda: jacfwd(lambda a: a.clone().masked_fill_(a > 0, 2.))(torch.ones(n)))
    E(lambda: vmap(lambda t: jvp(lambda a: a.clone().masked_fill_(a > 0, T), (torch.ones(2),), (t,))[1])(
        torch.ones(n, 2)))
""")


def test_float_power_runs_pow_inside_fallback():
    # minigrad warned for pow_.Tensor too (float_power_'s kernel); under grad, PyTorch decomposes it into pow_
    same_output(_E + r"""
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=torch.float64)
E(lambda: vmap(lambda a: a.abs().float_power_(a))(x))
E(lambda: vmap(grad(lambda a: a.abs().float_power_(a).sum()))(x))
E(lambda: vmap(lambda a: a.abs().float_power_(2.))(x))
""")


def test_permute_dims_under_vmap():
    # minigrad compared the count first, with the example's ranks (vmap 49022: a 0-d count_nonzero permuted)
    same_output(_E + r"""
x = torch.ones(3, 4)
for dims in ((1, 2, 0), (0, 1), (0,), (-1,), (1,)):
    E(lambda: vmap(lambda a: a.sum().permute(*dims))(x))
for dims in ((1, 2, 0), (0, 0, 1), (1, 0), (0, 5), (0,), (0, 1)):
    E(lambda: vmap(lambda a: a.permute(*dims))(x))
E(lambda: vmap(lambda a: a.permute(0))(torch.ones(3, 4, 5)))
E(lambda: vmap(vmap(lambda a: a.permute(0, 1)))(torch.ones(2, 3, 4)))
E(lambda: torch.tensor(1.).permute(1, 2, 0))
""")


def test_view_with_inferred_size_over_no_examples():
    # the view batch rule views the physical tensor, without elements over no examples: a -1 is ambiguous even
    # where the example's size cannot fit (minigrad: "shape '[0, 2, -1]' is invalid for input of size 0")
    same_output(_E + r"""
for x in (torch.ones(0, 3), torch.ones(0, 2, 3), torch.ones(2, 3)):
    E(lambda: vmap(lambda a: a.reshape(2, -1))(x))
    E(lambda: vmap(lambda a: a.view(-1, 5))(x))
    E(lambda: vmap(lambda a: a.view(-1, 3))(x))
E(lambda: vmap(vmap(lambda a: a.view(-1, 5)))(torch.ones(2, 0, 3)))
""")


def test_inplace_comparisons_and_composite_aliases_through_fallback():
    # in-place comparisons have no batching rule (any transform inside: ge_.Tensor), and the aliases fix_,
    # negative_, greater_ ..., subtract_ reach the fallback under their own names unless a grad transform inside
    # decomposes them (greater_ into gt_); minigrad warned for none, refused no batch of no examples, and checked
    # ge_'s complex number before the fallback
    same_output(_E + r"""
u = torch.ones(4)
ops = [lambda a: a.clone().ge_(a), lambda a: a.clone().eq_(0.5), lambda a: a.clone().greater_(a),
       lambda a: a.clone().less_equal_(0.6), lambda a: a.clone().not_equal_(1.), lambda a: a.clone().fix_(),
       lambda a: a.clone().negative_(), lambda a: a.clone().subtract_(a), lambda a: a.clone().absolute_(),
       lambda a: a.clone().multiply_(a), lambda a: a.clone().ge_(1j), lambda a: u.clone().ge_(a),
       lambda a: u.clone().greater_(a), lambda a: u.clone().subtract_(a)]
for n in (2, 0):
    x = torch.tensor([[0.5, -1.0, 2.0, 0.3], [1.5, 0.25, -0.75, 0.1]])[:n]
    for f in ops:
        E(lambda: vmap(f)(x))
        if n:
            E(lambda: vmap(grad(lambda a: f(a).real.sum()))(x))
""")


def test_histc_isin_rrelu_under_vmap():
    # histc and isin warn as the fallback runs them (isin refuses no examples too); rrelu is refused under any
    # vmap, as rrelu_with_noise where a transform inside decomposes it (minigrad ran all three quietly)
    same_output(_E + r"""
import torch.nn.functional as F
u = torch.tensor([1., 2.])
for n in (2, 0):
    x = torch.tensor([[0.5, -1.0, 2.0, 0.3], [1.5, 0.25, -0.75, 0.1]])[:n]
    for f in (lambda a: a.histc(4), lambda a: torch.isin(a, a), lambda a: torch.isin(a, 2.),
              lambda a: torch.isin(2., a), lambda a: torch.isin(u, a), lambda a: torch.isin(a.bool(), a.bool()),
              lambda a: F.rrelu(a), lambda a: F.rrelu(u) + a, lambda a: F.rrelu_(a.clone()),
              lambda a: torch.nn.RReLU()(a), lambda a: torch.rrelu(a.long())):
        E(lambda: vmap(f)(x))
    E(lambda: vmap(grad(lambda a: F.rrelu(a).sum()))(x))
    E(lambda: vmap(grad(lambda a: F.rrelu(a.clone(), inplace=True).sum()))(x))
E(lambda: jacfwd(lambda a: F.rrelu(a))(u))
E(lambda: torch.autograd.grad(F.rrelu(u.requires_grad_()), u, torch.eye(2), is_grads_batched=True)[0])
""")
