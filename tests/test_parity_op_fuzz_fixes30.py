"""Session 30's op fuzz (seeds from 2553) and argument-parsing leftovers: heaviside's out= gets its NotImplemented
node, index_fill's value gradient refuses a negative index (index_select's check), scaled_dot_product_attention's
flash kernel takes a mask with is_causal=True; out= given to the hot methods Tensor shares with torch.* (x.mul(y,
out=None)), missing operands of x.where / x.clamp_min / x.masked_fill, a number named self (torch.pow(self=2,
exponent=t)), and x.size(foo=1)'s name.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_hot_methods_take_no_out():
    # PyTorch: no Tensor method takes out= ("mul() got an unexpected keyword argument 'out'"), though torch.mul does;
    # minigrad's x.mul, x.add, x.sub, x.div and x.matmul are their functions, which took it (None or a tensor)
    same_as_torch("""
x = torch.tensor([1., 2.])
t = torch.zeros(2)
for f in (lambda: x.mul(x, out=None), lambda: x.mul(2, out=t), lambda: x.matmul(x, out=None),
          lambda: x.matmul(x, out=t), lambda: x.add(x, out=t), lambda: x.add(x, alpha=2, out=None),
          lambda: x.sub(x, out=None), lambda: x.div(x, out=None), lambda: x.div(x, rounding_mode='floor', out=t),
          lambda: x.add(out=x), lambda: x.mul(out=None), lambda: x.matmul(out=t),
          lambda: torch.Tensor.mul(x, x, out=t), lambda: x.add(2, x, out=None), lambda: x.sub(2, x, out=None)):
    E(f)
print(t, torch.add(x, 2, x, out=None), torch.sub(x, 2, x, out=t), t)
# (the functions keep out=, None too; true_divide and F.normalize pass theirs on)
print(torch.mul(x, x, out=None), torch.mul(x, 3, out=t), t, torch.add(x, x, alpha=2, out=None))
print(torch.matmul(x, x, out=None), torch.sub(x, x, out=t), torch.div(x, 4, rounding_mode='floor', out=None))
print(torch.true_divide(x, x, out=t), x.true_divide(x), torch.nn.functional.normalize(x, dim=0, out=t), t)
""")


def test_hot_methods_take_no_out_with_a_subclass():
    # (once a subclass exists, Tensor's methods are wrapped to hand calls to __torch_function__: still refused)
    same_as_torch("""
class S(torch.Tensor):
    pass
x = torch.tensor([1., 2.])
s = x.as_subclass(S)
for f in (lambda: x.mul(x, out=None), lambda: s.add(x, out=torch.zeros(2)), lambda: s.matmul(s, out=None)):
    E(f)
print(torch.mul(s, x, out=torch.zeros(2)), torch.matmul(x, x, out=None), s * 2)
""")


def test_missing_operands_of_where_clamp_min_masked_fill():
    # PyTorch's parser lists the method's overloads; minigrad's Python binding refused the call
    # ("_where_method() missing 2 required positional arguments: 'condition' and 'y'")
    same_as_torch("""
x = torch.tensor([1., 2.])
m = x > 1
for f in (lambda: x.where(), lambda: x.where(m), lambda: x.clamp_min(), lambda: x.masked_fill(),
          lambda: x.masked_fill(m), lambda: x.masked_fill(value=1),
          lambda: torch.clamp_min(x), lambda: torch.masked_fill(x, m), lambda: x.where(m, None)):
    E(f)
# (PyTorch names the method's other operand ``other``)
print(x.where(m, other=x - 5), x.where(m, 0.5), x.clamp_min(1.5), x.masked_fill(m, -1), x.masked_fill(mask=m, value=3))
""")


def test_number_named_self():
    # PyTorch's overloads taking a number first name it self: torch.pow(self=2, exponent=t) is 2 ** t; minigrad's
    # functions name it input, and refused the keyword
    same_as_torch("""
x = torch.tensor([1., 2.])
print(torch.pow(self=2, exponent=x), torch.pow(self=True, exponent=x), torch.xlogy(self=2, other=x))
print(torch.where(x > 1, self=2, other=x), torch.where(x > 1, self=2, other=3), torch.remainder(self=3, other=x))
# (a tensor named self fits no overload; add has no number-first overload)
for f in (lambda: torch.pow(self=x, exponent=2), lambda: torch.add(self=2, other=x), lambda: torch.sum(self=2)):
    E(f)
""")


def test_size_stride_unexpected_keyword_name():
    # PyTorch: "size() got an unexpected keyword argument 'foo'"; minigrad's said "Tensor.size()"
    same_as_torch("""
x = torch.ones(2, 3)
for f in (lambda: x.size(foo=1), lambda: x.stride(foo=1), lambda: x.size(0, 1)):
    E(f)
print(x.size(axis=1), x.stride(dim=0), torch.Tensor.size.__name__)
""")


def test_heaviside_out_gets_its_not_implemented_node():
    # fuzz 2 seed 2556: PyTorch writes out= and records its NotImplemented node when an input requires grad (its
    # backward then refuses); minigrad's out= was left out of the graph
    same_as_torch("""
x = torch.tensor(0.5, dtype=torch.bfloat16, requires_grad=True)
y = torch.tensor([1., -1., 0., 2.], dtype=torch.bfloat16, requires_grad=True)
o = torch.zeros(2, 3, dtype=torch.bfloat16)
r = torch.heaviside(x, y, out=o)
print(r is o, r, r.requires_grad, type(r.grad_fn).__name__)
E(lambda: r.sum().backward())
r = torch.heaviside(x.detach(), values=y, out=torch.zeros(4, dtype=torch.bfloat16))
print(r, type(r.grad_fn).__name__)
print(torch.heaviside(x.detach(), y.detach(), out=torch.zeros(4, dtype=torch.bfloat16)).grad_fn)
""")


def test_index_fill_value_gradient_refuses_a_negative_index():
    # fuzz 2 seed 2556: the fill wraps index -1, but PyTorch's gradient of value is grad.index_select(dim, index)
    # .sum(), whose kernel refuses it; minigrad's formula indexed without index_select's checks
    same_as_torch("""
x = torch.tensor([-0.06, 1.74, 2.84, -2.54], dtype=torch.float16, requires_grad=True)
v = torch.tensor(-2.34, requires_grad=True) * 1
r = x.index_fill(-1, torch.tensor([-1, 1]), v)
print(r)
E(lambda: r.sum().backward())
w = torch.tensor(2., requires_grad=True)
x.detach().index_fill(0, torch.tensor([3, 1, 3]), w).sum().backward()
print(w.grad)
""")


def test_sdpa_flash_kernel_takes_a_mask_with_is_causal():
    # fuzz 3 seed 2556: PyTorch's CPU flash kernel (4-D inputs, no dropout, a mask without grad) applies both the
    # mask and the causal -inf; only its math path refuses the pair. minigrad refused it before choosing
    same_as_torch("""
torch.manual_seed(0)
F = torch.nn.functional
q = torch.randn(1, 2, 3, 4, requires_grad=True)
k, v, m = torch.randn(1, 2, 3, 4), torch.randn(1, 2, 3, 4), torch.randn(3, 3)
r = F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True)
r.sum().backward()
print(r, q.grad)
mb = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q[:, :, :2], k, v, attn_mask=mb[:2], is_causal=True))
for f in (lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True, dropout_p=0.5),
          lambda: F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=m, is_causal=True),
          lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=m.requires_grad_(), is_causal=True)):
    E(f)
""")


def test_cross_entropy_probabilities_check_smoothing_after_log_softmax():
    # fuzz 3 seeds 2558, 2561: with class probabilities PyTorch's cross_entropy_loss_prob_target runs log_softmax (an
    # integer input's kernel error) before its label_smoothing check; minigrad checked the smoothing first
    same_as_torch("""
F = torch.nn.functional
x, p = torch.ones(2, 3, dtype=torch.int64), torch.full((2, 3), 0.25, dtype=torch.float64)
for f in (lambda: F.cross_entropy(x, p, label_smoothing=1.5),
          lambda: F.cross_entropy(x.double(), p, label_smoothing=1.5),
          lambda: F.cross_entropy(x, torch.ones(2, dtype=torch.int64), label_smoothing=1.5)):
    E(f)
print(F.cross_entropy(x.double(), p, label_smoothing=0.5), F.cross_entropy(x.double(), p, label_smoothing=-0.5))
""")


def test_topk_of_a_0dim_tensor_k0_is_topk_backward():
    # fuzz 2 seed 2562: PyTorch's kernel copies a 0-dim input whatever k (0 too), through TopkBackward0; minigrad's
    # k=0 gave an alias (AliasBackward0)
    same_as_torch("""
x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
v, i = x.topk(0)
print(v, i, torch.topk(x, 0, largest=False).values.grad_fn.name(), x.detach().topk(0))
v.sum().backward()
print(x.grad)
""")


def test_matmul_out_requiring_grad_refused_before_size_checks():
    # fuzz 1 seed 2562: an out= that requires grad is refused by autograd before mv's size check; minigrad's
    # pre-checks only counted the operands' requires_grad
    same_as_torch("""
o = torch.zeros(3, 1, dtype=torch.float64, requires_grad=True) * 1
E(lambda: torch.matmul(torch.ones(3, 0, dtype=torch.int8), torch.ones(3, dtype=torch.int8), out=o))
E(lambda: torch.matmul(torch.ones(3, 0, dtype=torch.int8), torch.ones(3, dtype=torch.int8), out=o.detach()))
""")


def test_addbmm_out_checks_the_factors_dtypes_first():
    # fuzz 2 seeds 2562, 2563: PyTorch's addbmm_out runs addmm_ into out: out is its "self" (compared with batch2
    # first), then "mat1 and mat2"; input is not compared. minigrad compared input with batch2 after out
    same_as_torch("""
b1, b2 = torch.ones(2, 2, 3), torch.ones(2, 3, 2, dtype=torch.int64)
for x in (torch.tensor(1, dtype=torch.int8), torch.tensor(1.)):
    E(lambda: torch.addbmm(x, b1, b2, out=torch.zeros(4, dtype=torch.int64)))
    E(lambda: torch.addbmm(x, b1, b2.float(), out=torch.zeros(4, dtype=torch.int64)))
    E(lambda: torch.addbmm(x, b1.bfloat16(), b2.byte(), alpha=-1, out=torch.zeros(4, dtype=torch.int8)))
E(lambda: torch.addbmm(torch.tensor(1, dtype=torch.int8), b1, b2))
print(torch.addbmm(torch.tensor(1.), b1, b2.float(), out=torch.zeros(2, 2)))
# (input is copied into out, cast: its own dtype is not compared)
print(torch.addbmm(torch.tensor(1, dtype=torch.int8), b1.long(), b2, out=torch.zeros(2, 2, dtype=torch.int64)))
print(torch.addbmm(torch.tensor(1.5), b1.long(), b2, beta=0.5, out=torch.zeros(2, 2, dtype=torch.int64)))
print(torch.addbmm(torch.tensor(1.), b1.double(), b2.double(), out=torch.zeros(2, 2, dtype=torch.float64)))
""")


def test_index_copy_source_gradient_refuses_a_negative_index():
    # fuzz 2 seed 2565: an empty self takes index -1 in the copy, but the source's gradient (grad.index_select)
    # refuses it; minigrad's formula indexed without index_select's checks
    same_as_torch("""
x = torch.zeros(0, 3, dtype=torch.float16, requires_grad=True)
s = torch.zeros(0, 2, dtype=torch.float16, requires_grad=True)
r = x.index_copy(-1, torch.tensor([-1, 0]), s)
print(r)
E(lambda: r.sum().backward())
x0, s0 = torch.tensor(1., requires_grad=True), torch.tensor([2., 3.], requires_grad=True)
E(lambda: x0.index_copy(0, torch.tensor([0, 0]), s0).sum().backward())
s = torch.ones(2, 2, requires_grad=True)
torch.zeros(2, 3).index_copy(1, torch.tensor([2, 0]), s).sum().backward()
print(s.grad)
""")


def test_losses_broadcast_their_operands_first():
    # fuzz 3 seed 2564: F.l1_loss / mse_loss / smooth_l1_loss run torch.broadcast_tensors(input, target) first: a
    # 0-dim float32 target then promotes with a float16 input as a dimensioned tensor (float32), and the graph has
    # its ExpandBackward0; minigrad promoted the 0-dim target as a wrapped scalar (float16)
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
F = torch.nn.functional
x = torch.tensor([[1., -2., 3.], [0.5, 0., 2.]], dtype=torch.float16, requires_grad=True)
t = torch.tensor(0.25, requires_grad=True)
for f in (F.l1_loss, F.mse_loss, F.smooth_l1_loss):
    r = f(x, t)
    r.backward()
    print(r, r.grad_fn.name(), [type(n).__name__ for n, _ in r.grad_fn.next_functions], x.grad, t.grad)
    x.grad = t.grad = None
print(F.l1_loss(torch.tensor(1.), torch.ones(2, 3, dtype=torch.float16), reduction="none"))
E(lambda: F.mse_loss(torch.ones(2, 3), torch.ones(2)))
""")


def test_addr_inplace_converts_its_scalars_to_the_common_dtype():
    # fuzz 2 seed 2567: x.addr_'s kernel converts alpha to its iterator's common dtype (double for a float64 vector):
    # "value cannot be converted to type double"; minigrad named input's float
    same_as_torch("""
x = torch.zeros(2, 3)
for v1 in (torch.ones(2, dtype=torch.float64), torch.ones(2)):
    E(lambda: x.addr_(v1, torch.ones(3, dtype=torch.uint8), alpha=1 + 2j))
print(x.addr_(torch.ones(2, dtype=torch.float64), torch.ones(3, dtype=torch.uint8), alpha=1.5))
""")


def test_shift_casts_operands_to_the_result_dtype_first():
    # fuzz 2 seed 2564: a 0-dim int8 -1 shifted by a uint8 tensor is 255 >> n in PyTorch (operands read in the
    # result dtype, uint8); NumPy shifted -1 in int16 and cast the result (255)
    same_as_torch("""
x, n = torch.tensor(-1, dtype=torch.int8), torch.tensor([[4], [7]], dtype=torch.uint8)
print(x >> n, torch.bitwise_right_shift(x, n), x << n, torch.tensor([-3, 5], dtype=torch.int16) >> 1)
print(torch.tensor([-1, 5], dtype=torch.int8) & torch.tensor(3, dtype=torch.int64))
print(torch.tensor([3, 5], dtype=torch.uint8) | -1)
""")
