"""Parity programs from a fifteenth hunt: the ``torch.autograd`` API surface, corner by corner.

Small programs that exercise what the docs describe ("torch.autograd" API page, "Autograd mechanics", "Extending
torch.autograd", "Hooks for saved tensors", "Forward-mode AD"): ``torch.autograd.graph`` (Node methods and hooks,
saved tensors of many ops, ``GradientEdge``, ``saved_tensors_hooks``, ``register_multi_grad_hook``), custom
``Function``s in both styles and their ``ctx`` methods, the grad modes as context managers and decorators, and the
options of ``backward``/``grad``. Every program prints values, reprs, types, errors and warnings and must print
exactly what PyTorch prints (the harness is hunt14's: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every
warning also printed on stdout). Programs marked "fixed:" printed something different from PyTorch before this
hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import FWD, PRE

PROGRAMS: dict[str, str] = {}

# ---- torch.autograd.graph.Node: name, next_functions, metadata, hooks

PROGRAMS['node_name_next_functions_metadata'] = PRE + r'''
from torch.autograd.graph import Node
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).exp().sum()
n = y.grad_fn
print(type(n).__name__, n.name(), isinstance(n, Node), issubclass(type(n), Node))
print(n.next_functions, n.next_functions[0][0].next_functions)
acc = n.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(acc.name(), acc.variable is x, acc.next_functions, isinstance(acc, Node))
print(n.metadata, type(n.metadata))
n.metadata['k'] = 1
print(y.grad_fn.metadata, y.grad_fn.metadata is n.metadata)
print(x.grad_fn, x.is_leaf, y.is_leaf)
print(isinstance(x, Node), isinstance(1, Node))
'''

PROGRAMS['node_register_hook_and_prehook_handles'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
z = y.sum()
def hook(grad_inputs, grad_outputs):
    print('hook', grad_inputs, grad_outputs)
def prehook(grad_outputs):
    print('prehook', grad_outputs)
h1 = y.grad_fn.register_hook(hook)
h2 = y.grad_fn.register_prehook(prehook)
print(type(h1).__name__, type(h2).__name__)
z.backward(retain_graph=True)
h1.remove()
z.backward(retain_graph=True)
h2.remove()
h2.remove()
z.backward()
print(x.grad)
'''

PROGRAMS['node_hook_return_replaces_grads'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sin()
def hook(gi, go):
    return (gi[0] * 10,)
def prehook(go):
    return (go[0] + 1,)
y.grad_fn.register_hook(hook)
y.grad_fn.register_prehook(prehook)
y.sum().backward()
print(x.grad)
x.grad = None
w = x.cos()
w.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
E(lambda: w.sum().backward())
w2 = x.cos()
w2.grad_fn.register_prehook(lambda go: 5)
E(lambda: w2.sum().backward())
w3 = x.cos()
w3.grad_fn.register_hook(lambda gi, go: [gi[0] * 2])
E(lambda: w3.sum().backward())
print(x.grad)
'''

PROGRAMS['node_accumulate_grad_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
acc = y.grad_fn.next_functions[0][0]
print(acc)
acc.register_prehook(lambda go: print('acc prehook', go))
acc.register_hook(lambda gi, go: print('acc hook', gi, go))
y.sum().backward()
print(x.grad)
x.register_post_accumulate_grad_hook(lambda t: print('post acc', t.grad))
(x * 2).sum().backward()
E(lambda: torch.ones(2).register_post_accumulate_grad_hook(lambda t: None))
E(lambda: (x * 2).register_post_accumulate_grad_hook(lambda t: None))
'''

PROGRAMS['node_hooks_order_tensor_vs_node'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('tensor hook 1', g))
y.grad_fn.register_prehook(lambda go: print('node prehook', go))
y.register_hook(lambda g: print('tensor hook 2', g))
y.grad_fn.register_hook(lambda gi, go: print('node hook', gi, go))
z = y.sum()
z.grad_fn.register_hook(lambda gi, go: print('sum hook', gi, go))
z.backward()
print(x.grad)
'''

PROGRAMS['node_call_by_hand'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
n = y.grad_fn
r = n(torch.ones(2))
print(r, type(r))
s = (x * 3).sum()
print(s.grad_fn(torch.tensor(2.)))
m = torch.mul(x, torch.tensor([5., 6.], requires_grad=True))
print(m.grad_fn(torch.ones(2)))
E(lambda: n())
E(lambda: n(torch.ones(2), torch.ones(2)))
print(x.grad)
'''

PROGRAMS['node_raw_saved_and_saved_of_many_ops'] = PRE + r'''
x = torch.arange(6.).reshape(2, 3).requires_grad_()
print(x.sum(1, keepdim=True).grad_fn._saved_dim, x.sum(1, keepdim=True).grad_fn._saved_keepdim)
print(x.sum(1).grad_fn._saved_self_sym_sizes)
print(x.mean((0, 1)).grad_fn._saved_dim)
print(x.view(3, 2).grad_fn._saved_self_sym_sizes)
print(x.transpose(0, 1).grad_fn._saved_dim0, x.transpose(0, 1).grad_fn._saved_dim1)
print(x.pow(2).grad_fn._saved_exponent, type(x.pow(2).grad_fn._saved_exponent))
print(x.pow(2.5).grad_fn._saved_exponent, (x + 1).grad_fn._saved_alpha, x.add(x, alpha=2).grad_fn._saved_alpha)
print(x.clamp(min=1).grad_fn._saved_min, x.clamp(min=1).grad_fn._saved_max)
print(x.narrow(1, 0, 2).grad_fn._saved_start, x[:, 1].grad_fn._saved_dim, x[:, 1].grad_fn._saved_index)
print(x[:, ::2].grad_fn._saved_step, x[:, ::2].grad_fn._saved_end, x[:, ::2].grad_fn._saved_start)
print(x.expand(2, 2, 3).grad_fn._saved_self_sym_sizes, x.permute(1, 0).grad_fn._saved_dims)
print(x.unsqueeze(0).grad_fn._saved_dim, x.squeeze().grad_fn, x.flip(0).grad_fn._saved_dims)
print(x.cumsum(1).grad_fn._saved_dim, x.softmax(1).grad_fn._saved_dim, x.log_softmax(-1).grad_fn._saved_dim)
print(x.max(1).values.grad_fn._saved_dim, x.max(1).values.grad_fn._saved_keepdim)
print(x.repeat(2, 1).grad_fn._saved_repeats, x.split(1)[0].grad_fn._saved_split_size)
print(x.std(1).grad_fn._saved_correction, x.var().grad_fn._saved_dim, x.norm().grad_fn._saved_ord, x.norm().grad_fn._saved_dim)
'''

PROGRAMS['node_raw_saved_tensor_objects'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
rs = c.grad_fn._raw_saved_self
print(type(rs).__name__, type(rs).__module__)
print(callable(rs.register_hooks))
E(lambda: rs.register_hooks(lambda t: t))
E(lambda: rs.register_hooks(1, 2))
d = a.exp()
print(d.grad_fn._saved_result is d, d.grad_fn._saved_result.equal(d))
print(torch.equal(c.grad_fn._saved_self, a), c.grad_fn._saved_self is a)
e = a.sigmoid()
print(e.grad_fn._saved_result)
c.sum().backward()
E(lambda: c.grad_fn._raw_saved_self)
E(lambda: c.grad_fn._saved_other)
print(a.grad, b.grad)
'''

PROGRAMS['node_saved_none_and_optional_args'] = PRE + r'''
x = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
print(x.clamp(max=2).grad_fn._saved_min, x.clamp(max=2).grad_fn._saved_max)
print(x.sum().grad_fn, x.mean().grad_fn._saved_self_sym_numel if hasattr(x.mean().grad_fn, '_saved_self_sym_numel') else None)
print(x.std().grad_fn._saved_dim, x.std().grad_fn._saved_correction, x.std().grad_fn._saved_keepdim)
print(x.var(0, correction=0).grad_fn._saved_dim, x.var(0, correction=0).grad_fn._saved_correction)
print(torch.nn.functional.leaky_relu(x, 0.2).grad_fn._saved_negative_slope)
print(torch.nn.functional.elu(x).grad_fn._saved_alpha, torch.nn.functional.elu(x).grad_fn._saved_scale)
print(torch.nn.functional.hardtanh(x).grad_fn._saved_min_val, torch.nn.functional.softplus(x).grad_fn._saved_beta)
print(x.div(2, rounding_mode=None).grad_fn._saved_other, x.div(torch.tensor(2.)).grad_fn._saved_other)
print(x.matmul(x).grad_fn._saved_self is None, x.mm(x).grad_fn._saved_mat2_sym_sizes, x.mm(x).grad_fn._saved_mat2_sym_strides)
print(x.gather(1, torch.tensor([[0], [1]])).grad_fn._saved_index, x.gather(1, torch.tensor([[0], [1]])).grad_fn._saved_sparse_grad)
print(x.index_select(0, torch.tensor([1])).grad_fn._saved_index, x.masked_fill(x > 0, 0).grad_fn._saved_mask)
print(x.where(x > 0, 0.).grad_fn._saved_condition, torch.cat([x, x]).grad_fn._saved_dim)
print(torch.stack([x, x], 1).grad_fn._saved_dim, x.topk(1).values.grad_fn._saved_dim, x.topk(1).values.grad_fn._saved_indices)
'''

# ---- GradientEdge, increment_version, saved tensor hooks, multi-grad hooks, mutation on saved tensors

PROGRAMS['gradient_edge_with_autograd_grad'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge, GradientEdge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.exp()
out = z.sum()
e = get_gradient_edge(y)
print(type(e).__name__, e.node is y.grad_fn, e.output_nr, isinstance(e, tuple), len(e))
print(torch.autograd.grad(out, e, retain_graph=True))
print(torch.autograd.grad(out, [e, x], retain_graph=True))
ex = get_gradient_edge(x)
print(ex.node.name(), ex.output_nr)
print(torch.autograd.grad(out, ex, retain_graph=True))
a, b = torch.tensor([1., 2., 3.], requires_grad=True).split(2)
eb = get_gradient_edge(b)
print(eb.node.name(), eb.output_nr)
E(lambda: get_gradient_edge(torch.ones(2)))
ge = GradientEdge(y.grad_fn, 0)
print(ge, ge == e)
print(torch.autograd.grad(out, ge))
'''

PROGRAMS['increment_version_and_saved_check'] = PRE + r'''
from torch.autograd.graph import increment_version
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
c = b.sin()
print(b._version)
increment_version(b)
print(b._version)
E(lambda: c.sum().backward())
d = a.clone()
v = d._version
increment_version([d])
print(v, d._version)
with torch.inference_mode():
    t = torch.ones(2)
E(lambda: increment_version(t))
print(t._version if not t.is_inference() else 'inference')
'''

PROGRAMS['saved_tensors_hooks_pack_unpack_prints'] = PRE + r'''
def pack(t):
    print('pack', t.shape, t.requires_grad)
    return t.clone()
def unpack(t):
    print('unpack', t.shape)
    return t
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    b = a * a
    c = b.exp()
    d = a.pow(3)
print('forward done')
(c.sum() + d.sum()).backward()
print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 42, lambda o: torch.ones(2) * o):
    e = a.sin()
e.sum().backward()
print(a.grad)
print(e.grad_fn._saved_self if False else 'skip')
'''

PROGRAMS['saved_tensors_hooks_nesting_and_errors'] = PRE + r'''
def mk(tag):
    return (lambda t: (print('pack', tag), t)[1], lambda t: (print('unpack', tag), t)[1])
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(*mk('outer')):
    with torch.autograd.graph.saved_tensors_hooks(*mk('inner')):
        b = a.sin()
    c = a.cos()
(b + c).sum().backward()
print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: None, lambda t: t):
    d = a.exp()
E(lambda: d.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
    f = a.log()
E(lambda: f.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: torch.ones(3)):
    g = a.log()
E(lambda: g.sum().backward())
def bad_pack(t):
    raise RuntimeError('pack failed')
def call():
    with torch.autograd.graph.saved_tensors_hooks(bad_pack, lambda t: t):
        a.tan()
E(call)
'''

PROGRAMS['saved_tensors_hooks_pack_inplace_error'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
def pack(t):
    t.mul_(2)
    return t
def call():
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        b = a * 1
        return b.sin()
E(call)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    h = a * a
print(h.grad_fn._saved_self)
rs = h.grad_fn._raw_saved_self
E(lambda: rs.register_hooks(lambda t: t, lambda t: t))
h2 = a * a
h2.grad_fn._raw_saved_self.register_hooks(lambda t: (print('p'), t)[1], lambda t: (print('u'), t * 0)[1])
print(h2.grad_fn._saved_self)
h2.sum().backward()
print(a.grad)
E(lambda: h2.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda t: t))
'''

PROGRAMS['disable_saved_tensors_hooks_message'] = PRE + r'''
from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks
a = torch.tensor([1., 2.], requires_grad=True)
with disable_saved_tensors_hooks("no hooks for you"):
    b = a * 2
    def call():
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    E(call)
    with disable_saved_tensors_hooks("inner message"):
        E(call)
    E(call)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    def call2():
        with disable_saved_tensors_hooks("while hooks on"):
            pass
    E(call2)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    pass
print(b)
@disable_saved_tensors_hooks("decorated")
def f():
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
E(f)
'''

PROGRAMS['save_on_cpu_and_hooks_types'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    b = a * a
    c = b.sin()
c.sum().backward()
print(a.grad)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    d = a.exp()
print(d.grad_fn._saved_result)
d.sum().backward()
print(a.grad)
h = torch.autograd.graph.save_on_cpu()
print(isinstance(h, torch.autograd.graph.saved_tensors_hooks), type(h).__name__)
'''

PROGRAMS['register_multi_grad_hook_all_and_any'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor([5., 6.], requires_grad=True)
def all_hook(grads):
    print('all', grads)
h = register_multi_grad_hook((a, b, c), all_hook)
print(type(h).__name__)
(a * b).sum().backward()
(a * b * c).sum().backward()
h.remove()
(a * c).sum().backward()
def any_hook(g):
    print('any', g)
h2 = register_multi_grad_hook((a, b), any_hook, mode="any")
(a + b).sum().backward()
(a * 2).sum().backward()
h2.remove()
E(lambda: register_multi_grad_hook((a, b), any_hook, mode="some"))
x = a * 1
y = b * 1
register_multi_grad_hook([x, y], lambda gs: print('nonleaf', gs))
(x * y).sum().backward()
print(a.grad, b.grad, c.grad)
'''

PROGRAMS['multi_grad_hook_with_autograd_grad'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
x = a.sin()
y = b.cos()
register_multi_grad_hook((x, y), lambda gs: print('grads', gs))
out = (x * y).sum()
print(torch.autograd.grad(out, (a,), retain_graph=True))
print(torch.autograd.grad(out, (a, b), retain_graph=True))
print(torch.autograd.grad(out, (x,)))
'''

PROGRAMS['allow_mutation_on_saved_tensors'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.backward()
    print(a.grad, b)
    print(type(ctx).__name__)
b2 = a.clone()
out2 = (b2 ** 2).sum()
b2.sin_()
E(lambda: out2.backward())
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    c = a * 1
    d = c.exp()
    c.add_(1)
    d.sum().backward()
print(a.grad)
'''

# ---- autograd.Function: both styles and every ctx method

PROGRAMS['fn_setup_context_style_and_ctx_attrs'] = PRE + r'''
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(x, y, k):
        return x * y * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, k = inputs
        print('setup', type(ctx).__name__, ctx.needs_input_grad, output.requires_grad)
        ctx.save_for_backward(x, y)
        ctx.k = k
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        return g * y * ctx.k, g * x * ctx.k, None
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
out = Mul.apply(x, y, 2.)
print(out, out.grad_fn, type(out.grad_fn).__name__, out.grad_fn.name())
out.sum().backward()
print(x.grad, y.grad)
E(lambda: Mul.apply(x, y))
print(Mul.forward(x, y, 3))
'''

PROGRAMS['fn_forward_ctx_style_errors'] = PRE + r'''
class Bad1(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 3
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: print(Bad1.apply(x)))
class Bad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Bad2.apply(x)[0].sum().backward())
class Bad3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
E(lambda: Bad3.apply(x).sum().backward())
class Bad4(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.sum()
E(lambda: Bad4.apply(x).sum().backward())
class Bad5(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.double()
E(lambda: Bad5.apply(x).sum().backward())
print(x.grad)
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
E(lambda: NoBackward.apply(x).sum().backward())
class Mixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 'text', 5, None
    @staticmethod
    def backward(ctx, g, *rest):
        print('rest', rest)
        return g
r = Mixed.apply(x)
print(r)
r[0].sum().backward()
print(x.grad)
E(lambda: Bad1())
E(lambda: Bad1.forward(None, x))
'''

PROGRAMS['fn_saved_tensors_after_backward_freed'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x)
print(y.grad_fn.saved_tensors, y.grad_fn.to_save if hasattr(y.grad_fn, 'to_save') else '')
y.sum().backward()
E(lambda: y.grad_fn.saved_tensors)
E(lambda: y.sum().backward())
y2 = Sq.apply(x)
y2.sum().backward(retain_graph=True)
print(y2.grad_fn.saved_tensors)
y2.sum().backward()
print(x.grad)
x2 = x.detach().clone().requires_grad_()
y3 = Sq.apply(x2)
x2.data.mul_(1)
with torch.no_grad():
    x2.mul_(2)
E(lambda: y3.sum().backward())
E(lambda: y3.grad_fn.saved_tensors)
'''

PROGRAMS['fn_mark_non_differentiable_and_dirty'] = PRE + r'''
class SortIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        print('gi', gi)
        i, = ctx.saved_tensors
        return torch.zeros_like(gv).scatter(0, i, gv)
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = SortIdx.apply(x)
print(v, i, v.requires_grad, i.requires_grad, i.grad_fn, i.is_leaf)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = AddOne.apply(b)
print(c is b, c, b._version, c.grad_fn)
c.sum().backward()
print(a.grad)
E(lambda: AddOne.apply(a))
class Forgot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
d = a.clone()
r = Forgot.apply(d)
print(r is d, r.grad_fn)
'''

PROGRAMS['fn_mark_dirty_on_views'] = PRE + r'''
class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = a.clone()
v = b[1:3]
r = AddOne.apply(v)
print(r is v, r, v.grad_fn, b.grad_fn, b)
b.sum().backward()
print(a.grad)
a.grad = None
base = a.clone()
view = base.view(2, 2)
def leaky():
    with torch.no_grad():
        w = base[:2]
    return AddOne.apply(w)
E(leaky)
e = a.detach().clone()
v2 = e[:2]
r2 = AddOne.apply(v2)
print(r2.requires_grad, r2.grad_fn, e)
'''

PROGRAMS['fn_set_materialize_grads_and_needs_input_grad'] = PRE + r'''
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.set_materialize_grads(False)
        print('needs', ctx.needs_input_grad)
        return x * 2, y * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print('got', g1, g2, ctx.needs_input_grad)
        return (None if g1 is None else g1 * 2), (None if g2 is None else g2 * 3)
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
p, q = Two.apply(x, y)
print(p.requires_grad, q.requires_grad)
p.sum().backward()
print(x.grad)
y.requires_grad_()
p, q = Two.apply(x, y)
q.sum().backward()
print(x.grad, y.grad)
class Mat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('mat', g1, g2)
        return g1 + g2
m1, m2 = Mat.apply(x)
m1.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_once_differentiable_double_backward'] = PRE + r'''
from torch.autograd.function import once_differentiable
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('in backward', torch.is_grad_enabled(), g.requires_grad)
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
y2 = Cube.apply(x).sum()
g2, = torch.autograd.grad(y2, x)
print(g2, g2.requires_grad)
'''

PROGRAMS['fn_under_no_grad_and_inference_mode'] = PRE + r'''
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('fwd grad enabled', torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = Double.apply(x)
print(y, y.requires_grad, y.grad_fn)
with torch.inference_mode():
    z = Double.apply(x)
print(z, z.requires_grad, z.is_inference())
w = Double.apply(x)
print(w.grad_fn, w.requires_grad)
with torch.enable_grad():
    v = Double.apply(torch.ones(2))
print(v.requires_grad, v.grad_fn)
'''

PROGRAMS['fn_returning_inputs_unchanged'] = PRE + r'''
class Ident(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        print('ident bw', g)
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = Ident.apply(x)
print(y is x, y, y.grad_fn, y._base is x, y.is_leaf)
y.sum().backward()
print(x.grad)
class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(2, 1)
    @staticmethod
    def backward(ctx, g):
        return g.view(2) * 3
x.grad = None
z = ViewOut.apply(x)
print(z, z._is_view(), z._base is x, z.grad_fn)
z.sum().backward()
print(x.grad)
E(lambda: z.mul_(2))
t = torch.tensor([1., 2.])
r = Ident.apply(t)
print(r is t, r.requires_grad)
'''

PROGRAMS['fn_save_for_forward_and_jvp'] = PRE + FWD + r'''
class Sin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.cos()
x = torch.tensor([0., 1.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    out = Sin.apply(d)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: NoJvp.apply(d))
'''

# ---- grad modes as context managers and decorators

PROGRAMS['grad_mode_decorators_functions_and_generators'] = PRE + r'''
@torch.no_grad()
def f(x):
    return x * 2, torch.is_grad_enabled()
@torch.no_grad
def f2(x):
    return x * 2
@torch.enable_grad()
def g(x):
    return x * 2
@torch.inference_mode()
def h(x):
    return x * 2, torch.is_inference_mode_enabled()
@torch.inference_mode(False)
def h2(x):
    return x * 2
@torch.set_grad_enabled(False)
def k(x):
    return x * 2
x = torch.ones(2, requires_grad=True)
print(f(x), f2(x).requires_grad, torch.is_grad_enabled())
with torch.no_grad():
    print(g(x).requires_grad)
print(h(x), h(x)[0].is_inference(), h2(x).requires_grad)
print(k(x).requires_grad, torch.is_grad_enabled())
print(f.__name__, h.__name__, k.__name__, f2.__name__)
@torch.no_grad()
def gen(x):
    for i in range(2):
        print('in gen', torch.is_grad_enabled())
        y = yield x * i
        print('sent', y, torch.is_grad_enabled())
it = gen(x)
print(next(it).requires_grad, torch.is_grad_enabled())
print(it.send(5).requires_grad, torch.is_grad_enabled())
E(lambda: it.send(6))
'''

# fixed: no_grad().prev / enable_grad().prev are the grad mode before entering (a bool), as PyTorch's
PROGRAMS['grad_mode_decorating_classes_and_repr'] = PRE + r'''
E(lambda: torch.no_grad()(int))
class M:
    pass
E(lambda: torch.enable_grad()(M))
print(type(torch.no_grad()).__name__, type(torch.set_grad_enabled(True)).__name__)
torch.set_grad_enabled(True)
m = torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False) as r:
    print(r, torch.is_grad_enabled())
with torch.no_grad() as r2:
    print(r2)
with torch.inference_mode() as r3:
    print(r3)
print(torch.inference_mode().mode if hasattr(torch.inference_mode(), 'mode') else '', torch.no_grad().prev)
c = torch.no_grad().clone()
print(type(c).__name__)
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
E(lambda: torch.inference_mode(mode=1))
'''

# fixed: torch.is_inference(1) (and is_signed, is_floating_point, is_complex, is_nonzero, numel, is_same_size)
# raises PyTorch's TypeError instead of an AttributeError
PROGRAMS['grad_mode_nesting_inference_and_threads'] = PRE + r'''
import threading
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        a = x * 2
    with torch.inference_mode():
        b = x * 2
        with torch.inference_mode(False):
            c = x * 2
            print('inside', torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        print(torch.is_grad_enabled())
print(a.requires_grad, b.requires_grad, b.is_inference(), c.requires_grad, c.is_inference())
res = []
def worker():
    res.append((torch.is_grad_enabled(), torch.is_inference_mode_enabled(), (x * 2).requires_grad))
with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start(); t.join()
with torch.inference_mode():
    t = threading.Thread(target=worker)
    t.start(); t.join()
print(res)
with torch.inference_mode():
    inf = torch.ones(2)
E(lambda: inf.add_(1))
E(lambda: (inf * x).sum().backward())
print(inf.requires_grad, torch.is_inference(inf), inf.is_inference())
E(lambda: torch.is_inference(1))
E(lambda: inf.requires_grad_())
print((inf + 1).is_inference(), inf.clone().is_inference())
'''

PROGRAMS['set_multithreading_enabled_and_backward_thread'] = PRE + r'''
import threading
x = torch.ones(3, requires_grad=True)
names = []
y = x * 2
y.register_hook(lambda g: names.append(threading.current_thread() is threading.main_thread()))
with torch.autograd.set_multithreading_enabled(False):
    y.sum().backward()
print(names, x.grad)
print(type(torch.autograd.set_multithreading_enabled(True)).__name__)
torch.autograd.set_multithreading_enabled(True)
print(torch._C._is_multithreading_enabled() if hasattr(torch, '_C') and hasattr(torch._C, '_is_multithreading_enabled') else True)
'''

PROGRAMS['grad_mode_inside_backward_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
def hook(g):
    print('hook grad mode', torch.is_grad_enabled(), g.requires_grad)
    return g
y.register_hook(hook)
with torch.no_grad():
    E(lambda: y.sum().backward())
z = x.exp()
z.register_hook(hook)
g, = torch.autograd.grad(z.sum(), x, create_graph=True)
print(g.requires_grad)
with torch.inference_mode():
    w = x * 1
print(w.requires_grad)
'''

# ---- anomaly mode

PROGRAMS['detect_anomaly_nan_message_and_traceback'] = PRE + r'''
import io, contextlib
x = torch.tensor([0., 1.], requires_grad=True)
buf = io.StringIO()
with contextlib.redirect_stderr(buf):
    with torch.autograd.detect_anomaly():
        y = x.sqrt() * 0
        E(lambda: y.sum().backward())
err = buf.getvalue()
print('Traceback of forward call' in err, 'y = x.sqrt()' in err)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.detect_anomaly(check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    x.grad = None
    y = x.sqrt() * 0
    y.sum().backward()
    print(x.grad)
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())
s = torch.autograd.set_detect_anomaly(True, check_nan=False)
print(type(s).__name__, torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)
'''

PROGRAMS['detect_anomaly_custom_function_nan'] = PRE + r'''
import io, contextlib
class NanBack(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
x = torch.tensor([1., 2.], requires_grad=True)
def first_and_last_lines(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        E(f)
    for w in ws:  # (the forward traceback's middle lines name PyTorch's own files)
        lines = str(w.message).splitlines()
        print('W', w.category.__name__, lines[0], '|', lines[-1])
with torch.autograd.detect_anomaly():
    first_and_last_lines(lambda: NanBack.apply(x).sum().backward())
    first_and_last_lines(lambda: torch.autograd.grad(NanBack.apply(x).sum(), x))
with torch.autograd.detect_anomaly():
    a = torch.tensor(float('nan'), requires_grad=True)
    E(lambda: (a * 2).backward())
    b = torch.tensor([1., -1.], requires_grad=True)
    E(lambda: b.log().sum().backward())
    print(b.grad)
print(x.grad)
'''

PROGRAMS['detect_anomaly_decorator_and_inplace_hint'] = PRE + r'''
import io, contextlib
def run():
    print('on', torch.is_anomaly_enabled())
    a = torch.tensor([1., 2.], requires_grad=True)
    b = a.sigmoid()
    b.mul_(2)
    b.sum().backward()
buf = io.StringIO()
E(lambda: torch.autograd.detect_anomaly()(run))
with contextlib.redirect_stderr(buf):
    with torch.autograd.detect_anomaly():
        E(run)
print('off', torch.is_anomaly_enabled(), 'Sigmoid' in buf.getvalue() or 'sigmoid' in buf.getvalue())
a = torch.tensor([1., 2.], requires_grad=True)
b = a.sigmoid()
b.mul_(2)
E(lambda: b.sum().backward())
'''

# ---- backward / grad options

PROGRAMS['backward_inputs_argument'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
out = (c * c).sum()
out.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
out.backward(inputs=(b,), retain_graph=True)
print(a.grad, b.grad)
c.retain_grad()
out.backward(inputs=[c], retain_graph=True)
print(c.grad, a.grad)
out.backward(inputs=a, retain_graph=True)
print(a.grad)
E(lambda: out.backward(inputs=[], retain_graph=True))
E(lambda: out.backward(inputs=[torch.ones(2)], retain_graph=True))
d = torch.ones(2, requires_grad=True)
E(lambda: out.backward(inputs=[d], retain_graph=True))
print(d.grad)
torch.autograd.backward(out, inputs=[b])
print(b.grad)
'''

PROGRAMS['backward_grad_tensors_several_outputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y1 = x * 2
y2 = x ** 2
s = x.sum()
torch.autograd.backward([y1, y2], [torch.ones(2), torch.tensor([1., 10.])])
print(x.grad)
x.grad = None
E(lambda: torch.autograd.backward((y1.sum(), s), retain_graph=True))
print(x.grad)
y1 = x * 2
torch.autograd.backward((y1.sum(), s), retain_graph=True)
print(x.grad)
E(lambda: torch.autograd.backward([y1, y2], [torch.ones(2)]))
E(lambda: torch.autograd.backward([y1], [torch.ones(3)]))
E(lambda: torch.autograd.backward([y1, y2], grad_tensors=None))
E(lambda: torch.autograd.backward([], []))
E(lambda: torch.autograd.backward(torch.ones(2, requires_grad=True).sum() * 0 + 1))
x.grad = None
torch.autograd.backward(y1, grad_tensors=torch.tensor([3., 4.]))
print(x.grad)
E(lambda: torch.autograd.backward([x * 2, torch.ones(2)], [torch.ones(2), torch.ones(2)]))
E(lambda: torch.autograd.backward(torch.ones(2)))
E(lambda: torch.autograd.grad([y2.sum(), y2[0]], [x]))
y2 = x ** 2
print(torch.autograd.grad([y2.sum(), y2[0]], [x]))
'''

PROGRAMS['grad_allow_unused_and_materialize'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
out = (a * 2).sum()
E(lambda: torch.autograd.grad(out, [a, b], retain_graph=True))
print(torch.autograd.grad(out, [a, b], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, [a, b], materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(out, [a, b], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, [a, b], allow_unused=False, materialize_grads=True, retain_graph=True))
c = torch.tensor(1., requires_grad=True)
print(torch.autograd.grad(out, c, allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, c, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, torch.ones(2)))
E(lambda: torch.autograd.grad(torch.ones(2).sum(), a))
E(lambda: torch.autograd.grad(out, []))
print(torch.autograd.grad(out, a, only_inputs=True, retain_graph=True))
'''

PROGRAMS['grad_is_grads_batched'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
eye = torch.eye(3)
print(torch.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad(y.sum(), x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 4), is_grads_batched=True, retain_graph=True))
z = x.exp() * x.sin()
print(torch.autograd.grad(z, x, torch.eye(3)[:2], is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad([y, z], x, [eye, eye], is_grads_batched=True))
'''

PROGRAMS['retain_graph_errors_and_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x.exp() * x).sum()
torch.autograd.grad(y, x)
E(lambda: torch.autograd.grad(y, x))
E(lambda: y.backward())
y2 = (x.exp() * x).sum()
g, = torch.autograd.grad(y2, x, create_graph=True)
print(g, g.grad_fn)
g.sum().backward()
print(x.grad)
E(lambda: y2.backward())
y3 = (x * x).sum()
def quiet(f):  # (backward(create_graph=True) on a leaf warns once per process: tested by hunt14, in a fresh one)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()
quiet(lambda: y3.backward(create_graph=True))
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
x.grad = None
y4 = x.relu().sum()
y4.backward(retain_graph=False)
E(lambda: y4.backward())
y5 = x.sum()
y5.backward()
y5.backward()
print(x.grad)
'''

# ---- more corners of Function, ctx and the graph

PROGRAMS['fn_vmap_staticmethod_and_generate_vmap_rule'] = PRE + FWD + r'''
from torch.func import vmap, grad
class MyExp(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r
x = torch.tensor([[0., 1.], [2., 3.]])
print(vmap(MyExp.apply)(x))
print(grad(lambda t: MyExp.apply(t).sum())(torch.tensor([0., 1.])))
print(vmap(grad(lambda t: MyExp.apply(t).sum()))(x))
class NoRule(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: vmap(NoRule.apply)(x))
class OldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: vmap(OldStyle.apply)(x))
E(lambda: grad(lambda t: OldStyle.apply(t).sum())(torch.tensor([0., 1.])))
class WithVmap(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 3
    @staticmethod
    def vmap(info, in_dims, x):
        # (minigrad's vmap is a loop over slices: the rule is never called, each slice runs forward instead)
        return x * 3, in_dims[0]
print(vmap(WithVmap.apply)(x))
print(vmap(WithVmap.apply, in_dims=1)(x))
'''

PROGRAMS['fn_save_for_backward_non_tensors_and_none'] = PRE + r'''
class Saver(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, what):
        ctx.save_for_backward(what)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('saved', ctx.saved_tensors)
        return g, None
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: Saver.apply(x, 3))
E(lambda: Saver.apply(x, 'a'))
y = Saver.apply(x, None)
y.sum().backward()
y = Saver.apply(x, torch.ones(1))
y.sum().backward()
print(x.grad)
class SaveOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.exp()
        ctx.save_for_backward(out, x)
        return out
    @staticmethod
    def backward(ctx, g):
        out, inp = ctx.saved_tensors
        print(out.requires_grad, inp.requires_grad, out.grad_fn is not None)
        return g * out
x.grad = None
y = SaveOut.apply(x)
y.sum().backward()
print(x.grad)
class TwiceSave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_backward(x, x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        print(len(ctx.saved_tensors))
        return g
TwiceSave.apply(x).sum().backward()
'''

PROGRAMS['fn_apply_kwargs_and_non_tensor_inputs'] = PRE + r'''
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=2.0, *, unused=None):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
x = torch.tensor([1., 2.], requires_grad=True)
y = Scale.apply(x, 3.0)
print(y, y.grad_fn.next_functions)
E(lambda: Scale.apply(x, k=4.0))
E(lambda: Scale.apply(x))
y = Scale.apply(x, torch.tensor(5.))
print(y, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
class ListIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xs):
        return xs[0] * 2
    @staticmethod
    def backward(ctx, g):
        return None
r = ListIn.apply([x, x])
print(r.requires_grad, r.grad_fn)
'''

PROGRAMS['fn_mark_non_differentiable_input_and_ctx_misc'] = PRE + r'''
class PassThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
y = PassThrough.apply(x)
print(y.requires_grad, y is x, y.grad_fn)
class CtxLook(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        print(type(ctx).__name__, ctx.needs_input_grad, hasattr(ctx, 'saved_tensors'))
        print(ctx.materialize_grads if hasattr(ctx, 'materialize_grads') else '-', ctx.to_save if hasattr(ctx, 'to_save') else '-')
        E(lambda: ctx.saved_tensors)
        return x + y
    @staticmethod
    def backward(ctx, g):
        print('bw ctx', type(ctx).__name__, ctx.needs_input_grad)
        return g, g
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.])
out = CtxLook.apply(a, b)
out.backward()
print(a.grad, b.grad)
print(isinstance(out.grad_fn, torch.autograd.function.BackwardCFunction), isinstance(out.grad_fn, torch.autograd.graph.Node))
print(out.grad_fn._forward_cls is CtxLook if hasattr(out.grad_fn, '_forward_cls') else '-')
'''

PROGRAMS['fn_double_backward_create_graph'] = PRE + r'''
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('bw grad enabled', torch.is_grad_enabled(), x.requires_grad)
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
y = Square.apply(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
print(torch.autograd.gradcheck(Square.apply, (torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True),)))
print(torch.autograd.gradgradcheck(Square.apply, (torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True),)))
'''

PROGRAMS['forward_ad_dual_levels_and_errors'] = PRE + FWD + r'''
x = torch.tensor([1., 2.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 0.]))
    u = fwAD.unpack_dual(d)
    print(u, type(u).__name__, u.primal is x, u.tangent)
    print(fwAD.unpack_dual(x))
    E(lambda: fwAD.make_dual(x, torch.ones(3)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.int64)))
    E(lambda: fwAD.make_dual(x, torch.ones(2), level=5))
    y = d.sin() * d
    print(fwAD.unpack_dual(y).tangent)
    def nested():
        with fwAD.dual_level():
            pass
    E(nested)
E(lambda: fwAD.make_dual(x, torch.ones(2)))
print(fwAD.unpack_dual(d))
lvl = fwAD.enter_dual_level()
print(lvl)
E(lambda: fwAD.enter_dual_level())
fwAD.exit_dual_level()
E(lambda: fwAD.exit_dual_level())
'''

PROGRAMS['tensor_hooks_errors_and_handles'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.ones(2).register_hook(lambda g: g))
y = x * 2
h = y.register_hook(lambda g: g * 10)
print(type(h).__name__, h.id >= 0)
with h:
    pass
y.sum().backward(retain_graph=True)
print(x.grad)
y.register_hook(lambda g: 'bad')
E(lambda: y.sum().backward(retain_graph=True))
z = x * 3
z.register_hook(lambda g: torch.ones(3))
E(lambda: z.sum().backward())
w = x * 4
w.register_hook(lambda g: g.double())
E(lambda: w.sum().backward())
print(x.grad)
print(x._backward_hooks)
'''

PROGRAMS['retain_grad_and_nonleaf_grad_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.sum()
z.backward(retain_graph=True)
print(y.grad)
print(y.retains_grad, x.retains_grad)
y.retain_grad()
y.retain_grad()
z.backward(retain_graph=True)
print(y.grad, y.retains_grad)
x.retain_grad()
print(x.retains_grad)
E(lambda: torch.ones(1).retain_grad())
v = y.view(2, 1)
v.retain_grad()
y.mul_(2)
(v.sum() * 1).backward(retain_graph=True) if v.grad_fn else None
print(v.grad, v.grad_fn)
y.grad = torch.ones(2)
print(y.grad)
E(lambda: setattr(y, 'grad', torch.ones(3)))
E(lambda: setattr(x, 'grad', 5))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.int64)))
'''

PROGRAMS['autograd_variable_and_misc_api'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.ones(2), requires_grad=True)
print(v, type(v).__name__, v.requires_grad, isinstance(v, torch.Tensor))
w = Variable(torch.ones(2))
print(w.requires_grad)
print(torch.autograd.grad((v * 2).sum(), v))
print(sorted(n for n in ['backward', 'grad', 'Function', 'Variable', 'gradcheck', 'gradgradcheck', 'forward_ad', 'functional', 'graph', 'detect_anomaly', 'set_detect_anomaly', 'no_grad', 'enable_grad', 'set_grad_enabled', 'inference_mode', 'set_multithreading_enabled'] if hasattr(torch.autograd, n)))
print(torch.autograd.Function.__name__, torch.autograd.function.Function is torch.autograd.Function)
print(torch.autograd.grad_mode.no_grad is torch.no_grad)
'''

PROGRAMS['node_next_functions_of_function_with_mixed_inputs'] = PRE + r'''
class Mix(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k, b, c):
        return a * k + b + c
    @staticmethod
    def backward(ctx, g):
        return g, None, g, None
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.], requires_grad=True) * 2
c = torch.tensor([3.])
out = Mix.apply(a, 2, b, c)
print(out.grad_fn.next_functions)
print(len(out.grad_fn.next_functions), out.grad_fn.name())
out.backward()
print(a.grad)
r = torch.cat([a, c, b])
print(r.grad_fn.next_functions)
s = torch.stack([c, c])
print(s.grad_fn, s.requires_grad)
m = a.max(0)
print(m.values.grad_fn, m.indices.grad_fn, m.values.grad_fn._saved_indices, m.values.grad_fn._saved_keepdim)
u = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).unbind(1)
print(u[1].grad_fn, u[1].grad_fn._saved_dim, u[0].grad_fn is u[1].grad_fn)
'''

PROGRAMS['node_saved_scalars_of_arithmetic'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for y in [x * 2, x * 2.5, x / 4, x.div(3, rounding_mode='floor'), x + 1, x - 1, x.sub(2, alpha=3), 2 - x,
          x.rsub(1) if hasattr(x, 'rsub') else 1 - x, x ** 3, 2 ** x, x.add(torch.tensor(1.), alpha=0.5),
          torch.add(x, x, alpha=2), x.mul(True), x.lerp(torch.zeros(2), 0.3), x.addcmul(x, x, value=2),
          x.clamp(0.5, 1.5), x.clamp_min(1), x.fmod(1.5), x.remainder(1.5), torch.true_divide(x, 2)]:
    n = y.grad_fn
    names = sorted(a for a in dir(n) if a.startswith('_saved_'))
    vals = []
    for a in names:
        v = getattr(n, a)
        vals.append((a, v if not isinstance(v, torch.Tensor) else ('T', v.shape, v.dtype), type(v).__name__))
    print(n.name(), vals)
'''

PROGRAMS['node_saved_attrs_of_nn_ops'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, requires_grad=True)
w = torch.randn(3, 2, 3, 3, requires_grad=True)
def show(y):
    n = y.grad_fn
    out = []
    for a in sorted(a for a in dir(n) if a.startswith('_saved_')):
        v = getattr(n, a)
        out.append((a, ('T', tuple(v.shape), v.dtype) if isinstance(v, torch.Tensor) else v))
    print(n.name(), out)
show(F.conv2d(x, w, stride=2, padding=1))
show(F.linear(x.flatten(1), torch.randn(3, 32)))
show(F.max_pool2d(x, 2))
show(F.avg_pool2d(x, 2, ceil_mode=True))
show(F.layer_norm(x, (4,)))
show(F.embedding(torch.tensor([0, 2]), torch.randn(3, 2, requires_grad=True), padding_idx=1))
show(F.mse_loss(x, torch.zeros_like(x)))
show(F.cross_entropy(torch.randn(2, 3, requires_grad=True), torch.tensor([0, 2])))
show(F.nll_loss(torch.randn(2, 3, requires_grad=True), torch.tensor([0, 2]), ignore_index=1, reduction='sum'))
show(F.softmax(x, 1))
show(F.gelu(x, approximate='tanh'))
show(F.leaky_relu(x))
show(F.pad(x, (1, 1)))
show(x.roll(1, 2))
show(x.reshape(2, 16).scatter(1, torch.tensor([[0], [1]]), 0.))
show(x.repeat_interleave(2, dim=0))
show(F.batch_norm(x, None, None, training=True))
show(F.dropout(x, 0.5, training=True))
show(x.mean(dim=(2, 3), keepdim=True))
show(torch.nn.functional.binary_cross_entropy_with_logits(x, torch.ones_like(x)))
show(x.amax((2, 3)))
show(x.index_select(1, torch.tensor([1])))
show(x.unfold(2, 2, 1))
'''

# ---- torch.autograd.functional, gradcheck and checkpoint (the rest of the API page)

PROGRAMS['functional_jacobian_hessian_options'] = PRE + FWD + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def f(x):
    return x ** 2 * x.sum()
x = torch.tensor([1., 2.])
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True))
print(jacobian(f, x, strategy='forward-mode', vectorize=True))
E(lambda: jacobian(f, x, strategy='forward-mode'))
E(lambda: jacobian(f, x, strategy='sideways'))
print(jacobian(lambda a, b: a * b, (x, x + 1)))
print(jacobian(lambda a: (a, a * 2), x))
print(jacobian(lambda a: torch.ones(2), x))
E(lambda: jacobian(lambda a: torch.ones(2), x, strict=True))
j = jacobian(f, x, create_graph=True)
print(j.requires_grad)
print(hessian(lambda a: (a ** 3).sum(), x))
E(lambda: hessian(lambda a: a ** 3, x))
print(hessian(lambda a, b: (a * b).sum(), (x, x)))
'''

PROGRAMS['functional_vjp_jvp_hvp_vhp'] = PRE + FWD + r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
def f(x):
    return x.exp() * 2
x = torch.tensor([0., 1.])
print(vjp(f, x, torch.ones(2)))
E(lambda: vjp(f, x))
print(vjp(lambda a: a.sum(), x))
print(jvp(f, x, torch.tensor([1., 0.])))
E(lambda: jvp(f, x))
print(jvp(lambda a: a.sum(), x, torch.ones(2)))
def g(x):
    return (x ** 3).sum()
print(hvp(g, x, torch.ones(2)))
print(vhp(g, x, torch.ones(2)))
E(lambda: hvp(f, x, torch.ones(2)))
E(lambda: vjp(f, x, torch.ones(3)))
E(lambda: vjp(lambda a: 3, x))
print(vjp(f, x, torch.ones(2), create_graph=True)[1].requires_grad)
E(lambda: vjp(lambda a: torch.ones(2), x, torch.ones(2), strict=True))
'''

PROGRAMS['gradcheck_failure_messages'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(Wrong.apply, (x,)))
print(gradcheck(Wrong.apply, (x,), raise_exception=False))
E(lambda: gradcheck(Wrong.apply, (x,), fast_mode=True))
xf = torch.tensor([1., 2.], requires_grad=True)
W(lambda: E(lambda: gradcheck(lambda t: t * 2, (xf,))))
print(gradcheck(lambda t: t.sin(), (x,), eps=1e-6, atol=1e-5))
print(gradgradcheck(lambda t: t.sin() * t, (x,)))
E(lambda: gradcheck(lambda t: t * 2, (torch.tensor([1.], dtype=torch.float64),)))
'''

PROGRAMS['checkpoint_reentrant_and_not'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
calls = []
def block(x):
    calls.append(torch.is_grad_enabled())
    return x.sin() * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
print(y.grad_fn, calls)
y.sum().backward()
print(x.grad, calls)
x.grad = None
calls.clear()
y = checkpoint(block, x, use_reentrant=True)
print(y.grad_fn, calls)
y.sum().backward()
print(x.grad, calls)
W(lambda: checkpoint(block, torch.ones(2), use_reentrant=True))
E(lambda: checkpoint(block, x, use_reentrant=False, bogus=1))
'''

# ---- hooks on multi-output nodes, hooks added during backward, outputs given as GradientEdges

PROGRAMS['node_hooks_on_multi_output_nodes'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
parts = x.split(2)
n = parts[0].grad_fn
print(n is parts[1].grad_fn, n.name(), n._saved_split_size, n._saved_dim, n._saved_self_sym_sizes)
n.register_prehook(lambda go: print('pre', go))
n.register_hook(lambda gi, go: print('post', gi, go))
(parts[1] * 2).sum().backward()
print(x.grad)
u = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).unbind(0)
u[0].grad_fn.register_hook(lambda gi, go: print('unbind', gi, go))
(u[0] + u[1] * 3).sum().backward()
m = torch.tensor([3., 1., 2.], requires_grad=True)
s = m.sort()
s.values.grad_fn.register_hook(lambda gi, go: print('sort', gi, go))
s.values[0].backward()
'''

PROGRAMS['hooks_registered_during_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
def add_more(g):
    print('z hook', g)
    y.register_hook(lambda gy: print('late y hook', gy))
    return g
z.register_hook(add_more)
z.sum().backward(retain_graph=True)
z.sum().backward()
print(x.grad)
a = x.exp()
b = a.sin()
def node_hook(gi, go):
    print('node hook sees', len(gi), len(go))
    a.grad_fn.register_prehook(lambda go2: print('late prehook', go2))
b.grad_fn.register_hook(node_hook)
b.sum().backward()
E(lambda: b.grad_fn.register_hook(5))
E(lambda: x.register_hook(None))
'''

PROGRAMS['grad_outputs_as_gradient_edges_and_nones'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = (y * 2).sum()
E(lambda: torch.autograd.grad(y, x, None))
print(torch.autograd.grad([z, y], x, [None, torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad([z, y], x, [None, None], retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(y), x, torch.ones(2), retain_graph=True))
print(torch.autograd.grad(z, get_gradient_edge(y), retain_graph=True))
print(torch.autograd.grad(z, (get_gradient_edge(y), get_gradient_edge(x)), retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, 3]))
E(lambda: torch.autograd.grad(5, x))
E(lambda: torch.autograd.grad(z, x, grad_outputs=torch.ones(2)))
print(torch.autograd.grad(z, x, grad_outputs=torch.tensor(2.)))
'''

PROGRAMS['inference_tensors_in_autograd'] = PRE + r'''
with torch.inference_mode():
    w = torch.tensor([1., 2.])
x = torch.tensor([3., 4.], requires_grad=True)
E(lambda: (x * w).sum().backward())
print(x.grad)
E(lambda: (x * 2 + w).sum().backward())
print(x.grad)
E(lambda: torch.autograd.grad((x.exp() * w).sum(), x))
c = w.clone()
print(c.is_inference(), (x * c).sum().backward(), x.grad)
with torch.inference_mode():
    p = torch.nn.Parameter(torch.ones(2)) if False else None
    t = torch.ones(2, requires_grad=True)
print(t.requires_grad, t.is_inference(), t.is_leaf)
E(lambda: (t * 2).sum().backward())
print(t.grad)
with torch.inference_mode():
    E(lambda: (x * 2).sum().backward())
    print(x.grad)
'''

PROGRAMS['forward_ad_with_views_inplace_and_unpacked_dual'] = PRE + FWD + r'''
x = torch.tensor([1., 2., 3., 4.])
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone(), torch.ones(4))
    v = d[1:3]
    print(fwAD.unpack_dual(v).tangent, v._base is d)
    v.mul_(2)
    print(fwAD.unpack_dual(d).tangent)
    r = d.view(2, 2).t()
    u = fwAD.unpack_dual(r)
    print(u.tangent, type(u).__name__, u._fields, u[0] is u.primal)
    print(isinstance(u, tuple), len(u))
    plain = torch.zeros(4)
    plain.copy_(d)
    print(fwAD.unpack_dual(plain).tangent)
    a = torch.zeros(2)
    a.add_(d[:2])
    print(fwAD.unpack_dual(a).tangent)
    print(fwAD.unpack_dual(d.sum()).tangent, fwAD.unpack_dual(d.detach()).tangent)
    print(fwAD.unpack_dual(d.requires_grad_()).tangent is not None)
'''

PROGRAMS['grad_mode_generator_and_nested_decorators'] = PRE + r'''
@torch.enable_grad()
@torch.no_grad()
def inner_wins(x):
    return (x * 2).requires_grad
x = torch.ones(1, requires_grad=True)
print(inner_wins(x))
@torch.no_grad()
@torch.enable_grad()
def inner_wins2(x):
    return (x * 2).requires_grad
print(inner_wins2(x))
class Model:
    @torch.no_grad()
    def predict(self, x):
        return x * 2
    @torch.inference_mode()
    def infer(self, x):
        return x * 3
m = Model()
print(m.predict(x).requires_grad, m.infer(x).is_inference(), Model.predict.__name__)
@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    with torch.enable_grad():
        yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()
print(list(gen()), torch.is_grad_enabled())
g = gen()
print(next(g), torch.is_grad_enabled())
g.close()
print(torch.is_grad_enabled())
def thrower():
    with torch.no_grad():
        raise ValueError('boom')
E(thrower)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    with torch.set_grad_enabled(True):
        print((x * 2).requires_grad)
    print((x * 2).requires_grad)
'''

PROGRAMS['backward_on_views_and_leaves_inplace_errors'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: x.add_(1))
E(lambda: x[0].mul_(2))
E(lambda: x.view(3).zero_())
with torch.no_grad():
    x[0] = 10.
print(x, x._version, x.grad_fn)
y = x.clone()
y[1:] *= 2
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
z = x.detach()
z.zero_()
print(x, x._version)
w = x * 1
v = w[:2]
w.add_(1)
print(v.grad_fn, v._version, w._version)
v.sum().backward()
print(x.grad)
'''

PROGRAMS['anomaly_error_in_custom_backward_and_double_backward'] = PRE + r'''
class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        raise ValueError('boom in backward')
def lines(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        E(f)
    for w in ws:
        # (frames are left out: those of a backward call name PyTorch's own files)
        print('W', w.category.__name__, [l for l in str(w.message).splitlines() if not l.startswith(' ')])
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = Boom.apply(x)
    lines(lambda: y.sum().backward())
    a = x.sqrt()
    b = a * 0.
    g, = torch.autograd.grad(b.sum(), x, create_graph=True)
    z = torch.tensor([0., 1.], requires_grad=True)
    s = z.pow(1.5)
    gz, = torch.autograd.grad(s.sum(), z, create_graph=True)
    print(gz)
    lines(lambda: (gz * 0).sum().backward())
    print(z.grad)
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    with torch.autograd.detect_anomaly(check_nan=False):
        print(torch.is_anomaly_check_nan_enabled())
    print(torch.is_anomaly_check_nan_enabled())
'''

# ---- quick probes of the same surface, kept as programs

PROGRAMS['probe_accumulate_grad_called_by_hand'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x*2).grad_fn.next_functions[0][0]
print(acc.metadata, acc.name(), acc._sequence_nr() if hasattr(acc,'_sequence_nr') else '')
E(lambda: acc())
E(lambda: acc(torch.ones(2)))
print(x.grad)
'''

PROGRAMS['probe_node_equality_and_clone_edges'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sin()
print(repr(y.grad_fn.next_functions), str(y.grad_fn))
print(y.grad_fn == y.grad_fn, hash(y.grad_fn) == hash(y.grad_fn))
z = y.clone()
print(z.grad_fn.next_functions[0][0] is y.grad_fn)
'''

PROGRAMS['probe_accumulate_variable_and_setattr'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print(y.grad_fn.next_functions[0][0].variable, y.grad_fn.next_functions[0][0].variable is x)
E(lambda: setattr(y.grad_fn, 'foo', 1))
E(lambda: y.grad_fn.foo)
'''

PROGRAMS['probe_detect_and_detach_inplace'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.detach()
print(y.grad_fn, y.requires_grad, y._version, y._base)
z = x.detach_() if False else None
E(lambda: x.detach_())
w = x * 2
w.detach_()
print(w.grad_fn, w.requires_grad, w.is_leaf)
v = (x * 2)[0]
E(lambda: v.detach_())
'''

# fixed: torch.autograd.is_tensor_like exists (PyTorch imports torch.overrides' one there)
PROGRAMS['probe_is_tensor_like_and_multithreading'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.is_tensor_like(x) if hasattr(torch.autograd,'is_tensor_like') else 'x')
print(torch.autograd.is_multithreading_enabled())
with torch.autograd.set_multithreading_enabled(False):
    print(torch.autograd.is_multithreading_enabled())
print(torch.autograd.is_multithreading_enabled())
'''

PROGRAMS['probe_backward_grad_tensors_argument_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
out = y.sum()
E(lambda: torch.autograd.backward(out, grad_tensors=torch.ones(2)))
E(lambda: torch.autograd.backward(out, grad_tensors=[torch.tensor(1.), torch.tensor(2.)]))
E(lambda: torch.autograd.backward([out, out], inputs=x))
print(x.grad)
E(lambda: torch.autograd.backward(out, grad_variables=torch.tensor(1.)))
'''

PROGRAMS['probe_grad_keyword_combinations'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
print(torch.autograd.grad(y, x, retain_graph=True, create_graph=False, allow_unused=None))
E(lambda: torch.autograd.grad(y, x, materialize_grads=True, allow_unused=False))
E(lambda: torch.autograd.grad(y, x, is_grads_batched=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(1), is_grads_batched=True))
'''

PROGRAMS['probe_duplicate_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.backward(torch.ones(2), inputs=[x, x]))
print(x.grad)
E(lambda: torch.autograd.grad(y.sum(), [x, x]))
'''

PROGRAMS['probe_triple_grad_chain'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
print(g.requires_grad, g.grad_fn, g.grad_fn.next_functions)
gg = torch.autograd.grad(g.sum(), x, create_graph=True)[0]
print(gg.grad_fn)
print(torch.autograd.grad(gg.sum(), x))
'''

PROGRAMS['probe_create_graph_warning_backward'] = PRE + r'''
def quiet(f):  # (backward(create_graph=True) on a leaf warns once per process: tested by hunt14, in a fresh one)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
quiet(lambda: y.backward(create_graph=True))
print(x.grad, x.grad.grad_fn)
x.grad = None
quiet(lambda: torch.autograd.backward((x*x).sum(), create_graph=True, inputs=[x]))
print(x.grad)
'''

PROGRAMS['probe_scalar_backward_gradient_dtypes'] = PRE + r'''
x = torch.tensor(2., requires_grad=True)
y = x ** 2
y.backward(torch.tensor(3.))
print(x.grad)
E(lambda: y.backward(gradient=torch.tensor([1.])))
z = x ** 3
E(lambda: z.backward(torch.tensor(1, dtype=torch.int64)))
E(lambda: z.backward(torch.tensor(1., dtype=torch.float64)))
print(x.grad)
z = x ** 3
z.backward(torch.tensor(1., dtype=torch.float64))
print(x.grad)
'''

PROGRAMS['probe_dtype_conversions_in_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True, dtype=torch.float64)
y = x.float() * 2
y.sum().backward()
print(x.grad, x.grad.dtype)
c = torch.tensor([1+1j, 2j], requires_grad=True)
E(lambda: (c * 2).abs().backward(torch.ones(2)))
print(c.grad)
E(lambda: (c*c).sum().backward())
'''

PROGRAMS['probe_backward_positional_arguments'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sum()
y.backward(retain_graph=None, create_graph=False)
y.backward(None, None, False)
print(x.grad)
E(lambda: y.backward(1))
E(lambda: y.backward(inputs=1))
'''

PROGRAMS['probe_fn_apply_argument_counts'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: F.apply())
E(lambda: F.apply(x, x))
E(lambda: F.forward(None))
print(F.apply(torch.tensor(3.)), F.apply(torch.tensor([1], dtype=torch.int64)))
r = F.apply(torch.tensor([1.], dtype=torch.float64, requires_grad=True))
print(r)
'''

PROGRAMS['probe_fn_integer_output'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.int()
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.5, 2.5], requires_grad=True)
y = F.apply(x)
print(y, y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
'''

PROGRAMS['probe_fn_two_view_outputs'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1), x.view(-1)
    @staticmethod
    def backward(ctx, a, b):
        return (a + b).view(2, 2)
x = torch.ones(2, 2, requires_grad=True)
a, b = F.apply(x)
print(a._is_view(), b._is_view(), a.grad_fn, a._base is x)
E(lambda: a.add_(1))
(a.sum() + b.sum()).backward()
print(x.grad)
'''

PROGRAMS['probe_fn_returns_nonleaf_input'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 5
x = torch.ones(2, requires_grad=True)
y = x * 1
z = F.apply(y)
print(z is y, z._is_view(), z.grad_fn, y.grad_fn)
E(lambda: z.add_(1))
print(z.grad_fn)
'''

PROGRAMS['probe_fn_mark_dirty_nonleaf_input'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
y = x * 1
z = F.apply(y)
print(z is y, z.grad_fn, y._version)
z.sum().backward()
print(x.grad)
'''

PROGRAMS['probe_fn_dirty_and_passthrough_outputs'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.mark_dirty(x)
        x.add_(y)
        return x, y
    @staticmethod
    def backward(ctx, gx, gy):
        print('g', gx, gy)
        return gx, gx + gy
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
c = a.clone()
u, v = F.apply(c, b)
print(u is c, v is b, u.grad_fn, v.grad_fn, v._is_view())
(u.sum() * 2 + v.sum()).backward()
print(a.grad, b.grad)
'''

PROGRAMS['probe_fn_non_differentiable_inputs_and_outputs'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.mark_non_differentiable(x)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, a, b):
        print(a, b)
        return a
x = torch.ones(2, requires_grad=True)
E(lambda: F.apply(x))
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        o = x.clone()
        ctx.mark_non_differentiable(o)
        return o
    @staticmethod
    def backward(ctx, a):
        print('never', a)
        return a
o = G.apply(x)
print(o.requires_grad, o.grad_fn)
E(lambda: o.sum().backward())
'''

PROGRAMS['probe_fn_argmax_non_differentiable'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        i = x.argmax()
        o = x.clone()
        ctx.mark_non_differentiable(i)
        return o, i
    @staticmethod
    def backward(ctx, go, gi):
        print('gi', gi)
        return go
x = torch.tensor([1., 3., 2.], requires_grad=True)
o, i = F.apply(x)
print(o, i, i.requires_grad)
(o * i).sum().backward()
print(x.grad)
'''

PROGRAMS['probe_fn_node_ctx_fields_and_freed'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = F.apply(x)
print(y.grad_fn._raw_saved_tensors)
print(type(y.grad_fn._raw_saved_tensors[0]).__name__)
print(y.grad_fn.to_save, y.grad_fn.non_differentiable, y.grad_fn.dirty_tensors)
E(lambda: y.grad_fn.materialize_grads)
W(lambda: print(y.grad_fn.saved_variables))
y.sum().backward()
E(lambda: y.grad_fn._raw_saved_tensors)
E(lambda: y.grad_fn.to_save)
'''

PROGRAMS['probe_fn_ctx_fields_inside_forward'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print(ctx.to_save, ctx.non_differentiable, ctx.dirty_tensors)
        ctx.save_for_backward(x, None)
        print(ctx.to_save)
        E(lambda: ctx.saved_tensors)
        E(lambda: ctx._raw_saved_tensors)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print(ctx.to_save)
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = F.apply(x)
y.sum().backward()
'''

PROGRAMS['probe_multi_grad_hook_errors_and_single'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.ones(2)
E(lambda: register_multi_grad_hook((a, b), lambda g: None))
E(lambda: register_multi_grad_hook((), lambda g: None))
E(lambda: register_multi_grad_hook(a, lambda g: None))
h = register_multi_grad_hook([a], lambda g: print('one', g))
(a * 3).sum().backward()
h.remove()
h.remove()
'''

PROGRAMS['probe_multi_grad_hook_return_ignored'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
def hk(gs):
    print('hook', gs)
    return [g * 0 if g is not None else None for g in gs]
register_multi_grad_hook((a, b), hk)
(a * b).sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['probe_multi_grad_hook_any_retain_graph'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
x = a * 2
y = a * 3
register_multi_grad_hook((x, y), lambda gs: print('xy', gs), mode='any')
out = (x * y).sum()
out.backward(retain_graph=True)
out.backward(inputs=[a])
print(a.grad)
'''

PROGRAMS['probe_multi_grad_hook_with_tensor_hooks'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
x = a * 2
y = a * 3
register_multi_grad_hook((x, y), lambda gs: print('xy', gs))
x.register_hook(lambda g: print('x hook', g))
y.register_hook(lambda g: print('y hook', g))
(x.sum() * 2 + y.sum()).backward()
'''

PROGRAMS['probe_multi_grad_hook_all_under_autograd_grad'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
register_multi_grad_hook((a, b), lambda gs: print('ab', gs))
E(lambda: torch.autograd.grad((a * b).sum(), [a]))
(a.sum()).backward()
print(a.grad)
'''

PROGRAMS['probe_multi_grad_hook_any_under_autograd_grad'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
register_multi_grad_hook((a, b), lambda gs: print('ab', gs), mode='any')
E(lambda: torch.autograd.grad((a * b).sum(), [a]))
'''

PROGRAMS['probe_saved_hooks_with_custom_function'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: (print('pack', t), t * 10)[1], lambda t: (print('unpack', t), t)[1]):
    y = F.apply(x)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['probe_saved_hooks_reading_saved_attrs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: (print('pack', t.shape), t)[1], lambda t: (print('unpack'), t)[1]):
    y = x.exp()
    print(y.grad_fn._saved_result)
    z = torch.nn.functional.linear(x, torch.ones(3, 2))
    print('linear done')
    w = x.pow(2)
    print(w.grad_fn._saved_self)
y.sum().backward()
'''

PROGRAMS['probe_saved_hooks_pack_sees_tensors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def pack(t):
    print('pack', t.requires_grad, t.grad_fn, t is x)
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = x * x
    z = y.sin()
    out = z.exp()
'''

PROGRAMS['probe_saved_hooks_no_grad_and_inference'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    with torch.no_grad():
        y = x * x
    print('nograd', y.grad_fn)
    with torch.inference_mode():
        z = x * x
    w = torch.ones(2) * torch.ones(2)
print('done')
'''

PROGRAMS['probe_saved_hooks_around_checkpoint'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    return t.sin().exp()
with torch.autograd.graph.saved_tensors_hooks(lambda t: (print('outer pack'), t)[1], lambda t: (print('outer unpack'), t)[1]):
    y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['probe_saved_hooks_same_object_twice'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
hooks = torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
with hooks:
    with hooks:
        y = x.sin()
y.sum().backward()
print(x.grad, type(hooks).__name__, hooks.pack_hook is not None)
'''

PROGRAMS['probe_save_on_cpu_inside_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.sin()
    with torch.autograd.graph.save_on_cpu():
        z = y.exp()
print(y, z)
(y + z).sum().backward()
print(x.grad)
'''

PROGRAMS['probe_allow_mutation_views_and_values'] = PRE + r'''
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.clone()
    z = y * y
    y.mul_(10)
    print(y, z)
    z.sum().backward()
    print(x.grad)
    y2 = x.clone()
    v = y2[:1]
    w = y2.sin()
    v.add_(1)
    w.sum().backward()
    print(x.grad)
'''

PROGRAMS['probe_allow_mutation_nested_error'] = PRE + r'''
def nested():
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass
E(nested)
'''

PROGRAMS['probe_fwd_custom_jvp_saved_for_forward'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x * x
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        print('jvp called', t)
        return 2 * x * t
    @staticmethod
    def backward(ctx, g):
        return g
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    o = Sq.apply(d)
    print(fwAD.unpack_dual(o))
    o2 = Sq.apply(torch.tensor([3.]))
    print(fwAD.unpack_dual(o2))
'''

PROGRAMS['probe_fwd_custom_jvp_two_outputs'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y, x * 2
    @staticmethod
    def jvp(ctx, tx, ty):
        print('jvp', tx, ty)
        return tx + (ty if ty is not None else 0), tx * 2
    @staticmethod
    def backward(ctx, a, b):
        return a, a
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    a, b = Two.apply(d, torch.tensor([5., 5.]))
    print(fwAD.unpack_dual(a).tangent, fwAD.unpack_dual(b).tangent)
'''

PROGRAMS['probe_fwd_custom_jvp_bad_returns'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
class BadJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        return t.sum()
    @staticmethod
    def backward(ctx, g):
        return g
class BadJvp2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        return t, t
    @staticmethod
    def backward(ctx, g):
        return g
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    E(lambda: BadJvp.apply(d))
    E(lambda: BadJvp2.apply(d))
'''

PROGRAMS['probe_fwd_custom_jvp_mark_dirty'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def jvp(ctx, t):
        t.mul_(2)
        return t
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
    o = Inplace.apply(d)
    print(o is d, fwAD.unpack_dual(o).tangent, fwAD.unpack_dual(d).tangent)
'''

PROGRAMS['probe_fwd_make_dual_dtypes_and_backward'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.])
E(lambda: fwAD.unpack_dual(x))
with fwAD.dual_level() as lvl:
    print(lvl)
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2])))
    d = fwAD.make_dual(x, torch.tensor([1., 1.], dtype=torch.float64))
    print(fwAD.unpack_dual(d).tangent.dtype)
    d2 = fwAD.make_dual(torch.tensor([1., 2.], requires_grad=True), torch.ones(2))
    y = (d2 * d2).sum()
    y.backward()
    print(fwAD.unpack_dual(y))
'''

PROGRAMS['probe_threads_grad_and_backward'] = PRE + r'''
import threading
x = torch.tensor([1., 2.], requires_grad=True)
results = []
def work(k):
    y = (x * k).sum()
    g, = torch.autograd.grad(y, x)
    results.append((k, g))
ts = [threading.Thread(target=work, args=(k,)) for k in (1., 2., 3.)]
for t in ts: t.start()
for t in ts: t.join()
print(sorted(results, key=lambda r: r[0]))
def bw():
    (x * x).sum().backward()
t = threading.Thread(target=bw); t.start(); t.join()
print(x.grad)
'''

PROGRAMS['probe_grad_inside_tensor_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
def hook(g):
    z = torch.tensor([3.], requires_grad=True)
    E(lambda: torch.autograd.grad((z * z).sum(), z))
    with torch.enable_grad():
        gz, = torch.autograd.grad((z * z).sum(), z)
    print('inner grad', gz, torch.is_grad_enabled())
    return g
y.register_hook(hook)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['probe_reentrant_grad_in_custom_backward'] = PRE + r'''
class Reent(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with torch.enable_grad():
            t = x.detach().requires_grad_()
            out = (t ** 3).sum()
            gi, = torch.autograd.grad(out, t)
        return g * gi
x = torch.tensor([1., 2.], requires_grad=True)
Reent.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['probe_reentrant_backward_in_custom_backward'] = PRE + r'''
class Reent2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        t = torch.ones(1, requires_grad=True)
        with torch.enable_grad():
            (t * 2).sum().backward()
        print('inner leaf grad', t.grad)
        return g
x = torch.tensor([1., 2.], requires_grad=True)
Reent2.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['probe_backward_inside_hook_error'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
def bad_hook(g):
    y.sum().backward()
    return g
z = y * 3
z.register_hook(bad_hook)
E(lambda: z.sum().backward())
print(x.grad)
'''

PROGRAMS['probe_exceptions_raised_in_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
def raise_hook(g):
    raise KeyError('in hook')
y.register_hook(raise_hook)
E(lambda: y.sum().backward())
y2 = x * 3
y2.grad_fn.register_prehook(lambda go: 1 / 0)
E(lambda: y2.sum().backward())
print(x.grad)
'''

PROGRAMS['probe_grad_mode_decorating_non_functions'] = PRE + r'''
E(lambda: torch.no_grad()(int))
class C:
    def f(self): return 1
E(lambda: torch.inference_mode()(C))
E(lambda: torch.set_grad_enabled(False)(C))
torch.set_grad_enabled(True)
E(lambda: torch.no_grad(lambda: 1))
E(lambda: torch.enable_grad(1))
E(lambda: torch.inference_mode(lambda: 1))
'''

PROGRAMS['probe_grad_mode_on_coroutine'] = PRE + r'''
import asyncio
@torch.no_grad()
async def coro():
    return torch.is_grad_enabled()
E(lambda: asyncio.run(coro()))
print(torch.is_grad_enabled())
'''

PROGRAMS['probe_inference_mode_with_enable_grad_inside'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        y = x * 2
        print(torch.is_grad_enabled(), y.requires_grad, y.is_inference())
    with torch.no_grad():
        print(torch.is_inference_mode_enabled())
with torch.no_grad():
    with torch.inference_mode(False):
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
'''

# (the same inference_mode object entered twice leaves inference mode on in PyTorch too, for the rest of the process:
# minigrad matches that, but it is left out here since it would leak into the programs after this one)
PROGRAMS['probe_reentered_context_objects'] = PRE + r'''
ng = torch.no_grad()
with ng:
    with ng:
        pass
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
'''

PROGRAMS['probe_set_grad_enabled_object_reuse'] = PRE + r'''
g = torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
with g:
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(mode=False):
    print(torch.is_grad_enabled())
print(repr(torch.set_grad_enabled(True)).split(' object')[0])
print(torch.set_grad_enabled(True).mode if hasattr(torch.set_grad_enabled(True), 'mode') else '')
'''

PROGRAMS['probe_inference_mode_false_decorator'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
print(torch.is_grad_enabled())
@torch.inference_mode(mode=False)
def f():
    return torch.is_inference_mode_enabled()
with torch.inference_mode():
    print(f(), torch.is_inference_mode_enabled())
'''

PROGRAMS['saved_attrs_sweep_of_ninety_ops'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
sq = torch.randn(3, 3, requires_grad=True)
v = torch.randn(3, requires_grad=True)
def show(label, y):
    n = y.grad_fn
    out = []
    for a in sorted(a for a in dir(n) if a.startswith('_saved_')):
        try:
            val = getattr(n, a)
        except Exception as e:
            val = type(e).__name__
        out.append((a, ('T', tuple(val.shape), str(val.dtype)) if isinstance(val, torch.Tensor) else val))
    print(label, n.name(), out)
OPS = {
 'abs': lambda: x.abs(), 'sgn': lambda: x.sgn(), 'sign': lambda: x.sign(), 'tanh': lambda: x.tanh(),
 'sigmoid': lambda: x.sigmoid(), 'relu': lambda: x.relu(), 'log1p': lambda: x.log1p(), 'rsqrt': lambda: x.rsqrt(),
 'reciprocal': lambda: x.reciprocal(), 'erf': lambda: x.erf(), 'atan2': lambda: x.atan2(x), 'hypot': lambda: x.hypot(x),
 'maximum': lambda: x.maximum(x * 2), 'fmax': lambda: x.fmax(x), 'where': lambda: torch.where(x > 0, x, x * 2),
 'prod': lambda: x.prod(), 'prod1': lambda: x.prod(1), 'cumprod': lambda: x.cumprod(0), 'logsumexp': lambda: x.logsumexp(1),
 'norm2': lambda: x.norm(p=2, dim=1), 'normfro': lambda: x.norm(), 'dist': lambda: x.dist(x * 2), 'std': lambda: x.std(0, keepdim=True),
 'var_mean': lambda: torch.var_mean(x, 1)[0], 'median': lambda: x.median(), 'median1': lambda: x.median(1).values,
 'kthvalue': lambda: x.kthvalue(1, 1).values, 'min': lambda: x.min(), 'amin': lambda: x.amin(1), 'sort': lambda: x.sort(1).values,
 'cummax': lambda: x.cummax(1).values, 'trace': lambda: sq.trace(), 'diag': lambda: sq.diag(1), 'diagonal': lambda: sq.diagonal(-1),
 'tril': lambda: sq.tril(1), 'triu': lambda: sq.triu(), 'det': lambda: sq.det(), 'inverse': lambda: sq.inverse(),
 'matmul_mv': lambda: sq @ v, 'dot': lambda: v.dot(v), 'outer': lambda: v.outer(v), 'bmm': lambda: sq[None].bmm(sq[None]),
 'addmm': lambda: torch.addmm(v, sq, sq, beta=2, alpha=3), 'einsum': lambda: torch.einsum('ij,jk->ik', sq, sq),
 'kron': lambda: torch.kron(sq, sq), 'cross': lambda: torch.linalg.cross(sq, sq), 'flatten': lambda: x.flatten(),
 'reshape': lambda: x.t().reshape(6), 'chunk': lambda: x.chunk(3, 1)[1], 'narrow': lambda: x.narrow(1, 1, 2),
 'select': lambda: x.select(1, -1), 'movedim': lambda: x.movedim(0, 1), 'expand_as': lambda: v.expand_as(sq),
 'index': lambda: x[[0, 1], [2, 0]], 'bool_index': lambda: x[x > 0], 'masked_select': lambda: x.masked_select(x > 0),
 'index_add': lambda: sq.index_add(0, torch.tensor([0]), x[:1], alpha=2), 'scatter_add': lambda: sq.scatter_add(0, torch.tensor([[0, 1, 2]]), x[:1]),
 'index_fill': lambda: sq.index_fill(1, torch.tensor([0]), 2.), 'put': lambda: sq.put(torch.tensor([1]), v[:1]),
 'take': lambda: sq.take(torch.tensor([0, 4])), 'lerp_t': lambda: x.lerp(x * 2, x), 'addcdiv': lambda: x.addcdiv(x, x + 3, value=0.5),
 'polar': lambda: torch.polar(v.abs(), v), 'complex': lambda: torch.complex(v, v), 'real': lambda: torch.complex(v, v).real,
 'angle': lambda: x.angle(), 'nan_to_num': lambda: x.nan_to_num(posinf=1.), 'clamp_t': lambda: x.clamp(min=torch.zeros(3)),
 'softplus': lambda: F.softplus(x, beta=2, threshold=10), 'hardswish': lambda: F.hardswish(x), 'silu': lambda: F.silu(x),
 'mish': lambda: F.mish(x), 'celu': lambda: F.celu(x, 2.), 'selu': lambda: F.selu(x), 'glu': lambda: F.glu(sq[:2, :2]),
 'prelu': lambda: F.prelu(x, torch.tensor([0.25])), 'rrelu': lambda: F.rrelu(x, training=False), 'threshold': lambda: F.threshold(x, 0.1, 20.),
 'logsigmoid': lambda: F.logsigmoid(x), 'hardsigmoid': lambda: F.hardsigmoid(x), 'normalize': lambda: F.normalize(x),
 'cos_sim': lambda: F.cosine_similarity(x, x * 2), 'pdist': lambda: F.pdist(x), 'cdist': lambda: torch.cdist(x, x),
 'l1': lambda: F.l1_loss(x, x * 0), 'smooth_l1': lambda: F.smooth_l1_loss(x, x * 0, beta=0.5), 'huber': lambda: F.huber_loss(x, x * 0, delta=2.),
 'kl': lambda: F.kl_div(x, x.exp(), reduction='batchmean'), 'bce': lambda: F.binary_cross_entropy(x.sigmoid(), torch.ones(2, 3)),
 'group_norm': lambda: F.group_norm(x[None, :, :, None].expand(1, 2, 3, 2), 1), 'instance_norm': lambda: F.instance_norm(x[None]),
 'upsample': lambda: F.interpolate(x[None], scale_factor=2), 'upsample_lin': lambda: F.interpolate(x[None], size=5, mode='linear'),
 'adaptive_avg': lambda: F.adaptive_avg_pool1d(x[None], 2), 'adaptive_max': lambda: F.adaptive_max_pool1d(x[None], 2),
 'max_pool1d': lambda: F.max_pool1d(x[None], 2), 'conv1d': lambda: F.conv1d(x[None], torch.ones(1, 2, 3), padding='same'),
 'conv_t': lambda: F.conv_transpose1d(x[None], torch.ones(2, 1, 2), stride=2), 'unfold': lambda: F.unfold(x[None, None], 2),
 'pixel_shuffle': lambda: F.pixel_shuffle(torch.ones(1, 4, 1, 1, requires_grad=True), 2), 'one_hot_mm': lambda: F.one_hot(torch.tensor([0, 2]), 3).float() @ sq,
 'ctc_ish_logsoftmax': lambda: F.log_softmax(x, 0), 'sdpa': lambda: F.scaled_dot_product_attention(x[None], x[None], x[None]),
}
for k, f in OPS.items():
    try:
        show(k, f())
    except Exception as e:
        print(k, 'ERR', type(e).__name__, str(e)[:80])
'''

PROGRAMS['saved_attrs_sweep_linalg_fft_inplace_nn'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
sq = torch.randn(3, 3, requires_grad=True)
spd = (sq @ sq.mT + 3 * torch.eye(3)).detach().requires_grad_()
x = torch.randn(2, 4, requires_grad=True)
def show(label, y):
    n = y.grad_fn
    out = []
    for a in sorted(a for a in dir(n) if a.startswith('_saved_')):
        try:
            val = getattr(n, a)
        except Exception as e:
            val = type(e).__name__
        out.append((a, ('T', tuple(val.shape), str(val.dtype)) if isinstance(val, torch.Tensor) else val))
    print(label, n.name(), out)
OPS = {
 'svd': lambda: torch.linalg.svd(sq)[1], 'svdvals': lambda: torch.linalg.svdvals(sq), 'qr': lambda: torch.linalg.qr(sq)[0],
 'eigh': lambda: torch.linalg.eigh(spd)[0], 'cholesky': lambda: torch.linalg.cholesky(spd), 'solve': lambda: torch.linalg.solve(sq, spd),
 'lstsq': lambda: torch.linalg.lstsq(sq, spd).solution, 'vnorm': lambda: torch.linalg.vector_norm(x, ord=3, dim=1),
 'mnorm': lambda: torch.linalg.matrix_norm(sq, 'nuc'), 'pinv': lambda: torch.linalg.pinv(sq), 'slogdet': lambda: torch.linalg.slogdet(sq)[1],
 'matrix_exp': lambda: torch.linalg.matrix_exp(sq), 'lu_factor': lambda: torch.linalg.lu_factor(sq)[0], 'inv_ex': lambda: torch.linalg.inv_ex(sq)[0],
 'matrix_power': lambda: torch.linalg.matrix_power(sq, 3), 'eigvalsh': lambda: torch.linalg.eigvalsh(spd), 'triangular': lambda: torch.linalg.solve_triangular(spd.triu(), sq, upper=True),
 'fft': lambda: torch.fft.fft(x), 'rfft': lambda: torch.fft.rfft(x, n=6, norm='ortho'), 'irfft': lambda: torch.fft.irfft(torch.fft.rfft(x)),
 'fft2': lambda: torch.fft.fft2(x), 'fftshift': lambda: torch.fft.fftshift(x),
 'digamma': lambda: torch.special.digamma(x.exp()), 'polygamma': lambda: torch.polygamma(2, x.exp()), 'i0': lambda: torch.special.i0(x),
 'xlogy': lambda: torch.special.xlogy(x.exp(), x.exp()), 'logit': lambda: torch.logit(x.sigmoid(), eps=1e-3), 'erfinv': lambda: (x.sigmoid()).erfinv(),
 'mul_': lambda: x.clone().mul_(x), 'clamp_': lambda: x.clone().clamp_(0, 1), 'index_put_': lambda: x.clone().index_put_((torch.tensor([0]),), x[1]),
 'masked_fill_': lambda: x.clone().masked_fill_(x > 0, 1.), 'copy_': lambda: torch.zeros(2, 4).copy_(x), 'setitem': lambda: (lambda t: (t.__setitem__((0, 1), x[1, 1]), t)[1])(x.clone()),
 'pow_': lambda: x.clone().pow_(2), 'div_': lambda: x.clone().div_(x, rounding_mode=None), 'exp_': lambda: x.clone().exp_(),
 'conv_groups': lambda: F.conv2d(torch.ones(1, 4, 3, 3), torch.ones(4, 1, 2, 2, requires_grad=True), groups=4, dilation=1),
 'embedding_bag': lambda: F.embedding_bag(torch.tensor([0, 1, 2]), torch.randn(4, 2, requires_grad=True), torch.tensor([0, 2]), mode='max'),
 'ctc': lambda: F.ctc_loss(torch.randn(5, 1, 3, requires_grad=True).log_softmax(2), torch.tensor([[1, 2]]), torch.tensor([5]), torch.tensor([2])),
 'multi_margin': lambda: F.multi_margin_loss(x, torch.tensor([0, 3])), 'margin_rank': lambda: F.margin_ranking_loss(x, x * 2, torch.ones(2, 4)),
 'cross_entropy_ls': lambda: F.cross_entropy(x, torch.tensor([1, 3]), label_smoothing=0.1), 'cross_entropy_prob': lambda: F.cross_entropy(x, x.softmax(1).detach()),
 'poisson_nll': lambda: F.poisson_nll_loss(x, x.exp().detach()), 'gaussian_nll': lambda: F.gaussian_nll_loss(x, x * 0, torch.ones(2, 4)),
 'triplet': lambda: F.triplet_margin_loss(x, x * 2, x * 3), 'hinge': lambda: F.hinge_embedding_loss(x, torch.ones(2, 4)),
 'local_response': lambda: F.local_response_norm(x[None], 2), 'dropout2d': lambda: F.dropout1d(x[None], 0.5), 'alpha_dropout': lambda: F.alpha_dropout(x, 0.5, True),
 'lp_pool': lambda: F.lp_pool1d(x[None], 2, 2), 'fold': lambda: F.fold(torch.ones(1, 4, 4, requires_grad=True), (3, 3), 2),
 'grid_sample': lambda: F.grid_sample(torch.ones(1, 1, 2, 2, requires_grad=True), torch.zeros(1, 1, 1, 2), align_corners=False),
 'affine_grid': lambda: F.affine_grid(torch.eye(2, 3, requires_grad=True)[None], (1, 1, 2, 2), align_corners=False),
 'rnn_cell': lambda: torch.nn.RNNCell(4, 2)(x), 'lstm_cell': lambda: torch.nn.LSTMCell(4, 2)(x)[0], 'gru_cell': lambda: torch.nn.GRUCell(4, 2)(x),
 'bilinear': lambda: F.bilinear(x, x, torch.ones(1, 4, 4)), 'channel_shuffle': lambda: F.channel_shuffle(torch.ones(1, 4, 1, 1, requires_grad=True), 2),
 'cumsum_rev': lambda: x.flip(1).cumsum(1), 'logcumsumexp': lambda: x.logcumsumexp(1), 'renorm': lambda: x.renorm(2, 0, 1.), 'diff': lambda: x.diff(dim=1, prepend=x[:, :1]),
 'trapz': lambda: torch.trapezoid(x, dx=0.5), 'histc': lambda: x.sum() * 1, 'vander': lambda: torch.linalg.vander(x[0]), 'cov': lambda: torch.cov(x),
 'atleast': lambda: torch.atleast_3d(x), 'block_diag': lambda: torch.block_diag(x, x), 'cartesian': lambda: torch.cartesian_prod(x[0], x[1]),
 'tensordot': lambda: torch.tensordot(x, x, dims=([1], [1])), 'baddbmm': lambda: torch.baddbmm(x[None, :, :2], x[None], x[None].mT[:, :, :2]),
}
for k, f in OPS.items():
    try:
        show(k, f())
    except Exception as e:
        print(k, 'ERR', type(e).__name__, str(e)[:80])
'''

# fixed: a node called with only undefined (None) gradients returns None for each input, and a non-tensor
# argument is refused ("argument 0 is not a Variable")
PROGRAMS['node_call_by_hand_multi_and_errors'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
y = a * b
print(y.grad_fn(torch.ones(2)))
z = a + b
print(z.grad_fn(torch.ones(2)))
w = torch.cat([a, b])
print(w.grad_fn(torch.arange(4.)))
s = a.split(1)
print(s[0].grad_fn(torch.ones(1), torch.ones(1) * 2))
E(lambda: s[0].grad_fn(torch.ones(1)))
E(lambda: s[0].grad_fn(torch.ones(1), None))
u = a.sum()
E(lambda: u.grad_fn(None))
print(u.grad_fn(torch.tensor(3.)))
E(lambda: u.grad_fn(torch.ones(2)))
E(lambda: y.grad_fn(torch.ones(3)))
E(lambda: y.grad_fn(5))
'''

PROGRAMS['node_call_by_hand_create_graph_and_freed'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
y = a.exp()
with torch.enable_grad():
    g = torch.ones(2, requires_grad=True)
    r = y.grad_fn(g)
print(r, r.requires_grad, r.grad_fn)
y.sum().backward()
E(lambda: y.grad_fn(torch.ones(2)))
print(a.grad)
'''

PROGRAMS['node_call_by_hand_dtypes_and_index_nodes'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
y = a.exp()
print(y.grad_fn(torch.ones(2, dtype=torch.float64)))
print(y.grad_fn(torch.ones(2, dtype=torch.int64)))
m = a.max()
print(m.grad_fn(torch.tensor(1.)), m.grad_fn.name())
idx = a[torch.tensor([1, 1])]
print(idx.grad_fn(torch.ones(2)), idx.grad_fn.name())
'''

# fixed: (as above)
PROGRAMS['node_call_with_undefined_grads'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
for y in [a * b, a + 1, torch.stack([a, b]), a.unbind(0)[0], a.max(), torch.where(a > 1, a, b), a[0], a.view(2, 1), a.expand(3, 2), torch.lerp(a, b, 0.5), torch.addcmul(a, a, b), a.clamp(0, 1.5)]:
    n = y.grad_fn
    k = len(n.next_functions)
    print(n.name(), repr(n(*([None] * (2 if n.name() == 'UnbindBackward0' else 1)))))
acc = (a * 2).grad_fn.next_functions[0][0]
print(repr(acc(None)), a.grad)
E(lambda: acc(3))
E(lambda: (a * b).grad_fn([1.]))
'''

# fixed: (see grad_mode_nesting_inference_and_threads)
PROGRAMS['tensor_predicates_refuse_non_tensors'] = PRE + r'''
for name in ['is_inference', 'is_signed', 'is_floating_point', 'is_complex', 'is_nonzero', 'numel']:
    E(lambda: getattr(torch, name)(1.5))
    E(lambda: getattr(torch, name)([1]))
    print(getattr(torch, name)(torch.tensor([3])))
E(lambda: torch.is_same_size(torch.ones(1), 2))
E(lambda: torch.is_same_size(None, torch.ones(1)))
print(torch.is_same_size(torch.ones(1), torch.ones(1)), torch.is_same_size(torch.ones(1), torch.ones(2)))
'''

PROGRAMS['gradient_edge_as_backward_inputs_and_grad_outputs'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.exp().sum()
E(lambda: z.backward(inputs=[get_gradient_edge(y)], retain_graph=True))
E(lambda: torch.autograd.backward(z, inputs=get_gradient_edge(y), retain_graph=True))
print(x.grad, y.grad)
g = torch.autograd.grad(get_gradient_edge(y), x, grad_outputs=torch.ones(2), retain_graph=True)
print(g)
E(lambda: torch.autograd.grad(get_gradient_edge(y), x, retain_graph=True))
e = get_gradient_edge(y)
print(e.node.name(), e.node(torch.ones(2)))
'''

PROGRAMS['gradient_edge_of_views_and_inplace'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
v = x.view(2, 1)
print(get_gradient_edge(v).node.name())
x2 = x * 1
w = x2[0]
x2.mul_(3)
print(get_gradient_edge(w).node.name(), get_gradient_edge(x2).node.name())
out = (w * 5 + x2.sum())
print(torch.autograd.grad(out, get_gradient_edge(x2)))
'''

PROGRAMS['node_metadata_survives_and_readonly'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print(y.grad_fn.metadata)
y.grad_fn.metadata['note'] = 'hello'
z = y.clone()
print(z.grad_fn.next_functions[0][0].metadata)
E(lambda: setattr(y.grad_fn, 'metadata', {}))
del y
print(z.grad_fn.next_functions[0][0].metadata)
'''

PROGRAMS['node_hook_removal_and_order'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
h1 = y.grad_fn.register_hook(lambda gi, go: print('h1'))
h2 = y.grad_fn.register_hook(lambda gi, go: print('h2'))
p1 = y.grad_fn.register_prehook(lambda go: print('p1'))
p2 = y.grad_fn.register_prehook(lambda go: print('p2'))
y.register_hook(lambda g: print('t1'))
y.sum().backward(retain_graph=True)
h1.remove(); p2.remove()
y.sum().backward(retain_graph=True)
print(h1.id < h2.id, p1.id < p2.id)
'''

PROGRAMS['tensor_hooks_retain_grad_and_prehook_order'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.retain_grad()
y.register_hook(lambda g: g * 2)
y.grad_fn.register_prehook(lambda go: (go[0] * 3,))
y.register_hook(lambda g: print('t after', g))
y.sum().backward()
print(y.grad, x.grad)
'''

PROGRAMS['leaf_hooks_around_accumulate_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: g * 10)
acc = (x * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print('acc pre', go))
x.register_post_accumulate_grad_hook(lambda p: print('post', p.grad))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
(x * 1).sum().backward()
print(x.grad)
'''

PROGRAMS['nonleaf_grad_access_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print(y.grad)
print(y.is_leaf, y.retains_grad)
z = y.detach()
print(z.grad)
'''

# fixed: Variable(t, foo=1) raises PyTorch's "'foo' is an invalid keyword argument for this function"
PROGRAMS['variable_constructor_arguments'] = PRE + r'''
from torch.autograd import Variable
E(lambda: Variable(torch.ones(2), volatile=True))
v = Variable(torch.ones(2), requires_grad=True)
print(v.volatile if hasattr(v, 'volatile') else '-')
E(lambda: Variable(5))
E(lambda: Variable(torch.ones(2), requires_grad=True, foo=1))
print(Variable(torch.ones(2)).grad_fn, Variable().shape)
'''

PROGRAMS['function_instance_calls'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
f = F()
x = torch.tensor([1.], requires_grad=True)
E(lambda: f(x))
E(lambda: f.apply(x))
E(lambda: F.apply)
'''

PROGRAMS['grad_accumulation_identity_and_layout'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sum()
y.backward()
g = x.grad
y2 = (x * 2).sum()
y2.backward()
print(g is x.grad, g, x.grad)
x.grad.zero_()
(x * 3).sum().backward()
print(x.grad)
x.grad = None
(x.expand(2, 2)).sum().backward()
print(x.grad, x.grad.stride())
'''

PROGRAMS['data_assignment_and_requires_grad_setter'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.data = torch.tensor([5., 6., 7.])
print(x, x.shape)
y = (x * x).sum()
y.backward()
print(x.grad)
E(lambda: setattr(x, 'data', 5))
x.requires_grad = False
print(x.requires_grad)
E(lambda: setattr((torch.ones(1, requires_grad=True) * 2), 'requires_grad', False))
E(lambda: torch.ones(1, dtype=torch.int64).requires_grad_())
'''

PROGRAMS['gradcheck_options_forward_batched_undefined'] = PRE + FWD + r'''
from torch.autograd import gradcheck
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda t: t.sin(), (x,), check_forward_ad=True))
print(gradcheck(lambda t: t.sin(), (x,), check_backward_ad=False, check_forward_ad=True))
print(gradcheck(lambda t: t.sin(), (x,), check_batched_grad=True))
print(gradcheck(lambda t: t.sin(), (x,), check_undefined_grad=True, fast_mode=True))
print(gradcheck(lambda t: (t.sin(), t.cos()), x))
print(gradcheck(lambda t, k: t * k, (x, 3)))
E(lambda: gradcheck(lambda t: t.sin(), (x,), check_backward_ad=False, check_forward_ad=False))
E(lambda: gradcheck(lambda t: t.sin(), (x,), check_batched_forward_grad=True))
'''

PROGRAMS['gradcheck_failures_of_custom_functions'] = PRE + FWD + r'''
from torch.autograd import gradcheck
class NoFwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(NoFwd.apply, (x,), check_forward_ad=True))
class NotUndef(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones_like(g) * 2
E(lambda: gradcheck(NotUndef.apply, (x,), check_undefined_grad=True))
class NonDet(torch.autograd.Function):
    n = 0
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        NonDet.n += 1
        return g * 2 + NonDet.n * 1e-3
E(lambda: gradcheck(NonDet.apply, (x,)))
'''

PROGRAMS['inplace_function_subclass'] = PRE + r'''
class MyInplace(torch.autograd.function.InplaceFunction):
    @staticmethod
    def forward(ctx, x, inplace=False):
        print('inplace arg', inplace)
        return x.mul_(2) if inplace else x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
x = torch.tensor([1., 2.], requires_grad=True)
print(MyInplace.apply(x))
print(issubclass(torch.autograd.function.InplaceFunction, torch.autograd.Function))
'''

PROGRAMS['function_vjp_alias_and_both_defined'] = PRE + r'''
class V(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def vjp(ctx, g):
        print('vjp used')
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
V.apply(x).sum().backward()
print(x.grad)
class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def vjp(ctx, g):
        return g * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: Both.apply(x).sum().backward())
'''

PROGRAMS['accumulate_grad_node_hooks_replacing_grads'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: (go[0] * 100,))
(x * 1).sum().backward()
print(x.grad)
x.grad = None
acc2 = (x * 1).grad_fn.next_functions[0][0]
print(acc2 is acc)
h = acc.register_hook(lambda gi, go: (torch.ones(2),))
E(lambda: (x * 1).sum().backward())
print(x.grad)
'''

PROGRAMS['node_hooks_returning_bad_shapes_and_types'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.grad_fn.register_prehook(lambda go: (torch.ones(3),))
E(lambda: y.sum().backward())
y2 = x.exp()
y2.grad_fn.register_prehook(lambda go: (None,))
E(lambda: y2.sum().backward())
print(x.grad)
y3 = x.exp()
y3.grad_fn.register_hook(lambda gi, go: (None,))
E(lambda: y3.sum().backward())
print(x.grad)
y4 = x.exp()
y4.grad_fn.register_hook(lambda gi, go: (torch.ones(2, dtype=torch.float64),))
E(lambda: y4.sum().backward())
print(x.grad)
y5 = x.exp()
y5.grad_fn.register_prehook(lambda go: (go[0].double(),))
E(lambda: y5.sum().backward())
print(x.grad)
'''

PROGRAMS['tensor_hooks_chain_and_bad_returns'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.register_hook(lambda g: None)
y.register_hook(lambda g: g * 2)
y.register_hook(lambda g: print('third', g))
y.sum().backward()
print(x.grad)
z = x * 2
z.register_hook(lambda g: torch.ones(2, dtype=torch.int64))
E(lambda: z.sum().backward())
print(x.grad)
w = x * 2
w.register_hook(lambda g: torch.ones(1))
E(lambda: w.sum().backward())
print(x.grad)
'''

PROGRAMS['leaf_tensor_hooks_with_grad_and_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: g * 0 + 7)
x.register_hook(lambda g: print('leaf hook 2', g))
(x * x).sum().backward()
print(x.grad)
x.grad = None
print(torch.autograd.grad((x * x).sum(), x))
print(x.grad)
'''

PROGRAMS['fn_backward_return_counts_and_types'] = PRE + r'''
class Extra(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: Extra.apply(x).sum().backward())
print(x.grad)
class Fewer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Fewer.apply(x, x).sum().backward())
class TupleOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return (g,)
TupleOne.apply(x).sum().backward()
print(x.grad)
class ListRet(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return [g]
E(lambda: ListRet.apply(x).sum().backward())
print(x.grad)
class GradForNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g, g
E(lambda: GradForNonTensor.apply(x, 2).sum().backward())
class GradForNoGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y
    @staticmethod
    def backward(ctx, g):
        return g, g
GradForNoGrad.apply(x, torch.ones(2)).sum().backward()
print(x.grad)
class StrGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 'g'
E(lambda: StrGrad.apply(x).sum().backward())
'''

PROGRAMS['fn_forward_returning_containers'] = PRE + r'''
class OutList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
r = OutList.apply(x)
print(type(r).__name__, r)
class OutDict(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return {'a': x * 2}
    @staticmethod
    def backward(ctx, g):
        return g
r = OutDict.apply(x)
print(type(r).__name__, r)
class OutNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
print(OutNone.apply(x))
class OutNested(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x * 2, (x * 3,))
    @staticmethod
    def backward(ctx, a, b):
        return a
r = OutNested.apply(x)
print(r, r[1][0].requires_grad)
'''

# fixed: an unfinished profiler prints <unfinished torch.autograd.profile> (repr and str), a FunctionCtx under torch.
PROGRAMS['reprs_of_context_managers_and_ctx'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
from torch.autograd.graph import saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks, allow_mutation_on_saved_tensors
for obj in [torch.no_grad(), torch.enable_grad(), torch.set_grad_enabled(True), torch.inference_mode(), torch.autograd.detect_anomaly(check_nan=False),
            torch.autograd.set_detect_anomaly(False), saved_tensors_hooks(lambda t: t, lambda t: t), save_on_cpu(), disable_saved_tensors_hooks('m'),
            allow_mutation_on_saved_tensors(), fwAD.dual_level(), torch.autograd.set_multithreading_enabled(True), torch.autograd.profiler.profile(),
            torch.autograd.profiler.record_function('x'), torch.autograd.Function, torch.autograd.function.FunctionCtx(), torch.autograd.graph.Node]:
    print(repr(obj).split(' at 0x')[0], type(obj).__module__ == type(torch.no_grad()).__module__)
print(torch.no_grad, torch.enable_grad, torch.inference_mode, torch.set_grad_enabled)
print(torch.autograd.grad, torch.autograd.backward)
print(torch.autograd.graph.GradientEdge, torch.autograd.graph.get_gradient_edge.__name__)
'''

PROGRAMS['functional_strict_vectorize_and_input_errors'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
x = torch.tensor([1., 2.])
E(lambda: jacobian(lambda a: a * 2, x, strict=True, vectorize=True))
E(lambda: jacobian(lambda a: a * 2, x, strict=True, strategy='forward-mode', vectorize=True))
E(lambda: jacobian(lambda a: a * 2, x, create_graph=True, strategy='forward-mode', vectorize=True))
E(lambda: jacobian(lambda a: a.detach(), x, strict=True))
print(jacobian(lambda a: a.detach(), x))
E(lambda: jacobian(lambda a: 5, x))
E(lambda: jacobian(lambda a: a, 5))
E(lambda: jacobian(lambda a: a, [x, x]))
E(lambda: jacobian(lambda a, b: a + b, [x, x]))
print(jacobian(lambda a, b: a + b, (x, x)))
E(lambda: hessian(lambda a: a.sum(), x, strict=True))
print(hessian(lambda a: a.sum(), x))
E(lambda: hessian(lambda a: a.sum(), x, outer_jacobian_strategy='forward-mode'))
print(hessian(lambda a: (a ** 3).sum(), x, vectorize=True, outer_jacobian_strategy='forward-mode'))
'''

PROGRAMS['functional_vjp_jvp_hvp_vhp_strict_and_tuples'] = PRE + FWD + r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
x = torch.tensor([1., 2.])
E(lambda: vjp(lambda a: a.detach() * 2, x, torch.ones(2), strict=True))
print(vjp(lambda a: a.detach() * 2, x, torch.ones(2)))
E(lambda: jvp(lambda a: a.detach() * 2, x, torch.ones(2), strict=True))
print(jvp(lambda a: (a * 2, a.sum()), x, torch.ones(2)))
E(lambda: hvp(lambda a: (a ** 2).sum(), x, torch.ones(3)))
E(lambda: vhp(lambda a: a.sum(), x, torch.ones(2), strict=True))
print(vhp(lambda a: a.sum(), x, torch.ones(2)))
print(hvp(lambda a, b: (a * b).sum(), (x, x), (torch.ones(2), torch.zeros(2))))
E(lambda: vjp(lambda a: (a, a), x, torch.ones(2)))
print(vjp(lambda a: (a, a * 2), x, (torch.ones(2), torch.ones(2))))
'''

PROGRAMS['views_made_under_no_grad_then_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, y.is_leaf)
with torch.no_grad():
    v = x[:2]
print(v.requires_grad, v.grad_fn, v._base is x, v.is_leaf)
E(lambda: v.mul_(2))
with torch.no_grad():
    v2 = x.view(3)
E(lambda: v2.add_(1))
with torch.no_grad():
    v2.add_(1)
print(x)
w = x * 1
with torch.no_grad():
    wv = w[:1]
E(lambda: wv.mul_(2))
print(wv.requires_grad, wv.grad_fn)
'''

PROGRAMS['views_made_under_inference_mode_then_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.inference_mode():
    v = x[:2]
print(v.requires_grad, v.is_inference(), v._base is x, v.grad_fn)
E(lambda: v.mul_(2))
with torch.inference_mode():
    E(lambda: v.mul_(2))
print(x)
with torch.inference_mode():
    a = torch.ones(3)
b = a.view(3)
print(b.is_inference(), b.requires_grad)
E(lambda: b.add_(1))
with torch.inference_mode():
    b.add_(1)
print(a)
'''

PROGRAMS['multi_output_views_inplace_errors'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
u = y.unbind()
E(lambda: u[0].mul_(2))
s = y.split(1)
E(lambda: s[0].mul_(2))
c = y.chunk(3)
E(lambda: c[1].add_(1))
E(lambda: y.unsqueeze(0).squeeze_(0))
d = y.detach()
d.mul_(2)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['checkpoint_kwargs_rng_and_sequential'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
x = torch.tensor([1., 2.], requires_grad=True)
W(lambda: E(lambda: checkpoint(lambda t: t.sin(), x)))
def f(t, scale=1.0):
    return t.exp() * scale
y = checkpoint(f, x, use_reentrant=False, scale=2.0)
y.sum().backward()
print(x.grad)
E(lambda: checkpoint(f, x, use_reentrant=True, scale=2.0))
torch.manual_seed(0)
def drop(t):
    return torch.nn.functional.dropout(t, 0.5)
a = checkpoint(drop, torch.ones(6, requires_grad=True), use_reentrant=False)
a.sum().backward()
print(a)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
torch.manual_seed(0)
for p in model.parameters():
    torch.nn.init.constant_(p, 0.5)
out = checkpoint_sequential(model, 2, x[None], use_reentrant=False)
out.sum().backward()
print(out, model[0].weight.grad)
'''

PROGRAMS['checkpoint_retain_graph_and_double_backward'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    return t.sin()
y = checkpoint(f, x, use_reentrant=False)
y.sum().backward(retain_graph=True)
E(lambda: y.sum().backward())
print(x.grad)
z = checkpoint(f, x, use_reentrant=True)
z.sum().backward(retain_graph=True)
E(lambda: z.sum().backward())
print(x.grad)
g = checkpoint(lambda t: t.pow(3), x, use_reentrant=False)
gx, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(gx, torch.autograd.grad(gx.sum(), x))
g2 = checkpoint(lambda t: t.pow(3), x, use_reentrant=True)
E(lambda: torch.autograd.grad(g2.sum(), x))
'''

PROGRAMS['grad_inputs_outputs_forms_and_nonleaf_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
z = y.sum()
print(torch.autograd.grad(z, y, retain_graph=True))
E(lambda: torch.autograd.grad(z, [y, y.detach()], retain_graph=True))
print(torch.autograd.grad(z, [y, x], retain_graph=True))
print(torch.autograd.grad(z, (x,), (torch.tensor(2.),), retain_graph=True))
print(torch.autograd.grad(outputs=[z], inputs=[x], grad_outputs=[None], retain_graph=True))
print(torch.autograd.grad(z, x, retain_graph=True, only_inputs=False) if False else '')
W(lambda: print(torch.autograd.grad(z, x, retain_graph=True, only_inputs=False)))
print(torch.autograd.grad(z, {'a': x, 'b': y}, retain_graph=True) if False else '')
'''

PROGRAMS['grad_inputs_as_dicts_and_iterators'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
z = (x * x).sum()
E(lambda: torch.autograd.grad(z, {'a': x}, retain_graph=True))
E(lambda: torch.autograd.backward(z, inputs={'a': x}, retain_graph=True))
print(x.grad)
from collections import OrderedDict
E(lambda: torch.autograd.grad(z, OrderedDict(a=x), retain_graph=True))
E(lambda: torch.autograd.grad(z, iter([x]), retain_graph=True))
E(lambda: torch.autograd.grad([z], x, grad_outputs=[torch.tensor(1.), torch.tensor(2.)], retain_graph=True))
E(lambda: torch.autograd.grad(z, x, grad_outputs=[torch.tensor([1.])], retain_graph=True))
'''

PROGRAMS['backward_positional_and_keyword_forms'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
z = (x * x).sum()
E(lambda: z.backward(torch.tensor(1.), True, False, [x]))
print(x.grad)
E(lambda: torch.autograd.backward(z, None, True, False, None, [x]))
print(x.grad)
E(lambda: torch.autograd.backward(tensors=z, grad_tensors=None, retain_graph=True, inputs=x))
print(x.grad)
E(lambda: torch.autograd.backward([z, None]))
E(lambda: torch.autograd.backward([z, 1.0]))
E(lambda: torch.autograd.backward('z'))
'''

PROGRAMS['inplace_on_saved_tensor_messages_sweep'] = PRE + r'''
def tryit(label, f):
    try:
        f()
        print(label, 'ok')
    except Exception as e:
        print(label, type(e).__name__, str(e).split(' Hint')[0])
x = torch.tensor([1., 2., 3.], requires_grad=True)
a = x * 1
b = a.exp(); a.add_(1); tryit('exp input', lambda: b.sum().backward())
a = x * 1
b = a.exp(); b.add_(1); tryit('exp output', lambda: b.sum().backward())
a = x * 1
v = a[:2]; b = v.sin(); a.mul_(2); tryit('view base modified', lambda: b.sum().backward())
a = x * 1
b = a.sigmoid(); v = b[1:]; v.mul_(2); tryit('output view modified', lambda: b.sum().backward())
a = x * 1
b = a.t() if a.dim() == 2 else a.unsqueeze(0); c = b.tanh(); b.mul_(3); tryit('unsqueeze then tanh', lambda: c.sum().backward())
a = x * 1
m = a.max(); a.zero_(); tryit('max', lambda: m.backward())
a = x * 1
n = a.norm(); a.add_(1); tryit('norm', lambda: n.backward())
a = x.detach().clone()
b = (a * x).sum(); a.add_(1); tryit('other input no grad', lambda: b.backward())
a = x * 1
s = a.softmax(0); s.add_(1); tryit('softmax out', lambda: s.sum().backward())
a = x * 1
p = a.pow(2); a.sub_(1); tryit('pow', lambda: p.sum().backward())
w = torch.ones(3, 3, requires_grad=True)
W2 = w * 1
o = torch.nn.functional.linear(x, W2); W2.add_(1); tryit('linear weight', lambda: o.sum().backward())
'''

PROGRAMS['saved_attr_access_after_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
a = x * 1
b = a.sin()
a.add_(1)
E(lambda: b.grad_fn._saved_self)
print(type(b.grad_fn._raw_saved_self).__name__)
c = a.exp()
c.mul_(2)
E(lambda: c.grad_fn._saved_result)
print(c.grad_fn)
d = x.exp()
print(d.grad_fn._saved_result._version, d._version)
d.add_(0)
E(lambda: d.grad_fn)
'''

PROGRAMS['saved_attr_versions_and_increment_version'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
a = x * 1
b = a * a
print(b.grad_fn._saved_self is b.grad_fn._saved_self, b.grad_fn._saved_self._version)
with torch.no_grad():
    a[0] = 5
print(a._version)
E(lambda: b.grad_fn._saved_self)
E(lambda: b.sum().backward())
from torch.autograd.graph import increment_version
e = x * 1
f = e.sin()
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    g = e.cos()
increment_version(e)
E(lambda: f.sum().backward())
E(lambda: g.sum().backward())
'''

PROGRAMS['func_transforms_over_setup_context_function'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
from torch.func import grad, jvp, vjp, jacrev, jacfwd
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        _, dx = output
        ctx.mark_non_differentiable(dx)
        ctx.save_for_backward(dx)
        ctx.save_for_forward(dx)
    @staticmethod
    def backward(ctx, g, gdx):
        dx, = ctx.saved_tensors
        return g * dx
    @staticmethod
    def jvp(ctx, t):
        dx, = ctx.saved_tensors
        return t * dx, None
x = torch.tensor([1., 2.])
print(grad(lambda t: Cube.apply(t)[0].sum())(x))
print(jvp(lambda t: Cube.apply(t)[0], (x,), (torch.ones(2),)))
E(lambda: jacrev(lambda t: Cube.apply(t)[0])(x))
E(lambda: jacfwd(lambda t: Cube.apply(t)[0])(x))
Cube.generate_vmap_rule = True
print(jacrev(lambda t: Cube.apply(t)[0])(x))
print(jacfwd(lambda t: Cube.apply(t)[0])(x))
out, fn = vjp(lambda t: Cube.apply(t)[0], x)
print(out, fn(torch.ones(2)))
'''

PROGRAMS['func_grad_over_function_saving_intermediate'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
from torch.func import grad
class SaveMid(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x.cos())
    @staticmethod
    def backward(ctx, g):
        c, = ctx.saved_tensors
        return g * c
x = torch.tensor([0., 1.])
E(lambda: print(grad(lambda t: SaveMid.apply(t).sum())(x)))
y = torch.tensor([0., 1.], requires_grad=True)
SaveMid.apply(y).sum().backward()
print(y.grad)
'''

PROGRAMS['fn_double_backward_through_saved_output'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        print('bw', r.requires_grad, r.grad_fn, g.requires_grad)
        return g * r
x = torch.tensor([0., 1.], requires_grad=True)
y = Exp.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
'''

PROGRAMS['fn_double_backward_through_saved_input'] = PRE + r'''
class ExpIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('bw', x.requires_grad, x is not None, torch.is_grad_enabled())
        return g * x.exp()
x = torch.tensor([0., 1.], requires_grad=True)
y = ExpIn.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
print(torch.autograd.grad(g.sum(), x))
y2 = ExpIn.apply(x * 1)
g2, = torch.autograd.grad(y2.sum(), x, create_graph=True)
print(g2.grad_fn, g2.grad_fn.next_functions)
'''

PROGRAMS['fn_double_backward_detached_inside'] = PRE + r'''
class Detaching(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x.detach() * g
x = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(Detaching.apply(x).sum(), x, create_graph=True)
print(g, g.requires_grad)
E(lambda: torch.autograd.grad(g.sum(), x))
print(torch.autograd.grad(g.sum(), x, allow_unused=True) if g.requires_grad else 'no grad')
'''

PROGRAMS['nn_linear_graph_nodes_and_post_accumulate'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 2)
x = torch.randn(4, 3)
out = m(x).sum()
print(out.grad_fn, out.grad_fn.next_functions)
addmm = out.grad_fn.next_functions[0][0]
print(addmm.name(), addmm._saved_mat1.shape if addmm._saved_mat1 is not None else None, addmm._saved_mat2_sym_sizes, addmm._saved_alpha, addmm._saved_beta)
print(addmm.next_functions)
acc_w = addmm.next_functions[2][0].next_functions[0][0]
print(acc_w.variable is m.weight, acc_w.name())
m.weight.register_post_accumulate_grad_hook(lambda p: print('post acc', p.shape, p.grad.shape))
out.backward()
'''

PROGRAMS['nn_params_multi_grad_hook_and_backward_inputs'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
x = torch.randn(2, 3, requires_grad=True)
from torch.autograd.graph import register_multi_grad_hook
register_multi_grad_hook(list(m.parameters()), lambda gs: print('params', [None if g is None else tuple(g.shape) for g in gs]))
y = m(x).sum()
print(torch.autograd.grad(y, x, retain_graph=True)[0].shape)
y.backward(inputs=list(m[2].parameters()))
print([p.grad is None for p in m.parameters()])
'''

PROGRAMS['nn_forward_under_saved_tensors_hooks'] = PRE + r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
x = torch.randn(3, 2)
with torch.autograd.graph.saved_tensors_hooks(lambda t: (print('pack', tuple(t.shape)), t)[1], lambda t: t):
    y = torch.relu(m(x)).sum()
y.backward()
print(m.weight.grad)
'''

# fixed: torch.autograd has no Node nor once_differentiable (they live in torch.autograd.graph and .function)
PROGRAMS['autograd_namespaces_public_names'] = PRE + r'''
names = ['Node', 'once_differentiable', 'is_tensor_like', 'Function', 'Variable', 'backward', 'grad', 'gradcheck', 'gradgradcheck',
         'detect_anomaly', 'set_detect_anomaly', 'no_grad', 'enable_grad', 'set_grad_enabled', 'inference_mode', 'set_multithreading_enabled',
         'is_multithreading_enabled', 'enforce_grad_layout_policy', 'NestedIOFunction', 'forward_ad', 'functional', 'graph', 'function',
         'grad_mode', 'anomaly_mode', 'profiler', 'variable', 'GradientEdge', 'saved_tensors_hooks', 'get_gradient_edge']
print([n for n in names if hasattr(torch.autograd, n)])
print([n for n in ['Node', 'GradientEdge', 'get_gradient_edge', 'increment_version', 'saved_tensors_hooks', 'save_on_cpu',
                   'disable_saved_tensors_hooks', 'register_multi_grad_hook', 'allow_mutation_on_saved_tensors'] if hasattr(torch.autograd.graph, n)])
print([n for n in ['Function', 'FunctionCtx', 'BackwardCFunction', 'InplaceFunction', 'NestedIOFunction', 'once_differentiable', 'FunctionMeta']
       if hasattr(torch.autograd.function, n)])
print(sorted(torch.autograd.__all__), sorted(torch.autograd.forward_ad.__all__))
'''

PROGRAMS['leaf_backward_and_grad_of_itself'] = PRE + r'''
x = torch.tensor(3., requires_grad=True)
x.backward()
print(x.grad)
x.backward(torch.tensor(5.))
print(x.grad)
print(torch.autograd.grad(x, x))
y = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.grad(y, y, torch.ones(2)))
E(lambda: torch.autograd.grad(y, y))
print(torch.autograd.grad(y, y, torch.ones(2), create_graph=True))
E(lambda: y.backward())
y.backward(torch.tensor([1., 10.]))
print(y.grad)
def quiet(f):  # (backward(create_graph=True) on a leaf warns once per process: tested by hunt14, in a fresh one)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()
quiet(lambda: y.backward(torch.tensor([1., 10.]), create_graph=True))
print(y.grad)
'''

PROGRAMS['grad_of_index_and_empty_tensors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
v = x[0]
print(torch.autograd.grad(v, x))
e = torch.tensor([], requires_grad=True)
print(e.sum(), torch.autograd.grad(e.sum(), e))
z = torch.zeros(0, 3, requires_grad=True)
out = z.mean()
print(out)
out.backward()
print(z.grad, z.grad.shape)
'''

PROGRAMS['expand_views_inplace_and_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.unsqueeze(0).expand(3, 2)
E(lambda: y.add_(1))
yc = y.clone()
yc.add_(1)
yc.sum().backward()
print(x.grad)
x.grad = None
w = x.expand(3, 2).sum(0)
w.backward(torch.ones(2))
print(x.grad)
E(lambda: x.expand(3, 2).contiguous().view(6)[0].backward())
print(x.grad)
'''

PROGRAMS['fn_mark_dirty_with_saved_input_and_output'] = PRE + r'''
class DirtySave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = DirtySave.apply(b)
print(c, c._version)
E(lambda: c.sum().backward())
print(a.grad)
class SaveOutDirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('saved out', x)
        return g * 2
b2 = a.clone()
c2 = SaveOutDirty.apply(b2)
c2.sum().backward()
print(a.grad)
'''

PROGRAMS['fn_passthrough_input_and_second_output'] = PRE + r'''
class Passthrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(y)
        return x, y * 2
    @staticmethod
    def backward(ctx, gx, gy):
        y, = ctx.saved_tensors
        print('grads', gx, gy)
        return gx, gy * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
p, q = Passthrough.apply(a, b)
print(p is a, p._base is a, p.grad_fn.name(), q.grad_fn is p.grad_fn)
(p * q).sum().backward()
print(a.grad, b.grad)
with torch.no_grad():
    p2, q2 = Passthrough.apply(a, b)
print(p2 is a, p2.requires_grad, p2._base is a, q2.requires_grad)
'''

PROGRAMS['fn_mark_dirty_on_view_of_view'] = PRE + r'''
class MulInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.mark_dirty(x)
        return x.mul_(k)
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = a * 1
v = b.view(2, 2)
r = MulInplace.apply(v[0], 10.)
print(r, b, v, b.grad_fn, v.grad_fn, r.grad_fn)
b.sum().backward()
print(a.grad)
'''

PROGRAMS['fwd_dual_with_requires_grad_primal_and_tangent'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 0.]))
    y = (d ** 2).sum()
    p, t = fwAD.unpack_dual(y)
    print(p, t, p.grad_fn, t.grad_fn)
    p.backward()
    print(x.grad)
    t2 = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.], requires_grad=True))
    z = (t2 * 3).sin()
    zt = fwAD.unpack_dual(z).tangent
    print(zt, zt.grad_fn)
'''

# fixed: the tangent of det at a singular matrix is det · tr(LU⁻¹ dA) with a zero pivot nudged to eps (PyTorch's
# linalg_det_jvp): ±0, not NaN
PROGRAMS['fwd_tangents_of_common_ops_incl_singular_det'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    for f in [torch.sigmoid, torch.tanh, torch.relu, lambda t: t.softmax(0), lambda t: t.cumsum(0), lambda t: t.norm(), lambda t: t.max(),
              lambda t: t.sort().values, lambda t: t.prod(), lambda t: torch.nn.functional.gelu(t), lambda t: t.logsumexp(0),
              lambda t: t.clamp(1.5), lambda t: t.where(t > 1, 0.), lambda t: t.std(), lambda t: t @ t, lambda t: t.outer(t).det()]:
        r = f(d)
        print(fwAD.unpack_dual(r).tangent)
'''

# fixed: (as above)
PROGRAMS['fwd_det_tangent_of_singular_matrices'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
cases = [torch.tensor([[1., 2.], [2., 4.]]), torch.tensor([[1., 2.], [2., 4.]]).t(), torch.zeros(2, 2), torch.tensor([[0., 1.], [0., 1.]]),
         torch.tensor([[1., 2.], [2., 4.]], dtype=torch.float64), torch.tensor([[[1., 2.], [2., 4.]], [[1., 0.], [0., 2.]]]),
         torch.tensor([[1+1j, 2.], [2+2j, 4.]]), torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]), torch.ones(3, 3),
         torch.tensor([[2., 1.], [1., 3.]])]
for A in cases:
    with fwAD.dual_level():
        d = fwAD.make_dual(A, torch.ones_like(A) * 0.5 + torch.eye(A.shape[-1], dtype=A.dtype))
        r = torch.linalg.det(d)
        print(fwAD.unpack_dual(r).tangent, fwAD.unpack_dual(d.det()).tangent)
from torch.func import jvp
print(jvp(torch.linalg.det, (torch.tensor([[1., 2.], [2., 4.]]),), (torch.eye(2),)))
'''

# fixed: slogdet's tangent at a singular matrix is PyTorch's unchecked LU solve (inf/NaN), not a LinAlgError
PROGRAMS['fwd_tangents_at_kinks_and_singular_points'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
z = torch.tensor([0., 1., -1., 2.])
ops = {
 'abs': torch.abs, 'sqrt': torch.sqrt, 'norm': lambda t: t.norm(), 'norm1': lambda t: t.norm(p=1), 'norminf': lambda t: t.norm(p=float('inf')),
 'vnorm0': lambda t: torch.linalg.vector_norm(t, 0), 'amax': lambda t: t.amax(), 'max': lambda t: t.max(), 'median': lambda t: t.median(),
 'relu': torch.relu, 'sign': torch.sign, 'pow0': lambda t: t.pow(0.5), 'pow_t': lambda t: t.pow(t), 'xlogy': lambda t: torch.xlogy(t, t),
 'prod': lambda t: t.prod(), 'cumprod': lambda t: t.cumprod(0), 'atan2': lambda t: torch.atan2(t, t), 'hypot': lambda t: torch.hypot(t, t),
 'dist': lambda t: torch.dist(t, t), 'cdist': lambda t: torch.cdist(t[None], t[None]), 'std': lambda t: (t * 0).std(), 'logsumexp': lambda t: (t * float('-inf')).logsumexp(0),
 'clamp': lambda t: t.clamp(0, 1), 'maximum': lambda t: torch.maximum(t, t.flip(0)), 'sort': lambda t: t.sort().values, 'topk': lambda t: t.topk(2).values,
 'kthvalue': lambda t: t.kthvalue(2).values, 'renorm': lambda t: t.reshape(2, 2).renorm(2, 0, 0.5), 'normalize': lambda t: torch.nn.functional.normalize(t * 0, dim=0),
 'cos_sim': lambda t: torch.nn.functional.cosine_similarity(t, t * 0, dim=0), 'pdist': lambda t: torch.nn.functional.pdist(t.reshape(2, 2) * 0),
 'svdvals': lambda t: torch.linalg.svdvals(t.reshape(2, 2)), 'eigvalsh': lambda t: torch.linalg.eigvalsh(t.reshape(2, 2) + t.reshape(2, 2).mT),
 'matrix_norm': lambda t: torch.linalg.matrix_norm(t.reshape(2, 2), 'nuc'), 'slogdet': lambda t: torch.linalg.slogdet(t.reshape(2, 2) * 0)[1],
 'inv': lambda t: torch.linalg.inv(t.reshape(2, 2) + 3 * torch.eye(2)), 'pinv': lambda t: torch.linalg.pinv(t.reshape(2, 2)),
 'matrix_rank_ish': lambda t: torch.linalg.matrix_power(t.reshape(2, 2), 0), 'logdet': lambda t: torch.logdet(t.reshape(2, 2)),
 'det_zero': lambda t: torch.linalg.det(torch.zeros(3, 3) + t[0]), 'det_1x1': lambda t: torch.linalg.det(t[:1, None]),
}
for k, f in ops.items():
    with fwAD.dual_level():
        d = fwAD.make_dual(z.clone(), torch.tensor([1., 2., 3., 4.]))
        try:
            r = f(d)
            print(k, fwAD.unpack_dual(r).tangent)
        except Exception as e:
            print(k, type(e).__name__, str(e)[:100])
'''

# fixed: (as above)
PROGRAMS['fwd_slogdet_tangent_of_singular_matrices'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
cases = [torch.zeros(2, 2), torch.tensor([[1., 2.], [2., 4.]]), torch.tensor([[1., 2.], [2., 4.]]).t(), torch.tensor([[0., 1.], [0., 1.]], dtype=torch.float64),
         torch.tensor([[[1., 2.], [2., 4.]], [[1., 0.], [0., 2.]]]), torch.tensor([[1+1j, 2.], [2+2j, 4.]]), torch.zeros(2, 2, dtype=torch.complex64),
         torch.tensor([[2., 1.], [1., 3.]])]
for A in cases:
    with fwAD.dual_level():
        d = fwAD.make_dual(A, torch.ones_like(A) * 0.5 + torch.eye(A.shape[-1], dtype=A.dtype))
        s, l = torch.linalg.slogdet(d)
        print(fwAD.unpack_dual(s).tangent, fwAD.unpack_dual(l).tangent, fwAD.unpack_dual(torch.logdet(d)).tangent)
'''

PROGRAMS['fwd_linalg_tangents_at_identity'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
E2 = torch.eye(2)
T = torch.tensor([[1., 2.], [3., 4.]])
ops = {
 'eigh_rep_vals': lambda d: torch.linalg.eigh(d)[0], 'eigh_rep_vecs': lambda d: torch.linalg.eigh(d)[1],
 'svd_rep_S': lambda d: torch.linalg.svd(d)[1], 'svd_rep_U': lambda d: torch.linalg.svd(d)[0],
 'svdvals_zero': lambda d: torch.linalg.svdvals(d * 0), 'qr': lambda d: torch.linalg.qr(d)[1], 'cholesky': lambda d: torch.linalg.cholesky(d),
 'matrix_exp': lambda d: torch.linalg.matrix_exp(d), 'inv': lambda d: torch.linalg.inv(d), 'solve': lambda d: torch.linalg.solve(d, torch.ones(2)),
 'pinv_zero': lambda d: torch.linalg.pinv(d * 0), 'norm2_zero': lambda d: torch.linalg.matrix_norm(d * 0, 2), 'nuc_zero': lambda d: torch.linalg.matrix_norm(d * 0, 'nuc'),
 'eigvals': lambda d: torch.linalg.eigvals(d), 'lu': lambda d: torch.linalg.lu(d)[2], 'lstsq': lambda d: torch.linalg.lstsq(d, torch.ones(2, 1)).solution,
}
for k, f in ops.items():
    with fwAD.dual_level():
        d = fwAD.make_dual(E2.clone(), T)
        try:
            r = f(d)
            print(k, fwAD.unpack_dual(r).tangent)
        except Exception as e:
            print(k, type(e).__name__, str(e)[:100])
'''

PROGRAMS['backward_of_linalg_at_singular_matrices'] = PRE + r'''
x = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
for f in [torch.linalg.det, lambda a: torch.linalg.slogdet(a)[1], torch.logdet, lambda a: torch.linalg.svdvals(a).sum(), lambda a: torch.linalg.matrix_norm(a, 'nuc'),
          lambda a: torch.linalg.pinv(a).sum(), lambda a: torch.linalg.eigvalsh(a).sum(), lambda a: torch.linalg.matrix_norm(a, 2)]:
    x.grad = None
    try:
        f(x).backward()
        print(x.grad)
    except Exception as e:
        print(type(e).__name__, str(e)[:100])
z = torch.zeros(2, 2, requires_grad=True)
torch.linalg.det(z).backward()
print(z.grad)
z.grad = None
g, = torch.autograd.grad(torch.linalg.det(z), z, create_graph=True)
print(g, g.grad_fn)
print(torch.autograd.grad(g.sum(), z))
'''

PROGRAMS['fwd_tangents_at_ties_and_edges'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
t = torch.tensor([2., 1., 2., 0.])
ops = {'amax': lambda d: d.amax(), 'max': lambda d: d.max(), 'max_dim': lambda d: d.max(0).values, 'amin': lambda d: d.amin(),
       'median': lambda d: d.median(), 'nanmedian': lambda d: d.nanmedian(), 'mode': lambda d: d.mode().values, 'sort': lambda d: d.sort(stable=True).values,
       'argsort_gather': lambda d: d.gather(0, d.argsort()), 'topk': lambda d: d.topk(2).values, 'cummax': lambda d: d.cummax(0).values,
       'maximum': lambda d: torch.maximum(d, d.flip(0)), 'fmax': lambda d: torch.fmax(d, torch.full((4,), 2.)), 'clamp_edge': lambda d: d.clamp(1, 2),
       'hardtanh': lambda d: torch.nn.functional.hardtanh(d, 0, 2), 'relu6': lambda d: torch.nn.functional.relu6(d * 3), 'abs0': lambda d: (d - 2).abs(),
       'max_pool': lambda d: torch.nn.functional.max_pool1d(d[None, None], 2, 1), 'adaptive_max': lambda d: torch.nn.functional.adaptive_max_pool1d(d[None, None], 1),
       'logsumexp_inf': lambda d: (d * float('inf')).logsumexp(0), 'norm_inf': lambda d: d.norm(float('inf')), 'norm_ninf': lambda d: d.norm(float('-inf')),
       'vnorm_inf_ties': lambda d: torch.linalg.vector_norm(d, float('inf')), 'kthvalue': lambda d: d.kthvalue(3).values}
for k, f in ops.items():
    with fwAD.dual_level():
        d = fwAD.make_dual(t.clone(), torch.tensor([1., 10., 100., 1000.]))
        try:
            print(k, fwAD.unpack_dual(f(d)).tangent)
        except Exception as e:
            print(k, type(e).__name__, str(e)[:100])
'''

PROGRAMS['fwd_tangents_at_zeros_and_domain_edges'] = PRE + FWD + r'''
import torch.autograd.forward_ad as fwAD
t = torch.tensor([0., 1., -1., 0.5])
ops = {'pow_t_t': lambda d: d ** d, 'pow_2_t': lambda d: 2 ** d, 'pow_0_t': lambda d: torch.zeros(4) ** d, 'pow_t_0': lambda d: d ** 0,
       'pow_t_half': lambda d: d ** 0.5, 'sqrt': torch.sqrt, 'rsqrt': torch.rsqrt, 'log': torch.log, 'atan2_00': lambda d: torch.atan2(d * 0, d * 0),
       'div0': lambda d: d / (d * 0), 'xlogy00': lambda d: torch.xlogy(d * 0, d * 0), 'xlog1py': lambda d: torch.special.xlog1py(d, d),
       'sinc': torch.sinc, 'sgn_c': lambda d: torch.complex(d, d * 0).sgn(), 'angle': torch.angle, 'abs_c': lambda d: torch.complex(d, d * 0).abs(),
       'reciprocal': torch.reciprocal, 'erfinv': lambda d: torch.erfinv(d), 'logit': torch.logit, 'log1p': lambda d: torch.log1p(-d.abs()),
       'acos': torch.acos, 'asin': torch.asin, 'atanh': torch.atanh, 'lgamma': torch.lgamma, 'digamma': torch.digamma, 'i0e': torch.special.i0e,
       'entr': torch.special.entr, 'frac': torch.frac, 'fmod': lambda d: torch.fmod(d, d), 'remainder': lambda d: torch.remainder(d, 0.5),
       'copysign': lambda d: torch.copysign(d, -d), 'nextafter_like': lambda d: torch.hypot(d, d * 0), 'logaddexp': lambda d: torch.logaddexp(d * float('-inf'), d * float('-inf')),
       'softplus_big': lambda d: torch.nn.functional.softplus(d * 100), 'elu': lambda d: torch.nn.functional.elu(d), 'celu0': lambda d: torch.nn.functional.celu(d, 1.),
       'lerp_w': lambda d: torch.lerp(torch.zeros(4), torch.ones(4), d), 'addcdiv0': lambda d: torch.addcdiv(d, d, d * 0), 'polygamma1': lambda d: torch.polygamma(1, d)}
for k, f in ops.items():
    with fwAD.dual_level():
        d = fwAD.make_dual(t.clone(), torch.tensor([1., 2., 3., 4.]))
        try:
            print(k, fwAD.unpack_dual(f(d)).tangent)
        except Exception as e:
            print(k, type(e).__name__, str(e)[:100])
'''


@pytest.fixture(autouse=True, scope="module")
def _forward_ad_warmed_up():
    """PyTorch's first forward-AD op imports modules that warn (``torch.jit.script`` is deprecated) once per process:
    done here, silently, so that no program's output depends on whether it is the first to use forward AD."""
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as fwAD
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fwAD.dual_level():
            fwAD.make_dual(torch.ones(1), torch.ones(1)).sin()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():  # (restores the filters and showwarning the program's prelude replaces)
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)

