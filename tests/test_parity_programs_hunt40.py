"""Parity programs from a fortieth hunt: the graph a visualizer reads, op family by op family.

A graph drawer (minigrad's ``viz/``, or a student's own) reads public attributes only: ``grad_fn.name()``,
``next_functions``, ``metadata``, every ``_saved_*`` attribute (found by filtering ``dir(node)``), the
``_raw_saved_*`` SavedTensor objects and their ``register_hooks``, ``AccumulateGrad.variable``, node hooks and pre-hooks.
These programs print all of that for the nodes of each op family (elementwise, binary ops with alpha, reductions, shape
and indexing ops, linear algebra, ``nn.functional`` layers and losses), under ``saved_tensors_hooks`` (what is packed,
in which order, what the backward unpacks), after backward without ``retain_graph`` (the errors), for in-place ops and
views, and for the identity of unpacked tensors (``_saved_result is y``). Programs marked "fixed:" printed something
different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE as _PRE

# hunt14's prelude plus what a graph inspector prints: ``describe(node)`` lists the node's name, each ``_saved_*``
# attribute (sorted, as dir() gives them) with its value (a tensor as shape, dtype, requires_grad and first values), its
# edges and its metadata; ``recorder()`` gives pack/unpack hooks that log what they see.
PRE = _PRE + r'''
def show_value(v):
    if isinstance(v, torch.Tensor):
        fn = v.grad_fn.name() if v.grad_fn is not None else None
        return f'tensor{tuple(v.shape)} {v.dtype} rg={v.requires_grad} fn={fn} {v.detach().flatten()[:6].tolist()}'
    if isinstance(v, (list, tuple)):
        return type(v).__name__ + '[' + ', '.join(show_value(u) for u in v) + ']'
    return f'{type(v).__name__} {v!r}'
def describe(node, label=''):
    print('node', label, node.name())
    for a in sorted(n for n in dir(node) if n.startswith('_saved_')):
        try:
            print('   ', a, show_value(getattr(node, a)))
        except Exception as e:
            print('   ', a, '!', type(e).__name__, e)
    print('    next', [(f.name() if f is not None else None, i) for f, i in node.next_functions])
    print('    metadata', dict(node.metadata))
def recorder(log):
    def pack(t):
        log.append(('pack', tuple(t.shape), str(t.dtype), t.requires_grad,
                    t.grad_fn.name() if t.grad_fn is not None else None))
        return t
    def unpack(t):
        log.append(('unpack', tuple(t.shape)))
        return t
    return pack, unpack
'''

PROGRAMS: dict[str, str] = {}

# ---- elementwise unary ops: what each node keeps

PROGRAMS['unary_exp_log_tanh_sigmoid_saved'] = PRE + r'''
x = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
for f in (torch.exp, torch.log, torch.tanh, torch.sigmoid, torch.sqrt, torch.rsqrt, torch.abs, torch.reciprocal):
    y = f(x)
    describe(y.grad_fn)
    saved = [a for a in dir(y.grad_fn) if a.startswith('_saved_')]
    for a in saved:
        v = getattr(y.grad_fn, a)
        print('   ', a, 'is x:', v is x, 'equals y:', torch.equal(v, y), 'is y:', v is y)
'''

PROGRAMS['unary_pow_scalar_and_tensor_exponents'] = PRE + r'''
x = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
e = torch.tensor([2.0, 3.0, 0.5], requires_grad=True)
for y in (x ** 2, x ** 2.5, x ** -1, x.pow(0), x ** e, 2 ** x, torch.pow(2.5, x), x.pow(torch.tensor(3.))):
    describe(y.grad_fn)
y = x ** e
print(y.grad_fn._saved_result is y, torch.equal(y.grad_fn._saved_result, y), y.grad_fn._saved_exponent is e)
print(type(y.grad_fn._saved_self).__name__, y.grad_fn._saved_self is x)
y.sum().backward()
print(x.grad, e.grad)
'''

PROGRAMS['unary_clamp_min_max_and_tensor_bounds'] = PRE + r'''
x = torch.tensor([-0.5, 1.5, 2.0], requires_grad=True)
lo = torch.zeros(3, requires_grad=True)
hi = torch.ones(3)
for y in (x.clamp(min=0.), x.clamp(max=1), x.clamp(0., 1.), x.clamp(min=lo), x.clamp(lo, hi), x.clamp(max=hi),
          x.clamp_min(0.5), x.clamp_max(torch.tensor(1.)), torch.clip(x, -1, 1)):
    describe(y.grad_fn)
y = x.clamp(lo, hi)
y.sum().backward()
print(x.grad, lo.grad)
'''

PROGRAMS['unary_activations_saved_scalars'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([-1.5, -0.25, 0.5, 2.0], requires_grad=True)
for y in (F.leaky_relu(x, 0.2), F.elu(x), F.elu(x, alpha=0.5), F.gelu(x), F.gelu(x, approximate='tanh'),
          F.softplus(x), F.softplus(x, beta=2, threshold=1), F.hardtanh(x), F.hardtanh(x, -0.5, 0.5), F.relu(x),
          F.relu6(x), F.selu(x), F.celu(x, 0.7), F.silu(x), F.mish(x), F.hardswish(x), F.hardsigmoid(x),
          F.logsigmoid(x), F.softshrink(x, 0.3), F.hardshrink(x, 0.3), F.threshold(x, 0.1, 20.)):
    describe(y.grad_fn)
'''

PROGRAMS['unary_where_nan_to_num_logit'] = PRE + r'''
x = torch.tensor([-1.5, 0.25, 0.5, 2.0], requires_grad=True)
w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
for y in (torch.where(x > 0, x, w), torch.where(x > 0, x, 0.), torch.where(x > 0, 1., w), torch.nan_to_num(x),
          torch.logit(x.sigmoid()), torch.logit(x.sigmoid(), eps=0.3), x.sign(), x.frac(), x.trunc(), x.sgn()):
    describe(y.grad_fn)
y = torch.where(x > 0, x, w)
print(y.grad_fn._saved_condition.dtype, y.grad_fn._saved_condition.tolist())
y.sum().backward()
print(x.grad, w.grad)
'''

PROGRAMS['unary_special_functions_saved'] = PRE + r'''
x = torch.tensor([0.25, 1.5, 2.0], requires_grad=True)
for y in (x.lgamma(), x.digamma(), torch.polygamma(2, x), torch.mvlgamma(x + 3, 2), x.erf(), (x / 3).erfinv(), x.erfc(), x.sinc(), x.exp2(), x.log2(), x.log1p(), x.expm1(), torch.special.i0(x), torch.special.i1e(x),
          torch.special.xlogy(x, x), torch.special.entr(x), torch.special.log_ndtr(x), torch.special.erfcx(x)):
    describe(y.grad_fn)
'''

# ---- binary ops with alpha and friends

PROGRAMS['binary_add_sub_rsub_alpha'] = PRE + r'''
a = torch.tensor([1., -2., 3.], requires_grad=True)
b = torch.tensor([0.5, 4., -1.], requires_grad=True)
for y in (torch.add(a, b, alpha=2), torch.sub(a, b, alpha=3), torch.rsub(a, b, alpha=2), torch.add(a, 2, alpha=3),
          torch.sub(a, 2), torch.rsub(a, 2.), 2 - a, a + b, a - b, a.add(b, alpha=0.5), torch.add(a, b.double())):
    describe(y.grad_fn)
    print('    has _saved_alpha:', hasattr(y.grad_fn, '_saved_alpha'), getattr(y.grad_fn, '_saved_alpha', None))
'''

PROGRAMS['binary_mul_div_numbers_and_tensors'] = PRE + r'''
a = torch.tensor([1., -2., 3.], requires_grad=True)
b = torch.tensor([0.5, 4., -1.], requires_grad=True)
c = torch.tensor([2., 2., 2.])
for y in (a * b, a * 2, a * 2.5, a / b, a / 2, 2 / a, a * c, c / a, torch.true_divide(a, b),
          torch.div(a, b, rounding_mode='floor'), torch.div(a, 2, rounding_mode='trunc')):
    describe(y.grad_fn)
y = a * 2.5
print(y.grad_fn._saved_other, y.grad_fn._saved_other.dtype, y.grad_fn._saved_self)
y = a * c
print(y.grad_fn._saved_other is c, y.grad_fn._saved_self)
'''

PROGRAMS['binary_addcmul_addcdiv_lerp'] = PRE + r'''
a = torch.tensor([1., -2., 3.], requires_grad=True)
b = torch.tensor([0.5, 4., -1.], requires_grad=True)
c = torch.tensor([2., -3., 0.25])
w = torch.full((3,), 0.3, requires_grad=True)
for y in (torch.addcmul(a, a, b, value=0.5), torch.addcmul(c, a, c), torch.addcdiv(a, a, b, value=2),
          torch.addcdiv(c, c, a), torch.lerp(a, b, 0.3), torch.lerp(a, b, w), torch.lerp(c, a, w)):
    describe(y.grad_fn)
y = torch.addcdiv(a, a, b, value=2)
y.sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['binary_atan2_hypot_fmod_remainder'] = PRE + r'''
a = torch.tensor([1., -2., 3.], requires_grad=True)
b = torch.tensor([0.5, 4., -1.], requires_grad=True)
for y in (torch.atan2(a, b), torch.hypot(a, b), torch.fmod(a, b), torch.fmod(a, 1.5), torch.remainder(a, b),
          torch.remainder(a, 2), torch.copysign(a, b), torch.xlogy(a.abs(), b.abs()), torch.ldexp(a, b),
          torch.logaddexp(a, b), torch.logaddexp2(a, b), torch.float_power(a, 2)):
    describe(y.grad_fn)
y = torch.hypot(a, b)
print(y.grad_fn._saved_result is y, torch.equal(y.grad_fn._saved_result, y))
'''

PROGRAMS['binary_maximum_minimum_fmin_fmax'] = PRE + r'''
a = torch.tensor([1., -2., 3., 0.5], requires_grad=True)
b = torch.tensor([0.5, 4., 3., float('nan')], requires_grad=True)
for y in (torch.maximum(a, b), torch.minimum(a, b), torch.fmin(a, b), torch.fmax(a, b), torch.max(a, b),
          torch.min(a, b)):
    describe(y.grad_fn)
    y.sum().backward()
    print('    grads', a.grad, b.grad)
    a.grad = b.grad = None
'''

PROGRAMS['binary_dist_and_broadcast_saved_shapes'] = PRE + r'''
a = torch.tensor([[1., -2., 3.]], requires_grad=True)
b = torch.tensor([[0.5], [4.], [-1.]], requires_grad=True)
for y in (a + b, a * b, a - b, a / b, torch.dist(a, b), torch.dist(a, b, 3), torch.maximum(a, b)):
    describe(y.grad_fn)
y = a * b
print(y.shape, y.grad_fn._saved_self.shape, y.grad_fn._saved_other.shape)
y.sum().backward()
print(a.grad, b.grad)
'''

# ---- reductions

PROGRAMS['reduce_sum_mean_dims_keepdim'] = PRE + r'''
x = torch.arange(1., 13.).reshape(3, 4).requires_grad_()
for y in (x.sum(), x.sum(1), x.sum((0, 1), keepdim=True), x.sum(-1, dtype=torch.float64), x.mean(),
          x.mean(-1, keepdim=True), x.mean((0,)), x.nansum(), x.nanmean(1), x.sum(0)):
    describe(y.grad_fn)
y = x.sum(1, keepdim=True)
print(type(y.grad_fn._saved_self_sym_sizes).__name__, y.grad_fn._saved_self_sym_sizes)
print([type(s).__name__ for s in y.grad_fn._saved_self_sym_sizes])
'''

PROGRAMS['reduce_prod_amax_max_min'] = PRE + r'''
x = torch.tensor([[1., 5., 2.], [4., 3., 6.]], requires_grad=True)
for y in (x.prod(), x.prod(1), x.prod(0, keepdim=True), x.amax(), x.amax(1), x.amin((0, 1), keepdim=True),
          x.max(), x.max(1).values, x.min(0, keepdim=True)[0], x.max(dim=-1, keepdim=True).values):
    describe(y.grad_fn)
r = x.max(1)
print(r.values.grad_fn._saved_indices is r.indices, torch.equal(r.values.grad_fn._saved_indices, r.indices))
print(r.values.grad_fn._saved_indices.requires_grad, r.indices.grad_fn)
'''

PROGRAMS['reduce_std_var_correction'] = PRE + r'''
x = torch.tensor([[1., 5., 2., 0.], [4., 3., 6., -1.]], requires_grad=True)
for y in (x.std(), x.std(1, correction=0), x.var(0, keepdim=True), x.var(unbiased=False), x.var(1, correction=2),
          torch.var_mean(x, 1)[0], torch.var_mean(x, 1)[1], torch.std_mean(x, 0, correction=0)[0]):
    describe(y.grad_fn)
y = x.std(1)
print(y.grad_fn._saved_result is y, torch.equal(y.grad_fn._saved_result, y))
'''

PROGRAMS['reduce_norms_with_p_and_dims'] = PRE + r'''
x = torch.tensor([[1., -5., 2.], [4., 3., -6.]], requires_grad=True)
for y in (x.norm(), x.norm(1), x.norm(3, dim=1), x.norm(float('inf'), dim=0, keepdim=True), x.norm(p='fro'),
          torch.linalg.vector_norm(x, 2.5, dim=1), torch.linalg.vector_norm(x, 0.5), torch.linalg.matrix_norm(x),
          torch.linalg.norm(x), torch.linalg.norm(x, ord=1, dim=1)):
    describe(y.grad_fn)
'''

PROGRAMS['reduce_logsumexp_cumsum_cumprod'] = PRE + r'''
x = torch.tensor([[1., -5., 2.], [4., 3., -6.]], requires_grad=True)
for y in (x.logsumexp(1), x.logsumexp((0, 1), keepdim=True), x.cumsum(1), x.cumsum(0, dtype=torch.float64),
          x.cumprod(1), x.cummax(1)[0], x.cummin(0)[0], x.logcumsumexp(0), torch.diff(x), torch.trace(x[:, :2])):
    describe(y.grad_fn)
y = x.logsumexp(1)
print(y.grad_fn._saved_result is y, y.grad_fn._saved_self is x)
'''

PROGRAMS['reduce_softmax_log_softmax_softmin'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([[1., -5., 2.], [4., 3., -6.]], requires_grad=True)
for y in (x.softmax(1), x.log_softmax(0), torch.softmax(x, 1, dtype=torch.float64), F.softmin(x, 1),
          F.log_softmax(x, -1), F.softmax(x.t(), 0)):
    describe(y.grad_fn)
y = x.softmax(1)
print(y.grad_fn._saved_result is y, torch.equal(y.grad_fn._saved_result, y), y.grad_fn._saved_dim)
'''

PROGRAMS['reduce_kthvalue_median_mode_topk_sort'] = PRE + r'''
x = torch.tensor([[1., 5., 2., 5.], [4., 3., 6., 0.]], requires_grad=True)
for y in (x.kthvalue(2, 1)[0], x.median(), x.median(1)[0], x.nanmedian(0, keepdim=True)[0], x.mode(1)[0],
          x.topk(2)[0], x.topk(2, 0, largest=False)[0], x.sort(1, descending=True)[0], x.msort(),
          torch.quantile(x, 0.3), x.sort(stable=True)[0]):
    describe(y.grad_fn)
r = x.topk(2)
print(r.values.grad_fn._saved_indices is r.indices, r.values.grad_fn._saved_indices.tolist())
'''

# ---- shape, view and indexing ops

PROGRAMS['shape_view_reshape_expand_permute'] = PRE + r'''
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
for y in (x.view(6, 4), x.reshape(-1), x.permute(2, 0, 1).reshape(4, 6), x[:, :1].expand(2, 5, 4),
          x.permute(2, 0, 1), x.transpose(0, 2), x.mT, x.flatten(1), x.unflatten(2, (2, 2)), x.movedim(0, 2),
          x.view_as(x), x.expand_as(x)):
    describe(y.grad_fn)
'''

PROGRAMS['shape_squeeze_unsqueeze_narrow_select'] = PRE + r'''
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
for y in (x[:1].squeeze(), x[:1].squeeze(0), x[:1].squeeze((0, 1)), x.unsqueeze(1), x.unsqueeze(-1),
          x.narrow(1, 1, 2), x.select(1, 2), x.select(-1, -1), x[0], x[..., 1]):
    describe(y.grad_fn)
'''

PROGRAMS['shape_slices_with_steps'] = PRE + r'''
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
for y in (x[:, ::2], x[..., 1:3:2], x[:, -2:], x[1:, 1:, ::3], x[None, 1], x[:, None, 0], x[::2, ::2, ::2]):
    describe(y.grad_fn)
    for f, _ in y.grad_fn.next_functions:
        if f is not None and f.name() != 'torch::autograd::AccumulateGrad':
            describe(f, '  <-')
'''

PROGRAMS['shape_index_select_gather_scatter'] = PRE + r'''
x = torch.arange(12.).reshape(3, 4).requires_grad_()
src = torch.ones(3, 1, requires_grad=True)
idx = torch.tensor([[0], [3], [1]])
for y in (x.index_select(1, torch.tensor([0, 3])), x.gather(1, idx), x.scatter(1, idx, 5.), x.scatter(1, idx, src),
          x.scatter_add(1, idx, src), x.scatter_reduce(1, idx, src, 'amax'), x.scatter_reduce(1, idx, src, 'mean',
          include_self=False), torch.take_along_dim(x, idx, 1)):
    describe(y.grad_fn)
y = x.gather(1, idx)
print(y.grad_fn._saved_index is idx, y.grad_fn._saved_sparse_grad)
'''

PROGRAMS['shape_masked_fill_index_put_take_put'] = PRE + r'''
x = torch.arange(12.).reshape(3, 4).requires_grad_()
v = torch.tensor(3., requires_grad=True)
for y in (x.masked_fill(x > 3, 0.), x.masked_fill(x > 3, v), x.masked_scatter(x > 8, torch.ones(12)),
          x.index_put((torch.tensor([0]), torch.tensor([1])), v), x.index_put((torch.tensor([0, 1]),),
          torch.ones(4), accumulate=True), x.take(torch.tensor([0, 5])), x.put(torch.tensor([1]), v.reshape(1)),
          x.index_fill(1, torch.tensor([0]), v), x.index_copy(0, torch.tensor([2]), torch.ones(1, 4)),
          x.index_add(1, torch.tensor([0, 0]), torch.ones(3, 2), alpha=2)):
    describe(y.grad_fn)
'''

PROGRAMS['shape_repeat_flip_roll_tile'] = PRE + r'''
x = torch.arange(12.).reshape(3, 4).requires_grad_()
for y in (x.repeat(1, 2), x.repeat(2, 1, 1), x.flip(0), x.flip(0, 1), x.roll(1), x.roll(1, 1), x.roll((1, 2), (0, 1)),
          x.tile((2,)), x.repeat_interleave(2, 1), torch.rot90(x, 1, (0, 1)), x.fliplr()):
    describe(y.grad_fn)
'''

PROGRAMS['shape_cat_stack_split_chunk_unbind'] = PRE + r'''
a = torch.arange(6.).reshape(2, 3).requires_grad_()
b = torch.ones(2, 3)
for y in (torch.cat([a, b], 1), torch.cat([b, a, a]), torch.stack([a, b]), torch.hstack([a, a]), torch.vstack([b, a]),
          a.split(2, 1)[1], a.split([1, 2], 1)[1], a.chunk(2, 1)[0], a.unbind(1)[2], a.tensor_split(3, 1)[2]):
    describe(y.grad_fn)
parts = a.unbind(0)
print([p.grad_fn.name() for p in parts], [p.grad_fn is parts[0].grad_fn for p in parts], [p.output_nr for p in parts])
'''

PROGRAMS['shape_as_strided_diagonal_tril_unfold'] = PRE + r'''
x = torch.arange(16.).reshape(4, 4).requires_grad_()
for y in (x.as_strided((2, 2), (1, 2), 1), x.diagonal(), x.diagonal(1), x.diagonal(-1, 1, 0), x.tril(), x.triu(-1),
          x.unfold(1, 2, 1), x.unfold(0, 3, 2), torch.diag(x), torch.diag_embed(x[0]), torch.diagflat(x[:2, :2])):
    describe(y.grad_fn)
'''

PROGRAMS['shape_pad_modes_saved'] = PRE + r'''
import torch.nn.functional as F
x = torch.arange(12.).reshape(1, 3, 4).requires_grad_()
for y in (F.pad(x, (1, 2)), F.pad(x, (1, 1), value=2.), F.pad(x, (1, 1), mode='reflect'),
          F.pad(x, (1, 1), mode='replicate'), F.pad(x, (1, 1), mode='circular'), F.pad(x, (0, 0, 1, 0))):
    describe(y.grad_fn)
'''

# ---- advanced indexing: the index tensors the node saves

PROGRAMS['index_saved_indices_of_tensor_list_mask'] = PRE + r'''
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
i = torch.tensor([1, 0])
for y in (x[i], x[[0, 1]], x[:, [0, 2], 1], x[x > 5], x[torch.tensor([1]), :, torch.tensor([[0], [2]])],
          x[..., [True, False, True, True]], x[torch.tensor(1), [0, 0]], x[[[0], [1]], :, [1, 2, 3]], x[1, [2, 0]]):
    n = y.grad_fn
    print(n.name(), n._saved_self_sym_sizes, y.shape)
    print('   ', [None if t is None else (t.dtype, t.tolist()) for t in n._saved_indices])
print(x[i].grad_fn._saved_indices[0] is i)
'''

PROGRAMS['index_list_indices_are_packed'] = PRE + r'''
# fixed: the long tensors PyTorch makes of list (and bool) indices are saved, so the pack hooks see them
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
log = []
for f in (lambda: x[[0, 1]], lambda: x[:, [0, 2], 1], lambda: x[..., [True, False, True, True]],
          lambda: x[torch.tensor(1), [0, 0]], lambda: x[range(2), [0, 2]], lambda: x[[[0], [1]], :, [1, 2, 3]],
          lambda: x[[0, -1]], lambda: x[..., []], lambda: x[None, [1, 0], True]):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
        y = f()
    print(y.grad_fn.name(), log)
    log.clear()
    y.sum().backward()
    print('    backward', log)
print(x.grad)
'''

PROGRAMS['index_bool_and_scalar_indices_saved'] = PRE + r'''
# fixed: x[True] / x[False] index with a long [0] / [] that the node saves (and packs)
x = torch.arange(6.).reshape(2, 3).requires_grad_()
log = []
for f in (lambda: x[True], lambda: x[False], lambda: x[torch.tensor(True)], lambda: x[None, True, [1]],
          lambda: x[1, True]):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
        y = f()
    n = y.grad_fn
    print(n.name(), y.shape, log)
    print('   ', [None if t is None else (t.dtype, t.tolist()) for t in n._saved_indices])
    s = n._saved_indices
    print('    same each read:', all(a is b for a, b in zip(s, n._saved_indices)))
'''

PROGRAMS['index_int32_and_uint8_indices_keep_dtype'] = PRE + r'''
# fixed: an int32 index or a uint8 mask is saved as given (not as the int64 / bool tensor read from it); the backward
# warns again about the uint8 mask, once per formula that indexes with it
x = torch.arange(12.).reshape(3, 4).requires_grad_()
i32 = torch.tensor([2, 0], dtype=torch.int32)
u8 = torch.tensor([1, 0, 1], dtype=torch.uint8)
for y in (x[i32], x[i32, (0, 1)], x[u8], x[:, torch.tensor([3, 1], dtype=torch.int32)]):
    s = y.grad_fn._saved_indices
    print(y.shape, [None if t is None else (t.dtype, t.tolist()) for t in s])
    print('   ', [t is i32 or t is u8 for t in s if t is not None])
    y.sum().backward()
print(x.grad)
'''

PROGRAMS['index_uint8_mask_warns_in_backward_formulas'] = PRE + r'''
# fixed: each backward formula that indexes with a saved uint8 mask gives PyTorch's deprecation warning again
x = torch.arange(12.).reshape(3, 4).requires_grad_()
u8 = torch.tensor([1, 0, 1], dtype=torch.uint8)
v = torch.ones(4, requires_grad=True)
print('index')
y = x[u8]
y.sum().backward()
print('index_put')
z = x.index_put((u8,), v)
z.sum().backward()
print('index_put accumulate')
z = x.index_put((u8,), v, accumulate=True)
z.sum().backward()
print('setitem')
w = x * 1
w[u8] = v
print([t.dtype for t in w.grad_fn._saved_indices])
w.sum().backward()
print(x.grad, v.grad)
'''

PROGRAMS['index_saved_indices_identity_and_versions'] = PRE + r'''
x = torch.arange(12.).reshape(3, 4).requires_grad_()
y = x[[0, 2]]
s = y.grad_fn._saved_indices[0]
print(s, s._version, s is y.grad_fn._saved_indices[0])
s.zero_()
E(lambda: y.grad_fn._saved_indices)
E(lambda: y.sum().backward())
i = torch.tensor([0, 2])
y = x[i]
i.add_(0)
E(lambda: y.grad_fn._saved_indices)
E(lambda: y.sum().backward())
m = x > 5
y = x[m]
m.logical_not_()
E(lambda: y.sum().backward())
y = x[[1, 1]]
y.sum().backward(retain_graph=True)
print(y.grad_fn._saved_indices, x.grad)
'''

PROGRAMS['index_raw_saved_indices_and_hooks'] = PRE + r'''
# fixed: _raw_saved_indices are the SavedTensors the backward unpacks: hooks registered on them run, and what the
# unpack hook returns is what the backward indexes with
x = torch.arange(12.).reshape(3, 4).requires_grad_()
q = x[torch.tensor([1]), [2]]
r = q.grad_fn._raw_saved_indices
print(type(r).__name__, len(r), [type(v).__name__ for v in r])
log = []
r[1].register_hooks(lambda t: log.append('pack') or t * 0 + 3, lambda t: log.append('unpack') or t)
E(lambda: r[1].register_hooks(lambda t: t, lambda t: t))
q.sum().backward()
print(log, x.grad)
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
q = x[:, [0, 2], 1]
r = q.grad_fn._raw_saved_indices
print(len(r))
E(lambda: r[0].register_hooks(lambda t: t, lambda t: t))
r[1].register_hooks(lambda t: log.append('pack2') or t, lambda t: log.append('unpack2') or t.flip(0))
q.sum().backward()
print(log, x.grad)
'''

PROGRAMS['index_after_backward_errors'] = PRE + r'''
# fixed: a freed list of saved tensors (_raw_saved_indices) raises on access, as PyTorch's getter does
x = torch.arange(12.).reshape(3, 4).requires_grad_()
for y in (x[[0, 2]], x[torch.tensor([1, 1])], x.index_put((torch.tensor([0]),), torch.ones(4)),
          x.max(1)[0], x[x > 3]):
    n = y.grad_fn
    y.sum().backward()
    for a in sorted(a for a in dir(n) if a.startswith('_saved_') or a.startswith('_raw_saved_')):
        try:
            v = getattr(n, a)
            print(n.name(), a, 'ok', type(v).__name__)
            if a.startswith('_raw_saved_'):
                for s in (v if isinstance(v, tuple) else (v,)):
                    E(lambda: s.register_hooks(lambda t: t, lambda t: t))
        except RuntimeError as e:
            print(n.name(), a, 'RuntimeError', str(e)[:70])
'''

PROGRAMS['index_setitem_and_index_put_packs'] = PRE + r'''
# fixed: a list index in an assignment is saved by IndexPutBackward0 too
x = torch.arange(12.).reshape(3, 4).requires_grad_()
v = torch.ones(4, requires_grad=True)
log = []
with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
    w = x * 1
    w[[0, 2]] = v
    z = x.index_put((torch.tensor([1, 1]),), v, accumulate=True)
    u = x * 1
    u[torch.tensor([[True, False, True, False]] * 3)] = 5.
print(log)
for t in (w, z, u):
    describe(t.grad_fn)
log.clear()
(w.sum() + z.sum() + u.sum()).backward()
print(log)
print(x.grad, v.grad)
'''

# ---- linear algebra

PROGRAMS['linalg_mm_bmm_matmul_shapes'] = PRE + r'''
torch.manual_seed(0)
A = torch.randn(3, 3, requires_grad=True)
B = torch.randn(3, 2, requires_grad=True)
v = torch.randn(3, requires_grad=True)
T = torch.randn(2, 3, 3, requires_grad=True)
for y in (A.mm(B), T.bmm(T), v @ v, A @ v, v @ A, T @ A, T @ v, A.t() @ B, torch.mv(A, v), torch.matmul(B.t(), v)):
    describe(y.grad_fn)
'''

PROGRAMS['linalg_addmm_beta_alpha_linear'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
A = torch.randn(3, 3, requires_grad=True)
B = torch.randn(3, 2, requires_grad=True)
v = torch.randn(3, requires_grad=True)
T = torch.randn(2, 3, 3, requires_grad=True)
for y in (torch.addmm(B, A, B, beta=0.5, alpha=2), torch.addmm(B, A, B), torch.addmv(v, A, v, beta=2),
          torch.addbmm(A, T, T), torch.baddbmm(T, T, T, alpha=3), torch.addr(A, v, v, alpha=2),
          F.linear(B.t(), A), F.linear(B.t(), A, v), F.linear(v, A, v), F.linear(T, A)):
    describe(y.grad_fn)
'''

PROGRAMS['linalg_einsum_outer_dot_tensordot'] = PRE + r'''
torch.manual_seed(0)
A = torch.randn(3, 3, requires_grad=True)
B = torch.randn(3, 2, requires_grad=True)
v = torch.randn(3, requires_grad=True)
for y in (torch.einsum('ij,jk->ik', A, B), torch.einsum('i,i->', v, v), torch.einsum('ii->i', A),
          torch.einsum('ij->ji', A), torch.outer(v, v), v.dot(v), torch.inner(v, v), torch.tensordot(A, A, 2),
          torch.kron(A, B), torch.linalg.vecdot(v, v), torch.linalg.multi_dot([A, A, B])):
    describe(y.grad_fn)
'''

PROGRAMS['linalg_inverse_det_slogdet_solve'] = PRE + r'''
torch.manual_seed(0)
A = torch.randn(3, 3, requires_grad=True)
B = torch.randn(3, 2, requires_grad=True)
v = torch.randn(3, requires_grad=True)
for y in (A.inverse(), torch.linalg.inv(A), A.det(), torch.linalg.slogdet(A)[1],
          torch.linalg.solve(A, B), torch.linalg.solve(A, v), torch.linalg.inv_ex(A).inverse,
          torch.linalg.solve_triangular(A, B, upper=True), torch.linalg.matrix_power(A, 3)):
    describe(y.grad_fn)
y = A.inverse()
print(y.grad_fn._saved_inverse is y, torch.equal(y.grad_fn._saved_inverse, y))
'''

PROGRAMS['linalg_decompositions_saved'] = PRE + r'''
torch.manual_seed(0)
A = torch.randn(3, 3, requires_grad=True)
P = A @ A.mT + torch.eye(3)
for y in (torch.linalg.cholesky(P), torch.linalg.cholesky_ex(P).L, torch.linalg.qr(A)[0],
          torch.linalg.qr(A, mode='complete')[1], torch.linalg.svd(A)[0], torch.svd(A)[1], torch.linalg.svdvals(A),
          torch.linalg.eigh(P)[0], torch.linalg.eigvalsh(P), torch.linalg.lu_factor(A)[0], torch.linalg.lu(A)[1],
          torch.linalg.matrix_exp(A), torch.linalg.pinv(A)):
    describe(y.grad_fn)
U, S, Vh = torch.linalg.svd(A)
print([t.grad_fn is U.grad_fn for t in (U, S, Vh)], [t.output_nr for t in (U, S, Vh)])
'''

# ---- nn.functional: convolutions, pooling, normalization, embedding, dropout

PROGRAMS['nn_conv1d_conv2d_stride_padding_dilation_groups'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 6, requires_grad=True)
w = torch.randn(4, 2, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)
X = torch.randn(1, 2, 5, 5, requires_grad=True)
W = torch.randn(2, 1, 3, 3, requires_grad=True)
for y in (F.conv1d(x, w, b, stride=2, padding=1, groups=2), F.conv1d(x, w[:, :, :2].repeat(1, 2, 1), padding='same'),
          F.conv2d(X, W, None, (2, 1), (1, 0), (1, 2), 2), F.conv_transpose2d(X, W, stride=2, groups=2),
          F.conv_transpose1d(x, w, output_padding=1, stride=2)):
    describe(y.grad_fn)
'''

PROGRAMS['nn_pooling_saved_indices'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(1, 2, 5, 5, requires_grad=True)
o, i = F.max_pool2d(X, 2, return_indices=True)
describe(o.grad_fn)
print(o.grad_fn._saved_result1 is i, torch.equal(o.grad_fn._saved_result1, i), i.requires_grad)
for y in (F.max_pool2d(X, 3, 1, 1, ceil_mode=True), F.max_pool1d(X[0], 2), F.avg_pool2d(X, 2),
          F.avg_pool2d(X, 3, 2, 1, count_include_pad=False, divisor_override=2), F.avg_pool1d(X[0], 2),
          F.adaptive_avg_pool2d(X, 2), F.adaptive_max_pool2d(X, 2), F.lp_pool2d(X, 2, 2)):
    describe(y.grad_fn)
'''

PROGRAMS['nn_batch_norm_train_and_eval'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(3, 2, 4, requires_grad=True)
rm, rv = torch.zeros(2), torch.ones(2)
g = torch.ones(2, requires_grad=True)
bb = torch.zeros(2, requires_grad=True)
for y in (F.batch_norm(X, rm, rv, g, bb, training=True), F.batch_norm(X, rm, rv, g, bb, training=False),
          F.batch_norm(X, None, None, training=True), F.batch_norm(X, rm, rv, None, bb, training=False, eps=1e-3)):
    describe(y.grad_fn)
y = F.batch_norm(X, rm, rv, g, bb, training=False)
print(y.grad_fn._saved_running_mean is rm, y.grad_fn._saved_running_var is rv)
'''

PROGRAMS['nn_layer_group_rms_instance_norm'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 6, requires_grad=True)
b = torch.randn(4, requires_grad=True)
for y in (F.layer_norm(x, (6,)), F.layer_norm(x, (4, 6), torch.ones(4, 6, requires_grad=True), torch.zeros(4, 6),
          eps=1e-3), F.group_norm(x, 2), F.group_norm(x, 2, torch.ones(4, requires_grad=True), b),
          F.rms_norm(x, (6,)), F.rms_norm(x, (6,), torch.ones(6, requires_grad=True), eps=1e-5),
          F.instance_norm(x), F.local_response_norm(x, 2)):
    describe(y.grad_fn)
'''

PROGRAMS['nn_embedding_and_dropout_seeded'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
E_ = torch.randn(5, 3, requires_grad=True)
x = torch.randn(2, 4, requires_grad=True)
for y in (F.embedding(torch.tensor([[0, 2], [4, 2]]), E_), F.embedding(torch.tensor([0, 2]), E_, padding_idx=2,
          scale_grad_by_freq=True), F.embedding(torch.tensor([0, 2]), E_, sparse=True)):
    describe(y.grad_fn)
torch.manual_seed(1)
y = F.dropout(x, 0.3)
describe(y.grad_fn)
print(y.grad_fn._saved_other.tolist())
torch.manual_seed(1)
for y in (F.dropout1d(x[None], 0.5), F.alpha_dropout(x, 0.2, True), F.feature_alpha_dropout(x[None], 0.2, True)):
    describe(y.grad_fn)
print(F.dropout(x, 0.3, training=False).grad_fn, F.dropout(x, 0.0).grad_fn)
'''

PROGRAMS['nn_embedding_bag_modes_saved'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
w = torch.randn(5, 3, requires_grad=True)
t = torch.tensor([0, 3, 1, 4])
off = torch.tensor([0, 2])
for kw in (dict(mode='sum'), dict(mode='mean'), dict(mode='max'), dict(mode='sum', per_sample_weights=torch.ones(4)),
           dict(mode='mean', include_last_offset=True), dict(mode='sum', padding_idx=3), dict(mode='max', padding_idx=0)):
    y = F.embedding_bag(t, w, off, **kw)
    print(sorted(kw), kw['mode'])
    describe(y.grad_fn)
'''

PROGRAMS['nn_embedding_bag_strided_weight_offset2bag'] = PRE + r'''
# fixed: a weight whose rows are not contiguous (or strided per-sample weights) takes PyTorch's slow path, which
# computes offset2bag (saved as _saved_result1) instead of leaving it empty
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 6, requires_grad=True)
t = torch.tensor([0, 3, 1, 5, 2, 2, 4])
psw = torch.randn(7, 2)[:, 0]
for name, make in (('mul', lambda: x.t() * 1), ('contiguous', lambda: x.t().contiguous()), ('t', lambda: x.t())):
    for kn, kw in (('none', {}), ('psw', dict(per_sample_weights=psw)), ('psw_c', dict(per_sample_weights=psw.contiguous())),
                   ('psw_expanded', dict(per_sample_weights=torch.tensor(0.5).expand(7)))):
        y = F.embedding_bag(t, make(), torch.tensor([0, 2, 5]), mode='sum', **kw)
        print(name, kn, y.grad_fn._saved_result1.tolist(), y.grad_fn._saved_result2.tolist())
        y.pow(2).sum().backward()
        print('   ', x.grad.sum(0).tolist())
        x.grad = None
'''

# ---- losses

PROGRAMS['loss_cross_entropy_weight_label_smoothing'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.tensor([0, 3, 1])
y = torch.randn(3, 4)
for loss in (F.cross_entropy(x, t), F.cross_entropy(x, t, weight=torch.rand(4), label_smoothing=0.1),
             F.cross_entropy(x, t, reduction='none', ignore_index=1), F.cross_entropy(x, y.softmax(1)),
             F.cross_entropy(x, y.softmax(1), label_smoothing=0.2, reduction='sum')):
    describe(loss.grad_fn)
    n = loss.grad_fn
    while n.next_functions and n.next_functions[0][0] is not None and n.name() != 'LogSoftmaxBackward0':
        n = n.next_functions[0][0]
        print('    <-', n.name())
'''

PROGRAMS['loss_nll_mse_l1_smooth_huber'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.tensor([0, 3, 1])
y = torch.randn(3, 4)
for loss in (F.nll_loss(x.log_softmax(1), t), F.nll_loss(x, t, weight=torch.rand(4), reduction='sum'),
             F.nll_loss(torch.randn(2, 4, 3, requires_grad=True), torch.zeros(2, 3, dtype=torch.long)),
             F.mse_loss(x, y), F.mse_loss(x, y, reduction='none'), F.l1_loss(x, y), F.l1_loss(x, y, reduction='sum'),
             F.smooth_l1_loss(x, y, beta=0.5), F.huber_loss(x, y, delta=2.), F.smooth_l1_loss(x, y, beta=0.)):
    describe(loss.grad_fn)
'''

PROGRAMS['loss_bce_kl_margin_family'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
p = torch.rand(3, 4, requires_grad=True)
q = torch.rand(3, 4)
t = torch.tensor([0, 3, 1])
for loss in (F.binary_cross_entropy(p, q), F.binary_cross_entropy(p, q, weight=torch.rand(4)),
             F.binary_cross_entropy_with_logits(x, q), F.binary_cross_entropy_with_logits(x, q, pos_weight=torch.rand(4),
             weight=torch.rand(3, 1), reduction='sum'), F.kl_div(x.log_softmax(1), q, reduction='batchmean'),
             F.kl_div(x, q.log(), log_target=True), F.soft_margin_loss(x, q.round() * 2 - 1), F.multi_margin_loss(x, t),
             F.multilabel_margin_loss(x, torch.tensor([[0, 1, -1, 0]] * 3)), F.poisson_nll_loss(x, q)):
    describe(loss.grad_fn)
'''

PROGRAMS['loss_bce_unpacks_each_saved_tensor_once'] = PRE + r'''
# fixed: the backward of the BCE losses unpacks its weight once (a version bookkeeping read it a second time)
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
log = []
with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
    losses = [F.binary_cross_entropy_with_logits(x, torch.rand(3, 4), pos_weight=torch.ones(4)),
              F.binary_cross_entropy(x.sigmoid(), torch.rand(3, 4), weight=torch.rand(4)),
              F.binary_cross_entropy(x.sigmoid(), torch.rand(3, 4)),
              F.binary_cross_entropy_with_logits(x, torch.rand(3, 4), weight=torch.rand(4))]
print(log)
for loss in losses:
    log.clear()
    loss.backward()
    print(loss.grad_fn.name(), log)
print(x.grad)
'''

PROGRAMS['loss_ctc_and_distance_losses'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
lp = torch.randn(5, 2, 4).log_softmax(2).requires_grad_()
tg = torch.tensor([[1, 2], [1, 1]])
for loss in (F.ctc_loss(lp, tg, torch.tensor([5, 5]), torch.tensor([2, 2])),
             F.ctc_loss(lp, tg, torch.tensor([5, 4]), torch.tensor([2, 1]), reduction='none', zero_infinity=True)):
    describe(loss.grad_fn)
x = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, 4)
for loss in (F.cosine_embedding_loss(x, y, torch.ones(3)), F.triplet_margin_loss(x, y, y.flip(0)),
             F.margin_ranking_loss(x[0], x[1], torch.ones(4)), F.hinge_embedding_loss(x, y.sign()),
             F.gaussian_nll_loss(x, y, torch.ones(3, 4)), F.pairwise_distance(x, y), F.normalize(x)):
    describe(loss.grad_fn)
'''

# ---- saved_tensors_hooks around each family: what is packed, in order, and what backward unpacks

PROGRAMS['hooks_pack_order_elementwise_and_binary'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(3, 4, requires_grad=True)
log = []
for name, f in (('mul', lambda: x * x.exp()), ('div', lambda: x / w), ('pow', lambda: x.abs() ** x),
                ('tanh', lambda: x.tanh()), ('where', lambda: torch.where(x > 0, x, w)),
                ('clampT', lambda: x.clamp(w, w + 1)), ('lerp', lambda: torch.lerp(x, w, w.sigmoid())),
                ('addcdiv', lambda: torch.addcdiv(x, w, x, value=2)), ('gelu', lambda: F.gelu(x)),
                ('atan2', lambda: torch.atan2(x, w)), ('hypot', lambda: torch.hypot(x, w))):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
        y = f()
    print(name, y.grad_fn.name(), log)
    log.clear()
    y.sum().backward()
    print('    backward', log)
'''

PROGRAMS['hooks_pack_order_reductions'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
log = []
for name, f in (('max', lambda: x.max(1)[0]), ('sort', lambda: x.sort(1)[0]), ('topk', lambda: x.topk(2)[0]),
                ('norm', lambda: x.norm(dim=1)), ('std', lambda: x.std(1)), ('prod', lambda: x.prod(1)),
                ('cumprod', lambda: x.cumprod(1)), ('lse', lambda: x.logsumexp(1)), ('sm', lambda: x.softmax(1)),
                ('lsm', lambda: x.log_softmax(1)), ('median', lambda: x.median()), ('kth', lambda: x.kthvalue(2, 0)[0])):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
        y = f()
    print(name, y.grad_fn.name(), log)
    log.clear()
    y.sum().backward()
    print('    backward', log)
'''

PROGRAMS['hooks_pack_order_shapes_and_indexing'] = PRE + r'''
# fixed: IndexPutBackward0 unpacks its index tensors once per backward
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.tensor([0, 2, 1])
log = []
for name, f in (('gather', lambda: x.gather(1, t[:, None])), ('index', lambda: x[t]), ('index_select', lambda: x.index_select(1, t)),
                ('scatter', lambda: x.scatter(1, t[:, None], x[:, :1])), ('scatter_add', lambda: x.scatter_add(1, t[:, None], x[:, :1])),
                ('index_put', lambda: x.index_put((t,), x[0], accumulate=True)), ('take', lambda: x.take(t)),
                ('masked_fill', lambda: x.masked_fill(x > 0, 1.)), ('cat', lambda: torch.cat([x.exp(), x])),
                ('unfold', lambda: x.unfold(1, 2, 1)), ('as_strided', lambda: x.as_strided((2, 2), (1, 2)))):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
        y = f()
    print(name, y.grad_fn.name(), log)
    log.clear()
    y.sum().backward()
    print('    backward', log)
'''

PROGRAMS['hooks_pack_order_linalg_and_nn'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(5, 4, requires_grad=True)
b = torch.randn(5, requires_grad=True)
X = torch.randn(2, 2, 5, 5, requires_grad=True)
W = torch.randn(3, 2, 3, 3, requires_grad=True)
log = []
for name, f in (('linear', lambda: F.linear(x, w, b)), ('addmm', lambda: torch.addmm(b, x, w.t())),
                ('matmul3', lambda: x[None] @ w.t()), ('conv', lambda: F.conv2d(X, W, padding=1)),
                ('bn', lambda: F.batch_norm(X, None, None, torch.ones(2, requires_grad=True), None, training=True)),
                ('ln', lambda: F.layer_norm(x, (4,), torch.ones(4, requires_grad=True))),
                ('ce', lambda: F.cross_entropy(x, torch.tensor([0, 1, 2]))), ('emb', lambda: F.embedding(torch.tensor([1, 2]), w)),
                ('det', lambda: w[:4].det()), ('solve', lambda: torch.linalg.solve(w[:4], x.t())),
                ('maxpool', lambda: F.max_pool2d(X, 2)), ('sdpa', lambda: F.scaled_dot_product_attention(x[None], x[None], x[None]))):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(*recorder(log)):
        y = f()
    print(name, y.grad_fn.name(), log)
    log.clear()
    y.sum().backward()
    print('    backward', log)
'''

PROGRAMS['hooks_inplace_on_view_packs_the_rebased_view'] = PRE + r'''
# fixed: an in-place op on a view saves its result after the view's history is rebased: the pack hook gets the view
# itself, whose grad_fn is then AsStridedBackward0 (not the op's node)
log = []
views = {}
def pack(t):
    log.append(('pack', tuple(t.shape), t.grad_fn.name() if t.grad_fn is not None else None, t.requires_grad,
                t._version, t._is_view(), [k for k, v in views.items() if v is t]))
    return t
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
w = torch.tensor([2., 3.], requires_grad=True)
for name, op in (('exp_', lambda v: v.exp_()), ('sigmoid_', lambda v: v.sigmoid_()), ('mul_w', lambda v: v.mul_(w)),
                 ('pow_', lambda v: v.pow_(2)), ('tanh_', lambda v: v.tanh_()), ('addcmul_', lambda v: v.addcmul_(w, w)),
                 ('div_w', lambda v: v.div_(w)), ('sqrt_', lambda v: v.sqrt_()), ('relu_', lambda v: v.relu_())):
    log.clear()
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        b = x * 1
        v = b[1:3]
        views.clear()
        views['v'], views['b'] = v, b
        op(v)
        out = b.sum()
    print(name, log)
    print('   ', v.grad_fn.name(), b.grad_fn.name())
    log.clear()
    out.backward()
    print('   ', log, x.grad.tolist(), w.grad)
    x.grad = w.grad = None
'''

PROGRAMS['hooks_inplace_on_view_then_double_backward'] = PRE + r'''
# fixed: the pack hooks of exp_ / sigmoid_ on a view of a clone see the view's regenerated AsStridedBackward0;
# the hooks also pack what a create_graph backward saves
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.grad_fn.name() if t.grad_fn is not None else None, t.requires_grad))
    return t
def unpack(t):
    log.append('unpack')
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x.exp() * x).sum()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    g, = torch.autograd.grad(y, x, create_graph=True)
print(log)
log.clear()
g.sum().backward()
print(log, x.grad)
log.clear()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    z = x.clone()
    z[0].exp_()
    z[1:].mul_(x[1:])
    w = z.tanh()
print(log)
log.clear()
w.sum().backward()
print(log, x.grad)
log.clear()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    q = x.clone()
    qv = q.view(3, 1)
    qv.sigmoid_()
    r = q * 2
print(log)
describe(qv.grad_fn)
describe(q.grad_fn)
log.clear()
r.sum().backward()
print(log, x.grad)
'''

PROGRAMS['hooks_inplace_ops_and_inplace_modules'] = PRE + r'''
import torch.nn as nn
log = []
keep = {}
def pack(t):
    log.append(('pack', tuple(t.shape), t.grad_fn.name() if t.grad_fn is not None else None, t.requires_grad,
                t._version, [k for k, v in keep.items() if v is t]))
    return t
x = torch.tensor([[1., -2.], [3., -4.]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    a = x * 1
    keep['a'] = a
    a.relu_()
    a.exp_()
    a.mul_(x)
    a.pow_(2)
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(inplace=True), nn.ELU(inplace=True))
    o = m(x)
for entry in log:
    print(entry)
describe(a.grad_fn)
describe(o.grad_fn)
a.sum().backward()
o.sum().backward()
print(x.grad)
'''

PROGRAMS['double_backward_graph_saved_attributes'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(4, 2, requires_grad=True)
def walk(t, k=8):
    stack, seen = [t.grad_fn], []
    while stack and len(seen) < k:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.append(n)
        describe(n)
        stack.extend(f for f, _ in reversed(n.next_functions))
for f in (lambda: (x.tanh() ** 2).sum(), lambda: F.cross_entropy(x @ w, torch.tensor([0, 1, 1])),
          lambda: x.softmax(1)[:, 0].sum(), lambda: x[[0, 2]].exp().sum(), lambda: x.max(1)[0].sum()):
    g, = torch.autograd.grad(f(), x, create_graph=True)
    print('====', g.grad_fn.name() if g.grad_fn is not None else None, g.requires_grad)
    walk(g)
'''

PROGRAMS['hooks_unpacked_identity_without_grad'] = PRE + r'''
# fixed: with hooks, a saved tensor that needs no autograd links unpacks as the unpack hook's tensor itself
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([4., 5., 6.])
kept = []
def pack(t):
    kept.append(t)
    print('pack', t.requires_grad, t.grad_fn, t is x, t is w)
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = x * w
    z = x.exp()
    m = x.max(0)
    s = x.sort()
for node, a in ((y.grad_fn, '_saved_other'), (z.grad_fn, '_saved_result'), (m.values.grad_fn, '_saved_indices'),
                (s.values.grad_fn, '_saved_indices')):
    v1, v2 = getattr(node, a), getattr(node, a)
    print(a, v1 is v2, any(v1 is k for k in kept), v1.requires_grad, v1.is_leaf, v1.grad_fn is node)
y = x * w
print(y.grad_fn._saved_other is w, y.grad_fn._saved_other is y.grad_fn._saved_other)
'''

PROGRAMS['hooks_unpack_returns_other_values'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 'packed', lambda s: torch.ones(2, 2)):
    y = x.exp()
    z = x.pow(2)
print(y.grad_fn._saved_result, z.grad_fn._saved_self)
(y.sum() + z.sum()).backward()
print(x.grad)
x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda s: 'bad'):
    y = x.sin()
E(lambda: y.grad_fn._saved_self)
E(lambda: y.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda s: torch.ones(3)):
    y = x.sin()
E(lambda: y.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda s: torch.ones(2, 2, dtype=torch.float64)):
    y = x.sin()
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['hooks_disable_save_on_cpu_nesting'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
def bad_pack(t):
    raise ValueError('no pack')
with torch.autograd.graph.saved_tensors_hooks(bad_pack, lambda s: s):
    E(lambda: x.exp())
    E(lambda: x + 1)
    E(lambda: x * x)
with torch.autograd.graph.disable_saved_tensors_hooks('hooks off'):
    E(lambda: x.exp())
    E(lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    print((x * 2).sum())
with torch.autograd.graph.save_on_cpu():
    y = (x.exp() * x).sum()
    describe(y.grad_fn.next_functions[0][0])
y.backward()
print(x.grad)
outer, inner = [], []
with torch.autograd.graph.saved_tensors_hooks(lambda t: outer.append(1) or t, lambda t: t):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: inner.append(1) or t, lambda t: t):
        a = x.exp()
    b = a.tanh()
print(len(outer), len(inner))
cnt = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: cnt.append(1) or t):
    y = (x.exp() * x).sum()
y.backward(retain_graph=True)
y.backward(retain_graph=True)
print(len(cnt))
'''

# ---- after backward, in-place ops, views

PROGRAMS['after_backward_saved_attributes_per_family'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
ys = {'exp': x.exp(), 'maxdim': x.max(1)[0], 'sort': x.sort(1)[0], 'mm': x @ x.t(),
      'ce': F.cross_entropy(x, torch.tensor([0, 1, 2])), 'mse': F.mse_loss(x, torch.zeros(3, 4)),
      'gather': x.gather(1, torch.tensor([[0], [1], [2]])), 'mask': x.masked_fill(x > 0, 1.), 'pow': x ** 2,
      'mul_num': x * 2.5, 'sum': x.sum(1), 'lse': x.logsumexp(1), 'ln': F.layer_norm(x, (4,)),
      'clampT': x.clamp(min=torch.zeros(4)), 'bn': F.batch_norm(x, torch.zeros(4), torch.ones(4), training=True)}
for k, y in ys.items():
    n = y.grad_fn
    y.sum().backward()
    out = []
    for a in sorted(a for a in dir(n) if a.startswith('_saved_')):
        try:
            out.append((a, 'ok', type(getattr(n, a)).__name__))
        except RuntimeError as e:
            out.append((a, str(e)[:40]))
    print(k, n.name(), out)
'''

PROGRAMS['after_backward_raw_saved_register_hooks'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
y.sum().backward()
E(lambda: y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t))
E(lambda: x.exp().grad_fn._raw_saved_result.register_hooks(lambda t: t))
E(lambda: x.exp().grad_fn._raw_saved_result.register_hooks(1, 2))
def twice():
    r = x.exp().grad_fn._raw_saved_result
    r.register_hooks(lambda t: t, lambda t: t)
    r.register_hooks(lambda t: t, lambda t: t)
E(twice)
E(lambda: (x * 2).grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
E(lambda: x.sum().grad_fn._raw_saved_self)
log = []
y = x.pow(3)
y.grad_fn._raw_saved_self.register_hooks(lambda t: log.append(('pack', t.requires_grad)) or t * 2,
                                        lambda t: log.append('unpack') or t)
print(y.grad_fn._saved_self, log)
y.sum().backward()
print(x.grad, log)
'''

PROGRAMS['inplace_ops_saved_tensors'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
a = x * 1
a.exp_()
describe(a.grad_fn)
print(a.grad_fn._saved_result is a, torch.equal(a.grad_fn._saved_result, a), a._version)
for op in (lambda t: t.mul_(2.), lambda t: t.pow_(2), lambda t: t.sigmoid_(), lambda t: t.clamp_(min=0.),
           lambda t: t.relu_(), lambda t: F.leaky_relu_(t, 0.1), lambda t: t.add_(x, alpha=2),
           lambda t: t.addcmul_(x, x, value=3), lambda t: t.lerp_(x, 0.5), lambda t: t.div_(torch.tensor(2.))):
    t = x * 1
    op(t)
    describe(t.grad_fn)
'''

PROGRAMS['inplace_after_save_version_errors'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
d = x * 1
d.sigmoid_()
d.mul_(3)
E(lambda: d.grad_fn.next_functions[0][0]._saved_result)
n = x * 1
n.sqrt_()
E(lambda: n.grad_fn._saved_result.shape)
n.add_(1)
E(lambda: n.grad_fn.next_functions[0][0]._saved_result)
o = x * 1
w = o.exp()
o.add_(1)
E(lambda: w.grad_fn._saved_result.shape)
p = x.exp()
q = p * p
p.add_(1)
E(lambda: q.grad_fn._saved_self)
E(lambda: q.grad_fn._saved_other)
E(lambda: q.sum().backward())
'''

PROGRAMS['inplace_on_views_copyslices'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
g = x * 1
g[0] = 5.
describe(g.grad_fn)
describe(g.grad_fn.next_functions[0][0])
g[1, 2:] *= 2
describe(g.grad_fn)
h = x * 1
h[:, 1].exp_()
describe(h.grad_fn)
c = x.clone()
d = c[:, 1]
d.exp_()
describe(d.grad_fn)
describe(c.grad_fn)
k = x * 1
k.tanh_()
k2 = k.view(12)
describe(k2.grad_fn)
k2.mul_(2)
describe(k2.grad_fn)
describe(k.grad_fn)
'''

PROGRAMS['inplace_shape_ops_and_fills'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
i = x * 1
i.masked_fill_(x > 0, 0.)
describe(i.grad_fn)
i.index_fill_(1, torch.tensor([0]), 1.)
describe(i.grad_fn)
j = x * 1
j.scatter_(1, torch.tensor([[0], [1], [2]]), 2.)
describe(j.grad_fn)
j.index_add_(0, torch.tensor([0]), x[:1])
describe(j.grad_fn)
l = x * 1
for op in (lambda t: t.t_(), lambda t: t.unsqueeze_(0), lambda t: t.squeeze_(), lambda t: t.transpose_(0, 1)):
    op(l)
    describe(l.grad_fn)
m = x * 1
for op in (lambda t: t.copy_(x.detach()), lambda t: t.zero_(), lambda t: t.fill_(2.)):
    op(m)
    describe(m.grad_fn)
'''

PROGRAMS['views_saved_tensor_properties'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
def P(tag, t, ref=None):
    print(tag, t._is_view(), t._base is None, t.is_leaf, t.requires_grad, t._version, t.stride(), t.is_contiguous(),
          t.grad_fn.name() if t.grad_fn else None,
          None if ref is None else (t is ref, t.data_ptr() == ref.data_ptr(), torch.equal(t, ref)))
xt = x.t()
y = xt * xt.exp()
P('self', y.grad_fn._saved_self, xt)
P('other', y.grad_fn._saved_other)
v = x[1:]
e = v.exp()
P('result', e.grad_fn._saved_result, e)
s = x.sigmoid()
P('sigmoid', s.grad_fn._saved_result, s)
n = x.exp()
n2 = n.t() @ n
P('mm_self', n2.grad_fn._saved_self, n.t())
P('mm_mat2', n2.grad_fn._saved_mat2, n)
with torch.no_grad():
    k = x * 2
kk = k.requires_grad_() ** 2
P('k', kk.grad_fn._saved_self, k)
o = x.double().tanh()
P('tanh', o.grad_fn._saved_result, o)
print(y.grad_fn._saved_self.grad_fn is xt.grad_fn)
'''

# ---- node hooks, metadata, AccumulateGrad

PROGRAMS['node_hooks_and_prehooks_per_family'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
def show(tag):
    def h(*args):
        print(tag, [None if a is None else [None if g is None else (tuple(g.shape), round(float(g.sum()), 4))
                                            for g in a] for a in args])
    return h
for y in (x.exp().sum(1), F.linear(x, torch.ones(2, 4)).relu(), x[[0, 2]].mean(), x.max(1)[0],
          x.sort(1)[0][:, 0], F.cross_entropy(x, torch.tensor([0, 1, 2])), torch.cat([x, x]).std(0), x.unbind(0)[1] * 2):
    n = y.grad_fn
    hs = [n.register_prehook(show('pre ' + n.name())), n.register_hook(show('post ' + n.name()))]
    nx = n.next_functions[0][0]
    if nx is not None:
        hs.append(nx.register_hook(show('next ' + nx.name())))
    y.sum().backward()
    for h in hs:
        h.remove()
    print(round(x.grad.sum().item(), 4))
    x.grad = None
'''

PROGRAMS['node_hooks_replace_gradients_and_errors'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = (x * 2).sum()
y.grad_fn.register_prehook(lambda go: (go[0] * 3,))
y.backward()
print(x.grad)
x.grad = None
y = (x * 2).sum()
y.grad_fn.next_functions[0][0].register_hook(lambda gi, go: (torch.ones(1),))
E(lambda: y.backward())
y = (x * 2).sum()
y.grad_fn.next_functions[0][0].register_hook(lambda gi, go: (None, None))
E(lambda: y.backward())
h = (x * 2).grad_fn.register_hook(lambda gi, go: None)
print(type(h).__name__, h.remove(), h.remove())
y = x.exp().sum()
y.grad_fn.next_functions[0][0].register_hook(lambda gi, go: (gi[0] * 0,))
y.backward()
print(x.grad)
'''

PROGRAMS['node_metadata_and_accumulate_grad'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
acc = y.grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is x, acc.next_functions, dict(acc.metadata))
print(sorted(a for a in dir(acc) if a.startswith('_saved') or a.startswith('_raw')))
E(lambda: acc._saved_variable)
print(acc is x.exp().grad_fn.next_functions[0][0])
y.grad_fn.metadata['layer'] = 'exp'
print(dict(y.grad_fn.metadata), y.grad_fn.metadata is y.grad_fn.metadata)
h = acc.register_prehook(lambda g: print('acc pre', g[0]))
y.sum().backward()
h.remove()
z = x * 2
z.grad_fn.metadata['k'] = [1, 2]
print(z.grad_fn.metadata, type(z.grad_fn.metadata).__name__)
'''

PROGRAMS['walk_graph_of_small_model'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
x = torch.randn(5, 4)
loss = F.cross_entropy(model(x), torch.tensor([0, 1, 1, 0, 1]))
params = {p: n for n, p in model.named_parameters()}
seen, order, stack = set(), [], [loss.grad_fn]
while stack:
    node = stack.pop()
    if node is None or node in seen:
        continue
    seen.add(node)
    order.append(node)
    stack.extend(f for f, _ in reversed(node.next_functions))
for node in order:
    saved = sorted(a for a in dir(node) if a.startswith('_saved_'))
    var = getattr(node, 'variable', None)
    print(node.name(), [(f.name() if f else None, i) for f, i in node.next_functions], saved,
          params.get(var) if var is not None else '')
'''

PROGRAMS['walk_graph_saved_tensor_sizes_like_viz'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
x = torch.randn(2, 4)
y = (F.relu(x @ w + b) ** 2).mean()
def saved_tensors(node):
    out = []
    for a in sorted(n for n in dir(node) if n.startswith('_saved_')):
        v = getattr(node, a)
        if isinstance(v, torch.Tensor):
            out.append((a[7:], tuple(v.shape), v is w, v is x))
        elif v is not None:
            out.append((a[7:], v))
    return out
node, depth = y.grad_fn, 0
while node is not None:
    print('  ' * depth + node.name(), saved_tensors(node))
    nxt = [f for f, _ in node.next_functions if f is not None and f.name() != 'torch::autograd::AccumulateGrad']
    node, depth = (nxt[0] if nxt else None), depth + 1
'''

PROGRAMS['modules_saved_attributes'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
mods = [nn.Linear(4, 3), nn.Conv1d(2, 4, 3, padding=1), nn.Conv2d(2, 2, 3, groups=2, bias=False), nn.BatchNorm1d(4),
        nn.LayerNorm(4), nn.GroupNorm(2, 4), nn.Embedding(5, 4), nn.Bilinear(4, 4, 2), nn.PReLU(),
        nn.InstanceNorm1d(4, affine=True), nn.ConvTranspose1d(4, 2, 2)]
ins = [torch.randn(2, 4), torch.randn(1, 2, 5), torch.randn(1, 2, 4, 4), torch.randn(3, 4), torch.randn(2, 4),
       torch.randn(2, 4, 3), torch.tensor([1, 3]), (torch.randn(2, 4), torch.randn(2, 4)), torch.randn(2, 4),
       torch.randn(1, 4, 3), torch.randn(1, 4, 3)]
for mod, i in zip(mods, ins):
    out = mod(*i) if isinstance(i, tuple) else mod(i)
    print(type(mod).__name__)
    describe(out.grad_fn)
'''

PROGRAMS['custom_function_saved_tensors_and_raw'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x, None)
        ctx.k = k
        return x * x * k
    @staticmethod
    def backward(ctx, g):
        x, n = ctx.saved_tensors
        return 2 * x * g * ctx.k, None
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x, 3)
n = y.grad_fn
print(n.name(), sorted(a for a in dir(n) if 'saved' in a))
print(n.saved_tensors[0] is x, n.saved_tensors[1], n.k, n.needs_input_grad, len(n.next_functions))
r = n._raw_saved_tensors
print(type(r).__name__, len(r), [type(v).__name__ for v in r])
log = []
r[0].register_hooks(lambda t: log.append('p') or t, lambda t: log.append('u') or t)
E(lambda: r[1].register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
print(log, x.grad)
E(lambda: n.saved_tensors)
E(lambda: n._raw_saved_tensors)
with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append(('P', t.shape)) or t, lambda t: log.append('U') or t):
    y = Sq.apply(x, 2)
print(log)
y.sum().backward()
print(log)
'''

PROGRAMS['next_functions_with_inputs_not_requiring_grad'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4)
c = torch.randn(3, 4, requires_grad=True)
def N(y):
    print(y.grad_fn.name(), [(f.name() if f is not None else None, i) for f, i in y.grad_fn.next_functions])
for y in (torch.addcmul(b, a, b), torch.addcmul(a, b, c), torch.addcdiv(b, b, a), torch.lerp(b, a, c),
          torch.where(a > 0, b, a), torch.cat([b, a, b, c]), torch.stack([b, a]), a.clamp(b, c), b.clamp(a, None),
          torch.addmm(b[:, :3], a, c.t()), F.linear(b, a), F.layer_norm(b, (4,), a[0], None),
          F.batch_norm(b, None, None, a[0], None, True), b.index_put((torch.tensor([0]),), a[0]),
          b.masked_scatter(b > 0, a), b.scatter(1, torch.tensor([[0]] * 3), a), F.mse_loss(b, a),
          torch.complex(a, b), torch.atan2(b, a), b.pow(a), torch.einsum('ij,ij,ij->', a, b, c)):
    N(y)
'''

PROGRAMS['saved_number_and_optional_arguments'] = PRE + r'''
x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
y = x.clamp(min=None, max=1)
print(y.grad_fn._saved_min, y.grad_fn._saved_max, type(y.grad_fn._saved_max).__name__)
y = x.clamp(min=-1.)
print(y.grad_fn._saved_min, y.grad_fn._saved_max)
y = torch.add(x, x, alpha=2.5)
print(y.grad_fn._saved_alpha, type(y.grad_fn._saved_alpha).__name__)
y = x.sum(dim=(0,), keepdim=True)
print(y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self_sym_sizes)
y = x.sum(-1)
print(y.grad_fn._saved_dim)
y = x.cumsum(-1)
print(y.grad_fn._saved_dim)
y = x.unsqueeze(-1).squeeze(-1)
print(y.grad_fn._saved_dim, y.grad_fn.next_functions[0][0]._saved_dim)
y = x.narrow(-1, 1, 2)
print(y.grad_fn.name(), y.grad_fn._saved_dim, y.grad_fn._saved_start, y.grad_fn._saved_end, y.grad_fn._saved_step)
y = x[-2:]
print(y.grad_fn._saved_start, y.grad_fn._saved_end, y.grad_fn._saved_step)
y = x ** 2
print(y.grad_fn._saved_exponent, type(y.grad_fn._saved_exponent).__name__)
y = x ** 2.0
print(y.grad_fn._saved_exponent, type(y.grad_fn._saved_exponent).__name__)
'''


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first binary_cross_entropy with a weight takes a second (a lazy import), and its first run of a
    program imports modules too: done here, so that no program's time depends on whether it is the first."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.nn.functional.binary_cross_entropy(torch.rand(2), torch.rand(2), weight=torch.rand(2))
        run_both("import torch\n")


# Each program runs as in a fresh process (``parity.fresh_warn_once``: the warnings given once per process are given
# whatever ran before in this process).
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
