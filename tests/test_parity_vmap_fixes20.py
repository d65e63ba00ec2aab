"""Session 20 fixes of vmap differences: what a batched tensor tells of its autograd state, batched boolean masks
in index_put and x[mask] = v, and the batch rules' physical shapes and dims in reshape / view, reduction dims,
vector_norm over empty dims and convolution channel errors.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked). PyTorch runs the vmapped function once,
minigrad once per example: a program records what the function sees and prints the first record.
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_batched_tensors_have_no_autograd_state_inside_vmap():
    # PyTorch's BatchedTensor is a wrapper without autograd metadata: inside vmap a batched tensor (a slice, or what
    # is computed from one) says requires_grad False, grad_fn None, is_leaf True, even when the input or a captured
    # tensor requires grad. A grad transform inside the vmap wraps it again: requires_grad True there, and its
    # input a leaf at its level (minigrad's stand-in for an input that requires grad outside is a view of it)
    same_output(r"""
import torch
vmap, grad = torch.func.vmap, torch.func.grad
w = torch.ones(3, requires_grad=True)
x = torch.ones(2, 3, requires_grad=True)
seen = []
def f(r):
    seen.append((r.requires_grad, r.grad_fn, r.is_leaf, (r * w).requires_grad, (r * w).grad_fn, (r * w).is_leaf,
                 (r * 2).requires_grad))
    return (r * w).sum()
for call in (lambda: vmap(f)(torch.ones(2, 3)), lambda: vmap(f)(x), lambda: vmap(f)(x * 2),
             lambda: vmap(vmap(f))(x[None] * 2), lambda: vmap(f, in_dims=1)(x.t()),
             lambda: vmap(grad(f))(torch.ones(2, 3)), lambda: vmap(lambda r: grad(f)(r))(x)):
    seen.clear()
    call()
    print(seen[0])
y = vmap(f)(x)
print(y.requires_grad, y.grad_fn is not None)
""")


def test_autograd_grad_refuses_batched_roots_and_inputs_inside_vmap():
    # PyTorch: torch.autograd.grad inside vmap sees a batched output as a tensor that neither requires grad nor has
    # a grad_fn, and a batched input as one that does not require grad; unbatched ones differentiate as usual
    same_output(r"""
import torch
vmap = torch.func.vmap
w = torch.ones(3, requires_grad=True)
x = torch.ones(2, 3, requires_grad=True)
seen = []
def f(r):
    row = []
    for call in (lambda: torch.autograd.grad((r * w).sum(), w), lambda: torch.autograd.grad((w * 2).sum(), r),
                 lambda: torch.autograd.grad((w * 2).sum(), w), lambda: torch.autograd.grad((r * w).sum(), r),
                 lambda: torch.autograd.grad([(w * 3).sum(), (r * w).sum()], w)):
        try:
            row.append(call())
        except RuntimeError as e:
            row.append(str(e))
    seen.append(row)
    return r
vmap(f)(x)
print(seen[0])
seen.clear()
vmap(f)(torch.ones(2, 3))
print(seen[0])
print(torch.func.vmap(lambda r: torch.func.grad(lambda y: (y * w).sum())(r))(x).detach())
""")


def test_index_put_with_a_batched_boolean_mask_inside_vmap():
    # PyTorch's index_put batch rule refuses a batched mask with elements (dynamic shape); an empty one goes on to
    # the kernel's mask shape check, with the rule's batch index in front of self (batched with its indices, so even
    # an unbatched self) and the batch dim in front of the mask: sizes that fit per example do not fit there. Under
    # nested vmaps the innermost level that batches anything runs the rule (a mask batched only outside it reaches
    # the outer level as nonzero's indices: refused as a dynamic shape). x[mask] = v goes the same way.
    same_output(r"""
import torch
def E(f):
    try:
        r = f()
        print(r.shape if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(type(e).__name__, e)
vmap, B = torch.func.vmap, torch.bool
one = torch.tensor(1.)
E(lambda: vmap(lambda x, k: x.index_put((k,), one))(torch.zeros(2, 0), torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda x, k: x.index_put_((k,), one))(torch.zeros(2, 0), torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda x, k: torch.index_put(x, (k,), one, accumulate=True))(torch.zeros(2, 3, 0), torch.zeros(2, 3, 0, dtype=B)))
E(lambda: vmap(lambda x, k: x.index_put((k,), one))(torch.zeros(2, 0, 3), torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda x, k: x.index_put((torch.tensor([0]), k), one))(torch.zeros(2, 3, 0), torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda k: torch.zeros(0).index_put((k,), one))(torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda k, v: torch.zeros(0).index_put((k,), v))(torch.zeros(2, 0, dtype=B), torch.ones(2)))
E(lambda: vmap(lambda x, v: x.index_put((torch.zeros(0, dtype=B),), v))(torch.zeros(2, 0), torch.ones(2)))
E(lambda: vmap(lambda x, k: x.index_put((k,), one))(torch.zeros(2, 3), torch.zeros(2, 3, dtype=B)))
E(lambda: vmap(lambda x, k: x.index_put((k,), torch.tensor([1.])))(torch.zeros(2, 3), torch.zeros(2, 3, dtype=B)))
E(lambda: vmap(vmap(lambda x, k: x.index_put((k,), one)))(torch.zeros(3, 2, 0), torch.zeros(3, 2, 0, dtype=B)))
E(lambda: vmap(vmap(lambda x, k: x.index_put((k,), one)), in_dims=(None, 0))(torch.zeros(2, 0), torch.zeros(3, 2, 0, dtype=B)))
E(lambda: vmap(vmap(lambda x, k: x.index_put((k,), one), in_dims=(0, None)))(torch.zeros(3, 2, 0), torch.zeros(3, 0, dtype=B)))
E(lambda: vmap(vmap(lambda x, k: x.index_put((k,), one), in_dims=(None, 0)))(torch.zeros(3, 0), torch.zeros(3, 2, 0, dtype=B)))
def put(x, k, v):
    x = x.clone()
    x[k] = v
    return x
E(lambda: vmap(put, in_dims=(0, 0, None))(torch.zeros(2, 3, 0), torch.zeros(2, 3, 0, dtype=B), 1.))
E(lambda: vmap(put, in_dims=(0, 0, None))(torch.zeros(2, 3, 0), torch.zeros(2, 3, 0, dtype=B), torch.ones(1)))
E(lambda: vmap(put, in_dims=(0, 0, None))(torch.zeros(2, 3), torch.zeros(2, 3, dtype=B), 1.))
E(lambda: vmap(put, in_dims=(0, None, None))(torch.zeros(2, 3), torch.zeros(3, dtype=B), 1.))
s = torch.zeros(3)   # (unbatched, written in place: the rule's in-place refusal comes first)
E(lambda: vmap(lambda k: s.index_put_((k,), one))(torch.zeros(2, 3, dtype=B)))
E(lambda: vmap(lambda k: s.index_put_((k,), one))(torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda k: s.__setitem__(k, 1.))(torch.zeros(2, 0, dtype=B)))
E(lambda: vmap(lambda k: s.index_put((k,), one))(torch.zeros(2, 3, dtype=B)))
""")


def test_view_and_reshape_size_errors_name_the_physical_shape_inside_vmap():
    # PyTorch's view batch rule views the physical tensor: the error's shape has the batch sizes in front (outermost
    # first) and its size counts every example; reshape goes through it for a contiguous example only (another
    # example is copied first, and the error is the example's own)
    same_output(r"""
import torch
def E(f):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
x = torch.ones(2, 3, 4)
for fn in ("reshape", "view"):
    for d in (0, 1, 2):
        E(lambda: vmap(lambda r: getattr(r, fn)(5), in_dims=d)(x))
        E(lambda: vmap(lambda r: getattr(r, fn)(-1, 5), in_dims=d)(x))
    E(lambda: vmap(lambda r: getattr(r * 2, fn)(5))(x))
    E(lambda: vmap(lambda r: getattr(r.t(), fn)(5))(x))
    E(lambda: vmap(vmap(lambda r: getattr(r, fn)(5)))(x))
    E(lambda: vmap(vmap(lambda r: getattr(r, fn)(5)), in_dims=1)(x))
    E(lambda: vmap(vmap(lambda r: getattr(r, fn)(-1, 3)))(x))
    E(lambda: vmap(lambda r: getattr(r, fn)(-1, -1))(x))
    E(lambda: vmap(lambda r: getattr(r, fn)(2, 6))(x))
E(lambda: vmap(lambda r: torch.reshape(r, (5,)))(x))
E(lambda: vmap(lambda r: r.view_as(torch.ones(5)))(x))
E(lambda: vmap(lambda r: r.reshape_as(torch.ones(5)))(x))
E(lambda: vmap(lambda r: x.view(5) + r)(torch.ones(2)))
""")


def test_repeated_reduction_dims_name_the_physical_dim_inside_vmap():
    # PyTorch's reduction batch rules wrap the dims on the physical tensor: a repeated dim is named plus one per
    # vmap level the input is batched at
    same_output(r"""
import torch
def E(f):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
x = torch.ones(2, 3, 4)
for f in (lambda r: r.sum((0, 0)), lambda r: r.mean((0, -2)), lambda r: r.amax((0, 0)), lambda r: r.amin((1, 1)),
          lambda r: r.std((0, 0)), lambda r: r.var((0, 0)), lambda r: r.logsumexp((0, 0)), lambda r: r.nansum((0, 0)),
          lambda r: r.norm(dim=(0, 0)), lambda r: torch.linalg.vector_norm(r, dim=(1, -1)),
          lambda r: r.count_nonzero((0, 0)), lambda r: r.flip((0, 0)), lambda r: r.sum((0, 0), keepdim=True)):
    E(lambda: vmap(f)(x))
    E(lambda: vmap(vmap(f))(x[None]))
    E(lambda: f(x[0]))
""")


def test_vector_norm_over_an_empty_dim_names_the_physical_dim_inside_vmap():
    # PyTorch: the inf / -inf / negative norms have no identity; inside vmap the batch rule reduces the physical
    # tensor, so the error names the empty dim plus the batch dims, even for a full reduction (whose plain error
    # speaks of "an empty tensor")
    same_output(r"""
import torch
def E(f):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
e = torch.ones(2, 3, 0)
for o in (-1, float('inf'), -float('inf'), -0.5):
    E(lambda: vmap(lambda r: torch.linalg.vector_norm(r, ord=o, dim=1))(e))
    E(lambda: vmap(lambda r: torch.linalg.vector_norm(r, ord=o, dim=(0, -1)))(e))
    E(lambda: vmap(lambda r: torch.linalg.vector_norm(r, ord=o))(e))
    E(lambda: vmap(vmap(lambda r: torch.linalg.vector_norm(r, ord=o)))(e))
    E(lambda: vmap(vmap(lambda r: torch.linalg.vector_norm(r, ord=o, dim=0)))(e))
    E(lambda: vmap(lambda r: r.norm(p=o, dim=1))(e))
    E(lambda: vmap(lambda r: torch.linalg.vector_norm(r, ord=o), in_dims=1)(torch.ones(3, 2, 0)))
    E(lambda: vmap(lambda r: torch.linalg.vector_norm(e[0], ord=o) + r)(torch.ones(2)))
""")


def test_convolution_channel_errors_name_the_batch_rules_shapes_inside_vmap():
    # PyTorch's convolution batch rule folds the batch into the samples of a batched input ([B*N, C, ...]), into
    # the output channels of a batched weight ([B*O, ...]), and both batched into a grouped convolution
    # ([N, B*C, ...], groups*B): its channel check names those shapes (the kernel-size check speaks per channel)
    same_output(r"""
import torch
def E(f):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
vmap, F = torch.func.vmap, torch.nn.functional
w = torch.ones(2, 3, 3)
W = w[None].expand(2, 2, 3, 3)
E(lambda: vmap(lambda r: F.conv1d(r, w))(torch.ones(2, 4, 5)))
E(lambda: vmap(lambda r: F.conv1d(r, w))(torch.ones(2, 1, 4, 5)))
E(lambda: vmap(lambda r: F.conv1d(r, w))(torch.ones(2, 3, 2)))
E(lambda: vmap(lambda r: F.conv2d(r, torch.ones(2, 3, 3, 3)))(torch.ones(2, 1, 4, 5, 5)))
E(lambda: vmap(lambda ww: F.conv1d(torch.ones(1, 4, 5), ww))(W))
E(lambda: vmap(F.conv1d)(torch.ones(2, 1, 4, 5), W))
E(lambda: vmap(lambda r, ww: F.conv1d(r, ww))(torch.ones(2, 4, 5), W))
E(lambda: vmap(vmap(lambda r: F.conv1d(r, w)))(torch.ones(3, 2, 4, 5)))
E(lambda: vmap(lambda r: F.conv1d(r, torch.ones(4, 1, 3), groups=2))(torch.ones(2, 1, 3, 5)))
E(lambda: vmap(lambda r: F.conv_transpose1d(r, w))(torch.ones(2, 1, 4, 5)))
E(lambda: vmap(lambda r: F.conv1d(r, w))(torch.ones(2, 1, 3, 5)))
""")


def test_grad_transform_input_is_a_leaf_to_the_function():
    # PyTorch wraps grad's / vjp's inputs at the transform's level: the function sees a leaf (no grad_fn) even when
    # the caller's tensor has a history or requires grad outside (minigrad's stand-in is a view that keeps the link)
    same_output(r"""
import torch
grad = torch.func.grad
x = torch.ones(3, requires_grad=True)
seen = []
def f(y):
    seen.append((y.grad_fn, y.is_leaf, y.requires_grad, (y * 2).is_leaf))
    return (y * y).sum()
for arg in (torch.ones(3), x, x * 2):
    seen.clear()
    g = grad(f)(arg)
    print(seen[0], g.grad_fn is not None)
seen.clear()
out, fn = torch.func.vjp(f, x * 3)
print(seen[0], out.grad_fn is not None, fn(torch.tensor(1.))[0].grad_fn is not None)
""")


def test_as_strided_reads_each_example_from_its_own_start_inside_vmap():
    # PyTorch's as_strided batch rule views the physical tensor: example i starts its storage_offset at i times the
    # batch dim's stride (a loop's slice would read the first example's memory); a view that reaches outside the
    # example is refused, and negative strides are named with the physical batch strides in front
    same_output(r"""
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
bb = torch.arange(24., dtype=torch.float64).view(3, 2, 2, 2) / 10
E(lambda: vmap(lambda a: a.as_strided((2,), (1,), 2))(bb[0]))
E(lambda: vmap(lambda a: a.as_strided((2,), (1,), 2), in_dims=1)(bb[0]))
E(lambda: vmap(lambda a: a.as_strided((2,), (2,), 0), in_dims=2)(bb[0]))
E(lambda: vmap(lambda a: a[1:].as_strided((2,), (1,), 2))(bb[0]))
E(lambda: vmap(lambda a: a.t().as_strided((2,), (2,), 1))(bb[0]))
E(lambda: vmap(lambda a: (a * 2).as_strided((2,), (1,), 1))(bb[0]))
E(lambda: vmap(lambda a: a.as_strided((2,), (1,)))(bb[0, :, 1]))
E(lambda: vmap(vmap(lambda a: a.as_strided((2,), (1,), 1)))(bb))
E(lambda: vmap(vmap(lambda a: a.as_strided((2,), (1,), 1)), in_dims=1)(bb))
E(lambda: vmap(lambda a: a.as_strided((2,), (1,), 3))(bb[0]))
E(lambda: vmap(lambda a: a[1:].as_strided((2,), (1,), 1))(bb[0]))
E(lambda: vmap(lambda a: a.as_strided((2, 1), (1,), 1))(bb[0]))
E(lambda: vmap(lambda a: a.as_strided((2,), (-1,), 1))(bb[0]))
E(lambda: vmap(lambda a: a.as_strided((0,), (1,), 100))(bb[0]))
x = bb[0].clone().requires_grad_()
E(lambda: torch.autograd.grad(vmap(lambda a: a.as_strided((2,), (1,), 1))(x).pow(2).sum(), x))
""")


def test_as_strided_tangent_of_a_batched_jvp_reads_its_own_example():
    # fixed (func seed 30305): forward AD applies as_strided to the tangent with the primal's arguments; under jacfwd
    # (vmap of jvp) the tangent is batched, and PyTorch's batch rule reads each example's tangent from its own start
    same_output(r"""
import torch
d = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
print(torch.func.jacfwd(lambda d: d.as_strided((2,), (1,), 1).min(-1, keepdim=True)[0].squeeze())(d))
print(torch.func.jacfwd(lambda d: d.as_strided((2,), (1,), 1))(d))
print(torch.func.vmap(lambda t: torch.func.jvp(lambda d: d.as_strided((2,), (1,), 1), (d,), (t,))[1])(torch.eye(3)))
print(torch.func.vmap(lambda p, t: torch.func.jvp(lambda d: d.as_strided((2,), (1,), 1), (p,), (t,))[1])(torch.eye(3) * 2, torch.eye(3)))
""")


def test_jacobian_bases_are_a_tensor_per_input():
    # fixed (func seed 30305): jacfwd / jacrev build the standard basis as PyTorch's _construct_standard_basis_for,
    # one [total, numel] tensor per input viewed to its shape, so memory reads of a batched tangent or cotangent
    # (as_strided) see the input's own block, not the first input's columns of one identity matrix
    same_output(r"""
import torch
a, d = torch.ones(3, 2), torch.tensor([[0.5], [-1.0], [2.0]])
print(torch.func.jacfwd(lambda a, d: d.as_strided((2,), (1,), 1) * a.sum(), argnums=(0, 1))(a, d))
print(torch.func.jacfwd(lambda a, d: (a * d).as_strided((2,), (1,), 1), argnums=(0, 1))(a, d))
print(torch.func.jacrev(lambda a, d: (a.sum() * d.view(-1), d.view(-1) * 2))(a, d))
print(torch.func.vjp(lambda d: d * 2, d)[1](torch.ones(3, 1)))
print(torch.func.jacrev(lambda a, d: (a.sum(0) * 2, d.squeeze()), argnums=(0, 1))(a, d)[0][1])
""")


def test_loss_backwards_of_empty_inputs_divide_by_zero_inside_vmap():
    # fixed (func seed 30478): inside vmap PyTorch runs mse_loss / smooth_l1_loss / huber_loss backward as Python
    # decompositions (torch._decomp), whose mean reduction computes 2.0 / numel: ZeroDivisionError for an empty
    # input, where the C++ backward (outside vmap, or sum / none) gives an empty gradient
    same_output(r"""
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
F = torch.nn.functional
b = torch.zeros(0, dtype=torch.float64)
z = torch.zeros(0, dtype=torch.float64)
for loss in (F.mse_loss, F.smooth_l1_loss, F.huber_loss, F.l1_loss):
    for red in ('mean', 'sum', 'none'):
        E(lambda: torch.func.jacrev(lambda b: loss(b, z, reduction=red))(b))
        E(lambda: torch.func.vmap(torch.func.grad(lambda b: loss(b, z, reduction=red).sum()))(b[None].expand(2, 0)))
    E(lambda: torch.func.grad(lambda b: loss(b, z))(b))
    E(lambda: torch.func.vmap(lambda t: loss(b, t))(torch.zeros(2, 0, dtype=torch.float64)))
""")
