"""Session 25's op-level fuzz fixes (test_parity_op_fuzz*.py with new seeds, and test_parity_op_fuzz5.py): linspace /
logspace with no step, out= of the shifts, heaviside and special.ndtr, clamp_max's broadcast, lerp of integers with a
0-dim float weight, addr's scalar checks, index_fill's tensor value, vector_norm's identity check, soft_margin_loss
with a bool target.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_linspace_logspace_without_steps_run_no_kernel():
    # PyTorch: 0 steps is an empty tensor, 1 step fill_(start): no kernel, so bool and uint16/32 are refused only from
    # 2 steps on (and then before requires_grad's refusal); minigrad refused them always
    same_as_torch("""
for steps in (0, 1, 2):
    for dt in (torch.bool, torch.uint16, torch.uint32):
        for rg in (False, True):
            E(lambda: print(torch.linspace(0, 1, steps, dtype=dt, requires_grad=rg)))
            E(lambda: print(torch.logspace(0, 1, steps, dtype=dt, requires_grad=rg)))
""")


def test_shift_and_heaviside_out_refuse_a_leaf_that_requires_grad():
    # PyTorch: the shifts' and heaviside's out= kernels are not differentiable and refuse an out= leaf requiring grad
    # before the kernel's dtype refusal; minigrad wrote into it
    same_as_torch("""
a = torch.ones(2, dtype=torch.int64)
for f in (torch.bitwise_left_shift, torch.bitwise_right_shift, torch.heaviside, torch.bitwise_and):
    E(lambda: f(a, a, out=torch.ones(2, requires_grad=True)))
    E(lambda: f(a, torch.ones(2, dtype=torch.bfloat16), out=torch.ones(2, requires_grad=True)))
    E(lambda: print(f(a, a, out=torch.ones(2, dtype=torch.int64))))
""")


def test_heaviside_out_dtype_checked_by_its_meta_function():
    # PyTorch's heaviside meta: out= must not be complex and must have the inputs' dtype; minigrad cast into it
    same_as_torch("""
a = torch.ones(2, dtype=torch.int64)
c64, f64 = torch.complex64, torch.float64
for x, v, o in ((a, a, torch.ones(2)), (a, a, torch.ones(2, dtype=torch.int32)), (a, a, torch.ones(2, dtype=c64)),
                (torch.ones(3), torch.ones(2), torch.ones(2, dtype=f64)), (a, a, torch.ones(0, dtype=torch.int64))):
    E(lambda: print(torch.heaviside(x, v, out=o)))
""")


def test_special_ndtr_out_copies_its_result():
    # PyTorch: special_ndtr_out is a composite that copies its result into out= (CopyBackwards, a leaf refused by
    # copy_); minigrad treated it as not differentiable (no grad_fn, a leaf written)
    same_as_torch("""
x = torch.tensor([0.5, -1.0], requires_grad=True)
for o in (torch.ones(2), torch.zeros(0, dtype=torch.float64), torch.ones(2, dtype=torch.complex64),
          torch.ones(2, requires_grad=True).clone()):
    r = torch.special.ndtr(x, out=o)
    print(r is o, r)
E(lambda: torch.special.ndtr(x, out=torch.ones(2, requires_grad=True)))
E(lambda: torch.special.ndtr(x, out=torch.ones(2, dtype=torch.int64)))
o = torch.ones(2)
torch.special.ndtr(x, out=o).sum().backward()
print(x.grad)
""")


def test_clamp_max_checks_the_broadcast_first():
    # PyTorch: clamp_max's TensorIterator broadcasts before the complex refusal; minigrad refused complex first
    same_as_torch("""
a = torch.ones(1, 3, dtype=torch.complex64)
E(lambda: torch.clamp_max(a, torch.ones(4, dtype=torch.complex64)))
E(lambda: a.clamp_max(torch.ones(4)))
E(lambda: torch.clamp_max(torch.ones(3), torch.ones(4, dtype=torch.complex64)))
E(lambda: torch.clamp_max(a, torch.ones(3)))
""")


def test_lerp_of_integers_with_a_zero_dim_float_weight():
    # PyTorch: a 0-dim weight takes part in type promotion, so int/bool tensors with a float or complex 0-dim weight
    # compute in float (LerpBackward1 to the weight); minigrad refused the integer input's dtype
    same_as_torch("""
i = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32)
j = torch.tensor([[1], [2]], dtype=torch.int32)
print(i.lerp(j, torch.tensor(0.5)), torch.lerp(i, j, torch.tensor(0.5 + 1j)))
print(i.lerp(i, torch.tensor(0.5, dtype=torch.complex128)))
print(torch.tensor([True]).lerp(torch.tensor([True]), torch.tensor(0.5)))
E(lambda: i.lerp(j, torch.tensor(2)))
E(lambda: i.lerp_(j, torch.tensor(0.5 + 1j)))
w = torch.tensor(0.5 + 1j, requires_grad=True)
r = i.lerp(j, w)
r.abs().sum().backward()
print(r, w.grad)
""")


def test_addr_checks_beta_then_alpha():
    # PyTorch's check_addr_scalar: beta's bool and float checks, then alpha's (addr_: the result's cast first);
    # minigrad checked both for floats, then both for bools
    same_as_torch("""
v2, v3 = torch.ones(2, dtype=torch.int8), torch.ones(3, dtype=torch.int8)
for dt in (torch.int8, torch.bool):
    for beta, alpha in ((False, 0.5), (0.5, False), (1j, True)):
        E(lambda: torch.ones(2, 3, dtype=dt).addr(v2, v3, beta=beta, alpha=alpha))
        E(lambda: torch.ones(2, 3, dtype=dt).addr_(v2.to(dt), v3.to(dt), beta=beta, alpha=alpha))
        E(lambda: torch.ones(2, 3, dtype=torch.int8).addr_(torch.ones(2), torch.ones(3), beta=beta, alpha=alpha))
""")


def test_index_fill_converts_a_tensor_value_checked():
    # PyTorch: index_fill with a 0-dim tensor value calls the number overload with value.item(), whose conversion
    # refuses an overflow (before autograd's refusal of an integer result); minigrad wrapped it around
    same_as_torch("""
idx = torch.tensor([0, 1])
for dt in (torch.uint8, torch.int8, torch.float16):
    for v in (torch.tensor(-1.5, dtype=torch.float64), torch.tensor(300), torch.tensor(70000.0),
              torch.tensor(2.5, requires_grad=True), torch.tensor(-1.5, dtype=torch.float64, requires_grad=True)):
        E(lambda: print(torch.zeros(2, 3, dtype=dt).index_fill(1, idx, v)))
        E(lambda: print(torch.zeros(2, 3, dtype=dt).index_fill_(1, idx, v)))
""")


def test_vector_norm_identity_check_before_dtype_check():
    # PyTorch's linalg_vector_norm meta: an empty input's inf/negative norm is refused (reading each dim's size)
    # before dtype= is checked, which comes before the dims are wrapped; minigrad checked dtype= first
    same_as_torch("""
for x in (torch.ones(0, dtype=torch.bfloat16), torch.ones(2, 0), torch.ones(3)):
    for ord in (-1, float("inf"), 2):
        for dt in (torch.float16, torch.int64, torch.complex128):
            for dim in (None, 1, (), 5):
                E(lambda: torch.linalg.vector_norm(x, ord, dim=dim, dtype=dt))
""")


def test_soft_margin_loss_bool_target_backward():
    # PyTorch: soft_margin_loss's forward takes a bool target, its backward computes exp(-target * input) and
    # refuses to negate it; minigrad's backward went through
    same_as_torch("""
x = torch.tensor([[0.5, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)
y = torch.tensor([[True, False, True]])
loss = torch.nn.functional.soft_margin_loss(x, y)
print(loss)
E(lambda: loss.backward())
""")


def test_add_sub_of_two_numbers_check_alpha():
    # PyTorch: torch.add(2, 3, alpha=...) makes tensors of both numbers, then checks alpha against their result
    # type (no float alpha for ints, no bool alpha but for bools, no complex alpha but for complex); minigrad
    # skipped the check and computed
    same_as_torch("""
for a, b in ((True, -1), (2, 3), (2.5, 1), (True, False), (1j, 2)):
    for alpha in (1 + 2j, 0.5, True, 2):
        E(lambda: print(torch.add(a, b, alpha=alpha)))
        E(lambda: print(torch.sub(a, b, alpha=alpha)))
""")


def test_inplace_pow_exponent_gradient_in_the_promoted_dtype():
    # PyTorch's pow_backward_exponent: log of self cast to result_type(self, exponent) -- float32 for x **= y of a
    # float16 x and a float32 y, whose result is float16; minigrad took the result's dtype and rounded to float16
    same_as_torch("""
for dx, dy in ((torch.float16, torch.float32), (torch.bfloat16, torch.float64), (torch.float32, torch.float64)):
    x0 = torch.tensor([[2.5], [-1.0], [3.1]], dtype=torch.float64).to(dx).requires_grad_()
    y = torch.tensor([[5.7], [2.0], [0.3]], dtype=torch.float64).to(dy).requires_grad_()
    x = x0.clone()
    x **= y
    (x * torch.arange(1.0, 4.0).reshape(3, 1)).sum().backward()
    print(x, x0.grad, y.grad)
""")


def test_clamp_with_a_complex_number_bound_fails_in_backward():
    # PyTorch: clamp(x, 0.5+0j) of a float x reads the bound as a double, saves the complex number, and its backward
    # (and forward AD) compares x >= (0.5+0j), which has no complex kernel; minigrad saved 0.5 and differentiated
    same_as_torch("""
for dt in (torch.float32, torch.float64):
    for lo, hi in ((0.5 + 0j, False), (None, 1 + 0j), (0.5 + 0j, 2 + 0j)):
        x = torch.tensor([0.2, 0.7, 1.5], dtype=dt, requires_grad=True)
        for y in (torch.clamp(x, lo, hi), x.clone().clamp_(lo, hi), x.clip(lo, hi)):
            print(y, y.grad_fn._saved_min, y.grad_fn._saved_max)
            E(lambda: y.sum().backward())
fwAD = torch.autograd.forward_ad
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([0.2, 0.7, 1.5]), torch.ones(3))
    E(lambda: d.clamp(0.5 + 0j))
""")


def test_inplace_float_results_cast_before_kernel_checks():
    # PyTorch: atan2_/xlogy_/copysign_ of integers compute in the default float dtype, so the in-place cast error
    # names Float; igamma_/nextafter_ check that cast before their kernels' dtype refusal; minigrad named the integer
    # result type, or refused the kernel first
    same_as_torch("""
b = torch.tensor([[True, False, True]])
for x in (b, b.to(torch.int8), b.to(torch.int64)):
    for y in (b.to(torch.int8), b.to(torch.float64), 2, 2.5):
        for name in ("atan2_", "arctan2_", "copysign_", "xlogy_", "igamma_", "igammac_", "nextafter_"):
            E(lambda: getattr(x.clone(), name)(y))
""")


def test_lerp_complex_number_weight_of_a_real_input():
    # PyTorch: the weight is read as the kernel's compute type (float for float16/bfloat16/float32): a complex weight
    # without an imaginary part is taken (and saved as given), with one refused naming that type; minigrad refused
    # any complex weight, naming the input's dtype
    same_as_torch("""
for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    for w in (-1.5j, 0.5 + 0j, 1e300):
        E(lambda: print(torch.ones(2, dtype=dt).lerp(torch.zeros(2, dtype=dt), w)))
x = torch.ones(2, requires_grad=True)
r = x.lerp(torch.zeros(2), 0.5 + 0j)
print(r, r.grad_fn._saved_weight)
""")


def test_addr_out_casts_and_resizes_before_the_scalar_checks():
    # PyTorch's addr_out: build_addr_iter (the result type's cast into out=, then its resize) before beta's and
    # alpha's checks; minigrad checked the scalars first
    same_as_torch("""
import warnings
warnings.simplefilter("always")
u8 = torch.uint8
for x, v1, v2 in ((torch.ones((), dtype=u8), torch.ones(2, dtype=u8), torch.ones(3, dtype=u8)),
                  (torch.ones((), dtype=u8), torch.ones(2, dtype=torch.int64), torch.ones(3, dtype=torch.complex64)),
                  (torch.ones(2, 3), torch.ones(2), torch.ones(3))):
    for kw in ({"alpha": 1 + 2j}, {"beta": True}, {"alpha": 0.5}):
        for o in (torch.ones(2, 1, dtype=torch.bool), torch.ones(2, 1, 3, dtype=torch.int64),
                  torch.ones(2, 3, dtype=torch.float64), torch.ones(0, dtype=torch.int32)):
            with warnings.catch_warnings(record=True) as w:
                E(lambda: torch.addr(x, v1, v2, out=o, **kw))
            print(len(w), o.shape)
""")


def test_baddbmm_batch2_dtype_checked_by_the_kernel():
    # PyTorch: baddbmm's meta function gives the result batch2's dtype (out= must have it, in-place input too) and
    # resizes out=; the kernel converts beta and alpha before it reads batch2 as input's dtype; minigrad refused
    # batch2's dtype first
    same_as_torch("""
import warnings
warnings.simplefilter("always")
for d1, d3 in ((torch.uint8, torch.int8), (torch.float32, torch.float64), (torch.float32, torch.float32)):
    for kw in ({"beta": 1 + 2j}, {"alpha": 300}, {"beta": 0.5}):
        a, b, c = torch.ones(1, 2, 2, dtype=d1), torch.ones(2, 2, 3, dtype=d1), torch.ones(2, 3, 2, dtype=d3)
        E(lambda: torch.baddbmm(a, b, c, **kw))
        E(lambda: torch.ones(2, 2, 2, dtype=d1).baddbmm_(b, c, **kw))
        for o in (torch.ones(2, 2, 2, dtype=d1), torch.ones(3, dtype=d3)):
            with warnings.catch_warnings(record=True) as w:
                E(lambda: torch.baddbmm(a, b, c, out=o, **kw))
            print(len(w), o.shape)
""")


def test_narrow_copy_one_element_from_a_negative_start():
    # PyTorch's narrow_copy backward slices [start, start + length) as given: from a negative start that slice is
    # empty, and a one-element gradient broadcasts into it (a zero gradient); minigrad refused any length
    same_as_torch("""
for start, length in ((-1, 1), (-2, 2), (0, 1), (3, 1)):
    x = torch.arange(4.0, requires_grad=True)
    r = torch.narrow_copy(x, 0, start, length)
    E(lambda: (r * 2).sum().backward())
    print(r, x.grad)
""")


def test_index_add_alpha_converted_where_the_kernel_converts_it():
    # PyTorch's index_add_ kernel: for 0/1 dims alpha is converted before the loop checks the indices; for more dims
    # each slice's add converts it after that slice's index is checked (none when nothing is added); minigrad
    # checked every index first
    same_as_torch("""
for shape in ((1, 3), (3,), (0, 3)):
    for idx in ([0, 5], [-1, 0], [7], []):
        for alpha in (-3.25, 300, 1e40, 1 + 1j):
            for dt in (torch.uint8, torch.float16):
                x = torch.zeros(shape, dtype=dt)
                src = torch.ones((len(idx),) + shape[1:], dtype=dt)
                E(lambda: print(x.index_add_(0, torch.tensor(idx, dtype=torch.int64), src, alpha=alpha).sum()))
""")


def test_index_reduce_along_an_empty_dim():
    # PyTorch's kernel on an empty dim: include_self=False first fills through index_fill_, whose restrided view
    # overruns the empty storage; more dims take self.select(dim, 0); minigrad said "index out of range in self"
    same_as_torch("""
for shape, d, idx, src in (((0, 3), -2, [0, 1], (2, 3)), ((3, 0), 1, [0], (3, 1)), ((0,), 0, [0], (1,)),
                           ((0, 3), 0, [], (0, 3))):
    for reduce in ("prod", "amax"):
        for incl in (True, False):
            x = torch.ones(shape)
            E(lambda: print(x.index_reduce(d, torch.tensor(idx, dtype=torch.int64), torch.ones(src), reduce,
                                           include_self=incl).shape))
""")


def test_scatter_reduce_index_bounds_of_a_zero_dim_input():
    # PyTorch: a 0-dim self counts as size 1 (index -1 and 1 refused); the bool mean kernel refuses before the
    # indices are checked, but include_self=False first checks them in its scatter_ of the identity; minigrad
    # wrapped -1, gave NumPy's IndexError for 1, and refused bool mean first
    same_as_torch("""
for dt in (torch.bool, torch.float32, torch.complex64):
    for shape, idx in (((), 1), ((), -1), ((3,), [5])):
        for reduce in ("sum", "amax", "mean"):
            for incl in (True, False):
                x = torch.zeros(shape, dtype=dt)
                i = torch.tensor(idx)
                E(lambda: print(torch.scatter_reduce(x, 0, i, torch.ones(i.shape, dtype=dt), reduce,
                                                     include_self=incl)))
""")


def test_trunc_division_of_half_types_by_one_element():
    # PyTorch's div_trunc kernel for float16/bfloat16 takes a one-element divisor (a number, a 0-dim or a
    # one-element tensor) as a float and divides in float, without rounding the quotient to the half type before
    # trunc; elementwise it rounds first; minigrad rounded first unless the divisor was a number (fmod's gradient)
    same_as_torch("""
for dt in (torch.float16, torch.bfloat16):
    for v in (0.6, 0.6015625, 0.60009765625):
        a = torch.full((20,), 3.0, dtype=dt)
        print(torch.div(a, torch.full((20,), v, dtype=dt), rounding_mode="trunc")[0],
              torch.div(a, torch.tensor(v, dtype=dt), rounding_mode="trunc")[0],
              torch.div(a, torch.full((1,), v, dtype=dt), rounding_mode="trunc")[0],
              torch.div(a, v, rounding_mode="trunc")[0],
              torch.div(torch.tensor(3, dtype=torch.int8), torch.tensor(v, dtype=dt), rounding_mode="trunc"))
    y = torch.tensor(0.6, dtype=dt, requires_grad=True)
    torch.fmod(torch.tensor(3, dtype=torch.int8), y).backward()
    print(y.grad)
""")


def test_nansum_of_an_empty_float_tensor_into_complex():
    # PyTorch: nansum's float->complex kernel is missing, but an empty input runs none (NansumBackward0);
    # minigrad refused it
    same_as_torch("""
x = torch.ones(0, 3, requires_grad=True)
for dim in (None, 0):
    r = torch.nansum(x, dtype=torch.complex64) if dim is None else torch.nansum(x, dim, dtype=torch.complex64)
    print(r, r.grad_fn)
E(lambda: torch.nansum(torch.ones(2), dtype=torch.complex64))
""")


def test_index_select_index_checks_before_out_dtype():
    # PyTorch's index_select_out: the index's rank, its length for a 0-dim self and its dtype before out='s dtype;
    # minigrad checked out='s dtype first
    same_as_torch("""
for x in (torch.tensor(2.0, dtype=torch.float64), torch.ones(3, dtype=torch.float64)):
    for idx in (torch.tensor([0, 1, 2]), torch.tensor([[0]]), torch.tensor([0.0]), torch.tensor([5])):
        E(lambda: torch.index_select(x, 0, idx, out=torch.ones((), dtype=torch.float16)))
""")


def test_ger_out_warns_and_outer_out_is_refused_as_mul():
    # PyTorch: torch.ger is outer by its deprecated name; only its out= form warns (every call); outer's out= is
    # mul(input.reshape(-1, 1), vec2, out=out), refused under autograd as mul; minigrad's ger took no out= and its
    # refusal named outer
    same_as_torch("""
import warnings
warnings.simplefilter("always")
x = torch.ones(3)
print(torch.ger(x, x).shape, x.ger(x).shape)
for f in (lambda: torch.ger(x, x, out=torch.ones(3, 3)), lambda: torch.ger(torch.ones(()), x, out=torch.ones(3, 3)),
          lambda: torch.ger(torch.ones(3, requires_grad=True), x, out=torch.ones(3, 3)),
          lambda: torch.outer(torch.ones(3, requires_grad=True), x, out=torch.ones(3, 3)),
          lambda: x.ger(x, out=torch.ones(3, 3))):
    with warnings.catch_warnings(record=True) as w:
        E(f)
    print(len(w))
""")


def test_trapz_reads_dx_as_a_float():
    # PyTorch: trapz's parser reads dx as a double (True is 1.0, a complex number matches no overload, listed as
    # trapz's); minigrad refused a bool dx as trapezoid does and listed trapezoid's overloads
    same_as_torch("""
y = torch.arange(4.0, requires_grad=True)
for f in (lambda: torch.trapz(y, dx=True), lambda: torch.trapz(y, dx=1j, dim=0), lambda: torch.trapz(y, dx="a"),
          lambda: torch.trapz(y, y, dx=2), lambda: torch.trapz(y, 2), lambda: torch.trapezoid(y, dx=True)):
    E(lambda: print(f()))
""")


def test_view_as_complex_checks_dtype_then_shape_then_autograd():
    # PyTorch: view_as_complex checks the dtype before the dims; view_as_complex_copy's complex-autograd refusal
    # comes after the kernel's checks; minigrad checked the dims first, and refused autograd first
    same_as_torch("""
for x in (torch.ones((), dtype=torch.int64), torch.ones(3, dtype=torch.int64), torch.ones(()), torch.ones(3)):
    E(lambda: torch.view_as_complex(x))
for x in (torch.zeros(0, 2, requires_grad=True), torch.zeros(2, 3, requires_grad=True),
          torch.ones((), dtype=torch.int64)):
    E(lambda: torch.view_as_complex_copy(x))
""")


def test_inplace_functions_of_the_torch_namespace_refuse_a_leaf_first():
    # PyTorch: torch.lcm_(x, y), torch.index_put_(x, ...) refuse a leaf requiring grad before their other errors, as
    # the methods do; minigrad's namespace functions ran their own checks first
    same_as_torch("""
E(lambda: torch.index_put_(torch.ones((), requires_grad=True), (torch.tensor([0], dtype=torch.int32),), torch.ones(1),
                           accumulate=True))
E(lambda: torch.exp_(torch.ones(2, requires_grad=True).expand(2, 2)))
E(lambda: torch.clamp_max_(torch.ones(3, requires_grad=True), torch.ones(2)))
E(lambda: torch.lcm_(torch.ones(1, 3, dtype=torch.bool), torch.ones(0, dtype=torch.int32)))
""")


def test_inplace_argument_checks_before_casts():
    # PyTorch: clamp_min_/clamp_max_ with a tensor bound check the broadcast into self before the cast; mvlgamma_
    # checks bool and p before its float result's cast; addmv_ refuses a leaf first and reads a 0-dim input's
    # size(0) in its message; minigrad refused the cast first, or worded the size
    same_as_torch("""
i3 = torch.ones(3, dtype=torch.int64)
E(lambda: i3.clone().clamp_max_(torch.ones(1, 3, dtype=torch.float64)))
E(lambda: i3.clone().clamp_min_(torch.ones(2, dtype=torch.float64)))
for dt in (torch.bool, torch.int32, torch.complex64):
    for p in (0, 2):
        E(lambda: torch.ones(3, dtype=dt).mvlgamma_(p))
E(lambda: torch.addmv_(torch.ones(()), torch.ones(2, 3), torch.ones(2), alpha=0.5))
E(lambda: torch.addmv(torch.ones(()), torch.ones(2, 3), torch.ones(2)))
E(lambda: torch.addmv_(torch.ones(3, requires_grad=True), torch.ones(2, 3), torch.ones(3)))
""")


def test_index_put_values_broadcast_to_the_indexing_result():
    # PyTorch: the values must broadcast *to* the indexed shape (its RuntimeError); minigrad accepted a mutual
    # broadcast and failed in NumPy's assignment
    same_as_torch("""
E(lambda: torch.ones(3, 1).index_put_((torch.tensor([0, 1]),), torch.ones(2)))
E(lambda: torch.index_put(torch.ones(3, 1), (torch.tensor([0, 1]),), torch.ones(2)))
E(lambda: torch.ones(3, 1).index_put_((torch.tensor([True, False, True]),), torch.ones(3)))
print(torch.ones(3, 2).index_put_((torch.tensor([0, 1]),), torch.zeros(2)))
""")


def test_split_with_sizes_messages():
    # PyTorch: a 0-dim input's message names split; negative sizes have their own message, before the sum's
    same_as_torch("""
for x in (torch.ones(()), torch.ones(4), torch.ones(2, 3)):
    for sizes in ([-1, 5], [-1, 3], [1, 2], [4]):
        E(lambda: x.split_with_sizes(sizes))
        E(lambda: torch.unsafe_split_with_sizes(x, sizes))
""")


def test_layer_norm_mixed_dtype_checks():
    # PyTorch's layer_norm_cpu: mixed parameter dtypes are checked before the shapes; a bias of another dtype than a
    # weight of input's is the kernel's error; minigrad checked neither (it promoted)
    same_as_torch("""
F = torch.nn.functional
for xd in (torch.float32, torch.float64, torch.bfloat16):
    for wd, bd in ((torch.float64, None), (torch.float32, torch.float64), (torch.float64, torch.float32),
                   (None, torch.float64)):
        for shape, ns in (((2, 3), [3]), ((3,), [5]), ((2, 0), [2, 0])):
            w = None if wd is None else torch.ones(ns, dtype=wd)
            b = None if bd is None else torch.ones(ns, dtype=bd)
            E(lambda: print(F.layer_norm(torch.ones(shape, dtype=xd), ns, w, b).dtype))
            E(lambda: print(torch.native_layer_norm(torch.ones(shape, dtype=xd), ns, w, b, 1e-5)[0].dtype))
""")


def test_rnn_cells_check_weights_in_their_order():
    # PyTorch's cells: rnn_tanh/relu check the weights' first dims, then the input and hidden state; gru_cell the
    # input and hidden state first; lstm_cell the input, the weights, then the hidden states; sizes are read with
    # size() (IndexError for too few dims); minigrad checked no weights and indexed shapes
    same_as_torch("""
for f, g in ((torch.rnn_tanh_cell, 1), (torch.rnn_relu_cell, 1), (torch.gru_cell, 3), (torch.lstm_cell, 4)):
    for x in (torch.ones(1, 3), torch.ones(1, 4), torch.ones(3)):
        for hb in (1, 2):
            h = torch.ones(hb, 2)
            hid = (h, h) if g == 4 else h
            for wih, whh in (((g * 2 + 1, 3), (g * 2, 2)), ((g * 2, 3), (g * 2 + 1, 2)), ((g * 2, 3), (g * 2, 2))):
                E(lambda: print(f(x, hid, torch.ones(wih), torch.ones(whh), None, None)))
""")


def test_native_group_norm_checks_the_sizes_given():
    # PyTorch's group norm kernel: X.numel() == N * C * HxW, after its dtype dispatch; minigrad failed in NumPy or
    # in backward
    same_as_torch("""
x = torch.ones(1, 2, 1, requires_grad=True)
E(lambda: torch.native_group_norm(x, torch.ones(2), torch.ones(2), 1, 2, 2, 1, 1e-5))
E(lambda: torch.native_group_norm(torch.ones(1, 2, 1), torch.ones(2), None, 2, 2, 1, 2, 1e-5))
E(lambda: torch.native_group_norm(torch.ones(1, 2, 1, dtype=torch.int64), None, None, 2, 2, 1, 2, 1e-5))
print(torch.native_group_norm(x, None, None, 1, 2, 1, 1, 1e-5)[0])
""")


def test_norm_composites_check_dtype_and_repeated_dims():
    # PyTorch: frobenius_norm and norm_except_dim are at::norm, which refuses integer and bool inputs and a dim given
    # twice; sum_to_size() needs a size; minigrad computed
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
E(lambda: torch.frobenius_norm(torch.ones(3, 3), (0, 0)))
E(lambda: torch.frobenius_norm(torch.ones(3, 3), (0, -2)))
E(lambda: torch.frobenius_norm(torch.ones(3, 3, dtype=torch.int64), (0,)))
print(torch.frobenius_norm(torch.ones(3, 3), (0, 1)))
for dt in (torch.int64, torch.bool):
    for dim in (0, -1):
        E(lambda: torch.norm_except_dim(torch.ones(2, 3, dtype=dt), 2, dim))
E(lambda: torch.ones(3).sum_to_size())
print(torch.ones(3).sum_to_size(()), torch.ones(2, 3).sum_to_size(1, 3))
""")


def test_norm_except_dim_dim_errors_before_dtype():
    # PyTorch's norm_except_dim: a middle dim transposes first (its dim errors), a 0-dim input reads size(0), then
    # at::norm checks the dtype
    same_as_torch("""
for shape in ((3,), (2, 3, 4), ()):
    for d in (-1, 0, 1, 2, 5, -2):
        for dt in (torch.int64, torch.float32):
            E(lambda: print(torch.norm_except_dim(torch.ones(shape, dtype=dt), 2, d)))
""")


def test_clamp_inplace_tensor_bounds_broadcast_and_cast_first():
    # PyTorch's clamp_ with tensor bounds: TensorIterator broadcasts them into self's shape, then casts the result
    # type into self, before the kernel refuses complex; a complex 0-dim bound beside a number (the Number overload)
    # is a cast error for an integer self; minigrad refused the kernel first
    same_as_torch("""
c = torch.complex64
for x in (torch.ones(3, 1), torch.ones(1, 3), torch.ones(3, 1, dtype=torch.int64)):
    for lo, hi in ((torch.tensor(1, dtype=torch.uint8), torch.ones(1, 3, dtype=c)), (None, torch.ones(1, 3, dtype=c)),
                   (torch.ones(3, 1, dtype=c), None), (torch.ones(1, 3, dtype=torch.float64), None),
                   (torch.ones(2, dtype=c), None)):
        E(lambda: print(x.clone().clamp_(lo, hi).shape))
E(lambda: torch.tensor(2, dtype=torch.int32).clamp_(-3.25, torch.tensor(1j)))
""")
