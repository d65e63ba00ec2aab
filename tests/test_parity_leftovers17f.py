"""Session 17 leftovers (f): reductions to a lower dtype (``mean(x, dtype=torch.float16)``), forward-mode AD of
fmod/remainder and of conj-bit duals, NumPy-shared storage under resize_ and out=, complex ``z ** 2``/``z ** 3``.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import fresh_warn_once, same_as_torch

# Values float16 rounds to 1 and 1 + 2**-10: their mean rounds one way when each is rounded first, another when not.
_HALF_EDGE = "base = torch.tensor([1.0004, 1.0011] * 8, dtype=torch.float64)\n"


def test_mean_to_half_dtype_sums_in_float32():
    # PyTorch's mean_out sums in float32 (input cast to float32, not to the half dtype), then rounds the mean
    same_as_torch(_HALF_EDGE + """
for src in (base, base.float(), base.view(4, 4), base.float().view(4, 4).t(), torch.tensor([2049, 2050, 2049, 2050])):
    for dt in (torch.float16, torch.bfloat16):
        print(src.dtype, dt, torch.mean(src, dtype=dt).item(), src.mean(0, dtype=dt).tolist(),
              torch.mean(src, [], dtype=dt).item())
x = base.float().requires_grad_()
y = torch.mean(x, dtype=torch.float16)
print(y, y.grad_fn.name())
y.backward()
print(x.grad.dtype, x.grad[:3].tolist())
o = torch.empty((), dtype=torch.float16)
E(lambda: print(torch.mean(base, 0, dtype=torch.float16, out=o), o))
""")


def test_other_reductions_to_half_dtype_cast_first():
    # sum/nansum/prod/cumsum/cumprod/nanmean cast the input to the dtype first (guards the mean-only change)
    same_as_torch(_HALF_EDGE + """
for src in (base, base.float(), torch.tensor([2049, 2050, 2049, 2050]), base.to(torch.bfloat16)):
    for dt in (torch.float16, torch.bfloat16):
        print(src.dtype, dt, torch.prod(src, dtype=dt).item(), torch.cumsum(src, 0, dtype=dt)[-3:].tolist(),
              torch.cumprod(src, 0, dtype=dt)[-3:].tolist(), torch.nansum(src, dtype=dt).item(),
              torch.sum(src * 1000, dtype=dt).item(), torch.sum(src, 0, dtype=dt).item(),
              torch.mean(src, dtype=dt).item())
        if src.dtype.is_floating_point:
            print(' nanmean', torch.nanmean(src, dtype=dt).item())
for name in ("sum", "mean", "prod", "cumsum", "cumprod", "nansum", "nanmean"):
    x = base.float().requires_grad_()
    f = getattr(torch, name)
    y = f(x, 0, dtype=torch.float16) if name.startswith("cum") else f(x, dtype=torch.float16)
    y.sum().backward()
    print(name, y.grad_fn.name(), x.grad.dtype, x.grad[:2].tolist())
""")


# ---- forward-mode AD ---------------------------------------------------------------------------------------------

_WALK = """
import itertools
import torch.autograd.forward_ad as fwAD
def walk(root):
    order, seen, queue = [], set(), [root]
    while queue:
        n = queue.pop(0)
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        order.append(type(n).__name__)
        queue += [m for m, _ in n.next_functions]
    return order
"""


def test_fmod_remainder_tangent_is_pytorchs_formula():
    # result: self_t - other_t * self_p.div(other_p, rounding_mode): a SubBackward0 on top of the tangent's graph,
    # with every node recorded even for a missing (ZeroTensor) tangent, whose values ZeroTensor arithmetic sets
    same_as_torch(_WALK + """
a0 = torch.tensor([5.5, -7.25, 3.0, -2.5], dtype=torch.float64)
b0 = torch.tensor([2.0, 3.0, -1.5, -0.75], dtype=torch.float64)
ta0 = torch.tensor([1.0, -0.0, 3.0, 4.0], dtype=torch.float64)
tb0 = torch.tensor([0.5, 0.0, 2.0, 3.0], dtype=torch.float64)
for fn in (torch.fmod, torch.remainder):
    for pa, pb, rta, rtb, da, db in itertools.product([0, 1], repeat=6):
        if not (da or db) or (rta and not da) or (rtb and not db):
            continue
        with fwAD.dual_level():
            a = a0.clone().requires_grad_(bool(pa)); b = b0.clone().requires_grad_(bool(pb))
            ta = ta0.clone().requires_grad_(bool(rta)); tb = tb0.clone().requires_grad_(bool(rtb))
            p, t = fwAD.unpack_dual(fn(fwAD.make_dual(a, ta) if da else a, fwAD.make_dual(b, tb) if db else b))
            line = [fn.__name__, pa, pb, rta, rtb, da, db, p.requires_grad, t.requires_grad,
                    [str(v) for v in t.tolist()]]
            if t.grad_fn is not None:
                line.append(walk(t.grad_fn))
                leaves = [v for v in (a, b, ta, tb) if v.requires_grad]
                line.append(torch.autograd.grad(t.sum(), leaves))
            print(*line)
# zeros, nan and inf: x - 0·q would give nan where the missing tangent's ZeroTensor gives x_t; -1·(+0) is -0
a = torch.tensor([5.5, -7.25, 3.0, -2.5, 1.0, -0.0], dtype=torch.float64)
b = torch.tensor([2.0, 0.0, -1.5, -0.75, float('inf'), 3.0], dtype=torch.float64)
ta = torch.tensor([-0.0, 2.0, -0.0, 0.0, float('nan'), -0.0], dtype=torch.float64).requires_grad_()
tb = torch.tensor([0.0, -1.0, -0.0, 0.0, 1.0, 0.0], dtype=torch.float64).requires_grad_()
with fwAD.dual_level():
    for fn in (torch.fmod, torch.remainder):
        for x, y in ((fwAD.make_dual(a, ta), b), (a, fwAD.make_dual(b, tb)), (fwAD.make_dual(a, ta), b.float()),
                     (fwAD.make_dual(a, ta), torch.tensor([0.0], dtype=torch.float64)),
                     (a.float(), fwAD.make_dual(b, tb)), (fwAD.make_dual(a, ta), torch.tensor([2, 0, 3, -1, 5, 4]))):
            t = fwAD.unpack_dual(fn(x, y)).tangent
            print(fn.__name__, t.dtype, t.grad_fn.name(), [str(v) for v in t.tolist()])
""")


def test_make_dual_conj_bit_tangents():
    # set_fw_grad keeps a tangent laid out as the primal, conjugate bit included; else it copies it into zeros with
    # the primal's layout, dtype and conjugate bit (a conj view primal gets an is_conj() tangent of the same values)
    with fresh_warn_once():   # (copy_'s complex-to-real warning is given once per process)
        _make_dual_conj_program()


def _make_dual_conj_program():
    same_as_torch(_WALK + """
import warnings
z = torch.tensor([1 + 2j, -3 + 0.5j, 0 - 1j])
w = torch.tensor([0.5 - 1j, 2 + 0j, -1 + 3j])
r = torch.tensor([1.0, -2.0, 3.0])
def show(d, t):
    u = fwAD.unpack_dual(d)
    print(u.tangent.dtype, u.tangent.is_conj(), u.tangent.stride(), u.tangent is t, u.tangent.tolist(),
          u.primal.is_conj())
    v = fwAD.unpack_dual(d.conj()).tangent
    print('  conj', v.is_conj(), v.tolist(), fwAD.unpack_dual(d * 2).tangent.is_conj(),
          fwAD.unpack_dual(d.sum()).tangent)
with fwAD.dual_level():
    for p, t in ((z.conj(), w), (z, w.conj()), (z.conj(), w.conj()), (z.conj(), w.to(torch.complex128)),
                 (z.conj(), w.to(torch.complex128).conj()), (z.conj(), torch.ones(3)), (z, torch.ones(3, 2)[:, 0]),
                 (r, torch.ones(3, 2, dtype=torch.float64)[:, 0]), (r, torch.ones(3, dtype=torch.float64)),
                 (r, torch.ones(3)), (r, torch.tensor([1j, 2 + 1j, 3]).conj()), (z.conj()[::2], torch.tensor([1j, 3])),
                 (z.conj()[::2], torch.tensor([1j, 5, 3]).conj()[::2]),
                 (z.conj().view(3, 1), torch.tensor([[1j], [5], [3]]).conj()),
                 (z.conj().expand(2, 3), torch.tensor([1j, 5, 3]).conj().expand(2, 3))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            E(lambda: show(fwAD.make_dual(p, t), t))
        print(' warned', [str(x.message)[:48] for x in caught if "Casting" in str(x.message)])
""")


def test_conj_bit_tangent_of_leaves_backward():
    # leaves whose tangents are (or become) conj-bit tensors: the tangent's graph (CopyBackwards of the copy, mul's
    # ``other_t * self_p + self_t * other_p`` with no conj round trip) and the leaves' grads
    same_as_torch(_WALK + """
z = torch.tensor([1 + 2j, -3 + 0.5j, 0 - 1j])
w = torch.tensor([0.5 - 1j, 2 + 0j, -1 + 3j])
for case in range(6):
    with fwAD.dual_level():
        zl = z.clone().requires_grad_()
        tl = w.clone().requires_grad_()
        primal = zl if case == 2 else zl.conj() if case < 2 else z.conj()
        tangent = tl.conj() if case in (1, 2, 4) else tl.conj() * 1 if case == 5 else tl
        d = fwAD.make_dual(primal, tangent)
        u = fwAD.unpack_dual(d)
        print(case, u.tangent.is_conj(), u.tangent.requires_grad, walk(u.tangent.grad_fn), u.tangent.tolist())
        out = (d * d).sum() if case % 2 else (d * torch.tensor([1 + 1j, 2, 3j])).sum()
        p, t = fwAD.unpack_dual(out)
        print("  out", p, t, t.is_conj(), walk(t.grad_fn))
        t.real.backward(retain_graph=True)
        print("  tl.grad", tl.grad, "zl.grad", zl.grad is None or zl.grad.abs().sum())
        if case in (1, 3, 4, 5):   # (cases 0 and 2: zl.grad is a ZeroTensor in PyTorch, which a 2nd backward refuses)
            t.abs().backward()
            print("  tl.grad", tl.grad, "zl.grad", zl.grad)
""")


# ---- NumPy-shared storage ----------------------------------------------------------------------------------------
# (PyTorch sets a failed resize's new sizes before refusing to grow the storage: the tensor is then unreadable, so
# the programs never print a tensor whose resize failed)

def test_numpy_of_an_alias_stops_resizing():
    # numpy() makes the storage not resizable: t.detach().numpy() stops t (and its views, its other aliases) growing
    same_as_torch("""
t = torch.tensor([1.0, 2.0, 3.0])
n = t.detach().numpy()
E(lambda: t.resize_(5))
E(lambda: t.detach().resize_(4))
E(lambda: t[:2].resize_(4))
E(lambda: t.resize_(2))
print(t, n)
v = torch.tensor([1.0, 2.0])
v.view(2).numpy()
E(lambda: v.resize_(3))
w = torch.tensor([1.0, 2.0])
w.detach().numpy()
E(lambda: torch.cat([v, w], out=w.detach()))
y = torch.zeros(3)
y.numpy()
E(lambda: y.resize_as_(torch.zeros(6)))
""")


def test_out_into_numpy_shared_tensor():
    # out= resizes its tensor in place (resize_output): a shrink keeps the storage, so NumPy sees what the op
    # writes; growing a storage from NumPy is refused
    same_as_torch("""
import numpy as np
import warnings
warnings.simplefilter("ignore")
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0, 4.0])
for name, f in (("add", lambda o: torch.add(a, b, out=o)), ("sum", lambda o: torch.sum(torch.ones(3, 2), 0, out=o)),
                ("cat", lambda o: torch.cat([a, b], out=o)),
                ("matmul", lambda o: torch.matmul(torch.ones(2, 3), torch.ones(3), out=o)),
                ("bernoulli", lambda o: torch.bernoulli(torch.ones(2), out=o)),
                ("zeros", lambda o: torch.zeros(2, out=o)),
                ("arange", lambda o: torch.arange(2.0, out=o)),
                ("mean", lambda o: torch.mean(torch.ones(2, 3), 1, out=o)),
                ("exp", lambda o: torch.exp(a, out=o)), ("where", lambda o: torch.where(a > 1, a, b, out=o)),
                ("clamp", lambda o: torch.clamp(a, 0, 1.5, out=o))):
    for n in (0, 1, 3, 5):
        arr = np.zeros(n, dtype=np.float32)
        o = torch.from_numpy(arr)
        E(lambda: (f(o), print(" ", name, n, arr, o.shape, o._version)))
arr = np.zeros(3, dtype=np.float32)
o = torch.from_numpy(arr)
torch.add(a, b, out=o)
arr[0] = 100
print(o, arr)
z = torch.zeros(4)
zn = z.numpy()
torch.mul(a, b, out=z)
print(z, zn)
""")


# ---- complex z ** 2, z ** 3 --------------------------------------------------------------------------------------

def test_complex_square_and_cube_bits():
    # PyTorch's pow(z, 2 or 3) kernel is z·z and z·z·z: vector blocks plain, the scalar tail fused, except complex64's
    # second product, fused on the tail's runs of 4 only (a strided loop: all tail); a dense transposed base is one
    # loop in memory order; 2+0j and 3+0j are the same kernels (Scalar::equal(2.0))
    same_as_torch("""
import hashlib
import numpy as np
g = np.random.default_rng(0)
def h(t):
    a = np.ascontiguousarray(t.detach().numpy())
    return hashlib.md5(a.view(np.uint32 if a.dtype == np.complex64 else np.uint64).tobytes()).hexdigest()[:10]
for dt in (torch.complex64, torch.complex128):
    for n in (1, 3, 5, 7, 8, 9, 12, 15, 17, 20, 23, 33, 100, 1000, 40000):
        z = torch.complex(torch.tensor(g.standard_normal(n) * 10.0 ** g.integers(-20, 20, n)),
                          torch.tensor(g.standard_normal(n) * 10.0 ** g.integers(-20, 20, n))).to(dt)
        print(dt, n, [h(r) for r in (z ** 2, z ** 3, z ** 2.0, z ** 3.0, z ** (2 + 0j), z ** (3 + 0j), torch.pow(z, 3),
                                     z.clone().pow_(3), z.conj() ** 3, z[::2] ** 2, z[::2] ** 3)])
        if n % 2 == 0:   # (a transposed base: one loop in memory order)
            m = z.view(2, -1).t()
            print(' t', h(m ** 2), h(m ** 3))
""")
