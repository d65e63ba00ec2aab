"""Session 18 fixes of torch.func differences found by the transform fuzz (tests/fuzz_transforms.py).

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_full_max_min_of_batched_complex_inside_vmap():
    # fixed (nested seed 442): vmap's batch rule for max() / min() reduces the flattened examples along a dim, so a
    # complex input gets that overload's RuntimeError ("max(): does not support complex input"), not the full
    # reduction's NotImplementedError ("max_all" not implemented); an unbatched tensor inside vmap keeps the latter
    same_output(r"""
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
a = torch.tensor([[1 + 1j, 2 - 1j]], dtype=torch.complex128)
E(lambda: a.max())
E(lambda: torch.func.vmap(lambda x: x.max())(a))
E(lambda: torch.func.vmap(lambda x: torch.min(x))(a))
E(lambda: torch.func.grad(lambda y: torch.func.vmap(lambda x: x.max().abs())(y).sum())(a))
E(lambda: torch.func.vmap(lambda x: x.real + a.max().real)(a.real))
E(lambda: torch.func.vmap(torch.func.vmap(lambda x: x.min()))(a[None]))
""")


def test_empty_reduction_dim_errors_name_the_physical_dim_inside_vmap():
    # fixed (nested seed 495): inside vmap PyTorch's batch rules for max / min / argmax / median / mode / kthvalue /
    # aminmax / amax (dim) call the op on the physical tensor, so the "Expected reduction dim d to have non-zero
    # size" error names d plus one per vmap level the input is batched at (amax's dims wrapped there)
    same_output(r"""
import torch
def E(f):
    try:
        r = f()
        print(tuple(r) if isinstance(r, tuple) else r)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
e = torch.zeros(2, 3, 0)
for f in (lambda x: x.max(-1), lambda x: torch.min(x, 1), lambda x: x.argmax(1), lambda x: x.median(-1),
          lambda x: x.nanmedian(1), lambda x: x.mode(), lambda x: x.kthvalue(1, -1), lambda x: x.aminmax(dim=1),
          lambda x: x.amax(-1), lambda x: x.amin((0, 1))):
    E(lambda: vmap(f)(e))
    E(lambda: vmap(vmap(f))(e[None]))
    E(lambda: f(e))
    E(lambda: vmap(lambda y: (y, f(e)))(torch.ones(2)))
""")


def test_full_reductions_of_empty_batched_examples_inside_vmap():
    # fixed (with nested seed 495): max() / min() / argmax() / median() / nanmedian() / aminmax() of a batched
    # input with empty examples: the batch rule reduces the flattened examples along physical dim 1 (2 under two
    # vmaps) and raises that dim's IndexError, where a plain empty tensor has its own messages (or nan); amax()
    # names the first empty physical dim; median() of complex examples is "median_out"'s dtype error
    same_output(r"""
import torch
def E(f):
    try:
        r = f()
        print(tuple(r) if isinstance(r, tuple) else r)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
for name in ("max", "min", "argmax", "argmin", "median", "nanmedian", "aminmax", "amax", "amin", "mode"):
    for t in (torch.zeros(2, 3, 0), torch.zeros(2, 0, 3)):
        E(lambda: vmap(lambda x: getattr(x, name)())(t))
        E(lambda: vmap(vmap(lambda x: getattr(x, name)()))(t[None]))
        E(lambda: getattr(t[0], name)())
c = torch.ones(2, 3, dtype=torch.complex64)
for name in ("median", "nanmedian", "argmax", "amax", "aminmax", "mode"):
    E(lambda: vmap(lambda x: getattr(x, name)())(c))
""")


def test_return_types_are_pytree_nodes_of_their_own_type():
    # fixed (with nested seed 495): torch.return_types' pairs are pytree nodes of their own type in PyTorch
    # (structseqs), so vmap, jacrev, jacfwd, vjp and grad(has_aux=True) give back torch.return_types.max ... where
    # the function returned one, and out_dims / in_dims given as a plain tuple do not match them
    same_output(r"""
import torch
def E(f):
    try:
        r = f()
        print(type(r).__name__, r)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
x = torch.arange(24.).reshape(2, 3, 4)
E(lambda: vmap(lambda x: x.max(0))(x))
E(lambda: vmap(lambda x: x.max(0), out_dims=(0, 1))(x))
E(lambda: vmap(lambda x: x.aminmax())(x))
E(lambda: vmap(lambda x: (x.sort(), x.sum()))(x))
E(lambda: vmap(lambda r: r.values + r.indices)(x.max(0)))
E(lambda: vmap(lambda r: r[0] + r[1], in_dims=((0, 1),))(x.max(0)))
E(lambda: torch.func.jacrev(lambda x: x.max(0))(x[0]))
E(lambda: torch.func.jacfwd(lambda x: x.aminmax())(x[0]))
E(lambda: torch.func.vjp(lambda x: x.max(0), x[0])[0])
E(lambda: torch.func.grad(lambda x: (x.sum(), x.max(0)), has_aux=True)(x[0]))
""")


def test_batched_empty_mask_reaches_the_index_kernel_inside_vmap():
    # fixed (nested seed 630): PyTorch's index batch rule only batches indices with elements, so a batched boolean
    # mask of empty examples is not refused as dynamic-shape indexing: it goes to the index kernel as it is, whose
    # mask shape check compares the physical mask with the physical tensor (its batch dims in front) and fails
    same_output(r"""
import torch
def E(f):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
for t in (torch.zeros(3, 0), torch.zeros(3, 2, 0), torch.zeros(3, 0, 2), torch.zeros(3, 3, 0), torch.ones(3, 2)):
    E(lambda: vmap(lambda x: x[x > 0])(t))
    E(lambda: vmap(lambda x: x[x > 0].sum())(t))
    E(lambda: vmap(vmap(lambda x: x[x > 0]))(t[None]))
    E(lambda: vmap(lambda x: x[torch.zeros(x.shape, dtype=torch.bool)])(t))
E(lambda: vmap(lambda m: torch.zeros(2, 0)[m])(torch.zeros(3, 2, 0, dtype=torch.bool)))
E(lambda: vmap(lambda x: x[:, x[0] > 0])(torch.zeros(3, 2, 0)))
E(lambda: vmap(lambda x: x[0, x[0] > 0])(torch.zeros(3, 2, 0)))
E(lambda: vmap(lambda x: x[x > 0, None])(torch.zeros(3, 2, 0)))
E(lambda: vmap(lambda x, z: x[z > 0], in_dims=(0, None))(torch.zeros(3, 0), torch.zeros(0)))
E(lambda: vmap(vmap(lambda x, z: x[z > 0]), in_dims=(0, None))(torch.zeros(3, 2, 0), torch.zeros(2, 0)))
E(lambda: vmap(vmap(lambda x, z: x[z > 0]), in_dims=(None, 0))(torch.zeros(2, 0), torch.zeros(3, 2, 0)))
""")


def test_in_place_tangent_write_of_a_batched_tangent_into_an_unbatched_one():
    # fixed (nested seed 654): an in-place op on a dual writes the new tangent into self's in place (PyTorch's
    # self_t.copy_(formula), or the op itself on self_t: masked_scatter_, index_copy_, index_put_ ...), so inside
    # vmap a batched tangent written into an unbatched one (x ** 0's tangent is zeros_like(x), the primal's) is
    # refused as the primal's write would be, named by that op's rule
    same_output(r"""
import torch
vmap, jvp = torch.func.vmap, torch.func.jvp
m = torch.tensor([True, False])
ops = {"add_": lambda v, s: v.add_(s), "mul_": lambda v, s: v.mul_(s), "copy_": lambda v, s: v.copy_(s),
       "masked_scatter_": lambda v, s: v.masked_scatter_(m, s), "addcmul_": lambda v, s: v.addcmul_(s, s),
       "index_copy_": lambda v, s: v.index_copy_(0, torch.tensor([1, 0]), s),
       "masked_fill_": lambda v, s: v.masked_fill_(m, s.sum()), "exp_": lambda v, s: v.exp_(),
       "setitem": lambda v, s: v.__setitem__(0, s[1]), "index_put_": lambda v, s: v.index_put_((torch.tensor([0]),), s[:1]),
       "scatter_": lambda v, s: v.scatter_(0, torch.tensor([1, 0]), s), "fill_": lambda v, s: v.fill_(s[0]),
       "index_fill_": lambda v, s: v.index_fill_(0, torch.tensor([1]), s[0]), "put_": lambda v, s: v.put_(torch.tensor([1, 0]), s),
       "add_view": lambda v, s: v[:1].add_(s[:1]), "copysign_": lambda v, s: v.copysign_(s)}
for start in ("a ** 0", "torch.pow(a, 0.0)", "a.sgn()", "a.div(a, rounding_mode='floor')", "a * 1", "torch.ones_like(a)"):
    for name, op in ops.items():
        def f(a):
            v = eval(start)
            op(v, a * 2)
            return v
        try:
            out = vmap(lambda t: jvp(f, (torch.ones(2),), (t,)))(torch.ones(3, 2))
            print(start, name, out[1].sum().item())
        except RuntimeError as e:
            print(start, name, 'RuntimeError', e)
""")


def test_batched_tangent_of_an_unbatched_primal_is_kept_by_jvp_inside_vmap():
    # fixed (found with nested seed 654): jvp's make_dual keeps a tangent laid out as its primal (has_same_meta)
    # and copies any other. Inside vmap PyTorch's batched tangent has no storage of its own (offset 0, its numel
    # as storage size), so it is kept: frac's / fmod's / remainder's tangent is the input's tangent itself, and an
    # in-place op on their output writes through it into the tangents the user passed, as outside vmap
    same_output(r"""
import torch
def f(a):
    v = a.frac()
    v.mul_(2)
    return v
def g(a):
    v = a.fmod(1.0)
    v.add_(a)
    return v
x = torch.ones(2)
t = torch.ones(2)
print(torch.func.jvp(f, (x,), (t,)), t)
for h in (f, g):
    ts = torch.ones(3, 2)
    print(torch.func.vmap(lambda t: torch.func.jvp(h, (x,), (t,)))(ts), ts)
    ts = torch.ones(2, 3)
    print(torch.func.vmap(lambda t: torch.func.jvp(h, (x,), (t,)), in_dims=1)(ts), ts)
    ts = torch.ones(3, 2)
    print(torch.func.vmap(lambda x, t: torch.func.jvp(h, (x,), (t,)))(ts + 0, ts), ts)
""")
