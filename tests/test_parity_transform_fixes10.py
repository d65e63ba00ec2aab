"""Session 10 fixes found with the transform fuzzer (``fuzz_transforms.py``) and torch.func programs.

Each test is one short program run with minigrad and with PyTorch (``parity.same_as_torch``): the printed
values, dtypes and exception messages must be the same.
"""
from __future__ import annotations

from parity import same_as_torch

FWAD = """import torch.autograd.forward_ad as fa
def T(y):
    p, t = fa.unpack_dual(y)
    print(p.dtype, None if t is None else (t.dtype, t.tolist()))
"""


def test_div_by_a_python_number_keeps_a_0d_tangent_in_the_results_dtype():
    # fixed: 0-d float32 x / 2.5 had a float64 tangent (the number promoted the formula; PyTorch's wrapped number
    # does not); torch.div(x, 2.5, rounding_mode=None) had a float64 primal; complex x + 2.5 * alpha's tangent
    same_as_torch(FWAD + """
for dt in (torch.float32, torch.complex64):
    x = torch.tensor(1.75, dtype=dt)
    print(torch.div(x, 2.5, rounding_mode=None).dtype, torch.div(x, 2, rounding_mode=None).dtype)
    with fa.dual_level():
        d = fa.make_dual(x, torch.tensor(0.5, dtype=dt))
        T(d / 2.5)
        T(d / (1+2j))
        T(d / torch.tensor(2.5, dtype=torch.float64))   # a 0-d tensor does promote
        T(torch.add(d, 2.5, alpha=0.5))
        T(fa.make_dual(torch.tensor([1.5], dtype=dt), torch.tensor([1.], dtype=dt)) / 2.5)
""")


def test_inplace_ops_into_an_unbatched_tensor_raise_vmaps_error_first():
    # fixed: copysign_, atan2_, fmod_, remainder_, clamp_, nextafter_, ldexp_, igamma_, heaviside_ of an unbatched
    # tensor by a batched one raised their dtype errors (complex ...) before PyTorch's vmap refusal
    same_as_torch("""
from torch.func import vmap
a = torch.tensor([[1.], [-2.], [3.]], dtype=torch.float64)
for self_ in (torch.tensor([1+1j], dtype=torch.complex128), torch.tensor([1.5]), torch.tensor([3])):
    for name in ("copysign_", "atan2_", "fmod_", "remainder_", "nextafter_", "ldexp_", "igamma_", "heaviside_"):
        E(lambda: vmap(lambda x: getattr(self_, name)(x))(a))
    E(lambda: vmap(lambda x: self_.clamp_(min=x))(a))
""")


def test_grad_transforms_refuse_shape_changes_of_captured_tensors_in_place():
    # fixed: t_, transpose_, swapdims_, swapaxes_, unsqueeze_, squeeze_, as_strided_, resize_, resize_as_, set_ and
    # detach_ of a tensor the function captured (or a view of it) ran inside grad / vjp / jvp
    same_as_torch("""
from torch.func import grad, vjp, jvp, vmap
calls = {"t_": lambda w: w.t_(), "transpose_": lambda w: w.transpose_(0, 1), "swapdims_": lambda w: w.swapdims_(0, 1),
         "swapaxes_": lambda w: w.swapaxes_(0, 1), "unsqueeze_": lambda w: w.unsqueeze_(0),
         "squeeze_": lambda w: w.squeeze_(), "squeeze_0": lambda w: w.squeeze_(0),
         "squeeze_dims": lambda w: w.squeeze_((0,)),
         "as_strided_": lambda w: w.as_strided_((2,), (1,)), "resize_": lambda w: w.resize_(4),
         "resize_as_": lambda w: w.resize_as_(torch.zeros(4)), "set_": lambda w: w.set_(torch.zeros(2, 2)),
         "set_empty": lambda w: w.set_(), "set_window": lambda w: w.set_(torch.zeros(4), 0, (2,)),
         "detach_": lambda w: w.detach_(), "view_t_": lambda w: w[0].t_(), "view_detach_": lambda w: w[0].detach_()}
x = torch.tensor([1., 2.])
for name, call in calls.items():
    for tr in ("grad", "vjp", "jvp", "vmap"):
        w = torch.tensor([[1., 2.], [3., 4.]])
        def f(x):
            call(w)
            return (x * 2).sum()
        run = {"grad": lambda: grad(f)(x), "vjp": lambda: vjp(f, x)[0], "jvp": lambda: jvp(f, (x,), (x,))[1],
               "vmap": lambda: vmap(f)(x.unsqueeze(0))}[tr]
        print(name, tr, end=" ")
        E(run)
        print(w.shape)
""")


def test_complex_gradient_of_a_real_value_through_fill_like_ops_raises():
    # fixed: the complex gradient reaching a real input through masked_fill / index_fill / fill_ (a tensor value),
    # where and diagonal_scatter lost its imaginary part; PyTorch's formulas there have no handle_r_to_c, and its
    # engine refuses a complex gradient for a real input (the product's and cat's formulas take the real part)
    same_as_torch("""
a = torch.tensor([1+2j, 3-1j], requires_grad=True)
c = torch.tensor(0.5, requires_grad=True)
r = torch.tensor([0.5, -1.5], requires_grad=True)
m = torch.tensor([True, False])
cases = [lambda: a.masked_fill(m, c), lambda: a.index_fill(0, torch.tensor([0]), c), lambda: a.clone().fill_(c),
         lambda: a.clone().masked_fill_(m, c), lambda: torch.where(m, a, r), lambda: torch.where(m, r, a),
         lambda: torch.where(m, a, c), lambda: torch.diagonal_scatter(torch.zeros(2, 2, dtype=torch.complex64), r),
         lambda: a * r, lambda: torch.cat([a, r]), lambda: a + c.expand(2), lambda: a.masked_fill(m, c) * 2]
for f in cases:
    for create_graph in (False, True):
        E(lambda: print(torch.autograd.grad(f().abs().sum(), [c, r], allow_unused=True, create_graph=create_graph)))
E(lambda: print(torch.func.grad(lambda a, c: a.masked_fill(m, c).abs().sum(), argnums=1)(a.detach(), c.detach())))
""")


def test_fill_with_a_tensor_value_records_no_cast_and_casts_the_tangent():
    # fixed: torch.fill(x, value) recorded a ToCopyBackward0 for a value of another dtype (PyTorch's FillBackward1
    # takes the value itself), and its tangent kept the value's dtype
    same_as_torch(FWAD + """
c = torch.tensor(0.5, requires_grad=True)
for x in (torch.tensor([1+2j, 3-1j], requires_grad=True),
          torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)):
    y = torch.fill(x, c)
    print(y, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    if not x.is_complex():
        print(torch.autograd.grad(y.sum(), [x, c]))
print(torch.fill(torch.tensor([1, 2]), torch.tensor(2.5)))
with fa.dual_level():
    for x in (torch.tensor([1+2j, 3-1j]), torch.tensor([1., 2.], dtype=torch.float64)):
        T(torch.fill(x, fa.make_dual(torch.tensor(0.5), torch.tensor(2.))))
""")


def test_out_variant_writes_its_result_before_refusing_forward_ad():
    # fixed: torch.add(..., out=dual) raised PyTorch's "add_out ... out= function" before writing out; PyTorch's
    # kernel writes the primal first (the tangent stays as it was)
    same_as_torch(FWAD + """
with fa.dual_level():
    a = fa.make_dual(torch.tensor([1., 2.]), torch.tensor([0.5, 0.5]))
    E(lambda: torch.add(a.detach(), a.detach(), alpha=2, out=a))
    T(a)
    print(a._version)
    v = a * 1
    with torch.no_grad():
        E(lambda: torch.neg(a, out=v))
    T(v)
    b = torch.zeros(3)
    E(lambda: torch.mul(a, a, out=b))
    print(b)
    i = torch.zeros(2, dtype=torch.int64)
    E(lambda: torch.add(a, a, out=i))
    print(i)
""")


def test_vector_norm_tangent_dtypes_follow_pytorchs_norm_jvp():
    # fixed: vector_norm(x, dtype=float64) of a float32 dual: PyTorch's norm_jvp keeps x·t's dtype for p = 1, 2
    # (p = 2 divides the sum by the norm in place) and mixes in the norm's for other p; p = 0 crashed; nansum's
    # dtype= was left out of its tangent
    same_as_torch(FWAD + """
with fa.dual_level():
    for x in (torch.tensor([1.5, -2., 0.]), torch.tensor(1.5)):
        d = fa.make_dual(x, torch.ones_like(x) / 4)
        for o in (0, 1, 2, 3, 0.5, float('inf')):
            T(torch.linalg.vector_norm(d, o, dtype=torch.float64))
        T(torch.norm(d, dtype=torch.float64))
        T(torch.linalg.norm(d, dtype=torch.float64))
        T(torch.nansum(d, dtype=torch.float64))
        v = torch.linalg.vector_norm(d, 2, dtype=torch.float64)
        T(torch.linalg.vector_norm(v, 2, dtype=torch.float64))   # (a float64 primal with a float32 tangent)
""")


def test_add_sub_without_the_other_tangent_keep_a_negative_zero_tangent():
    # fixed: x + y with only x dual added a zero tangent for y (-0. + 0. = +0.); PyTorch's missing tangent is a
    # ZeroTensor, left out of the sum, so jacfwd of a.sin() * b + 1 shows -0. where PyTorch's does
    same_as_torch("""
import torch.autograd.forward_ad as fa
from torch.func import jvp, jacfwd
with fa.dual_level():
    d = fa.make_dual(torch.tensor([1., 2.]), torch.tensor([-0., 0.]))
    for y in (d + 1, d + 1.5, d + torch.ones(2), d - 1, 1 + d, torch.ones(2) - d, torch.tensor([3]) - d,
              torch.add(torch.ones(2), d, alpha=-2), torch.add(d, torch.ones(2), alpha=-2), d + torch.tensor([1, 1])):
        print(fa.unpack_dual(y).tangent)
a = torch.tensor([-1., 2., -3.]); b = torch.tensor([-1., 0.5, -2.])
print(jvp(lambda a, b: a.sin() * b + 1, (a, b), (torch.tensor([0., 1., 0.]), torch.zeros(3)))[1])
print(jacfwd(lambda a, b: a.sin() * b + a.sum(), argnums=(0, 1))(a, b))
""")


def test_rounded_division_inside_vmap_is_batched_and_refuses_unbatched_writes():
    # fixed: torch.div(x, y, rounding_mode=...) of batched tensors gave an unbatched result inside vmap (so a later
    # copy_ of a batched value into it was refused); x.div_(y, rounding_mode=...) of an unbatched x by a batched y
    # raised its dtype error before PyTorch's vmap refusal
    same_as_torch("""
from torch.func import vmap
a = torch.tensor([[1.], [-2.], [3.]], dtype=torch.float64)
for s in (torch.tensor([1+1j], dtype=torch.complex128), torch.tensor([7.5]), torch.tensor([7])):
    for m in ("floor", "trunc", None):
        E(lambda: vmap(lambda x: s.div_(x, rounding_mode=m))(a))
print(vmap(lambda x, y: torch.div(x, y, rounding_mode="floor").copy_(x))(a, a))
print(vmap(lambda x: torch.div(x, 2, rounding_mode="trunc").add_(x))(a))
print(vmap(lambda x: torch.floor_divide(x, 2).add_(x))(a))
""")


def test_isnan_of_a_0d_tensor_can_be_written_in_place():
    # fixed: isnan / isinf / isfinite / isposinf / isneginf of a 0-d tensor held a NumPy scalar, so an in-place op
    # on the result failed (TypeError)
    same_as_torch("""
x = torch.tensor(float('nan'))
for f in (torch.isnan, torch.isinf, torch.isfinite, torch.isposinf, torch.isneginf):
    print(f(x).logical_and_(torch.tensor(True)), f(x).logical_or_(torch.tensor(True)))
""")


def test_vmap_refuses_a_batched_output_at_out_dims_none():
    # fixed: an output that depends on the mapped inputs with out_dims None was returned when the slices happened to
    # agree (x.sum() of equal rows), and nested vmaps raised a data-dependent error; PyTorch refuses any batched one
    same_as_torch("""
from torch.func import vmap
w = torch.ones(3)
E(lambda: print(vmap(lambda x: (x, x.sum()), out_dims=(1, None))(torch.ones(4, 3))))
E(lambda: print(vmap(lambda x: (x, w * 2), out_dims=(0, None))(torch.ones(4, 3))))
E(lambda: print(vmap(lambda x, y: (x, y + 1), in_dims=(0, None), out_dims=(0, None))(torch.ones(4, 3), w)))
E(lambda: print(vmap(lambda x: x.sum(), out_dims=None)(torch.ones(4, 3))))
E(lambda: print(vmap(lambda x: w, out_dims=None)(torch.ones(4, 3))))
inner = vmap(lambda x, y: (x * y, y.sum()), in_dims=(0, None), out_dims=(0, None))
E(lambda: print(vmap(inner, in_dims=(None, 0))(torch.ones(2, 3), torch.ones(5, 3))))
""")


def test_index_fill_of_an_expanded_tensor_warns_and_cumprod_tangent_takes_its_dtype():
    # fixed: index_fill_ of an expanded tensor raised the internal-overlap error where PyTorch warns (deprecated)
    # and writes; cumprod(x, dtype=float32) of a float64 dual kept a float64 tangent (PyTorch's .to(dtype))
    same_as_torch(FWAD + """
b = torch.tensor([[1., 2.]], dtype=torch.float64)
for value in (-2.0, torch.tensor(-2., dtype=torch.float64)):
    x = torch.broadcast_to(b.clone(), (2, 3, 2))
    print(x.index_fill_(0, torch.tensor([1]), value), x._version)
y = torch.tensor([[1., 2.]], requires_grad=True) * 1
print(y.expand(3, 2).index_fill_(0, torch.tensor([1]), -2.0))
with fa.dual_level():
    x = fa.make_dual(torch.tensor([1., 2., 3.], dtype=torch.float64), torch.ones(3, dtype=torch.float64))
    T(torch.cumprod(x, 0, dtype=torch.float32))
    T(torch.cumprod(x.float(), 0, dtype=torch.float64))
""")
