"""Parity programs for session 30's softmax and sparse leftovers: softmax's NaN bits (which NaN every output of a
row with a NaN carries, as PyTorch's compiled kernels choose it) and its in-order sums along a contiguous dim;
sparse in-place ops saving a clone of self, complex coalesce / to_dense making NaNs of 0·inf parts, a rounded div_
of a detached uncoalesced tensor writing its new entries into the shared tensors, copy_ / floor_divide(_) / fill_,
sparse_resize_ / sparse_resize_and_clear_ / _coalesced_.

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
F = torch.nn.functional
def bits(y):
    return y.view(torch.int32 if y.dtype == torch.float32 else torch.int64).flatten().tolist()
def with_nans(n, nans, dtype, rows=1):
    """rows × n ones, NaNs with payload k (negative for k < 0) at {position: k} of row 0."""
    x = torch.ones(rows, n, dtype=dtype)
    xi = x.view(torch.int32 if dtype == torch.float32 else torch.int64)
    top = 0x7fc00000 if dtype == torch.float32 else 0x7ff8000000000000
    width = 32 if dtype == torch.float32 else 64
    for p, k in nans.items():
        xi[0, p] = top | abs(k) if k >= 0 else (top | -k | (1 << (width - 1))) - (1 << width)
    return x
def plain(coalesced=True, dtype=torch.float32):
    i = torch.tensor([[0, 1, 2], [1, 0, 2]]) if coalesced else torch.tensor([[0, 1, 2, 0], [1, 0, 2, 1]])
    s = torch.sparse_coo_tensor(i, torch.tensor([0.5, -1.0, 2.0, 1.5][:i.shape[1]], dtype=dtype), (3, 3))
    return s.coalesce() if coalesced else s
def show(s):
    print(s.shape, s._indices().tolist(), s._values().tolist(), s._version, s.is_coalesced())
def graph():
    v = torch.tensor([0.5, -0.2, 0.3], requires_grad=True)
    s = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2], [1, 0, 2]]), v, (3, 3)).coalesce()
    return v, s * 1
'''


def run(program: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return same_as_torch(program, PRELUDE)


# ---- softmax: NaN bits ----------------------------------------------------------------------------------------
def test_softmax_nan_bits_of_a_partial_last_vector():
    # float64 rows of 21: the NaN at 16 opens the partial last vector, whose NaN the sum keeps (not lane 0's, the
    # NaN with every bit set that x - max gives the others)
    out = run("print(F.softmax(torch.tensor([[1.]*16+[float('nan')]+[2.]*4]).double(), 1).view(torch.int64)[0,:2])")
    assert "9221120237041090560, 9221120237041090560" in out


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("n", [2, 5, 7, 8, 9, 15, 16, 17, 21, 28, 33, 40])
def test_softmax_last_dim_nan_bits(dtype, n):
    # which NaN the row sum keeps where NaNs meet (whole vectors, the partial one, the lanes' tree), and which
    # NaN e · (1/Σ) keeps (float64's partial last vector: e's own)
    run(f"""
for nans in ({{0: 3}}, {{1: -5}}, {{{n} - 1: 7}}, {{0: 1, {n} - 1: -2}}, {{{n} // 2: 9, {n} // 3: -4}}):
    for rows in (1, 3):
        x = with_nans({n}, nans, {dtype}, rows)
        print(bits(F.softmax(x, 1)), bits(F.log_softmax(x, 1)))
        print(bits(F.softmax(x, 1)[:, :{n} - 1]) == bits(F.softmax(x[:, :{n} - 1], 1)))
x = torch.tensor([[1., float('inf'), 2., float('nan'), -float('inf')] * 4], dtype={dtype})[:, :{n}]
print(bits(F.softmax(x, 1)), bits(F.log_softmax(x, 1)))
""")


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("shape,dim", [((9, 1), 0), ((3, 9, 1), 1), ((5, 3, 20), 1), ((7, 17), 0), ((2, 9, 33), 1)])
def test_softmax_other_dim_nan_bits(dtype, shape, dim):
    # the vector code's max is the NaN with every bit set, the scalar code's std::max fold keeps a first NaN and
    # skips later ones; log_softmax's max skips NaNs and its sum keeps the last NaN
    run(f"""
import math
x = torch.linspace(-2, 3, math.prod({shape}), dtype={dtype}).reshape({shape})
xi = x.view(torch.int32 if {dtype} == torch.float32 else torch.int64).view(-1)
for p, v in ((0, float('nan')), (5, -float('nan')), (7, float('inf')), (8, float('nan'))):
    x.view(-1)[p] = v
xi[8] += 3
for k in (0, 1):
    y = x if k == 0 else x.clone().view(-1).roll(4).view({shape})
    print(bits(F.softmax(y, {dim})), bits(F.log_softmax(y, {dim})))
""")


def test_softmax_other_dim_sums_in_order():
    # a contiguous dim of size > 8 (inner size 1): the sum runs in order, not NumPy's pairwise sum
    run("""
r = [2.0, 1.0, -0.0, -3.0, 2.0, 0.0, 0.0, -0.0, 2.0]
for rows in (1, 2, 8):
    print(bits(torch.softmax(torch.tensor([r] * rows).reshape(rows, 9, 1), 1)))
d = [-3.0, 2.0, -float('inf'), -3.0, 1.0, -3.0, 2.0, 1.0, 1.0, 1.0, 1.0, 2.0, 0.5, 2.0, -3.0, 1.0, 1.0, -3.0, -3.0]
x = torch.tensor(d).reshape(-1, 1)
print(bits(torch.softmax(x, 0)), bits(torch.log_softmax(x, 0)))
""")


# ---- sparse ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", ["sin_()", "abs_()", "asin_()", "erf_()", "log1p_()", "mul_(z2)", "sqrt_()",
                                "div_(torch.tensor(2., requires_grad=True))",
                                "mul_(torch.tensor(2., requires_grad=True))"])
def test_inplace_saves_a_clone_of_self(op):
    run(f"""
v, z = graph()
z2 = z * 2
z.{op}
fn = z.grad_fn
print(fn.name(), [type(n).__name__ for n, _ in fn.next_functions])
for k in ("_saved_self", "_saved_other", "_saved_result"):
    t = getattr(fn, k, None)
    if isinstance(t, torch.Tensor):
        print(k, t, t.grad_fn and [type(n).__name__ for n, _ in t.grad_fn.next_functions])
E(lambda: torch.sparse.sum(z).backward())
print(v.grad)
""")


def test_complex_coalesce_and_to_dense_of_infinities():
    # PyTorch adds each entry as 1·v, a complex product: the 0·inf parts are NaNs
    run("""
inf = float('inf')
for vals in ([complex(inf, 0), complex(inf, 0), 1j], [complex(inf, 1), complex(-inf, 0), 1j],
             [complex(0, inf), complex(1, inf), complex(2, 0)], [complex(-0.0, -0.0)] * 2, [complex(1, -0.0)]):
    for dtype in (torch.complex64, torch.complex128):
        s = torch.sparse_coo_tensor([[0] * len(vals)], torch.tensor(vals, dtype=dtype), (2,))
        print(s.coalesce()._values().tolist(), s.to_dense().tolist(), s.coalesce().to_dense().tolist())
""")


def test_rounded_div_of_a_detached_uncoalesced_tensor():
    # the kernel coalesces, then writes the new indices and values into the tensors s shares with its detach()
    run("""
for mode in ('trunc', 'floor', None):
    s = plain(False); d = s.detach()
    E(lambda: d.div_(2, rounding_mode=mode) if mode else d.div_(2))
    show(s); show(d)
s = plain(True); d = s.detach(); d.div_(2, rounding_mode='trunc'); show(s); show(d)
""")


def test_copy_():
    run("""
for c in (True, False):
    s = plain(c); E(lambda: show(s.copy_(plain(not c))))
    s = plain(c); E(lambda: s.copy_(torch.ones(3, 3)))
    s = plain(c); E(lambda: show(s.copy_(plain(c, torch.float64))))
E(lambda: show(plain(True, torch.int64).copy_(plain())))
E(lambda: show(plain().copy_(plain(True, torch.complex64))))
E(lambda: plain().copy_(torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.ones(2, 3), (3, 3))))
E(lambda: torch.ones(3, 3).copy_(plain()))
d = plain(); dd = d.detach(); d.copy_(plain(False)); show(d); show(dd)
leaf = plain().requires_grad_()
E(lambda: leaf.copy_(plain()))
v, z = graph()
z.copy_(plain(False)); print(z.grad_fn.name(), z.grad_fn.next_functions[1])
E(lambda: torch.sparse.sum(z).backward())
v, src = graph()
z = plain() * 1
z.copy_(src * 2); print(z.grad_fn.name(), z.grad_fn.next_functions[0])
torch.sparse.sum(z).backward(); print(v.grad)
""")


def test_floor_divide_and_fill_():
    run("""
for c in (True, False):
    s = plain(c); E(lambda: show(s.floor_divide_(2)))
    s = plain(c); E(lambda: show(s.floor_divide_(torch.tensor(2.))))
    s = plain(c); E(lambda: s.floor_divide_(plain(c)))
    s = plain(c); E(lambda: show(torch.floor_divide(s, 2)))
    s = plain(c); E(lambda: show(s.floor_divide(2)))
    s = plain(c); E(lambda: s.fill_(2))
    s = plain(c); E(lambda: s.fill_(torch.tensor(2.)))
E(lambda: torch.fill(plain(), 1))
E(lambda: torch.fill_(plain(), 1))
E(lambda: show(plain(True, torch.int64).floor_divide(2)))
E(lambda: plain(True, torch.int64).floor_divide_(2.5))
E(lambda: show(plain(True, torch.int64).floor_divide(2.5)))
E(lambda: show(plain().floor_divide(0)))
E(lambda: plain(True, torch.int64).floor_divide(0))
E(lambda: show(torch.floor_divide(plain(), 2, out=plain())))
v, z = graph()
y = torch.floor_divide(z, 2); print(y.grad_fn.name(), len(y.grad_fn.next_functions))
E(lambda: torch.sparse.sum(y).backward())
z.floor_divide_(2); print(z)
E(lambda: torch.sparse.sum(z).backward())
""")


def test_sparse_resize_and_coalesced_flag():
    run("""
for c in (True, False):
    for f in (lambda s: s.sparse_resize_((4, 4), 2, 0), lambda s: s.sparse_resize_((2, 2), 2, 0),
              lambda s: s.sparse_resize_((4, 4, 2), 2, 1), lambda s: s.sparse_resize_((4,), 1, 0),
              lambda s: s.sparse_resize_((3, 2), 2, 0), lambda s: s.sparse_resize_((4, 4), 1, 0),
              lambda s: s.sparse_resize_and_clear_((4, 4), 2, 0), lambda s: s.sparse_resize_and_clear_((4, 4, 3), 1, 2),
              lambda s: s.sparse_resize_and_clear_((2, 2), 2, 0), lambda s: s.sparse_resize_and_clear_((2, 2), 1, 0),
              lambda s: s._coalesced_(True), lambda s: s._coalesced_(False)):
        s = plain(c)
        E(lambda: show(f(s)))
    s = plain(c); print(s._coalesced_(True).coalesce()._values().tolist())
s = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.ones(2, 3), (3, 3)); E(lambda: s.sparse_resize_((4, 2), 1, 1))
empty = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (3, 3))
E(lambda: show(empty.sparse_resize_((2, 5, 4), 1, 2))); print(empty._values().shape)
for f in ("_coalesced_(True)", "sparse_resize_((2,), 1, 0)", "sparse_resize_and_clear_((2,), 1, 0)"):
    E(lambda: eval("torch.ones(2)." + f))
leaf = plain().requires_grad_()
E(lambda: leaf.sparse_resize_((4, 4), 2, 0))
E(lambda: leaf._coalesced_(False))
with torch.no_grad():
    show(leaf.sparse_resize_((4, 4), 2, 0))
for f in (lambda z: z.sparse_resize_((4, 4), 2, 0), lambda z: z._coalesced_(False),
          lambda z: z.sparse_resize_and_clear_((4, 4), 2, 0)):
    v, z = graph()
    f(z); print(z.grad_fn, z.grad_fn.name(), z.grad_fn.next_functions, z.shape, z._nnz())
    E(lambda: torch.sparse.sum(z).backward())
""")


def test_zero_transpose_sum_softmax():
    # zero_ records ZeroBackward0; transpose (t, transpose, mT) shares the version counter and marks any entries
    # uncoalesced; torch.sparse.sum over a dim refuses complex autograd; sparse softmax's dtype refusal and dtype=
    run("""
v, z = graph()
z.zero_(); print(z.grad_fn.name(), z.grad_fn.next_functions, z)
torch.sparse.sum(z).backward(); print(v.grad)
leaf = plain().requires_grad_()
E(lambda: leaf.zero_())
for n in (0, 1, 2):
    a = torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]])[:, :n], torch.ones(n), (3, 3))
    a.mul_(2)
    for b in (a.t(), a.transpose(0, 1), a.transpose(-1, 0), a.mT):
        print(n, b.is_coalesced(), b._version, b.shape, b._indices().tolist())
    b = a.t(); a.mul_(2); print(b._version, b._values().tolist())
    print(a.coalesce().t().is_coalesced(), a._coalesced_(False).t().is_coalesced())
E(lambda: torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.ones(2, 3), (3, 3)).transpose(0, 1))
v, z = graph()
y = z.transpose(1, 0); print(y.grad_fn.name(), y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)
torch.sparse.sum(y * torch.arange(9.).reshape(3, 3)).backward(); print(v.grad)
ones = torch.ones(3, dtype=torch.complex64, requires_grad=True)
c = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2], [1, 0, 2]]), ones, (3, 3))
E(lambda: torch.sparse.sum(c, 0))
E(lambda: torch.sparse.sum(c))
E(lambda: torch.sparse.sum(c.detach(), 0))
E(lambda: c.sum(0))
for s in (plain(True, torch.int64), c.detach()):
    for f in (torch.sparse.softmax, torch.sparse.log_softmax):
        E(lambda: f(s, 1))
    E(lambda: torch.sparse.softmax(s, 1, dtype=torch.float64))
""")


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
def test_sparse_softmax_bits(dtype):
    # PyTorch's sparse kernel: double accumulation, glibc's exp, sums in order; its backward in the values' dtype
    run(f"""
import random
rng = random.Random(5)
for t in range(12):
    k = rng.randint(1, 12)
    vals = torch.tensor([[rng.uniform(-3, 3) for _ in range(2)] for _ in range(k)], dtype={dtype})
    if t % 3 == 0:
        vals[0, 0] = float('-inf')
    v = vals.clone().requires_grad_()
    idx = [[rng.randrange(3) for _ in range(k)], [rng.randrange(3) for _ in range(k)]]
    s = torch.sparse_coo_tensor(idx, v, (3, 3, 2))
    for f in (torch.sparse.softmax, torch.sparse.log_softmax):
        y = f(s, t % 2)
        w = torch.linspace(-1, 2, y.numel(), dtype={dtype}).reshape(y.shape)
        g = torch.autograd.grad(torch.sparse.sum(y * w), v, retain_graph=True)[0]
        print(bits(y._values()), bits(g))
""")
