"""Parity of the Tensor methods and ``torch.*`` functions a missing-methods pass added (PyTorch 2.13's names).

In-place forms (``x.eq_(y)``, ``x.atan2_(y)``, ``x.cumsum_(0)``, ``x.fill_diagonal_(v)`` ...), ``index_reduce``,
the ``*_scatter`` and ``*_copy`` ops, small functions (``signbit``, ``diagflat``, ``unravel_index``, ``histogram``
...), ``torch.*`` aliases of ``nn.functional`` and the removed solvers' errors. Each program runs through
``parity.run_both`` (minigrad as ``torch``, then PyTorch): values, dtypes, grad_fn names, ``_saved_*`` names,
versions, gradients and exception messages must print the same. Programs marked "fixed:" printed something
different before the fix named.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

# Printed by every program: a result's values, dtype, node, saved names and version, or the exception.
PRELUDE = r'''
import torch
def show(name, f):
    try:
        r = f()
    except Exception as e:
        print(name, "ERR", type(e).__name__, str(e))
        return None
    if isinstance(r, (tuple, list)):
        for i, x in enumerate(r):
            show(f"{name}[{i}]", lambda x=x: x)
        return r
    if not isinstance(r, torch.Tensor):
        print(name, repr(r))
        return r
    g = r.grad_fn
    print(name, r, r.dtype, tuple(r.shape), type(g).__name__ if g is not None else None,
          sorted(a for a in dir(g) if a.startswith("_saved_")) if g is not None else None, r._version)
    return r
'''

PROGRAMS: dict[str, str] = {}

PROGRAMS['inplace_comparisons'] = r'''
a = lambda: torch.tensor([1., 2., 3.], requires_grad=True) * 1
o = torch.tensor([1., 0., 5.])
for op in ["eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_", "less_equal_",
           "not_equal_"]:
    show(op, lambda: getattr(a(), op)(o))
    show(op + " number", lambda: getattr(a(), op)(2.))
x = a()
y = x.eq_(torch.tensor([1., 0., 3.]))
print(y is x, x._version)
x.sum().backward()
w = torch.tensor([1., 2.], requires_grad=True)
z = w * 2
z.lt_(3.)
(z * w).sum().backward()
print(w.grad)
show("leaf", lambda: torch.tensor([1.], requires_grad=True).eq_(1.))
show("broadcast", lambda: torch.zeros(3).eq_(torch.zeros(2, 3)))
show("bool", lambda: torch.tensor([True, False]).eq_(torch.tensor([True, True])))
show("int by float", lambda: torch.tensor([1, 2]).lt_(1.5))
show("complex", lambda: torch.tensor([1j]).lt_(1))
'''

PROGRAMS['inplace_logical_bitwise'] = r'''
a = lambda: torch.tensor([1., 0., 3.], requires_grad=True) * 1
for op in ["logical_and_", "logical_or_", "logical_xor_"]:
    show(op, lambda: getattr(a(), op)(torch.tensor([1., 0, 0])))
show("logical_not_", lambda: a().logical_not_())
show("leaf logical_and_", lambda: torch.tensor([1., 0.], requires_grad=True).logical_and_(torch.tensor([1., 1.])))
show("logical_not_ int", lambda: torch.tensor([3, 0]).logical_not_())
show("logical_and_ int", lambda: torch.tensor([3, 0]).logical_and_(torch.tensor([1.5, 1])))
i = lambda: torch.tensor([1, 2, 3])
for op in ["bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_", "bitwise_right_shift_"]:
    show(op, lambda: getattr(i(), op)(torch.tensor([1, 0, 5])))
    show(op + " number", lambda: getattr(i(), op)(1))
show("bitwise_not_", lambda: i().bitwise_not_())
show("bitwise_and_ float", lambda: torch.tensor([1.]).bitwise_and_(torch.tensor([1.])))
show("bitwise_and_ int float", lambda: torch.tensor([1]).bitwise_and_(1.5))
show("bitwise_not_ float", lambda: torch.tensor([1.]).bitwise_not_())
show("shift int8", lambda: torch.tensor([3], dtype=torch.int8).bitwise_left_shift_(7))
show("bool and", lambda: torch.tensor([True, False]).bitwise_and_(torch.tensor([True, True])))
x = torch.tensor([6, 3])
x &= torch.tensor([3, 3])
x |= 8
x ^= 1
x <<= 1
x >>= 2
print(x, x._version)
'''

# fixed: torch.xlogy(x, 2.0) / torch.xlogy(2.0, x) record XlogyBackward2 / XlogyBackward1 (were XlogyBackward0)
PROGRAMS['inplace_binary_math'] = r'''
a = lambda: torch.tensor([1., 2., -3.], requires_grad=True) * 1
o = torch.tensor([1., 0.5, 5.])
for op in ["atan2_", "arctan2_", "hypot_", "copysign_", "xlogy_", "remainder_", "fmod_", "floor_divide_",
           "igamma_", "igammac_", "heaviside_"]:
    show(op, lambda: getattr(a().abs(), op)(o))
for op in ["copysign_", "xlogy_", "remainder_", "fmod_", "floor_divide_"]:
    show(op + " number", lambda: getattr(a(), op)(2.5))
show("xlogy_ torch", lambda: torch.xlogy_(a().abs(), o))
show("xlogy number", lambda: torch.xlogy(a().abs(), 2.))
show("xlogy number first", lambda: torch.xlogy(2., a().abs()))
show("float_power_ float", lambda: a().float_power_(2))
show("float_power_ double", lambda: a().double().float_power_(2))
show("float_power_ double tensor", lambda: a().double().float_power_(torch.tensor([1., 2, 3])))
show("atan2_ int", lambda: torch.tensor([3, 0]).atan2_(torch.tensor([1, 1])))
show("hypot_ int", lambda: torch.tensor([3, 0]).hypot_(torch.tensor([1, 1])))
show("remainder_ int by 0", lambda: torch.tensor([3]).remainder_(0))
show("floor_divide_ int", lambda: torch.tensor([7, -7]).floor_divide_(2))
show("floor_divide_ int by float", lambda: torch.tensor([7, -7]).floor_divide_(2.5))
show("copysign_ int", lambda: torch.tensor([1, 2]).copysign_(-1.))
show("xlogy_ int", lambda: torch.tensor([1, 2]).xlogy_(2.))
show("igamma_ int", lambda: torch.tensor([3, 4]).igamma_(torch.tensor([1., 2])))
show("heaviside_ dtypes", lambda: torch.tensor([1., 0]).heaviside_(torch.tensor([2.], dtype=torch.float64)))
show("leaf", lambda: torch.tensor([1.], requires_grad=True).atan2_(torch.tensor([1.])))
for op in ["atan2_", "hypot_", "copysign_", "xlogy_", "remainder_", "fmod_"]:
    x = torch.tensor([0.5, 2., 3.], requires_grad=True)
    y = torch.tensor([1.5, 0.7, 2.], requires_grad=True)
    z = x * 1
    getattr(z, op)(y)
    (z * torch.tensor([1., 2., 3.])).sum().backward()
    print(op, x.grad, y.grad)
for op in ["remainder_", "xlogy_", "copysign_"]:
    x = torch.tensor([0.5, 2., 3.], requires_grad=True)
    z = x * 1
    getattr(z, op)(1.5)
    z.sum().backward()
    print(op, "number", x.grad)
x = torch.tensor([2.5, 3.], requires_grad=True)
z = x * 1
z //= 2
print(z)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
v = torch.tensor([5., 7.])
v %= 3
print(v, v._version)
'''

PROGRAMS['inplace_along_dims'] = r'''
a = lambda: torch.tensor([1., 2., 3.], requires_grad=True) * 1
m = lambda: torch.arange(1., 10.).reshape(3, 3).requires_grad_() * 1
show("cumsum_", lambda: a().cumsum_(0))
show("cumprod_", lambda: a().cumprod_(-1))
show("cumsum_ int", lambda: torch.tensor([1, 2]).cumsum_(0))
show("cumsum_ dtype", lambda: torch.tensor([1, 2]).cumsum_(0, dtype=torch.float32))
show("cumprod_ dtype", lambda: torch.tensor([1., 2]).cumprod_(0, dtype=torch.float64))
show("cumsum_ same dtype", lambda: torch.tensor([1., 2]).cumsum_(0, dtype=torch.float32))
show("tril_", lambda: m().tril_())
show("triu_", lambda: m().triu_(1))
show("tril_ -1", lambda: m().tril_(-1))
show("tril_ 1d", lambda: torch.tensor([1, 2]).tril_())
show("triu_ batch", lambda: torch.ones(2, 2, 3).triu_())
for op, args in [("cumsum_", (0,)), ("cumprod_", (0,)), ("tril_", ()), ("triu_", (1,))]:
    x = torch.arange(1., 10.).reshape(3, 3).requires_grad_()
    z = x * 1
    getattr(z, op)(*args)
    (z * torch.arange(9.).reshape(3, 3)).sum().backward()
    print(op, x.grad)
x = torch.arange(1., 10.).reshape(3, 3).requires_grad_()
z = x * 1
z[1].cumsum_(0)
print(z.grad_fn, z)
z.sum().backward()
print(x.grad)
'''

PROGRAMS['inplace_fill_diagonal'] = r'''
show("square", lambda: torch.zeros(3, 3).fill_diagonal_(2.))
show("wide", lambda: torch.zeros(2, 4).fill_diagonal_(5, True))
show("tall", lambda: torch.zeros(7, 3).fill_diagonal_(1))
show("tall wrap", lambda: torch.zeros(7, 3).fill_diagonal_(1, wrap=True))
show("cube", lambda: torch.zeros(2, 2, 2).fill_diagonal_(1))
show("not cube", lambda: torch.zeros(2, 3, 3).fill_diagonal_(1))
show("1d", lambda: torch.tensor([1, 2]).fill_diagonal_(1))
show("int", lambda: torch.zeros(2, 2, dtype=torch.int64).fill_diagonal_(3))
show("leaf", lambda: torch.zeros(3, 3, requires_grad=True).fill_diagonal_(2.))
x = torch.arange(1., 10.).reshape(3, 3).requires_grad_()
z = x * 1
z.fill_diagonal_(0.)
print(z, type(z.grad_fn).__name__, z._version)
print([type(f).__name__ for f, _ in z.grad_fn.next_functions])
(z * z).sum().backward()
print(x.grad)
y = torch.zeros(4, 4)
y[1:, 1:].fill_diagonal_(7)
print(y)
'''

PROGRAMS['inplace_addmm_special'] = r'''
show("addmm_", lambda: torch.ones(2, 2).addmm_(torch.ones(2, 2), torch.ones(2, 2), beta=2, alpha=3))
show("addmm_ bad size", lambda: torch.zeros(2, 3).addmm_(torch.zeros(2, 2), torch.zeros(2, 2)))
show("addmm_ broadcast", lambda: torch.zeros(3).addmm_(torch.zeros(2, 2), torch.zeros(2, 3)))
show("addmm_ 1d mat", lambda: torch.zeros(2, 2).addmm_(torch.zeros(2), torch.zeros(2, 2)))
show("addmm_ shapes", lambda: torch.zeros(2, 2).addmm_(torch.zeros(2, 3), torch.zeros(2, 2)))
b = torch.arange(4.).reshape(2, 2).requires_grad_()
m1 = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
m2 = torch.tensor([[0.5, -1.], [2., 1.]], requires_grad=True)
z = b * 1
show("addmm_ recorded", lambda: z.addmm_(m1, m2, beta=0.5, alpha=2))
z.pow(2).sum().backward()
print(b.grad, m1.grad, m2.grad)
a = lambda: torch.tensor([1.5, 2., 3.], requires_grad=True) * 1
show("mvlgamma_", lambda: (a() + 3).mvlgamma_(2))
show("mvlgamma_ int", lambda: torch.tensor([3, 4]).mvlgamma_(1))
show("mvlgamma_ p0", lambda: torch.tensor([3., 4]).mvlgamma_(0))
show("polygamma_", lambda: a().polygamma_(1))
show("polygamma_ 0", lambda: a().polygamma_(0))
show("polygamma_ int", lambda: torch.tensor([3, 4]).polygamma_(1))
show("polygamma_ neg", lambda: torch.tensor([3., 4]).polygamma_(-1))
for op, arg in [("mvlgamma_", 2), ("polygamma_", 1), ("polygamma_", 2)]:
    x = torch.tensor([2.5, 3., 4.], requires_grad=True)
    z = x * 1
    getattr(z, op)(arg)
    z.sum().backward()
    print(op, arg, x.grad)
x = torch.tensor([2.5, 3.], requires_grad=True)
z = x * 1
z.polygamma_(1)
gx, = torch.autograd.grad(z.sum(), x, create_graph=True)
print(gx, gx.grad_fn)
'''

PROGRAMS['index_reduce'] = r'''
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([[1., 2], [3, 4], [5, 6]])
src = torch.tensor([[2., -1], [0.5, 3], [4, 4]])
idx = torch.tensor([0, 0, 2])
for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        show(f"{reduce} {include_self}", lambda: x.index_reduce(0, idx, src, reduce, include_self=include_self))
        show(f"{reduce} {include_self} dim1", lambda: x.index_reduce(1, torch.tensor([1, 1]), src[:, :2].t().t(),
                                                                       reduce, include_self=include_self))
xi = torch.tensor([[1, 2], [3, 4], [5, 6]])
show("int mean", lambda: xi.index_reduce(0, idx, torch.tensor([[-7, 1], [2, 2], [3, 3]]), "mean"))
show("int mean no self", lambda: xi.index_reduce(0, idx, torch.tensor([[-7, 1], [2, 2], [3, 3]]), "mean",
                                                 include_self=False))
show("inf", lambda: x.index_reduce(0, torch.tensor([0, 0]), torch.tensor([[-float("inf"), 1.], [-float("inf"), 2]]),
                                   "amax", include_self=False))
show("in place", lambda: x.clone().index_reduce_(0, idx, src, "amax"))
show("negative index", lambda: x.index_reduce(0, torch.tensor([-1]), src[:1], "prod"))
show("sum", lambda: x.index_reduce(0, torch.tensor([0]), x[:1], "sum"))
show("float index", lambda: x.index_reduce(0, torch.tensor([0.]), x[:1], "prod"))
show("out of range", lambda: x.index_reduce(0, torch.tensor([5]), x[:1], "prod"))
show("count", lambda: x.index_reduce(0, torch.tensor([0, 1]), x[:1], "prod"))
show("2-d index", lambda: x.index_reduce(0, torch.tensor([[0]]), x[:1], "prod"))
show("dtypes", lambda: x.index_reduce(0, torch.tensor([0]), x[:1].double(), "prod"))
show("slice shape", lambda: x.index_reduce(0, torch.tensor([0]), x[:1, :1], "prod"))
show("dim", lambda: x.index_reduce(2, torch.tensor([0]), x[:1], "prod"))
for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        a = torch.tensor([[1., 2], [3, 0], [5, 6]], requires_grad=True)
        s = torch.tensor([[2., 2], [0., 3], [4, 4]], requires_grad=True)
        r = torch.index_reduce(a, 0, idx, s, reduce, include_self=include_self)
        (r * torch.tensor([[1., 2], [3, 4], [5, 6]])).sum().backward()
        print(reduce, include_self, type(r.grad_fn).__name__, a.grad, s.grad)
a = torch.tensor([[1., 2], [3, 0], [5, 6]], requires_grad=True)
z = a * 1
z.index_reduce_(0, idx, src, "mean")
print(z.grad_fn, z._version)
print(sorted(n for n in dir(z.grad_fn) if n.startswith("_saved_")), z.grad_fn._saved_reduce,
      z.grad_fn._saved_include_self, z.grad_fn._saved_dim)
'''


PROGRAMS['scatter_ops'] = r"""
a = lambda: torch.arange(1., 7.).reshape(2, 3).requires_grad_() * 1
z = lambda *s: torch.zeros(*s, requires_grad=True)
show("select_scatter", lambda: torch.select_scatter(a(), z(3), 0, 1))
show("select_scatter method", lambda: a().select_scatter(z(2), 1, -1))
show("select_scatter bad", lambda: torch.select_scatter(a(), z(2), 0, 0))
show("select_scatter oob", lambda: torch.select_scatter(a(), z(3), 0, 5))
show("select_scatter dtype", lambda: torch.select_scatter(a(), torch.ones(3, dtype=torch.float64), 0, 0))
show("slice_scatter", lambda: torch.slice_scatter(a(), z(2, 2), 1, 0, 2))
show("slice_scatter none", lambda: torch.slice_scatter(a(), z(2, 3)))
show("slice_scatter neg", lambda: torch.slice_scatter(a(), z(2, 1), 1, -1))
show("slice_scatter step", lambda: a().slice_scatter(z(2, 2), 1, 0, None, 2))
show("slice_scatter bad", lambda: torch.slice_scatter(a(), z(2, 2), 1, 0, 1))
show("diagonal_scatter", lambda: torch.diagonal_scatter(a(), z(2)))
show("diagonal_scatter offset", lambda: a().diagonal_scatter(z(2), 1))
show("diagonal_scatter bad", lambda: torch.diagonal_scatter(a(), z(3), 0))
show("as_strided_scatter", lambda: torch.as_strided_scatter(a(), z(2), (2,), (3,), 1))
show("as_strided_scatter bad", lambda: torch.as_strided_scatter(a(), z(3), (2,), (3,), 1))
show("as_strided_scatter noncontig", lambda: a().t().as_strided_scatter(z(2, 2), (2, 2), (1, 2)))
for name, f, src in [
        ("select", lambda x, s: torch.select_scatter(x, s, 1, 2), torch.tensor([7., 8.], requires_grad=True)),
        ("slice", lambda x, s: torch.slice_scatter(x, s, 1, 1, 3), torch.ones(2, 2, requires_grad=True)),
        ("diagonal", lambda x, s: torch.diagonal_scatter(x, s, -1), torch.tensor([9.], requires_grad=True)),
        ("as_strided", lambda x, s: torch.as_strided_scatter(x, s, (2,), (2,), 1),
         torch.tensor([5., 6.], requires_grad=True))]:
    x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
    r = f(x, src)
    (r * r * torch.arange(6.).reshape(2, 3)).sum().backward()
    print(name, r, x.grad, src.grad)
x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
s = torch.tensor([7., 8.], requires_grad=True)
r = torch.select_scatter(x, s, 1, 0)
gx, gs = torch.autograd.grad((r ** 3).sum(), (x, s), create_graph=True)
print(gx, gs)
print(torch.autograd.grad(gx.sum() + gs.sum(), (x, s)))
"""

# fixed: view_as_complex of a tensor with odd strides raises PyTorch's error (was a silent copy)
PROGRAMS['copy_ops'] = r"""
a = lambda: torch.arange(1., 7.).reshape(2, 3).requires_grad_() * 1
calls = [
    ("view_copy", lambda x: torch.view_copy(x, (3, 2))), ("view_copy -1", lambda x: torch.view_copy(x, (-1,))),
    ("view_copy bad", lambda x: torch.view_copy(x, (4,))),
    ("view_copy dtype", lambda x: torch.view_copy(x.detach(), torch.int32)),
    ("t_copy", torch.t_copy), ("t_copy 3d", lambda x: torch.t_copy(x.reshape(1, 2, 3))),
    ("permute_copy", lambda x: torch.permute_copy(x, (-1, 0))),
    ("expand_copy", lambda x: torch.expand_copy(x, (2, -1, -1))),
    ("select_copy", lambda x: torch.select_copy(x, 1, -1)), ("select_copy oob", lambda x: torch.select_copy(x, 0, 2)),
    ("slice_copy", lambda x: torch.slice_copy(x, 1, -2)), ("slice_copy none", torch.slice_copy),
    ("slice_copy step", lambda x: torch.slice_copy(x, 1, 0, 3, 2)),
    ("squeeze_copy", lambda x: torch.squeeze_copy(x.reshape(1, 6, 1))),
    ("squeeze_copy dim", lambda x: torch.squeeze_copy(x.reshape(1, 6), 0)),
    ("squeeze_copy dims", lambda x: torch.squeeze_copy(x.reshape(1, 6, 1), (0, 2))),
    ("unsqueeze_copy", lambda x: torch.unsqueeze_copy(x, -1)),
    ("transpose_copy", lambda x: torch.transpose_copy(x, -1, 0)),
    ("diagonal_copy", lambda x: torch.diagonal_copy(x, -1, -1, -2)),
    ("alias_copy", torch.alias_copy), ("detach_copy", torch.detach_copy),
    ("unbind_copy", lambda x: torch.unbind_copy(x, -1)), ("split_copy", lambda x: torch.split_copy(x, 2, -1)),
    ("split_with_sizes_copy", lambda x: torch.split_with_sizes_copy(x, [1, 2], -1)),
    ("split_with_sizes_copy bad", lambda x: torch.split_with_sizes_copy(x, [1, 1], -1)),
    ("narrow_copy", lambda x: torch.narrow_copy(x, -1, -2, 2)),
    ("narrow_copy method", lambda x: x.narrow_copy(0, 1, 1)),
    ("narrow_copy bad", lambda x: x.narrow_copy(0, 1, 5)),
    ("unfold_copy", lambda x: torch.unfold_copy(x, -1, 2, 1)),
    ("as_strided_copy", lambda x: torch.as_strided_copy(x, (2,), (2,), 1)),
    ("view_as_real_copy", lambda x: torch.view_as_real_copy(torch.complex(x, x))),
    ("view_as_complex_copy", lambda x: torch.view_as_complex_copy(x[:, :2].contiguous())),
    ("view_as_complex_copy detached", lambda x: torch.view_as_complex_copy(x[:, :2].detach())),
]
for name, f in calls:
    r = show(name, lambda: f(a()))
    if isinstance(r, torch.Tensor):
        print(r.is_contiguous(), r._base is None)
for name, f in calls:
    x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
    try:
        r = f(x)
        rs = r if isinstance(r, tuple) else (r,)
        sum((t * t).sum() if t.dtype.is_floating_point else (t.real * t.imag).sum() for t in rs).backward()
        print(name, x.grad)
    except Exception as e:
        print(name, type(e).__name__, e)
x = torch.arange(1., 7.).reshape(2, 3)
y = torch.view_copy(x, (3, 2))
y[0, 0] = 100
print(x, y)
g = torch.view_copy(torch.arange(1., 7.).requires_grad_(), (2, 3)).grad_fn
print(g._saved_self_sym_sizes, g.next_functions)
"""


PROGRAMS['complex_flags_diagflat_fill'] = r"""
a = lambda: torch.tensor([[1., -2.], [0., 3.]], requires_grad=True) * 1
c = torch.tensor([1 + 2j, -3j, 4])
show("isreal", lambda: torch.isreal(c))
show("isreal real", lambda: torch.isreal(a()))
show("isreal method", lambda: c.isreal())
show("is_neg", lambda: (torch.is_neg(c), torch.is_conj(c), torch.is_conj(a())))
show("resolve_conj", lambda: torch.resolve_conj(a()))
show("resolve_neg", lambda: a().resolve_neg())
x = a()
print(torch.resolve_conj(x) is x, torch.resolve_neg(x) is x, torch.conj_physical(x) is x)
show("conj_physical", lambda: torch.conj_physical(c))
show("conj_physical grad", lambda: torch.conj_physical(c.clone().requires_grad_()))
show("conj_physical_", lambda: c.clone().conj_physical_())
show("conj_physical_ real", lambda: a().conj_physical_())
show("conj_physical_ leaf", lambda: torch.ones(2, requires_grad=True).conj_physical_())
show("torch.conj_physical_", lambda: torch.conj_physical_(c.clone()))
z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
y = torch.conj_physical(z * 1)
(y.real * torch.tensor([1., 2.]) + y.imag * torch.tensor([3., 5.])).sum().backward()
print(z.grad)
show("diagflat", lambda: torch.diagflat(a()))
show("diagflat method", lambda: a().diagflat(1))
show("diagflat 1d", lambda: torch.diagflat(torch.tensor([1, 2]), -1))
show("diagflat 0d", lambda: torch.diagflat(torch.tensor(3.)))
show("diagflat t", lambda: torch.diagflat(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).t()))
w = torch.tensor([1., 2., 3.], requires_grad=True)
(torch.diagflat(w, 1) * torch.arange(16.).reshape(4, 4)).sum().backward()
print(w.grad)
show("fill", lambda: torch.fill(torch.tensor([1., 2.], requires_grad=True), 5))
show("fill int", lambda: torch.fill(torch.tensor([1, 2]), 5.5))
show("fill tensor", lambda: torch.fill(torch.tensor([1., 2.], requires_grad=True),
                                      torch.tensor(5., requires_grad=True)))
show("fill bad", lambda: torch.fill(torch.tensor([1., 2.]), torch.tensor([5.])))
v = torch.tensor(2., requires_grad=True)
x = torch.tensor([1., 2., 3.], requires_grad=True)
(torch.fill(x, v) * torch.tensor([1., 2., 3.])).sum().backward()
print(v.grad, x.grad)
show("prelu method", lambda: a().prelu(torch.tensor([0.25], requires_grad=True)))
show("unravel", lambda: torch.unravel_index(torch.tensor([4, 1, 5]), (2, 3)))
show("unravel 0d", lambda: torch.unravel_index(torch.tensor(4), (2, 3)))
show("unravel int32", lambda: torch.unravel_index(torch.tensor([[4, 1]], dtype=torch.int32), (2, 1, 3)))
show("unravel neg", lambda: torch.unravel_index(torch.tensor([-1]), (2, 3)))
show("unravel oob", lambda: torch.unravel_index(torch.tensor([6]), (2, 3)))
show("unravel float", lambda: torch.unravel_index(torch.tensor([1.]), (2, 3)))
show("unravel int shape", lambda: torch.unravel_index(torch.tensor([5]), 3))
show("unravel neg shape", lambda: torch.unravel_index(torch.tensor([5]), (-1, 3)))
show("newaxis", lambda: (torch.newaxis, torch.ones(2)[:, torch.newaxis].shape))
show("warn_always", lambda: (torch.is_warn_always_enabled(), torch.set_warn_always(False)))
show("get_device", lambda: (torch.get_device(a()), a().get_device()))
"""

PROGRAMS['histogram'] = r"""
show("histogram", lambda: torch.histogram(torch.tensor([1., 2, 1, 4]), bins=4, range=(0., 4.)))
show("histogram method", lambda: torch.tensor([1., 2, 1, 4]).histogram(3))
show("histogram default bins", lambda: torch.histogram(torch.linspace(0, 1, 7)).hist.sum())
show("histogram edges", lambda: torch.histogram(torch.tensor([1., 2, 1, 4]), bins=torch.tensor([0., 1.5, 5.]),
                                                weight=torch.tensor([1., 2., 3, 4])))
show("histogram density", lambda: torch.histogram(torch.tensor([1., 2, 1, 4]), 2, density=True))
show("histogram double", lambda: torch.histogram(torch.tensor([[1., 2], [0.1, 0.2]], dtype=torch.float64), 3))
show("histogram 7 bins", lambda: torch.histogram(torch.tensor([0.1, 0.2, 0.3, 0.7, 0.9]), 7))
show("histogram outside", lambda: torch.histogram(torch.tensor([-1., 0.5, 3.]), 2, range=(0., 1.)))
show("histogram flat", lambda: torch.histogram(torch.tensor([2., 2.]), 2))
show("histogram empty", lambda: torch.histogram(torch.tensor([]), 2))
show("histogram int", lambda: torch.histogram(torch.tensor([1, 2]), 2))
show("histogram inf", lambda: torch.histogram(torch.tensor([1., float('inf')]), 2))
show("histogram min max", lambda: torch.histogram(torch.tensor([1., 2]), 2, range=(3., 1.)))
show("histogram 0 bins", lambda: torch.histogram(torch.tensor([1., 2]), 0))
show("histogram 1 edge", lambda: torch.histogram(torch.tensor([1., 2]), torch.tensor([1.])))
show("histogram weight shape", lambda: torch.histogram(torch.tensor([1., 2]), 2, weight=torch.tensor([1.])))
show("histogram weight dtype", lambda: torch.histogram(torch.tensor([1., 2]), 2,
                                                       weight=torch.tensor([1., 2], dtype=torch.float64)))
show("histogram edges dtype", lambda: torch.histogram(torch.tensor([1., 2], dtype=torch.float64),
                                                      torch.tensor([0., 1, 3])))
show("histogram grad", lambda: torch.histogram(torch.tensor([0.1, 0.2, 0.3, 0.7, 0.9], requires_grad=True), 3))
show("histogramdd", lambda: torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3]))
show("histogramdd weight", lambda: torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[2, 2],
                                                     range=[0., 1., 0., 1.], weight=torch.tensor([1., 2., 4.]),
                                                     density=True))
show("histogramdd int bins", lambda: torch.histogramdd(torch.tensor([[0., 1.], [1., 0.]]), bins=2))
show("histogramdd tensors", lambda: torch.histogramdd(torch.tensor([[0., 1.], [1., 0.]]),
                                                      bins=[torch.tensor([0., 0.5, 1.]), torch.tensor([0., 1.])]))
show("histogramdd 3d", lambda: torch.histogramdd(torch.arange(12.).reshape(2, 2, 3), bins=[1, 2, 2]).hist.shape)
show("histogramdd 1d", lambda: torch.histogramdd(torch.tensor([1., 2]), 2))
show("histogramdd bins count", lambda: torch.histogramdd(torch.tensor([[1., 2]]), [2]))
show("histogramdd range", lambda: torch.histogramdd(torch.tensor([[1., 2], [2, 3]]), 2, range=[0., 1.]))
r = torch.histogram(torch.tensor([1., 2, 1, 4]), bins=4)
print(type(r).__name__, r.hist, r.bin_edges, r[0] is r.hist, len(r))
r = torch.histogramdd(torch.tensor([[0., 1.], [1., 0.]]), bins=2)
print(r)
hist, edges = r
print(type(edges).__name__, len(edges))
"""

PROGRAMS['strided_buffer_callables'] = r"""
show("empty_strided", lambda: (torch.empty_strided((2, 3), (1, 2)).shape, torch.empty_strided((2, 3), (1, 2)).stride()))
show("empty_strided dtype", lambda: torch.empty_strided((2, 3), (3, 1), dtype=torch.int64).dtype)
show("empty_strided grad", lambda: torch.empty_strided((2,), (1,), requires_grad=True).requires_grad)
show("empty_strided mismatch", lambda: torch.empty_strided((2, 3), (1,)))
x = torch.tensor([[1., 2.]], requires_grad=True)
show("new_empty_strided", lambda: (x.new_empty_strided((2, 3), (1, 2)).stride(), x.new_empty_strided((2,), (1,)).dtype,
                                   x.new_empty_strided((2,), (1,)).requires_grad,
                                   x.new_empty_strided((2,), (1,), dtype=torch.int32).dtype))
e = torch.empty_strided((2, 3), (1, 2))
e.fill_(1.5)
print(e, e.is_contiguous(), e.t().is_contiguous())
show("frombuffer", lambda: torch.frombuffer(bytearray(b'\x01\x00\x00\x00\x02\x00\x00\x00'), dtype=torch.int32))
show("frombuffer count", lambda: torch.frombuffer(bytearray(8), dtype=torch.float32, count=1, offset=4))
show("frombuffer no dtype", lambda: torch.frombuffer(bytearray(4)))
show("frombuffer length", lambda: torch.frombuffer(bytearray(5), dtype=torch.int32))
show("frombuffer empty", lambda: torch.frombuffer(bytearray(0), dtype=torch.int32))
show("frombuffer too short", lambda: torch.frombuffer(bytearray(8), dtype=torch.int32, count=3))
show("frombuffer offset", lambda: torch.frombuffer(bytearray(8), dtype=torch.int32, offset=8))
show("frombuffer grad", lambda: torch.frombuffer(bytearray(8), dtype=torch.float32, requires_grad=True))
show("frombuffer bytes", lambda: torch.frombuffer(b"\x01\x00\x00\x00", dtype=torch.int32))
show("frombuffer negative offset", lambda: torch.frombuffer(bytearray(8), dtype=torch.int32, offset=-1))
show("frombuffer list", lambda: torch.frombuffer([1, 2], dtype=torch.int32))
import array
floats = array.array("f", [1., 2.])
t = torch.frombuffer(floats, dtype=torch.float32)
floats[0] = 5
print(t)
ba = bytearray(8)
t = torch.frombuffer(ba, dtype=torch.int32)
ba[0] = 7
t[1] = 3
print(t, list(ba))
show("apply_", lambda: torch.tensor([1., 2.]).apply_(lambda v: v * 10))
show("apply_ int", lambda: torch.tensor([1, 2]).apply_(lambda v: v * 10))
show("apply_ float into int", lambda: torch.tensor([1, 7]).apply_(lambda v: v / 4))
show("apply_ bool", lambda: torch.tensor([True, False]).apply_(lambda v: not v))
show("apply_ grad", lambda: torch.tensor([1., 2.], requires_grad=True).apply_(lambda v: v * 10))
show("apply_ grad nonleaf", lambda: (torch.tensor([1., 2.], requires_grad=True) * 1).apply_(lambda v: v * 10))
show("apply_ str", lambda: torch.tensor([1., 2.]).apply_(lambda v: "x"))
show("apply_ not callable", lambda: torch.tensor([1., 2.]).apply_(3))
show("map_", lambda: torch.tensor([1., 2.]).map_(torch.tensor([3., 4.]), lambda a, b: a * b))
show("map_ broadcast", lambda: torch.tensor([[1., 2.]] * 2).map_(torch.tensor([3., 4.]), lambda a, b: a - b))
show("map_ bad broadcast", lambda: torch.tensor([1., 2.]).map_(torch.tensor([[3., 4.]] * 2), lambda a, b: a - b))
show("map_ dtype", lambda: torch.tensor([1., 2.]).map_(torch.tensor([3, 4]), lambda a, b: a * b))
show("map_ grad", lambda: torch.tensor([1., 2.]).map_(torch.tensor([3., 4.], requires_grad=True), lambda a, b: a))
show("map2_", lambda: torch.tensor([1., 2.]).map2_(torch.tensor([3., 4.]), torch.tensor([5., 6.]),
                                                   lambda a, b, c: a + b * c))
show("map2_ grad", lambda: torch.tensor([1., 2.]).map2_(torch.tensor([3., 4.]),
                                                        torch.tensor([5., 6.], requires_grad=True), lambda a, b, c: a))
show("map2_ dtype", lambda: torch.tensor([1., 2.]).map2_(torch.tensor([3., 4.]), torch.tensor([5, 6]),
                                                         lambda a, b, c: a))
x = torch.tensor([1., 2.])
x.apply_(lambda v: v + 1)
x.map_(x, lambda a, b: a + b)
print(x, x._version)
"""


PROGRAMS['aten_functional_layers'] = r"""
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
w = torch.randn(5, 3, requires_grad=True)
idx = torch.tensor([[0, 2], [4, 2]])
show("embedding", lambda: torch.embedding(w, idx))
show("embedding padding", lambda: torch.embedding(w, idx, 2))
show("embedding oob", lambda: torch.embedding(w, torch.tensor([5])))
e = torch.embedding(w, idx, padding_idx=2)
e.sum().backward()
print(w.grad, e.grad_fn._saved_padding_idx)
x = torch.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True)
rm, rv = torch.zeros(3), torch.ones(3)
show("native_layer_norm", lambda: torch.native_layer_norm(x, [3], None, None, 1e-5))
show("native_layer_norm weight", lambda: torch.native_layer_norm(x, (3,), torch.ones(3), torch.zeros(3), 1e-5))
show("native_layer_norm bad", lambda: torch.native_layer_norm(x, (2,), None, None, 1e-5))
show("native_batch_norm", lambda: torch.native_batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5))
print(rm, rv)
show("native_batch_norm eval", lambda: torch.native_batch_norm(x, None, None, rm, rv, False, 0.1, 1e-5))
show("batch_norm", lambda: torch.batch_norm(x, torch.ones(3), None, rm, rv, True, 0.1, 1e-5, True))
show("instance_norm", lambda: torch.instance_norm(x.reshape(1, 2, 3), None, None, None, None, True, 0.1, 1e-5, True))
a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, 4, requires_grad=True)
wb = torch.randn(5, 3, 4, requires_grad=True)
show("bilinear", lambda: torch.bilinear(a, b, wb))
show("bilinear bias", lambda: torch.bilinear(a, b, wb, torch.ones(5)))
v = torch.randn(1, 2, 3, 3, 3, requires_grad=True)
k = torch.randn(2, 3, 2, 2, 2, requires_grad=True)
show("conv_transpose3d", lambda: torch.conv_transpose3d(v, k, None, 1, 0, 0, 1, 1).sum())
show("conv_transpose3d stride", lambda: torch.conv_transpose3d(v, k, torch.ones(3), 2, 1, 1).shape)
show("conv3d", lambda: torch.conv3d(v, k.transpose(0, 1), None, 1, 1).sum())
img = torch.randn(1, 2, 5, 5, requires_grad=True)
k2 = torch.randn(3, 2, 3, 3, requires_grad=True)
show("convolution", lambda: torch.convolution(img, k2, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1).sum())
show("convolution transposed", lambda: torch.convolution(img, k2.transpose(0, 1), torch.ones(3), [2, 2], [0, 0],
                                                         [1, 1], True, [1, 1], 1).shape)
show("convolution 1d", lambda: torch.convolution(torch.randn(1, 2, 6), torch.randn(4, 2, 3), None, [1], [0], [1],
                                                 False, [0], 1).shape)
seq = torch.randn(1, 2, 6, requires_grad=True)
show("max_pool1d_with_indices", lambda: torch.max_pool1d_with_indices(seq, 2))
show("max_pool1d_with_indices args", lambda: torch.max_pool1d_with_indices(seq, 3, 2, 1, 1, True))
show("max_pool1d_with_indices keyword", lambda: torch.max_pool1d_with_indices(seq, 3, return_indices=True))
show("constant_pad_nd", lambda: torch.constant_pad_nd(a, [1, 2], 0.5))
show("constant_pad_nd 2d", lambda: torch.constant_pad_nd(a, (1, 0, 0, 1)))
show("constant_pad_nd crop", lambda: torch.constant_pad_nd(a, [-1, 0]))
"""

PROGRAMS['aten_functional_losses'] = r"""
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
y = torch.rand(4, 3)
for reduction in [0, 1, 2]:
    show(f"bce_with_logits {reduction}", lambda: torch.binary_cross_entropy_with_logits(x, y, None, None, reduction))
    show(f"kl_div {reduction}", lambda: torch.kl_div(x.log_softmax(1), y.softmax(1), reduction))
    show(f"kl_div log_target {reduction}", lambda: torch.kl_div(x, y.log(), reduction, log_target=True))
    t = torch.tensor([1., -1., 1., -1.])
    show(f"cosine_embedding {reduction}", lambda: torch.cosine_embedding_loss(x, y, t, 0.1, reduction))
    show(f"hinge_embedding {reduction}", lambda: torch.hinge_embedding_loss(x, torch.sign(y - 0.5), 0.5, reduction))
    show(f"margin_ranking {reduction}", lambda: torch.margin_ranking_loss(x[:, 0], x[:, 1], t, 0.2, reduction))
    show(f"triplet_margin {reduction}", lambda: torch.triplet_margin_loss(x, y, x.flip(0), 1.0, 2, 1e-6, False,
                                                                         reduction))
    show(f"poisson_nll {reduction}", lambda: torch.poisson_nll_loss(x, y, True, False, 1e-8, reduction))
show("bce weights", lambda: torch.binary_cross_entropy_with_logits(x, y, torch.ones(3) * 2, torch.ones(3) * 3))
show("kl_div default", lambda: torch.kl_div(x, y))
show("triplet swap", lambda: torch.triplet_margin_loss(x, y, x.flip(0), swap=True))
show("poisson full", lambda: torch.poisson_nll_loss(x.exp(), y + 1, False, True, 1e-8, 1))
loss = torch.binary_cross_entropy_with_logits(x, y, reduction=1) + torch.kl_div(x.log_softmax(1), y.softmax(1), 2)
loss.backward()
print(x.grad)
"""

# fixed: torch.dropout with p outside [0, 1] raises RuntimeError, as PyTorch (was F.dropout's ValueError)
PROGRAMS['aten_functional_dropout_norms_cells'] = r"""
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True)
torch.manual_seed(0)
show("native_dropout", lambda: torch.native_dropout(x, 0.5, True))
show("native_dropout eval", lambda: torch.native_dropout(x, 0.5, False))
show("native_dropout None", lambda: torch.native_dropout(x, 0.5, None))
show("native_dropout empty", lambda: torch.native_dropout(torch.ones(0), 0.3, True))
r, m = torch.native_dropout(x, 0.3, True)
print(r.grad_fn._saved_p, r.grad_fn._saved_result1)
(r * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
x.grad = None
r, m = torch.native_dropout(x, 0.3, None)
r.sum().backward()
print(r, x.grad)
show("dropout p", lambda: torch.dropout(x, 1.5, True))
show("dropout", lambda: torch.dropout(x, 0.5, True))
show("feature_dropout", lambda: torch.feature_dropout(torch.ones(2, 3, 2, requires_grad=True), 0.5, True))
show("feature_dropout 2d", lambda: torch.feature_dropout(torch.ones(4, 3, requires_grad=True), 0.5, True))
show("feature_dropout 1d", lambda: torch.feature_dropout(torch.ones(3, requires_grad=True), 0.5, True))
show("feature_dropout p", lambda: torch.feature_dropout(torch.ones(2, 3, 2), 1.5, True))
show("feature_dropout eval", lambda: torch.feature_dropout(x, 0.5, False))
show("alpha_dropout", lambda: torch.alpha_dropout(x, 0.5, True))
show("feature_alpha_dropout", lambda: torch.feature_alpha_dropout(torch.ones(2, 3, 2, requires_grad=True), 0.5, True))
show("dropout_", lambda: torch.dropout_(x.clone(), 0.5, True))
show("alpha_dropout_", lambda: torch.alpha_dropout_(x.clone(), 0.5, True))
show("feature_dropout_", lambda: torch.feature_dropout_(x.clone(), 0.5, True))
show("feature_alpha_dropout_", lambda: torch.feature_alpha_dropout_(x.clone(), 0.5, True))
show("rrelu", lambda: torch.rrelu(x))
show("rrelu train", lambda: torch.rrelu(x, 0.1, 0.3, True))
show("rrelu_", lambda: torch.rrelu_(x.clone()))
show("frobenius_norm", lambda: torch.frobenius_norm(x, [0, 1]))
show("frobenius_norm keepdim", lambda: torch.frobenius_norm(x, (1,), True))
show("frobenius_norm 3 dims", lambda: torch.frobenius_norm(x.reshape(1, 2, 3), (0, 1, 2)))
show("nuclear_norm", lambda: torch.nuclear_norm(x))
show("nuclear_norm keepdim", lambda: torch.nuclear_norm(x, True))
show("nuclear_norm dim", lambda: torch.nuclear_norm(x, (0, 1), True))
show("nuclear_norm 3d", lambda: torch.nuclear_norm(x.reshape(1, 2, 3)))
n = torch.frobenius_norm(x, [0, 1]) + torch.nuclear_norm(x)
n.backward()
print(x.grad)
torch.manual_seed(1)
inp = torch.randn(2, 3)
h = torch.randn(2, 4, requires_grad=True)
c = torch.randn(2, 4)
w_ih = torch.randn(4, 3, requires_grad=True)
w_hh = torch.randn(4, 4, requires_grad=True)
b = torch.randn(4)
show("rnn_tanh_cell", lambda: torch.rnn_tanh_cell(inp, h, w_ih, w_hh, b, b))
show("rnn_relu_cell", lambda: torch.rnn_relu_cell(inp, h, w_ih, w_hh))
show("rnn_tanh_cell bad input", lambda: torch.rnn_tanh_cell(torch.randn(2, 5), h, w_ih, w_hh))
show("rnn_tanh_cell bad hidden", lambda: torch.rnn_tanh_cell(inp, torch.randn(3, 4), w_ih, w_hh))
show("lstm_cell", lambda: torch.lstm_cell(inp, (h, c), torch.randn(16, 3), torch.randn(16, 4), torch.randn(16),
                                          torch.randn(16)))
show("lstm_cell one state", lambda: torch.lstm_cell(inp, (h,), torch.randn(16, 3), torch.randn(16, 4)))
show("gru_cell", lambda: torch.gru_cell(inp, h, torch.randn(12, 3), torch.randn(12, 4)))
hy = torch.gru_cell(inp, h, torch.randn(12, 3), torch.randn(12, 4), torch.randn(12), torch.randn(12))
hy.sum().backward()
print(h.grad)
"""

PROGRAMS['removed_solvers'] = r"""
a = torch.eye(2)
for name, f in [("solve", lambda: torch.solve(a, a)), ("eig", lambda: torch.eig(a)),
                ("eig vectors", lambda: torch.eig(a, eigenvectors=True)), ("symeig", lambda: torch.symeig(a)),
                ("lstsq", lambda: torch.lstsq(a, a)), ("matrix_rank", lambda: torch.matrix_rank(a)),
                ("Tensor.solve", lambda: a.solve(a)), ("Tensor.eig", lambda: a.eig()),
                ("Tensor.eig vectors", lambda: a.eig(eigenvectors=True)), ("Tensor.symeig", lambda: a.symeig()),
                ("Tensor.lstsq", lambda: a.lstsq(a)), ("no arguments", lambda: torch.solve())]:
    show(name, f)
print(hasattr(a, "matrix_rank"))
"""


PROGRAMS['inplace_on_views_and_dtypes'] = r'''# in-place on views
x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
z = x * 1
v = z[0]
v.eq_(2.)
print(z, type(z.grad_fn).__name__, v.grad_fn, z._version)
z.sum().backward(); print(x.grad)
x.grad = None
z = x * 1
z[:, 1].atan2_(torch.tensor([1., 2.]))
print(z, z.grad_fn)
(z * z).sum().backward(); print(x.grad)
x.grad = None
z = x * 1
z.t().cumsum_(0)
print(z, z.grad_fn)
(z * torch.arange(6.).reshape(2,3)).sum().backward(); print(x.grad)
x.grad = None
z = x * 1
z[1].remainder_(2.)
z[0].tril_() if False else None
z.sum().backward(); print(x.grad)
# modifying a saved tensor
x.grad = None
z = x * 1
y = z.exp()
z.copysign_(torch.tensor([-1., 1., 1.]))
try:
    y.sum().backward()
except RuntimeError as e: print(e)
# no_grad / inference
with torch.no_grad():
    z = x * 1
    z.hypot_(torch.ones(3)); print(z, z.grad_fn, z.requires_grad)
with torch.inference_mode():
    w = torch.ones(3)
    w.eq_(1.); print(w)
w = None
with torch.inference_mode():
    w = torch.ones(3)
try:
    w.xlogy_(2.)
except RuntimeError as e: print(e)
# float16 / bfloat16
h = torch.tensor([1.5, -2.25, 3.], dtype=torch.float16)
show("h atan2_", lambda: h.clone().atan2_(torch.tensor([1., 2., 3.], dtype=torch.float16)))
show("h remainder_", lambda: h.clone().remainder_(1.1))
show("h cumsum_", lambda: h.clone().cumsum_(0))
show("h xlogy_", lambda: h.clone().xlogy_(3.3))
show("bf copysign_", lambda: h.clone().to(torch.bfloat16).copysign_(-1.))
show("h eq_", lambda: h.clone().eq_(1.5))
show("f32 by f64 atan2_", lambda: torch.tensor([1., 2.]).atan2_(torch.tensor([3., 1.], dtype=torch.float64)))
show("int remainder_ tensor", lambda: torch.tensor([5, -5]).remainder_(torch.tensor([3, 3])))
show("int fmod_", lambda: torch.tensor([5, -5]).fmod_(3))
show("int fmod_ float", lambda: torch.tensor([5, -5]).fmod_(2.5))
show("complex eq_", lambda: torch.tensor([1+1j, 2]).eq_(2))
show("complex xlogy_", lambda: torch.tensor([1+1j, 2]).xlogy_(2.))
show("bool cumsum_", lambda: torch.tensor([True, True]).cumsum_(0))
show("expanded eq_", lambda: torch.zeros(1).expand(3).eq_(0.))
show("expanded atan2_", lambda: torch.zeros(1).expand(3).atan2_(torch.ones(3)))
show("overlap", lambda: (lambda b: b[1:].atan2_(b[:2]))(torch.ones(3)))
show("self", lambda: (lambda b: b.atan2_(b))(torch.ones(3)))
show("tril_ on t", lambda: torch.ones(2, 3).t().tril_())
show("addmm_ on t", lambda: torch.ones(2, 2).t().addmm_(torch.eye(2), torch.ones(2, 2)))
show("fill_diagonal_ on t", lambda: torch.zeros(2, 3).t().fill_diagonal_(1))
show("fill_diagonal_ on t wrap", lambda: torch.zeros(2, 7).t().fill_diagonal_(1, wrap=True))
show("fill_diagonal_ noncontig", lambda: torch.zeros(4, 6)[:, ::2].fill_diagonal_(1))
show("fill_diagonal_ offset view", lambda: torch.zeros(4, 4)[1:, 1:].fill_diagonal_(1, wrap=True))
show("cumsum_ 0d", lambda: torch.tensor(3.).cumsum_(0))
show("cumsum_ dim err", lambda: torch.ones(2).cumsum_(1))
show("polygamma_ grad", lambda: (torch.tensor([1.5], requires_grad=True) * 1).polygamma_(2))
show("x.polygamma(n) method", lambda: torch.tensor([1.5]).polygamma(2))
'''

PROGRAMS['inplace_kernel_errors'] = r'''
import warnings
warnings.simplefilter("ignore")
c = lambda: torch.tensor([1 + 1j])
c2 = lambda: torch.ones(2, 2, dtype=torch.complex64)
i2 = lambda: torch.ones(2, 2, dtype=torch.int64)
for name, f in [
        ("cumprod_ bool", lambda: torch.tensor([True]).cumprod_(0)),
        ("cumsum_ bool", lambda: torch.tensor([True]).cumsum_(0)),
        ("tril_ bool", lambda: torch.ones(2, 2, dtype=torch.bool).tril_()),
        ("remainder_", lambda: c().remainder_(2)), ("remainder_ t", lambda: c().remainder_(torch.tensor([2j]))),
        ("hypot_", lambda: c().hypot_(torch.tensor([1j]))), ("atan2_", lambda: c().atan2_(torch.tensor([1j]))),
        ("copysign_", lambda: c().copysign_(1.)), ("copysign_ t", lambda: c().copysign_(torch.tensor([1j]))),
        ("cumsum_", lambda: c().cumsum_(0)), ("polygamma_", lambda: c().polygamma_(1)),
        ("polygamma_ 0", lambda: c().polygamma_(0)), ("polygamma_ 3", lambda: c().polygamma_(3)),
        ("fmod_", lambda: c().fmod_(2)), ("floor_divide_", lambda: c().floor_divide_(2)),
        ("heaviside_", lambda: c().heaviside_(torch.tensor([1j]))),
        ("floor_divide_ bool", lambda: torch.tensor([True]).floor_divide_(True)),
        ("igamma_", lambda: c().igamma_(torch.tensor([1j]))), ("xlogy_", lambda: c().xlogy_(2.)),
        ("xlogy_ t", lambda: c().xlogy_(torch.tensor([2.]))), ("mvlgamma_", lambda: c().mvlgamma_(1)),
        ("tril_", lambda: c2().tril_()),
        ("float_power_ c", lambda: c().to(torch.complex128).float_power_(2)),
        ("float_power_ c64", lambda: c().float_power_(2)),
        ("float_power_ real->c", lambda: torch.tensor([1.], dtype=torch.float64).float_power_(2j)),
        ("addmm_ c", lambda: c2().addmm_(c2(), c2(), alpha=1j)),
        ("addmm_ int", lambda: i2().addmm_(i2(), i2(), beta=2)),
        ("index_reduce int amax", lambda: torch.zeros(3, dtype=torch.int64).index_reduce(
            0, torch.tensor([0, 0]), torch.tensor([-5, -7]), "amax", include_self=False)),
        ("index_reduce bool", lambda: torch.zeros(3, dtype=torch.bool).index_reduce(
            0, torch.tensor([0]), torch.tensor([True]), "prod")),
        ("index_reduce 0d", lambda: torch.tensor(2.).index_reduce(0, torch.tensor([0]), torch.tensor(3.), "prod")),
        ("index_reduce int32 index", lambda: torch.ones(3).index_reduce(
            0, torch.tensor([2], dtype=torch.int32), torch.tensor([3.]), "prod")),
        ("index_reduce empty index", lambda: torch.ones(3).index_reduce(
            0, torch.tensor([], dtype=torch.int64), torch.ones(0), "mean"))]:
    show(name, f)
'''


PROGRAMS['argument_type_errors'] = r"""
x = lambda: torch.tensor([1., 2.])
for name, f in [
        ("eq_ str", lambda: x().eq_("a")), ("atan2_ number", lambda: x().atan2_(2.)),
        ("hypot_ number", lambda: x().hypot_(2.)), ("cumsum_ float dim", lambda: x().cumsum_(0.5)),
        ("cumprod_ None dim", lambda: x().cumprod_(None)),
        ("tril_ float", lambda: torch.ones(2, 2).tril_(0.5)), ("heaviside_ number", lambda: x().heaviside_(1.)),
        ("igamma_ number", lambda: x().igamma_(1.)), ("igammac_ number", lambda: x().igammac_(1.)),
        ("logical_and_ number", lambda: x().logical_and_(1.)),
        ("bitwise_and_ str", lambda: torch.tensor([1]).bitwise_and_("a")),
        ("addmm_ number", lambda: torch.ones(2, 2).addmm_(1., torch.ones(2, 2))),
        ("addmm_ number 2", lambda: torch.ones(2, 2).addmm_(torch.ones(2, 2), 1)),
        ("select_scatter number", lambda: torch.select_scatter(torch.ones(2, 2), 1., 0, 0)),
        ("slice_scatter number", lambda: torch.slice_scatter(3, torch.ones(2, 2))),
        ("diagflat number", lambda: torch.diagflat(3)), ("isreal number", lambda: torch.isreal(3)),
        ("conj_physical number", lambda: torch.conj_physical(3.)),
        ("view_copy number", lambda: torch.view_copy(3, (1,))), ("t_copy number", lambda: torch.t_copy(3)),
        ("xlogy_ number first", lambda: torch.xlogy_(2., x())), ("copysign_ str", lambda: x().copysign_("a")),
        ("remainder_ str", lambda: x().remainder_("a")), ("fmod_ list", lambda: x().fmod_([1])),
        ("floor_divide_ None", lambda: x().floor_divide_(None)),
        ("polygamma_ float n", lambda: x().polygamma_(1.5)), ("mvlgamma_ float p", lambda: x().mvlgamma_(1.5))]:
    show(name, f)
"""


PROGRAMS['layout_nonzero_static_vander_kaiser'] = r'''x = torch.arange(6.).reshape(2,3)
show("dim_order", lambda: (x.dim_order(), x.t().dim_order(), torch.ones(2, 1, 3).dim_order(),
                           torch.ones(2, 3, 4).permute(2, 0, 1).dim_order()))
show("const_data_ptr", lambda: x.const_data_ptr() == x.data_ptr())
show("nonzero_static", lambda: torch.tensor([0, 1, 0, 2]).nonzero_static(size=3))
show("nonzero_static fn", lambda: torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=1, fill_value=9))
show("nonzero_static 2d", lambda: torch.tensor([[1,0],[0,1]]).nonzero_static(size=3))
show("nonzero_static 0", lambda: torch.tensor([[1,0],[0,1]]).nonzero_static(size=0))
y = torch.arange(6., requires_grad=True)
show("unsafe_split_with_sizes", lambda: torch.unsafe_split_with_sizes(y, [2, 4])[1])
show("unsafe_split_with_sizes m", lambda: y.unsafe_split_with_sizes([2, 4], 0)[0])
show("unsafe_split_with_sizes bad", lambda: y.unsafe_split_with_sizes([2, 3]))
show("is_set_to", lambda: (x.is_set_to(x), x.is_set_to(x.view(6)), x.is_set_to(x.clone()), x.is_set_to(x[:])))
v = torch.tensor([1., 2., 3.], requires_grad=True)
show("vander", lambda: torch.vander(torch.tensor([1, 2, 3]), N=3))
show("vander inc", lambda: torch.vander(torch.tensor([1., 2.]), increasing=True))
show("vander grad", lambda: torch.vander(v))
r = torch.vander(v)
print(r.grad_fn.next_functions)
show("vander int8", lambda: torch.vander(torch.tensor([1, 2], dtype=torch.int8), 4))
show("vander N0", lambda: torch.vander(v, 0))
show("vander N1", lambda: torch.vander(v, 1))
show("vander 2d", lambda: torch.vander(v.reshape(3, 1)))
show("vander neg", lambda: torch.vander(v, -1))
try:
    r = torch.vander(v, 4); (r * torch.arange(12.).reshape(3, 4)).sum().backward(); print(v.grad)
except RuntimeError as e: print(e)
show("kaiser", lambda: torch.kaiser_window(5))
show("kaiser np", lambda: torch.kaiser_window(5, periodic=False, beta=8.0))
show("kaiser 0 1", lambda: (torch.kaiser_window(0), torch.kaiser_window(1)))
show("kaiser double", lambda: torch.kaiser_window(7, dtype=torch.float64, beta=3.3))
show("kaiser many", lambda: torch.kaiser_window(64).sum().item())
show("kaiser int", lambda: torch.kaiser_window(4, dtype=torch.int64))
show("kaiser neg", lambda: torch.kaiser_window(-1))
show("kaiser rg", lambda: torch.kaiser_window(3, requires_grad=True))
import numpy as np
show("kaiser beta keyword", lambda: torch.kaiser_window(101, beta=5.5))
show("kaiser double periodic", lambda: torch.kaiser_window(7, False, 3.3, dtype=torch.float64))
# (reprs, not bits: kaiser_window is _windows.py's, whose bits are tested there)
print(torch.kaiser_window(101, True, 5.5)[::10])
print(torch.kaiser_window(33, False, 0.5)[::4])
print(torch.kaiser_window(33, False, 20., dtype=torch.float64)[::4])
'''


PROGRAMS['tutorial_style_uses'] = r'''
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
# contrastive loss with fill_diagonal_
z = torch.randn(4, 3, requires_grad=True)
sim = z @ z.t()
sim.fill_diagonal_(-1e9)
loss = torch.logsumexp(sim, 1).mean()
loss.backward()
print(loss, z.grad, sim.grad_fn)
# causal mask with triu_
mask = torch.ones(4, 4).triu_(1).bool()
scores = torch.randn(4, 4, requires_grad=True)
att = scores.masked_fill(mask, float('-inf')).softmax(-1)
att.sum().backward(); print(att, scores.grad)
# scatter mean with index_reduce_
feats = torch.randn(5, 2, requires_grad=True)
seg = torch.tensor([0, 1, 0, 2, 1])
pooled = torch.zeros(3, 2).index_reduce_(0, seg, feats, 'mean', include_self=False)
(pooled ** 2).sum().backward(); print(pooled, feats.grad)
# running stats with cumsum_
w = torch.randn(6, requires_grad=True)
c = (w * 2).cumsum_(0)
c.div_(torch.arange(1., 7.))
c.sum().backward(); print(c, w.grad)
# histogram of weights
h = torch.histogram(w.detach(), bins=3)
print(h.hist, h.bin_edges)
# in-place comparisons to build masks
x = torch.randn(5)
m = x.clone().gt_(0)
print(m, m.dtype)
y = x.clone()
y.clamp_(min=-0.5).lt_(0.3)
print(y)
# unravel argmax
a = torch.randn(3, 4)
print(torch.unravel_index(a.argmax(), a.shape))
# diagonal_scatter for setting a learnable diagonal
d = torch.zeros(3, requires_grad=True)
M = torch.diagonal_scatter(torch.ones(3, 3), d.exp())
M.sum().backward(); print(M, d.grad)
# addmm_ accumulate
acc = torch.zeros(2, 2)
for _ in range(3):
    acc.addmm_(torch.randn(2, 3), torch.randn(3, 2), beta=0.9)
print(acc)
# remainder_ / floor_divide_ on ints
t = torch.arange(10)
t.remainder_(3); print(t)
t.floor_divide_(2); print(t)
b = torch.tensor([5, 3, 12])
b.bitwise_and_(6).bitwise_left_shift_(1); print(b)
print(torch.select_copy(torch.arange(6).reshape(2, 3), 1, 2), torch.split_copy(torch.arange(5), 2))
'''


PROGRAMS['edge_cases'] = r'''
import warnings
warnings.simplefilter("ignore")
_show = show


def show(name, f):   # (also requires_grad and contiguity)
    r = _show(name, f)
    for x in (r if isinstance(r, tuple) else (r,)):
        if isinstance(x, torch.Tensor):
            print("  ", x.requires_grad, x.is_contiguous())
leaf = lambda: torch.ones(3, 3, requires_grad=True)
show("addmm_ leaf", lambda: leaf().addmm_(torch.ones(3, 3), torch.ones(3, 3)))
show("index_reduce_ leaf", lambda: leaf().index_reduce_(0, torch.tensor([0]), torch.ones(1, 3), "prod"))
show("cumsum_ leaf", lambda: leaf().cumsum_(0))
show("tril_ view of leaf", lambda: leaf()[0:2].tril_())
show("fill_diagonal_ view", lambda: (leaf() * 1)[1:, 1:].fill_diagonal_(0))
with torch.no_grad():
    show("view_copy no_grad", lambda: torch.view_copy(leaf(), (9,)))
    show("eq_ no_grad", lambda: (leaf() * 1).eq_(1))
show("view_copy no grad", lambda: torch.view_copy(torch.ones(2, 2), (4,)))
show("split_copy", lambda: torch.split_copy(torch.arange(5.), 2))
show("unbind_copy grad", lambda: torch.unbind_copy(leaf()[0:2]))
show("select_scatter 1d", lambda: torch.select_scatter(torch.zeros(3), torch.tensor(5.), 0, 1))
show("slice_scatter noncontig src", lambda: torch.slice_scatter(torch.zeros(3, 2), torch.arange(4.).reshape(2, 2).t(),
                                                               0, 1))
show("diagonal_scatter 3d", lambda: torch.diagonal_scatter(torch.zeros(2, 3, 3), torch.ones(3, 2), 0, 1, 2))
show("diagonal_scatter bad dims", lambda: torch.diagonal_scatter(torch.zeros(2, 3), torch.ones(2), 0, 0, 0))
show("select_scatter int", lambda: torch.select_scatter(torch.zeros(2, 2, dtype=torch.int64), torch.tensor([1, 2]),
                                                        0, 0))
show("select_scatter src float into int", lambda: torch.select_scatter(torch.zeros(2, 2, dtype=torch.int64),
                                                                      torch.tensor([1.5, 2]), 0, 0))
show("new_empty_strided int", lambda: torch.ones(2, dtype=torch.int32).new_empty_strided((2,), (1,)).dtype)
show("empty_strided size 0", lambda: torch.empty_strided((0, 3), (3, 1)).shape)
show("histogram weights grad", lambda: torch.histogram(torch.tensor([1., 2.]), 2,
                                                      weight=torch.ones(2, requires_grad=True)))
show("isreal bool", lambda: torch.isreal(torch.tensor([True])))
show("diagflat 2d offset neg", lambda: torch.diagflat(torch.tensor([[1, 2], [3, 4]]), -2))
show("conj_physical int", lambda: torch.conj_physical(torch.tensor([1, 2])))
show("conj_physical_ int", lambda: torch.tensor([1, 2]).conj_physical_())
show("fill bool", lambda: torch.fill(torch.tensor([True]), 0))
show("fill complex value into float", lambda: torch.fill(torch.tensor([1.]), 1j))
show("fill int tensor value", lambda: torch.fill(torch.tensor([1.5, 2.]), torch.tensor(3)))
show("fill tensor value float into int", lambda: torch.fill(torch.tensor([1, 2]), torch.tensor(3.5)))
show("unravel big", lambda: torch.unravel_index(torch.tensor([23]), (2, 3, 4)))
show("unravel empty shape", lambda: torch.unravel_index(torch.tensor(0), ()))
show("unravel bool", lambda: torch.unravel_index(torch.tensor([True]), (2,)))
show("unravel float shape", lambda: torch.unravel_index(torch.tensor([1]), (2.0,)))
show("unravel str", lambda: torch.unravel_index(torch.tensor([1]), "ab"))
'''


PROGRAMS['resize_empty_permuted_deterministic_modes'] = r'''
import warnings
warnings.simplefilter("ignore")
x = torch.arange(6., requires_grad=True)
show("resize", lambda: x.resize(2, 3))
show("resize tuple", lambda: x.resize((3, 2)))
show("resize bad", lambda: x.resize(4))
show("resize_as", lambda: torch.arange(6.).resize_as(torch.ones(2, 3)))
show("resize noncontig", lambda: torch.arange(6.).reshape(2, 3).t().resize(6))
y = x.resize(2, 3); (y * torch.arange(6.).reshape(2, 3)).sum().backward(); print(x.grad)
show("empty_permuted", lambda: torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride())
show("empty_permuted 2", lambda: torch.empty_permuted((2, 3), (1, 0), dtype=torch.int64).stride())
show("empty_permuted bad", lambda: torch.empty_permuted((2, 3), (0,)))
show("empty_permuted rg", lambda: torch.empty_permuted((2, 3), (1, 0), requires_grad=True).requires_grad)
show("debug", lambda: (torch.get_deterministic_debug_mode(), torch.is_deterministic_algorithms_warn_only_enabled()))
torch.set_deterministic_debug_mode('warn')
show("warn", lambda: (torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled(),
                      torch.is_deterministic_algorithms_warn_only_enabled()))
torch.set_deterministic_debug_mode(2)
show("error", lambda: (torch.get_deterministic_debug_mode(), torch.is_deterministic_algorithms_warn_only_enabled()))
torch.use_deterministic_algorithms(True, warn_only=True)
show("uda", lambda: torch.get_deterministic_debug_mode())
show("bad str", lambda: torch.set_deterministic_debug_mode('x'))
show("bad int", lambda: torch.set_deterministic_debug_mode(5))
show("bad float", lambda: torch.set_deterministic_debug_mode(1.5))
torch.set_deterministic_debug_mode(0)
show("reset", lambda: (torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled()))
show("init_num_threads", lambda: torch.init_num_threads())
'''


PROGRAMS['forward_ad'] = r'''
import warnings
warnings.simplefilter("ignore")
import_fwAD = torch.autograd.forward_ad
x = torch.tensor([1., 2., 3.]); t = torch.tensor([0.5, -1., 2.])
with import_fwAD.dual_level():
    d = import_fwAD.make_dual(x, t)
    for name, f in [("fill", lambda d: torch.fill(d, 2.)), ("fill t", lambda d: torch.fill(d, d[0])),
                    ("select_scatter", lambda d: torch.select_scatter(d.reshape(3, 1).expand(3, 2).contiguous(), d,
                                                                      1, 0)),
                    ("view_copy", lambda d: torch.view_copy(d, (3, 1))),
                    ("narrow_copy", lambda d: d.narrow_copy(0, 1, 2)),
                    ("xlogy s", lambda d: torch.xlogy(d, 2.)), ("xlogy s1", lambda d: torch.xlogy(2., d)),
                    ("unbind_copy", lambda d: torch.unbind_copy(d.reshape(3, 1), 0)[1]),
                    ("native_dropout", lambda d: (torch.manual_seed(0), torch.native_dropout(d, 0.5, True)[0])[1]),
                    ("polygamma_", lambda d: (d * 1).polygamma_(1)),
                    ("conj_physical_", lambda d: (d * 1).conj_physical_()),
                    ("diagonal_scatter", lambda d: torch.diagonal_scatter(torch.zeros(3, 3), d)),
                    ("unsafe_split_with_sizes", lambda d: torch.unsafe_split_with_sizes(d, [1, 2])[1]),
                    ("eq_", lambda d: (d * 1).eq_(2.)),
                    ("index_reduce", lambda d: d.index_reduce(0, torch.tensor([0, 0]), d[:2] * 1, "mean"))]:
        try:
            r = f(d)
            p, tt = import_fwAD.unpack_dual(r)
            print(name, p, tt)
        except Exception as e:
            print(name, type(e).__name__, e)
'''


# fixed: index_reduce's prod double backward with several zeros on one position raises PyTorch's delayed error
PROGRAMS['index_reduce_prod_double_backward'] = r'''
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
s = torch.tensor([[0., 2.], [0., 3.], [5., 0.]], requires_grad=True)
r = x.index_reduce(0, torch.tensor([0, 0, 1]), s, "prod")
g = torch.autograd.grad(r.sum(), (x, s), create_graph=True)
print(g)
try:
    print(torch.autograd.grad(g[1].sum(), (x, s)))
except Exception as e:
    print(type(e).__name__, e)
r = x.index_reduce(0, torch.tensor([0, 0, 1]), s, "prod")
print(torch.autograd.grad(r.sum(), (x, s)))
'''


# PyTorch's documentation examples of the new functions
PROGRAMS['documentation_examples'] = r'''
import warnings
warnings.simplefilter("ignore")
# docs examples
a = torch.zeros(8, 8)
b = torch.ones(2, 8)
print(a.slice_scatter(b, start=6))
b = torch.ones(8, 2)
print(a.slice_scatter(b, dim=1, start=2, end=6, step=2))
a = torch.zeros(2, 2)
b = torch.ones(2)
print(a.select_scatter(b, 0, 0))
a = torch.zeros(3, 3)
print(torch.diagonal_scatter(a, torch.ones(3), 0))
print(torch.diagonal_scatter(a, torch.ones(2), 1))
a = torch.arange(4.).view(2, 2)
print(torch.as_strided_scatter(torch.zeros(2, 2), torch.ones(2), (2,), (1,)))
x = torch.empty(5, 3, dtype=torch.float).fill_(2)
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], dtype=torch.float)
index = torch.tensor([0, 4, 2, 0])
print(x.index_reduce_(0, index, t, 'prod'))
x = torch.empty(5, 3, dtype=torch.float).fill_(2)
print(x.index_reduce_(0, index, t, 'prod', include_self=False))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.])))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.]),
                      density=True))
print(torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3],
                        weight=torch.tensor([1., 2., 4., 8.])))
print(torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[2, 2], range=[0., 1., 0., 1.],
                        density=True))
print(torch.unravel_index(torch.tensor(4), (3, 2)))
print(torch.unravel_index(torch.tensor([4, 1]), (3, 2)))
print(torch.unravel_index(torch.tensor([1234, 5678]), (10, 10, 10, 10)))
print(torch.unravel_index(torch.tensor([[1234], [5678]]), (100, 100)))
a = torch.zeros(3, 3)
print(a.fill_diagonal_(5.0))
b = torch.zeros(7, 3)
print(b.fill_diagonal_(5.0))
c = torch.zeros(7, 3)
print(c.fill_diagonal_(5.0, wrap=True))
print(torch.diagflat(torch.tensor([-0.5561, -0.1952, -0.1048])))
print(torch.diagflat(torch.tensor([-0.5561, -0.1952, -0.1048]), 1))
print(torch.diagflat(torch.tensor([[0.5892, -0.9405], [0.8326, 0.6283]])))
x = torch.tensor([-1 + 1j, -2 + 2j, 3 - 3j])
print(x.conj_physical(), torch.conj_physical(x))
print(torch.isreal(torch.tensor([1, 1+1j, 2+0j])))
print(torch.signbit(torch.tensor([0.7, -1.2, 0., 2.3])), torch.signbit(torch.tensor([-0.0, 0.0])))
a = torch.tensor([1, 2, 3])
print(torch.empty_strided((2, 3), (1, 2)).stride(), torch.empty_strided((2, 3), (1, 2)).size())
print(torch.frombuffer(bytearray(b"\x01\x02\x03"), dtype=torch.int8))
print(torch.frombuffer(bytearray(b"\x01\x02\x03\x04"), dtype=torch.int32, count=1))
print(torch.frombuffer(bytearray(b"\x01\x02\x03\x04\x05"), dtype=torch.int8, offset=2))
x = torch.tensor([1., 2., 3.])
print(torch.vander(x), torch.vander(x, N=3), torch.vander(x, N=3, increasing=True))
print(torch.xlogy(torch.zeros(5,), torch.tensor([-1, 0, 1, float('inf'), float('nan')])))
print(torch.xlogy(torch.tensor([1, 2, 3]), 3), torch.xlogy(2, torch.tensor([2., 3., 4.])))
print(torch.fill(torch.ones(2, 2), 5))
'''


# fixed: cumsum/cumprod keep their running value in PyTorch's accumulate type (double for float32, float for
# float16/bfloat16); index_reduce's include_self=False start for bfloat16; bfloat16 remainder by a number
PROGRAMS['dtypes'] = r'''
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16, torch.float64, torch.int32]:
    x = (torch.randn(4, 3) * 3).to(dt)
    s = (torch.randn(5, 3) * 3).to(dt)
    idx = torch.tensor([0, 0, 2, 3, 0])
    for red in ["prod", "mean", "amax", "amin"]:
        for inc in [True, False]:
            try:
                print(dt, red, inc, x.index_reduce(0, idx, s, red, include_self=inc).tolist())
            except Exception as e:
                print(dt, red, inc, type(e).__name__, e)
    print(dt, "cumsum_", x.clone().cumsum_(0).tolist(), x.clone().cumprod_(1).tolist())
    print(dt, "select_scatter", torch.select_scatter(x, s[0], 0, 1).tolist())
    print(dt, "view_copy", torch.view_copy(x, (3, 4)).tolist())
    print(dt, "histogram", torch.histogram(x.float(), 3).hist.tolist())
    if dt.is_floating_point:
        print(dt, "atan2_", x.clone().atan2_(s[:4]).tolist(), x.clone().hypot_(s[:4]).tolist())
        print(dt, "remainder_", x.clone().remainder_(1.3).tolist(), x.clone().fmod_(s[:4]).tolist())
        print(dt, "xlogy_", x.clone().abs().xlogy_(2.5).tolist(), x.clone().copysign_(s[:4]).tolist())
        print(dt, "polygamma_", x.clone().abs().add(0.5).polygamma_(1).tolist())
        print(dt, "fill", torch.fill(x, 1.1).tolist(), torch.diagflat(x[0]).tolist())
    if dt is torch.float64:  # (float16 matmul bits, an int addmm with beta=0.5: not this pass's; see the report)
        print(dt, "addmm_", x[:3].clone().addmm_(x[:3], x[:3], beta=0.5, alpha=1.5).tolist())
'''


PROGRAMS['aten_functional_argument_errors'] = r'''
import warnings
warnings.simplefilter("ignore")
x = torch.ones(2, 3)
for name, f in [("embedding", lambda: torch.embedding(3, torch.tensor([0]))),
                ("embedding indices", lambda: torch.embedding(x, [0])), ("kl_div", lambda: torch.kl_div(x, 1.)),
                ("native_dropout", lambda: torch.native_dropout(1., 0.5, True)),
                ("feature_dropout", lambda: torch.feature_dropout(1., 0.5, True)),
                ("frobenius_norm", lambda: torch.frobenius_norm(1., [0])),
                ("constant_pad_nd", lambda: torch.constant_pad_nd(x, 1)),
                ("bilinear", lambda: torch.bilinear(x, x, 1.)), ("bilinear 2", lambda: torch.bilinear(x, 2, x)),
                ("lstm_cell", lambda: torch.lstm_cell(x, x, x, x)), ("rrelu", lambda: torch.rrelu(1.)),
                ("prelu method", lambda: x.prelu(1.)), ("histogram", lambda: torch.histogram([1., 2.])),
                ("triplet", lambda: torch.triplet_margin_loss(x, 1, x)), ("batch_norm", lambda: torch.batch_norm(
                    1, None, None, None, None, True, 0.1, 1e-5, False))]:
    try: print(name, f())
    except Exception as e: print(name, type(e).__name__, str(e).split("\n")[0])
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PRELUDE + PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)


# The names this pass added (Tensor methods, then torch.* functions): each must exist in minigrad, and in PyTorch.
TENSOR_METHODS = (
    "eq_ ne_ lt_ le_ gt_ ge_ greater_ greater_equal_ less_ less_equal_ not_equal_ logical_and_ logical_or_ "
    "logical_xor_ logical_not_ bitwise_and_ bitwise_or_ bitwise_xor_ bitwise_not_ bitwise_left_shift_ "
    "bitwise_right_shift_ atan2_ arctan2_ hypot_ copysign_ heaviside_ xlogy_ remainder_ fmod_ floor_divide_ "
    "float_power_ cumsum_ cumprod_ tril_ triu_ fill_diagonal_ addmm_ mvlgamma_ polygamma_ igamma_ igammac_ "
    "index_reduce index_reduce_ isreal diagflat resolve_conj resolve_neg conj_physical conj_physical_ "
    "select_scatter slice_scatter diagonal_scatter as_strided_scatter prelu new_empty_strided histogram "
    "get_device apply_ map_ map2_ narrow_copy solve eig symeig lstsq fmod_ dim_order const_data_ptr is_set_to "
    "nonzero_static unsafe_split_with_sizes resize resize_as"
).split()
TORCH_FUNCTIONS = (
    "xlogy_ index_reduce signbit isreal diagflat resolve_conj resolve_neg is_conj is_neg conj_physical "
    "conj_physical_ select_scatter slice_scatter diagonal_scatter as_strided_scatter empty_strided histogram "
    "histogramdd unravel_index frombuffer fill is_warn_always_enabled set_warn_always get_device view_copy t_copy "
    "permute_copy expand_copy select_copy slice_copy squeeze_copy unsqueeze_copy transpose_copy diagonal_copy "
    "detach_copy alias_copy unbind_copy split_copy split_with_sizes_copy narrow_copy unfold_copy "
    "view_as_real_copy view_as_complex_copy as_strided_copy embedding batch_norm instance_norm bilinear conv3d "
    "conv_transpose3d convolution constant_pad_nd binary_cross_entropy_with_logits kl_div cosine_embedding_loss "
    "hinge_embedding_loss margin_ranking_loss triplet_margin_loss poisson_nll_loss alpha_dropout alpha_dropout_ "
    "feature_dropout feature_dropout_ feature_alpha_dropout feature_alpha_dropout_ dropout dropout_ rrelu rrelu_ "
    "native_layer_norm native_batch_norm native_dropout native_norm frobenius_norm nuclear_norm "
    "max_pool1d_with_indices rnn_tanh_cell rnn_relu_cell gru_cell lstm_cell solve eig symeig lstsq matrix_rank "
    "nonzero_static unsafe_split_with_sizes vander kaiser_window empty_permuted get_deterministic_debug_mode "
    "set_deterministic_debug_mode is_deterministic_algorithms_warn_only_enabled init_num_threads"
).split()


def test_the_added_names_exist() -> None:
    import minigrad
    assert [n for n in TENSOR_METHODS if not callable(getattr(minigrad.Tensor, n, None))] == []
    assert [n for n in TORCH_FUNCTIONS if not callable(getattr(minigrad, n, None))] == []
    assert minigrad.newaxis is None


def test_the_added_names_are_pytorch_names() -> None:
    from parity import torch_or_skip
    torch = torch_or_skip()
    assert [n for n in TENSOR_METHODS if not hasattr(torch.Tensor, n)] == []
    assert [n for n in TORCH_FUNCTIONS if not hasattr(torch, n)] == []
