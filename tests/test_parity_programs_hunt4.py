"""Parity programs found by a fourth hunt for differences from PyTorch (autograd tutorial-style code).

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and both stdouts must be identical once object addresses are masked. Every program here printed something
different from PyTorch before its fix (or guards a neighbouring case): anomaly-mode and ``create_graph``
warnings (text and timing), in-place activations (``F.elu(x, inplace=True)``, ``nn.ReLU6(inplace=True)``),
``x.T``/``x.mT``/``x.H``/``x.adjoint()``, ``F.pairwise_distance``'s ``NormBackward1``, the norms' double
backward, ``torch.tensor`` of NumPy scalars, ``load_state_dict`` of BatchNorm, in-place math methods and
``torch.xxx_`` functions, the deprecated spellings (``torch.range``, ``set_default_tensor_type``,
``volatile``), the layout constants and assorted error messages. Warnings are printed by the programs
themselves (``warnings.catch_warnings(record=True)``), since only stdout is compared.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['anomaly_warning_texts'] = r'''
import torch
import warnings
x = torch.tensor([0., 1.], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.autograd.detect_anomaly():
        try:
            (x.sqrt() / x).sum().backward()
        except RuntimeError as e:
            print(e)
    msgs = [str(m.message) for m in w]
print(len(msgs))
print(msgs[0])
print(msgs[1].splitlines()[0])
print(repr(msgs[1].splitlines()[-1]))
y = (x.sqrt() / x).sum()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.autograd.detect_anomaly():
        try:
            y.backward()
        except RuntimeError as e:
            print(e)
    print([str(m.message) for m in w][1:])
'''

PROGRAMS['anomaly_previous_calculation_is_its_own_warning'] = r'''
import torch
import warnings
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=False):
    y = x.sqrt()
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.autograd.detect_anomaly():
        try:
            (g * 0).sum().backward()
        except RuntimeError as e:
            print(e)
msgs = [str(m.message) for m in w]
print(len(msgs))
print(msgs[1].splitlines()[0])
print(repr(msgs[1].splitlines()[-1]))
print(repr(msgs[2]))
'''

PROGRAMS['return_types_attribute_errors'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
r = torch.tensor([[1., 5.], [3., 2.]], requires_grad=True).max(1)
E(lambda: r.grad_fn)
E(lambda: r.values.grad_fn.name())
def assign():
    r[0] = 1
def delete():
    del r[1]
E(assign)
E(lambda: setattr(r, 'values', 1))
E(lambda: setattr(r, 'other', 1))
E(delete)
E(lambda: torch.ones(3).topk(2).shape)
E(lambda: torch.ones(3).sort().backward())
E(lambda: torch.linalg.qr(torch.eye(2)).foo)
E(lambda: torch.linalg.qr(torch.eye(2)).Q)
E(lambda: len(r) + r.n_fields)
'''

PROGRAMS['transposes_T_mT_H_adjoint'] = r'''
import torch
import warnings
warnings.simplefilter('ignore')
def E(f):
    try:
        r = f()
        print(r, r.grad_fn, r._base is not None or r.is_complex())   # (minigrad's conj is no view)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
z = torch.tensor([[1 + 1j, 2 - 3j]], requires_grad=True)
a = torch.tensor(1.5, requires_grad=True)
for f in [lambda: x.T, lambda: x.mT, lambda: x.H, lambda: x.mH, lambda: x.adjoint(), lambda: torch.adjoint(x),
          lambda: z.H, lambda: z.mH, lambda: z.adjoint(), lambda: z.T, lambda: a.T, lambda: a.mT, lambda: a.H,
          lambda: a.mH, lambda: a.adjoint(), lambda: torch.ones(3, requires_grad=True).T,
          lambda: torch.ones(3).H, lambda: torch.ones(3).mH, lambda: torch.ones(3).mT,
          lambda: torch.ones(3).adjoint(), lambda: torch.ones(2, 2, 2).H, lambda: torch.ones(2, 1, 3).mT]:
    E(f)
print(a.mT is a, a.H is a, z.H.grad_fn.next_functions)
(x.H @ x.mT).sum().backward()
print(x.grad)
'''

PROGRAMS['broadcast_to_sizes_one_by_one'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x.broadcast_to(3, 2)
print(y, y.grad_fn, y.grad_fn._saved_self_sym_sizes)
print(torch.broadcast_to(x, (2, 2)).shape, torch.broadcast_to(x, size=[1, 2]).shape, x.broadcast_to((4, 2)).shape)
y.sum().backward()
print(x.grad)
try:
    x.broadcast_to(3)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['pairwise_distance_norm_backward1'] = r'''
import torch
import torch.nn.functional as F
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = torch.tensor([[0.5, 1., 2.], [1., 1., 1.]])
r = F.pairwise_distance(x, y)
print(r, r.grad_fn.next_functions, r.grad_fn.next_functions[0][0].next_functions)
print(r.grad_fn._saved_dim, r.grad_fn._saved_keepdim, r.grad_fn._saved_p, r.grad_fn._saved_self)
r.sum().backward()
print(x.grad)
print(F.pairwise_distance(x, y, p=1, keepdim=True))
print(F.pairwise_distance(x, y, p=3).grad_fn._saved_p, torch.nn.PairwiseDistance(p=1)(x, y))
print(F.pairwise_distance(torch.tensor([1., 2.], requires_grad=True), torch.zeros(2)).grad_fn._saved_dim)
g, = torch.autograd.grad(F.pairwise_distance(x, y).sum(), x, create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions)
g.sum().backward()
print(x.grad)
'''

PROGRAMS['norm_double_backward_graphs'] = r'''
import torch
x = torch.tensor([[1., -2., 3.], [4., 5., -6.]], requires_grad=True)
def names(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is not None and depth < 6:
        out.append(fn.name())
        for n, _ in fn.next_functions:
            names(n, depth + 1, out)
    return out
for p in [2, 3, 1, float('inf'), 0.5, 1.5]:
    for dim in [1, None, ()]:
        r = torch.linalg.vector_norm(x * 1, p, dim=dim)
        g, = torch.autograd.grad(r.sum(), x, create_graph=True)
        print(p, dim, g.grad_fn.name(), names(g.grad_fn))
        h, = torch.autograd.grad(g.pow(2).sum(), x)
        print(h)
g, = torch.autograd.grad(x.norm(dim=0, keepdim=True).sum(), x, create_graph=True)
print(g, names(g.grad_fn))
g, = torch.autograd.grad(torch.dist(x, torch.ones(2, 3), 3), x, create_graph=True)
print(g, names(g.grad_fn))
'''

PROGRAMS['norm_zero_has_no_gradient'] = r'''
import torch
x = torch.tensor([[1., 0., 3.]], requires_grad=True)
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: x.norm(0))
E(lambda: torch.autograd.grad(x.norm(0), x))
E(lambda: torch.autograd.grad(x.norm(0), x, allow_unused=True))
E(lambda: torch.autograd.grad(x.norm(0) + x.sum(), x))
E(lambda: torch.autograd.grad(x.norm(0), x, materialize_grads=True))
x.norm(0).backward()
print(x.grad)
'''

PROGRAMS['load_state_dict_fills_num_batches_tracked'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(1)
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
m(torch.randn(3, 2))
sd = m.state_dict()
print(sd._metadata)
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
m2 = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
E(lambda: m2.load_state_dict({k: v for k, v in sd.items() if k != '1.num_batches_tracked'}))
print(m2[1].num_batches_tracked)
sd2 = m.state_dict()
del sd2['1.num_batches_tracked']
E(lambda: m2.load_state_dict(sd2))
E(lambda: m2.load_state_dict(dict(sd)))
print(m2[1].num_batches_tracked, m2[1].running_mean)
E(lambda: m2.load_state_dict({'x': torch.ones(1)}))
E(lambda: m2.load_state_dict({k: v for k, v in sd.items() if 'bias' not in k}, strict=False))
E(lambda: m2[1].load_state_dict({'weight': torch.ones(2), 'bias': torch.ones(2), 'running_mean': torch.ones(2),
                                 'running_var': torch.ones(2)}))
print(m2[1].state_dict())
print(m2[0].state_dict()._metadata, list(nn.Linear(1, 1).state_dict(prefix='lin.').keys()))
'''

PROGRAMS['layout_and_memory_format_constants'] = r'''
import torch
x = torch.ones(2, 3, requires_grad=True)
print(x.layout, torch.strided, x.layout == torch.strided, x.layout is torch.strided, type(x.layout).__name__)
print(torch.sparse_coo, torch.contiguous_format, torch.preserve_format, torch.channels_last)
print(type(torch.contiguous_format).__name__, [torch.strided], {'layout': torch.strided})
print(x.is_contiguous(memory_format=torch.contiguous_format), x.clone(memory_format=torch.contiguous_format).grad_fn)
print(torch.zeros(2, layout=torch.strided), torch.empty_like(x, memory_format=torch.preserve_format).shape)
print(x.t().contiguous(memory_format=torch.contiguous_format).is_contiguous())
'''

PROGRAMS['tensor_of_numpy_scalars_keeps_their_dtype'] = r'''
import torch
import numpy as np
def E(f):
    try:
        t = f()
        print(repr(t), t.dtype)
    except Exception as e:
        print(type(e).__name__, e)
for v in [np.float64(3.5), np.float32(3.5), np.int32(3), np.int64(3), np.bool_(True), np.float16(1.5),
          [np.float64(1.5)], [np.float64(1.5), 2.0], [np.int32(1)], [np.float32(1), np.float64(2)],
          np.complex128(1 + 2j), (np.float64(1.), np.float64(2.)), [[np.float64(1)]], np.uint8(3),
          [np.int16(2), 3], [np.float16(1), 2.5], [np.int8(1), np.uint8(2)], [np.complex64(1j), np.float64(1)]]:
    E(lambda: torch.tensor(v))
E(lambda: torch.as_tensor(np.float64(2.5)))
E(lambda: torch.tensor(np.float64(2.5), dtype=torch.float32))
E(lambda: torch.tensor(np.float64(2), requires_grad=True))
x = torch.tensor(np.float64(0.5), requires_grad=True)
(x * torch.ones(3)).sum().backward()
print(x.grad, (torch.ones(2) * np.float64(3.5)).dtype, (torch.ones(2, dtype=torch.int32) * np.int64(2)).dtype)
'''

PROGRAMS['inplace_activations_backward'] = r'''
import torch
import torch.nn.functional as F
fs = [('elu', lambda t: F.elu(t, inplace=True)), ('selu', lambda t: F.selu(t, inplace=True)),
      ('celu', lambda t: F.celu(t, 2., inplace=True)), ('hardtanh', lambda t: F.hardtanh(t, inplace=True)),
      ('relu6', lambda t: F.relu6(t, inplace=True)), ('hardsigmoid', lambda t: F.hardsigmoid(t, inplace=True)),
      ('hardswish', lambda t: F.hardswish(t, inplace=True)), ('mish', lambda t: F.mish(t, inplace=True)),
      ('leaky', lambda t: F.leaky_relu(t, 0.2, inplace=True)), ('silu', lambda t: F.silu(t, inplace=True))]
for name, f in fs:
    x = torch.tensor([-1.5, 0.25, 2.], requires_grad=True)
    y = x * 1
    r = f(y)
    fn = r.grad_fn
    print(name, r is y, r, y._version, fn.next_functions)
    print('  ', [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith('_saved')])
    r.sum().backward()
    print('  ', x.grad)
def E(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([-1.5, 0.25, 2.], requires_grad=True)
E(lambda: F.leaky_relu(x * 1, -0.2, inplace=True).sum().backward())
E(lambda: F.elu(x * 1, -0.5, inplace=True).sum().backward())
E(lambda: F.elu(x, inplace=True))
'''

PROGRAMS['inplace_activation_modules'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(5)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU6(inplace=True), nn.Linear(4, 4), nn.ELU(inplace=True),
                    nn.Linear(4, 4), nn.Hardswish(inplace=True), nn.Linear(4, 4), nn.LeakyReLU(0.1, inplace=True),
                    nn.Linear(4, 4), nn.Hardtanh(inplace=True), nn.Linear(4, 4), nn.SELU(inplace=True),
                    nn.Linear(4, 4), nn.Mish(inplace=True), nn.Linear(4, 4), nn.Hardsigmoid(inplace=True),
                    nn.Linear(4, 1))
print(net)
x = torch.randn(5, 3)
out = net(x)
print(out.grad_fn.next_functions)
loss = out.pow(2).mean()
loss.backward()
print(loss, net[-1].weight.grad)
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
chained = nn.Sequential(nn.Linear(3, 4), nn.SELU(inplace=True), nn.CELU(inplace=True))
E(lambda: chained(x).sum().backward())
E(lambda: nn.Tanh(inplace=True))
E(lambda: nn.Sigmoid(1))
E(lambda: nn.Hardswish(True, 2))
E(lambda: nn.Mish(inplace=False))
E(lambda: nn.Module(5))
E(lambda: nn.Module(x=5))
'''

PROGRAMS['activation_saved_scalars_are_pytorchs_defaults'] = r'''
import torch
import torch.nn.functional as F
x = torch.tensor([-1.5, 0.25, 2.], requires_grad=True)
for f in [F.elu, F.selu, F.relu6, F.hardtanh, lambda t: F.hardtanh(t, -2, 2), torch.nn.ReLU6(), torch.nn.ELU(),
          torch.nn.ELU(2), lambda t: F.elu(t, 1), F.leaky_relu, F.celu, F.softplus, lambda t: F.softplus(t, 2, 5),
          torch.nn.Softplus(), torch.nn.SELU(), torch.nn.CELU(), torch.nn.Hardtanh()]:
    fn = f(x).grad_fn
    print(fn.name(), [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith('_saved') and a != '_saved_self'])
'''

PROGRAMS['inplace_functional_activations_and_shrinks'] = r'''
import torch
import torch.nn.functional as F
x = torch.tensor([-1.5, 0.25, 0.75, 2.], requires_grad=True)
for f in [F.relu_, F.elu_, F.selu_, F.celu_, F.leaky_relu_, F.hardtanh_, torch.relu_, torch.selu_, torch.celu_,
          lambda t: F.leaky_relu_(t, 0.3), lambda t: F.hardtanh_(t, -0.5, 0.5), lambda t: F.elu_(t, 0.5)]:
    y = x * 1
    r = f(y)
    fn = r.grad_fn
    print(r is y, r, [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith('_saved') and a != '_saved_self'])
for f in [F.hardshrink, F.softshrink, lambda t: F.hardshrink(t, 1), lambda t: F.softshrink(t, 0.3),
          torch.nn.Hardshrink(), torch.nn.Softshrink(0.6), lambda t: t.hardshrink(0.3), lambda t: torch.hardshrink(t)]:
    r = f(x)
    g, = torch.autograd.grad(r.sum(), x, create_graph=True)
    print(r, r.grad_fn._saved_lambd, g, g.grad_fn)
print(torch.nn.Hardshrink(), torch.nn.Softshrink(0.3), torch.nn.Hardshrink(1))
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: F.softshrink(x, -1))
E(lambda: F.softshrink(x.double(), -0.5))
E(lambda: F.hardshrink(torch.tensor([1, 2])))
E(lambda: F.relu_(x))
'''

PROGRAMS['inplace_math_methods_and_torch_functions'] = r'''
import torch
def E(f):
    try:
        r = f()
        print(r, type(r.grad_fn).__name__ if r.grad_fn is not None else None)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([-0.5, 0.25, 0.75], requires_grad=True)
for n in ['sinh_', 'cosh_', 'asin_', 'acos_', 'atan_', 'erf_', 'erfc_', 'arcsin_', 'arctan_', 'deg2rad_', 'rad2deg_',
          'sinc_', 'logit_', 'nan_to_num_', 'negative_', 'exp_', 'relu_', 'sigmoid_', 'tanh_', 'sqrt_', 'abs_']:
    E(lambda: getattr(x * 1, n)())
    E(lambda: getattr(torch, n)(x * 1))
    E(lambda: getattr(torch.tensor([1, 2]), n)())
for n in ['lgamma_', 'digamma_']:
    E(lambda: getattr(x + 2, n)())
E(lambda: (x * 1).subtract_(1))
E(lambda: (x * 1).multiply_(2))
E(lambda: (x * 1).divide_(2))
E(lambda: (x * 1).true_divide_(4))
E(lambda: (x * 1).logit_(0.1))
E(lambda: torch.sinh_(x))
y = x * 1
y.sinh_()
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['inplace_inverse_hyperbolics_have_no_derivative'] = r'''
import torch
x = torch.tensor([-0.5, 0.25, 0.75], requires_grad=True)
for n in ['asinh_', 'atanh_', 'acosh_', 'arcsinh_']:
    y = x * 1 + (1.5 if 'cosh' in n else 0)
    r = getattr(y, n)()
    print(r, r.grad_fn.name(), [a for a in dir(r.grad_fn) if a.startswith('_saved')])
    try:
        r.sum().backward()
    except NotImplementedError as e:
        print('NotImplementedError', e)
print(torch.tensor([1., 2.]).asinh_(), torch.tensor([0.5]).atanh_(), torch.asinh_(torch.tensor([3.])))
with torch.no_grad():
    print((x * 1).asinh_())
print(torch.asinh(x).grad_fn, (x * 1).sinh_().grad_fn)
'''

PROGRAMS['integer_remainder_by_zero'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
a = torch.tensor([5, -3])
E(lambda: a % 0)
E(lambda: a.remainder(0))
E(lambda: torch.fmod(a, 0))
E(lambda: a % torch.tensor([0, 1]))
E(lambda: torch.fmod(a, torch.tensor([1, 0])))
E(lambda: 5 % torch.tensor([0]))
E(lambda: a.float() % 0)
E(lambda: a % 0.)
E(lambda: a % 2)
E(lambda: torch.fmod(a, torch.tensor([1., 0.])))
E(lambda: a // torch.tensor([1, 0]))
'''

PROGRAMS['masked_fill_checks_shapes_first'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: torch.zeros(2, 3).masked_fill(torch.tensor([1, 0]), 1.))
E(lambda: torch.zeros(2, 3).masked_fill(torch.tensor([1, 0, 1]), 1.))
E(lambda: torch.zeros(2, 3).masked_fill(torch.tensor([True, False]), 1.))
E(lambda: torch.zeros(4, 3).masked_fill(torch.ones(2, 1, dtype=torch.bool), 1.))
E(lambda: torch.zeros(2, 1).masked_fill(torch.ones(3, dtype=torch.bool), 1.))
'''

PROGRAMS['embedding_index_out_of_range'] = r'''
import torch
torch.manual_seed(3)
emb = torch.nn.Embedding(5, 2)
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: emb(torch.tensor([5])))
E(lambda: emb(torch.tensor([-1])))
E(lambda: torch.nn.functional.embedding(torch.tensor([[7]]), torch.ones(5, 2)))
E(lambda: torch.nn.functional.embedding(torch.tensor([], dtype=torch.long), torch.ones(5, 2)))
E(lambda: emb(torch.tensor([[0, 4], [2, 2]])).shape)
'''

PROGRAMS['get_parameter_and_get_buffer'] = r'''
import torch
import torch.nn as nn
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
m = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(2))
E(lambda: m.get_parameter('0.nope'))
E(lambda: m.get_parameter('2.weight'))
E(lambda: m.get_parameter('0.training'))
E(lambda: m.get_parameter('1.running_mean'))
E(lambda: m.get_parameter('1.weight').shape)
E(lambda: m.get_buffer('1.weight'))
E(lambda: m.get_buffer('1.nope'))
E(lambda: m.get_buffer('1.running_var'))
E(lambda: m.get_buffer('1.num_batches_tracked'))
E(lambda: m.get_submodule('0.x'))
'''

PROGRAMS['deprecated_spellings'] = r'''
import torch
import warnings
def E(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            print(f())
        except Exception as e:
            print(type(e).__name__, e)
    for m in w:
        print('warning:', m.message)
x = torch.ones(2, requires_grad=True)
E(lambda: x.volatile)
E(lambda: torch.autograd.Variable(torch.ones(2), volatile=True))
E(lambda: torch.autograd.Variable(torch.ones(2), volatile=True, requires_grad=True))
E(lambda: setattr(x, 'volatile', True))
E(lambda: torch.autograd.Variable(torch.ones(2), volatile=False))
E(lambda: torch.range(0, 1, 0.25))
E(lambda: torch.range(1, 4, dtype=torch.int64))
E(lambda: torch.range(0, 1, 0.3, requires_grad=True))
E(lambda: torch.range(5, 1, -1.5))
E(lambda: torch.range(0, 0.3, 0.1))
E(lambda: torch.range(3))
E(lambda: torch.range(3, 1))
'''

PROGRAMS['set_default_tensor_type'] = r'''
import torch
import warnings
warnings.simplefilter('ignore')   # (the deprecation warning comes once per process)
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.ones(2), torch.tensor([1.5]), torch.get_default_dtype(), torch.randn(2).dtype)
x = torch.tensor([1., 2.], requires_grad=True)
print((x * 2).sum())
torch.set_default_tensor_type('torch.FloatTensor')
print(torch.ones(2), torch.get_default_dtype())
E(lambda: torch.set_default_tensor_type(torch.IntTensor))
E(lambda: torch.set_default_tensor_type(torch.float64))
print(torch.get_default_dtype())
'''

PROGRAMS['typename_scalar_tensor_and_aliases'] = r'''
import torch
x = torch.ones(2, requires_grad=True)
print(torch.typename(x), torch.typename(1), torch.typename(torch.nn.Linear(1, 1)), torch.typename(x.double()),
      torch.typename(torch.ones(1, dtype=torch.long)), torch.typename([]), torch.typename(x.bool()))
print(torch.is_inference(x), torch.is_signed(x), torch.is_same_size(x, x), x.is_same_size(torch.ones(3)),
      torch.is_signed(torch.ones(1, dtype=torch.uint8)))
print(torch.scalar_tensor(3.5), torch.scalar_tensor(2, dtype=torch.int64), torch.scalar_tensor(True),
      torch.scalar_tensor(1, requires_grad=True))
print(x.greater(0), x.less_equal(1), x.not_equal(1), torch.greater_equal(x, 1), torch.less(x, 2),
      x.greater_equal(x), x.less(x * 2))
with torch.inference_mode():
    print(torch.is_inference(torch.ones(1)))
'''

PROGRAMS['third_derivatives_node_names'] = r'''
import torch
import torch.nn.functional as F
for dt in [torch.float32, torch.float64]:
    x = torch.tensor([0.3, -0.7, 1.2, 2.5, -3.1], requires_grad=True, dtype=dt)
    fs = {'log2': lambda t: torch.log2(t + 4), 'log10': lambda t: torch.log10(t + 4), 'softplus': F.softplus,
          'softplus2': lambda t: F.softplus(t, 2, 3), 'asinh': torch.asinh, 'erf': torch.erf, 'erfc': torch.erfc,
          'tanh': torch.tanh, 'sigmoid': torch.sigmoid, 'gelu': F.gelu, 'sin': torch.sin}
    for name, f in fs.items():
        y = f(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        h, = torch.autograd.grad(g.sum(), x, create_graph=True)
        k, = torch.autograd.grad(h.sum(), x)
        print(name, g, h, k)
'''

PROGRAMS['modified_saved_output_names_the_overload'] = r'''
import torch
import torch.nn.functional as F
x = torch.tensor([-1.5, 0.25, 2.], requires_grad=True)
def E(f):
    try:
        f()
        print('ok')
    except RuntimeError as e:
        print(str(e).split(' is at version')[0])
def leaky():
    r = F.leaky_relu(x * 1, 0.1, inplace=True); r.add_(1); r.sum().backward()
def celu():
    r = F.celu(x * 1, 2., inplace=True); r.add_(1); r.sum().backward()
def elu():
    r = F.elu(x * 1, inplace=True); r.add_(1); r.sum().backward()
def exp():
    b = (x + 1.5).exp(); c = b.exp(); b.add_(1); c.sum().backward()
def custom():
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            r = a * 2
            ctx.save_for_backward(r)
            return r
        @staticmethod
        def backward(ctx, g):
            r, = ctx.saved_tensors
            return g * r
    r = Twice.apply(x); r.add_(1); r.sum().backward()
def clone():
    a = x.clone(); b = a * a; a.add_(1); b.sum().backward()
for f in [leaky, celu, elu, exp, custom, clone]:
    E(f)
'''

PROGRAMS['log2_log10_erf_first_and_second_grads'] = r'''
import torch
x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)
for f in [torch.log2, torch.log10, torch.erf, torch.erfc, torch.asinh]:
    y = f(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(g, g.grad_fn, [n.name() if n else None for n, _ in g.grad_fn.next_functions])
    h, = torch.autograd.grad(g.sum(), x)
    print(h)
'''


def test_create_graph_warning_comes_after_the_backward(monkeypatch) -> None:
    """PyTorch's warning reaches Python when its C++ engine returns: after anything the backward did."""
    import minigrad
    monkeypatch.setattr(minigrad._warn_once, "_WARNED", set())   # (a warning given once per process)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seen_in_backward = []

        class Noisy(minigrad.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                seen_in_backward.append(len(caught))
                return g * 2

        x = minigrad.ones(2, requires_grad=True)
        Noisy.apply(x).sum().backward(create_graph=True)
    assert seen_in_backward == [0]
    assert [str(w.message)[:38] for w in caught] == ["Using backward() with create_graph=Tru"]
    assert x.grad.tolist() == [2.0, 2.0]

PROGRAMS['init_deprecated_spellings'] = r'''
import torch
import warnings
torch.manual_seed(0)
w = torch.empty(2, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    for n in ['xavier_uniform', 'xavier_normal', 'kaiming_uniform', 'kaiming_normal', 'normal', 'uniform',
              'orthogonal', 'eye']:
        r = getattr(torch.nn.init, n)(w)
        print(n, r is w, r)
    print(torch.nn.init.constant(w, 0.5), torch.nn.init.dirac(torch.empty(2, 2, 3)))
    print(torch.nn.init.normal.__name__)
for m in caught:
    print(m.category.__name__, m.message)
'''

PROGRAMS['gradient_norm_utilities'] = r'''
import torch
import warnings
ps = [torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(3))]
for p in ps:
    p.grad = torch.ones_like(p) * 2
g = [p.grad for p in ps]
n = torch.nn.utils.get_total_norm(g)
print(n, torch.nn.utils.get_total_norm(g, 'inf'), torch.nn.utils.get_total_norm(torch.ones(3)),
      torch.nn.utils.get_total_norm([], 2.0))
print(torch.nn.utils.clip_grads_with_norm_(ps, 1.0, n), ps[0].grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    print(torch.nn.utils.clip_grad_norm(ps, 0.1), ps[1].grad)
print([(m.category.__name__, str(m.message)) for m in caught])
print(torch.nn.utils.clip_grad_norm_(ps, 0.1, norm_type=1), torch.nn.utils.clip_grad_norm_([], 1.))
'''

PROGRAMS['nn_buffer_assignment'] = r'''
import torch
import torch.nn as nn
b = nn.Buffer(torch.ones(2))
print(b, isinstance(b, nn.Buffer), isinstance(torch.ones(1), nn.Buffer), b.persistent, b.requires_grad)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.b = nn.Buffer(torch.ones(2))
        self.c = nn.Buffer(torch.zeros(1), persistent=False)
        self.d = nn.Buffer(torch.ones(1, requires_grad=True))
        self.lin = nn.Linear(2, 1)
    def forward(self, x):
        return self.lin(x * self.b)
m = M()
print(list(m.named_buffers()), m.state_dict().keys(), m)
m.b = nn.Buffer(torch.zeros(2), persistent=False)
print(list(m.state_dict().keys()))
m.b = torch.ones(2) * 7
m.c = nn.Buffer(torch.ones(1))
print(list(m.named_buffers()), list(m.state_dict().keys()))
print(nn.Buffer(), [n for n, _ in m.named_parameters()])
m.double()
print(m.b.dtype, m(torch.ones(1, 2, dtype=torch.float64)).grad_fn)
'''

PROGRAMS['read_only_tensor_attributes'] = r'''
import torch
x = torch.ones(2, requires_grad=True)
for a in ['grad_fn', 'is_leaf', 'shape', 'dtype', 'device', 'ndim', 'output_nr', '_version', 'is_cuda', 'layout', 'T',
          'mT', 'H', 'mH', 'retains_grad', 'itemsize', 'nbytes', 'is_sparse', 'is_quantized', 'is_meta', 'is_cpu',
          'requires_grad', 'grad']:
    try:
        setattr(x, a, None)
        print(a, 'ok')
    except Exception as e:
        print(a, type(e).__name__, e)
print(x.is_sparse, x.is_cuda, x.is_cpu, x.is_meta, x.is_quantized, x.is_conj(), x.is_neg(), x.grad, x.requires_grad)
'''

PROGRAMS['requires_grad_must_be_a_bool'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.ones(2, requires_grad=True)
y = x * 2
for v in [True, False, 1, None]:
    E(lambda: setattr(y, 'requires_grad', v))
    E(lambda: setattr(x, 'requires_grad', v))
    print(x.requires_grad)
E(lambda: setattr(torch.ones(2, dtype=torch.long), 'requires_grad', True))
E(lambda: y.requires_grad_(True))
E(lambda: y.requires_grad_(False))
for v in [1, 0, None, 'a']:
    E(lambda: torch.nn.Parameter(torch.ones(1), v))
print(torch.nn.Parameter(torch.ones(1), False))
'''

PROGRAMS['sign_of_integers_and_nan'] = r'''
import torch
print(torch.tensor([7, -7, 5, -5]).sign(), torch.tensor([7, -7, 0], dtype=torch.int8).sign(),
      torch.tensor([True, False]).sign(), torch.tensor([3, 0], dtype=torch.uint8).sign())
print(torch.tensor([-0.0, 0.0, -2.5, float('nan'), float('inf')]).sign(), torch.tensor([-1.5, 2], dtype=torch.float16).sign())
x = torch.tensor([7, -7, 5, -5])
x.sign_()
print(x, torch.sign(torch.tensor([-3, 4])))
y = torch.tensor([-2., 3.], requires_grad=True)
s = y.sign()
print(s, s.grad_fn.name())
s.sum().backward()
print(y.grad)
'''

PROGRAMS['softmax_of_integers_needs_a_dtype'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: torch.tensor([1, 2]).softmax(0))
E(lambda: torch.tensor([1, 2]).log_softmax(0))
E(lambda: torch.softmax(torch.tensor([[1, 2]]), 0))
E(lambda: torch.nn.functional.softmax(torch.tensor([1, 2]), 0))
E(lambda: torch.nn.functional.log_softmax(torch.tensor([True]), 0))
E(lambda: torch.log_softmax(torch.tensor([[1, 2]]), 0))
E(lambda: torch.tensor([1, 2]).softmax(0, dtype=torch.float32))
E(lambda: torch.nn.functional.log_softmax(torch.tensor([[1, 2]]), 1, dtype=torch.float64))
E(lambda: torch.nn.Softmax(dim=1)(torch.tensor([[1, 2]])))
'''

PROGRAMS['bitwise_with_numbers_on_either_side'] = r'''
import torch
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
a = torch.tensor([1, 2])
for f in [lambda: a << 1.5, lambda: a >> 0.5, lambda: a & 1.5, lambda: a | 2.0, lambda: a ^ True, lambda: a << True,
          lambda: 1.5 << a, lambda: 2 << a, lambda: 16 >> a, lambda: torch.tensor([True]) << 1, lambda: a.float() << 1,
          lambda: a.double() & 1, lambda: a & torch.tensor([1.5]), lambda: torch.bitwise_left_shift(a, 1.5),
          lambda: torch.bitwise_and(a, 2.5), lambda: True & torch.tensor([True, False]), lambda: 3 | torch.tensor([4]),
          lambda: 1 ^ torch.tensor([3]), lambda: 1.5 & torch.tensor([3]), lambda: False | torch.tensor([True]),
          lambda: torch.tensor([3], dtype=torch.uint8) & 1, lambda: torch.tensor([3], dtype=torch.int8) << torch.tensor([1])]:
    E(f)
'''

PROGRAMS['forward_ad_layer_norm_glu_det_inv_cross'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
x = torch.tensor([[0.3, -0.7, 1.2, 0.5], [2.0, -1.5, 0.1, -0.3]], dtype=torch.float64)
t = torch.tensor([[1., 0.5, -1., 0.3], [0.2, 0.3, -0.4, 0.9]], dtype=torch.float64)
w = torch.tensor([1.5, -0.5, 2., 1.], dtype=torch.float64)
wt = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    dw = fwAD.make_dual(w, wt)
    for f in [lambda: F.layer_norm(d, (4,)), lambda: F.layer_norm(d, (4,), dw, dw * 2), lambda: F.layer_norm(x, (4,), dw),
              lambda: F.layer_norm(d, (2, 4)), lambda: torch.nn.LayerNorm(4, dtype=torch.float64)(d),
              lambda: F.glu(d, 1), lambda: F.glu(d, 0), lambda: torch.linalg.det(d[:, :2]),
              lambda: torch.det(d.view(2, 2, 2)), lambda: torch.linalg.inv(d[:, :2] + torch.eye(2, dtype=torch.float64)),
              lambda: torch.linalg.cross(d[:, :3], x[:, 1:]), lambda: torch.cross(x[:, :3], d[:, 1:], dim=1),
              lambda: d[:, :2].inverse()]:
        print(fwAD.unpack_dual(f()).tangent)
'''

PROGRAMS['forward_ad_index_inputs_and_unsupported_ops'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
x = torch.tensor([[0.3, -0.7, 1.2, 0.5], [2.0, -1.5, 0.1, -0.3]], dtype=torch.float64)
t = torch.tensor([[1., 0.5, -1., 0.3], [0.2, 0.3, -0.4, 0.9]], dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(fwAD.unpack_dual(d.take(torch.tensor([0, 5, 7]))).tangent)
    print(fwAD.unpack_dual(torch.take(d, torch.tensor([[6, 1]]))).tangent)
    print(fwAD.unpack_dual(torch.nn.functional.embedding(torch.tensor([1, 0, 1]), d)).tangent)
    print(fwAD.unpack_dual(torch.nn.Embedding.from_pretrained(d)(torch.tensor([[0], [1]]))).tangent)
    try:
        torch.cdist(d, d)
    except NotImplementedError as e:
        print('NotImplementedError', e)
'''

PROGRAMS['set_grad_enabled_repr'] = r'''
import torch
r = torch.set_grad_enabled(False)
print(r, torch.is_grad_enabled())
print([torch.set_grad_enabled(True)], torch.is_grad_enabled())
with torch.set_grad_enabled(False) as ctx:
    print(ctx, torch.is_grad_enabled())
print(torch.is_grad_enabled())
'''

PROGRAMS['optimizer_duplicate_params_and_adadelta_groups'] = r'''
import torch
import warnings
p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    opt = torch.optim.SGD([p, p], lr=0.1)
print([str(m.message) for m in caught])
print(opt)
print(torch.optim.Adadelta([p]).state_dict()['param_groups'])
print(torch.optim.Adadelta([p], lr=0.5, weight_decay=0.1))
'''

PROGRAMS['margin_and_likelihood_losses'] = r'''
import torch
import torch.nn.functional as F
def names(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is not None:
        out.append(fn.name())
        for n, _ in fn.next_functions:
            names(n, depth + 1, out)
    return out
a = torch.tensor([[0.3, -0.7, 1.2], [2.0, -1.5, 0.1]], requires_grad=True)
b = torch.tensor([[0.5, 0.2, -1.0], [1.0, 1.5, -0.2]], requires_grad=True)
t = torch.tensor([1., -1.])
s = torch.tensor([[1., -1, 1], [-1, 1, -1]])
cases = [lambda: F.margin_ranking_loss(a[:, 0], b[:, 0], t, margin=0.5),
         lambda: F.margin_ranking_loss(a[:, 0], b[:, 0], t, reduction='none'),
         lambda: F.hinge_embedding_loss(a, s), lambda: F.hinge_embedding_loss(a, s, margin=0.5, reduction='sum'),
         lambda: F.soft_margin_loss(a, s), lambda: F.soft_margin_loss(a, s, reduction='none'),
         lambda: F.poisson_nll_loss(a, b.detach().abs()),
         lambda: F.poisson_nll_loss(a.abs(), b.detach().abs() * 3, log_input=False, full=True),
         lambda: F.gaussian_nll_loss(a, b.detach(), torch.ones(2, 3)),
         lambda: F.gaussian_nll_loss(a, b.detach(), torch.ones(2) * 0.5, full=True, reduction='sum'),
         lambda: F.gaussian_nll_loss(a, b.detach(), 0.3),
         lambda: F.multilabel_soft_margin_loss(a, torch.tensor([[1., 0, 1], [0, 1, 0]])),
         lambda: F.multilabel_soft_margin_loss(a, torch.tensor([[1., 0, 1], [0, 1, 0]]), weight=torch.tensor([1., 2., 3.]),
                                               reduction='none'),
         lambda: F.cosine_embedding_loss(a, b, t, margin=0.1), lambda: F.cosine_embedding_loss(a[0], b[0], torch.tensor(-1.)),
         lambda: F.triplet_margin_loss(a, b, a * 0.5),
         lambda: F.triplet_margin_loss(a, b, a * 0.5, swap=True, p=1, margin=2.0, reduction='none'),
         lambda: F.multi_margin_loss(a, torch.tensor([2, 0])),
         lambda: F.multi_margin_loss(a, torch.tensor([1, 2]), p=2, margin=2.0, weight=torch.tensor([1., 2., 3.]),
                                     reduction='none'),
         lambda: F.multi_margin_loss(a[0], torch.tensor(1))]
for f in cases:
    a.grad = None
    b.grad = None
    r = f()
    print(r, names(r.grad_fn))
    print('  ', [(n, getattr(r.grad_fn, n)) for n in sorted(dir(r.grad_fn)) if n.startswith('_saved_')
                 and n not in ('_saved_self', '_saved_other', '_saved_result', '_saved_condition')])
    r.sum().backward()
    print('  ', a.grad, b.grad)
g, = torch.autograd.grad(F.soft_margin_loss(a, s), a, create_graph=True)
print(g, g.grad_fn.next_functions)
print(torch.autograd.grad(g.sum(), a))
g, = torch.autograd.grad(F.multi_margin_loss(a, torch.tensor([2, 0])), a, create_graph=True)
print(g, g.grad_fn.next_functions)
try:
    torch.autograd.grad(g.sum(), a)
except RuntimeError as e:
    print(e)
'''

PROGRAMS['margin_loss_modules_and_errors'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
a = torch.tensor([[0.3, -0.7, 1.2], [2.0, -1.5, 0.1]], requires_grad=True)
b = torch.tensor([[0.5, 0.2, -1.0], [1.0, 1.5, -0.2]])
t = torch.tensor([1., -1.])
s = torch.tensor([[1., -1, 1], [-1, 1, -1]])
print(nn.MarginRankingLoss(), nn.HingeEmbeddingLoss(margin=2.), nn.SoftMarginLoss(), nn.MultiLabelSoftMarginLoss(),
      nn.MultiMarginLoss(p=2), nn.CosineEmbeddingLoss(0.5), nn.TripletMarginLoss(), nn.PoissonNLLLoss(), nn.GaussianNLLLoss())
print(nn.MarginRankingLoss(0.3)(a[:, 0], b[:, 0], t), nn.HingeEmbeddingLoss()(a, s), nn.SoftMarginLoss(reduction='sum')(a, s),
      nn.MultiLabelSoftMarginLoss()(a, (s > 0).float()), nn.MultiMarginLoss()(a, torch.tensor([0, 2])),
      nn.CosineEmbeddingLoss()(a, b, t), nn.TripletMarginLoss(margin=0.5)(a, b, -a), nn.PoissonNLLLoss()(a, b.abs()),
      nn.GaussianNLLLoss()(a, b, torch.ones(2, 1)))
E(lambda: F.soft_margin_loss(a, s.clone().requires_grad_()))
E(lambda: F.margin_ranking_loss(a, b[:, 0], t))
E(lambda: F.cosine_embedding_loss(a, b, s))
E(lambda: F.cosine_embedding_loss(a, b, torch.tensor(1.)))
E(lambda: F.cosine_embedding_loss(a[0], b[0], t))
E(lambda: F.triplet_margin_loss(a, b, a, margin=0))
E(lambda: F.triplet_margin_loss(a, b[0], a))
E(lambda: F.multi_margin_loss(a, torch.tensor([0, 1]), p=3))
E(lambda: F.multi_margin_loss(a, torch.tensor([0, 1]), weight=torch.ones(1, 3)))
E(lambda: F.poisson_nll_loss(a, b, reduction='bad'))
E(lambda: F.gaussian_nll_loss(a, b, -torch.ones(2, 3)))
E(lambda: F.gaussian_nll_loss(a, b, torch.ones(3, 3)))
E(lambda: F.gaussian_nll_loss(a, b, torch.ones(2, 3), reduction='bad'))
E(lambda: F.multilabel_soft_margin_loss(a, s, reduction='bad'))
E(lambda: nn.TripletMarginLoss(margin=-1))
E(lambda: nn.MultiMarginLoss(p=3))
E(lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2)))
print(nn.MultiMarginLoss(weight=torch.ones(3)).weight, nn.MultiLabelSoftMarginLoss(weight=torch.ones(3)).state_dict())
'''

PROGRAMS['cyclic_lr_schedules'] = r'''
import torch
p = torch.nn.Parameter(torch.zeros(1))
for kw in [dict(), dict(mode='triangular2'), dict(mode='exp_range', gamma=0.9), dict(step_size_down=3),
           dict(scale_fn=lambda x: 0.5, scale_mode='iterations')]:
    o = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    s = torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2, **kw)
    lrs = []
    for _ in range(9):
        o.step()
        s.step()
        lrs.append((round(s.get_last_lr()[0], 8), round(o.param_groups[0]['momentum'], 8)))
    print(lrs)
o = torch.optim.Adam([p], lr=0.1)
s = torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2)
o.step()
s.step()
print(o.param_groups[0]['betas'], s.get_last_lr(), type(s).__name__)
print(sorted(s.state_dict().keys()))
for f in [lambda: torch.optim.lr_scheduler.CyclicLR(torch.optim.Adagrad([p]), 0.01, 0.1),
          lambda: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, mode='bad')]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.optim.lr_scheduler.CyclicLR(torch.optim.Adagrad([p]), 0.01, 0.1, cycle_momentum=False).get_last_lr())
'''

PROGRAMS['hardsigmoid_hardswish_gradients'] = r'''
import torch
import torch.nn.functional as F
x = torch.tensor([-2.5, -0.7, 0.3, 1.2, 3.5, -3.0, 3.0], requires_grad=True)
for f in [F.hardsigmoid, F.hardswish, lambda t: F.hardswish(t * 1, inplace=True), lambda t: F.hardsigmoid(t * 1, inplace=True)]:
    y = f(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(g, g.grad_fn.next_functions, [(a, getattr(g.grad_fn, a)) for a in dir(g.grad_fn) if a.startswith('_saved')])
    try:
        print(torch.autograd.grad(g.sum(), x))
    except RuntimeError as e:
        print('RuntimeError', e)
torch.manual_seed(0)
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    x = (torch.randn(6) * 4).to(dt).requires_grad_()
    for f in [F.hardsigmoid, F.hardswish]:
        y = f(x)
        y.pow(2).sum().backward()
        print(y, x.grad)
        x.grad = None
'''

PROGRAMS['div_with_rounding_mode_none_is_another_overload'] = r'''
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
for f in [lambda: x.div(x, rounding_mode=None), lambda: torch.div(x, 2., rounding_mode=None), lambda: x.div(2, rounding_mode=None),
          lambda: torch.true_divide(x, x), lambda: x.divide(x, rounding_mode=None), lambda: x.div(x, rounding_mode='floor'),
          lambda: x / 2, lambda: x.div(2), lambda: torch.div(torch.tensor([3, 4]), 2, rounding_mode=None),
          lambda: x.div(x.double(), rounding_mode=None)]:
    r = f()
    fn = r.grad_fn
    print(r, fn.name() if fn else None, fn.next_functions if fn else '',
          [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith('_saved')] if fn else '')
g, = torch.autograd.grad(x.div(x * 2 + 1, rounding_mode=None).sum(), x, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x))
o = torch.empty(2, 2)
torch.div(x.detach(), 4, rounding_mode=None, out=o)
print(o)
'''

PROGRAMS['sample_next_functions_deep'] = r'''
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = (a * b).exp().sum() / a.norm()
def walk(fn, depth=0):
    if fn is None:
        print('  ' * depth + 'None'); return
    print('  ' * depth + type(fn).__name__, fn.name())
    for n, i in fn.next_functions:
        walk(n, depth + 1)
walk(c.grad_fn)
print(c)
c.backward()
print(a.grad, b.grad)
'''

PROGRAMS['sample_grad_mode_variants'] = r'''
import torch
x = torch.tensor([1.5], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y)
@torch.no_grad()
def f(t): return t * 3
print(f(x))
@torch.enable_grad()
def g(t): return t * 3
with torch.no_grad():
    print(g(x))
torch.set_grad_enabled(False)
print((x*2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x*2).requires_grad)
print((x*2).requires_grad)
@torch.set_grad_enabled(False)
def h(t): return t + 1
print(h(x))
print(torch.no_grad(), torch.enable_grad())
print(type(torch.set_grad_enabled(True)).__name__)
'''

PROGRAMS['sample_inference_mode_basic'] = r'''
import torch
x = torch.ones(2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y, y.requires_grad, y.is_inference(), x.is_inference())
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: y.add_(1))
E(lambda: (y * x).sum().backward())
E(lambda: y.requires_grad_())
with torch.inference_mode(False):
    z = x * 2
print(z.is_inference(), z.grad_fn)
@torch.inference_mode()
def k(t): return t ** 2
print(k(x))
print(torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    t = torch.zeros(2)
    t.add_(1)
    print(t)
E(lambda: t.add_(1))
print(t.clone().add_(1))
'''

PROGRAMS['sample_nonscalar_backward_errors'] = r'''
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x ** 2
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: y.backward())
E(lambda: y.backward(torch.ones(2)))
E(lambda: y.backward(torch.ones(2, 2, dtype=torch.float64)))
E(lambda: y.backward(torch.ones(4)))
E(lambda: y.backward(torch.ones(2, 2), retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(2, 2)))
E(lambda: y.backward(torch.ones(2, 2)))
print(x.grad)
E(lambda: y.sum().backward(torch.tensor(2.)))
E(lambda: y.sum().backward(torch.tensor([2.])))
print(x.grad)
'''

PROGRAMS['sample_create_graph_higher'] = r'''
import torch
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = (x ** 4).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
h, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(h)
t, = torch.autograd.grad(h.sum(), x, create_graph=True)
print(t)
q, = torch.autograd.grad(t.sum(), x)
print(q)
x.grad = None
z = torch.sin(x).prod()
z.backward(create_graph=True)
print(x.grad)
print(x.grad.grad_fn)
x.grad.sum().backward()
print(x.grad)
'''

PROGRAMS['sample_node_hooks_pre_post'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = a.exp()
c = b.sum()
def pre(grad_outputs):
    print('pre', grad_outputs)
def post(grad_inputs, grad_outputs):
    print('post', grad_inputs, grad_outputs)
b.grad_fn.register_prehook(pre)
b.grad_fn.register_hook(post)
c.grad_fn.register_hook(post)
c.backward()
print(a.grad)
acc = b.grad_fn.next_functions[0][0]
acc.register_prehook(lambda g: print('acc pre', g))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
b.sum().backward() if False else None
d = a.exp().sum()
d.backward()
print(a.grad)
'''

PROGRAMS['sample_custom_function_materialize'] = r'''
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        r = torch.zeros(2)
        if g1 is not None: r = r + g1
        if g2 is not None: r = r + 2 * g2
        return r
x = torch.tensor([1., 2.], requires_grad=True)
a, b = Two.apply(x)
a.sum().backward()
print(x.grad)
class Two2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return g1 + g2
x.grad = None
a, b = Two2.apply(x)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['sample_autograd_grad_args'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = torch.tensor([5., 6.], requires_grad=True)
out = (x * y).sum()
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: torch.autograd.grad(out, [x, z], retain_graph=True))
E(lambda: torch.autograd.grad(out, [x, z], allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, [x, z], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, [x, z], materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, [x, z], allow_unused=False, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, x, grad_outputs=torch.tensor(2.), retain_graph=True))
E(lambda: torch.autograd.grad(out, x, grad_outputs=torch.tensor([2.]), retain_graph=True))
E(lambda: torch.autograd.grad([x * 2, y * 3], [x, y], grad_outputs=[torch.ones(2), None]))
E(lambda: torch.autograd.grad(out, x))
E(lambda: torch.autograd.grad(out, x))
E(lambda: torch.autograd.grad(x.sum(), torch.ones(2)))
E(lambda: torch.autograd.grad(torch.ones(2).sum(), x))
'''

PROGRAMS['sample_autograd_grad_batched'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
v = torch.eye(3)
g, = torch.autograd.grad(y, x, grad_outputs=v, is_grads_batched=True)
print(g)
y2 = x.sin()
g2, = torch.autograd.grad(y2, x, torch.stack([torch.ones(3), 2 * torch.ones(3)]), is_grads_batched=True, retain_graph=True)
print(g2)
try:
    torch.autograd.grad(y2, x, torch.ones(3), is_grads_batched=True)
except Exception as e:
    print(type(e).__name__, e)
'''

PROGRAMS['sample_functional_multi_inputs'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian
def f(a, b): return a * b, a + b.sum()
a = torch.tensor([1., 2.]); b = torch.tensor([3., 4.])
J = jacobian(f, (a, b))
print(type(J), len(J), type(J[0]))
print(J)
H = hessian(lambda a, b: (a * b).sum() ** 2, (a, b))
print(H)
print(jacobian(lambda a: a.sum(), a))
print(jacobian(lambda a: a, torch.tensor(2.)))
print(hessian(lambda a: a ** 3, torch.tensor(2.)))
print(jacobian(lambda a: a * 0 + 1, a, strict=False))
try:
    jacobian(lambda a: torch.ones(2), a, strict=True)
except Exception as e:
    print(type(e).__name__, e)
'''

PROGRAMS['sample_views_inplace'] = r'''
import torch
x = torch.ones(4, requires_grad=True)
y = x * 2
v = y[1:3]
print(v._base is y, v.is_leaf, v.grad_fn, v._version, y._version)
v.mul_(3)
print(y, y.grad_fn, v.grad_fn, v._version, y._version)
print(y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
a = torch.zeros(2, 3, requires_grad=True).clone()
r = a.view(6)
r[2] = 5
print(a, a.grad_fn)
t = a.t()
t.exp_()
print(a.grad_fn, t.grad_fn)
u = a.unsqueeze(0)
u.add_(1)
print(u.grad_fn, a.grad_fn)
d = a.diagonal()
d.zero_()
print(d.grad_fn, a.grad_fn, a._version)
'''

PROGRAMS['sample_as_strided_and_output_nr'] = r'''
import torch
x = torch.arange(6.).requires_grad_()
y = x.as_strided((2, 2), (1, 2))
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
a, b = torch.ones(4, requires_grad=True).clone().split(2)
print(a.output_nr, b.output_nr, a.grad_fn, b.grad_fn)
u = torch.ones(3, 2, requires_grad=True).unbind(1)
print([t.output_nr for t in u], u[1].grad_fn)
m, i = torch.tensor([[1., 5.], [3., 2.]], requires_grad=True).max(1)
print(m.output_nr, i.output_nr, m.grad_fn, i.grad_fn)
c = torch.ones(2, requires_grad=True).chunk(2)
print(c[1].grad_fn, c[1].output_nr, c[1]._base)
'''

PROGRAMS['sample_inplace_saved_modified'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sigmoid()
z = y * 2
y.add_(1)
E(lambda: z.sum().backward())
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = b.exp()
b.mul_(2)
E(lambda: c.sum().backward())
c2 = b ** 2
b[0] = 0
E(lambda: c2.sum().backward())
p = torch.tensor([1., 2.], requires_grad=True)
q = p * 1
r = q.tanh()
r.mul_(2)
E(lambda: r.sum().backward())
m = torch.ones(2, 2, requires_grad=True)
n = m @ m
o = n.t()
o.add_(1)
E(lambda: (n @ n).sum().backward())
k = torch.ones(3, requires_grad=True) * 2
l = k.pow(2)
k.data.mul_(2)
E(lambda: l.sum().backward())
'''

PROGRAMS['sample_saved_tensors_hooks'] = r'''
import torch
def pack(t):
    print('pack', t.shape, t.requires_grad)
    return t.detach().clone()
def unpack(t):
    print('unpack', t.shape)
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.pow(2)
    z = y.sin()
    w = x * y
print('built')
(z.sum() + w.sum()).backward()
print(x.grad)
with torch.autograd.graph.save_on_cpu():
    q = (x * x).sum()
q.backward()
print(x.grad)
with torch.autograd.graph.disable_saved_tensors_hooks('no hooks here'):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e:
        print(e)
'''

PROGRAMS['sample_forward_ad_dual'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
primal = torch.tensor([1., 2., 3.])
tangent = torch.tensor([1., 0., 0.5])
with fwAD.dual_level():
    d = fwAD.make_dual(primal, tangent)
    print(d)
    out = d.sin() * d
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    print(fwAD.unpack_dual(out))
    print(type(fwAD.unpack_dual(out)).__name__)
    print(fwAD.unpack_dual(primal))
    e = d.exp().sum()
    print(fwAD.unpack_dual(e).tangent)
    m = d.reshape(3, 1) @ d.reshape(1, 3)
    print(fwAD.unpack_dual(m).tangent)
try:
    fwAD.make_dual(primal, tangent)
except RuntimeError as e:
    print(e)
with fwAD.dual_level():
    try:
        fwAD.make_dual(primal, torch.ones(2))
    except RuntimeError as e:
        print(e)
    try:
        fwAD.make_dual(primal, torch.ones(3, dtype=torch.float64))
    except Exception as e:
        print(type(e).__name__, e)
'''

PROGRAMS['sample_saved_attrs_many'] = r'''
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
def show(t):
    fn = t.grad_fn
    names = sorted(a for a in dir(fn) if a.startswith('_saved_'))
    print(fn.name(), names)
    for a in names:
        try:
            v = getattr(fn, a)
        except Exception as e:
            v = type(e).__name__
        print('  ', a, v)
show(x.sum(1, keepdim=True))
show(x.mean(0))
show(x.max(1)[0])
show(x.max())
show(x.softmax(1))
show(x.log_softmax(0))
show(x.transpose(0, 1))
show(x.permute(1, 0))
show(x.reshape(4))
show(x.view(-1))
show(x.expand(3, 2, 2))
show(x[0])
show(x[:, 1])
show(x[[0, 1], [1, 0]])
show(x.clamp(min=1.5))
show(x.clamp(1.5, 3.5))
show(x.pow(3))
show(x ** x)
show(2 ** x)
show(x.norm())
show(x.norm(dim=1))
show(x.cumsum(0))
show(x.prod())
show(x.prod(1))
show(x.std())
show(x.var(1))
show(torch.cat([x, x], 1))
show(torch.stack([x, x]))
show(x.squeeze())
show(x.unsqueeze(2))
show(x.repeat(2, 1))
show(x.flip(0))
show(x.roll(1, 0))
show(x.gather(1, torch.tensor([[0], [1]])))
show(x.index_select(0, torch.tensor([1])))
show(x.masked_fill(x > 2, 0.))
show(torch.where(x > 2, x, x * 2))
show(x.sort(1)[0])
show(x.narrow(1, 0, 1))
show(x.t() @ x)
show(x @ torch.ones(2))
show(torch.addmm(torch.ones(2), x, x))
show(x.lerp(torch.zeros(2, 2), 0.3))
show(x.atan2(x))
show(x.div(x, rounding_mode=None))
show(x.sub(x, alpha=2))
show(x.add(x, alpha=3))
show(x.trace())
show(x.tril())
show(x.diag())
show(x.amax(1))
show(x.logsumexp(1))
show(x.dist(torch.zeros(2, 2)))
show(torch.nn.functional.relu(x))
show(torch.nn.functional.leaky_relu(x, 0.2))
show(torch.nn.functional.elu(x))
show(torch.nn.functional.gelu(x))
show(torch.nn.functional.softplus(x, beta=2))
show(torch.nn.functional.hardtanh(x))
show(torch.nn.functional.mse_loss(x, torch.zeros(2, 2)))
show(torch.nn.functional.l1_loss(x, torch.zeros(2, 2)))
show(torch.nn.functional.smooth_l1_loss(x, torch.zeros(2, 2), beta=0.5))
show(torch.nn.functional.cross_entropy(x, torch.tensor([0, 1])))
show(torch.nn.functional.nll_loss(x, torch.tensor([0, 1])))
show(torch.nn.functional.linear(x, x, torch.ones(2)))
show(torch.nn.functional.layer_norm(x, (2,)))
show(torch.nn.functional.normalize(x))
'''

PROGRAMS['sample_print_suffix_wrapping'] = r'''
import torch
torch.manual_seed(0)
for n in [5, 6, 7, 8, 9, 10, 11, 12]:
    x = torch.randn(n, requires_grad=True)
    print(x * 1)
    print(x.double() * 1)
for n in [3, 4, 5, 6]:
    print(torch.randn(2, n, dtype=torch.float64, requires_grad=True).sum(0))
print(torch.arange(8.).requires_grad_() * 100000)
print(torch.full((7,), 1234.5678, requires_grad=True) + 0)
print(torch.full((7,), 1234.5678, dtype=torch.float16))
print(torch.full((9,), -1e-3, dtype=torch.float64) * torch.ones(9, requires_grad=True))
'''

PROGRAMS['sample_print_precision_grads'] = r'''
import torch
torch.manual_seed(3)
torch.set_printoptions(precision=8)
x = torch.randn(4, requires_grad=True)
y = (x ** 3).sum()
y.backward()
print(x, x.grad, y)
torch.set_printoptions(precision=1)
print(x, x.grad, y)
torch.set_printoptions(precision=4, sci_mode=True)
print(x, x.grad, y)
torch.set_printoptions(precision=4, sci_mode=None)
print(torch.tensor([1e-10, 1.]), torch.tensor([1e-3, 1e3]), torch.tensor([5e-5]))
torch.set_printoptions(linewidth=30)
print(torch.arange(20.))
torch.set_printoptions(edgeitems=2, threshold=10)
print(torch.arange(30.).reshape(5, 6))
print(torch.arange(100).reshape(2, 5, 10))
torch.set_printoptions()
print(torch.arange(30.).reshape(5, 6))
'''

PROGRAMS['sample_hooks_views_inplace'] = r'''
import torch
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
v = y[1:3]
v.register_hook(lambda g: print('view hook', g))
y.register_hook(lambda g: print('base hook', g))
v.mul_(2)
print(y.grad_fn, v.grad_fn)
y.sum().backward()
print(x.grad)
a = x * 1
a.retain_grad()
a.add_(1)
a.sum().backward()
print(a.grad, a.retains_grad)
b = x * 1
bv = b[:2]
bv.retain_grad()
bv.mul_(3)
b.sum().backward()
print(bv.grad)
'''

PROGRAMS['sample_increment_version_and_edges'] = r'''
import torch
from torch.autograd.graph import increment_version, get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print(y._version)
increment_version(y)
print(y._version)
z = y.exp()
with torch.no_grad():
    increment_version(z)
try:
    (z * z).sum().backward()
    print('fine')
except RuntimeError as e:
    print(e)
e = get_gradient_edge(y)
print(e.node.name(), e.output_nr, type(e).__name__)
w = y * 3
g = torch.autograd.grad(w.sum(), e)
print(g)
'''

PROGRAMS['sample_function_misuse'] = r'''
import torch
from torch.autograd import Function
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
class Legacy(Function):
    def forward(self, x):
        return x * 2
    def backward(self, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: Legacy()(x))
E(lambda: Legacy.apply(x))
class SaveInt(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: SaveInt.apply(x))
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
y = Exp.apply(torch.tensor([0., 1.]))
print(y, y.requires_grad, y.grad_fn)
z = Exp.apply(x)
print(z.grad_fn, type(z.grad_fn).__name__, type(z.grad_fn).__module__ if hasattr(type(z.grad_fn), '__module__') else '')
print(z.grad_fn.saved_tensors, z.grad_fn.saved_tensors[0] is z)
z.sum().backward()
print(x.grad)
E(lambda: z.grad_fn.saved_tensors)
with torch.no_grad():
    w = Exp.apply(x)
print(w, w.requires_grad, w.grad_fn)
class ViewOut(Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g
v = ViewOut.apply(x)
print(v, v.grad_fn, v._base is x, v.is_leaf)
E(lambda: v.mul_(2))
class Dirty(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Dirty.apply(x.clone()))
class NonDiffIn(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NonDiffIn.apply(x))
class ReturnsNone(Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: ReturnsNone.apply(x))
class ReturnsList(Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, a, b):
        return a + b
E(lambda: ReturnsList.apply(x))
'''

PROGRAMS['sample_iterate_tensor_grad'] = r'''
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
rows = list(x)
print(rows, rows[0].grad_fn, rows[1].output_nr, rows[0]._base is x)
total = sum(r.prod() for r in x)
print(total, total.grad_fn)
total.backward()
print(x.grad)
for i, r in enumerate(x * 2):
    print(i, r, r.grad_fn)
a, b = x
print(a, b, a.grad_fn)
print([e for e in torch.tensor([1, 2, 3])], len(x), x.__len__())
print(list(zip(torch.tensor([1., 2.]), torch.tensor([3, 4]))))
print(torch.tensor([3., 1., 2.]).max(0), *torch.tensor([3., 1., 2.]).sort())
print(2 in torch.tensor([1, 2]), 5 in torch.tensor([1, 2]), torch.tensor(2.) in torch.tensor([1., 2.]))
'''

PROGRAMS['sample_int_ops_semantics'] = r'''
import torch
a = torch.tensor([7, -7, 5, -5])
b = torch.tensor([2, 2, -3, -3])
print(a / b, a // b, a % b, torch.fmod(a, b), torch.remainder(a, b), a.div(b, rounding_mode='trunc'), a.div(b, rounding_mode='floor'))
print(a ** 2, a.pow(0), torch.tensor(2) ** torch.tensor([0, 1, 2, 3]), a & 3, a | 8, a ^ 1, ~a, a << 1, a >> 1)
print(torch.tensor([1, 2], dtype=torch.uint8) - torch.tensor([2, 1], dtype=torch.uint8))
print(torch.tensor([100], dtype=torch.int8) * 2, torch.tensor([2 ** 31 - 1], dtype=torch.int32) + 1)
print(a.abs(), a.neg(), a.sign(), a.clamp(-6, 6), a.float().round(), torch.tensor([0.5, 1.5, 2.5, -0.5]).round())
print(a.sum(), a.mean(dtype=torch.float32), a.max(), a.argmax(), a.sort(), a.unique())
def E(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: a ** -1)
E(lambda: a.mean())
E(lambda: a.sqrt())
E(lambda: torch.tensor([True]) - torch.tensor([False]))
E(lambda: -torch.tensor([True]))
E(lambda: a.float() & 1)
E(lambda: a << 1.5)
E(lambda: torch.tensor([1.5]) // 0)
E(lambda: torch.tensor([1.5]) % 0)
E(lambda: a.exp())
E(lambda: a.sigmoid())
E(lambda: torch.tensor([1, 2]).softmax(0))
E(lambda: torch.tensor([1, 2]).log_softmax(0))
E(lambda: torch.tensor([1, 2]).tanh())
E(lambda: torch.tensor([True, False]).sum())
'''

PROGRAMS['sample_custom_jvp_function'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
class MySin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.x = x
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
    @staticmethod
    def jvp(ctx, t):
        return t * ctx.x.cos()
x = torch.tensor([0., 1.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    out = MySin.apply(d)
    print(fwAD.unpack_dual(out))
x2 = x.clone().requires_grad_()
MySin.apply(x2).sum().backward()
print(x2.grad)
'''

PROGRAMS['sample_module_api_misc'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(31)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])
        self.register_buffer('scale', torch.tensor(2.0))
        self.register_buffer('tmp', torch.zeros(1), persistent=False)
        self.w = nn.Parameter(torch.ones(3))
    def forward(self, x):
        x = self.act(self.fc1(x))
        for b in self.blocks:
            x = b(x)
        return x * self.scale * self.w
net = Net()
print(net)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()])
print([n for n, _ in net.named_children()])
print([n for n, _ in net.named_modules()])
print(list(net.state_dict().keys()))
print(len(list(net.parameters(recurse=False))), sum(p.numel() for p in net.parameters() if p.requires_grad))
net.requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
net.blocks.append(nn.Tanh())
print(net.blocks)
net.eval()
print(net.training, net.blocks[0].training)
out = net(torch.ones(1, 2))
print(out, out.requires_grad)
del net.w
print(hasattr(net, 'w'), 'w' in dict(net.named_parameters()))
net.double()
print(net.fc1.weight.dtype, net.scale.dtype)
print(net.apply(lambda m: None) is net)
print(net.get_submodule('blocks.1'))
print(net.fc1.extra_repr(), repr(net.act))
'''

PROGRAMS['sample_optimizer_errors'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
p = torch.nn.Parameter(torch.ones(2))
E(lambda: torch.optim.SGD([p], lr=-1))
E(lambda: torch.optim.SGD([p]))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD(p, lr=0.1))
E(lambda: torch.optim.Adam([p], lr=0.1, betas=(1.5, 0.9)))
E(lambda: torch.optim.Adam([p], eps=-1))
E(lambda: torch.optim.SGD([p], lr=0.1, momentum=-0.5))
E(lambda: torch.optim.SGD([p], lr=0.1, nesterov=True))
E(lambda: torch.optim.SGD([p, p], lr=0.1))
E(lambda: torch.optim.SGD([{'params': [p]}, {'params': [p]}], lr=0.1))
E(lambda: torch.optim.SGD([torch.ones(2)], lr=0.1))
E(lambda: torch.optim.Adam([p], weight_decay=-1))
o = torch.optim.SGD([p], lr=0.1)
E(lambda: o.add_param_group({'params': [p]}))
E(lambda: o.add_param_group({'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5}))
print(len(o.param_groups), o.param_groups[1]['lr'], o.param_groups[1]['momentum'])
E(lambda: o.step())
print(p)
'''

PROGRAMS['create_graph_gradients_record_pytorchs_nodes'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
def names(fn, depth=3):
    if fn is None or depth == 0:
        return None if fn is None else fn.name()
    return [fn.name(), [names(n, depth - 1) for n, _ in fn.next_functions]]
a0 = torch.randn(3, 4, dtype=torch.float64)
b0 = torch.randn(3, 4, dtype=torch.float64)
ops = {
    'stack': lambda a, b: torch.stack([a, b], 1), 'maximum': lambda a, b: torch.maximum(a, b),
    'minimum': lambda a, b: torch.min(a, b), 'mean1': lambda a, b: a.mean(1) * b[:, 0], 'mean': lambda a, b: a.mean() * b,
    'var': lambda a, b: a.var(1) * b[:, 0], 'std': lambda a, b: a.std() * b, 'max': lambda a, b: a.max(1).values * b[:, 0],
    'amax': lambda a, b: a.amax(1) * b[:, 0], 'sort': lambda a, b: a.sort(1).values * b,
    'topk': lambda a, b: a.topk(2).values * b[:, :2], 'cumsum': lambda a, b: a.cumsum(1) * b,
    'mm': lambda a, b: a @ b.t(), 'linear': lambda a, b: F.linear(a, b, b[0, :3]), 'transpose': lambda a, b: a.t() @ b,
    'addmm': lambda a, b: torch.addmm(a[:, :3], a, b.t()), 'matmul3': lambda a, b: a[None].expand(2, 3, 4) @ b.t(),
    'sqrt': lambda a, b: a.abs().sqrt() * b, 'silu': lambda a, b: F.silu(a) * b, 'mish': lambda a, b: F.mish(a) * b,
    'lerp': lambda a, b: torch.lerp(a, b, 0.3), 'lerpt': lambda a, b: torch.lerp(a, b, b.sigmoid()),
    'addcmul': lambda a, b: torch.addcmul(a, a, b, value=0.5), 'addcdiv': lambda a, b: torch.addcdiv(a, a, b.abs() + 1, value=0.5),
    'atan2': lambda a, b: torch.atan2(a, b), 'xlogy': lambda a, b: torch.xlogy(a, b.abs()),
    'log2': lambda a, b: torch.log2(a.abs() + 1) * b, 'erf': lambda a, b: torch.erf(a) * b,
    'norm': lambda a, b: a.norm(dim=1) * b[:, 0], 'hardswish': lambda a, b: F.hardswish(a * 3) * b,
}
for name, f in ops.items():
    a = a0.clone().requires_grad_()
    b = b0.clone().requires_grad_()
    y = f(a, b)
    ga, gb = torch.autograd.grad(y.pow(2).sum(), (a, b), create_graph=True, allow_unused=True)
    print(name, names(ga.grad_fn), names(gb.grad_fn) if gb is not None else None)
    second = torch.autograd.grad(ga.pow(2).sum(), (a, b), allow_unused=True)
    print('  ', [None if t is None else t + 0.0 for t in second])   # (+ 0.0: no signed zeros)
'''

PROGRAMS['atan2_gradient_at_the_origin'] = r'''
import torch
for a, b in [(0., 0.), (0., 1e-30), (1e-30, 0.), (1., 2.)]:
    x = torch.tensor(a, requires_grad=True)
    y = torch.tensor(b, requires_grad=True)
    torch.atan2(x, y).backward()
    print(x.grad, y.grad)
'''

PROGRAMS['var_std_without_warnings_filters'] = r'''
import torch
import warnings
def E(f):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            print(f())
        except Exception as e:
            print(type(e).__name__, e)
    print([str(m.message)[:40] for m in caught])
x = torch.arange(6.).reshape(2, 3)
for kw in [dict(correction=6), dict(dim=0, correction=2), dict(dim=1, correction=4), dict(), dict(dim=0)]:
    E(lambda: x.var(**kw))
    E(lambda: x.std(**kw))
E(lambda: torch.ones(0).var())
E(lambda: torch.ones(2, 0).std(1))
E(lambda: torch.ones(1).var())
E(lambda: x.double().var(correction=7))
'''



def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
