"""Regression programs for the differences the nn graph fuzzer found in session 13 (``fuzz_graphs.py --nn`` seeds
from ``NN_S13_FIRST_SEED`` on, ``_NNGen.op13``: Module hooks, the Module API's corners, nn.utils (packing, pruning,
fusion, functional_call), lr schedulers with momentum, many modules' reprs, transformer layers, functional losses).

Each program runs with minigrad and with PyTorch (``parity.same_as_torch``) and prints what differed.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)

PROGRAMS = {
    # fixed: the class hierarchy of nn's modules is PyTorch's: the average poolings derive from _AvgPoolNd, the
    # padding bases and the option-less / inplace-only activations from Module directly (no helper base class of
    # minigrad's own), the lazy convolutions' mixin is _LazyConvXdMixin, and a lazy batch norm is a _BatchNorm but
    # not an instance of the class it becomes (until its first call)
    "module_class_hierarchy": """
import inspect
for name in sorted(dir(torch.nn)):
    c = getattr(torch.nn, name)
    if inspect.isclass(c) and issubclass(c, torch.nn.Module) and name not in ("DataParallel", "LinearCrossEntropyLoss"):
        print(name, [k.__name__ for k in c.__mro__])
m = torch.nn.LazyBatchNorm1d()
print(isinstance(m, torch.nn.BatchNorm1d), isinstance(m, torch.nn.modules.batchnorm._BatchNorm))
E(lambda: m(torch.randn(2, 3, 4, 5)))   # (materialized before the input check: a BatchNorm1d(3) from now on)
print(type(m).__name__, m)
m = torch.nn.LazyBatchNorm1d()
y = m(torch.randn(3, 2))
print(type(m).__name__, isinstance(m, torch.nn.BatchNorm1d), m, y.shape)
for mod in (torch.nn.AvgPool1d(2), torch.nn.AvgPool2d(2, 1, 1), torch.nn.AvgPool3d((1, 2, 1), divisor_override=3),
            torch.nn.ZeroPad2d((1, 0, 2, 1)), torch.nn.ConstantPad1d(2, 1.5), torch.nn.ReflectionPad2d(1),
            torch.nn.ReplicationPad1d((0, 2)), torch.nn.CircularPad2d(1), torch.nn.Mish(inplace=True),
            torch.nn.Hardswish(True), torch.nn.Hardsigmoid(), torch.nn.Softsign(), torch.nn.Tanhshrink(),
            torch.nn.LogSigmoid()):
    x = torch.arange(48.0).reshape(1, 2, 4, 6) / 10 - 2
    if isinstance(mod, (torch.nn.AvgPool1d, torch.nn.ReplicationPad1d, torch.nn.ConstantPad1d)):
        x = x[0]
    if isinstance(mod, torch.nn.AvgPool3d):
        x = x[None]
    print(repr(mod), mod.extra_repr(), vars(mod).get('padding'), mod(x.clone()))
E(lambda: torch.nn.CircularPad2d(1)(torch.ones(2)))
E(lambda: torch.nn.Hardswish(1, 2))
""",
    # fixed: Module.__call__ follows PyTorch's _call_impl: when a forward pre-hook, the forward or a forward hook
    # raises, the forward hooks registered with always_call that have not run yet run (global ones first, with the
    # arguments as the pre-hooks left them and the output if there is one; a hook that raises there is a warning);
    # register_module_forward_hook(always_call=True) is honoured; the backward hooks of a call are read before its
    # forward pre-hooks run; _forward_hooks_always_called is an OrderedDict
    "forward_hooks_always_call": """
import warnings
warnings.simplefilter("always")
lin = torch.nn.Linear(3, 2)
log = []
def bad_hook(mod, a, o):
    log.append(('bad', o is None))
    raise ValueError("in hook")
lin.register_forward_pre_hook(lambda mod, a: (a[0] * 2,))
h1 = lin.register_forward_hook(lambda mod, a, o: log.append(('a1', None if o is None else tuple(o.shape), a[0].sum().item())), always_call=True)
h2 = lin.register_forward_hook(bad_hook)
h3 = lin.register_forward_hook(lambda mod, a, k, o: log.append(('a3', k, o is None)), always_call=True, with_kwargs=True)
h4 = lin.register_forward_hook(lambda mod, a, o: 1 / 0, always_call=True)
with warnings.catch_warnings(record=True) as w:
    E(lambda: lin(torch.ones(2, 3)))
    E(lambda: lin(torch.ones(2, 4)))
    print([str(x.message) for x in w])
print(log)
print(type(lin._forward_hooks_always_called).__name__, list(lin._forward_hooks_always_called.values()))
g = torch.nn.modules.module.register_module_forward_hook(lambda mod, a, o: log.append(('G', o is None)), always_call=True)
try:
    log.clear()
    h2.remove(); h4.remove()
    E(lambda: lin(torch.ones(2, 4)))
    E(lambda: torch.nn.Sequential(torch.nn.Tanh(), lin)(torch.ones(2, 4)))
    print(log)
finally:
    g.remove()
pre_reg = torch.nn.Linear(2, 2)
def reg(mod, a):
    mod.register_full_backward_hook(lambda m, gi, go: print('late bwd', go))
pre_reg.register_forward_pre_hook(reg)
o = pre_reg(torch.ones(1, 2, requires_grad=True))
print(o.grad_fn)
o.sum().backward()
o = pre_reg(torch.ones(1, 2, requires_grad=True))
print(o.grad_fn)
o.sum().backward()
""",
    # fixed: dir() of a module is PyTorch's (the class's, instance's, parameters', submodules' and buffers' names
    # without those that start with a digit, such as a Sequential's "0"); Module has PyTorch's dump_patches,
    # call_super_init, T_destination and its xpu / ipu / mtia methods (errors of a build without those devices);
    # the rest of this program (named_* with prefixes and duplicates, get_* / set_submodule errors, register_*
    # errors, zero_grad, load_state_dict results and errors, train flags, Sequential's editing) already matched
    "module_api_corners_and_dir": """
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2)
m = torch.nn.Sequential(lin, torch.nn.ReLU(), lin, torch.nn.BatchNorm1d(2))
print([k for k, _ in m.named_modules(prefix='root')], [k for k, _ in m.named_modules(memo=None, remove_duplicate=False)])
print([k for k, _ in m.named_parameters(remove_duplicate=False)], [k for k, _ in m.named_buffers(prefix='x', recurse=False)])
print([type(c).__name__ for c in m.modules()], [k for k, _ in m.named_children()])
for path in ["", "0", "9", "0.weight", "a.b", "3.running_mean", "1.x"]:
    E(lambda: print(repr(m.get_submodule(path))))
for path in ["0.weight", "3.running_mean", "1.weight", "0.nope", "nope", "0.weight.x", ""]:
    E(lambda: print(m.get_parameter(path)))
for path in ["3.running_mean", "3.num_batches_tracked", "0.weight", "3.nope", "zz.running_mean"]:
    E(lambda: print(m.get_buffer(path)))
print(m.get_extra_state if hasattr(m, 'get_extra_state') else None)
E(lambda: m.get_extra_state())
E(lambda: m.set_submodule("1", torch.nn.Tanh()))
print(m)
E(lambda: m.set_submodule("7.x", torch.nn.Tanh()))
E(lambda: m.set_submodule("0.weight", torch.nn.Tanh()))
E(lambda: m.set_submodule("1", torch.nn.GELU(), strict=True))
E(lambda: m.set_submodule("9", torch.nn.GELU(), strict=True))
E(lambda: m.set_submodule("9", torch.nn.GELU()))
print(m)
E(lambda: m.register_module("a.b", torch.nn.Tanh()))
E(lambda: m.register_module("", torch.nn.Tanh()))
E(lambda: m.register_module("c", 3))
E(lambda: m.register_buffer("weight", 3))
E(lambda: m.register_buffer("a.b", torch.ones(1)))
E(lambda: m.register_parameter("0", torch.nn.Parameter(torch.ones(1))))
E(lambda: m.add_module("w", None))
print([k for k, _ in m.named_children()])
E(lambda: m(torch.ones(3, 2)))
del m._modules["w"]
print(m.zero_grad(), m.requires_grad_(False) is m, [p.requires_grad for p in m.parameters()])
E(lambda: m.requires_grad_(1))
m.requires_grad_()
x = torch.randn(3, 2)
m(x).sum().backward()
m.zero_grad(set_to_none=False)
print([p.grad for p in m.parameters()])
sd = m.state_dict()
print(list(sd.keys()), sd._metadata if hasattr(sd, '_metadata') else None)
r = m.load_state_dict({**sd, 'extra': torch.ones(1)}, strict=False)
print(r, r.missing_keys, r.unexpected_keys, repr(r), str(r))
r = m.load_state_dict({k: v for k, v in sd.items() if 'bias' not in k}, strict=False)
print(r, r == ([], []), list(r))
E(lambda: m.load_state_dict({k: v for k, v in sd.items() if 'bias' not in k}))
E(lambda: m.load_state_dict({**sd, '0.weight': torch.ones(3, 3)}))
E(lambda: m.load_state_dict({**sd, '0.weight': torch.ones(3, 3), 'xx': torch.ones(1)}, strict=False))
E(lambda: m.load_state_dict([1, 2]))
print(m.train(False) is m, m.training, [c.training for c in m.children()])
E(lambda: m.train('yes'))
print(m.eval().training, m.apply(lambda mm: None) is m)
print(m.extra_repr(), repr(m._get_name()), m.__class__.__name__)
print([k for k in sorted(k for k in dir(m) if not k.startswith('_')) if k != 'to_empty'])
print(m.half().float().double().type(torch.float32) if hasattr(m, 'type') else None)
print(m.share_memory() is m, m.cpu() is m)
print(m.to(torch.float64)[0].weight.dtype, m.to(torch.tensor([1], dtype=torch.float32))[0].weight.dtype)
E(lambda: m.to('cpu', torch.int64))
E(lambda: m.to(1, 2, 3))
print(len(m), m[-1], m[1:], m[::2])
E(lambda: m[10])
del m[1]
print(m)
m.append(torch.nn.Identity())
m.insert(0, torch.nn.Tanh())
m.extend([torch.nn.Sigmoid()])
print(m, m.pop(1))
E(lambda: m.insert(10, torch.nn.Tanh()))
print(m + torch.nn.Sequential(torch.nn.ReLU()))
E(lambda: m + 1)
m2 = m * 2
print(len(m2), m2)
E(lambda: m * 0)
E(lambda: m * -1)
""",
    # fixed: a module's instance attributes are PyTorch's, made in __init__ in its order (vars(m), __getstate__):
    # the hook tables, _is_full_backward_hook and the {handle id: True} flags of forward (pre-)hooks registered
    # with_kwargs / always_call, which the hook's handle clears on remove()
    "module_instance_attributes": """
import copy
for m in (torch.nn.Module(), torch.nn.Linear(2, 1), torch.nn.Sequential(torch.nn.ReLU())):
    print(type(m).__name__, list(vars(m)))
    print([(k, type(v).__name__, len(v) if hasattr(v, '__len__') else v) for k, v in vars(m).items()])
m = torch.nn.Linear(2, 2)
h1 = m.register_forward_hook(lambda mod, a, k, o: None, with_kwargs=True, always_call=True)
h2 = m.register_forward_pre_hook(lambda mod, a, k: None, with_kwargs=True)
h3 = m.register_forward_hook(lambda mod, a, o: None, prepend=True)
ids = {h1.id: 'h1', h2.id: 'h2', h3.id: 'h3'}
show = lambda d: [(ids.get(k, '?'), v if v is True else 'fn') for k, v in d.items()]
print(show(m._forward_hooks), show(m._forward_hooks_with_kwargs), show(m._forward_hooks_always_called),
      show(m._forward_pre_hooks), show(m._forward_pre_hooks_with_kwargs), m._is_full_backward_hook)
c = copy.deepcopy(m)
print(list(vars(c))[:17], len(c._forward_hooks_always_called))
h1.remove(); h2.remove()
print(show(m._forward_hooks), show(m._forward_hooks_with_kwargs), show(m._forward_hooks_always_called),
      show(m._forward_pre_hooks_with_kwargs))
m.register_full_backward_hook(lambda mod, gi, go: None)
print(m._is_full_backward_hook)
E(lambda: m.register_backward_hook(lambda mod, gi, go: None))
print(m(torch.ones(1, 2)).shape)
""",
    # fixed: nn.Unflatten checks its unflattened_size as PyTorch's _require_tuple_int: every element a Python int
    # (a TypeError naming the first that is not), and "must be a tuple of ints" for a size that is no tuple / list
    "unflatten_size_check": """
for size in [(2, 3), [2, 3], torch.Size([2, 3]), (2, 'x'), [2.0, 3], (2, True), 6, None, 'ab', (2, torch.tensor(3))]:
    E(lambda: print(torch.nn.Unflatten(1, size)))
E(lambda: print(torch.nn.Unflatten(1, (2, 3))(torch.ones(2, 6)).shape))
E(lambda: print(torch.nn.Unflatten(1, [-1, 3])(torch.ones(2, 6)).shape))
""",
    # fixed: rnn.unpad_sequence reads its lengths' device as PyTorch's does, so lengths given as a list fail with
    # PyTorch's AttributeError; the rest (pack_sequence and PackedSequence's methods, pad_sequence's sides and
    # errors, unpack / unpad, pack_padded_sequence's errors) already matched
    "rnn_utils_unpad_lengths": """
R = torch.nn.utils.rnn
torch.manual_seed(0)
a, b, c = torch.randn(3, 2, requires_grad=True), torch.randn(1, 2), torch.randn(2, 2, dtype=torch.float64)
E(lambda: R.pack_sequence([a, b, c]))
ps = R.pack_sequence([b, a[:2], a], enforce_sorted=False)
print(ps)
print(repr(ps.data), ps.batch_sizes, ps.sorted_indices, ps.unsorted_indices, ps.is_cuda, ps.is_pinned())
d = ps.double()
print(d.data.dtype, type(d).__name__, d.sorted_indices.dtype, ps.to(torch.float64).data.dtype, ps.float().data.dtype, ps.half().data.dtype)
print(ps.to('cpu') is ps, ps.cpu() is ps)
E(lambda: R.pack_sequence([]))
E(lambda: R.pack_sequence([a, torch.randn(2, 3)], enforce_sorted=False))
E(lambda: R.pack_sequence([a, b[0:0]], enforce_sorted=False))
print(R.unpack_sequence(ps))
p = R.pad_sequence([a, b], batch_first=True, padding_side='left', padding_value=-1)
print(p)
print(R.unpad_sequence(R.pad_sequence([a, b], batch_first=True), torch.tensor([3, 1]), batch_first=True))
E(lambda: R.unpad_sequence(p, [3, 1], batch_first=True))
E(lambda: R.pad_sequence([a, b], padding_side='middle'))
E(lambda: R.pad_sequence([]))
E(lambda: R.pad_sequence(a))
print(R.pad_sequence(torch.randn(2, 3, 2)).shape)
print(R.invert_permutation(torch.tensor([2, 0, 1])), R.invert_permutation(None))
pp = R.pack_padded_sequence(torch.randn(4, 2, 3), torch.tensor([4, 2]))
print(pp._fields, pp.count if hasattr(pp, 'count') else None, len(pp), pp[1], type(pp).__mro__[1].__name__)
out, lens = R.pad_packed_sequence(pp, total_length=5)
print(out.shape, lens, lens.dtype)
E(lambda: R.pad_packed_sequence(pp, total_length=3))
E(lambda: R.pack_padded_sequence(torch.randn(4, 2, 3), torch.tensor([2, 4])))
E(lambda: R.pack_padded_sequence(torch.randn(4, 2, 3), torch.tensor([5, 4]), enforce_sorted=False))
E(lambda: R.pack_padded_sequence(torch.randn(4, 2, 3), torch.tensor([0, 4]), enforce_sorted=False))
E(lambda: R.pack_padded_sequence(torch.randn(4, 2, 3), [4.0, 2.0]))
print(R.PackedSequence(torch.ones(3, 2), torch.tensor([2, 1])))
E(lambda: R.PackedSequence(torch.ones(3, 2), [2, 1]))
pb = R.pad_sequence([a, b], batch_first=True)
E(lambda: R.unpad_sequence(pb, torch.tensor([3]), batch_first=True))
E(lambda: R.unpad_sequence(pb, torch.tensor([3, 1, 2]), batch_first=True))
q = R.pad_sequence([a.detach(), b])
print(q.shape, len(R.unpad_sequence(q, torch.tensor([2, 1]))), q.shape, q.stride())
""",
    # fixed: multilabel_margin_loss of an empty batch with reduction='mean' was a ZeroDivisionError in the forward
    # and the backward; it is a value (nan: 0 / 0; PyTorch's CPU kernel leaves it uninitialized, so the values of
    # empty 'mean' / 'sum' losses are not compared) with an empty gradient
    "multilabel_margin_loss_empty_batch": """
torch.manual_seed(0)
F = torch.nn.functional
for dt in (torch.float32, torch.float64):
    for red in ('none', 'mean', 'sum'):
        x = torch.randn(0, 3, dtype=dt, requires_grad=True)
        for f in (lambda: F.multilabel_margin_loss(x, torch.zeros(0, 3, dtype=torch.int64), reduction=red),
                  lambda: F.multi_margin_loss(x, torch.zeros(0, dtype=torch.int64), reduction=red)):
            y = f()
            # (PyTorch's CPU kernels leave the value of an empty 'mean' / 'sum' uninitialized: not compared)
            print(red, y.shape, y.dtype, y.grad_fn)
            x.grad = None
            y.sum().backward()
            print('  grad', x.grad.shape, x.grad.dtype)
x = torch.randn(2, 3, requires_grad=True)
print(F.multilabel_margin_loss(x, torch.tensor([[0, -1, 2], [1, 2, -1]])), F.multi_margin_loss(x, torch.tensor([0, 2])))
""",
    # fixed: a module with full backward hooks (or pre-hooks) whose output is neither a tensor nor a tuple (a dict,
    # a list, None) gives PyTorch's warning "For backward hooks to be called, module output should be a Tensor or a
    # tuple of Tensors ..."; the rest (non-tensor outputs and inputs, keyword inputs) already matched
    "backward_hooks_non_tensor_output_warning": """
import warnings
warnings.simplefilter("always")
class D(torch.nn.Module):
    def forward(self, x):
        return {'a': x * 2, 'b': x.exp()}
class L(torch.nn.Module):
    def forward(self, x, y=None):
        return [x * 2, x + 1]
class N(torch.nn.Module):
    def forward(self, x):
        return None
for cls in (D, L, N):
    m = cls()
    m.register_full_backward_hook(lambda mod, gi, go: print('hook', type(mod).__name__, [None if g is None else g.shape for g in gi], [None if g is None else g.shape for g in go]))
    x = torch.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as ws:
        out = m(x)
        print([str(w.message) for w in ws])
    print(type(out).__name__)
    if isinstance(out, dict):
        print({k: v.grad_fn for k, v in out.items()})
        sum(v.sum() for v in out.values()).backward()
    elif isinstance(out, list):
        print([v.grad_fn for v in out])
        sum(v.sum() for v in out).backward()
    print(x.grad)
class T(torch.nn.Module):
    def forward(self, x, y):
        return x * y, 3
m = T()
m.register_full_backward_pre_hook(lambda mod, go: print('pre', go))
m.register_full_backward_hook(lambda mod, gi, go: print('post', gi, go))
a = torch.ones(2, requires_grad=True)
o = m(a, torch.ones(2) * 2)
print(o[0].grad_fn, o[1])
o[0].sum().backward()
o = m(a, 5)
print(o[0].grad_fn)
o[0].sum().backward()
print(a.grad)
kw = torch.nn.Linear(2, 2)
kw.register_full_backward_hook(lambda mod, gi, go: print('kwpost', gi, go))
E(lambda: kw(input=torch.ones(1, 2, requires_grad=True)).sum().backward())
""",
    # fixed: ParameterDict checks its keys as PyTorch's _key_to_attr (a TypeError "Index given to ParameterDict
    # cannot be used as a key ..." for a key that is no string, in __getitem__ / __setitem__ / __delitem__, after
    # __setitem__ / __delitem__ have recorded / dropped the key as PyTorch's do); the containers' reprs and editing
    # already matched
    "parameter_dict_key_check": """
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pl = torch.nn.ParameterList([torch.nn.Parameter(torch.zeros(2)), torch.ones(1, 2, dtype=torch.float64), torch.nn.Parameter(torch.ones(3), requires_grad=False)])
        self.pd = torch.nn.ParameterDict({'w': torch.nn.Parameter(torch.ones(2, dtype=torch.float16)), 'n': torch.zeros(1, dtype=torch.float64)})
        self.ml = torch.nn.ModuleList([torch.nn.Linear(1, 1), torch.nn.ModuleDict({'x': torch.nn.ReLU()})])
        self.w = torch.nn.Parameter(torch.ones(1))
print(Net())
n = Net()
print([k for k, _ in n.named_parameters()], list(n.state_dict()))
print(n.pl[1], n.pd['n'], type(n.pd['n']).__name__, n.pl[1].requires_grad)
n.pl.extend([torch.ones(1)])
n.pd.update({'z': torch.nn.Parameter(torch.ones(1))})
print(len(n.pl), list(n.pd.keys()), n.pd.get('q', 5), 'w' in n.pd, n.pd.setdefault('q', torch.ones(2)))
print(repr(n.pl), repr(n.pd))
print(n.pd.pop('w').dtype, list(n.pd), n.pd.popitem()[0], list(n.pd.values())[0].dtype)
E(lambda: n.pl.append(3))
E(lambda: n.pd.__setitem__(1, torch.ones(1)))
n.pl.append(None) if False else None
E(lambda: n.pl[7])
print(n.pl[-1], n.pl[0:2], type(n.pl[0:2]).__name__)
E(lambda: print(n.pd | {'extra': torch.ones(1)}))
E(lambda: print(n.pd.copy()))
E(lambda: print(n.pd.fromkeys(['a', 'b'])))
E(lambda: n.pd[1])
E(lambda: n.pd.__delitem__(1))
print(list(n.pd.keys()))
""",
    # fixed: ModuleList / ParameterList index as PyTorch's _get_abs_string_index (operator.index: a TypeError for a
    # string or float index; "index i is out of range" for __delitem__ too), their extend refuses a non-iterable
    # with PyTorch's TypeError, and ModuleDict.update checks its argument and each pair with PyTorch's errors
    "containers_index_and_update_errors": """
md = torch.nn.ModuleDict({'a': torch.nn.ReLU()})
for f in (lambda: md[1], lambda: md.__setitem__(1, torch.nn.ReLU()), lambda: md.__delitem__('zz'), lambda: md.update(3),
          lambda: md.update([('a',)]), lambda: md.update([1]), lambda: md.pop('zz'), lambda: md['zz'],
          lambda: md.__setitem__('b', 3), lambda: md.__setitem__('a.b', torch.nn.ReLU())):
    E(f)
print(md, list(md.items()))
ml = torch.nn.ModuleList([torch.nn.ReLU(), torch.nn.Tanh()])
for f in (lambda: ml['a'], lambda: ml[5], lambda: ml.__setitem__(5, torch.nn.ReLU()), lambda: ml.__delitem__(9),
          lambda: ml.append(3), lambda: ml.extend(3), lambda: ml.__iadd__([torch.nn.ReLU()]),
          lambda: ml + [torch.nn.ReLU()], lambda: ml.pop(7), lambda: ml[1.0]):
    E(f)
print(ml, ml[-1], len(ml), ml[::-1])
del ml[0:1]
print(ml, list(ml._modules.keys()))
pl = torch.nn.ParameterList([torch.ones(1)])
for f in (lambda: pl['a'], lambda: pl[3], lambda: pl.__setitem__(3, torch.ones(1)), lambda: pl.extend(3), lambda: pl.__iadd__([torch.ones(2)])):
    E(f)
print(pl, len(pl))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_nn_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
