"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 24.

Each program prints what a user sees (values, strides, graphs, errors, warnings) and runs once with minigrad and once
with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import fresh_warn_once, same_as_torch

PROGRAMS = {
    # fixed: the activations' backward kernels lay their gradient out as PyTorch's TensorIterator does:
    # hardsigmoid_backward (a NotImplemented node under create_graph), hardswish / hardshrink / softshrink /
    # silu / mish backward follow grad, then self; threshold_backward (relu) and leaky_relu_backward (rrelu in
    # eval too) take self first; prelu's backward iterates over self, weight, grad; glu's backward and rrelu's
    # forward are C order. MultiheadAttention(batch_first=True) -> hardsigmoid gave a C-order gradient, so the
    # out-projection's reshape copied (UnsafeViewBackward0 + CloneBackward0, not a view) (nn seed 206101)
    "activation_backward_layouts": """
F = torch.nn.functional
acts = [F.relu, F.hardsigmoid, F.hardswish, F.hardshrink, F.softshrink, F.silu, F.mish, F.leaky_relu,
        lambda x: F.threshold(x, 0.5, 2.), lambda x: F.rrelu(x, training=False), lambda x: F.glu(x, 0),
        lambda x: F.prelu(x, torch.tensor([0.25], dtype=torch.float64))]
base = (torch.arange(24.).reshape(2, 3, 4) / 4 - 3).double()
for f in acts:
    for x in (base.transpose(0, 2), base.permute(1, 2, 0), base[:, :, ::2]):
        x = x.detach().requires_grad_()
        if f is acts[10] and x.shape[0] % 2:
            continue
        y = f(x)
        g0 = torch.ones(y.shape, dtype=torch.float64).transpose(0, 1).contiguous().transpose(0, 1)
        for cg in (False, True):
            g, = torch.autograd.grad(y, x, g0, create_graph=cg, retain_graph=True)
            g2, = torch.autograd.grad((y * 1).sum(), x, create_graph=cg, retain_graph=True)
            print(y.stride(), g.stride(), g2.stride(), g.grad_fn and g.grad_fn.name(), g.sum().item())
torch.manual_seed(0)
for tr in (False, True):   # (a 0-dim input stays 0-dim: nn seed 206872)
    x = torch.tensor(-2., requires_grad=True)
    y = F.rrelu(x, training=tr)
    y.backward()
    print(y.shape, x.grad)
torch.manual_seed(13)
m = torch.nn.MultiheadAttention(2, 1, batch_first=True).double()
q = torch.tensor([[[-2.35, -1.33], [-0.11, -2.76]], [[1.28, 1.14], [-2.19, 1.1]]], dtype=torch.float64,
                 requires_grad=True)
y, _ = m(q, q * 2, q - 1, need_weights=False, key_padding_mask=torch.tensor([[False, True], [False, False]]))
g, = torch.autograd.grad(F.hardsigmoid(y).sum(), q, create_graph=True)
seen, names, todo = [], [], [g.grad_fn]
while todo:
    n = todo.pop()
    if n is None or n in seen:
        continue
    seen.append(n)
    names.append(n.name())
    todo.extend(f for f, _ in reversed(n.next_functions))
print(len(names), names)
print(g)
""",
    # fixed (found beside nn seed 206101): more backward kernels' layouts: x ** 2's no-grad fast path and logit's
    # backward follow grad, then x (TensorIterator's binary_op); log_sigmoid_backward writes into
    # empty_like(grad) (C order for an expanded one); copysign's ratio is filled in place (masked_fill_, so it keeps
    # its layout); smooth_l1 / huber backward write into a C-order zeros_like(input)
    "backward_kernel_layouts": """
F = torch.nn.functional
fns = [lambda x: x ** 2, torch.square, F.logsigmoid, lambda x: (x / 10 + 0.5).logit(),
       lambda x: torch.copysign(x, -x),
       lambda x: F.smooth_l1_loss(x, x.flip(0) * 0.5, reduction='none'),
       lambda x: F.huber_loss(x, x.flip(0) * 0.5, reduction='none'),
       lambda x: F.gaussian_nll_loss(x, x.flip(0) / 10, x * x + 1, reduction='none')]
base = (torch.arange(24.).reshape(2, 3, 4) / 4 - 2.99).double()
for f in fns:
    for x in (base.transpose(0, 2), base.permute(1, 2, 0), base[:, :, ::2], base.transpose(1, 2)[:, 1:]):
        x = x.detach().requires_grad_()
        y = f(x)
        g0 = torch.ones(y.shape, dtype=torch.float64).transpose(0, 1).contiguous().transpose(0, 1)
        for cg in (False, True):
            g, = torch.autograd.grad(y, x, g0, create_graph=cg, retain_graph=True)
            g2, = torch.autograd.grad((y * 1).sum(), x, create_graph=cg, retain_graph=True)
            g3, = torch.autograd.grad(y.sum(), x, create_graph=cg, retain_graph=True)
            print(y.stride(), g.stride(), g2.stride(), g3.stride(), g.sum().item(), g3.sum().item())
""",
    # fixed: view_as_complex skips the stride check of size-1 dims (their stride halves by integer division,
    # 1 -> 0), as PyTorch's computeStrideForViewAsComplex; a 0-dim input has its own message. A view_as_real view
    # written through a permuted narrow view got a C-order gradient slice from CopySlices whose size-1 dim has
    # stride 1, and ViewAsRealBackward0's view_as_complex refused it (seed 230134)
    "view_as_complex_size_one_dims": """
def E(f):
    try:
        r = f()
        print(r, r.stride())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.arange(6.).reshape(3, 2, 1).permute(0, 2, 1)
E(lambda: torch.view_as_complex(x))
E(lambda: torch.view_as_real(torch.view_as_complex(x)))
E(lambda: torch.view_as_complex(torch.arange(2.).as_strided((1, 1, 2), (1, 3, 1))))
E(lambda: torch.view_as_complex(torch.arange(8.).as_strided((2, 1, 2), (2, 1, 1))))
E(lambda: torch.view_as_complex(torch.arange(8.).as_strided((2, 2, 2), (2, 1, 1))))
E(lambda: torch.view_as_complex(torch.tensor(1.)))
b = torch.tensor([[0.5], [1.5], [2.]], dtype=torch.float64, requires_grad=True)
v11 = b * (0.5 - 2j)
v12 = torch.view_as_real(v11)
v13 = v12.movedim(1, -1)
v14 = v13.narrow(-1, 0, 1)
v14.add_(v13)
print(v12.grad_fn.name(), v13.grad_fn.name(), v12.stride(), v13.stride())
v12.sum().backward()
print(v11, b.grad)
""",
    # fixed: x.masked_scatter_(mask, source) with a source sharing x's memory and 0-dim (a view(1, 1) of a 0-dim
    # result given that result) failed in minigrad's model of the serial kernel (NumPy's reshape(0, -1) of a
    # 0-dim tensor's indices) (seed 233889)
    "masked_scatter_of_a_0dim_source_sharing_memory": """
a = torch.tensor([0.5, 1.5], requires_grad=True)
v2 = torch.sigmoid(a.sum())
v4 = v2.view(1, 1)
print(v4.masked_scatter_(torch.tensor([[True]]), v2), v2, v2._version, v2.grad_fn.name(), v4.grad_fn.name())
x = torch.tensor(2.)
y = x.view(1)
print(y.masked_scatter_(torch.tensor([True]), x * 3), x)
z = torch.tensor(4.)
print(z.view(1, 1).masked_scatter_(torch.tensor([[False]]), z), z)
""",
    # fixed (found beside nn seed 206101): the gradient of a channels_last input to avg_pool2d,
    # adaptive_avg_pool2d, adaptive_max_pool2d (and lp_pool2d through avg_pool2d), batch_norm and group_norm (no
    # create_graph: PyTorch's kernel) is channels_last, as PyTorch's kernels allocate it with the input's
    # suggest_memory_format(), not C order (channels_last_3d: max_pool3d's output, indices and gradient, group_norm's
    # output and gradient); glu's forward is TensorIterator's binary op of the two halves (a size-1 dim's stride)
    "channels_last_input_gradients": """
F = torch.nn.functional
fns = [lambda x: F.avg_pool2d(x, 2), lambda x: F.adaptive_avg_pool2d(x, 2), lambda x: F.adaptive_max_pool2d(x, 2),
       lambda x: F.lp_pool2d(x, 2, 2), lambda x: F.batch_norm(x, None, None, training=True),
       lambda x: F.group_norm(x, 1), lambda x: F.max_pool2d(x, 2), lambda x: F.glu(x, 1)]
base = (torch.arange(48.).reshape(2, 2, 3, 4) / 12 - 1.9).double()
for f in fns:
    for x in (base.contiguous(memory_format=torch.channels_last), base.transpose(2, 3)):
        x = x.detach().requires_grad_()
        y = f(x)
        g0 = torch.ones(y.shape, dtype=torch.float64).transpose(0, 1).contiguous().transpose(0, 1)
        for cg in (False, True):
            g, = torch.autograd.grad(y, x, g0, create_graph=cg, retain_graph=True)
            g3, = torch.autograd.grad(y.sum(), x, create_graph=cg, retain_graph=True)
            print(y.stride(), g.stride(), g3.stride(), g.grad_fn and g.grad_fn.name(), round(g.sum().item(), 10))
# channels_last_3d: max_pool3d's values and indices, group_norm's output and gradient keep the layout
x = (torch.arange(96.).reshape(2, 2, 2, 3, 4) / 24 - 1.9).double().contiguous(memory_format=torch.channels_last_3d)
x.requires_grad_()
for f in (lambda x: F.max_pool3d(x, 2), lambda x: F.group_norm(x, 2), lambda x: F.adaptive_max_pool3d(x, 2)):
    y = f(x)
    g, = torch.autograd.grad(y, x, torch.ones(y.shape, dtype=y.dtype).transpose(0, 1).contiguous().transpose(0, 1))
    print(y.stride(), g.stride(), round(g.sum().item(), 10))
print([t.stride() for t in F.max_pool3d(x, 2, return_indices=True)])
""",
    # fixed (found beside nn seed 206101): PyTorch 2.13's rms_norm makes its result contiguous before the cast back
    # (a CloneBackward0 for a non-contiguous input) unless the input is channels_last(_3d)
    "rms_norm_contiguous_result": """
F = torch.nn.functional
x = (torch.arange(24.).reshape(2, 3, 4) / 12 - 0.9).transpose(1, 2).requires_grad_()
w = torch.ones(3, requires_grad=True)
for y in (F.rms_norm(x, (3,), w, 1e-5), F.rms_norm(x, (4, 3)), F.rms_norm(x.detach().half(), (3,)),
          F.rms_norm(x.detach().unsqueeze(0).contiguous(memory_format=torch.channels_last), (3,)),
          F.rms_norm(x.detach().to(torch.complex64), (3,)), torch.nn.RMSNorm(3)(x)):
    print(y.stride(), y.dtype, y.grad_fn and y.grad_fn.name(),
          y.grad_fn and [f and f.name() for f, _ in y.grad_fn.next_functions])
y = F.rms_norm(x, (3,), w)
y.backward(torch.ones(2, 4, 3).transpose(0, 1).contiguous().transpose(0, 1))
print(y, x.grad, x.grad.stride(), w.grad)
""",
    # fixed: PyTorch's ZeroTensor kernels (mul/div/add/sub) promote on meta copies of their operands, where a Python
    # number is no longer a wrapped number but a 0-dim double / int64 / complex128 tensor: a 0-dim float32 ZeroTensor
    # times 2.0 is float64 (var_backward's (2 / dof) * grad of sgn's ZeroTensor gradient, so the second derivative
    # of abs(b.var()) for a 0-dim b ends in the engine's ToCopyBackward0 back to float32) (seed 240247)
    "zerotensor_kernels_promote_numbers_as_tensors": """
Z = torch._efficientzerotensor
for shape in ((), (3,)):
    for dt in (torch.float32, torch.float16, torch.int32, torch.int64, torch.complex64, torch.bool):
        z = Z(shape, dtype=dt)
        rs = [z * 2.0, 2.0 * z, z * 2, z + 2.0, z / 2.0, z / 2, z * (1 + 2j), z * True, torch.mul(z, 2.5),
              z * torch.tensor(2.0), z + torch.ones((), dtype=torch.float64), torch.add(z, 3, alpha=2)]
        rs += [] if dt is torch.bool else [torch.rsub(z, 2), 3 - z, z - 1.5]   # (a bool ZeroTensor's: a leftover)
        print(shape, dt, [(str(r.dtype)[6:], torch._is_zerotensor(r)) for r in rs])
for b in (torch.tensor(-2.58, requires_grad=True), torch.tensor([1.5, -2.58], requires_grad=True)):
    v4 = torch.absolute(b.var(correction=0))
    g5, = torch.autograd.grad(v4.sum(), b, create_graph=True)
    g6, = torch.autograd.grad((g5 * g5).sum(), b, create_graph=True)
    print(g5, g6, g6.grad_fn.name(), [f and f.name() for f, _ in g6.grad_fn.next_functions])
""",
    # fixed (found beside nn seed 206101): instance_norm folds its input as input.contiguous().view(...) (a
    # CloneBackward0 and a ViewBackward0, not a copying reshape's UnsafeViewBackward0), group_norm runs on
    # input.contiguous(input.suggest_memory_format()) (a CloneBackward0, its node saving the C-order copy)
    "instance_and_group_norm_contiguous_inputs": """
F = torch.nn.functional
seen = []
def walk(n, depth=0):
    if n is None or n in seen:
        return
    seen.append(n)
    saved = {k: tuple(getattr(n, k).stride()) for k in dir(n)
             if k in ("_saved_input", "_saved_other") and torch.is_tensor(getattr(n, k))}
    print(" " * depth + n.name(), saved)
    for f, _ in n.next_functions:
        walk(f, depth + 2)
base = (torch.arange(48.).reshape(2, 4, 6) / 12 - 1.9).double()
for x in (base.transpose(1, 2).contiguous().transpose(1, 2), base.transpose(0, 1).contiguous().transpose(0, 1),
          base.flip(2).permute(2, 0, 1).contiguous().permute(1, 2, 0)):
    for f in (lambda x: F.instance_norm(x), lambda x: F.group_norm(x, 2),
              lambda x: F.instance_norm(x, torch.zeros(4, dtype=torch.float64), torch.ones(4, dtype=torch.float64))):
        x = x.detach().requires_grad_()
        y = f(x)
        g0 = torch.ones(y.shape, dtype=y.dtype).transpose(0, 1).contiguous().transpose(0, 1)
        g, = torch.autograd.grad(y, x, g0, create_graph=True)
        seen.clear()
        walk(y.grad_fn)
        walk(g.grad_fn)
        print(y.stride(), g.stride(), g.sum().item())
""",
    # fixed: x.data = y gives an empty x y's strides (a leaf made from an empty ndarray kept NumPy's (0, 0), which
    # then broke the gradient layout contract: a warning PyTorch does not give) (seed 243875)
    "data_setter_takes_empty_strides": """
import numpy as np
import warnings
a = torch.tensor(np.empty((1, 0)), dtype=torch.float32, requires_grad=True)
v6 = a.sin()
print(a.stride())
a.data = a.data * 0.5
print(a.stride(), a.data.stride())
a.data = torch.from_numpy(np.empty((1, 0), dtype=np.float32))
print(a.stride())
a.data = torch.empty(1, 0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (v6 * 2 + a).sum().backward(retain_graph=True)
    torch.where(a > 0, a, torch.tensor(-0.5, dtype=torch.float64, requires_grad=True)).sum().backward()
print(a.grad, a.grad.stride(), [str(w.message)[:40] for w in caught])
""",
    # fixed: a view written in place through itself, then its base detach_()ed before the view's grad_fn was read:
    # PyTorch's rebase_history made the view's AsStridedBackward0 at the write, its edge the base's CopySlices, so it
    # is kept (minigrad makes it when read: it had no node, so the view read as a leaf) (seed 242367)
    "view_written_in_place_then_base_detached": """
a = torch.tensor([1.06, 2.79, 1.03, -0.88], dtype=torch.float64, requires_grad=True)
for write in (lambda v: v.mul_(2), lambda v: v.copy_(torch.ones(3, dtype=torch.float64) * a[0])):
    x = a * 1
    x5 = x[1:]
    write(x5)
    y = x.sin()
    x.detach_()
    print(x5.is_leaf, x5.requires_grad, x5.grad_fn.name(), [f and f.name() for f, _ in x5.grad_fn.next_functions])
    x5.sign().sum().backward(retain_graph=True)
    (x5 * 3).sum().backward()
    print(a.grad, y)
    a.grad = None
w = a * 1
w5 = w[1:]
w.detach_()
print(w5.is_leaf, w5.grad_fn.name())
w.mul_(2)
print(w5.is_leaf, w5.grad_fn.name(), w5.grad_fn.next_functions)
""",
    # fixed: an in-place op with real kernels only (logit_, erf_, erfc_, erfinv_, lgamma_, digamma_, polygamma_, i0_)
    # on an expanded complex tensor: TensorIterator's refusal of the overlapping write comes before the missing
    # complex kernel's error (deg2rad_'s own check still first) (seed 244268)
    "inplace_real_kernel_on_expanded_complex": """
z = torch.ones(1, 3, dtype=torch.complex64).expand(2, 3)
for name in ['logit_', 'erf_', 'erfc_', 'erfinv_', 'lgamma_', 'digamma_', 'i0_', 'deg2rad_', 'rad2deg_', 'sinc_']:
    print(name, end=' ')
    E(lambda: getattr(z, name)())
E(lambda: z.polygamma_(1))
b = torch.tensor([0.5 + 1j, -1j, 2.], requires_grad=True)
E(lambda: torch.tanh(b).expand(2, 3).logit_(0.1))
E(lambda: torch.tanh(b).logit_(0.1))
E(lambda: torch.ones(3, dtype=torch.complex64)[None].expand(2, 3)[0].erf_())
""",
    # fixed: lstsq's internal-assert message for a NaN matrix names "(Batch element k)" only for a batch of more than
    # one (PyTorch's is_matrix: infos.numel() <= 1, its infos over A's and B's batch dims broadcast) (seed 241850)
    "lstsq_illegal_argument_batch_prefix": """
for shape in ((3, 3), (1, 3, 3), (2, 3, 3), (1, 1, 3, 3)):
    a = torch.ones(shape, dtype=torch.float64)
    a[..., 0, 0] = float('nan')
    E(lambda: torch.linalg.lstsq(a, torch.ones(shape[:-1] + (2,), dtype=torch.float64)))
    E(lambda: torch.linalg.lstsq(a, torch.ones(3, 2, dtype=torch.float64)))
""",
    # fixed: the variance of complex values with too few elements (dof <= 0) is still var(real) + var(imag), so a
    # constant real or imaginary part's 0/0 gives nan, not the inf of |z - mean|² summed over 0 (seed 247828)
    "complex_var_without_degrees_of_freedom": """
import warnings
warnings.simplefilter("ignore")
for z in (torch.tensor([1 - 4.96j, 2 - 4.96j]), torch.tensor([1 + 1j, 2 + 3j]), torch.tensor([1 + 1j, 1 + 1j]),
          torch.tensor([1 + 1j], dtype=torch.complex128), torch.tensor([[1 + 2j, 3j], [2., 1j]])):
    for c in (1, 2, 3):
        print(z.var(correction=c), z.std(correction=c), z.var(0, correction=c), torch.var_mean(z, correction=c))
""",
    # fixed: flip / roll of a 0-dim tensor in a backward batched by autograd.grad(is_grads_batched=True): PyTorch's
    # legacy vmap has no rule for them and its fallback runs each 0-dim slice, so only torch.vmap's batching rule
    # refuses the dim (seed 249330)
    "flip_of_0dim_in_batched_backward": """
b = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
v0 = b.sum()
E(lambda: print(torch.autograd.grad(v0.flip((0,)), b, torch.eye(1).reshape(1), retain_graph=True,
                                    is_grads_batched=True)))
E(lambda: print(torch.autograd.grad(v0.roll(1, 0) * 2, b, torch.tensor([1., 2.]), is_grads_batched=True,
                                    retain_graph=True)))
E(lambda: print(torch.autograd.grad(v0.flip(-1) * 2, b, torch.tensor([1., 2.]), is_grads_batched=True)))
E(lambda: torch.vmap(lambda t: t.roll(1, 0))(torch.tensor([1., 2.])))
E(lambda: torch.vmap(lambda t: t.flip(0))(torch.tensor([1., 2.])))
""",
    # fixed: x.conj() (and x.mH) of a dense tensor whose size-1 dims have other strides (a (1, 1) imag view: (2, 2))
    # is a conjugate view with x's strides, not a copy laid out in C order as for a view with gaps, so mm's backward
    # of z @ z.mH takes the branch PyTorch takes (seed 249610)
    "conj_view_of_size_one_dims_keeps_strides": """
b = torch.tensor([[1 + 1j]], requires_grad=True)
v12 = torch.polar(b.abs() + 0.1, b.angle())
v14 = v12.conj().imag.to(torch.complex64)
print(v14.stride(), v14.conj().stride(), v14.mH.stride(), v14.mH.is_conj())
v15 = v14 @ v14.mH
print(v15.grad_fn._saved_self_sym_strides, v15.grad_fn._saved_mat2_sym_strides)
g, = torch.autograd.grad(v15.abs().sum(), b, create_graph=True)
seen, names, todo = [], [], [g.grad_fn]
while todo:
    n = todo.pop()
    if n is None or n in seen:
        continue
    seen.append(n)
    names.append(n.name())
    todo.extend(f for f, _ in reversed(n.next_functions))
print(names, g)
""",
    # fixed: cdist with p=0 or p=inf is a fresh C-order result, as for the other p (NumPy's reduction kept a
    # transposed x1's layout) (seed 250771)
    "cdist_p0_pinf_result_layout": """
a = torch.arange(9.).reshape(3, 3)
for x1, x2 in ((a.mT, a.mT), (a.mT, a), (a, a.mT), (a.mT, a[:2]), (a[:2], a.mT)):
    print([torch.cdist(x1, x2, p=p).stride() for p in (0., 1., 2., 3., float('inf'))])
x = a.mT.clone().requires_grad_()
y = torch.cdist(x.mT, a, p=float('inf'))
print(y, y.stride(), y.grad_fn._saved_result.stride())
""",
    # fixed: the gradient of softmax / log_softmax of a 0-dim tensor in an is_grads_batched backward is the kernel's
    # (nan for a nan gradient): "the grad is 0" is torch.vmap's batching rule, not the legacy vmap's (seed 250822)
    "softmax_of_0dim_in_batched_backward": """
c = torch.tensor(1.29, requires_grad=True)
for f in (lambda t: torch.log_softmax(t, 0), lambda t: torch.softmax(t, 0)):
    y = f(c)
    print(torch.autograd.grad(y, c, torch.tensor([float('nan'), 2.]), retain_graph=True, is_grads_batched=True))
    print(torch.autograd.grad(y, c, torch.tensor(float('nan')), retain_graph=True))
c1 = torch.tensor([1.29], requires_grad=True)
print(torch.autograd.grad(torch.log_softmax(c1, 0), c1, torch.tensor([[float('nan')], [2.]]), is_grads_batched=True))
print(torch.vmap(torch.func.grad(lambda t: torch.log_softmax(t, 0) * 2))(torch.tensor([1., 2.])))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])


def test_rms_norm_dtype_mismatch_warning():
    # fixed: PyTorch warns once when the weight's dtype is not the input's (no fused kernel); not for a complex or a
    # channels_last input, which take the composite before that check
    with fresh_warn_once():
        same_as_torch("""
import warnings
F = torch.nn.functional
for xd, wd, cl in ((torch.float32, torch.float64, False), (torch.bfloat16, torch.float64, False),
                   (torch.float16, torch.float32, False), (torch.float32, torch.float64, True)):
    x = torch.ones(1, 2, 2, 3, dtype=xd)
    if cl:
        x = x.contiguous(memory_format=torch.channels_last)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = F.rms_norm(x, (3,), torch.ones(3, dtype=wd))
    print(y.dtype, [str(w.message) for w in caught])
""")
