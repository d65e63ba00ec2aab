"""Parity programs from a seventeenth hunt: PyTorch's own autograd tests turned into student programs.

PyTorch's test/test_autograd.py (and test/autograd/test_inference_mode.py, test_functional.py, test_complex.py)
checks what its developers care about: tensor and Node hooks and their removal, hooks on in-place changed tensors,
retain_grad, ``grad``/``backward`` arguments and their errors, custom Functions returning inputs, views, None and
non-tensors (mark_non_differentiable, set_materialize_grads, mark_dirty, needs_input_grad), saved tensors and their
hooks, version counters, anomaly mode, grad-mode decorators, inference tensors, ``Variable``, reentrant backward and
``queue_callback``, the functional API's errors. Each test becomes a program that prints what the assertions check
(values, grad_fn names, exception types and messages, warnings) and must print exactly what PyTorch prints (hunt14's
harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout). Programs
marked "fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

PROGRAMS['ta_grad_mode_decorators_generators'] = PRE + r'''
@torch.no_grad()
def gen():
    for i in range(3):
        yield torch.is_grad_enabled()
print(list(gen()), torch.is_grad_enabled())
@torch.no_grad
def f(x):
    return x * 2
x = torch.ones(2, requires_grad=True)
print(f(x).requires_grad)
@torch.enable_grad()
def g(x):
    return x * 2
with torch.no_grad():
    print(g(x).requires_grad, torch.is_grad_enabled())
@torch.enable_grad
def g2(x):
    return x * 3
with torch.no_grad():
    print(g2(x).requires_grad)
@torch.set_grad_enabled(False)
def h(x):
    return x * 2
print(h(x).requires_grad, torch.is_grad_enabled())
@torch.inference_mode()
def im(x):
    return x * 2
print(im(x).requires_grad, im(x).is_inference())
@torch.inference_mode
def im2(x):
    return x * 2
print(im2(x).is_inference())
@torch.inference_mode(mode=False)
def im3(x):
    return x * 2
print(im3(x).is_inference(), im3(x).requires_grad)
def coroutine():
    while True:
        v = yield torch.is_grad_enabled()
        if v is None:
            break
co = torch.no_grad()(coroutine)()
print(next(co), co.send(1), co.send(2))
try:
    co.send(None)
except StopIteration:
    print('stop', torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('a'))
print(type(torch.no_grad()).__name__, type(torch.set_grad_enabled(True)).__name__)
print(torch.no_grad().clone().__class__.__name__, torch.set_grad_enabled(False).clone().mode)
torch.set_grad_enabled(True)
'''
PROGRAMS['ta_grad_mode_on_class_and_methods'] = PRE + r'''
class Foo:
    @torch.no_grad()
    def m(self, x):
        return x * 2
    @staticmethod
    @torch.no_grad()
    def s(x):
        return x * 2
x = torch.ones(2, requires_grad=True)
print(Foo().m(x).requires_grad, Foo.s(x).requires_grad)
E(lambda: torch.no_grad(lambda: 1))
try:
    @torch.no_grad()
    class C:
        pass
    print('class ok', C)
except Exception as e:
    print(type(e).__name__, e)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
    z = x * 2
print(y.requires_grad, z.requires_grad)
with torch.no_grad(), torch.enable_grad():
    print(torch.is_grad_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(torch.is_inference_mode_enabled())
def raises():
    with torch.no_grad():
        raise ValueError('boom')
E(raises)
print(torch.is_grad_enabled())
'''
PROGRAMS['ta_hooks_basic_and_removal'] = PRE + r'''
x = torch.ones(5, 5, requires_grad=True)
y = torch.ones(5, 5) * 4
y.requires_grad_(True)
counter = [0]
def bw_hook(inc, grad):
    print('hook', inc, grad.sum().item())
    counter[0] += inc
z = x ** 2 + x * 2 + x * y + y
x.register_hook(lambda *args: bw_hook(0, *args))
test = z.register_hook(lambda *args: bw_hook(1, *args))
z.backward(torch.ones(5, 5), retain_graph=True)
print(counter)
test2 = z.register_hook(lambda *args: bw_hook(2, *args))
z.backward(torch.ones(5, 5), retain_graph=True)
print(counter)
test2.remove()
z.backward(torch.ones(5, 5), retain_graph=True)
print(counter)
def bw_hook_modify(grad):
    return grad.mul(2)
test.remove()
z.register_hook(bw_hook_modify)
with torch.no_grad():
    y.grad.zero_()
z.backward(torch.ones(5, 5), retain_graph=True)
print(y.grad[0])
E(lambda: torch.ones(2).register_hook(lambda g: g))
E(lambda: torch.ones(2).register_post_accumulate_grad_hook(lambda g: g))
E(lambda: (x * 2).register_post_accumulate_grad_hook(lambda g: g))
print(type(test).__name__, test.id >= 0)
test.remove(); test.remove()
a = torch.tensor([1., 2.], requires_grad=True)
a.register_hook(lambda g: 'str')
E(lambda: (a * 2).sum().backward())
b = torch.tensor([1., 2.], requires_grad=True)
b.register_hook(lambda g: torch.ones(3))
E(lambda: (b * 2).sum().backward())
c = torch.tensor([1., 2.], requires_grad=True)
c.register_hook(lambda g: g.double())
E(lambda: (c * 2).sum().backward())
print(c.grad)
'''
PROGRAMS['ta_hook_partial_and_callable_object'] = PRE + r'''
import functools
x = torch.randn(3, requires_grad=True)
def fn(grad, msg):
    print(msg, grad)
x.register_hook(functools.partial(fn, msg='partial'))
class MyHook:
    def __call__(self, grad):
        print('callable', grad)
        return grad * 3
x.register_hook(MyHook())
(x * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 10)
y.sum().backward()
print(y.grad, x.grad)
z = x * 2
z.register_hook(lambda g: g * 10)
z.retain_grad()
z.sum().backward()
print(z.grad)
'''
PROGRAMS['ta_tensor_hooks_inplace'] = PRE + r'''
a = torch.tensor(1., requires_grad=True)
b = a.clone()
def hook1(grad):
    print('hook1', grad)
    return grad * 2
b.register_hook(hook1)
b.mul_(3)
def hook2(grad):
    print('hook2', grad)
    return grad * 5
b.register_hook(hook2)
b.backward()
print(a.grad)
a = torch.tensor(1., requires_grad=True)
b = a.clone()
b.retain_grad()
b.mul_(3)
b.backward()
print(b.grad, a.grad, b.grad_fn)
a = torch.ones(3, requires_grad=True)
b = a.clone()
v = b[:2]
v.register_hook(lambda g: print('view hook', g))
v.mul_(2)
b.sum().backward()
print(a.grad)
a = torch.tensor(1., requires_grad=True)
b = a.clone()
b.register_hook(lambda g: print('hook on b', g))
c = b.view_as(b)
c.mul_(2)
b.backward()
'''
# fixed: .grad of a view written in place (its grad_fn made when next read) warns as a non-leaf's
PROGRAMS['ta_retain_grad_inplace_variants'] = PRE + r'''
a = torch.tensor([1.], requires_grad=True).clone()
a.retain_grad()
a.mul_(2)
a.sum().backward()
print(a.grad)
a = torch.tensor([1.], requires_grad=True).clone()
a.retain_grad()
a.mul_(2)
a.mul_(2)
a.sum().backward()
print(a.grad)
x = torch.tensor([1.], requires_grad=True).clone()
x.retain_grad()
x_view = x[:]
x_view *= 2
x *= 2
x.sum().backward()
print(x.grad)
print(x_view.grad)
a = torch.tensor(1., requires_grad=True).clone()
a.register_hook(lambda g: g * 2)
a.retain_grad()
a.register_hook(lambda g: g * 3)
a.backward()
print(a.grad)
x = torch.tensor(1., requires_grad=True)
x.retain_grad()
print(x.retains_grad, x.is_leaf)
y = x * 2
print(y.retains_grad)
y.retain_grad(); y.retain_grad()
print(y.retains_grad)
y.backward()
print(y.grad, x.grad)
'''
PROGRAMS['ta_grad_unreachable_allow_unused'] = PRE + r'''
x = torch.ones(1, requires_grad=True)
y = torch.ones(1, requires_grad=True)
z = x * 2
w = y * 2
grad_x, grad_y = torch.autograd.grad(x * 2, [x, y], allow_unused=True)
print(grad_x, grad_y)
grad_x, grad_y = torch.autograd.grad(x * 2, [x, y], allow_unused=True, materialize_grads=True)
print(grad_x, grad_y)
E(lambda: torch.autograd.grad(x * 2, [x, y]))
E(lambda: torch.autograd.grad(x * 2, [x, y], allow_unused=False, materialize_grads=True))
print(torch.autograd.grad(x * 2, [x, y], materialize_grads=True))
x = torch.tensor(0.5, requires_grad=True)
y = torch.tensor(0.5, requires_grad=True)
z = x * 2
E(lambda: torch.autograd.grad([z], [y]))
print(torch.autograd.grad([z], [y], allow_unused=True))
E(lambda: torch.autograd.grad(z, x.detach()))
E(lambda: torch.autograd.grad(z, torch.ones(1)))
E(lambda: torch.autograd.grad(torch.ones(1), x))
E(lambda: torch.autograd.grad(z, [x, x]))
E(lambda: torch.autograd.grad(z, [x, x], retain_graph=True))
E(lambda: torch.autograd.grad(z, []))
E(lambda: torch.autograd.grad([], [x]))
'''
PROGRAMS['ta_backward_badcalls'] = PRE + r'''
x = torch.ones(1)
E(lambda: x.backward())
y = torch.ones(2, requires_grad=True)
E(lambda: (y * 2).backward())
E(lambda: (y * 2).backward(torch.ones(3)))
E(lambda: (y * 2).backward(torch.ones(2, dtype=torch.int64)))
E(lambda: (y * 2).backward(torch.ones(2, 1)))
E(lambda: (y * 2).sum().backward(torch.ones(2)))
E(lambda: (y * 2).sum().backward(1.0))
E(lambda: torch.autograd.backward([y * 2, y * 3], [torch.ones(2)]))
E(lambda: torch.autograd.backward(y * 2, torch.ones(2), inputs=[]))
E(lambda: torch.autograd.backward((y * 2).sum(), inputs=[torch.ones(2)]))
E(lambda: torch.autograd.grad((y * 2).sum(), y, grad_outputs=torch.ones(3)))
E(lambda: torch.autograd.grad(y * 2, y))
E(lambda: torch.autograd.grad((y * 2).sum(), y, grad_outputs=[torch.ones(()), torch.ones(())]))
print(torch.autograd.grad((y * 2).sum(), y, grad_outputs=torch.tensor(3.)))
print(torch.autograd.grad(y * 2, y, grad_outputs=torch.tensor([1., 2.])))
print(torch.autograd.grad([(y * 2).sum(), (y * 3).sum()], y, grad_outputs=[None, torch.tensor(2.)]))
'''
PROGRAMS['ta_grad_fn_badcalls'] = PRE + r'''
x = torch.randn(3, requires_grad=True)
y = x.sum()
E(lambda: y.grad_fn())
E(lambda: y.grad_fn(torch.ones(()), torch.ones(())))
print(y.grad_fn(torch.tensor(2.)))
z = x * torch.tensor([1., 2., 3.])
print(z.grad_fn(torch.ones(3)))
E(lambda: z.grad_fn(torch.ones(3), torch.ones(3)))
print(z.grad_fn(None))
w = x.exp()
print(w.grad_fn(torch.ones(3)).shape)
E(lambda: w.grad_fn(torch.ones(4)))
print(x.grad_fn, y.grad_fn.next_functions[0][0](torch.ones(3)))
print(x.grad)
'''
PROGRAMS['ta_invalid_gradient_from_custom_fn'] = PRE + r'''
class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(4)
x = torch.ones(2, 3, requires_grad=True)
E(lambda: BadShape.apply(x).sum().backward())
class BadType(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.long()
E(lambda: BadType.apply(x).sum().backward())
class BadObj(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 1.0
E(lambda: BadObj.apply(x).sum().backward())
class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
E(lambda: TooMany.apply(x).sum().backward())
class TooManyNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, None, None
TooManyNone.apply(x).sum().backward()
print(x.grad.sum())
class TooFew(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: TooFew.apply(x, x).sum().backward())
class Broadcastable(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
x.grad = None
E(lambda: Broadcastable.apply(x).sum().backward())
print(x.grad)
class Expandable(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(1, 1, 2, 3)
x.grad = None
Expandable.apply(x).backward()
print(x.grad.shape)
'''
PROGRAMS['ta_legacy_function_errors'] = PRE + r'''
class MyFunction(torch.autograd.Function):
    def forward(self, x):
        return x
    def backward(self, g):
        return g
x = torch.ones(2, requires_grad=True)
E(lambda: MyFunction()(x))
E(lambda: MyFunction.apply(x))
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
y = NoBackward.apply(x)
print(y.grad_fn)
E(lambda: y.sum().backward())
class NoForward(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoForward.apply(x))
class Both(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
E(lambda: Both.apply(x))
E(lambda: torch.autograd.Function.apply(x))
E(lambda: torch.autograd.Function())
print(isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction))
'''
PROGRAMS['ta_function_returns_input_and_undefined'] = PRE + r'''
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, grad):
        return grad * 2
for shape in [(1,), ()]:
    v = torch.ones(shape, requires_grad=True)
    out = MyFunction.apply(v)
    print(out is v, out.grad_fn, out._base is v, out.is_leaf)
    out.backward()
    print(v.grad)
    with torch.no_grad():
        v.grad.zero_()
    MyFunction.apply(v.clone()).backward()
    print(v.grad)
class Undef(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, output_grad):
        return None
x = torch.ones(1, requires_grad=True)
Undef.apply(x).backward()
print(x.grad)
(Undef.apply(x.pow(2)) * x).backward()
print(x.grad)
print(torch.autograd.grad(Undef.apply(x), x, allow_unused=True))
E(lambda: torch.autograd.grad(Undef.apply(x), x))
'''
# fixed: ctx._materialize_non_diff_grads = False leaves None for non-differentiable outputs
PROGRAMS['ta_materialize_grads_variants'] = PRE + r'''
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x, x * 2
    @staticmethod
    def backward(ctx, g1, g2):
        print('materialized', g1, g2)
        return g1 + g2
x = torch.tensor([0.5], requires_grad=True)
a, b = MyFunction.apply(x)
a.sum().backward()
print(x.grad)
class NoMat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('not materialized', g1, g2)
        return g1
x = torch.tensor([0.5], requires_grad=True)
a, b = NoMat.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = NoMat.apply(x)
E(lambda: b.sum().backward())
print(x.grad)
class NonDiffMat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out0 = x.clone()
        out1 = x.clone()
        ctx.mark_non_differentiable(out1)
        ctx._materialize_non_diff_grads = False
        return out0, out1
    @staticmethod
    def backward(ctx, g0, g1):
        print('nondiff', g0, g1)
        return g0
x = torch.tensor([1.5], requires_grad=True)
a, b = NonDiffMat.apply(x)
print(a.requires_grad, b.requires_grad, b.grad_fn)
a.sum().backward()
print(x.grad)
class NonDiffMat2(NonDiffMat):
    @staticmethod
    def forward(ctx, x):
        out0 = x.clone()
        out1 = x.clone()
        ctx.mark_non_differentiable(out1)
        return out0, out1
x.grad = None
a, b = NonDiffMat2.apply(x)
a.sum().backward()
print(x.grad)
'''
PROGRAMS['ta_mark_non_differentiable_mixed_none'] = PRE + r'''
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        a = input + 1
        b = input + 2
        ctx.mark_non_differentiable(a)
        return a, b
    @staticmethod
    def backward(ctx, grad_a, grad_b):
        print('grads', grad_a, grad_b)
        return grad_b
x = torch.randn(2, requires_grad=True).abs().detach().requires_grad_()
a, b = MyFunction.apply(x)
print(a.requires_grad, b.requires_grad, a.grad_fn, a.is_leaf)
b.sum().backward()
print(x.grad)
E(lambda: a.sum().backward())
class NoneBw(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        output = input.clone()
        ctx.mark_non_differentiable(output)
        return output
    @staticmethod
    def backward(ctx, grad_output):
        return None
x = torch.randn(5, 5, requires_grad=True)
r = NoneBw.apply(x * x)
print(r.requires_grad, r.grad_fn)
E(lambda: (r * x).sum().backward())
print(x.grad.shape)
class IntOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x.argmax()
    @staticmethod
    def backward(ctx, g, gi):
        print('int grad', gi)
        return g
x = torch.tensor([1., 3., 2.], requires_grad=True)
v, i = IntOut.apply(x)
print(v.grad_fn, i.requires_grad, i.grad_fn, i.dtype)
v.sum().backward()
print(x.grad)
'''
PROGRAMS['ta_return_duplicate_and_nontensor'] = PRE + r'''
class DoubleDuplicate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        output = x * 2
        return output, output
    @staticmethod
    def backward(ctx, grad1, grad2):
        return grad1 * 2 + grad2 * 2
def fn(x):
    a, b = DoubleDuplicate.apply(x)
    print(a is b, a.grad_fn is b.grad_fn, a.output_nr if hasattr(a, 'output_nr') else '', b.output_nr)
    return a + b
x = torch.randn(5, 5, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(fn, [x]))
class DI(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x, x
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2
a = torch.ones(2, requires_grad=True).clone()
u, v = DI.apply(a)
print(u is v, u is a, u.grad_fn, a.grad_fn)
class NT(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 4, 'str', None
    @staticmethod
    def backward(ctx, g, *rest):
        print('rest', rest)
        return g * 2
x = torch.ones(2, requires_grad=True)
out = NT.apply(x)
print(out[1:], out[0].grad_fn)
out[0].sum().backward()
print(x.grad)
class OnlyNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
print(OnlyNone.apply(x))
class RetList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, g):
        return g
r = RetList.apply(x)
print(type(r).__name__, r[0].grad_fn if isinstance(r, (list, tuple)) else r)
'''
PROGRAMS['ta_needs_input_grad_and_non_tensor_inputs'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c, d, e=None):
        print('nig', ctx.needs_input_grad)
        ctx.save_for_backward(a, b)
        ctx.c = c
        return a * b * c
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print('bw nig', ctx.needs_input_grad)
        return g * b * ctx.c, g * a * ctx.c, None, None, None
x = torch.ones(2, requires_grad=True)
y = torch.full((2,), 3.)
out = F.apply(x, y, 2.0, 'hello')
out.sum().backward()
print(x.grad, y.grad)
out = F.apply(x, y.requires_grad_(), 2.0, None, torch.ones(1))
out.sum().backward()
print(x.grad, y.grad)
with torch.no_grad():
    out = F.apply(x, y, 2.0, None)
print(out.requires_grad, out.grad_fn)
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('grad mode in forward', torch.is_grad_enabled())
        y = x * 2
        print('inner requires_grad', y.requires_grad)
        return y
    @staticmethod
    def backward(ctx, g):
        print('grad mode in backward', torch.is_grad_enabled())
        return g
G.apply(x).sum().backward()
G.apply(x).sum().backward(create_graph=True)
E(lambda: F.apply(x, y, 2.0, 'a', e=1))
E(lambda: F.apply(a=x))
'''
PROGRAMS['ta_save_for_backward_errors'] = PRE + r'''
class SaveNT(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
E(lambda: SaveNT.apply(x))
class SaveNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print('saved', a, b)
        return g
SaveNone.apply(x).sum().backward()
class SaveInter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
SaveInter.apply(x).sum().backward()
print(x.grad)
class SaveOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.exp()
        ctx.save_for_backward(out)
        return out
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        print('out grad_fn', out.grad_fn, out.requires_grad)
        return g * out
y = SaveOut.apply(x)
y.sum().backward(retain_graph=True)
print(x.grad)
with torch.no_grad():
    y.mul_(2)
E(lambda: y.sum().backward())
y = SaveOut.apply(x)
print(y.grad_fn.saved_tensors[0].equal(y), y.grad_fn.saved_tensors[0] is y)
print(y.grad_fn._saved_tensors if hasattr(y.grad_fn, '_saved_tensors') else 'no attr')
y.sum().backward()
E(lambda: y.grad_fn.saved_tensors)
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_backward(x, x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print(len(ctx.saved_tensors))
        return g
Twice.apply(x).sum().backward()
'''
PROGRAMS['ta_saved_variable_detached_inplace'] = PRE + r'''
torch.manual_seed(0)
a = torch.tensor(1., requires_grad=True).clone()
b = a.sin()
a.detach_()
E(lambda: b.backward())
a = torch.tensor(1., requires_grad=True).clone()
b = a * a
a.detach_()
E(lambda: b.backward())
a = torch.tensor(1., requires_grad=True)
b = a.sin()
E(lambda: a.detach_())
x = torch.randn(10, 10, requires_grad=True)
view = x.narrow(0, 1, 4)
x.detach_()
print(x.requires_grad, view.requires_grad, view.grad_fn, view._base is x, x.is_leaf)
y = torch.randn(3, requires_grad=True).clone()
v = y[:2]
E(lambda: v.detach_())
w = y.detach()
w.detach_()
print(w.requires_grad)
z = torch.randn(3, requires_grad=True)
E(lambda: z.detach_())
print(z.requires_grad, z.is_leaf, z.grad_fn)
'''
PROGRAMS['ta_version_counter_messages'] = PRE + r'''
x = torch.randn(3, requires_grad=True)
y = x.clone()
z = y * y
y.add_(1)
E(lambda: z.sum().backward())
x2 = torch.randn(2, 3, requires_grad=True)
y2 = x2.exp()
y2.mul_(2)
E(lambda: y2.sum().backward())
a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
b[0] = 0
E(lambda: b.sum().backward())
c = torch.randn(4, requires_grad=True).clone()
d = c.tanh()
d.t_()
E(lambda: d.sum().backward())
e = torch.zeros(3)
w = torch.randn(3, requires_grad=True)
f = w * e
e += 1
e.add_(1)
E(lambda: f.sum().backward())
print(e._version, w._version, f._version)
g = torch.ones(2, requires_grad=True).clone()
h = g.pow(2)
g.data.mul_(2)
h.sum().backward()
print('data ok', g._version)
i = torch.ones(2, requires_grad=True).clone()
j = i.pow(2)
with torch.no_grad():
    i.mul_(2)
E(lambda: j.sum().backward())
print(i._version)
'''
# fixed: Variable(int tensor, requires_grad=True)'s message; type(Variable) is VariableMeta
PROGRAMS['ta_variable_legacy_api'] = PRE + r'''
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(type(x).__name__, x.requires_grad, isinstance(x, Variable), isinstance(torch.ones(1), Variable))
y = Variable(torch.ones(2))
print(y.requires_grad)
W(lambda: Variable(torch.ones(2), volatile=True))
z = Variable(torch.ones(2), volatile=True)
print(z.requires_grad)
W(lambda: print('volatile', z.volatile))
E(lambda: Variable(torch.ones(2), requires_grad=True, volatile=True, foo=1))
E(lambda: Variable([1, 2]))
E(lambda: Variable(torch.ones(2, dtype=torch.long), requires_grad=True))
print(Variable().shape)
v = Variable(torch.tensor([1., 2.]), True)
print(v.requires_grad)
print(Variable is torch.autograd.Variable, type(Variable).__name__)
'''
PROGRAMS['ta_requires_grad_propagation_and_factories'] = PRE + r'''
for fn in [torch.ones, torch.zeros, torch.rand, torch.randn, torch.empty]:
    t = fn(2, 3, requires_grad=True)
    print(fn.__name__, t.requires_grad, t.is_leaf, t.dtype)
E(lambda: torch.ones(2, dtype=torch.long, requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
print(torch.arange(3., requires_grad=True).requires_grad)
print(torch.full((2,), 1., requires_grad=True).requires_grad, torch.eye(2, requires_grad=True).requires_grad)
print(torch.tensor([1, 2]).float().requires_grad_().requires_grad)
x = torch.randn(5, 5)
y = torch.randn(5, 5, requires_grad=True)
z = x + y
print(z.requires_grad, (x + x).requires_grad)
x.requires_grad = True
print(x.requires_grad)
E(lambda: setattr(z, 'requires_grad', False))
E(lambda: setattr(z, 'requires_grad', True))
print(z.requires_grad)
E(lambda: z.requires_grad_(False))
a = torch.randn(2, requires_grad=True)
print(a.long().requires_grad, a.argmax().requires_grad, (a > 0).requires_grad, a.double().requires_grad)
print(a.int().grad_fn, a.sign().requires_grad, a.floor().grad_fn, a.round().grad_fn)
print(torch.randn(2).requires_grad_(True).requires_grad_(False).requires_grad)
print(a.new_ones(2).requires_grad, a.new_tensor([1.]).requires_grad, torch.zeros_like(a).requires_grad, torch.ones_like(a, requires_grad=True).requires_grad)
E(lambda: a.int().requires_grad_())
print(a.clone().requires_grad, a.detach().requires_grad, a.data.requires_grad)
'''
PROGRAMS['ta_anomaly_mode_nan_messages'] = PRE + r'''
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()
    @staticmethod
    def backward(ctx, gO):
        return gO.clone().fill_(float('nan'))
inp = torch.rand(2, 3, requires_grad=True)
out = MyFunc.apply(inp)
out.sum().backward()
print(inp.grad.isnan().all())
inp.grad = None
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = f()
    for w in ws:  # (the traceback's first and last lines: PyTorch's has frames of its own files in between)
        lines = str(w.message).splitlines()
        print('W', w.category.__name__, lines[0], lines[-1])
    return r
def run():
    with torch.autograd.detect_anomaly():
        out = MyFunc.apply(inp)
        out.sum().backward()
W(lambda: E(run))
def run2():
    with torch.autograd.detect_anomaly(check_nan=False):
        out = MyFunc.apply(inp)
        out.sum().backward()
W(lambda: E(run2))
print(inp.grad.isnan().all())
def run3():
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.], requires_grad=True)
        y = x / x
        y.backward()
W(lambda: E(run3))
def run4():
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.], requires_grad=True)
        y = torch.sqrt(x)
        return torch.autograd.grad(y.sum(), x)
W(lambda: E(run4))
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())
'''
PROGRAMS['ta_anomaly_mode_nested_nan_double_backward'] = PRE + r'''
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp, fail_0th):
        ctx.fail_0th = fail_0th
        return inp.sum(0, keepdim=True)
    @staticmethod
    def backward(ctx, gO):
        gI = gO.clone().expand(2, 3)
        gI2 = gI.clone()
        if ctx.fail_0th:
            gI[0, 0] = float('nan')
        return gI, None
def run(fail):
    with torch.autograd.detect_anomaly():
        inp = torch.rand(2, 3, requires_grad=True)
        out = MyFunc.apply(inp, fail)
        ginp, = torch.autograd.grad(out, (inp,), create_graph=True)
        return ginp.shape
W(lambda: E(lambda: run(False)))
W(lambda: E(lambda: run(True)))
'''
PROGRAMS['ta_inference_mode_errors'] = PRE + r'''
with torch.inference_mode():
    c = torch.ones(2, 3)
    s = torch.ones(2, 3, requires_grad=True)
    print(c.is_inference(), c.requires_grad, s.requires_grad, s.is_leaf)
    d = c * 2
    print(d.is_inference(), d._version if False else '')
E(lambda: c._version)
x = torch.ones(2, 3, requires_grad=True)
E(lambda: (x * c).sum().backward())
E(lambda: c.add_(1))
E(lambda: c.requires_grad_())
print(c.view(6).is_inference())
E(lambda: c.view(6).add_(1))
with torch.inference_mode():
    c.add_(1)
print(c)
n = torch.ones(3)
with torch.inference_mode():
    v = n.view(3)
    print(v.is_inference())
    n.add_(1)
    E(lambda: n.requires_grad_())
print(n._version)
y = x * 2
with torch.inference_mode():
    z = y * 2
    print(z.requires_grad, z.grad_fn)
    E(lambda: y.mul_(2))
print(torch.is_inference(c), torch.is_inference(x))
with torch.inference_mode():
    t = torch.ones(2)
E(lambda: torch.ones(2, requires_grad=True).mul(t).mul(t).sum().backward())
w = torch.ones(2, requires_grad=True)
E(lambda: w.exp() * t)
print((t.clone() * w).sum().requires_grad, t.clone().is_inference())
'''
PROGRAMS['ta_leaf_views_inplace_errors'] = PRE + r'''
a = torch.ones(3, requires_grad=True)
E(lambda: a.add_(1))
E(lambda: a[0].mul_(2))
E(lambda: a.view(3).zero_())
E(lambda: a.unbind()[0].mul_(2))
E(lambda: a.split(1)[0].mul_(2))
E(lambda: a.chunk(3)[1].add_(1))
b = a.clone()
E(lambda: b.unbind()[0].mul_(2))
E(lambda: b.split(1)[0].mul_(2))
c = b.split(2)[1]
print(c.grad_fn)
with torch.no_grad():
    v = a[:2]
E(lambda: v.mul_(2))
print(v.requires_grad)
with torch.no_grad():
    v2 = b[:2]
E(lambda: v2.mul_(2))
with torch.no_grad():
    a.mul_(2)
print(a, a._version)
d = a.detach()
d.mul_(2)
print(a, a._version)
e = a.view(3)
print(e._is_view(), e._base is a, e.is_leaf, e.grad_fn)
'''
PROGRAMS['ta_inplace_on_view_backward_variants'] = PRE + r'''
torch.manual_seed(0)
root = torch.randn(4, 4, requires_grad=True)
x = root.clone()
v1 = x.narrow(0, 1, 2)
v2 = v1.narrow(1, 1, 2)
v2.mul_(2)
print(x.grad_fn, v1.grad_fn, v2.grad_fn)
x.sum().backward()
print(root.grad)
root.grad = None
x = root.clone()
v = x.narrow(0, 0, 2)
v.add_(torch.ones(2, 4, requires_grad=True) * 3)
print(x.grad_fn, x.grad_fn.next_functions)
(x * x).sum().backward()
print(root.grad)
a = torch.randn(3, requires_grad=True)
b = a.clone()
b[1] = a[0] * 5
print(b.grad_fn, b.grad_fn.next_functions)
b.sum().backward()
print(a.grad)
x = torch.zeros(3, requires_grad=True)
y = x.clone()
y.unsqueeze(0)[0].exp_()
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
base = torch.zeros(2, 2, requires_grad=True).clone()
view = base.t()
view.add_(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True))
print(base, view.grad_fn)
grad = torch.autograd.grad(base.sum(), base)
print(grad)
'''
PROGRAMS['ta_no_grad_views_and_version'] = PRE + r'''
x = torch.randn(3, requires_grad=True)
with torch.no_grad():
    y = x * 2
    v = x[:2]
print(y.requires_grad, v.requires_grad, v._base is x, v.grad_fn, v.is_leaf)
E(lambda: v.add_(1))
x2 = torch.randn(3, requires_grad=True).clone()
with torch.no_grad():
    v2 = x2[:2]
E(lambda: v2.add_(1))
with torch.no_grad():
    v2.add_(1)
print(x2._version, v2._version)
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    w.add_(1)
print(w, w.grad_fn, w.is_leaf)
with torch.no_grad():
    w[0] = 5
print(w._version)
with torch.no_grad():
    z = w.view(2)
    z.mul_(2)
print(w, z.requires_grad)
p = torch.ones(2, requires_grad=True)
q = p.view(2)
with torch.no_grad():
    q.mul_(3)
print(q.grad_fn, p.grad_fn, (q * 2).sum().requires_grad)
(q * 2).sum().backward()
print(p.grad)
'''
PROGRAMS['ta_accumulation_layouts'] = PRE + r'''
a = torch.randn(5, 5, requires_grad=True)
g = torch.randn(5, 5).t()
(a * 1).backward(g)
print(a.grad.stride(), a.grad.is_contiguous())
b = torch.randn(5, 5).t().detach().requires_grad_()
(b * 1).backward(torch.randn(5, 5))
print(b.grad.stride())
c = torch.randn(2, 3, requires_grad=True)
c.grad = torch.zeros(3, 2).t()
(c * 1).backward(torch.ones(2, 3))
print(c.grad.stride(), c.grad)
d = torch.randn(4, 4).t().contiguous().t().requires_grad_()
print(d.stride())
d.sum().backward()
print(d.grad.stride())
e = torch.randn(3, 1, 4, requires_grad=True)
e.sum().backward()
print(e.grad.stride())
f = torch.randn(3, 4).expand(2, 3, 4)
f.requires_grad_()
f.sum().backward()
print(f.grad.stride(), f.grad.shape)
h = torch.randn(2, 3, requires_grad=True)
grad = torch.ones(2, 3)
h.backward(grad)
print(h.grad is grad, h.grad.data_ptr() == grad.data_ptr())
h.backward(grad)
print(h.grad is grad, h.grad)
k = torch.randn(2, 2, requires_grad=True)
g1 = torch.ones(2, 2)
k.backward(g1, create_graph=True)
print(k.grad is g1, k.grad.requires_grad)
'''
PROGRAMS['ta_accumulate_grad_create_graph'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
y = (w ** 3).sum()
y.backward(create_graph=True)
print(w.grad, w.grad.grad_fn, w.grad.requires_grad)
g = w.grad
y2 = (w * w).sum()
y2.backward(create_graph=True)
print(w.grad, w.grad.grad_fn, w.grad is g)
w.grad.sum().backward()
print(w.grad)
v = torch.tensor([1., 2.], requires_grad=True)
(v * 2).sum().backward()
gr = v.grad
(v * 3).sum().backward(create_graph=True)
print(v.grad, v.grad is gr, v.grad.grad_fn)
u = torch.tensor([1., 2.], requires_grad=True)
(u * u).sum().backward(create_graph=True)
first = u.grad
(u * 4).sum().backward()
print(u.grad, u.grad is first, u.grad.grad_fn)
'''
PROGRAMS['ta_node_api_prehooks_posthooks'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = a.exp()
c = b.sum()
node = c.grad_fn
print(node.name(), type(node).__name__, node.metadata, node.next_functions)
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 2,)
def post(grad_inputs, grad_outputs):
    print('post', grad_inputs, grad_outputs)
h1 = b.grad_fn.register_prehook(pre)
h2 = b.grad_fn.register_hook(post)
c.backward(retain_graph=True)
print(a.grad)
h1.remove(); h2.remove()
a.grad = None
c.backward(retain_graph=True)
print(a.grad)
def post_modify(grad_inputs, grad_outputs):
    return (grad_inputs[0] * 10,)
b.grad_fn.register_hook(post_modify)
a.grad = None
c.backward(retain_graph=True)
print(a.grad)
def bad_pre(g):
    return (g[0], g[0])
h = b.grad_fn.register_prehook(bad_pre)
E(lambda: c.backward(retain_graph=True))
h.remove()
def bad_post(gi, go):
    return 5
h = b.grad_fn.register_hook(bad_post)
E(lambda: c.backward(retain_graph=True))
h.remove()
acc = b.grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is a, acc.next_functions)
acc.register_prehook(lambda g: print('acc pre', g))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
a.grad = None
b.sum().backward()
print(a.grad)
b.grad_fn.metadata['key'] = 1
print(b.grad_fn.metadata)
print(isinstance(b.grad_fn, torch.autograd.graph.Node), issubclass(type(b.grad_fn), torch.autograd.graph.Node))
print(b.grad_fn._sequence_nr() < c.grad_fn._sequence_nr())
'''
PROGRAMS['ta_gradient_edge_and_increment_version'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge, GradientEdge, increment_version
x = torch.randn(2, requires_grad=True)
y = x.exp()
z = y.sin()
e = get_gradient_edge(y)
print(type(e).__name__, e.node.name(), e.output_nr, e._fields if hasattr(e, '_fields') else '')
g, = torch.autograd.grad(z.sum(), e, retain_graph=True)
print(torch.allclose(g, y.cos()))
ex = get_gradient_edge(x)
print(ex.node.name(), ex.output_nr, ex.node.variable is x)
print(torch.allclose(torch.autograd.grad(z.sum(), ex, retain_graph=True)[0], torch.autograd.grad(z.sum(), x, retain_graph=True)[0]))
E(lambda: get_gradient_edge(torch.ones(2)))
a, b = x.unbind()
print(get_gradient_edge(b).output_nr, get_gradient_edge(b).node.name())
t = torch.ones(2)
increment_version(t)
print(t._version)
increment_version([t, t])
print(t._version)
w = torch.ones(2, requires_grad=True)
q = w * w
increment_version(w)
E(lambda: q.sum().backward())
edge = GradientEdge(z.grad_fn, 0)
print(torch.autograd.grad(z.sum(), edge)[0].shape)
'''
PROGRAMS['ta_multi_grad_hook_modes'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
t1 = torch.rand(2, requires_grad=True)
t2 = torch.rand(2, requires_grad=True)
t3 = torch.rand(2, requires_grad=True)
t4 = torch.rand(2, requires_grad=True)
res = [None] * 4
count = [0]
def hook(grads):
    nonlocal_count = count
    nonlocal_count[0] += 1
    print('all', [g is None for g in grads])
h = register_multi_grad_hook((t1, t2, t3, t4), hook)
out = (t2 * t3).sum()
out.backward(inputs=(t2, t3), retain_graph=True)
print(count)
out.backward(inputs=(t1, t2, t3), retain_graph=True)
print(count)
h.remove()
out.backward(inputs=(t2,), retain_graph=True)
print(count)
def any_hook(g):
    print('any', g.shape)
h = register_multi_grad_hook((t1, t2), any_hook, mode='any')
(t1 * t2).sum().backward()
(t2 * 3).sum().backward()
h.remove()
E(lambda: register_multi_grad_hook((t1,), hook, mode='foo'))
E(lambda: register_multi_grad_hook((torch.ones(2),), hook))
print(type(h).__name__)
'''
PROGRAMS['ta_post_accumulate_grad_hook'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
def hook(t):
    print('post acc', t.grad)
    t.grad.mul_(10)
h = a.register_post_accumulate_grad_hook(hook)
(a * 3).sum().backward()
print(a.grad)
(a * 3).sum().backward()
print(a.grad)
h.remove()
(a * 3).sum().backward()
print(a.grad)
b = torch.tensor([1., 2.], requires_grad=True)
b.register_post_accumulate_grad_hook(lambda t: 7)
E(lambda: (b * 2).sum().backward())
print(b.grad)
c = torch.tensor([1., 2.], requires_grad=True)
order = []
c.register_hook(lambda g: order.append('tensor'))
c.register_post_accumulate_grad_hook(lambda t: order.append('post'))
(c * 2).sum().backward()
print(order)
d = torch.tensor([1., 2.], requires_grad=True)
d.register_post_accumulate_grad_hook(lambda t: print('inputs=', t.grad))
torch.autograd.grad((d * 2).sum(), d)
(d * 2).sum().backward(inputs=[d])
'''
PROGRAMS['ta_saved_tensors_hooks_and_disable'] = PRE + r'''
from torch.autograd.graph import saved_tensors_hooks, disable_saved_tensors_hooks
def pack(x):
    print('pack', x.shape)
    return x * 2
def unpack(x):
    print('unpack', x.shape)
    return x / 2
a = torch.ones(3, requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = a.pow(2)
print(y.grad_fn._raw_saved_self)
y.sum().backward()
print(a.grad)
def run():
    with disable_saved_tensors_hooks("my message"):
        with saved_tensors_hooks(pack, unpack):
            pass
E(run)
def run2():
    with saved_tensors_hooks(pack, unpack):
        with disable_saved_tensors_hooks("inner msg"):
            pass
E(run2)
with disable_saved_tensors_hooks("m1"):
    with disable_saved_tensors_hooks("m2"):
        pass
    E(lambda: saved_tensors_hooks(pack, unpack).__enter__())
with saved_tensors_hooks(pack, unpack):
    z = a * a
    E(lambda: z.grad_fn._raw_saved_self.register_hooks(pack, unpack))
r = z.grad_fn._raw_saved_self
print(type(r).__name__)
w = a.exp()
rw = w.grad_fn._raw_saved_result
E(lambda: rw.register_hooks(pack))
E(lambda: rw.register_hooks(1, 2))
rw.register_hooks(lambda x: x, lambda x: x)
E(lambda: rw.register_hooks(lambda x: x, lambda x: x))
def bad_pack(x):
    x.mul_(2)
    return x
def run3():
    with saved_tensors_hooks(bad_pack, lambda x: x):
        return a.clone().exp()
E(run3)
'''
PROGRAMS['ta_saved_attrs_after_backward_and_none'] = PRE + r'''
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = a * b
print(c.grad_fn._saved_self.equal(a), c.grad_fn._saved_other.equal(b))
c.sum().backward()
E(lambda: c.grad_fn._saved_self)
E(lambda: c.grad_fn._raw_saved_self)
d = a.sum(dim=0, keepdim=True)
print(d.grad_fn._saved_self_sym_sizes, d.grad_fn._saved_dim, d.grad_fn._saved_keepdim)
e = a.exp()
print(e.grad_fn._saved_result.equal(e), e.grad_fn._saved_result is e)
f = torch.randn(2, 2, requires_grad=True)
g = f.max(dim=1)
print(g.values.grad_fn._saved_indices.equal(g.indices), g.values.grad_fn._saved_dim)
h = torch.nn.functional.relu(a)
print(h.grad_fn._saved_result.equal(h), h.grad_fn.name())
k = a.clamp(min=0.)
print(k.grad_fn._saved_min, k.grad_fn._saved_max)
l = a.pow(2)
print(l.grad_fn._saved_exponent, type(l.grad_fn._saved_exponent).__name__)
m = a.mean()
print(m.grad_fn._saved_self_sym_numel if hasattr(m.grad_fn, '_saved_self_sym_numel') else 'none', m.grad_fn._saved_self_sym_sizes)
print(sorted(x for x in dir(c.grad_fn) if x.startswith('_saved') or x.startswith('_raw_saved')))
'''
PROGRAMS['ta_retain_graph_second_time_variants'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x.exp()
y.sum().backward()
E(lambda: y.sum().backward())
z = x * 2
z.sum().backward()
E(lambda: z.sum().backward())
print(x.grad, z.grad_fn._saved_other if False else '')
E(lambda: z.grad_fn._saved_other)
E(lambda: z.grad_fn._saved_self)
w = (x * x).sum()
torch.autograd.grad(w, x)
E(lambda: torch.autograd.grad(w, x))
v = (x ** 3).sum()
g, = torch.autograd.grad(v, x, create_graph=True)
print(g)
E(lambda: g.sum().backward(retain_graph=True))
print(x.grad)
E(lambda: g.sum().backward())
u = x.exp().sum()
E(lambda: torch.autograd.grad(u, x, retain_graph=False, create_graph=True))
E(lambda: torch.autograd.grad(u, x))
s = x.sin()
s.sum().backward(retain_graph=True)
s.sum().backward()
E(lambda: s.grad_fn._saved_self)
print(s.grad_fn.name())
'''
# fixed: del t.data / t.requires_grad / t.shape refused as in PyTorch (del of the slots _grad_fn/_backward_hooks: not)
PROGRAMS['ta_attribute_deletion_and_backward_hooks_dict'] = PRE + r'''
x = torch.randn((5, 5), requires_grad=True)
del x.grad
print(x.grad)
E(lambda: delattr(x, 'data'))
E(lambda: setattr(x, 'data', None))
E(lambda: delattr(x, 'requires_grad'))
E(lambda: delattr(x, 'grad_fn'))
E(lambda: setattr(x, 'grad_fn', None))
E(lambda: setattr(x, 'is_leaf', False))
E(lambda: setattr(x, 'data', torch.ones(2)))
print(x.shape)
E(lambda: setattr(x, 'data', torch.ones(2, dtype=torch.long)))
print(x.dtype, x.requires_grad)
print(x._backward_hooks)
h = x.register_hook(lambda g: g)
print(type(x._backward_hooks).__name__, len(x._backward_hooks))
h.remove()
print(x._backward_hooks)
from collections import OrderedDict
a = torch.randn(2)
b = torch.randn(2, requires_grad=True)
a._backward_hooks = OrderedDict()
def error(g):
    raise RuntimeError('should not run')
a._backward_hooks['test'] = error
(a + b).sum().backward()
print(b.grad)
'''
PROGRAMS['ta_no_requires_grad_inplace_then_flag'] = PRE + r'''
torch.manual_seed(0)
a = torch.randn(2, 3)
a.add_(5)
a.requires_grad = True
a.sum().backward()
print(a.grad)
a = torch.randn(2, 3)
b = a[:]
b.add_(5)
a.requires_grad = True
a.sum().backward()
print(a.grad, b.requires_grad, b.grad_fn)
a = torch.randn(2, 3)
b = a[:]
a.requires_grad = True
E(lambda: a.add_(5))
E(lambda: b.add_(5))
print(b.requires_grad, b.is_leaf, b.grad_fn)
a = torch.randn(5, 5)
b = torch.randn(5, 5, requires_grad=True)
a += b
print(a.requires_grad, a.grad_fn, a.is_leaf)
a = torch.randn(5, 5) + 0
a += b
print(a.requires_grad, a.grad_fn)
c = torch.zeros(3)
c[0] = torch.tensor(2., requires_grad=True)
print(c.requires_grad, c.grad_fn)
'''
PROGRAMS['ta_inplace_sequence_errors'] = PRE + r'''
x = torch.ones(5, 5, requires_grad=True)
y = torch.ones(5, 5) * 4
y.requires_grad_()
z = x * y
q = z + y
w = z * y
z.add_(2)
q.backward(torch.ones(5, 5), retain_graph=True)
E(lambda: w.backward(torch.ones(5, 5)))
z = x * y
q = z * y
r = z + y
w = z.add_(y)
print(w is z, w._version, w.grad_fn)
w.backward(torch.ones(5, 5), retain_graph=True)
r.backward(torch.ones(5, 5), retain_graph=True)
E(lambda: q.backward(torch.ones(5, 5)))
with torch.no_grad():
    x.grad.zero_()
m = x / 2
z = m + y / 8
q = z * y
r = z + y
prev = z._version
w = z.exp_()
print(z._version != prev, w.grad_fn)
r.backward(torch.ones(5, 5), retain_graph=True)
print(x.grad[0, 0])
w.backward(torch.ones(5, 5), retain_graph=True)
print(x.grad[0, 0])
E(lambda: q.backward(torch.ones(5, 5)))
leaf = torch.ones(5, 5, requires_grad=True)
x = leaf.clone()
x.add_(10)
y = x + 2
y.backward(torch.ones(5, 5))
print(leaf.grad[0])
z = x * y
x.add_(2)
E(lambda: z.backward(torch.ones(5, 5)))
'''
PROGRAMS['ta_setitem_grads'] = PRE + r'''
def t_setitem(size, index):
    x = torch.ones(*size, requires_grad=True)
    y = x + 2
    v = y._version
    y[index] = 2
    y.backward(torch.ones(*size))
    print(y._version - v, y.grad_fn.name(), x.grad.sum().item(), x.grad.flatten()[:6].tolist())
def t_setitem_tensor(size, index):
    x = torch.ones(*size, requires_grad=True)
    y = x + 2
    value = x.new(x[index].size()).fill_(7)
    value.requires_grad = True
    y[index] = value
    y.backward(torch.ones(*size))
    print(y.grad_fn.name(), x.grad.sum().item(), value.grad.shape, value.grad.sum().item())
t_setitem((5, 5), 1)
t_setitem((5,), 1)
t_setitem((1,), 0)
t_setitem((10,), [[0, 4, 2]])
t_setitem((5, 5), [[0, 4], [2, 2]])
t_setitem((5, 5, 5), [slice(None), slice(None), [1, 3]])
t_setitem((5, 5, 5), [slice(None), [2, 4], [1, 3]])
t_setitem((5, 5, 5), (torch.tensor([1, 3]), [2, 4], slice(None)))
t_setitem_tensor((5, 5), 3)
t_setitem_tensor((5, 5), ([0, 1], [1, 0]))
t_setitem_tensor((5,), torch.tensor([3]).sum())
t_setitem_tensor((5, 5, 5), (slice(None), [2, 4], [1, 3]))
mask = torch.tensor([[True, False, True, False, False]] * 5)
t_setitem((5, 5), mask)
t_setitem_tensor((5, 5), mask)
x = torch.randn(4, requires_grad=True)
y = torch.zeros(2, 3, 4)
y[1] = x
y.backward(torch.ones(2, 3, 4))
print(x.grad, y.grad_fn)
a = torch.tensor([1., 0, 0])
b = torch.zeros(3, requires_grad=True)
t = b + 0
t[a != 0] = t[a != 0]
t.backward(torch.zeros_like(t))
print(b.grad, t.grad_fn)
'''
PROGRAMS['ta_multi_backward_roots'] = PRE + r'''
torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
x = a * b
go = torch.tensor([1., 2., 3.])
torch.autograd.backward([x, x], [go, go])
print(a.grad, b.grad)
c = a + 2
E(lambda: torch.autograd.backward([c], [None]))
E(lambda: torch.autograd.backward([c.sum()], [None]))
y = torch.randn(3)
z = a + y
q = y * 2
E(lambda: torch.autograd.backward([z, q], [torch.ones(3), torch.ones(3)]))
stacked = torch.randn(3, 2, requires_grad=True)
outs = stacked.unbind()
g, = torch.autograd.grad(outs[1], stacked, torch.tensor([5., 6.]))
print(g)
xs = stacked.chunk(3)
o = xs[2] * 4 + 2
o.sum().backward()
print(stacked.grad)
leaves = [torch.zeros(2, requires_grad=True) for _ in range(4)]
inter = [l * i + l * l for i, l in enumerate(leaves)]
loss = sum(v * i for i, v in enumerate(inter)).sum()
d = [d_i for batch in (inter[i:i + 2] for i in range(0, 4, 2)) for d_i in torch.autograd.grad(loss, batch, retain_graph=True)]
torch.autograd.backward(inter, d)
print([l.grad.tolist() for l in leaves])
x = torch.randn(4, 2, requires_grad=True)
p, r = x.chunk(2)
called = []
x.register_hook(lambda g: called.append(1))
ga, gb = torch.autograd.grad(p + 2 * r, [p, r], grad_outputs=torch.ones(2, 2), create_graph=True)
print(ga, gb, called, x.grad)
v = torch.randn(5, requires_grad=True)
vl = v.unbind()
res = []
vl[0].register_hook(lambda g: res.append(g))
vl[0].backward()
print(res, v.grad)
for i in range(1, 3):
    vl[i].backward()
print(len(res), v.grad)
'''
PROGRAMS['ta_saved_variables_deprecated_and_resize'] = PRE + r'''
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t1, t2):
        ctx.save_for_backward(t1, t2)
        return t1 + t2
    @staticmethod
    def backward(ctx, g):
        v1, v2 = ctx.saved_variables
        return g, g
x = torch.randn(3, requires_grad=True)
y = torch.randn(3, requires_grad=True)
W(lambda: MyFunction.apply(x, y).sum().backward())
print(x.grad)
z = torch.ones(2, 3)
W(lambda: print(z.resize(3, 2).size()))
W(lambda: print(z.resize_as(torch.ones(6)).size()))
w = torch.ones(2, 3, requires_grad=True)
E(lambda: w.resize(3, 2))
E(lambda: w.resize_(3, 2))
W(lambda: print(torch.randn(3, 3).volatile))
'''
PROGRAMS['ta_hook_none_and_save_output_nr'] = PRE + r'''
class NoneGradientFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        print(ctx.needs_input_grad)
        return x, y
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        return grad_x, None
x = torch.randn(2, requires_grad=True)
y = torch.randn(2)
rx, ry = NoneGradientFunction.apply(x, y)
print(rx.requires_grad, ry.requires_grad, rx.grad_fn, ry.grad_fn, ry is y, ry._base is y)
rx.register_hook(lambda g: print('rx hook', g is None))
E(lambda: ry.register_hook(lambda g: print('ry hook', g)))
sum(rx, ry).sum().backward()
print(x.grad)
x = torch.randn(10, requires_grad=True)
class MultiOutputFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:5], x[5:]
    @staticmethod
    def backward(ctx, *grad):
        return torch.cat(grad)
a, b = MultiOutputFn.apply(x)
print(a.output_nr, b.output_nr, a._base is x, b.grad_fn, b._is_view())
class TestFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, b):
        ctx.save_for_backward(b)
        return b * 2
    @staticmethod
    def backward(ctx, grad_b):
        b, = ctx.saved_tensors
        print('saved output_nr', b.output_nr, b.grad_fn)
        return grad_b
TestFn.apply(b).sum().backward()
print(x.grad)
'''
PROGRAMS['ta_stashed_ctx_and_repeated_gradgrad'] = PRE + r'''
saved_ctx = []
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x
    @staticmethod
    def backward(ctx, grad_x):
        saved_ctx.append(ctx)
        return ctx.saved_tensors
p = torch.zeros(1, requires_grad=True)
loss = Id.apply(p)
loss.backward(retain_graph=True)
print(p.grad)
del loss
E(lambda: saved_ctx[0].saved_tensors)
E(lambda: saved_ctx[0].next_functions)
E(lambda: saved_ctx[0].metadata)
q = torch.zeros(1, requires_grad=True)
l2 = Id.apply(q)
l2.backward()
E(lambda: saved_ctx[1].saved_tensors)
def mult1(x):
    return x.prod(dim=-1).prod(dim=-1)
class Mult(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = mult1(x)
        ctx.save_for_backward(x, y)
        return y
    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return (grad_output * y)[:, None, None] / x
def check(x, y):
    gy, = torch.autograd.grad(y[0], x, create_graph=True)
    ggy_1, = torch.autograd.grad(gy[0, 0, 0], x, retain_graph=True)
    gy, = torch.autograd.grad(y[0], x, create_graph=True)
    ggy_2, = torch.autograd.grad(gy[0, 0, 0], x, retain_graph=True)
    print(ggy_1[0, 0, 1], ggy_2[0, 0, 1], gy.grad_fn)
x = torch.ones(2, 4, 4).requires_grad_()
check(x, mult1(x))
check(x, Mult.apply(x))
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x ** 2
        ctx.save_for_backward(x, y)
        return y
    @staticmethod
    def backward(ctx, grad_output):
        x, _ = ctx.saved_tensors
        return grad_output * 2 * x
class Double2(Double):
    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return grad_output * 2 * y / x
x = torch.tensor(2).double().requires_grad_()
for f in (Double.apply, Double2.apply):
    print(torch.autograd.gradcheck(f, x), torch.autograd.gradgradcheck(f, x))
    y = f(x)
    print(torch.autograd.grad(y, x, create_graph=True), torch.autograd.grad(y, x))
'''
PROGRAMS['ta_detach_variants_and_numpy'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 3, requires_grad=True)
y = (x + 2).detach()
z = y * 4 + 2
print(y.requires_grad, z.requires_grad, y.grad_fn, y.is_leaf)
y = (x * 2).detach()
(x + y).sum().backward()
print(x.grad)
x = torch.randn(3, requires_grad=True)
y = torch.randn(3, requires_grad=True)
a = x * 2
(y + a).sum().backward(retain_graph=True)
a.detach_()
print(a.requires_grad, a.grad_fn, a.is_leaf)
(y + a).sum().backward()
print(x.grad, y.grad)
view = x.narrow(0, 1, 2)
E(lambda: view.detach_())
E(lambda: x.numpy())
with torch.no_grad():
    print(type(x.numpy()).__name__)
print(x.detach().numpy().dtype)
print(x.numpy(force=True).shape)
E(lambda: x.tolist())
E(lambda: x.__array__())
E(lambda: float(x[0]) > -100)
E(lambda: x.sum().item() > -100)
'''
PROGRAMS['ta_type_conversions_backward'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 3)
print(isinstance(x.float(), torch.FloatTensor), isinstance(x.int(), torch.IntTensor), isinstance(x.int(), torch.FloatTensor))
for t in [torch.DoubleTensor, torch.FloatTensor, torch.IntTensor, torch.ByteTensor]:
    y = torch.randint(5, (2, 2), dtype=t.dtype)
    print(t.dtype, isinstance(x.type(t), t), isinstance(x.type_as(y), t), t().dtype, x.type(t().dtype).dtype, y.type(t).data_ptr() == y.data_ptr(), x.type(t).type())
f = torch.randn(2, 2).float().requires_grad_()
f.double().sum().backward()
print(f.grad, f.grad.dtype, type(f.grad).__name__)
d = torch.randn(2, 2).double().requires_grad_()
d.float().sum().backward()
print(d.grad.dtype, d.float().grad_fn, d.to(torch.float16).grad_fn, d.type(torch.float32).grad_fn)
print(d.type(), d.type('torch.FloatTensor').dtype, d.type(torch.float64) is d)
E(lambda: d.type(torch.int64).requires_grad)
print(d.long().grad_fn, d.to(torch.int32).requires_grad)
a = torch.randn(5, 5, requires_grad=True)
b = torch.randn(5, 5, requires_grad=True)
s = a + b
m = torch.max(s, 1, True)[1].repeat(1, 5).double()
o = (m + s).sum()
print(o.dtype, o.grad_fn)
o.backward()
print(a.grad.dtype, a.grad[0])
'''
PROGRAMS['ta_return_leaf_and_leaf_assignment'] = PRE + r'''
class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a, a + b
    @staticmethod
    def backward(ctx, grad_a, grad_b):
        return grad_a + grad_b, grad_b
x = torch.ones(2, requires_grad=True)
y = torch.ones(2, requires_grad=True)
q, p = Identity.apply(x, y)
print(q is x, q._base is x, q.grad_fn, q.is_leaf, q._version == x._version)
q.register_hook(lambda g: print('hook', g))
(q + p + x).sum().backward()
print(x.grad, y.grad)
class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.mark_dirty(a)
        return a.add_(b), b + 2
    @staticmethod
    def backward(ctx, grad_a, grad_b):
        return grad_a, grad_a + grad_b
x = torch.ones(2)
y = torch.ones(2, requires_grad=True)
q, p = Inplace.apply(x, y)
print(q is x, q.requires_grad, q.grad_fn, x._version)
q.sum().backward()
print(y.grad)
x = torch.zeros(3, 2)
y = torch.ones(2, requires_grad=True)
z = torch.ones(2, requires_grad=True)
x[0] = y
x[1] = 2 * z
print(x.requires_grad, x.grad_fn, x.grad_fn.next_functions[0][0])
x.sum().backward()
print(y.grad, z.grad)
x = torch.zeros(2, 2, requires_grad=True)
with torch.no_grad():
    x[0] = torch.ones(2)
print(x.requires_grad, x.grad_fn, x)
class F1(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        out = torch.zeros(input.size())
        ctx.mark_non_differentiable(out)
        return input, out
    @staticmethod
    def backward(ctx, grad_output, ignored):
        print('ignored', ignored)
        return grad_output
class F2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, ignored):
        return input
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None
x = torch.ones(3, requires_grad=True)
a, b = F1.apply(x)
b = b + 1
print(a.requires_grad, b.requires_grad)
c = F2.apply(a, b)
c.backward(torch.ones(c.size()))
print(x.grad)
'''
PROGRAMS['ta_reentrant_backward'] = PRE + r'''
y_data = torch.tensor([[1., 2.], [3., 4.]])
class Reenter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        with torch.enable_grad():
            ctx.x = torch.autograd.Variable(x, requires_grad=True)
            ctx.y = torch.autograd.Variable(y_data, requires_grad=True)
            ctx.output_var = ctx.x * ctx.y
        return ctx.output_var.detach()
    @staticmethod
    def backward(ctx, grad_output):
        with torch.enable_grad():
            ctx.output_var.sum().backward()
        return ctx.x.grad * grad_output
x = torch.ones(2, 2, requires_grad=True)
out = Reenter.apply(x)
out.sum().backward()
print(x.grad)
class SimulateBackwardError(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return input.clone()
    @staticmethod
    def backward(ctx, input):
        raise Exception("Simulate error on backward pass")
a = torch.ones(3, 3, requires_grad=True)
c = a * a
b = torch.ones(3, 3, requires_grad=True)
e = b * b
f = SimulateBackwardError.apply(e)
reentrant_root = f.sum()
class ReentrantFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()
    @staticmethod
    def backward(ctx, grad):
        reentrant_root.backward()
        return grad
d = ReentrantFunc.apply(c)
E(lambda: d.sum().backward())
print(a.grad, b.grad)
class Err(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        raise ValueError('custom value error')
E(lambda: Err.apply(a).sum().backward())
class KeyErr(Err):
    @staticmethod
    def backward(ctx, g):
        return {}['k']
E(lambda: KeyErr.apply(a).sum().backward())
def bad_hook(g):
    raise TypeError('hook type error')
h = torch.ones(2, requires_grad=True)
h.register_hook(bad_hook)
E(lambda: (h * 2).sum().backward())
'''
PROGRAMS['ta_set_grad_enabled_nesting_and_pickle'] = PRE + r'''
import pickle
x = torch.tensor([1.], requires_grad=True)
with torch.set_grad_enabled(False):
    y = x * 2
print(y.requires_grad)
with torch.set_grad_enabled(True):
    y = x * 2
print(y.requires_grad)
with torch.set_grad_enabled(False):
    torch.set_grad_enabled(True)
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
with torch.no_grad():
    torch.set_grad_enabled(True)
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
with torch.enable_grad():
    torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.tensor([5., 6.])
for p in range(3):
    xc, yc = pickle.loads(pickle.dumps([x, y], protocol=p))
    print(xc, yc, xc.requires_grad, yc.requires_grad, xc.is_leaf)
z = x * 2
zl = pickle.loads(pickle.dumps(z))
print(zl, zl.requires_grad, zl.is_leaf, zl.grad_fn)
zc = pickle.loads(pickle.dumps(z.detach()))
print(zc.requires_grad)
v = x[0]
vc = pickle.loads(pickle.dumps(v.detach()))
print(vc, vc._base)
'''
PROGRAMS['ta_backward_copy_buffered_grads'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
y = torch.ones(2, 2, requires_grad=True)
a = x + 2
b = y + 2
c = x + 2
add1 = a + b
add2 = add1 + c
for _ in range(4):
    a = a * 2
    b = b * 2
    c = c * 2
branch = a + b + c
out = add2 + branch
out.backward(torch.ones(2, 2))
print(x.grad, y.grad)
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(None, input, None)
        return input * input
    @staticmethod
    def backward(ctx, grad_output):
        n1, input, n2 = ctx.saved_tensors
        print(n1, n2)
        return 2 * input * grad_output
x = torch.tensor([1., 2.], requires_grad=True)
MyFn.apply(x).sum().backward()
print(x.grad)
mu = torch.ones(1, requires_grad=True)
xx = torch.empty(1)
loss = 0
for i in range(3):
    xx.detach_()
    xx.copy_(mu + i)
    ft = torch.tensor([float(i)])
    multiplied = xx * ft
    loss += multiplied.sum()
loss.backward()
print(mu.grad, xx.grad_fn, loss.grad_fn)
'''
PROGRAMS['ta_anomaly_nan_0th_1th_outputs'] = PRE + r'''
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = f()
    for w in ws:  # (first and last lines of the traceback: PyTorch's has frames of its own files in between)
        lines = str(w.message).splitlines()
        print('W', w.category.__name__, lines[0], '|', lines[-1], '|', 'MyFunc.apply' in str(w.message), 'MyFunc2.apply' in str(w.message))
    return r
size = 4
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp1, inp2, fail_0th):
        ctx.fail_0th = fail_0th
        return inp1.sum(0, keepdim=True)
    @staticmethod
    def backward(ctx, gO):
        gI = gO.clone().expand(size)
        gI[0] = 0
        gI[0] /= 0
        if ctx.fail_0th:
            return gI, None, None
        else:
            return None, gI, None
inp = torch.rand(size, requires_grad=True)
out = MyFunc.apply(inp, inp, True)
out.backward()
print(inp.grad.isnan().tolist())
inp = torch.rand(size, requires_grad=True)
out = MyFunc.apply(inp, inp, True)
def r1():
    with torch.autograd.detect_anomaly():
        out.backward()
W(lambda: E(r1))
def r2():
    with torch.autograd.detect_anomaly():
        out = MyFunc.apply(inp, inp, False)
        out.backward()
W(lambda: E(r2))
class MyFuncN(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp1, fail_0th):
        ctx.fail_0th = fail_0th
        ctx.inp = inp1
        return inp1.sum(0, keepdim=True)
    @staticmethod
    def backward(ctx, gO):
        g = gO.clone().expand(size)
        gI = MyFunc2.apply(g * ctx.inp, g + ctx.inp, ctx.fail_0th)
        return gI, None
class MyFunc2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp1, inp2, fail_0th):
        ctx.fail_0th = fail_0th
        return inp1 * 2.0 + inp2
    @staticmethod
    def backward(ctx, gO):
        g1 = gO.clone()
        g2 = gO.clone()
        g1[0] = 0
        g2[0] = 0
        if ctx.fail_0th:
            g1[0] /= 0
        else:
            g2[0] /= 0
        return g1, g2, None
inp = torch.rand(size, requires_grad=True)
out = MyFuncN.apply(inp, True)
ginp, = torch.autograd.grad(out, (inp,), create_graph=True)
gsum = ginp.sum()
def r3():
    with torch.autograd.detect_anomaly():
        gsum.backward()
W(lambda: E(r3))
def r4():
    with torch.autograd.detect_anomaly():
        out = MyFuncN.apply(inp, False)
        ginp, = torch.autograd.grad(out, (inp,), create_graph=True)
        gsum = ginp.sum()
        gsum.backward()
W(lambda: E(r4))
def r5():
    with torch.autograd.detect_anomaly():
        a = torch.randn(5, requires_grad=True)
        d1 = a + 1
        d2 = d1 ** 2
        d1 += 1
        torch.autograd.grad(d2.sum(), a)
W(lambda: E(r5))
'''
PROGRAMS['ta_out_args_and_diagonal_double_backward'] = PRE + r'''
a = torch.randn(2, 2, requires_grad=True)
b = torch.randn(2, 2, requires_grad=True)
x = torch.zeros_like(a)
E(lambda: torch.mul(a, b, out=x))
with torch.no_grad():
    torch.mul(a, b, out=x)
print(torch.equal(x, a * b), x.requires_grad)
c = torch.randn(2, 2)
y = torch.zeros(2, 2, requires_grad=True)
E(lambda: torch.mul(c, c, out=y))
E(lambda: torch.add(c, 1, out=y))
E(lambda: torch.exp(a, out=torch.empty(2, 2)))
z = torch.empty(2, 2)
torch.exp(c, out=z)
print(z.requires_grad, z.grad_fn)
p = torch.randn(5, 6, requires_grad=True)
q = torch.diagonal(p) ** 2
d, = torch.autograd.grad(q.sum(), p, retain_graph=True, create_graph=True)
print(d.requires_grad, d.grad_fn)
net = torch.nn.Sequential(torch.nn.InstanceNorm2d(2), torch.nn.ReLU(True))
xx = torch.tensor([[[[1.0, 1.0]]]], requires_grad=True)
W(lambda: E(lambda: net(xx)))
inputs = torch.ones((1, 3, 4, 4), requires_grad=True)
tmp1 = (inputs + 1).view_as(inputs)
tmp2 = torch.nn.functional.threshold(tmp1, 0., 0., True)
prob = torch.sigmoid(tmp2)
gradients = torch.autograd.grad(outputs=prob, inputs=inputs, grad_outputs=torch.ones(prob.size()), create_graph=True, retain_graph=True)[0]
gp = gradients.sum()
gp.backward()
fn = gp.grad_fn.next_functions[0][0].next_functions[1][0]
print(fn.name(), gp.grad_fn, gp.grad_fn.next_functions)
print(inputs.grad.sum())
'''
PROGRAMS['ta_inplace_view_weak_grad_fn_and_relu_'] = PRE + r'''
a = torch.arange(10.0, requires_grad=True)
b = a.narrow(0, 0, 2).clone().view(-1)
b.relu_()
c = b.clone()
del b
import gc
gc.collect()
s = c.sum()
s.backward()
print(s, a.grad, c.grad_fn, c.grad_fn.next_functions[0][0])
a = torch.rand(10, requires_grad=True).narrow(0, 0, 10)
b = a.relu_() if False else None
E(lambda: a.relu_())
a2 = torch.rand(10, requires_grad=True).clone().narrow(0, 0, 10)
b = a2.relu_()
c = b.add_(100)
del b
E(lambda: c.sum().backward(torch.ones(1, requires_grad=True)))
E(lambda: c.sum().backward(torch.ones((), requires_grad=True)))
print(c.grad_fn, c._version)
'''
PROGRAMS['ta_reduce_dtype_grads'] = PRE + r'''
torch.manual_seed(0)
def test_reduction(op, has_no_dim, takes_dtype=True):
    x = torch.randn(3, 3, dtype=torch.float, requires_grad=True)
    if has_no_dim:
        grad1, = torch.autograd.grad([op(x)], [x])
        grad2, = torch.autograd.grad([op(x, dtype=torch.double)], [x])
        print(op.__name__, torch.equal(grad1, grad2), grad2.dtype, op(x, dtype=torch.double).grad_fn)
    gi = torch.randn(op(x, dim=0).shape, dtype=torch.float)
    grad1, = torch.autograd.grad([op(x, dim=0)], [x], gi)
    if takes_dtype:
        out = op(x, dim=0, dtype=torch.double)
        grad2, = torch.autograd.grad([out], [x], gi.double())
        print(out.grad_fn, out.grad_fn.next_functions)
    else:
        grad2, = torch.autograd.grad([op(x.double(), dim=0)], [x], gi.double())
    print(op.__name__, (grad1 - grad2).abs().max() < 1e-5, grad2.dtype)
test_reduction(torch.sum, True)
test_reduction(torch.prod, True)
test_reduction(torch.cumsum, False)
test_reduction(torch.cumprod, False)
test_reduction(torch.logcumsumexp, False, takes_dtype=False)
x = torch.randn(3, requires_grad=True)
E(lambda: torch.autograd.grad(x.sum(dtype=torch.double), x, torch.tensor(1.)))
E(lambda: x.double().sum().backward(torch.tensor(1., dtype=torch.float)))
print(x.grad)
'''
PROGRAMS['ta_version_counter_and_set_data'] = PRE + r'''
x = torch.randn(1, 2)
v0 = x._version
x.add_(1).add_(1)
print(x._version - v0)
xz = x[:]
print(x._version == xz._version)
xz.add_(1)
print(x._version, xz._version)
sv = x._version
x.data = torch.randn(2, 3)
print(x._version == sv, x.shape, xz.shape)
x.add_(1)
print(x._version, xz._version)
xz.add_(1)
print(x._version, xz._version)
a = torch.randn(1, 2)
b = torch.randn(1, 2)
bid = id(b)
b.data = a
print(bid == id(b), b.data_ptr() == a.data_ptr())
p = torch.ones(3, requires_grad=True)
q = p * 2
p.data = torch.zeros(3)
q.sum().backward()
print(p.grad, p, p.requires_grad)
r = torch.ones(2, requires_grad=True)
E(lambda: setattr(r, 'data', torch.ones(2, dtype=torch.int64)))
s = torch.ones(2)
s.data = torch.ones(2, dtype=torch.int64)
print(s.dtype, s._version)
t = torch.ones(2, requires_grad=True)
t.data = torch.ones(2, dtype=torch.float64)
print(t.dtype, t.requires_grad)
(t * 2).sum().backward()
print(t.grad.dtype)
'''
PROGRAMS['ta_no_grad_copy_grad_buffers'] = PRE + r'''
class MyFunc(torch.autograd.Function):
    static_grad_ptr = None
    @staticmethod
    def forward(ctx, inp1, inp2):
        return inp1 + inp2
    @staticmethod
    def backward(ctx, grad):
        MyFunc.static_grad_ptr = grad.data_ptr()
        return grad, grad
class NonContGradFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp1):
        ctx.size = inp1.size()
        return torch.tensor([1.])
    @staticmethod
    def backward(ctx, grad):
        return torch.ones(1).expand(ctx.size)
a = torch.randn(5, 6, requires_grad=True)
b = torch.randn(5, 6, requires_grad=True)
NonContGradFunc.apply(MyFunc.apply(a, b)).backward()
print(a.grad.data_ptr() == MyFunc.static_grad_ptr, b.grad.data_ptr() == MyFunc.static_grad_ptr, a.grad.stride(), a.grad.is_contiguous())
a.grad = b.grad = None
MyFunc.apply(a, b)[1][0].backward()
p_g = MyFunc.static_grad_ptr
p_a = a.grad.data_ptr()
p_b = b.grad.data_ptr()
print(p_a == p_b, p_a == p_g or p_b == p_g, p_a == p_g, p_b == p_g)
'''
# fixed: Variable._execution_engine.queue_callback
PROGRAMS['ta_reentrant_priority_and_callbacks'] = PRE + r'''
order = []
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, x):
        order.append("MyFunction")
        return x
class Reentrant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        with torch.enable_grad():
            ctx.x = torch.autograd.Variable(x.detach(), requires_grad=True)
            ctx.x = ctx.x - 1
        return ctx.x.detach()
    @staticmethod
    def backward(ctx, x):
        order.append("Reentrant")
        if ctx.x < 0:
            return x
        with torch.enable_grad():
            Reentrant.apply(ctx.x).backward()
        return x
a = MyFunction.apply(torch.tensor(6.0, requires_grad=True))
b = Reentrant.apply(torch.tensor(4.0, requires_grad=True))
v = a * b
v.backward()
print(order)
counter = {"inner": 0, "outer": 0}
from torch.autograd.function import once_differentiable
def run(depths):
    counter["inner"] = counter["outer"] = 0
    class MyFunc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            return input
        @staticmethod
        @once_differentiable
        def backward(ctx, input):
            if 1 in depths:
                torch.autograd.Variable._execution_engine.queue_callback(lambda: counter.__setitem__("inner", counter["inner"] + 1))
            return input
    class MyReentrantFunc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            return input
        @staticmethod
        @once_differentiable
        def backward(ctx, input):
            if 0 in depths:
                torch.autograd.Variable._execution_engine.queue_callback(lambda: counter.__setitem__("outer", counter["outer"] + 1))
            tmp_inp = input.detach().requires_grad_()
            with torch.enable_grad():
                tmp_out = (MyFunc.apply(tmp_inp)).sum()
            tmp_out.backward()
            return input
    t1 = torch.rand((3, 3), requires_grad=True)
    t2 = MyReentrantFunc.apply(t1)
    torch.autograd.backward([t2.sum()])
    print(depths, counter)
run([0]); run([1]); run([0, 1])
E(lambda: torch.autograd.Variable._execution_engine.queue_callback(lambda: None))
param = torch.ones(3, requires_grad=True)
handle = None
def manual_increase_gradient(grad):
    handle.remove()
    with torch.enable_grad():
        g = grad.detach().requires_grad_()
        out = ((g * 2) + 5).sum()
        out.backward()
    return g.grad + grad
tmp = param * param
handle = tmp.register_hook(manual_increase_gradient)
tmp.sum().backward()
print(param.grad)
'''
PROGRAMS['ta_views_codegen_view_as_unbind'] = PRE + r'''
torch.manual_seed(0)
def run_test(grad_mode, requires_grad):
    inp = torch.rand(2, requires_grad=requires_grad).clone()
    with torch.set_grad_enabled(grad_mode):
        out = inp.view_as(inp)
    print(out._is_view(), out.requires_grad, out.grad_fn)
    E(lambda: out.add_(1))
    inp = torch.rand(2, requires_grad=requires_grad).clone()
    with torch.set_grad_enabled(grad_mode):
        out = inp.unbind()
    print(out[0]._is_view(), out[1]._is_view(), out[0].grad_fn)
    E(lambda: out[0].add_(1))
    E(lambda: out[1].add_(1))
    inp = torch.rand(2, 2, requires_grad=requires_grad).clone()
    with torch.set_grad_enabled(grad_mode):
        out = inp.chunk(2)
    E(lambda: out[0].add_(1))
    with torch.set_grad_enabled(grad_mode):
        out = inp.split([1, 1])
    E(lambda: out[1].mul_(1))
    with torch.set_grad_enabled(grad_mode):
        out = inp.unsafe_chunk(2)
    E(lambda: out[1].mul_(1))
run_test(True, False)
run_test(True, True)
run_test(False, True)
run_test(False, False)
'''
PROGRAMS['ta_custom_fn_views_returned_inplace'] = PRE + r'''
bw_called = [0]
class IdOneOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, make_view):
        a = a.narrow(0, 0, 2) if make_view else a.clone()
        return a
    @staticmethod
    def backward(ctx, ga):
        bw_called[0] += 1
        return ga, None, None
class IdTwoOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, make_view):
        a = a.narrow(0, 0, 2) if make_view else a.clone()
        return a, a + b
    @staticmethod
    def backward(ctx, ga, gab):
        bw_called[0] += 1
        return ga + gab, gab, None
class ViewOfTemp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, make_view):
        ctx.save_for_backward(a)
        a = a.narrow(0, 0, 2) if make_view else a.clone()
        b = a.clone()
        return b.select(0, 0)
    @staticmethod
    def backward(ctx, grad):
        bw_called[0] += 1
        a, = ctx.saved_tensors
        res = torch.zeros_like(a)
        res.select(0, 0).copy_(grad)
        return res, None
for fn_id in ["one_output", "two_output", "view_of_temp"]:
    for inplace in [True, False]:
        for make_view in [True, False]:
            def fn(a, b):
                a = a.clone()
                b = b.clone()
                if fn_id == "two_output":
                    tmp1, tmp2 = IdTwoOutput.apply(a, b, make_view)
                    if inplace:
                        tmp1 += 3
                        tmp2 += 3
                    else:
                        tmp1 = tmp1 + 3
                        tmp2 = tmp2 + 3
                    tmp = tmp1 * tmp2
                else:
                    if fn_id == "one_output":
                        tmp = IdOneOutput.apply(a, b, make_view)
                    else:
                        tmp = ViewOfTemp.apply(a + b, make_view)
                    if inplace:
                        tmp += 3
                    else:
                        tmp = tmp + 3
                return tmp.sum()
            a = torch.ones(2, dtype=torch.double, requires_grad=True)
            b = torch.ones(2, dtype=torch.double, requires_grad=True)
            bw_called[0] = 0
            print(fn_id, inplace, make_view)
            def run():
                out = fn(a, b)
                print(out.grad_fn, out.grad_fn.next_functions[0][0])
                out.backward()
                return bw_called[0]
            W(lambda: E(run))
            print(a.grad, b.grad)
'''
# fixed: a view returned by a custom Function under no_grad gets the custom Function message
PROGRAMS['ta_custom_fn_inplace_views_mark_dirty'] = PRE + r'''
bw_called = [0]
class MyAdder(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a.add_(b)
        ctx.mark_dirty(a)
        return a
    @staticmethod
    def backward(ctx, grad):
        bw_called[0] += 1
        return grad, grad
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
c = MyAdder.apply(a.clone(), b)
print(c.grad_fn)
c.sum().backward()
c = MyAdder.apply(a.clone(), b)
c += 2
print(c.grad_fn, c.grad_fn.next_functions)
c.sum().backward()
c = MyAdder.apply(a.clone().view_as(a), b)
print(c.grad_fn, c._base is not None, c.grad_fn.next_functions)
c.sum().backward()
print(bw_called, a.grad, b.grad)
class MyAdderBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        c = 3 * a
        c.add_(b)
        ctx.mark_dirty(c)
        return c
    @staticmethod
    def backward(ctx, grad):
        grad = 3 * grad
        return grad, grad
W(lambda: print(MyAdderBad.apply(a.clone(), b).grad_fn))
class MyBadAdder(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a.add_(b)
        ctx.mark_dirty(a)
        return a, a + b
    @staticmethod
    def backward(ctx, ga, gab):
        bw_called[0] += 1
        return ga + gab, ga + gab
bw_called[0] = 0
c, d = MyBadAdder.apply(a.clone(), b)
(c * d).sum().backward()
c, d = MyBadAdder.apply(a.clone(), b)
c += 2
(c * d).sum().backward()
print(bw_called, a.grad, b.grad)
E(lambda: MyBadAdder.apply(a.clone().view_as(a), b))
class MyOutPlaceAdder(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a.add_(b)
        ctx.mark_dirty(a)
        return a.clone(), a + b
    @staticmethod
    def backward(ctx, ga, gab):
        return ga + gab, ga + 2 * gab
E(lambda: MyOutPlaceAdder.apply(a.clone().view_as(a), b))
class Alias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:]
    @staticmethod
    def backward(ctx, gx):
        return gx
inp = torch.rand(2, requires_grad=True)
with torch.no_grad():
    output = Alias.apply(inp)
print(output.requires_grad, output._is_view(), output._base is inp)
E(lambda: output.zero_())
class ComplexView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, idx):
        res = a.narrow(0, idx, 1)
        res = a.select(0, idx)
        ctx.save_for_backward(a)
        ctx.idx = idx
        return res
    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        res = torch.zeros_like(a)
        res.select(0, ctx.idx).copy_(grad)
        return res, None
out = ComplexView.apply(a.clone(), 1)
out.sum().backward()
out = ComplexView.apply(a.clone(), 1)
def f():
    global out
    out += 1
W(lambda: E(f))
print(out.grad_fn)
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp, inplace):
        view = inp.clone()[:3]
        if inplace:
            view += 2
        return view
    @staticmethod
    def backward(ctx, grad):
        return grad, None
base = torch.rand(10, requires_grad=True)
print(MyFn.apply(base, False).grad_fn.__class__.__name__, MyFn.apply(base, True).grad_fn.__class__.__name__)
'''
PROGRAMS['ta_power_function_and_integer_outputs'] = PRE + r'''
a = torch.tensor([0., 0., 0.])
b = torch.tensor([-1., 0., 1.], requires_grad=True)
c = torch.sum(a ** b)
c.backward()
print(c, b.grad)
b = torch.tensor([-1., 0., 1.], requires_grad=True)
c = torch.sum(0 ** b)
c.backward()
print(c, b.grad, c.grad_fn.next_functions)
b = torch.tensor([-1., 0., 1.], requires_grad=True)
c = torch.sum(2 ** b)
c.backward()
print(c, b.grad)
b = torch.tensor([-1., 0., 1.], requires_grad=True)
(b ** 0).sum().backward()
print(b.grad)
b.grad = None
(b ** 0.5).sum().backward()
print(b.grad)
b.grad = None
(b ** -1).sum().backward()
print(b.grad)
inp = torch.rand(4, requires_grad=True)
for out in [inp.argmax(), inp.argmin(), inp.argsort(), torch.searchsorted(inp.detach().sort().values, torch.rand((), requires_grad=True)), inp.sort().indices, inp.topk(2).indices, (inp > 0.5), inp.nonzero(), inp.long(), torch.bucketize(inp, torch.tensor([0.5]))]:
    print(out.dtype, out.requires_grad, out.grad_fn)
x = torch.randn(2, 2, 2, 2)
with torch.no_grad():
    x[x < 0.2] = float('nan')
for dt, odt in [(torch.float, torch.double), (torch.double, torch.float)]:
    with torch.no_grad():
        a = x.to(dt)
    a.requires_grad = True
    s = torch.sum(a, dtype=odt)
    s.backward()
    print(a.dtype, a.grad.dtype, s.dtype, s.grad_fn)
    n = a.nansum()
    print(n.grad_fn)
'''
PROGRAMS['ta_custom_function_error_messages'] = PRE + r'''
class BadFw(torch.autograd.Function):
    @staticmethod
    def backward(ctx, foo):
        return foo
class BadBw(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo.clone()
torch.manual_seed(0)
inp = torch.rand(1, requires_grad=True)
E(lambda: BadFw.apply(inp))
E(lambda: BadBw.apply(inp).sum().backward())
class BadBw2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo.clone()
    @staticmethod
    def backward(ctx, foo):
        return foo
    @staticmethod
    def vjp(ctx, foo):
        return foo
E(lambda: BadBw2.apply(inp).sum().backward())
class OnlyVjp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo.clone()
    @staticmethod
    def vjp(ctx, g):
        return g * 5
OnlyVjp.apply(inp).sum().backward()
print(inp.grad)
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo.clone()
    @staticmethod
    def backward(ctx, g):
        return g
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(2), torch.ones(2))
    E(lambda: NoJvp.apply(d))
class SetupNoForward(torch.autograd.Function):
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: SetupNoForward.apply(inp))
class SetupWithCtxForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: SetupWithCtxForward.apply(inp))
E(lambda: BadBw.forward(None, inp))
print(BadBw.forward(None, inp).requires_grad)
E(lambda: BadBw.backward(None, inp))
E(lambda: torch.autograd.Function.forward(None, inp))
E(lambda: torch.autograd.Function.backward(None, inp))
E(lambda: torch.autograd.Function.jvp(None, inp))
E(lambda: torch.autograd.Function.vmap(None, None, inp))
E(lambda: torch.autograd.Function.setup_context(None, (inp,), inp))
'''
# fixed: an op on inference tensors only (outside inference mode) skips autograd
PROGRAMS['ta_inference_mode_tensor_matrix'] = PRE + r'''
def inf(t):
    try:
        t._version
        return False
    except RuntimeError as e:
        return str(e)
print(torch.is_inference_mode_enabled())
@torch.inference_mode()
def func(x):
    print('enabled', torch.is_inference_mode_enabled())
    return x * x
for rg in (True, False):
    c = torch.ones(1, 2, 3, requires_grad=rg)
    d = func(c)
    print(torch.is_inference(d), d.requires_grad, inf(d))
with torch.inference_mode():
    c = torch.ones(1, 2, 3)
    tmp = torch.ones(1, 2, 3, requires_grad=True)
    print(c.requires_grad, torch.is_inference(c), tmp.requires_grad, torch.is_inference(tmp), tmp.is_leaf)
    print((tmp * 2).requires_grad, tmp.view(-1).requires_grad, torch.is_inference(tmp.view(-1)), tmp.view(-1)._is_view())
    tmp.add_(2); tmp.transpose_(0, 1)
    print(torch.is_inference(tmp), tmp.requires_grad, tmp.shape)
s = torch.ones(1, 2, 3, requires_grad=True)
a = s.clone()
out = a * a
with torch.inference_mode():
    a.add_(2)
print(torch.is_inference(a), a._version)
E(lambda: out.backward(torch.ones_like(out)))
for rg in (True, False):
    with torch.inference_mode():
        c = torch.ones(1, 2, 3, requires_grad=rg)
    fo = c * c
    print(torch.is_inference(fo), fo.requires_grad, fo.is_leaf, fo.grad_fn)
    for f in (lambda: c.exp(), lambda: c.sum(), lambda: c[0], lambda: c + c, lambda: torch.stack([c, c]), lambda: c * 2, lambda: c.mul(torch.tensor(2.))):
        r = f()
        print(torch.is_inference(r), r.requires_grad, r.is_leaf, type(r.grad_fn).__name__)
    E(lambda: c.add_(2))
    E(lambda: c.transpose_(0, 1))
    o = c.view(-1)
    print(torch.is_inference(o), o.requires_grad, o._is_view(), o.is_leaf)
'''
PROGRAMS['ta_inference_mode_normal_tensor_views'] = PRE + r'''
def run_inplace(fn):
    for rg in (True, False):
        s = torch.ones(1, 2, 3, requires_grad=rg)
        a = s.clone()
        with torch.inference_mode():
            fn(a)
            print(torch.is_inference(a), a.requires_grad, a.grad_fn)
            fn(a)
            v = a.view(-1)
            print(torch.is_inference(v), v.requires_grad, v._is_view())
        fn(a)
        print(torch.is_inference(a), a.requires_grad, a.grad_fn, a._version)
run_inplace(lambda x: x.add_(2))
run_inplace(lambda x: x.transpose_(0, 1))
for rg in (True, False):
    s = torch.ones(1, 2, 3, requires_grad=rg)
    a = s.clone()
    with torch.inference_mode():
        out = a.view(-1)
        print(torch.is_inference(out), out.requires_grad, out._is_view(), out.is_leaf)
        tmp = out.view(-1)
        print(torch.is_inference(tmp), tmp.requires_grad, tmp._is_view(), tmp.is_leaf)
        tmp.add_(2)
        print(torch.is_inference(tmp), tmp.requires_grad, a._version == tmp._version)
    E(lambda: tmp.is_leaf)
    E(lambda: tmp.grad_fn)
for rg in (True, False):
    s = torch.ones(1, 2, 3, requires_grad=rg)
    a = s.clone()
    with torch.inference_mode():
        out = a.view(-1)
    t2 = out * out
    print(torch.is_inference(t2), t2.requires_grad, t2.grad_fn)
    E(lambda: out.add_(2))
    t3 = out.view(2, 3)
    print(torch.is_inference(t3), t3.requires_grad, t3.grad_fn)
    E(lambda: t3.mul_(2))
for rg in (True, False):
    s = torch.ones(1, 2, 3, requires_grad=rg)
    a = s.clone()
    with torch.inference_mode():
        vo = a.view(-1)
    a.add_(2)
    E(lambda: vo.grad_fn)
    E(lambda: (vo * 2).sum())
'''
# fixed: an op on inference tensors only (outside inference mode) skips autograd; an in-place op refusing to save an inference tensor leaves its tensor unchanged
PROGRAMS['ta_inference_mode_mixed_tensors'] = PRE + r'''
for rg in (True, False):
    s = torch.ones(1, 2, 3, requires_grad=rg)
    with torch.inference_mode():
        c = torch.ones(1, 2, 3, requires_grad=rg)
    out = c.add(s)
    print(torch.is_inference(out), out.requires_grad, out.grad_fn)
    if rg:
        out.backward(torch.ones_like(out))
        print(c.grad, c.grad is not None and torch.is_inference(c.grad))
    E(lambda: c * s)
    E(lambda: torch.stack([s, c]))
    E(lambda: torch.cat([s, c]))
    E(lambda: s.exp() * c)
    a = s.clone()
    with torch.inference_mode():
        c2 = torch.ones(1, 2, 3)
    E(lambda: a.mul_(c2))
    E(lambda: torch.mul(s, s, out=c2))
    E(lambda: a.add_(c2))
    print(a._version, a.grad_fn, a[0, 0])
    with torch.inference_mode():
        c3 = torch.ones(2, requires_grad=True)
    b3 = torch.ones(2, requires_grad=True).clone()
    E(lambda: b3.mul_(c3))
    E(lambda: b3.addcmul_(c3, c3))
    E(lambda: b3[0].mul_(c3[0]))
    print(b3, b3._version)
    t1 = c2.view_as(s)
    print(torch.is_inference(t1), t1.requires_grad)
    t2 = s.view_as(c2)
    print(torch.is_inference(t2), t2.requires_grad, t2.grad_fn)
with torch.inference_mode():
    x = torch.ones(2)
E(lambda: x.requires_grad_())
print(x.requires_grad)
E(lambda: setattr(x, 'requires_grad', True))
print(torch.inference_mode().mode if hasattr(torch.inference_mode(), 'mode') else '', type(torch.inference_mode(False)).__name__)
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.no_grad():
    with torch.inference_mode():
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
E(lambda: torch.inference_mode(mode='yes'))
'''
PROGRAMS['ta_functional_vjp_err_checks'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
def foo(a):
    return 3 * a.narrow(0, 0, 3)
def bar(a):
    return 3 * a.narrow(0, 0, 3), "bar"
inp = torch.rand(4)
v = torch.ones(3)
E(lambda: autogradF.vjp(foo, (inp, 2), v))
E(lambda: autogradF.vjp(bar, inp, v))
E(lambda: autogradF.vjp(foo, inp))
E(lambda: autogradF.vjp(foo, inp, (torch.ones_like(inp), torch.ones_like(inp))))
E(lambda: autogradF.vjp(foo, inp, v[:2]))
print(autogradF.vjp(foo, inp, v)[1])
def foo2(a):
    return a.detach()
def bar2(a):
    return a.long().float().requires_grad_().clone()
v4 = torch.rand(4)
E(lambda: autogradF.vjp(foo2, inp, v4, strict=True))
print(autogradF.vjp(foo2, inp, v4, strict=False))
E(lambda: autogradF.vjp(bar2, inp, v4, strict=True))
print(autogradF.vjp(bar2, inp, v4, strict=False)[1])
def foo3(a):
    return a.clone()
inp.requires_grad_()
E(lambda: autogradF.vjp(foo3, inp, v4, create_graph=True, strict=True))
r = autogradF.vjp(foo3, inp, v4, create_graph=True, strict=False)
print(r[1], r[1].grad_fn, r[0].grad_fn)
def reducer(x):
    return x.sum(dim=1)
inputs = torch.rand(4, 4)
with torch.no_grad():
    res = autogradF.vjp(reducer, inputs, torch.ones(4))
print(res[0].grad_fn, res[1].grad_fn)
inputs.requires_grad_()
vv = torch.ones(4, requires_grad=True)
with torch.no_grad():
    res = autogradF.vjp(reducer, inputs, vv, create_graph=True)
print(res[0].grad_fn, res[1].grad_fn)
print(autogradF.vjp(lambda x: x.sum(), torch.rand(2, 2))[0].shape)
print(autogradF.vjp(lambda x: x.unsqueeze(0).repeat(4), torch.rand([]), torch.ones(4))[1].shape)
E(lambda: autogradF.vjp(lambda x: x.sum(), [torch.rand(2)]))
E(lambda: autogradF.vjp(lambda x: [x * 2], torch.rand(2), torch.ones(2)))
E(lambda: autogradF.vjp(lambda x: x * 2, torch.rand(2), [torch.ones(2)]))
E(lambda: autogradF.vjp(lambda x: x * 2, torch.rand(2), 'v'))
'''
PROGRAMS['ta_functional_jvp_jacobian_err_checks'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
def foo(a):
    return 3 * a.narrow(0, 0, 3)
def bar(a):
    return 3 * a.narrow(0, 0, 3), "bar"
inp = torch.rand(4)
v = torch.rand(4)
E(lambda: autogradF.jvp(foo, (inp, 2), v))
E(lambda: autogradF.jvp(bar, inp, v))
E(lambda: autogradF.jvp(foo, inp))
E(lambda: autogradF.jvp(foo, inp, (v, v)))
E(lambda: autogradF.jvp(foo, inp, v[:2]))
print(autogradF.jvp(foo, inp, v))
print(autogradF.jvp(lambda x: x.sum(), torch.rand(1)))
E(lambda: autogradF.jvp(lambda a: a.detach(), inp, v, strict=True))
print(autogradF.jvp(lambda a: a.detach(), inp, v, strict=False))
E(lambda: autogradF.jvp(lambda a: a.long().float().requires_grad_().clone(), inp, v, strict=True))
inp.requires_grad_()
E(lambda: autogradF.jvp(lambda a: a.clone(), inp, v, create_graph=True, strict=True))
print(autogradF.jvp(lambda a: a.clone(), inp, v, create_graph=True, strict=False)[1])
E(lambda: autogradF.jacobian(foo, (inp, 2)))
E(lambda: autogradF.jacobian(bar, inp))
print(autogradF.jacobian(foo, inp).shape)
E(lambda: autogradF.jacobian(lambda a: a.detach(), inp, strict=True))
print(autogradF.jacobian(lambda a: a.detach(), inp, strict=False).abs().sum())
E(lambda: autogradF.jacobian(lambda a: a.clone(), inp, create_graph=True, strict=True))
E(lambda: autogradF.jacobian(foo, inp, strict=True, vectorize=True))
E(lambda: autogradF.jacobian(foo, inp, strategy='foo'))
E(lambda: autogradF.jacobian(foo, inp, strategy='forward-mode'))
E(lambda: autogradF.jacobian(foo, inp, strategy='forward-mode', vectorize=True, create_graph=True))
print(autogradF.jacobian(foo, inp, strategy='forward-mode', vectorize=True).shape)
print(autogradF.jacobian(lambda x, y: (x * y, x + y), (torch.ones(2), torch.ones(2)))[1][0])
print(autogradF.jacobian(lambda x: x.sum(), torch.ones(2, 2), create_graph=True).grad_fn)
'''
PROGRAMS['ta_functional_hessian_hvp_vhp_err_checks'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
def foo(a):
    return 3 * a.narrow(0, 0, 3).exp().sum()
def bar(a):
    return 3 * a.narrow(0, 0, 3), "bar"
def bar2(a):
    return 3 * a.narrow(0, 0, 3)
def bar3(a):
    return 3 * a.narrow(0, 0, 3), 3 * a.narrow(0, 0, 3)
inp = torch.rand(4)
E(lambda: autogradF.hessian(foo, (inp, 2)))
E(lambda: autogradF.hessian(bar, inp))
E(lambda: autogradF.hessian(bar2, inp))
E(lambda: autogradF.hessian(bar3, inp))
print(autogradF.hessian(foo, inp).shape)
E(lambda: autogradF.hessian(lambda a: a.detach().sum(), inp, strict=True))
print(autogradF.hessian(lambda a: a.detach().sum(), inp, strict=False).abs().sum())
E(lambda: autogradF.hessian(lambda a: (a * 2).sum(), inp, strict=True))
E(lambda: autogradF.hessian(lambda a: a.long().float().requires_grad_().clone().sum(), inp, strict=True))
E(lambda: autogradF.hessian(foo, inp, strict=True, vectorize=True))
E(lambda: autogradF.hessian(foo, inp, outer_jacobian_strategy='foo'))
E(lambda: autogradF.hessian(foo, inp, outer_jacobian_strategy='forward-mode'))
print(autogradF.hessian(foo, inp, outer_jacobian_strategy='forward-mode', vectorize=True).shape)
v = torch.ones(4)
for api in (autogradF.vhp, autogradF.hvp):
    print(api.__name__)
    E(lambda: api(foo, (inp, 2), v))
    E(lambda: api(bar, inp, v))
    E(lambda: api(bar2, inp, v))
    E(lambda: api(foo, inp, torch.ones(3)))
    E(lambda: api(foo, inp))
    E(lambda: api(foo, inp, (v, v)))
    print(api(foo, inp, v))
    E(lambda: api(lambda a: a.detach().sum(), inp, v, strict=True))
    print(api(lambda a: a.detach().sum(), inp, v, strict=False))
    E(lambda: api(lambda a: (a * 2).sum(), inp, v, strict=True))
    print(api(lambda a: (a * 2).sum(), inp, v, strict=False))
    E(lambda: api(lambda a: a.long().float().requires_grad_().clone().sum(), inp, v, strict=True))
'''
PROGRAMS['ta_complex_view_funcs_inplace'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(2, 2, 2, dtype=torch.double, requires_grad=True)
y = x.detach().requires_grad_(True)
x0 = x.clone()
x1 = torch.view_as_complex(x0)
x2 = torch.view_as_real(x1)
x2.mul_(2)
print(x2.grad_fn, x1.grad_fn, x0.grad_fn)
x2.sum().backward()
y0 = y.clone()
y0.mul_(2)
y0.sum().backward()
print(torch.equal(x.grad, y.grad), x.grad[0])
def fn(a):
    b = a.clone()
    b1 = torch.view_as_complex(b)
    return b1.reshape(b1.numel())
x = torch.randn(2, 2, 2, dtype=torch.double, requires_grad=True)
y = x.detach().requires_grad_(True)
x0 = fn(x)
x0.mul_(2)
print(x0.grad_fn, x0.grad_fn.next_functions)
E(lambda: x0.sum().backward())
x0.sum().abs().backward()
fn(y).mul(2).sum().abs().backward()
print(torch.equal(x.grad, y.grad), x.grad[1])
def fn3(a, dim0_size=5):
    b = a.clone()
    b1 = b.reshape(dim0_size, 2)
    return torch.view_as_real(b1)
x = torch.randn(10, dtype=torch.cdouble, requires_grad=True)
y = x.detach().requires_grad_(True)
x0 = fn3(x)
x0.mul_(2)
print(x0.grad_fn, x0.dtype)
x0.sum().backward()
fn3(y).mul(2).sum().backward()
print(torch.equal(x.grad, y.grad), x.grad[:2])
x = torch.randn(2, 2, 2, dtype=torch.double)
x1 = torch.view_as_complex(x)
res = x1.unbind(0)
def add():
    r = res[0]
    r += torch.rand(2, requires_grad=True)
E(add)
x.requires_grad_(True)
x1 = torch.view_as_complex(x)
res = x1.unbind(0)
E(add)
def func(z):
    z_ = torch.view_as_complex(z)
    z_select = torch.select(z_, z_.dim() - 1, 0)
    z_select_real = torch.view_as_real(z_select)
    return z_select_real.sum()
z = torch.randn(3, 2, 2, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(func, [z]))
func(z).backward()
z1 = z.clone().detach().requires_grad_(True)
torch.select(z1, z1.dim() - 2, 0).sum().backward()
print(torch.equal(z.grad, z1.grad), z.grad[0])
'''
PROGRAMS['ta_complex_grads_conj_and_real_outputs'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
E(lambda: (z * z).backward(torch.ones(2)))
(z * z).sum().abs().backward()
print(z.grad)
z.grad = None
E(lambda: (z * z).sum().backward())
(z.abs() ** 2).sum().backward()
print(z.grad)
z.grad = None
(z.real * 2 + z.imag * 3).sum().backward()
print(z.grad)
z.grad = None
z.conj().abs().sum().backward()
print(z.grad)
w = torch.tensor([1., 2.], requires_grad=True)
c = torch.complex(w, w * 2)
print(c.grad_fn, c.grad_fn.next_functions)
c.abs().sum().backward(retain_graph=True)
print(w.grad)
E(lambda: torch.autograd.grad(c.sum(), w))
print(torch.autograd.grad(c.sum(), w, torch.tensor(1 + 1j), retain_graph=True))
print(torch.autograd.grad((c * c.conj()).real.sum(), w))
r = torch.view_as_real(z)
print(r.grad_fn, torch.view_as_complex(r).grad_fn)
a = torch.tensor([1 + 1j], requires_grad=True)
b = a.angle()
print(b, b.grad_fn)
b.backward(torch.ones(1))
print(a.grad)
'''
PROGRAMS['ta_graph_desc_double_backward_function'] = PRE + r'''
def graph_desc(fn):
    if fn is None:
        return 'None'
    result = type(fn).__name__ + '('
    next_functions = fn.next_functions
    for next_fn, _ in next_functions:
        result += graph_desc(next_fn)
        result += ', '
    if next_functions:
        result = result[:-2]
    return result + ')'
from torch.autograd.function import once_differentiable
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor1, pyscalar, tensor2):
        ctx.pyscalar = pyscalar
        ctx.save_for_backward(tensor1, tensor2)
        return tensor1 + pyscalar * tensor2 + tensor1 * tensor2
    @staticmethod
    def backward(ctx, grad_output):
        var1, var2 = ctx.saved_tensors
        return (grad_output + grad_output * var2, None, grad_output * ctx.pyscalar + grad_output * var1)
class MyOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor1, pyscalar, tensor2):
        ctx.pyscalar = pyscalar
        ctx.save_for_backward(tensor1, tensor2)
        return tensor1 + pyscalar * tensor2 + tensor1 * tensor2
    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        print('grad enabled', torch.is_grad_enabled())
        t1, t2 = ctx.saved_tensors
        return (grad_output + grad_output * t2, None, grad_output * ctx.pyscalar + grad_output * t1)
for cls in (MyFunction, MyOnce):
    x = torch.ones(2, 2, requires_grad=True)
    y = torch.full((2, 2), 3., requires_grad=True)
    result = cls.apply(x, 2, y)
    go = torch.ones((), requires_grad=True)
    result.sum().backward(go, create_graph=True)
    print(x.grad, y.grad)
    print(graph_desc(x.grad.grad_fn))
    print(graph_desc(y.grad.grad_fn))
    E(lambda: x.grad.sum().backward())
'''
PROGRAMS['ta_custom_fn_non_tensor_inputs_outputs'] = PRE + r'''
from torch.autograd.function import once_differentiable
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t1, t2, scale, t3):
        t4 = t1 + t2 * t3
        t5 = t1 * t2 + t3
        t4 *= scale
        t5 *= scale
        ctx.scale = scale
        ctx.save_for_backward(t1, t2, t3)
        return scale, t4, None, True, t5, "bar", t1
    @staticmethod
    @once_differentiable
    def backward(ctx, *grads):
        print(len(grads), [g is None for g in grads])
        scale = ctx.scale
        var1, var2, var3 = ctx.saved_tensors
        return (grads[1] * scale + grads[4] * var2 * scale + grads[6],
                grads[1] * var3 * scale + grads[4] * var1 * scale, None,
                grads[1] * var2 * scale + grads[4] * scale)
t1 = torch.tensor([0.5, 0.25], dtype=torch.double, requires_grad=True)
t2 = torch.tensor([1.5, 2.0], dtype=torch.double, requires_grad=True)
t3 = torch.tensor([3.0, 1.0], dtype=torch.double)
res = MyFunction.apply(t1, t2, 3, t3)
print(res)
print([getattr(r, 'grad_fn', '-') for r in res])
torch.autograd.backward([res[1].sum(), res[4].sum(), res[6].sum()])
print(t1.grad, t2.grad, t3.grad)
def foo(t1, t2, t3):
    res = MyFunction.apply(t1, t2, 3, t3)
    return res[1], res[4], res[6]
print(torch.autograd.gradcheck(foo, (t1, t2, t3)))
class NoTensors(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t1, t2, scale, t3):
        t4 = t1 + t2 * t3
        t5 = t1 * t2 + t3
        t4 *= scale
        t5 *= scale
        return scale, t4, None, True, t5, "bar", t1
    @staticmethod
    @once_differentiable
    def backward(ctx, *args):
        return (args[0], args[1], None, args[2])
print(NoTensors.apply(0.5, 0.25, 3, 2.0))
class TensorsNoGrad(NoTensors):
    pass
print(TensorsNoGrad.apply(torch.ones(1), 0.25, 3, torch.ones(1)))
'''
# fixed: heaviside refuses a forward-AD tangent
PROGRAMS['ta_not_implemented_grad_and_fwad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
a = torch.tensor([1., 2.], requires_grad=True)
y = torch.nextafter(a, a).sum()
print(y.grad_fn, y.grad_fn.next_functions)
E(lambda: y.backward())
b = torch.tensor([1., 2.], requires_grad=True)
for f in [lambda t: t.floor(), lambda t: torch.ceil(t), lambda t: t.sign(), lambda t: t.round(), lambda t: torch.fmod(t, 1.5), lambda t: torch.remainder(t, 1.5), lambda t: torch.heaviside(t, t)]:
    out = f(b)
    print(out.grad_fn)
    E(lambda: torch.autograd.grad(out.sum(), b))
x = torch.tensor([1., 2., 3.])
v = torch.tensor([0.5, 0.5, 0.5])
mat = torch.ones(2, 3)
with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, v)
    for f in [lambda: torch.mv(mat, dual_x), lambda: torch.nextafter(dual_x, dual_x), lambda: dual_x.floor(), lambda: torch.heaviside(dual_x, dual_x)]:
        try:
            r = f()
            print(fwAD.unpack_dual(r).tangent)
        except Exception as e:
            print(type(e).__name__, e)
'''
PROGRAMS['ta_accumulate_grad_inplace_vs_outofplace'] = PRE + r'''
torch.manual_seed(0)
grad_output = torch.ones(2, 2)
def compute_grad(create_graph):
    x = torch.randn(2, 2, requires_grad=True)
    y = x + 2
    y.backward(grad_output, retain_graph=True)
    x_grad = x.grad
    x_grad_clone = x.grad.clone()
    y.backward(grad_output, create_graph=create_graph)
    return x_grad, x_grad_clone, x.grad
for cg in (False, True):
    g, c, now = compute_grad(cg)
    print(g, c, now is g, now.grad_fn)
for cg in (False, True):
    params = torch.tensor([1.5, 1.5]).requires_grad_()
    params.grad = torch.tensor([1.5, 1.5])
    saved = params.grad
    params.backward(torch.tensor([1.5, 1.5]), create_graph=cg)
    print(id(saved) == id(params.grad), params.grad, saved)
dummy = torch.empty(1)
dummy.requires_grad_()
W(lambda: dummy.grad)
dummy = dummy.clone()
W(lambda: dummy.grad)
dummy.retain_grad()
W(lambda: dummy.grad)
a = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
s, logdet = a.slogdet()
print(s.requires_grad, logdet.requires_grad, s.grad_fn, logdet.grad_fn)
E(lambda: torch.autograd.grad(s, a))
'''
PROGRAMS['ta_grad_empty_inputs_and_unreachable_nodes'] = PRE + r'''
x = torch.tensor([1.0], requires_grad=True)
E(lambda: torch.autograd.grad(2 * x, [], grad_outputs=torch.tensor([1.0])))
E(lambda: torch.autograd.grad(2 * x, (), grad_outputs=torch.tensor([1.0])))
E(lambda: torch.autograd.backward(2 * x, torch.tensor([1.0]), inputs=()))
E(lambda: (2 * x).backward(torch.tensor([1.0]), inputs=[]))
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, x):
        print('MyFunc backward should not run')
        return x
xx = MyFunc.apply(torch.ones(1, requires_grad=True) * 2)
y = torch.ones(1, requires_grad=True)
print(torch.autograd.grad(xx, (y,), allow_unused=True))
xx = MyFunc.apply(torch.ones(1, requires_grad=True) * 2)
z = torch.ones(1, requires_grad=True)
print(torch.autograd.grad(xx + z, (y, z), allow_unused=True))
xx = MyFunc.apply(torch.ones(1, requires_grad=True) * 2)
torch.autograd.backward(xx, inputs=(y,))
print(y.grad)
a = torch.rand(4, 0, requires_grad=True)
b = torch.rand(4, 1, requires_grad=True)
c = a + b
print(c.shape, c.grad_fn)
c.sum().backward()
print(b.grad, a.grad)
bn = torch.nn.BatchNorm1d(5, affine=False)
bn.double()
bn.eval()
counter = [0]
def bw_hook(grad):
    counter[0] += 1
    return grad * 2
xb = torch.ones(5, 5, dtype=torch.double, requires_grad=True)
zb = bn(xb)
print(zb.grad_fn)
zb.register_hook(bw_hook)
zb.sum().backward()
print(counter, xb.grad[0])
'''
PROGRAMS['ta_hessian_vector_and_grad_shapes'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.tensor([[0.5, -1.], [2., 0.]], requires_grad=True)
z = x ** 2 + y * x + y ** 2
z.backward(torch.ones(2, 2), create_graph=True)
print(x.grad, y.grad)
grad_sum = 2 * x.grad + y.grad
x_hv = torch.autograd.grad(outputs=[grad_sum], grad_outputs=[torch.ones(2, 2)], inputs=[x], create_graph=True)
print(x_hv, x.grad)
E(lambda: torch.autograd.grad(outputs=[grad_sum], grad_outputs=[torch.ones(2)], inputs=[x], create_graph=True))
E(lambda: torch.autograd.grad(outputs=[grad_sum], grad_outputs=[torch.ones(2, 2, dtype=torch.double)], inputs=[x], retain_graph=True))
grad_sum.backward(torch.ones(2, 2))
print(x.grad, y.grad)
x_init = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
xx = x_init
def fn(x):
    return x ** 2 + y * x + y ** 2
for _ in range(3):
    grad_x, = torch.autograd.grad(fn(xx), xx, grad_outputs=torch.ones(2, 2), create_graph=True)
    print(grad_x.grad_fn, x_init.grad)
    xx = xx + 0.05 * grad_x
print(fn(xx).sum() > fn(x_init).sum())
xx.backward(torch.ones(2, 2))
print(x_init.grad)
'''
PROGRAMS['ta_grad_mode_coroutines_throw_close'] = PRE + r'''
class UnrecoverableException(Exception):
    pass
class SecondaryException(Exception):
    pass
@torch.no_grad()
def coro_no_grad(n=10):
    has_raised = False
    for i in range(n):
        try:
            print('in no_grad coro', torch.is_grad_enabled())
            yield (-i if has_raised else i)
        except UnrecoverableException:
            print('caught in no_grad coro', torch.is_grad_enabled())
            raise SecondaryException
@torch.enable_grad()
def coro_enable_grad(n=10):
    has_raised = False
    for i in range(n):
        try:
            print('in enable_grad coro', torch.is_grad_enabled())
            yield (-i if has_raised else i)
        except UnrecoverableException:
            print('caught in enable_grad coro', torch.is_grad_enabled())
            raise SecondaryException
with torch.enable_grad():
    coro = coro_no_grad()
    print(next(coro), torch.is_grad_enabled())
    E(lambda: coro.throw(UnrecoverableException))
    print(torch.is_grad_enabled())
with torch.no_grad():
    coro = coro_enable_grad()
    print(next(coro), torch.is_grad_enabled())
    E(lambda: coro.throw(UnrecoverableException))
    print(torch.is_grad_enabled())
@torch.no_grad()
def coro_exit(state):
    for i in range(10):
        try:
            yield i
        except GeneratorExit:
            state.append(('exit', torch.is_grad_enabled()))
            raise
state = []
with torch.enable_grad():
    coro = coro_exit(state)
    for i in range(3):
        next(coro)
    coro.close()
print(state, torch.is_grad_enabled())
@torch.inference_mode()
def gen_inf():
    yield torch.is_inference_mode_enabled()
    yield torch.ones(1).is_inference()
print(list(gen_inf()), torch.is_inference_mode_enabled())
@torch.set_grad_enabled(False)
def gen_sge():
    yield torch.is_grad_enabled()
print(list(gen_sge()), torch.is_grad_enabled())
'''
# fixed: torch.set_warn_always(True) gives autograd's once-per-process warnings every time
PROGRAMS['ta_warn_always_create_graph'] = PRE + r'''
prev = torch.is_warn_always_enabled()
print(prev)
torch.set_warn_always(True)
print(torch.is_warn_always_enabled())
b = torch.tensor([1., 2., 3.], requires_grad=True, dtype=torch.double)
c = b * b
c.backward(torch.ones_like(c), create_graph=True)
b.grad = None
c.backward(torch.ones_like(c), create_graph=True)
b.grad = None
torch.autograd.grad(c, b, torch.ones_like(c), create_graph=True)
x = torch.ones(2, requires_grad=True)
print(float(x[0] * 2))
print(float(x[0] * 2))
torch.set_warn_always(prev)
print(torch.is_warn_always_enabled())
'''
PROGRAMS['ta_indexing_grads_many_indices'] = PRE + r'''
def check_index(y, idx):
    if y.grad is not None:
        with torch.no_grad():
            y.grad.zero_()
    v = y[idx]
    v.sum().backward()
    print(type(idx).__name__, v.shape, v.grad_fn.name(), y.grad.flatten().tolist())
x = torch.arange(1., 17).view(4, 4)
y = torch.autograd.Variable(x, requires_grad=True)
for idx in [1, (1, 1), slice(1, None), slice(None, 2), (slice(None, 2), 2), (slice(1, 2), 2), (1, slice(2, None)),
            (slice(None, None), slice(2, None)), torch.LongTensor([0, 2]), torch.tensor([[True, False, True, False]] * 4),
            (Ellipsis, slice(2, None)), ([0], [0]), ([1, 2, 3], [0]), ([1, 2], [2, 1]),
            ([[1, 2], [3, 0]], [[0, 1], [2, 3]]), (slice(None), [2, 3]), ([2, 3], slice(None)), [0], ([0],), None, (None, 1)]:
    check_index(y, idx)
x = torch.arange(1., 49).view(4, 3, 4)
y = torch.autograd.Variable(x, requires_grad=True)
for idx in [(slice(None), [0], [0]), ([0], [0], slice(None)), (slice(None), [0, 1, 2], [0]), ([0, 1, 2], [0], slice(None)),
            (slice(None), [[1, 2], [2, 0]], [[0, 1], [2, 3]]), (slice(None), slice(None), [2, 1]), ([0], Ellipsis),
            ([1, 2], [0, 1], Ellipsis), (Ellipsis, [1, 2], [0, 1]), (torch.LongTensor([0, 1]), Ellipsis)]:
    check_index(y, idx)
x = torch.arange(1., 17).view(4, 4)
y = torch.autograd.Variable(x, requires_grad=True)
y[torch.LongTensor([1, 1, 3, 2, 1, 2])].sum().backward()
print(y.grad)
y.grad = None
y[[[1, 1, 3, 2, 1, 2], [0]]].sum().backward()
print(y.grad)
y.grad = None
y[[[[1, 2], [0, 0]], [[0, 1], [1, 1]]]].sum().backward()
print(y.grad)
'''
# fixed: torch.set_warn_always(True) gives autograd's once-per-process warnings every time
PROGRAMS['ta_warn_always_layout_contract'] = PRE + r'''
torch.set_warn_always(True)
for i in range(2):
    w = torch.ones(3, 2).t().requires_grad_()
    w.grad = torch.zeros(2, 3)
    (w * 2).sum().backward()
    print(w.grad.stride())
torch.set_warn_always(False)
'''
PROGRAMS['ta_subgradients_max_min_norm_pow'] = PRE + r'''
def run_test(f, a, b):
    a = torch.tensor(a, requires_grad=True)
    b = torch.tensor(b, requires_grad=True)
    z = f(a, b)
    z.sum().backward()
    print(f.__name__, z.grad_fn, a.grad, b.grad)
run_test(torch.maximum, [0., 1., 2.], [1., 1., 1.])
run_test(torch.minimum, [0., 1., 2.], [1., 1., 1.])
run_test(torch.max, [0., 1., 2.], [1., 1., 1.])
run_test(torch.fmax, [0., 1., float('nan')], [1., 1., 1.])
run_test(torch.fmin, [0., 1., float('nan')], [1., 1., 1.])
for size, deg in [((4,), 2), ((3, 3), 2), ((4,), 3), ((4,), 1), ((4,), 1.5), ((4,), float('inf')), ((4,), 0), ((4,), -1)]:
    inp = torch.zeros(*size, requires_grad=True)
    out = inp.norm(deg)
    out.backward()
    print(deg, out, out.grad_fn, inp.grad)
inf = float('inf')
for inp, dim in [([0., 0., 0.], None), ([1., 0., 1.], None), ([[1., 0., 1.], [0., 1., 1.]], None), ([[1., 0., 1.], [0., 1., 0.]], (1,)), ([[[1., 1.], [1., 1.]], [[1., 1.], [1., 1.]]], (0, 2))]:
    x = torch.tensor(inp, requires_grad=True)
    out = x.norm(inf, dim=dim, keepdim=True)
    out.backward(torch.ones(out.size()))
    print(x.grad)
for size, e in [((4,), torch.zeros(4)), ((2, 2), torch.zeros(2, 2)), ((4,), 0)]:
    inp = torch.zeros(*size, requires_grad=True)
    inp.pow(e).sum().backward()
    print(inp.grad)
a = torch.arange(1, 5, dtype=torch.double).view(2, 2).requires_grad_()
print(torch.autograd.gradcheck(lambda a: torch.pow(2, a), (a,)))
s = torch.tensor([0.0, torch.finfo(torch.double).tiny, 1.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(torch.sinc, s))
torch.sinc(s).sum().backward()
print(s.grad)
sg = torch.tensor([0.5, 1.5], dtype=torch.double)
xg = torch.tensor([0.25, 2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(torch.igamma, (sg, xg)), torch.autograd.gradgradcheck(torch.igamma, (sg, xg)))
E(lambda: torch.igamma(sg.requires_grad_(), xg).sum().backward())
'''
PROGRAMS['ta_var_mean_and_broadcast_tensors_grads'] = PRE + r'''
torch.manual_seed(0)
from copy import deepcopy
input1 = torch.randn(2, 3, 4, 2, requires_grad=True)
input2 = deepcopy(input1)
var1, mean1 = torch.var_mean(input1, dim=[1, 3], keepdim=False)
var2 = input2.var(dim=[1, 3], keepdim=False)
mean2 = input2.mean(dim=[1, 3], keepdim=False)
print(var1.grad_fn, mean1.grad_fn, var2.grad_fn)
grad = torch.randn(2, 4)
r1 = var1 * var1 * mean1 * mean1
r2 = var2 * var2 * mean2 * mean2
print(torch.allclose(r1, r2, rtol=0.01, atol=0.0))
torch.autograd.backward(r1, grad)
torch.autograd.backward(r2, grad)
print(torch.allclose(input1.grad, input2.grad, rtol=0.01, atol=0.0), input2.requires_grad, input2.is_leaf)
args = (torch.randn(3, dtype=torch.double, requires_grad=True), torch.randn(1, 2, 1, dtype=torch.double, requires_grad=True),
        torch.randn(1, 1, dtype=torch.double, requires_grad=True), torch.randn(2, 1, 1, dtype=torch.double, requires_grad=True))
outs = torch.broadcast_tensors(*args)
print([o.shape for o in outs], [o.grad_fn for o in outs][:2])
print(torch.autograd.gradcheck(lambda a, b, c, d: torch.broadcast_tensors(a, b, c, d), args))
print(torch.autograd.gradcheck(lambda a, b, c: torch.block_diag(a, b, c), (torch.randn(1, 2, dtype=torch.double, requires_grad=True), torch.randn(2, 2, dtype=torch.double, requires_grad=True), torch.randn(3, 2, dtype=torch.double, requires_grad=True))))
e0 = torch.randn(0, dtype=torch.double, requires_grad=True)
e1 = torch.randn(2, 2, dtype=torch.double, requires_grad=True)
c = torch.cat((e0, e1))
print(c.shape, c.grad_fn)
c.backward(torch.ones(2, 2, dtype=torch.double))
print(e0.grad, e1.grad)
print(torch.autograd.gradcheck(lambda a, b: torch.cat((a, b)), (torch.randn(0, 2, dtype=torch.double, requires_grad=True), e1)))
inp = torch.randn(4, requires_grad=True)
tmp = inp.view(4, 1)
out = tmp.view(4)
my_list = [tmp]
my_list.append(my_list)
del tmp
import gc
gc.collect()
out.backward(torch.ones(4))
print(inp.grad, out.grad_fn, out.grad_fn.next_functions)
'''
# fixed: torch.autograd._profiler_enabled
PROGRAMS['ta_profiler_events_and_record_function'] = PRE + r'''
from torch.autograd.profiler import profile, record_function
x = torch.ones(3, 3)
with profile() as p:
    print(torch.autograd._profiler_enabled())
    y = x * 2 + 4
print(torch.autograd._profiler_enabled())
names = [e.name for e in p.function_events]
print('aten::mul' in names, 'aten::add' in names)
def forward(x):
    with record_function("outer"):
        y = x * 2 + 4
        with record_function("inner"):
            y = y - 1
    y = y / 1
forward(x)
with profile() as p:
    forward(x)
important = ['outer', 'aten::mul', 'aten::add', 'inner', 'aten::sub', 'aten::div']
idx = 0
for info in p.function_events:
    if info.name == important[idx]:
        idx += 1
    if idx == len(important):
        break
print(idx)
@record_function('my_func')
def f(a, b):
    return a + b
with profile() as p:
    f(1, 2)
print('my_func' in str(p), 'my_func' in [e.name for e in p.function_events])
rf = record_function("outer")
rf.__enter__()
with record_function("inner"):
    rf.__exit__(None, None, None)
with record_function("inner"):
    rf.__enter__()
rf.__exit__(None, None, None)
print('ok')
with profile() as p:
    a = torch.ones(2, 2, requires_grad=True)
    b = (a * a).sum()
    b.backward()
evs = [e.name for e in p.function_events]
print('aten::mul' in evs, 'aten::sum' in evs, any('MulBackward0' in n for n in evs), any('SumBackward0' in n for n in evs))
'''
# fixed: a 0-dim tensor as a number argument (threshold); torch.autograd.SavedTensor() refused
PROGRAMS['ta_grad_fn_attr_bindings'] = PRE + r'''
a = torch.ones(1, requires_grad=True)
b = torch.ones(1, requires_grad=True)
out = torch.stack([a, b], dim=0)
print(out.grad_fn._saved_dim, type(out.grad_fn._saved_dim).__name__, [n for n in dir(out.grad_fn) if not n.startswith('__')and 'saved' in n and 'get' not in n and 'read' not in n])
E(lambda: out.grad_fn._saved_tensors)
out.sum().backward()
print(out.grad_fn._saved_dim)
a = torch.ones(2, 2, requires_grad=True)
indices = torch.tensor([0, 1])
out = a[:, indices]
print(out.grad_fn._saved_indices, out.grad_fn._saved_self_sym_sizes)
out.grad_fn._raw_saved_indices[1].register_hooks(lambda x: x, lambda x: x)
E(lambda: out.grad_fn._raw_saved_indices[0].register_hooks(lambda x: x, lambda x: x))
a = torch.ones(2, 2, requires_grad=True)
out = a * a
out.grad_fn._raw_saved_self.register_hooks(lambda x: x, lambda x: x)
out.sum().backward()
E(lambda: out.grad_fn._raw_saved_self.register_hooks(lambda x: x, lambda x: x))
a = torch.ones(1, 1, 2, requires_grad=True)
for kw in (dict(size=4), dict(scale_factor=0.5), dict(scale_factor=1.5, recompute_scale_factor=True), dict(size=3, align_corners=True)):
    out = torch.nn.functional.interpolate(a, mode="linear", **kw)
    print(type(out.grad_fn).__name__, {n: getattr(out.grad_fn, n) for n in dir(out.grad_fn) if n.startswith('_saved')})
b4 = torch.ones(1, 1, 2, 2, requires_grad=True)
for mode in ("nearest", "bilinear", "bicubic", "nearest-exact", "area"):
    out = torch.nn.functional.interpolate(b4, scale_factor=2, mode=mode)
    print(type(out.grad_fn).__name__, {n: getattr(out.grad_fn, n) for n in dir(out.grad_fn) if n.startswith('_saved')})
a = torch.ones(2, 2, requires_grad=True)
out = torch.pdist(a, p=1)
print(out.grad_fn._saved_p, type(out.grad_fn._saved_p).__name__)
a = torch.ones(1, 1, 2, requires_grad=True)
print(torch.logit(a, 1.).grad_fn._saved_eps, torch.logit(a).grad_fn._saved_eps)
a = torch.ones(1, 1, requires_grad=True)
q, r = torch.linalg.qr(a, mode="reduced")
print(q.grad_fn._saved_mode)
a = torch.tensor([1.], requires_grad=True)
print(torch.div(a, 2., rounding_mode="trunc").grad_fn._saved_rounding_mode, torch.div(a, 2., rounding_mode=None).grad_fn._saved_rounding_mode)
x = torch.zeros(5, requires_grad=True)
for th in [1., 1, False, torch.tensor(0.5), torch.tensor(2, dtype=torch.int64)]:
    o = torch.threshold(x, threshold=th, value=th)
    print(repr(o.grad_fn._saved_threshold), type(o.grad_fn._saved_threshold).__name__)
print(isinstance(o.grad_fn._raw_saved_result if hasattr(o.grad_fn, '_raw_saved_result') else o.grad_fn._raw_saved_self, torch.autograd.SavedTensor))
a = torch.ones(2, 2, requires_grad=True)
print(a.as_strided((3,), (1,), 1).grad_fn._saved_storage_offset, a.as_strided((3,), (1,)).grad_fn._saved_storage_offset)
a = torch.ones(2, requires_grad=True)
out = torch.tanh(a)
print(torch.equal(out, out.grad_fn._saved_result))
a = torch.ones(3, 5, requires_grad=True)
b = torch.tensor([1, 0, 4])
out = torch.nn.NLLLoss()(a, b)
print(out.grad_fn._saved_weight)
out = torch.nn.NLLLoss(weight=torch.ones((5,)))(a, b)
print(out.grad_fn._saved_weight)
out.sum().backward()
E(lambda: out.grad_fn._saved_weight)
E(lambda: torch.autograd.SavedTensor())
'''
# fixed: a queue_callback callback queuing another one
PROGRAMS['ta_custom_function_saved_tensors_raw'] = PRE + r'''
def getFn(save=True):
    class MyFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            if save:
                ctx.save_for_backward(x, None)
            return x
        @staticmethod
        def backward(ctx, g):
            return g
    return MyFn
a = torch.tensor([1., 2.], requires_grad=True)
y = getFn(True).apply(a)
print(y.grad_fn.saved_tensors)
saved = y.grad_fn._raw_saved_tensors
print(type(saved).__name__, len(saved), type(saved[0]).__name__, type(saved[1]).__name__)
E(lambda: saved[1].register_hooks(lambda x: x, lambda x: x))
E(lambda: saved[0].register_hooks(lambda x: x))
E(lambda: saved[0].register_hooks(1, 1))
saved[0].register_hooks(lambda x: x, lambda x: x)
E(lambda: saved[0].register_hooks(lambda x: x, lambda x: x))
y.sum().backward()
del saved
E(lambda: y.grad_fn._raw_saved_tensors)
E(lambda: y.grad_fn.saved_tensors)
y = getFn(False).apply(a)
print(y.grad_fn.saved_tensors, y.grad_fn._raw_saved_tensors)
called = [0]
def callback_final():
    called[0] += 1
def callback_adds_callback():
    called[0] += 1
    torch.autograd.Variable._execution_engine.queue_callback(callback_final)
from torch.autograd.function import once_differentiable
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return input
    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        torch.autograd.Variable._execution_engine.queue_callback(callback_adds_callback)
        return grad
b = MyFunc.apply(torch.ones(2, requires_grad=True))
b.sum().backward()
print(called)
from torch.utils.checkpoint import checkpoint
aa = torch.ones(2, 2, requires_grad=True)
def bad():
    bb = checkpoint(torch.exp, aa, use_reentrant=True).sum()
    torch.autograd.grad(bb, (aa,))
E(bad)
c = checkpoint(torch.exp, aa, use_reentrant=True).sum()
c.backward()
print(aa.grad)
'''
# fixed: .grad of a view written in place (its grad_fn made when next read) warns as a non-leaf's
PROGRAMS['ta_grad_warning_views_written_in_place'] = PRE + r'''
x = torch.ones(2, requires_grad=True).clone()
with torch.no_grad():
    v = x[:1]
x.mul_(2)
E(lambda: v.grad_fn)
print(v.grad)
y = torch.ones(3, requires_grad=True).clone()
w = y[:2]
w.mul_(2)
print(w.grad)
y.mul_(3)
print(w.grad)
print(w.grad_fn)
print(w.grad)
'''
# fixed: a view returned by a custom Function under no_grad gets the custom Function message
PROGRAMS['ta_custom_fn_view_outputs_grad_modes'] = PRE + r'''
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
class Alias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:]
    @staticmethod
    def backward(ctx, g):
        return g
class AliasND(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v = x[:]
        ctx.mark_non_differentiable(v)
        return v
    @staticmethod
    def backward(ctx, g):
        return g
for F in (Id, Alias, AliasND):
    for rg in (True, False):
        for gm in (False, True):
            x = torch.ones(2, requires_grad=rg).clone() if rg else torch.ones(2)
            with torch.set_grad_enabled(gm):
                o = F.apply(x)
            print(F.__name__, rg, gm, o is x, o._base is x, o.requires_grad, o.grad_fn is not None, o._is_view())
            E(lambda: o.zero_())
            with torch.no_grad():
                E(lambda: o.mul_(2))
'''
# fixed: ops on inference tensors only (outside inference mode) skip autograd: no grad_fn, no leaf error, resize_ allowed in inference mode
PROGRAMS['ta_inference_tensor_requiring_grad_outside'] = PRE + r'''
def show(f):
    try:
        r = f()
        print('ok', r.requires_grad, type(r.grad_fn).__name__, torch.is_inference(r), r.is_leaf)
    except Exception as e:
        print(type(e).__name__, e)
with torch.inference_mode():
    c = torch.ones(2, requires_grad=True)
    d = torch.ones(2)
n = torch.ones(2)
for f in [lambda: c * c, lambda: c * 2, lambda: c.exp(), lambda: c + d, lambda: c * d, lambda: c * n, lambda: c + n,
          lambda: c.sum(), lambda: c[0], lambda: c.view(2), lambda: torch.stack([c, c]), lambda: torch.stack([c, d]),
          lambda: torch.stack([c, n]), lambda: c.detach(), lambda: torch.nn.functional.linear(c, torch.ones(2, 2)),
          lambda: c.mul(torch.tensor(2.)), lambda: c.clamp(max=1.), lambda: torch.where(c > 0, c, d)]:
    show(f)
with torch.inference_mode():
    c = torch.ones(2, 3, requires_grad=True)
for f in [lambda: c.t_(), lambda: c.unsqueeze_(0), lambda: c.squeeze_(), lambda: c.mul_(c), lambda: c.zero_(),
          lambda: c.add_(1), lambda: c.copy_(c), lambda: c.exp_(), lambda: c.fill_(2), lambda: c.clamp_(0, 1),
          lambda: c.relu_()]:
    E(f)
    print(c.shape, c.requires_grad, c.sum())
with torch.inference_mode():
    t = torch.ones(2, requires_grad=True)
    E(lambda: t.resize_(4).shape)
s2 = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    E(lambda: s2.resize_(4).shape)
    E(lambda: s2[:2].add_(1))
with torch.no_grad():
    E(lambda: s2.resize_(4))
'''
PROGRAMS['ta_backward_inputs_leaf_nonleaf'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
y = torch.tensor([[0.5, 1.], [-1., 2.]], dtype=torch.double, requires_grad=True)
def fn():
    return x ** 2 + y * x + y ** 2
gradient = torch.ones(2, 2)
@torch.no_grad()
def reset_grad():
    x.grad.zero_()
    y.grad.zero_()
torch.autograd.backward(fn(), gradient, inputs=[x, y])
print(x.grad, y.grad)
reset_grad()
torch.autograd.backward(fn(), gradient, inputs=[x])
print(x.grad, y.grad)
reset_grad()
torch.autograd.backward(fn(), gradient, inputs=y)
print(x.grad, y.grad)
E(lambda: torch.autograd.backward(fn(), gradient, inputs=[]))
E(lambda: torch.autograd.backward(fn(), gradient, inputs=[x, torch.ones(2)]))
E(lambda: torch.autograd.backward(fn(), gradient, inputs=(x, 1)))
x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
x_nonleaf = x * 1
z = torch.ones(2, 2, dtype=torch.double, requires_grad=True)
out = x_nonleaf ** 2 + y * x_nonleaf + y ** 2
y.grad = None
out.backward(torch.ones(2, 2, dtype=torch.double), create_graph=True, inputs=[x, y, x_nonleaf])
print(y.grad, x.grad, x_nonleaf.grad, x_nonleaf.grad.grad_fn if x_nonleaf.grad is not None else None)
out.backward(torch.ones(2, 2, dtype=torch.double), create_graph=True, inputs=[z])
print(z.grad)
x10 = torch.tensor([1., 2.], requires_grad=True)
yy = x10 ** 2
zz = yy ** 3
torch.autograd.backward([yy, zz], [torch.tensor([1., 0.5]), torch.tensor([2., 1.])])
print(x10.grad)
@torch.enable_grad()
def enable_rec(depth):
    r = [torch.is_grad_enabled()]
    if depth > 0:
        r += no_rec(depth - 1)
        r.append(torch.is_grad_enabled())
    return r
@torch.no_grad()
def no_rec(depth):
    r = [torch.is_grad_enabled()]
    if depth > 0:
        r += enable_rec(depth - 1)
        r.append(torch.is_grad_enabled())
    return r
with torch.no_grad():
    print(enable_rec(3), torch.is_grad_enabled())
with torch.enable_grad():
    print(no_rec(3), torch.is_grad_enabled())
'''
PROGRAMS['ta_grad_is_grads_batched_variants'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
eye = torch.eye(3)
print(torch.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 4), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad(y.sum(), x, torch.ones(4), is_grads_batched=True, retain_graph=True))
z = x.exp()
print(torch.autograd.grad([y, z], x, [eye, eye * 2], is_grads_batched=True, retain_graph=True))
g, = torch.autograd.grad(y, x, eye, is_grads_batched=True, create_graph=True)
print(g.detach(), g.requires_grad)
print(torch.autograd.grad(x.sin(), x, eye, is_grads_batched=True, materialize_grads=True))
u = torch.ones(3, requires_grad=True)
print(torch.autograd.grad(x * 2, [x, u], eye, is_grads_batched=True, allow_unused=True, materialize_grads=True))
'''


# Programs whose warnings PyTorch gives once per process (TORCH_WARN_ONCE: create_graph=True on leaves, the gradient
# layout contract, float() of a tensor that requires grad, indexing with a list): minigrad warns once too, so what
# they print depends on what ran before in the process. They run, in this order, in a fresh process.
ONCE = ['ta_needs_input_grad_and_non_tensor_inputs', 'ta_accumulation_layouts', 'ta_accumulate_grad_create_graph',
        'ta_graph_desc_double_backward_function', 'ta_accumulate_grad_inplace_vs_outofplace',
        'ta_detach_variants_and_numpy', 'ta_setitem_grads', 'ta_backward_inputs_leaf_nonleaf',
        'ta_hessian_vector_and_grad_shapes']


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


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - set(ONCE)))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():  # (restores the filters and showwarning the program's prelude replaces)
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)


def test_once_per_process_warnings_in_a_fresh_process() -> None:
    import json
    import os
    import subprocess
    import sys
    pytest.importorskip("torch")
    here = os.path.dirname(os.path.abspath(__file__))
    script = (
        "import json, sys, warnings\n"
        f"sys.path[:0] = [{here!r}, {os.path.dirname(here)!r}]\n"
        "from parity import run_both\n"
        "import test_parity_programs_hunt17 as m\n"
        "out = {}\n"
        "for name in m.ONCE:\n"
        "    with warnings.catch_warnings():\n"
        "        out[name] = [m._mask(s) for s in run_both(m.PROGRAMS[name])]\n"
        "print(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.splitlines()[-1])
    assert sorted(results) == sorted(ONCE)
    assert any("W UserWarning" in theirs for ours, theirs in results.values())  # (the warnings were captured)
    for name, (ours, theirs) in results.items():
        assert theirs, name
        assert ours == theirs, name
