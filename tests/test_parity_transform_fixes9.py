"""Session 9 fixes found with the transform fuzzer (``fuzz_transforms.py``): forward AD, ``torch.func`` and vmap.

Each test is one short program run with minigrad and with PyTorch (``parity.same_as_torch``): the printed
values, dtypes and exception messages must be the same.
"""
from __future__ import annotations

from parity import same_as_torch

FWAD = """import torch.autograd.forward_ad as fa
def T(y):
    t = fa.unpack_dual(y).tangent
    print(None if t is None else (t.dtype, t.tolist()))
"""


def test_output_tangent_only_from_the_inputs_the_formula_reads():
    # PyTorch's generated code checks isFwGradDefined only for the inputs its ``result:`` formula names (x_t)
    same_as_torch(FWAD + """
x = torch.tensor([1., -2., 3.], dtype=torch.float64)
y = torch.tensor([-1., 2., 0.5], dtype=torch.float64)
t = torch.tensor([0.5, 0.25, -1.], dtype=torch.float64)
with fa.dual_level():
    T(torch.copysign(x, fa.make_dual(y, t)))        # only y dual: no tangent
    T(torch.copysign(fa.make_dual(x, t), y))
    T(torch.nextafter(x, fa.make_dual(y, t)))
    T(torch.nextafter(fa.make_dual(x, t), x))       # zero where x == other
    torch.manual_seed(0)
    T(torch.normal(x, fa.make_dual(y.abs(), t)))    # std's tangent is not read
    T(torch.zeros(3, dtype=torch.float64).bernoulli_(fa.make_dual(y.abs() / 4, t)))
    z = fa.make_dual(torch.ones(3, dtype=torch.float64), t)
    z.fill_(torch.tensor(2., dtype=torch.float64))  # fill_(tensor value) reads self_t too: a zero tangent
    T(z)
    z = fa.make_dual(torch.ones(3, dtype=torch.float64), t.clone())
    z.copy_(x)                                      # so does copy_ (self_t.copy_(src_t))
    T(z)
    z = fa.make_dual(torch.ones(3, dtype=torch.float64), t.clone())
    z[1:].copy_(x[1:])
    T(z)
""")


def test_maximum_minimum_fmax_fmin_tangents_follow_pytorchs_formulas():
    # other_t + w * (self_t - other_t): the unpicked input's nan/inf tangent still shows (0 * inf), ties split
    same_as_torch(FWAD + """
n, i = float('nan'), float('inf')
s = torch.tensor([1., n, 1., 2., 2., 1., 3.], dtype=torch.float64)
o = torch.tensor([1., 1., n, 1., 1., 2., 1.], dtype=torch.float64)
st = torch.tensor([10., 10., 10., 10., n, i, 10.], dtype=torch.float64)
ot = torch.tensor([20., 20., 20., n, 20., 20., i], dtype=torch.float64)
with fa.dual_level():
    for f in (torch.fmax, torch.fmin, torch.maximum, torch.minimum):
        T(f(fa.make_dual(s, st), fa.make_dual(o, ot)))
        T(f(fa.make_dual(s, st), o))
        T(f(s, fa.make_dual(o, ot)))
    x = torch.tensor([-1., 0., 0.5, 2.], dtype=torch.float64)
    d = fa.make_dual(x, torch.ones(4, dtype=torch.float64))
    T(torch.maximum(d, torch.special.entr(d)))
""")


def test_var_mean_std_mean_tangents_of_complex_and_empty_inputs():
    # (rounded: PyTorch's var_jvp sums in another order, the last bits differ)
    same_as_torch(FWAD.replace("t.tolist()", "t.real.round(decimals=12).tolist(), t.imag.round(decimals=12).tolist()"
                               " if t.is_complex() else t.round(decimals=12).tolist()") + """
z = torch.tensor([[1+2j, 3-1j, 0.5j], [2, -1+1j, 1]], dtype=torch.complex128)
t = torch.tensor([[0.3-1j, 1+1j, 2], [1j, -1, 0.5+0.5j]], dtype=torch.complex128)
with fa.dual_level():
    for f in (lambda x: torch.var_mean(x, 1), lambda x: torch.std_mean(x, 1), lambda x: torch.std_mean(x)):
        for r in f(fa.make_dual(z, t)):
            T(r)
    e = fa.make_dual(torch.zeros(0, 2, dtype=torch.float64), torch.ones(0, 2, dtype=torch.float64))
    for r in (*torch.var_mean(e, 0), *torch.std_mean(e, 0), e.std(0), e.std(), e.var(0)):
        T(r)
    for f in (torch.nn.functional.huber_loss, torch.nn.functional.smooth_l1_loss):
        T(f(e, torch.zeros(0, 2, dtype=torch.float64)))
    T(torch.nn.functional.binary_cross_entropy(e.sigmoid(), torch.zeros(0, 2, dtype=torch.float64)))
""")


def test_empty_mean_losses_backward():
    # the mean's 1 / count of an empty loss: no ZeroDivisionError, an empty gradient
    same_as_torch("""
F = torch.nn.functional
for f in (F.huber_loss, F.smooth_l1_loss, F.soft_margin_loss):
    x = torch.zeros(0, 2, requires_grad=True)
    loss = f(x, x.detach())
    loss.backward()
    print(loss, x.grad)
""")


def test_vmap_in_place_refusals_come_before_the_ops_own_checks():
    # PyTorch's batching rule (or its fallback) refuses a batched value written into an unbatched tensor before
    # the kernel looks at dtypes or calls .item() on a value
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
o = torch.ones(3, 2, dtype=torch.float64)
s = torch.ones(2)
for f in (lambda x: s.lerp_(x, 0.5), lambda x: s.index_add_(0, torch.tensor([0, 1]), x),
          lambda x: s.index_copy_(0, torch.tensor([0, 1]), x), lambda x: s.scatter_(0, torch.tensor([0, 1]), x),
          lambda x: s.masked_scatter_(s > 0, x), lambda x: s.put_(torch.tensor([0]), x[:1]),
          lambda x: s.float_power_(x), lambda x: s.index_fill_(0, torch.tensor([0]), x.sum())):
    E(lambda: torch.func.vmap(f)(o))
""")


def test_vmap_in_place_refusal_names():
    # which rule names itself ("inplace arithmetic", "index_put_" ... "in a vmap") and which go through the
    # fallback ("aten::masked_fill_ ... at level 1"); add-like rules fail in the kernel on the output's shape
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
o = torch.ones(3, 2)
s = torch.ones(2)
L = torch.ones(2, dtype=torch.long)
B = torch.ones(2, dtype=torch.bool)
for f in (lambda x: s.atan2_(x), lambda x: s.copysign_(x), lambda x: L.bitwise_or_(x.long()),
          lambda x: L.gcd_(x.long()), lambda x: L.__ilshift__(x.long()),
          lambda x: B.logical_and_(x), lambda x: s.logical_xor_(x), lambda x: s.clamp_min_(x),
          lambda x: s.masked_fill_(x > 0, 1.0), lambda x: s.masked_fill_(s > 0, x.sum()),
          lambda x: s.index_put_((torch.tensor([0]),), x[:1]), lambda x: s.__setitem__(x > 0, 1.0),
          lambda x: s.__setitem__(torch.tensor([0]), x[:1]), lambda x: s.__setitem__(0, x[0]),
          lambda x: torch.where(s > 0, x, s, out=s)):
    E(lambda: torch.func.vmap(f)(o))
""")


def test_vmap_writing_into_a_tensor_made_inside_from_unbatched_tensors():
    # an op's result (or a dtype conversion) of unbatched tensors is unbatched too: a batched write is refused
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
b = torch.ones(2, 3)
def f(a, d):
    v0 = b.flip((1,))
    v0.copy_(a)
    return v0
def g(a, d):
    v0 = torch.addcmul(d, d, b, value=0.5)
    v0.addcmul_(a, a)
    return v0
def h(a, d):
    return b.bool().logical_or_(a.bool())
for fn in (f, g, h):
    E(lambda: torch.func.vmap(fn, in_dims=(0, None))(torch.ones(3, 2, 3), torch.ones(2, 3)))
""")


def test_vmap_full_overlap_of_a_view_and_its_base():
    # x.view(1, 1).mul_(x) of a batched 1-element x: PyTorch's rule pads x to the view's rank, so the kernel sees
    # the same elements with the same strides (a full overlap, allowed)
    same_as_torch("""
for shape in [(1,), ()]:
    def f(a):
        v = a.view(1, 1)
        v.mul_(a)
        return v
    x = torch.arange(1., 4.).reshape((3,) + shape)
    print(torch.func.vmap(f)(x))
""")


def test_vmap_flip_and_roll_of_a_batched_zero_dim_tensor():
    # the batching rule adds 1 (the batch dim) to the dim wrapped for the 0-d tensor
    same_as_torch("""
x = torch.randn(3)
for f in (lambda v: v.flip((0,)), lambda v: v.flip((-1,)), lambda v: v.flip((2,)), lambda v: v.flip(()),
          lambda v: v.roll(1, 0), lambda v: v.roll(1, 2), lambda v: v.roll(1)):
    E(lambda: torch.func.vmap(f)(x))
    E(lambda: torch.func.vmap(torch.func.vmap(f))(x.expand(2, 3)))
""")


def test_grad_inputs_start_at_version_zero():
    # PyTorch's transforms wrap each input anew: versions inside count from 0, writes still reach the caller's
    same_as_torch("""
a = torch.ones(2)
a.add_(1); a.add_(1)
def f(x):
    print('inside', x._version)
    y = torch.nan_to_num(x)
    with torch.no_grad():
        x.mul_(0.5)
    print('after', x._version)
    return y.sum()
E(lambda: torch.func.grad(f)(a))
print(a._version, a)
E(lambda: torch.func.vjp(f, a)[1](torch.tensor(1.)))
print(a._version)
""")


def test_forward_over_reverse_through_a_view_whose_base_was_written():
    # the view's regenerated grad_fn (AsStridedBackward0) is not an op of the user's: no tangent, no fallback
    same_as_torch("""
def f(a):
    v0 = a.permute(2, 1, 0)
    v2 = torch.nn.functional.softsign(v0)
    with torch.no_grad():
        a.mul_(0.5)
    return v2.sum()
x = torch.tensor([[[0.3]], [[-0.7]]])
E(lambda: torch.func.jvp(torch.func.grad(f), (x.clone(),), (x.clone(),)))
E(lambda: torch.func.hessian(f)(x.clone()))
""")


def test_hessian_through_an_op_pytorch_has_no_forward_formula_for():
    # hardsigmoid's backward has none in PyTorch either: its NotImplementedError, not minigrad's double-vjp fallback
    same_as_torch("""
x = torch.tensor([0.5, -4., 1.], dtype=torch.float64)
E(lambda: torch.func.hessian(lambda z: torch.nn.functional.hardsigmoid(z).sum())(x))
print(torch.func.hessian(lambda z: torch.nn.functional.hardswish(z).sum())(x).diagonal())
""")


def test_pick_tangent_with_an_integer_or_bool_input():
    # the bool input has no tangent: PyTorch's ZeroTensor for it takes part as a float 0 (no bool subtraction)
    same_as_torch(FWAD + """
with fa.dual_level():
    b = fa.make_dual(torch.tensor([[0.5, -1.], [2., 0.]]), torch.tensor([[1., 2.], [3., 4.]]))
    T(torch.minimum(b, torch.arange(2) % 2 == 0))
    T(torch.maximum(b, torch.tensor([1, 0])))
    T(torch.fmax(torch.tensor([1, 0]), b))
""")


def test_jvp_through_ops_pytorch_has_no_forward_formula_for():
    # torch.func.jvp/jacfwd raise PyTorch's error (minigrad's double-vjp route is for its own missing formulas only)
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
x = torch.rand(3, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(0)) + 0.5
for f in (lambda z: z.index_reduce(0, torch.tensor([0, 1, 0]), z, 'prod'), lambda z: torch.cdist(z, z + 1),
          lambda z: torch.igamma(z, z), lambda z: torch.nn.functional.pdist(z)):
    E(lambda: torch.func.jvp(f, (x,), (torch.ones_like(x),)))
    E(lambda: torch.func.jacfwd(f)(x))
""")


def test_vmap_moveaxis_int_has_no_batching_rule():
    same_as_torch("""
x = torch.randn(3, 2, 4)
for f in (lambda b: torch.moveaxis(b, 0, -1), lambda b: b.moveaxis(0, -1), lambda b: torch.moveaxis(b, [0], [1]),
          lambda b: torch.movedim(b, 0, -1), lambda b: torch.moveaxis(x[0], 0, 1) + b.sum()):
    E(lambda: print(torch.func.vmap(f)(x).shape))
""")


def test_formula_fixes_nansum_hardtanh_addcmul_pow():
    same_as_torch(FWAD + """
with fa.dual_level():
    # nansum / nanmean: no tangent from where the primal is nan (remainder by 0 makes nans)
    d = fa.make_dual(torch.tensor([[1.5, -2., 3.], [0.5, 2.5, -1.]]), torch.tensor([[1., 2., 3.], [4., 5., 6.]]))
    v1 = torch.remainder(d, torch.arange(3))
    T(torch.nanmean(v1, (1,)))
    T(torch.nansum(v1, (1,)))
    T(torch.nanmean(v1))
    # hardtanh: PyTorch zeroes x <= min or x >= max, so a nan input passes its tangent
    x = torch.tensor([float('nan'), 0.5, 2., -1., 1.], dtype=torch.float64)
    for f in (torch.nn.functional.hardtanh, torch.nn.functional.relu6):
        T(f(fa.make_dual(x, torch.ones(5, dtype=torch.float64))))
    # addcmul of 0-d float64 tensors by a bool tensor: the products first, so no float32 step
    a = fa.make_dual(torch.tensor(-0.17, dtype=torch.float64), torch.tensor(1.14, dtype=torch.float64))
    T(torch.addcmul(a, a, torch.arange(1) % 2 == 0, value=0.5))
    # pow: a real input's term keeps its real part (PyTorch's handle_r_to_c), even for a complex result
    b = torch.tensor([0.7, 1.3], dtype=torch.float64)
    z = torch.tensor([0.5+1j, -1+0.25j], dtype=torch.complex128)
    bt = torch.tensor([1., 2.], dtype=torch.float64)
    zt = torch.tensor([0.3-0.2j, 1+1j], dtype=torch.complex128)
    T(torch.pow(fa.make_dual(b, bt), fa.make_dual(z, zt)))
    T(torch.pow(fa.make_dual(b, bt), z))
    T(torch.pow(fa.make_dual(z, zt), fa.make_dual(b, bt)))
    T(fa.make_dual(b, bt) ** (1 + 1j))
    T((1 + 1j) ** fa.make_dual(b, bt))
    # renorm of a complex tensor: the norm's tangent is the real part of conj(∂‖x‖)·t
    v = fa.make_dual(torch.tensor([[0.5+1j, -1+0.25j], [2-1j, 0.3+0.7j]], dtype=torch.complex128),
                     torch.tensor([[0.3-0.2j, 1+1j], [1j, -0.5]], dtype=torch.complex128))
    t = fa.unpack_dual(v.renorm(2, 0, 1.0)).tangent
    print(torch.view_as_real(t).round(decimals=12))
x = torch.tensor([float('nan'), 0.5, 2.], dtype=torch.float64, requires_grad=True)
torch.nn.functional.hardtanh(x).sum().backward()
print(x.grad)
""")


def test_complex_logaddexp():
    # PyTorch's _log_add_exp_helper (min/max by real part); its backward gives a real input a complex gradient,
    # which its engine refuses; the forward formula is fine
    same_as_torch(FWAD + """
i, n = float('inf'), float('nan')
a = torch.tensor([0.5, -1., 2., -i, i, n, 1.], dtype=torch.float32)
b = torch.tensor([0.3+1j, 2-1j, -1+0.5j, complex(-i, 0), complex(i, 1), 1j, complex(1, n)], dtype=torch.complex64)
print(torch.logaddexp(a, b))
print(torch.logaddexp(b, a))
x = torch.tensor([0.5, -1.], dtype=torch.float64, requires_grad=True)
z = torch.tensor([0.3+1j, 2-1j], dtype=torch.complex128, requires_grad=True)
r = torch.logaddexp(x, z)
E(lambda: torch.view_as_real(r).sum().backward())
print(x.grad, z.grad)
w = z.detach().requires_grad_()
torch.view_as_real(torch.logaddexp(w, w * 2)).sum().backward()
print(w.grad)
with fa.dual_level():
    T(torch.logaddexp(fa.make_dual(x.detach(), torch.ones(2, dtype=torch.float64)),
                      fa.make_dual(z.detach(), torch.tensor([1j, 1], dtype=torch.complex128))))
""")


def test_in_place_tangent_dtype_from_a_dual_other():
    # float32 x.mul_(dual float64 y): PyTorch's new tangent is float64 (the formula's); when x had a tangent,
    # the result is written into it (float32)
    same_as_torch("""
import torch.autograd.forward_ad as fa
with fa.dual_level():
    for name in ("add_", "mul_", "hypot_", "atan2_", "div_", "xlogy_", "fmod_", "remainder_"):
        for which in ("self", "other", "both"):
            x = torch.tensor([0.5, 1.5], dtype=torch.float32)
            y = torch.tensor([0.25, 2.], dtype=torch.float64)
            if which in ("self", "both"):
                x = fa.make_dual(x, torch.ones_like(x))
            if which in ("other", "both"):
                y = fa.make_dual(y, torch.ones_like(y))
            r = getattr(x, name)(y)
            t = fa.unpack_dual(r).tangent
            print(name, which, r.dtype, t.dtype, t.tolist())
""")


def test_add_sub_float_alpha_without_the_other_tangent():
    # maybe_multiply(ZeroTensor, alpha) takes alpha as a 0-d double tensor: its float64 can win the promotion
    same_as_torch("""
import torch.autograd.forward_ad as fa
with fa.dual_level():
    for xs, ys in [((), ()), ((2,), (2,)), ((), (2,)), ((2,), ())]:
        for ydt in (torch.float32, torch.int64):
            x = fa.make_dual(torch.ones(xs), torch.ones(xs))
            y = torch.ones(ys, dtype=ydt)
            for alpha in (0.5, 2, 1):
                print(xs, ys, ydt, alpha, fa.unpack_dual(torch.sub(x, y, alpha=alpha)).tangent.dtype,
                      fa.unpack_dual(torch.add(x, y, alpha=alpha)).tangent.dtype)
""")


def test_jacfwd_of_a_flip_of_a_zero_dim_input():
    # jacfwd's tangents are batched, so PyTorch's flip of the 0-d dual goes through the batching rule's dim check
    same_as_torch("""
d = torch.tensor(0.5)
E(lambda: torch.func.jacfwd(lambda x: x.flip((0,)) * 2)(d))
E(lambda: torch.func.jacfwd(lambda x: x.flip(()) * 2)(d))
E(lambda: print(torch.func.jacfwd(lambda x: x.flip((0,)) * 2)(torch.ones(2))))
E(lambda: torch.func.jacfwd(lambda x: x.roll(1, 0) * 2)(d))   # (roll checks the 0-d primal first: its own error)
""")


def test_grad_transforms_refuse_to_mutate_a_captured_tensor():
    # PyTorch's grad/vjp/jvp wrap their arguments; an in-place op on any other tensor from outside (or a view of
    # one) is refused, named by its ATen overload; tensors made inside the function may change
    same_as_torch("""
x = torch.ones(3)
c = torch.ones(3)
cases = [lambda a: c.nan_to_num_(), lambda a: c.select(0, -1).nan_to_num_(), lambda a: c.mul_(2),
         lambda a: c.add_(a), lambda a: c.copy_(a), lambda a: c.view(3).sub_(1), lambda a: c.div_(2),
         lambda a: c.div_(2, rounding_mode='floor'), lambda a: c.pow_(2), lambda a: c.fill_(torch.tensor(1.)),
         lambda a: c.fill_(1.), lambda a: c.masked_fill_(c > 0, 1.), lambda a: c.lerp_(c, 0.5),
         lambda a: c.__setitem__(0, a[0]), lambda a: c.zero_(), lambda a: c.clamp_(0), lambda a: (c * 2).add_(1),
         lambda a: torch.ones(3).mul_(a)]
for f in cases:
    g = lambda a: (f(a), a.sum())[1]
    E(lambda: torch.func.grad(g)(x))
    E(lambda: torch.func.jvp(g, (x,), (x,)))
    E(lambda: torch.func.vjp(g, x))
def h(a, b):
    b.mul_(2)          # an argument, even one not differentiated: wrapped, so allowed
    return a.sum()
E(lambda: torch.func.grad(h)(x, torch.ones(3)))
""")
