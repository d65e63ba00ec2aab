"""vmap fixes of session 30 (second wave): ops without a batching rule over a batch of no examples, clip_'s name.

PyTorch's vmap runs an op without a batching rule through its slow fallback, example by example, after a
"performance drop" warning; over a batch of no examples the fallback cannot know the outputs' shapes and refuses
("Batching rule not implemented for aten::<overload>. The fallback path does not support vmap over dims of size 0"),
before the op's own checks. The in-place legacy reductions scatter_(..., reduce=) (scatter_.reduce /
.value_reduce), as_strided_ and set_ (which also refuses a batched source written into an unbatched tensor) have no
rule. PyTorch's composites without one (fill_diagonal_, float_power_, clip_, square_) reach the fallback under
their own names only where no grad transform runs inside the vmap (one decomposes them first: clip_ into clamp_,
whose fallback then names clamp_); clamp_() / clip_() without numbers is the .Tensor overload.

From formulas: jacfwd's tangents are batched, and masked_fill's forward formula with a tensor value is the op itself
(self_t.masked_fill(mask, value_t)), so jacfwd of a function of empty tensors refuses it (masked_fill.Tensor);
take's backward on torch.func's wrappers is an out-of-place put, refused under jacrev over no cotangents (func
43999).

Also: addcdiv_ / addcmul_ go through the fallback too (its refusals before the kernel's dtype checks: vmap 44375);
count_nonzero and searchsorted results are batched as their inputs; select / unbind / split of a 0-d example fail
as PyTorch's batch rule does, on the physical tensor's dim 1 (vmap 44941); as_strided_ and set_ leave the
BatchedTensor as it was (the fallback changes each example's slice, a view).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values,
exception messages and warnings must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import warnings
import torch
from torch.func import grad, jacfwd, jacrev, vmap
def E(f):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = f()
            print('ok', tuple(r.shape), r.sum().item())
        except Exception as e:
            print(type(e).__name__, str(e)[:200])
    if WARN:
        print(sorted({str(w.message)[:110] for w in caught if 'performance drop' in str(w.message)}))
WARN = True
"""


def test_ops_without_rule_refuse_no_examples():
    # minigrad ran them on no examples (scatter_.reduce, fill_diagonal_, as_strided_, set_), or gave the kernel's
    # error first (fill_diagonal_ of vectors, float_power_ of a float32 base) or pow_'s name (float_power_)
    same_output(_E + r"""
i = torch.zeros(3, dtype=torch.long)
for n in (0, 2):
    x, m, d = torch.ones(n, 3), torch.ones(n, 3, 3), torch.ones(n, 3, dtype=torch.float64)
    E(lambda: vmap(lambda a: a.clone().scatter_(0, i, a, reduce='add'))(x))
    E(lambda: vmap(lambda a: a.clone().scatter_(0, i, 2., reduce='multiply'))(x))
    E(lambda: vmap(lambda a: torch.zeros(3).scatter_(0, i, a, reduce='add'))(x))
    E(lambda: vmap(lambda a: a.clone().scatter(0, i, a, reduce='add'))(x))
    E(lambda: vmap(lambda a: a.clone().fill_diagonal_(2.))(m))
    E(lambda: vmap(lambda a: a.clone().fill_diagonal_(2.))(x))
    E(lambda: vmap(grad(lambda a: a.clone().fill_diagonal_(2.).sum()))(m))
    E(lambda: vmap(lambda a: torch.ones(3).set_(a))(x))
    E(lambda: vmap(lambda a: a.clone().float_power_(2.))(d))
    E(lambda: vmap(lambda a: a.clone().float_power_(a))(d))
    E(lambda: vmap(lambda a: a.clone().float_power_(a))(x))
    E(lambda: vmap(lambda a: torch.ones(3, dtype=torch.float64).float_power_(a))(d))
    E(lambda: vmap(grad(lambda a: a.clone().float_power_(2.).sum()))(d))
    E(lambda: vmap(lambda a: a.clone().square_())(x))
x = torch.ones(0, 3)
E(lambda: vmap(lambda a: a.clone().as_strided_((2,), (1,)))(x))
E(lambda: vmap(lambda a: a.clone().set_(torch.ones(2)))(x))
E(lambda: vmap(lambda a: a.clone().set_())(x))
""")


def test_clip_named_clip_by_the_fallback():
    # minigrad's warning and refusal named clamp_ (and clamp_() without bounds the number overload)
    same_output(_E + r"""
for n in (2, 0):
    x = torch.ones(n, 3)
    E(lambda: vmap(lambda a: a.clone().clip_(0., 1.))(x))
    E(lambda: vmap(lambda a: a.clone().clip_(a, a))(x))
    E(lambda: vmap(lambda a: torch.clip_(a.clone(), None, torch.ones(3)))(x))
    E(lambda: vmap(lambda a: torch.ones(3).clip_(a))(x))
    E(lambda: vmap(lambda a: a.clone().clip_())(x))
    E(lambda: vmap(lambda a: a.clone().clamp_(None, None))(x))
    E(lambda: vmap(lambda a: a.clone().clamp_(0., 1.))(x))
    E(lambda: vmap(grad(lambda a: a.clone().clip_(0., 1.).sum()))(x))
    E(lambda: vmap(grad(lambda a: torch.ones(3).clip_(a).sum()))(x))
""")


def test_formulas_without_rule_refuse_no_examples():
    # masked_fill's forward formula (a tensor value) and take's backward (put) under jacfwd / jacrev over no basis
    # vectors: minigrad ran them
    same_output(_E + r"""
WARN = False   # (ops run by formulas, and found in _vmap_batched._FALLBACK_NAMES, do not give the warning)
b, i = torch.ones(2, 3), torch.tensor([0, 4])
for x in (torch.ones(0), torch.ones(0, 3), torch.ones(2)):
    E(lambda: jacfwd(lambda a: a.masked_fill(a > 0, torch.tensor(2.)))(x))
    E(lambda: jacfwd(lambda a: a.masked_fill(a > 0, 2.))(x))
    E(lambda: jacrev(lambda a: a.masked_fill(a > 0, torch.tensor(2.)))(x))
E(lambda: vmap(lambda a: a.masked_fill(a > 0, torch.tensor(2.)))(torch.ones(0, 2)))
E(lambda: jacrev(lambda b: torch.take(b, i).narrow(0, 0, 0))(b))
E(lambda: jacrev(lambda b: torch.take(b, i))(b))
E(lambda: vmap(grad(lambda b: torch.take(b, i).sum()))(torch.ones(0, 2, 3)))
""")


def test_addcdiv_fallback_before_kernel_checks():
    # addcdiv_ / addcmul_ have no batching rule: the fallback's warning and refusals come before the kernel's dtype
    # checks (vmap 44375: a batched value into an unbatched long tensor; minigrad gave the cast error or, under a
    # grad transform, addcdiv's integer-division error first)
    same_output(_E + r"""
L = torch.ones(2, dtype=torch.long)
E(lambda: torch.ones(2, requires_grad=True).addcdiv_(L, L))
for n in (3, 0):
    x = torch.ones(n, 2)
    E(lambda: vmap(lambda b: torch.ones(2, dtype=torch.long).addcdiv_(b, b))(x))
    E(lambda: vmap(lambda b: torch.ones(2, dtype=torch.long).addcmul_(b, b))(x))
    E(lambda: vmap(lambda b: torch.ones(2).addcdiv_(b.long(), b.long()))(x))
    E(lambda: vmap(lambda b: torch.ones(2, requires_grad=True).addcdiv_(b, b))(x))
    E(lambda: vmap(lambda b: b.long().addcdiv_(b, b))(x))
    E(lambda: vmap(lambda b: b.clone().addcmul_(b, b, value=2))(x))
    E(lambda: vmap(grad(lambda b: torch.ones(2).addcdiv_(b.long(), b.long()).sum()))(x))
    E(lambda: vmap(grad(lambda b: torch.ones(2, dtype=torch.float64).addcdiv_(b, b).sum()))(x))
""")


def test_count_nonzero_searchsorted_batched_as_inputs():
    # their results (made outside the op table) were unbatched whatever their inputs, and not the user's own
    # tensors when made from unbatched ones: in-place writes mixing them were not refused (vmap 44375)
    same_output(_E + r"""
WARN = False
bd, x = torch.tensor([0., 1.]), torch.ones(3, 2)
E(lambda: vmap(lambda a: torch.zeros((), dtype=torch.long).add_(torch.count_nonzero(a)))(x))
E(lambda: vmap(lambda a: torch.count_nonzero(torch.ones(2)).add_(a.long().sum()))(x))
E(lambda: vmap(lambda a: torch.count_nonzero(a, 0))(x))
E(lambda: vmap(lambda a: torch.zeros(2, dtype=torch.long).add_(torch.searchsorted(bd, a)))(x))
E(lambda: vmap(lambda a: torch.searchsorted(bd, torch.ones(2)).add_(a.long()))(x))
E(lambda: vmap(lambda a: torch.zeros((), dtype=torch.long).add_(torch.searchsorted(a, 0.5)))(x))
E(lambda: vmap(lambda a: torch.searchsorted(a, torch.ones(2)))(x))
""")


def test_views_of_scalar_examples_refused_by_batch_rule():
    # select / unbind / split of a 0-d example: PyTorch's batch rule runs the op on the physical [B] tensor at dim 1
    # (vmap 44941: unbind of count_nonzero over both dims); minigrad gave the kernel's 0-d errors
    same_output(_E + r"""
WARN = False
x = torch.ones(3)
for g in (lambda t: t.unbind(0), lambda t: t.unbind(-1), lambda t: t.select(0, 0), lambda t: t.select(-1, 0),
          lambda t: t.select(2, 0), lambda t: t.split(1, 0), lambda t: t.split([1], -1), lambda t: t.split(1, 2),
          lambda t: torch.unsafe_split(t, 1, 0), lambda t: t.split_with_sizes([1], 0), lambda t: t.chunk(1),
          lambda t: t.narrow(0, 0, 1), lambda t: t.unbind(2)):
    E(lambda: vmap(g)(x))
E(lambda: vmap(grad(lambda t: t.unbind(0)[0]))(x))
E(lambda: vmap(vmap(lambda t: t.select(0, 0)))(torch.ones(2, 3)))
E(lambda: vmap(lambda c: torch.count_nonzero(c, (-2, 1)).unbind(0))(torch.ones(3, 4, 4)))
E(lambda: jacrev(lambda t: t.sum().select(0, 0))(x))
""")


def test_as_strided_and_set_leave_the_batch_as_it_was():
    # PyTorch's fallback runs as_strided_ / set_ on each example's slice, a view of the batch, so the BatchedTensor
    # keeps its sizes and values (the checks still run per example); minigrad restrided / replaced its examples
    same_output(_E + r"""
x = torch.arange(6.).reshape(2, 3)
E(lambda: vmap(lambda a: a.clone().as_strided_((2,), (1,), 1) * 2)(x))
E(lambda: vmap(lambda a: a.clone().as_strided_((2,), (1,)).add_(1))(x))
E(lambda: vmap(lambda a: a.clone().as_strided_((2,), (1,), -1))(x))
E(lambda: vmap(lambda a: a.clone().set_(torch.ones(2)))(x))
E(lambda: vmap(lambda a: a.clone().set_(a[:1]))(x))
E(lambda: vmap(lambda a: a.clone().set_())(x))
E(lambda: vmap(lambda a: a.clone().set_(torch.ones(2, dtype=torch.float64)))(x))
E(lambda: vmap(lambda a: a.clone().set_(torch.ones(2), -1, (1,)))(x))
E(lambda: vmap(lambda a: a.set_(torch.ones(2)) + 0)(x.clone()))
""")


def test_fill_with_a_value_sharing_memory():
    # fill_ of a 0-d tensor value reads it once (value.item()): no overlap check, so x[0] = b into a view of b itself
    # is allowed, under jvp too (func 47566); minigrad refused both
    same_output(_E + r"""
WARN = False
from torch.func import jvp
b = torch.tensor(1.)
v = b.view(1, 1)
E(lambda: v.__setitem__(0, b) or v)
E(lambda: v.fill_(b))
x = torch.arange(4.)
E(lambda: x.fill_(x[2]))
def f(b):
    v0 = b.view(1, 1)
    v2 = v0.scatter_reduce(-1, torch.tensor([[0]]), v0.view(1, 1), 'mean', include_self=True)
    v0.view(1, 1)[0] = b
    return v2 + v0
E(lambda: jvp(f, (torch.tensor(1.5),), (torch.tensor(1.),))[1])
""")
