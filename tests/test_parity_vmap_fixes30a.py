"""Transform fuzz fixes of session 30 (helper a): saved outputs batched as their outputs, and other vmap / jvp fixes.

An op's outputs are marked batched (``_vmap_batched.mark``) after the op ran, but the node saved them while it ran:
the tensor a backward formula rebuilds from a saved output (log_softmax's, exp's ...) was unbatched, so the
implicit all-ones seed of ``grad`` (unbatched) beside it missed PyTorch's vmap rule for softmax and log_softmax of a
scalar, whose gradient is zeros (``vmap(grad(lambda x: F.log_softmax(x, 0)))`` of a nan example: 0, not nan;
leftover nested 12781). max() / min() / median()'s backward then met a batched result, and takes PyTorch's form for
"subclass-like" tensors under torch.func (a mask times grad / count, so 0 · inf is nan) rather than reading the
result (nested 13453). rad2deg / deg2rad write into empty_like(input), keeping an empty input's strides (nested
13467: view_as_complex of one from NumPy, strides 0, is refused), and var's degrees of freedom count the physical
tensor, which a vmap over no examples leaves without elements (nested 13631's warning). fill_ of a value batched
at the vmap copies it, as PyTorch's batch rule does: an autograd outside the vmap records copy_, whose formula gives
a real value written into a complex tensor a real gradient (nested 14220: grad of a vmap of ``v[2] = d``). Under
vmap of jvp, a BatchedTensor tangent or primal has offset 0 and passes has_same_meta's storage check, so make_dual
keeps the tangent (its dtype: complex128 for a complex64 primal; expanded, with no overlap error) where the offsets
and strides agree, and abs's real view of a one-element batched tangent is kept too (float64; nested 14691). A
real-only in-place op (logit_, erf_ ...) on a complex tensor a transform captured is refused as a captured write
before its dtype check (nested 16357), and rot90 under vmap wraps its dims as each level's example's and checks the
physical tensor (nested 16317).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
import torch.nn.functional as F
from torch.func import grad, jacfwd, jacrev, jvp, vjp, vmap
def E(f):
    try:
        r = f()
        print('ok', r if not isinstance(r, torch.Tensor) else (r.shape, r.dtype, r))
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
"""


def test_saved_output_is_batched_under_vmap_of_grad():
    # PyTorch's vmap rule for (log_)softmax's backward of a scalar example gives zeros whichever of grad and output
    # is batched; minigrad's saved output was unbatched, so with grad's unbatched seed the kernel ran: 1 - e^nan·1
    same_output(_E + r"""
x = torch.tensor([float('nan'), 1., float('inf'), -float('inf')])
for fn in (F.log_softmax, F.softmax):
    E(lambda: vmap(grad(lambda x: fn(x, 0)))(x))
    E(lambda: vmap(grad(lambda x: fn(x, -1)))(x))
    E(lambda: vmap(grad(lambda x: fn(x * 2, 0).exp()))(x))
    E(lambda: vmap(lambda x: vjp(lambda x: fn(x, 0), x)[1](torch.ones(())))(x))
    E(lambda: vmap(lambda x: vjp(lambda x: fn(x, 0), x)[1](torch.tensor(float('inf'))))(x))
    E(lambda: vmap(grad(lambda x: fn(x.reshape(1), 0).sum()))(x))   # (a 1-d example: the kernel runs)
    E(lambda: vmap(jacrev(lambda x: fn(x, 0)))(x))
    E(lambda: vmap(vmap(grad(lambda x: fn(x, 0))))(x.reshape(2, 2)))
    E(lambda: grad(lambda x: fn(x, 0))(x[0]))   # (no vmap: the kernel's nan)
""")


def test_evenly_distribute_backward_under_transforms():
    # PyTorch's evenly_distribute_backward takes its mask form for torch.func's wrapped tensors (live or dead: a
    # vjp_fn's), mask * (grad / count), where 0 · inf and 0 · nan are nan, -0 · x is -0; minigrad read the batched
    # result with bool() (vmap's .item() error) and filled zeros
    same_output(_E + r"""
b = torch.tensor([[1., 1., 0.], [2., float('nan'), 2.]])
for name in ('max', 'min', 'median', 'nanmedian'):
    fn = lambda x, name=name: getattr(x, name)()
    E(lambda: vmap(grad(fn))(b))
    for c in (float('inf'), -0.0, float('nan'), 2.):
        c = torch.tensor(c)
        E(lambda: vjp(fn, b[0])[1](c))
        E(lambda: vmap(lambda x: vjp(fn, x)[1](c))(b))
        E(lambda: vmap(lambda x, c: vjp(fn, x)[1](c), in_dims=(0, None))(b, c))
        E(lambda: jacrev(lambda x: fn(x) * c)(b[1]))
        x = b[0].clone().requires_grad_()
        fn(x).backward(c)   # (no transform: the zeros filled in)
        print(x.grad)
""")


def test_rad2deg_keeps_the_strides_of_an_empty_input():
    # PyTorch's rad2deg / deg2rad write into empty_like(input): an empty tensor from NumPy keeps its strides 0, so
    # view_as_complex of the result is refused (minigrad's result was contiguous)
    same_output(_E + r"""
import numpy as np
z = torch.tensor(np.zeros((0, 1, 2), np.float32))
for x in (z, torch.ones(2, 0, 3).transpose(0, 2), torch.tensor(np.zeros((0, 3), np.int64)), torch.ones(3, 2).t()):
    for fn in (torch.rad2deg, torch.deg2rad, torch.Tensor.rad2deg):
        print(fn(x).stride(), fn(x).dtype)
E(lambda: torch.view_as_complex(z.rad2deg()))
E(lambda: torch.view_as_complex(z.deg2rad()))
E(lambda: torch.view_as_complex(z.sin()))
E(lambda: vjp(lambda z: torch.view_as_complex(z.rad2deg()), z)[0])
""")


def test_var_over_no_examples_warns_of_its_degrees_of_freedom():
    # PyTorch's var batch rule reduces the physical tensor, which has no elements under a vmap over no examples:
    # a reduction factor of 0, so the degrees-of-freedom warning, whatever the example's size
    same_output(_E + r"""
import warnings
def W(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        E(f)
    print([str(x.message)[:60] for x in w])
e = torch.zeros(0, 2, 3)
W(lambda: vmap(lambda a: torch.var(a, -2, correction=0))(e))
W(lambda: vmap(lambda a: torch.var_mean(a, -2, correction=1)[0])(e))
W(lambda: vmap(lambda a: torch.std_mean(a, 0, correction=0)[1])(e))
W(lambda: vmap(lambda a: torch.std(a))(e))
W(lambda: vmap(vmap(lambda a: torch.var(a, 0)), in_dims=1)(torch.zeros(3, 0, 2)))
W(lambda: vmap(lambda a: torch.var(a, -2, correction=0))(torch.zeros(2, 2, 3)))   # (examples: no warning)
W(lambda: vmap(lambda a: torch.var(a, -2, correction=0))(torch.zeros(2, 0, 3)))   # (empty examples: a warning)
""")


def test_fill_of_a_batched_value_is_a_copy():
    # PyTorch's fill_ batch rule copies a batched value (copy_), so grad outside the vmap differentiates copy_: a real
    # value written into a complex tensor gets a real gradient; FillBackward (grad inside the vmap, or no vmap) sums
    # the complex gradient, which the engine refuses for a real input
    same_output(_E + r"""
A = torch.ones(3, 3, 1, 2, dtype=torch.complex128) * (1 + 1j)
d = torch.tensor(0.5, dtype=torch.float64)
D3 = torch.stack([d, d * 2, d * 3])
def f(a, d):
    v = a * 2
    v[2] = d
    return torch.view_as_real(v)
def g(a, d):
    return (a * 2).fill_(d).abs()
for fn in (f, g):
    E(lambda: grad(lambda a, d: vmap(fn)(a, d).sum(), argnums=(0, 1))(A, D3))
    E(lambda: grad(lambda a, d: vmap(fn, in_dims=(0, None))(a, d).sum(), argnums=(0, 1))(A, d))   # (unbatched d)
    E(lambda: grad(lambda a, d: vmap(fn, in_dims=(None, 0))(a, d).sum(), argnums=(1,))(A[0], D3))
    E(lambda: vmap(grad(lambda a, d: fn(a, d).sum(), argnums=(1,)))(A, D3))   # (grad inside: FillBackward)
    E(lambda: grad(lambda a, d: fn(a, d).sum(), argnums=(1,))(A[0], d))
    x = D3.clone().requires_grad_()
    E(lambda: torch.autograd.grad(vmap(fn, in_dims=(None, 0))(A[0] * 1, x).sum(), x))
    E(lambda: jvp(lambda d: vmap(fn)(A, d), (D3,), (torch.ones(3, dtype=torch.float64),)))
E(lambda: vmap(lambda a, d: torch.ones(2).fill_(d), in_dims=(0, 0))(A, D3))   # (an unbatched self: refused)
""")


def test_jvp_under_vmap_keeps_batched_tangents():
    # PyTorch's set_fw_grad copies a tangent into the primal's layout and dtype unless has_same_meta holds, which a
    # BatchedTensor (offset 0, its storage size check passed) meets wherever offsets and strides agree: x * 1 keeps a
    # complex128 tangent of a complex64 view P[0] (offset 0), not of P[1]; abs's real view, twice the output's
    # strides, is kept for one element only (the fuzz's c * (1 + 0.5j) of a 0-d c: float64)
    same_output(_E + r"""
P = torch.ones(3, 4, dtype=torch.complex64) * (1 + 1j)
for p in (P[0, 0], P[1, 1], P[0], P[1], P[:, 0], P.t(), P[:2], P[1:], P[0, :1].expand(3), P[0, :1]):
    T = torch.ones((5,) + tuple(p.shape), dtype=torch.complex128)
    for f in (lambda x: x * 1, torch.abs, torch.angle, torch.sin):
        E(lambda: vmap(lambda t: jvp(f, (p,), (t,))[1])(T).dtype)
    E(lambda: vmap(lambda t: jvp(torch.abs, (p,), (t.expand(p.shape),))[1])(T[:, :1] if p.dim() else T).dtype)
z = torch.tensor([0.7 + 0.2j, -1j])
Z = torch.ones(3, 2, dtype=torch.complex128)
E(lambda: vmap(vmap(lambda t: jvp(torch.abs, (z[0],), (t,))[1]))(Z).dtype)
E(lambda: vmap(lambda t: vmap(lambda p: jvp(torch.abs, (p,), (t,))[1])(z))(Z[:, 0]).dtype)   # (a batched primal)
E(lambda: jvp(vmap(torch.abs), (z.expand(3, 2).clone(),), (Z,))[1].dtype)   # (jvp outside: the view copied)
E(lambda: jvp(torch.abs, (z,), (Z[0],))[1].dtype)
c = torch.tensor(0.7)
E(lambda: vmap(lambda t: jvp(lambda c: (c * (1 + 0.5j)).abs(), (c,), (t,)))(torch.tensor([1., 2., 3.])))
E(lambda: vmap(lambda t: jvp(lambda c: (c * (1 + 0.5j)).abs(), (c.expand(2),), (t.expand(2),)))(torch.ones(3)))
""")


def test_real_only_inplace_op_on_a_captured_complex_tensor():
    # functorch refuses writing a captured tensor before the kernel is looked up for its dtype (deg2rad_'s own
    # complex check too); under vmap alone the dtype error stays
    same_output(_E + r"""
b = torch.ones(2, dtype=torch.complex64)
a = torch.ones(2)
for name in ("logit_", "erf_", "erfc_", "erfinv_", "i0_", "lgamma_", "digamma_", "deg2rad_", "rad2deg_"):
    E(lambda: jvp(lambda a: (getattr(b, name)(), a * 2)[1], (a,), (a,)))
    E(lambda: grad(lambda a: (getattr(b, name)(), (a * 2).sum())[1])(a))
    E(lambda: vmap(lambda a: (getattr(b, name)(), a * 2)[1])(a))
    E(lambda: grad(lambda a: (getattr(b.expand(2, 2), name)(), (a * 2).sum())[1])(a))
""")


def test_rot90_under_vmap_names_physical_dims():
    # PyTorch's rot90 batch rule wraps dims against the example's rank, moves them past the batch dim and runs
    # rot90 on the physical tensor, whose checks then name its rank and dims
    same_output(_E + r"""
E(lambda: vmap(lambda x: torch.rot90(x, -1, (0, -1)))(torch.ones(3)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (0, 1)))(torch.ones(3)))
E(lambda: vmap(lambda x: torch.rot90(x))(torch.ones(3, 2)))
E(lambda: vmap(vmap(lambda x: torch.rot90(x, 1, (0, -1))))(torch.ones(3, 2)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (0, 1)), in_dims=1)(torch.ones(3, 2)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (0, 2)))(torch.ones(3, 2, 2)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (0, 0)))(torch.ones(3, 2, 2)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (1, -1)))(torch.ones(3, 2, 2)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (0,)))(torch.ones(3, 2, 2)))
E(lambda: vmap(lambda x: torch.rot90(x, 1, (1, 0)))(torch.arange(12.).view(3, 2, 2)))
E(lambda: grad(lambda x: vmap(lambda x: torch.rot90(x, 1, (0, -1)))(x).sum())(torch.ones(3)))
E(lambda: torch.rot90(torch.ones(()), 1, (0, -1)))
""")
