"""Session 23 fixes of forward-AD and torch.func differences found by transform fuzzing: an out-of-place op without a
forward formula (index_reduce) refuses a tangent before its kernel's checks, as PyTorch's jit-decomposition path does
(nested seed 1979: jvp of a function whose index_reduce had an index out of range); masked_scatter_backward's forward
formula sizes its tangent as grad_output, PyTorch's bug, so forward-over-reverse of a source of another shape fails
(func seed 31635: hessian of x.index_select(...).masked_scatter_(mask, x)); index_reduce with include_self=False
checks its index as the index_fill_ its kernel starts with (nested seed 1979's grad_aux).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vmap
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_op_without_forward_formula_refuses_before_its_kernel_checks():
    # PyTorch's out-of-place index_reduce has no forward formula: with a tangent it tries a jit decomposition, which
    # refuses before the kernel runs, so a bad index, a bad reduce name or mixed dtypes never show (minigrad checked
    # the arguments first); the in-place index_reduce_ refuses after its kernel, whose index error shows
    same_output(_E + r"""
b = torch.ones(1, 1, 3)
with fwAD.dual_level():
    x = fwAD.make_dual(b, torch.ones(1, 1, 3))
    E(lambda: x.index_reduce(0, torch.tensor([1]), x.narrow(0, 0, 1), 'prod', include_self=False))
    E(lambda: x.index_reduce(0, torch.tensor([0]), x.narrow(0, 0, 1), 'foo'))
    E(lambda: b.index_reduce(0, torch.tensor([0]), x.narrow(0, 0, 1).double(), 'amax'))
    E(lambda: b.clone().index_reduce_(0, torch.tensor([1]), x.narrow(0, 0, 1), 'prod'))
    E(lambda: x[0].index_reduce(0, torch.tensor([0]), x[0], 'mean'))  # (a view's tangent counts too)
    print(b.index_reduce(0, torch.tensor([0]), b * 2, 'amax'))  # (no tangent: the op runs)
E(lambda: jvp(lambda a: a.index_reduce(0, torch.tensor([3]), a, 'prod'), (b,), (b,)))
E(lambda: vmap(lambda t: jvp(lambda a: a.index_reduce(0, torch.tensor([1]), a, 'amin'), (b,), (t,)))(b[None]))
""")


def test_hessian_of_masked_scatter_with_a_source_of_another_shape():
    # PyTorch's forward formula of masked_scatter_backward is masked_scatter_backward(grad_output_t, mask,
    # grad_output_t.sizes()): the tangent has grad_output's shape, not source's, and set_fw_grad refuses it; a source
    # of self's very shape works (minigrad's linear formula gave the right Hessian everywhere)
    same_output(_E + r"""
m = torch.tensor([True, False, True, True])
for shape in [(4,), (2, 2), (5,), (1, 4)]:
    a = torch.arange(1., 1 + torch.Size(shape).numel(), dtype=torch.float64).reshape(shape)
    g = lambda a: (torch.zeros(4, dtype=torch.float64).masked_scatter(m, a) ** 3).sum()
    E(lambda: hessian(g)(a))
    E(lambda: jacrev(jacrev(g))(a).sum())
a = torch.tensor([2.2, 1.8, 0.06, 1.65], dtype=torch.float64)
def f(a):
    v0 = a.index_select(-1, torch.tensor([2, 0]))
    v0.masked_scatter_(torch.tensor([True, False]), a)
    return (v0 ** 2).sum()
E(lambda: hessian(f)(a))
E(lambda: jvp(grad(f), (a,), (torch.ones(4, dtype=torch.float64),)))
""")


def test_index_reduce_excluding_self_checks_its_index_as_index_fill():
    # with include_self=False PyTorch's kernel first fills the slices it writes (index_fill_), whose bounds check
    # names the index, the dim and its size (a negative index it wraps); the reduction's own check follows
    same_output(_E + r"""
for red in ('prod', 'mean', 'amax', 'amin'):
    for inc in (True, False):
        for idx in ([1], [-1], [5], [0, -3]):
            b = torch.ones(2, 1, 3, requires_grad=inc)
            print(red, inc, idx, end=' ')
            E(lambda: b.index_reduce(0, torch.tensor(idx), torch.ones(len(idx), 1, 3), red, include_self=inc).sum())
E(lambda: torch.ones(()).index_reduce_(0, torch.tensor([-4]), torch.tensor(2.), 'prod', include_self=False))
E(lambda: grad(lambda b: b.index_reduce(0, torch.tensor([1]), b.narrow(0, 0, 1), 'prod', include_self=False).sum())(
    torch.ones(1, 1, 3)))
""")


def test_front_end_checks_come_after_the_forward_ad_refusal():
    # the same refusal for the ops whose checks minigrad's front-ends make: PyTorch's kernels (igamma's broadcast,
    # cholesky's square check and deprecation warning, ormqr's, the losses', pdist's dtype, _embedding_bag's index
    # range, grid_sampler's, _ctc_loss's blank) run after it; the checks of PyTorch's Python and composite code
    # (multi_margin_loss's p, pdist's dims, embedding_bag's padding_idx) come first
    same_output(_E + r"""
import torch.nn.functional as F
b = torch.ones(2, 3)
with fwAD.dual_level():
    x = fwAD.make_dual(b, torch.ones(2, 3))
    E(lambda: torch.igamma(x, x[:, :2]))
    E(lambda: torch.special.zeta(x, x[:, :2]))
    E(lambda: torch.cholesky(x))
    E(lambda: torch.ormqr(x, torch.ones(1), torch.ones(5, 5)))
    E(lambda: F.multi_margin_loss(x, torch.tensor([0, 7])))
    E(lambda: F.multi_margin_loss(x, torch.tensor([0, 1]), p=3))
    E(lambda: F.multilabel_margin_loss(x, torch.tensor([[0, 1, 5], [0, 1, 2]])))
    E(lambda: F.pdist(x.half()))
    E(lambda: F.pdist(x[0]))
    E(lambda: F.embedding_bag(torch.tensor([0, 9]), x, torch.tensor([0])))
    E(lambda: F.embedding_bag(torch.tensor([0, 1]), x, torch.tensor([0]), padding_idx=7))
    E(lambda: F.embedding_bag(torch.tensor([0, 9]), b, torch.tensor([0]), mode='sum', per_sample_weights=x[0, :2]))
    E(lambda: F.grid_sample(x.view(1, 1, 2, 3), torch.zeros(2, 2, 2, 2), align_corners=False))
    E(lambda: F.grid_sample(x.view(1, 1, 1, 2, 3), torch.zeros(1, 2, 2, 2, 3), mode='bicubic', align_corners=False))
    lp = fwAD.make_dual(torch.zeros(4, 2, 3), torch.ones(4, 2, 3))
    E(lambda: F.ctc_loss(lp, torch.tensor([[1, 2], [1, 1]]), (4, 4), (2, 2), blank=5))
    E(lambda: F.ctc_loss(lp[:, 0], torch.tensor([1, 2]), (4,), (2,)))
    y = fwAD.make_dual(torch.ones(3, 2, 4), torch.ones(3, 2, 4))
    E(lambda: torch.nn.utils.rnn.pack_padded_sequence(y, torch.tensor([1, 3])))
    E(lambda: torch.nn.utils.rnn.pack_padded_sequence(y, torch.tensor([3, 5])))
    E(lambda: torch.cdist(y.double(), y))   # (_cdist_forward's dtype check)
    E(lambda: torch.cdist(y, y[:, :, :3]))   # (the composite's own check first)
    E(lambda: torch.cdist(y, y, compute_mode='use_mm_for_euclid_dist'))
    # (ops without derivatives: the autograd fallback's refusal, before the kernel too)
    E(lambda: torch.histogram(x, -1))
    E(lambda: torch.histogram(b, 3, weight=x[0]))
    E(lambda: torch.histogramdd(x, [2, 2, 2]))
    E(lambda: torch.histc(x, 3))
""")


def test_shrink_backward_forward_formulas_keep_the_band_out():
    # func seed 32068: the Hessian through softshrink and polar at log(x) = nan_to_num(nan) = 0; PyTorch's forward
    # formula of softshrink_backward / hardshrink_backward is where(|x| > λ, grad_t, 0), so a nan tangent of the
    # incoming gradient inside the band stays out (minigrad had none and took jvp's double-vjp route: nan * 0)
    same_output(_E + r"""
import torch.nn.functional as F
a0 = torch.tensor([2.48, -1.17])
def fs(a):
    v0 = torch.nan_to_num(a.log())
    return torch.view_as_real(F.softshrink(v0) + torch.polar(v0.abs(), v0)).sum()
print(hessian(fs)(a0))
x0 = torch.tensor([0.3, -0.7, 0.5, float('nan'), -0.5, 2.], dtype=torch.float64)
for fn in (F.softshrink, F.hardshrink):
    with fwAD.dual_level():
        x = fwAD.make_dual(x0.clone().requires_grad_(), torch.tensor([1., 2., 3., 4., 5., 6.], dtype=torch.float64))
        gd = fwAD.make_dual(torch.ones(6, dtype=torch.float64),
                            torch.tensor([1., float('nan'), 3., float('inf'), 5., 6.], dtype=torch.float64))
        g, = torch.autograd.grad(fn(x), x, gd, create_graph=True)
        print(fwAD.unpack_dual(g))
    print(hessian(lambda x: fn(x * x).sum())(x0))
""")


def test_threshold_backward_tangent_from_self_alone():
    # PyTorch's forward formula of threshold_backward is zeros_like(self_t) + threshold_backward(grad_output_t, ...):
    # relu's double backward with a dual input and a plain cotangent has a (zero) tangent, recorded (AddBackward0)
    same_output(_E + r"""
x0 = torch.tensor([0.3, -0.7, 0.], dtype=torch.float64)
with fwAD.dual_level():
    x = fwAD.make_dual(x0.clone().requires_grad_(), torch.tensor([1., 2., 3.], dtype=torch.float64))
    g, = torch.autograd.grad(torch.relu(x), x, torch.tensor([1., 5., 2.], dtype=torch.float64), create_graph=True)
    p, t = fwAD.unpack_dual(g)
    print(p, t, [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions])
""")


def test_unpack_dual_primal_is_an_alias_without_a_tangent_too():
    # PyTorch's unpack_dual always returns _fw_primal(level): an alias (a view of the tensor, Identity when it
    # requires grad), whether the tensor has a tangent or not (minigrad returned the tensor itself without one)
    same_output(_E + r"""
x0 = torch.tensor([0.3, -0.7])
with fwAD.dual_level():
    leaf = x0.clone().requires_grad_()
    for t in (leaf, leaf * 2, x0, x0[:1], leaf[:1]):
        p, d = fwAD.unpack_dual(t)
        print(p is t, p._base is t, p._is_view(), p.grad_fn is not None and p.grad_fn.name(), p.is_leaf,
              p.requires_grad, d)
    print(fwAD.unpack_dual(leaf * 2))
print(fwAD.unpack_dual(x0).primal is x0)   # (no level: the tensor itself)
""")


def test_unbatched_input_transposed_in_place_inside_vmap_once_per_call():
    # vmap seed 32283: an input with in_dim None given transpose_ inside vmap: PyTorch's one call transposes it once,
    # so every example sees the same shape; minigrad's loop now starts each slice from the chunk's array (its shape
    # and strides), as it did from its values
    same_output(_E + r"""
b = torch.tensor([[-0.13], [1.24], [-1.92]], dtype=torch.float64)
a = torch.zeros(3, 2)
E(lambda: vmap(lambda a, b: (b.select(-1, 0), b.transpose_(0, -1), a + 1), in_dims=(0, None))(a, b))
print(b.shape, b._version)
E(lambda: vmap(lambda a, b: (b.t_(), b.unsqueeze_(0), a), in_dims=(0, None))(a, b))
print(b.shape, b._version)
E(lambda: vmap(lambda a, b: (b.squeeze_(0), b + a.sum()), in_dims=(0, None), chunk_size=2)(a, b))
print(b.shape, b._version)
""")


def test_hessian_of_a_function_writing_a_view_in_place():
    # func seeds 32363, 32539, 32569: hessian (jacfwd of jacrev) of a function with an in-place op on a view; the
    # backward of its CopySlices writes the view's gradient into a fresh buffer, whose tangent PyTorch creates as
    # _new_zeros_with_same_feature_meta(new_grad, base): batched as jacfwd's tangent (minigrad's unbatched zeros then
    # refused the batched write)
    same_output(_E + r"""
a0 = torch.tensor([[0.5, 2.], [1., 3.]], dtype=torch.float64)
for mk in (lambda a: a * 1.5, lambda a: a.clone(), lambda a: torch.roll(a, 1, 0)):
    def f(a):
        v2 = mk(a)
        v2[0].sqrt_()
        return v2.sum()
    E(lambda: hessian(f)(a0))
    E(lambda: jacfwd(jacrev(f))(a0).sum())
def g(a):
    v = torch.msort(a * 2)
    v[0:].sigmoid_()
    return torch.stack((v, a), -1).sum()
E(lambda: hessian(g)(a0))
""")


def test_std_backward_refuses_a_zero_tensor_gradient():
    # func seed 32439: sgn's gradient of a real tensor is a ZeroTensor, and PyTorch's std_backward divides it (a
    # ZeroTensor again) then writes masked_fill_ in place: "ZeroTensors are immutable", in plain autograd and under
    # torch.func alike; var's backward has no in-place step
    same_output(_E + r"""
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.autograd.grad(x.std(0).sgn(), x))
E(lambda: torch.autograd.grad(x.var(0).sgn(), x))
E(lambda: torch.autograd.grad(x.std(0).abs(), x))
E(lambda: grad(lambda a: a.sum().std(None, unbiased=False, keepdim=True).sgn().sum())(torch.tensor(-0.67)))
""")


def test_captured_index_fill_names_its_int_overload():
    # nested seed 2686: index_fill_ on a tensor the transformed function captured: PyTorch names the overload it
    # refuses, index_fill_.int_Scalar (or .int_Tensor for a tensor value: the overloads take an int dim)
    same_output(_E + r"""
b = torch.ones(4, 2)
a = torch.ones(2)
E(lambda: grad(lambda a: (b.index_fill_(0, torch.tensor([2, 3]), -2.), a.sum())[1])(a))
E(lambda: grad(lambda a: (b.index_fill_(0, torch.tensor([2, 3]), torch.tensor(-2.)), a.sum())[1])(a))
E(lambda: vmap(lambda x: grad(lambda a: (b.index_fill_(0, torch.tensor([1]), 3.), (a * x).sum())[1])(a))(a))
E(lambda: grad(lambda a: (b.masked_fill_(b > 0, 1.), a.sum())[1])(a))
print(b)
""")


def test_loss_result_storage_and_its_tangent():
    # forward_ad seed 33273: PyTorch's mse_loss / smooth_l1_loss / soft_margin_loss / binary_cross_entropy return
    # their reduced value in the first element of the unreduced loss's buffer, so set_fw_grad copies a tangent of
    # another storage size (frac of the loss then keeps its own tangent when the loss is divided in place); and
    # mse_loss's forward formula is the sum of two mse_loss_backward terms, each in its input's dtype
    same_output(_E + r"""
import torch.nn.functional as F
torch.set_printoptions(precision=17)
a = torch.arange(5.)
for f in (lambda a: F.mse_loss(a, torch.zeros(5)), lambda a: F.mse_loss(a, torch.zeros(5), reduction='sum'),
          lambda a: F.smooth_l1_loss(a, torch.zeros(5)), lambda a: F.soft_margin_loss(a, torch.ones(5)),
          lambda a: F.binary_cross_entropy(a.sigmoid(), torch.ones(5)), lambda a: F.huber_loss(a, torch.zeros(5)),
          lambda a: F.mse_loss(a, torch.zeros(5), reduction='none')):
    r = f(a)
    print(r.untyped_storage().nbytes(), r.storage_offset())
a0 = torch.tensor([[1.5, -0.3], [0.2, 2.0]])
b0 = torch.tensor([0.5, -1.0], dtype=torch.float64)
with fwAD.dual_level():
    a = fwAD.make_dual(a0, torch.tensor([[1., 2.], [3., 4.]]))
    b = fwAD.make_dual(b0, torch.tensor([0.5, 0.25], dtype=torch.float64))
    v0 = F.mse_loss(a, b.expand_as(a))
    v1 = v0.frac()
    v0.div_(b.abs().sum())
    print(fwAD.unpack_dual(v1), fwAD.unpack_dual(v0))
    print(fwAD.unpack_dual(F.mse_loss(a, b.expand_as(a), reduction='none')).tangent)
torch.set_printoptions(profile='default')
""")


def test_select_and_slice_scatter_batch_rules_refuse_another_dtype():
    # func / vmap seed 33388: inside vmap PyTorch's select_scatter / slice_scatter batch rules write src with
    # scatter(), which refuses a src of another dtype (unbatched, the copy casts it); so do the backward formula's
    # select_scatter(grad, zeros_like(src)) under jacrev and the forward formula's under jacfwd; as_strided_scatter
    # has no batch rule at all
    same_output(_E + r"""
b = torch.tensor([-0.25, 0.5, 1.5], dtype=torch.float64)
h = torch.arange(1).abs() + 0.5
E(lambda: vmap(lambda b: torch.select_scatter(torch.remainder(b, h), b, 0, 0))(b))
E(lambda: vmap(lambda b: torch.select_scatter(torch.zeros(2, dtype=torch.float64) + b, torch.tensor(1.), 0, 0))(b))
E(lambda: vmap(lambda b: torch.slice_scatter(torch.zeros(2), b.reshape(1), 0, 1))(b))
E(lambda: vmap(lambda b: torch.slice_scatter(torch.zeros(2, 3), b.expand(2, 2), 0, 1))(b))
E(lambda: vmap(lambda b: torch.select_scatter(torch.zeros(1), b.float(), 0, 0))(b))
E(lambda: vmap(lambda b: torch.diagonal_scatter(torch.zeros(1, 1, dtype=torch.float64) + b, b.float().reshape(1)))(b))
E(lambda: torch.select_scatter(h.clone(), b[0], 0, 0))
f = lambda a, b: torch.select_scatter(a * 2, b, 0, 0).sum()
E(lambda: jacrev(f)(torch.ones(2), torch.tensor(1., dtype=torch.float64)))
E(lambda: jacfwd(f)(torch.ones(2), torch.tensor(1., dtype=torch.float64)))
E(lambda: jacrev(f)(torch.ones(2), torch.tensor(1.)))
z = torch.zeros(2, dtype=torch.float64)
E(lambda: vmap(lambda b: torch.as_strided_scatter(z, b, (2,), (1,)))(b.reshape(3, 1).expand(3, 2)))
E(lambda: jacrev(lambda b: torch.as_strided_scatter(b, b[0] * 2, (2,), (1,)))(b[:2].expand(2, 2).contiguous()))
""")
