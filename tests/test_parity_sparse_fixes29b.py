"""Parity programs for sparse and elementwise results that used to come out silently wrong: saved sparse tensors
checked against in-place changes, ``s.detach()`` sharing s's values and version counter, in-place sparse mul's
entries and coalesced flag, ``dense ** sparse`` refused, and the signs of zeros in complex negation.

Each program runs with minigrad as ``torch``, then with PyTorch (parity.same_as_torch); the outputs must match.
"""
from __future__ import annotations

import warnings

import pytest
from parity import ERROR_PRELUDE, same_as_torch

# E(f) prints "no error" or the error's type and its start (the dispatcher's errors go on to list backends)
PRELUDE = ERROR_PRELUDE.replace("print(type(e).__name__, e)", "print(type(e).__name__, str(e)[:160])") + '''
import warnings
warnings.simplefilter("ignore")
def mk(dtype=torch.float32):
    i = torch.tensor([[0, 1, 2], [1, 0, 2]])
    v = torch.tensor([0.5, -1.0, 2.0], dtype=dtype, requires_grad=True)
    return v, torch.sparse_coo_tensor(i, v, (3, 3))
def plain(coalesced=True):
    i = torch.tensor([[0, 1, 2], [1, 0, 2]]) if coalesced else torch.tensor([[0, 1, 2, 0], [1, 0, 2, 1]])
    s = torch.sparse_coo_tensor(i, torch.tensor([0.5, -1.0, 2.0, 1.5][:i.shape[1]]), (3, 3))
    return s.coalesce() if coalesced else s
def show(s):
    print(s._indices().tolist(), s._values().tolist(), s._version, s.is_coalesced())
'''


def run(program: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return same_as_torch(program, PRELUDE)


# ---- saved sparse tensors are version-checked -------------------------------------------------------------------
@pytest.mark.parametrize("op", ["z.abs()", "z.sin()", "z.asin()", "z.erf()", "z.nan_to_num()", "z.sgn()",
                                "z.log1p()", "z.pow(2)", "torch.sparse.sum(z, 0)", "torch.sparse.softmax(z, 0)",
                                "torch.sparse.mm(z, torch.ones(3, 2))", "z.to_dense()", "z * z", "z * 2",
                                "-z", "z.tanh()"])
def test_saved_input_modified_in_place(op):
    run(f'''
v, s = mk()
z = s.coalesce() * 1.0
w = {op}
z.mul_(2)
E(lambda: (w.to_dense() if w.is_sparse else w).sum().backward())
print(v.grad)
''')


@pytest.mark.parametrize("dtype", ["torch.float64", "torch.float16", "torch.bfloat16", "torch.complex64"])
def test_modified_message_names_the_sparse_type(dtype):
    run(f'''
v, s = mk({dtype})
z = s.coalesce() * 1.0
w = z.abs()
z.mul_(2)
E(lambda: w.to_dense().abs().sum().backward())
E(lambda: w.grad_fn._saved_self)
E(lambda: w.grad_fn._raw_saved_self.unpack())
''')


def test_saved_outputs_and_dense_operands_modified_in_place():
    run('''
v, s = mk(); z = s.coalesce() * 1.0; w = z.tan(); w2 = w * 1.0; w.mul_(2)
E(lambda: w2.to_dense().sum().backward())
v, s = mk(); z = s.coalesce() * 1.0; w = z.relu(); w2 = w * 1.0; w.div_(2)
E(lambda: w2.grad_fn.next_functions[0][0]._saved_result)
E(lambda: w2.to_dense().sum().backward())
v, s = mk(); s.mul_(2)                      # (sparse_coo_tensor's node saves its result)
E(lambda: s.to_dense().sum().backward())
v, s = mk(); z = s.coalesce() * 1.0; d = torch.ones(3, 2, requires_grad=True) * 1.0
w = torch.sparse.mm(z, d); d.mul_(2)        # (the dense operand SparseAddmmBackward0 saves)
E(lambda: w.sum().backward())
v, s = mk(); z = s.coalesce() * 1.0; w = z.abs(); z.sin_()
E(lambda: w.to_dense().sum().backward())
v, s = mk(); z = s.coalesce() * 1.0; w = z * torch.tensor(2., requires_grad=True); z.detach().neg_()
E(lambda: w.to_dense().sum().backward())
v, s = mk(); z = s.coalesce() * 1.0; w = z.abs(); w.to_dense().sum().backward(); print(v.grad)   # unmodified
''')


@pytest.mark.parametrize("op", ["tan_", "relu_", "sqrt_", "expm1_"])
def test_inplace_result_modified_again(op):
    run(f'''
for again in (True, False):
    v = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    z = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2], [1, 0, 2]]), v, (3, 3)).coalesce() * 1.0
    z.{op}(); w = z * 1.0
    if again:
        z.mul_(2)
    E(lambda: print(torch.autograd.grad(w.to_dense().sum(), v)))
''')


# ---- detach() shares the values and the version counter ---------------------------------------------------------
@pytest.mark.parametrize("coalesced", [True, False])
@pytest.mark.parametrize("op", ["d.mul_(2)", "d.div_(2)", "d.mul_(torch.tensor(3.))", "d.neg_()", "d.abs_()",
                                "d.sin_()", "d.sqrt_()", "d.relu_()", "d.trunc_()", "d.zero_()", "d.add_(plain())",
                                "d.sub_(plain(False))", "d.mul_(plain())"])
def test_inplace_on_detach_changes_the_original(op, coalesced):
    run(f'''
s = plain({coalesced})
d = s.detach()
x = s.to_dense()
E(lambda: {op})
show(s); show(d)
print(s.to_dense().tolist(), x.tolist())
''')


def test_data_shares_values_not_version_and_values_alias():
    run('''
s = plain(); d = s.data; d.div_(2); show(s); show(d)
s = plain(); d = s.detach(); d.div_(2, rounding_mode='trunc'); show(s); show(d)
s = plain(); vv = s._values(); s.detach().neg_(); print(vv.tolist(), vv._version)
''')


def test_sparse_mul_of_uncoalesced_operands():
    run('''
for a, b in [(False, True), (True, False), (False, False), (True, True)]:
    show(plain(a) * plain(b))
    x = plain(a); x.mul_(plain(b)); show(x)
s = torch.sparse_coo_tensor(torch.tensor([[0]]), torch.tensor([1.]), (3,)); s.mul_(2); show(s)
''')


# ---- dense ** sparse -------------------------------------------------------------------------------------------
def test_dense_pow_sparse_is_refused():
    run('''
s = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1., 2.]), (3,))
d = torch.tensor([2., 3., 4.])
E(lambda: d.pow(s)); E(lambda: d ** s); E(lambda: torch.pow(d, s)); E(lambda: d.pow_(s)); print(d)
E(lambda: torch.pow(2, s)); E(lambda: 2 ** s); E(lambda: torch.float_power(d, s)); E(lambda: d.float_power(s))
E(lambda: s.pow(d)); E(lambda: s ** s)
''')


# ---- complex neg: PyTorch's vector blocks give +0 for a zero part, its scalar tail -0 ---------------------------
NEG_BITS = '''
def bits(t):
    return "".join("1" if b else "0" for b in torch.signbit(torch.view_as_real(t.contiguous())).flatten().tolist())
'''


@pytest.mark.parametrize("dtype", ["torch.complex64", "torch.complex128"])
def test_complex_neg_signed_zeros_by_length(dtype):
    run(NEG_BITS + f'''
for n in range(41):
    x = torch.zeros(n, dtype={dtype})
    y = torch.full((n,), complex(-0.0, -0.0), dtype={dtype})
    print(n, bits(torch.neg(x)), bits(-x), bits(x.negative()), bits(x.clone().neg_()), bits(-y))
''')


@pytest.mark.parametrize("dtype", ["torch.complex64", "torch.complex128"])
def test_complex_neg_signed_zeros_by_layout(dtype):
    run(NEG_BITS + f'''
z = lambda *shape: torch.zeros(*shape, dtype={dtype})
for x in (z(20)[::2], z(4, 10).t(), z(3, 5), z(40)[3:], z(4, 10)[:, :9], z(4, 3, 4)[::2], z(5).expand(3, 5),
          z(3, 5).t(), z(8, 8).t().expand(3, 8, 8), z(2, 9, 3).permute(2, 0, 1)[:, :, 1:], z(()), z(16).conj()):
    print(bits(torch.neg(x)), bits(-x))
x = torch.complex(torch.tensor([float('nan'), 0., 1.] * 4), torch.tensor([-float('nan'), -0., 0.] * 4)).to({dtype})
print(bits(-x))
x = torch.zeros(16, dtype={dtype}, requires_grad=True)
(x * 1).neg().sum().abs().backward()        # (NegBackward0's grad.neg() of an expanded gradient)
print(bits(x.grad))
''')


# ---- log_softmax of rows with NaN: the vector max of such a row is the NaN with every bit set ---------------------
@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
def test_log_softmax_nan_bits(dtype):
    run(f'''
import random
import torch.nn.functional as F
nan, inf = float('nan'), float('inf')
bits = torch.int32 if {dtype} is torch.float32 else torch.int64
rows = [[nan, 1., 2.], [1., nan, 2.], [nan, nan], [inf, 1., 2.], [1., -nan, 2.], [inf, nan, 1.], [-inf, nan],
        [nan] + [1.] * 20, [1.] * 17 + [nan] + [1.] * 5, [1.] * 8 + [nan], [nan] * 17]
for r in rows:
    print(F.log_softmax(torch.tensor([r], dtype={dtype}), 1).view(bits).tolist())
for seed in range(40):   # (rows of 1 to 39, a few NaN / inf entries; over the last dim and over dim 0)
    rng = random.Random(seed)
    n, m = rng.randint(1, 3), rng.randint(1, 39)
    x = [[rng.gauss(0, 1) for _ in range(m)] for _ in range(n)]
    for _ in range(rng.randint(1, 3)):
        x[rng.randrange(n)][rng.randrange(m)] = rng.choice([nan, -nan, inf, -inf])
    x = torch.tensor(x, dtype={dtype})
    print(seed, F.log_softmax(x, 1).view(bits).tolist(), F.log_softmax(x, 0).view(bits).tolist())
''')
