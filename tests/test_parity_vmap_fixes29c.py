"""Transform fuzz fixes of session 29 (third wave): index_put's tangent dtypes, tangents sharing memory, t_ of scalars.

index_put's forward formula is PyTorch's ``self_t.index_put(indices, values_t, accumulate)``, whose kernel refuses
values of another dtype than the destination's: a float64 tangent of float32 values (under torch.func.jvp, ``a.abs()
+ 0.1`` of a 0-d float32 ``a``) written into a float32 tangent is an error there (func 41773), except on
masked_fill_'s path (one boolean mask, one value, no accumulation), which converts. put's formula is the
front-end's put of the tangents, with its dtype check (nested 13192).

An in-place op on an expanded view of a dual writes the new tangent with ``self_t.copy_(formula)``, which refuses a
tangent whose elements share memory even where the op's own kernel writes such a primal (tril_, triu_, threshold_:
func 42310, ``b.expand(2, 1).tril_()``); ops whose formula is the op itself on the tangent (zero_, fill_,
masked_fill_) write it. copy_ of the very same memory seen alike returns at once (``b.expand(2, 2).copy_(b.expand(2,
2))``, tangent too), and make_dual copies a tangent of another layout into zeros laid out as the primal, which an
expanded primal refuses.

A tensor batched at a vmap with 0-d examples is untouched by t_(), transpose_(0, -1) and squeeze_(0) (functorch's
batch rules return it, as PyTorch's scalar.transpose_(0, -1)), so under grad of vmap no autograd check refuses the
view of a leaf (nested 12783); under vmap of grad the grad level's check comes first.

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
from torch.func import jacfwd, jvp
fa = torch.autograd.forward_ad
def E(f):
    try:
        r = f()
        print('ok', [(x.dtype, x) for x in r])
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
"""


def test_index_put_tangent_dtypes_must_match():
    # under torch.func.jvp, a.abs() + 0.1 of a 0-d float32 a has a float64 tangent: index_put's formula refuses
    # it beside the float32 tangent it writes into (minigrad's formula wrote it, converted)
    same_output(_E + r"""
a, i, m = torch.tensor(0.3), torch.tensor([0, 1]), torch.tensor([True, False])
def setitem(a, key):
    y = a * torch.ones(2, 2)
    y[key] = a.abs() + 0.1
    return y
def put_(a):
    y = torch.zeros(2)
    y.index_put_((i,), a.abs() + 0.1, accumulate=True)
    return y
for f in (lambda a: torch.zeros(2).index_put((i,), a.abs() + 0.1, accumulate=True),
          lambda a: (a * torch.ones(2)).index_put((i,), a.abs() + 0.1),
          lambda a: (a * torch.ones(2)).index_put((i,), torch.tensor(0.1)),
          lambda a: torch.zeros(2).index_put((m,), a.abs() + 0.1),
          lambda a: torch.zeros(2, 2).index_put((m,), a.abs() + 0.1),
          lambda a: setitem(a, (i, i)), lambda a: setitem(a, m), lambda a: setitem(a, i), put_):
    E(lambda: jvp(f, (a,), (torch.ones(()),)))
    E(lambda: jacfwd(f)(a))
with fa.dual_level():
    x, v = fa.make_dual(torch.zeros(2), torch.ones(2)), fa.make_dual(torch.tensor(0.5), torch.ones(()))
    E(lambda: fa.unpack_dual(x.index_put((i,), v, accumulate=True)))
    E(lambda: fa.unpack_dual(torch.zeros(2).index_put((i,), v)))
    E(lambda: fa.unpack_dual(x.index_put((i,), torch.tensor(0.5, dtype=torch.float64))))
""")


def test_tangent_sharing_memory_refused_by_copy():
    # PyTorch's self_t.copy_(formula) refuses an expanded tangent where tril_'s kernel writes the expanded primal
    # (func 42310); minigrad wrote the tangent element by element
    same_output(_E + r"""
import torch.nn.functional as F
print(torch.ones(1).expand(2, 2).tril_())
b = torch.ones(1)
E(lambda: [b.expand(2, 2).copy_(b.expand(2, 2)), b.expand(2, 2).copy_(b.expand(2, 2).t())])
E(lambda: [torch.ones(1).expand(2, 2).copy_(torch.ones(1).expand(2, 2))])
with fa.dual_level():
    for op in ("v.tril_()", "v.triu_(1)", "v.tril_(-5)", "F.threshold(v, 0.5, 0., inplace=True)", "v.zero_()",
               "v.fill_(1.)", "v.conj_physical_()", "v.masked_fill_(torch.tensor(False), 3.)", "v.copy_(v)",
               "v.copy_(b.expand(2, 2))", "v.copy_(b.expand(2, 2).t())", "v.mul_(2)", "v.t_()"):
        b = fa.make_dual(torch.ones(1), torch.ones(1))
        E(lambda: fa.unpack_dual(eval(op, {"v": b.expand(2, 2), "b": b, "torch": torch, "F": F})))
    x = fa.make_dual(torch.ones(2, 2), torch.ones(1).expand(2, 2))
    E(lambda: fa.unpack_dual(x.tril_()))
    E(lambda: fa.unpack_dual(fa.make_dual(torch.ones(1).expand(2, 2), torch.ones(1).expand(2, 2))))
    E(lambda: fa.unpack_dual(fa.make_dual(torch.ones(1).expand(2, 2), torch.ones(2, 2))))
    E(lambda: jvp(lambda b: b.expand(2, 1).tril_(), (torch.tensor([0.5]),), (torch.ones(1),)))
""")


def test_transpose_and_squeeze_of_batched_scalar_examples():
    # a[...].t_() of a 0-d example in grad of vmap: PyTorch's batch rule returns the tensor before the grad level's
    # autograd check (nested 12783); minigrad refused the view of a leaf
    same_output(_E + r"""
from torch.func import vmap, grad
def mk(op):
    def f(a):
        v = a.imag if a.is_complex() else a[...]
        r = eval("v." + op)
        print(r is v, v.shape, end=' ')
        return (v * 1).real.sum()
    return f
E(lambda: [grad(lambda a: vmap(mk("transpose_(0, 1)"))(a).sum())(torch.ones(3))])   # (the dims wrapped first)
for op in ("t_()", "transpose_(0, -1)", "swapaxes_(-1, 0)", "squeeze_(0)", "squeeze_((0,))",
           "squeeze_(())", "squeeze_(-1)", "squeeze_((0, -1))", "squeeze_()", "unsqueeze_(0)"):
    for a in (torch.ones(3), torch.ones(3, dtype=torch.complex128)):
        E(lambda: [grad(lambda a: vmap(mk(op))(a).sum())(a)])
        E(lambda: [vmap(grad(mk(op)))(a)])
    E(lambda: [vmap(mk(op))(torch.ones(3, requires_grad=True)).detach()])
    E(lambda: [grad(lambda a: vmap(mk(op))(a).sum())(torch.ones(3, 2))])
""")


def test_put_tangent_dtypes_must_match():
    # put's forward formula self_t.put(index, source_t) refuses a float64 tangent of float32 values beside a float32
    # one (nested 13192, vmap of jvp); minigrad's linear formula wrote it, converted
    same_output(_E + r"""
a, i = torch.tensor(0.3), torch.tensor([0, 1])
for acc in (False, True):
    E(lambda: jvp(lambda a: torch.zeros(3).put(i, (a.abs() + 0.1).expand(2), accumulate=acc), (a,), (torch.ones(()),)))
    E(lambda: jvp(lambda a: (a * torch.ones(3)).put(i, torch.ones(2), accumulate=acc), (a,), (torch.ones(()),)))
    E(lambda: jvp(lambda a: torch.zeros(3).put(i, a * torch.ones(2), accumulate=acc), (a,), (torch.ones(()),)))
    E(lambda: jvp(lambda a: (a * torch.ones(3)).put_(i, (a.abs() + 0.1).expand(2), accumulate=acc), (a,),
                  (torch.ones(()),)))
    E(lambda: jacfwd(lambda a: torch.zeros(3).put(i, a, accumulate=acc))(torch.ones(2)))
with fa.dual_level():
    E(lambda: fa.unpack_dual(torch.zeros(3).put(i, fa.make_dual(torch.ones(2), torch.ones(2)))))
    E(lambda: fa.unpack_dual(fa.make_dual(torch.ones(3), torch.ones(3)).put(i, torch.ones(2))))
""")
