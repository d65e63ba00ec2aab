"""Parity programs from a fourteenth hunt: the programs a student writes while working through the autograd notes.

The lessons follow the notes in the seeds (``torch.autograd``: ``grad_fn``, ``backward``, ``no_grad``, hooks, custom
``Function``s) and PyTorch's "Autograd mechanics", "A Gentle Introduction to torch.autograd", "Automatic
differentiation with torch.autograd", "Extending PyTorch", "Double backward with custom functions", "Forward-mode AD"
and the saved tensor hooks tutorial. A student gets things wrong on the way, so these programs make the typical
mistakes on purpose (backward twice, ``.grad`` of a non-leaf, in-place on a saved tensor, custom Functions returning
the wrong gradients, ...) and print everything the way a student would: ``print(t)``, ``repr``, ``t.grad``,
``t.grad_fn``, ``next_functions``, the text of exceptions and of warnings. Every warning a program gives is printed
on stdout too (``W category message``), so the comparison covers warnings as well. The harness is hunt13's
(``parity.run_both`` with its ``E``/``W`` helpers). Programs marked "fixed:" printed something different from PyTorch
before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import PRE as _HUNT13_PRE
from test_parity_programs_hunt13 import _mask

# hunt13's prelude plus: every warning not caught by ``W`` is printed on stdout when it is given (the test restores
# the warnings machinery afterwards).
PRE = _HUNT13_PRE + r'''
def _show(message, category, filename, lineno, file=None, line=None):
    print('W', category.__name__, message)
warnings.simplefilter("always")
warnings.showwarning = _show
'''

PROGRAMS: dict[str, str] = {}

# ---- backward twice, non-scalar outputs, retain_graph

PROGRAMS['bw_twice_without_retain_graph'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x * x).sum()
print(y, y.grad_fn, y.grad_fn.next_functions)
y.backward()
print(x.grad)
E(lambda: y.backward())
z = x.exp().sum()
z.backward(retain_graph=True)
z.backward()
print(x.grad)
E(lambda: z.backward())
w = (x * 2).sum()
w.backward()
E(lambda: w.backward())
print(x.grad)
v = x.sum()
v.backward()
v.backward()
print(x.grad)
'''

PROGRAMS['bw_twice_saved_tensor_access_after_free'] = PRE + r'''
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
c = a * b
print(c.grad_fn._saved_self, c.grad_fn._saved_other)
c.backward()
E(lambda: c.grad_fn._saved_self)
E(lambda: c.grad_fn._saved_other)
d = a.sin()
d.backward(retain_graph=True)
print(d.grad_fn._saved_self)
d.backward()
E(lambda: print(d.grad_fn._saved_self))
print(a.grad, b.grad)
'''

PROGRAMS['bw_nonscalar_without_gradient'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
print(z, out)
E(lambda: z.backward())
E(lambda: z.backward(torch.ones(3)))
E(lambda: z.backward(torch.ones(2, 2, dtype=torch.float64), retain_graph=True))
print(x.grad, x.grad.dtype)
x.grad = None
E(lambda: z.backward(torch.ones(4)))
E(lambda: z.backward(1.0))
z.backward(torch.ones_like(z), retain_graph=True)
print(x.grad)
E(lambda: torch.autograd.backward(z, [None], retain_graph=True))
E(lambda: torch.autograd.grad(z, x))
print(torch.autograd.grad(z, x, torch.full((2, 2), 0.5)))
'''

PROGRAMS['bw_gentle_intro_external_gradient'] = PRE + r'''
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
print(Q, Q.grad_fn, Q.grad_fn.next_functions)
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(a.grad, b.grad)
E(lambda: Q.backward(gradient=external_grad))
Q2 = 3*a**3 - b**2
Q2.sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['bw_eye_jacobian_product_tutorial'] = PRE + r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
print(out.grad_fn, out.grad_fn.next_functions, out.grad_fn.next_functions[0][0].next_functions)
E(lambda: out.backward(torch.ones(4, 5)))
'''

# ---- .grad of a non-leaf, retain_grad

PROGRAMS['nonleaf_grad_warning_every_form'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad)
print(repr(y.grad))
g = W(lambda: y.grad)
print(g)
print(y.is_leaf, x.is_leaf, z.is_leaf, y.requires_grad)
print(x.grad, y.retains_grad, x.retains_grad)
print(f"{y.grad}")
'''

PROGRAMS['nonleaf_retain_grad_before_and_after_backward'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
y.retain_grad()
z = y * 3
out = z.sum()
out.backward(retain_graph=True)
print(y.grad, y.retains_grad)
print(z.grad)
z.retain_grad()
print(z.grad, z.retains_grad)
out.backward()
print(z.grad, y.grad, x.grad)
x.retain_grad()
print(x.retains_grad)
c = torch.ones(2)
E(lambda: c.retain_grad())
with torch.no_grad():
    n = x * 2
E(lambda: n.retain_grad())
print(n.requires_grad, n.grad_fn, n.is_leaf)
'''

PROGRAMS['nonleaf_grad_none_checks'] = PRE + r'''
w = torch.randn(3, requires_grad=True)
h = w.tanh()
loss = h.sum()
loss.backward()
if h.grad is None:
    print('h.grad is None')
print(w.grad is None, type(w.grad).__name__, w.grad.shape)
h2 = w.view(3)
print(h2.is_leaf, h2._base is w, h2.grad_fn)
print(h2.grad)
d = w.detach()
print(d.is_leaf, d.grad, d.requires_grad)
'''

# ---- in-place on leaves and on saved tensors

PROGRAMS['inplace_on_leaf_requiring_grad'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
E(lambda: x.add_(1))
E(lambda: x.mul_(2))
E(lambda: x.zero_())
E(lambda: x.fill_(3))
E(lambda: x.copy_(torch.zeros(3)))
def setitem(): x[0] = 5.
E(setitem)
E(lambda: x.clamp_(0, 1))
E(lambda: x.requires_grad_(False).add_(1))
print(x, x.requires_grad)
with torch.no_grad():
    y = torch.ones(2, requires_grad=True)
    y.add_(1)
print(y, y.grad_fn, y.is_leaf)
def iadd():
    global x
    x = torch.ones(2, requires_grad=True)
    x += 1
E(iadd)
'''

PROGRAMS['inplace_on_saved_tensor_version_error'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 2
c = b ** 2
b.add_(1)
print(b._version, c.grad_fn)
E(lambda: c.sum().backward())
d = a.sigmoid()
e = d * 3
d.mul_(2)
d.mul_(2)
E(lambda: e.sum().backward())
f = a.exp()
g = f.sum()
f.add_(1)
E(lambda: g.backward())
h = a.tanh()
h2 = h.view(3, 1)
h2[0, 0] = 0
E(lambda: h.sum().backward())
'''

PROGRAMS['inplace_saved_output_relu_sigmoid'] = PRE + r'''
x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
y = torch.relu(x)
y += 1
E(lambda: y.sum().backward())
x.grad = None
y = torch.sigmoid(x)
y.mul_(2)
E(lambda: y.sum().backward())
y = x.clone()
y.relu_()
y.sum().backward()
print(x.grad, y.grad_fn)
y = x * 1
z = y.sigmoid_()
print(z is y, y.grad_fn, y._version)
E(lambda: (z * y).sum().backward())
'''

PROGRAMS['inplace_data_vs_detach'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)
out.sum().backward()
print(a.grad)
a.grad = None
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out, c._version, out._version)
E(lambda: out.sum().backward())
print(a.data, a.data.requires_grad, a.detach().requires_grad, a.data.is_leaf)
a.data = torch.tensor([5., 6., 7.])
print(a, a.grad, a.requires_grad)
E(lambda: setattr(a, 'data', torch.ones(2, dtype=torch.int64)))
print(a)
'''

PROGRAMS['inplace_data_mutation_in_training_loop'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.tensor([1., 2., 3.])
for step in range(3):
    loss = ((w * x).sum() - 1) ** 2
    loss.backward()
    w.data -= 0.01 * w.grad.data
    print(step, loss.item(), w)
    w.grad.data.zero_()
print(w.grad)
for step in range(2):
    loss = ((w * x).sum() - 1) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
    print(step, w, w.grad)
def bad():
    global w
    w = w - 0.01 * w.grad
E(bad)
print(w.is_leaf, w.grad_fn)
print(w.grad)
'''

PROGRAMS['forgetting_zero_grad_accumulates'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1., 2.], [3., 4.]])
y = torch.tensor([[1.], [2.]])
for i in range(3):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    print(i, round(loss.item(), 6), model.weight.grad, model.bias.grad)
opt.step()
print(model.weight, model.bias)
opt.zero_grad()
print(model.weight.grad, model.bias.grad)
opt.zero_grad(set_to_none=False)
loss = torch.nn.functional.mse_loss(model(x), y)
loss.backward()
model.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
model.zero_grad()
print(model.weight.grad)
'''

# ---- dtypes: integer tensors, bool, mixed precision leaves

PROGRAMS['requires_grad_on_int_and_bool_tensors'] = PRE + r'''
E(lambda: torch.tensor([1, 2, 3], requires_grad=True))
E(lambda: torch.tensor([True], requires_grad=True))
x = torch.arange(3)
E(lambda: x.requires_grad_())
E(lambda: setattr(x, 'requires_grad', True))
x.requires_grad_(False)
print(x.requires_grad)
E(lambda: torch.ones(2, dtype=torch.long, requires_grad=True))
E(lambda: torch.zeros(2, dtype=torch.int32).requires_grad_(True))
E(lambda: torch.arange(4, requires_grad=True))
print(torch.arange(4., requires_grad=True))
print(torch.tensor([1, 2], dtype=torch.float32, requires_grad=True))
E(lambda: torch.tensor([1+2j], requires_grad=True))
E(lambda: torch.randint(0, 3, (2,), requires_grad=True))
E(lambda: torch.nn.Parameter(torch.arange(3)))
print(torch.nn.Parameter(torch.arange(3), requires_grad=False))
'''

PROGRAMS['int_and_bool_operands_in_graph'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
i = torch.tensor([1, 2, 3])
b = torch.tensor([True, False, True])
y = x * i
print(y, y.dtype, y.grad_fn)
z = x + b
print(z, z.grad_fn)
w = x * 2 + 1
print(w)
m = x > 1.5
print(m, m.requires_grad, m.grad_fn)
s = (x * m).sum()
s.backward()
print(x.grad)
q = (x.long() * 2)
print(q, q.requires_grad, q.grad_fn)
E(lambda: q.sum().backward())
am = x.argmax()
print(am, am.requires_grad)
r = x.round()
print(r, r.grad_fn)
print(torch.autograd.grad(r.sum(), x))
E(lambda: torch.autograd.grad((x // 1).sum(), x))
print(torch.autograd.grad(x.sign().sum(), x))
'''

PROGRAMS['mixed_dtype_leaves_float32_float64'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], dtype=torch.float64, requires_grad=True)
c = a * b
print(c, c.dtype, c.grad_fn, c.grad_fn.next_functions)
c.sum().backward()
print(a.grad, a.grad.dtype, b.grad, b.grad.dtype)
h = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
d = h + a
print(d, d.dtype, d.grad_fn.next_functions)
d.sum().backward()
print(h.grad, a.grad)
E(lambda: a.grad.copy_(torch.ones(2, dtype=torch.float64)) and None)
def bad_grad():
    a.grad = torch.ones(2, dtype=torch.float64)
E(bad_grad)
def bad_grad2():
    a.grad = torch.ones(3)
E(bad_grad2)
def bad_grad3():
    a.grad = [1., 2.]
E(bad_grad3)
print(a.grad)
E(lambda: torch.matmul(a, b))
E(lambda: torch.dot(a, b))
E(lambda: torch.mm(a.view(1, 2), b.view(2, 1)))
'''

PROGRAMS['backward_gradient_dtype_mismatch'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x * 2
E(lambda: y.backward(torch.ones(3, dtype=torch.float64), retain_graph=True))
print(x.grad, x.grad.dtype if x.grad is not None else None)
E(lambda: y.backward(torch.ones(3, dtype=torch.int64), retain_graph=True))
E(lambda: y.backward(torch.ones(3, dtype=torch.bool), retain_graph=True))
E(lambda: y.backward(torch.ones(1), retain_graph=True))
E(lambda: y.backward(torch.ones(3, 1), retain_graph=True))
E(lambda: y.sum().backward(torch.tensor(2.)))
E(lambda: y.sum().backward(torch.tensor([2.])))
print(x.grad)
E(lambda: torch.autograd.grad(y.sum(), x, grad_outputs=torch.ones(2)))
E(lambda: torch.autograd.grad([y.sum(), y.mean()], x, grad_outputs=[torch.tensor(1.)]))
'''

# ---- numpy(), item(), tolist()

PROGRAMS['numpy_item_tolist_mistakes'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: x.numpy())
y = x * 2
E(lambda: y.numpy())
print(y.detach().numpy(), y.tolist(), x.tolist())
E(lambda: y.item())
E(lambda: torch.ones(0).item())
print(y.sum().item(), y[0].item(), type(y.sum().item()).__name__)
print(float(y.sum()), int(y[1]), bool(y[0]))
E(lambda: float(y))
E(lambda: bool(y))
E(lambda: int(torch.ones(2)))
import numpy as np
E(lambda: np.array(x))
print(np.array(x.detach()), np.asarray(y.detach()).dtype)
E(lambda: np.exp(x))
print(y.cpu().detach().numpy(), y.numpy(force=True))
'''

# ---- no_grad / set_grad_enabled / inference_mode

PROGRAMS['no_grad_then_backward'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y, y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
E(lambda: torch.autograd.grad(y.sum(), x))
with torch.no_grad():
    z = (x * 3).sum()
    E(lambda: z.backward())
with torch.no_grad():
    w = x * 3
w2 = w * x
print(w2.requires_grad, w2.grad_fn)
w2.sum().backward()
print(x.grad)
@torch.no_grad()
def f(t):
    return t * t
r = f(x)
print(r, r.requires_grad)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        q = x * 2
        print(q.requires_grad, torch.is_grad_enabled())
print(q.grad_fn)
'''

PROGRAMS['set_grad_enabled_function_and_decorator'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
@torch.set_grad_enabled(False)
def g(t):
    return t * 2
print(g(x).requires_grad, torch.is_grad_enabled())
r = torch.set_grad_enabled(False)
print(type(r).__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
with torch.enable_grad():
    print(torch.is_grad_enabled())
@torch.enable_grad()
def h(t):
    return t * 3
with torch.no_grad():
    print(h(x).requires_grad, (x * 3).requires_grad)
print(repr(torch.no_grad()).startswith('<torch'), type(torch.no_grad()).__name__, type(torch.enable_grad()).__name__)
'''

PROGRAMS['no_grad_decorator_mistakes'] = PRE + r'''
x = torch.tensor([2.], requires_grad=True)
@torch.no_grad
def f(t):
    return t * t
print(f(x).requires_grad)
class M:
    @torch.no_grad()
    def run(self, t):
        return t + 1
print(M().run(x).requires_grad)
@torch.no_grad()
def gen(t):
    for i in range(2):
        yield t * i
print([v.requires_grad for v in gen(x)])
E(lambda: torch.no_grad(x))
with torch.no_grad():
    p = torch.nn.Parameter(torch.ones(1))
print(p.requires_grad, p.grad_fn)
with torch.no_grad():
    t = torch.ones(2, requires_grad=True)
print(t.requires_grad, t.is_leaf)
'''

PROGRAMS['inference_mode_tensors_in_autograd'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled())
print(y, y.is_inference(), x.is_inference())
E(lambda: y * x)
z = y + x
print(z.requires_grad, z.grad_fn)
z.sum().backward()
print(x.grad)
E(lambda: y.add_(1))
E(lambda: y.requires_grad_())
def save_inference():
    w = torch.ones(2, requires_grad=True)
    return (w * y).sum().backward()
E(save_inference)
with torch.inference_mode():
    t = torch.ones(3)
E(lambda: t.add_(1))
c = t.clone()
c.add_(1)
print(c, c.is_inference())
E(lambda: torch.ones(3, requires_grad=True).mul(t).sum().backward())
E(lambda: torch.ones(3, requires_grad=True).add(t).sum().backward())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())
@torch.inference_mode()
def f(a):
    return a * 2
print(f(x).is_inference(), f(x).requires_grad)
'''

# ---- custom autograd.Function mistakes

PROGRAMS['fn_exp_from_the_notes'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
x = torch.tensor([0., 1.], requires_grad=True)
y = Exp.apply(x)
print(y, y.grad_fn, type(y.grad_fn).__name__, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
E(lambda: Exp(x))
E(lambda: Exp.forward(None, x))
E(lambda: Exp()(x))
print(Exp.apply(torch.tensor([0.])))
y2 = Exp.apply(x)
y2.sum().backward()
E(lambda: y2.grad_fn.saved_tensors)
'''

PROGRAMS['fn_wrong_number_of_grads'] = PRE + r'''
class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, k):
        ctx.save_for_backward(x, y)
        ctx.k = k
        return x * y + k
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
out = MulAdd.apply(a, b, 2.)
print(out, out.grad_fn)
E(lambda: out.sum().backward())
print(a.grad, b.grad)
class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, g, None
E(lambda: TooMany.apply(a).sum().backward())
class TooManyNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None
TooManyNone.apply(a).sum().backward()
print(a.grad)
class Few(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Few.apply(a, b).sum().backward())
'''

PROGRAMS['fn_wrong_shape_or_dtype_grad'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
class Shape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return g
out = Shape.apply(a)
E(lambda: out.backward())
print(a.grad)
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(2)
E(lambda: Wrong.apply(a).backward())
class WrongDtype(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g.double()
WrongDtype.apply(a).sum().backward()
print(a.grad, a.grad.dtype)
class IntGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g.long()
a.grad = None
E(lambda: IntGrad.apply(a).sum().backward())
print(a.grad)
class NotTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return 1.0
E(lambda: NotTensor.apply(a).sum().backward())
class ListGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return [g]
E(lambda: ListGrad.apply(a).sum().backward())
print(a.grad)
'''

PROGRAMS['fn_forgetting_save_for_backward'] = PRE + r'''
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.tensor([1., 2.], requires_grad=True)
E(lambda: Square.apply(a).sum().backward())
class Square2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        return 2 * ctx.x * g
y = Square2.apply(a)
y.sum().backward()
print(a.grad)
class SaveNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3
E(lambda: SaveNonTensor.apply(a))
class SaveNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        x, n = ctx.saved_tensors
        print('saved', x, n)
        return g * 3
SaveNone.apply(a).sum().backward()
class SaveTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_backward(x * 2)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        s, = ctx.saved_tensors
        print('saved', s)
        return g
SaveTwice.apply(a).sum().backward()
class SaveInBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        ctx.save_for_backward(g)
        return g
E(lambda: SaveInBackward.apply(a).sum().backward())
'''

PROGRAMS['fn_modifying_input_and_mark_dirty'] = PRE + r'''
class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.tensor([1., 2.], requires_grad=True)
E(lambda: AddOneInplace.apply(a))
b = a.clone()
out = AddOneInplace.apply(b)
print(out is b, out, b.grad_fn, b._version)
out.sum().backward()
print(a.grad)
class NoMark(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
c = a.clone()
r = NoMark.apply(c)
print(r is c, r.grad_fn, c._version)
class MarkNotReturned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: MarkNotReturned.apply(a.clone()))
class MarkOther(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        t = x * 1
        ctx.mark_dirty(t)
        return t
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: MarkOther.apply(a.clone()))
'''

PROGRAMS['fn_returns_non_tensors_and_tuples'] = PRE + r'''
class Stats(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum(), x.shape[0]
    @staticmethod
    def backward(ctx, g, g2):
        print('g2', g2)
        return g.expand(3)
a = torch.tensor([1., 2., 3.], requires_grad=True)
s, n = Stats.apply(a)
print(s, n, type(n).__name__, s.grad_fn)
s.backward()
print(a.grad)
class RetList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
r = RetList.apply(a)
print(type(r).__name__, r)
class RetNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
print(RetNone.apply(a))
class RetNumber(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 3.0
    @staticmethod
    def backward(ctx, g):
        return g
print(RetNumber.apply(a))
class RetInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 10
o = RetInput.apply(a)
print(o is a, o.grad_fn, o.is_leaf)
o.sum().backward()
print(a.grad)
class Unused(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print('grads', g1, g2)
        return g1 * 2 + (g2 * 3 if g2 is not None else 0)
u, v = Unused.apply(a)
u.sum().backward()
'''

PROGRAMS['fn_once_differentiable_then_double_backward'] = PRE + r'''
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
        return 3 * x ** 2 * g
a = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(a)
g, = torch.autograd.grad(y.sum(), a, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
E(lambda: torch.autograd.grad(g.sum(), a))
class CubeOK(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
y = CubeOK.apply(a)
g, = torch.autograd.grad(y.sum(), a, create_graph=True)
print(g, g.grad_fn)
g2, = torch.autograd.grad(g.sum(), a)
print(g2)
class NoDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.detach().exp()
y = NoDiff.apply(a)
g, = torch.autograd.grad(y.sum(), a, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), a))
'''

PROGRAMS['fn_needs_input_grad_and_materialize'] = PRE + r'''
class Lin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b=None):
        ctx.save_for_backward(x, w, b)
        out = x.mm(w.t())
        if b is not None:
            out += b.unsqueeze(0).expand_as(out)
        return out
    @staticmethod
    def backward(ctx, g):
        x, w, b = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        gx = gw = gb = None
        if ctx.needs_input_grad[0]:
            gx = g.mm(w)
        if ctx.needs_input_grad[1]:
            gw = g.t().mm(x)
        if b is not None and ctx.needs_input_grad[2]:
            gb = g.sum(0)
        return gx, gw, gb
torch.manual_seed(0)
x = torch.randn(2, 3)
w = torch.randn(4, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)
out = Lin.apply(x, w, b)
print(out.grad_fn)
out.sum().backward()
print(w.grad, b.grad)
out = Lin.apply(x, w)
out.sum().backward()
print(w.grad)
from torch.autograd import gradcheck
inp = (torch.randn(2, 3, dtype=torch.double, requires_grad=True), torch.randn(4, 3, dtype=torch.double, requires_grad=True))
print(gradcheck(Lin.apply, inp, eps=1e-6, atol=1e-4))
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('g', g1, g2)
        return g1
a = torch.ones(2, requires_grad=True)
p, q = Two.apply(a)
p.sum().backward()
print(a.grad)
'''

PROGRAMS['fn_setup_context_and_vmap_style'] = PRE + r'''
class MyMul(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return x * y
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(x, y)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
o = MyMul.apply(a, b)
print(o, o.grad_fn)
o.sum().backward()
print(a.grad, b.grad)
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: Bad.apply(a))
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
o = NoBackward.apply(a)
print(o.grad_fn)
E(lambda: o.sum().backward())
class NoForward(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoForward.apply(a))
'''

PROGRAMS['fn_mark_non_differentiable_argsort'] = PRE + r'''
class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(x, i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        x, i = ctx.saved_tensors
        print('gi', gi)
        g = torch.zeros_like(x)
        g.index_add_(0, i, gv)
        return g
a = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = Sort.apply(a)
print(v, i, v.requires_grad, i.requires_grad, i.grad_fn)
(v * torch.tensor([1., 2., 3.])).sum().backward()
print(a.grad)
class MarkFloat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.mark_non_differentiable(y)
        return y
    @staticmethod
    def backward(ctx, g):
        return g
y = MarkFloat.apply(a)
print(y.requires_grad, y.grad_fn, y.is_leaf)
E(lambda: y.sum().backward())
class MarkInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
r = MarkInput.apply(a)
print(r.requires_grad, r is a)
'''

PROGRAMS['fn_polynomial_from_the_notes'] = PRE + r'''
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
dtype = torch.float
torch.manual_seed(0)
x = torch.linspace(-1, 1, 200, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 2.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')
print(y_pred.grad_fn, y_pred.grad_fn.next_functions)
'''

# ---- hooks

PROGRAMS['hook_returning_wrong_shape_or_type'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g[:2])
E(lambda: y.sum().backward())
x.grad = None
y = x * 2
y.register_hook(lambda g: g.double())
E(lambda: y.sum().backward())
print(x.grad)
x.grad = None
y = x * 2
y.register_hook(lambda g: 5.0)
E(lambda: y.sum().backward())
x.grad = None
y = x * 2
y.register_hook(lambda g: (g,))
E(lambda: y.sum().backward())
x.grad = None
y = x * 2
y.register_hook(lambda g: g.sum())
E(lambda: y.sum().backward())
x.grad = None
h = x.register_hook(lambda g: g.view(3, 1))
E(lambda: (x * 2).sum().backward())
h.remove()
y = x * 2
y.register_hook(lambda g: g.long())
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['hook_on_leaf_not_requiring_grad_and_removal'] = PRE + r'''
t = torch.ones(3)
E(lambda: t.register_hook(lambda g: g))
x = torch.ones(3, requires_grad=True)
h = x.register_hook(lambda g: print('hook', g) or g * 2)
print(type(h).__name__)
(x * 3).sum().backward()
print(x.grad)
h.remove()
h.remove()
(x * 3).sum().backward()
print(x.grad)
def bad(g):
    g.mul_(2)
x.grad = None
x.register_hook(bad)
E(lambda: (x * 3).sum().backward())
print(x.grad)
y = torch.zeros(2, requires_grad=True)
y.register_hook(lambda g: None)
y.register_hook(lambda g: g + 1)
(y * 1).sum().backward()
print(y.grad)
with torch.no_grad():
    z = y * 2
E(lambda: z.register_hook(lambda g: g))
'''

PROGRAMS['hook_print_grads_of_intermediates'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
grads = {}
def save(name):
    def hook(g):
        grads[name] = g
    return hook
a = x * 2
a.register_hook(save('a'))
b = a.relu()
b.register_hook(save('b'))
c = (b ** 2).sum()
c.register_hook(save('c'))
c.backward()
for k in sorted(grads):
    print(k, grads[k])
print(a.grad, b.grad)
print(x.grad)
'''

PROGRAMS['hook_module_forward_backward'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(3, 2)
def fwd(mod, inp, out):
    print('fwd', type(mod).__name__, [i.shape for i in inp], out.shape)
def bwd(mod, gin, gout):
    print('bwd', [None if g is None else g.shape for g in gin], [g.shape for g in gout])
h1 = m.register_forward_hook(fwd)
h2 = m.register_full_backward_hook(bwd)
x = torch.randn(4, 3, requires_grad=True)
m(x).sum().backward()
x2 = torch.randn(4, 3)
m(x2).sum().backward()
h1.remove(); h2.remove()
m(x).sum().backward()
def bad_bwd(mod, gin, gout):
    return (torch.ones(1),)
m.register_full_backward_hook(bad_bwd)
E(lambda: m(x).sum().backward())
m2 = torch.nn.Linear(3, 2)
h = m2.register_backward_hook(lambda mod, gi, go: print('old-style', len(gi), len(go)))
m2(x).sum().backward()
'''

PROGRAMS['hook_tensor_post_accumulate_and_grad_fn'] = PRE + r'''
p = torch.ones(2, requires_grad=True)
def post(t):
    print('post', t.grad)
    with torch.no_grad():
        t.grad.mul_(0.5)
p.register_post_accumulate_grad_hook(post)
(p * 4).sum().backward()
print(p.grad)
y = p * 2
E(lambda: y.register_post_accumulate_grad_hook(post))
z = p.exp()
def pre(gouts):
    print('pre', gouts)
def hk(gin, gout):
    print('hook', gin, gout)
z.grad_fn.register_prehook(pre)
z.grad_fn.register_hook(hk)
z.sum().backward()
print(p.grad)
q = p * 3
q0 = p * 3
q0.grad_fn.register_hook(lambda gi, go: (gi[0] * 0,))
E(lambda: q0.sum().backward())
q.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, None))
q.sum().backward()
print(p.grad)
r = p * 3
r.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0], gi[0]))
E(lambda: r.sum().backward())
'''

# ---- gradcheck

PROGRAMS['gradcheck_failures_exact_message'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
class BadExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.exp() * 1.1
x = torch.tensor([0.5, 1.0], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(BadExp.apply, (x,)))
print(gradcheck(BadExp.apply, (x,), raise_exception=False))
E(lambda: gradcheck(BadExp.apply, (x,), fast_mode=True))
xf = torch.tensor([0.5, 1.0], requires_grad=True)
E(lambda: gradcheck(torch.exp, (xf,)))
W(lambda: print(gradcheck(torch.exp, (xf,), raise_exception=False)))
print(gradcheck(torch.sin, (x,)), gradgradcheck(torch.sin, (x,)))
print(gradcheck(lambda t: t * 2, x))
E(lambda: gradcheck(torch.sin, (x.detach(),)))
'''

PROGRAMS['gradcheck_bad_double_backward'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x.detach() * g
x = torch.tensor([0.5, -1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(Sq.apply, (x,)))
E(lambda: gradgradcheck(Sq.apply, (x,)))
class SqOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
print(gradcheck(SqOnce.apply, (x,)))
E(lambda: gradgradcheck(SqOnce.apply, (x,)))
class SqGood(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
print(gradcheck(SqGood.apply, (x,)), gradgradcheck(SqGood.apply, (x,)))
'''

PROGRAMS['gradcheck_non_double_and_inplace_warnings'] = PRE + r'''
from torch.autograd import gradcheck
x32 = torch.randn(3, requires_grad=True)
def f(t):
    return (t * 2).sum()
E(lambda: W(lambda: gradcheck(f, (x32,))))
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
def nondet(t):
    return t * torch.rand(1, dtype=torch.double)
torch.manual_seed(0)
E(lambda: gradcheck(nondet, (x,)))
def returns_int(t):
    return (t > 0).long()
E(lambda: gradcheck(returns_int, (x,)))
def nondiff_out(t):
    return t.detach() * 2
E(lambda: gradcheck(nondiff_out, (x,)))
print(gradcheck(lambda a, b: a * b, (x, torch.tensor([3., 4.], dtype=torch.double))))
def not_tensor(t):
    return 3.0
E(lambda: gradcheck(not_tensor, (x,)))
'''

# ---- backward(inputs=...), autograd.grad unused inputs, create_graph leaks

PROGRAMS['backward_inputs_with_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
h = x * w
y = (h ** 2).sum()
y.backward(inputs=[h], retain_graph=True)
print(h.grad, x.grad, w.grad)
W(lambda: print(h.grad))
y.backward(inputs=[x], retain_graph=True)
print(x.grad, w.grad)
y.backward(inputs=w, retain_graph=True)
print(w.grad)
E(lambda: y.backward(inputs=[], retain_graph=True))
E(lambda: y.backward(inputs=[torch.ones(2)], retain_graph=True))
E(lambda: y.backward(inputs=[torch.ones(2, requires_grad=True)], retain_graph=True))
c = torch.ones(2)
E(lambda: y.backward(inputs=c, retain_graph=True))
torch.autograd.backward([y], inputs=[x, h])
print(x.grad, h.grad)
'''

PROGRAMS['autograd_grad_unused_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = (x * 2).sum()
E(lambda: torch.autograd.grad(z, [x, y], retain_graph=True))
print(torch.autograd.grad(z, [x, y], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(z, [x, y], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, y], allow_unused=False, materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(z, (x,), retain_graph=True))
print(torch.autograd.grad(z, x, retain_graph=True)[0])
E(lambda: torch.autograd.grad(z, torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(z, [x.detach()], retain_graph=True))
n = x * 3
E(lambda: torch.autograd.grad(z, [n], retain_graph=True))
print(torch.autograd.grad(z, [n], allow_unused=True, retain_graph=True))
print(x.grad, y.grad)
g = torch.autograd.grad(z, x)
E(lambda: torch.autograd.grad(z, x))
E(lambda: torch.autograd.grad(torch.ones(1), x))
E(lambda: torch.autograd.grad(z.detach(), x))
'''

PROGRAMS['create_graph_leak_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
y.backward(create_graph=True)
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
g = x.grad
x.grad = None
z = (x ** 2).sum()
torch.autograd.backward(z, create_graph=True)
print(x.grad)
w = torch.ones(2, requires_grad=True)
loss = (w * x).sum()
loss.backward(create_graph=True, inputs=[w])
print(w.grad, w.grad.grad_fn)
g2, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
print(g2, g2.grad_fn)
g2.sum().backward()
print(x.grad)
'''

PROGRAMS['double_backward_hessian_vector'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
v = torch.ones(3)
hv, = torch.autograd.grad(g, x, v)
print(hv)
g, = torch.autograd.grad(y, x, create_graph=False, retain_graph=True)
print(g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), x))
h = torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), x)
print(h)
j = torch.autograd.functional.jacobian(lambda t: t ** 2, x)
print(j)
print(torch.autograd.functional.hvp(lambda t: (t ** 3).sum(), x, v))
print(torch.autograd.functional.vjp(lambda t: t ** 2, x, v))
'''

# ---- views + in-place

PROGRAMS['view_then_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
v = y.view(2, 2)
v.mul_(2)
print(y, y.grad_fn, v.grad_fn, v._base is y)
y.sum().backward()
print(x.grad)
E(lambda: x.view(2, 2).mul_(2))
E(lambda: x[0].mul_(2))
E(lambda: x.t_())
with torch.no_grad():
    nv = y.view(4)
E(lambda: nv.mul_(2))
print(nv.requires_grad, nv.grad_fn)
z = x.clone()
parts = z.split(2)
E(lambda: parts[0].mul_(2))
a, b = z.unbind()[0], z.unbind()[1]
E(lambda: a.add_(1))
d = z.detach()
d.add_(1)
E(lambda: z.sum().backward())
'''

PROGRAMS['view_inplace_through_slices'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.clone()
y[0, 0] = 10
y[:, 1] *= 3
print(y, y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
z = x.exp()
z[0] = 0
E(lambda: z.sum().backward())
w = x.sigmoid()
w2 = w[1]
w2.zero_()
print(w.grad_fn, w2.grad_fn)
E(lambda: w.sum().backward())
t = x.tanh()
t.unsqueeze(0).squeeze_(0)
print(t.grad_fn)
q = x * 2
q.transpose(0, 1)[0].fill_(5)
q.sum().backward()
print(x.grad)
'''

PROGRAMS['version_counter_numbers_in_messages'] = PRE + r'''
a = torch.ones(3, requires_grad=True)
b = a * 2
c = b * b
for _ in range(3):
    b.add_(1)
E(lambda: c.sum().backward())
print(b._version)
p = torch.ones(2, 2, requires_grad=True)
E(lambda: p.t().mul_(1))
q = p.t() * 1
r = q.matmul(q)
q.mul_(1)
E(lambda: r.sum().backward())
s = a.exp()
s.add_(1)
print(s._version, s.grad_fn)
E(lambda: s.sum().backward())
print(a.grad)
x = torch.ones(2, requires_grad=True)
y = x.pow(2)
x2 = x.detach()
x2.mul_(3)
E(lambda: y.sum().backward())
y2 = x.pow(2)
with torch.no_grad():
    x.mul_(1)
E(lambda: y2.sum().backward())
'''

# ---- forward-mode AD

# PyTorch's first make_dual imports its decompositions, which gives a burst of ``torch.jit.script`` deprecation
# warnings once per process: warm up quietly so the output does not depend on which test ran first.
FWD = r'''
import torch.autograd.forward_ad as fwAD
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with fwAD.dual_level():
        fwAD.make_dual(torch.ones(1), torch.ones(1)).sin()
'''

PROGRAMS['forward_ad_student_program'] = PRE + FWD + r'''
primal = torch.tensor([1., 2.])
tangent = torch.tensor([1., 0.])
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    out = fn(dual_input, tangent)
    jvp = fwAD.unpack_dual(out).tangent
    print(fwAD.unpack_dual(out))
    print(jvp)
    p, t = fwAD.unpack_dual(dual_input)
    print(p, t, fwAD.unpack_dual(primal).tangent)
E(lambda: fwAD.make_dual(primal, tangent))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(primal, torch.ones(3)))
    E(lambda: fwAD.make_dual(primal, torch.ones(2, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(torch.arange(2), torch.arange(2)))
    d = fwAD.make_dual(primal, tangent)
    print(d.sin(), fwAD.unpack_dual(d.sin()).tangent)
print(fwAD.unpack_dual(d))
'''

PROGRAMS['forward_ad_custom_function_jvp'] = PRE + FWD + r'''
class MySin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
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
class MySin2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.cos()
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([0., 1.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: MySin.apply(d))
    out = MySin2.apply(d)
    print(fwAD.unpack_dual(out).tangent, out)
    E(lambda: NoJvp.apply(d))
class SaveInputJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3
    @staticmethod
    def jvp(ctx, t):
        return t * 3
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    print(fwAD.unpack_dual(SaveInputJvp.apply(d)))
'''

# ---- saved tensor hooks

PROGRAMS['saved_tensor_hooks_tutorial'] = PRE + r'''
def pack_hook(x):
    print("Packing", x)
    return x
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
x = torch.randn(5, requires_grad=True) if False else torch.arange(5.).requires_grad_()
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 0 + 1, lambda t: t):
    z = x.pow(2)
z.sum().backward()
print(x.grad)
def pack_bad(t):
    return None
with torch.autograd.graph.saved_tensors_hooks(pack_bad, lambda t: t):
    w = x.exp()
E(lambda: w.sum().backward())
def pack_inplace(t):
    t.mul_(2)
    return t
with torch.autograd.graph.saved_tensors_hooks(pack_inplace, lambda t: t):
    E(lambda: (x * 1).sin())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: torch.ones(3)):
    q = x.sin()
E(lambda: q.sum().backward())
'''

PROGRAMS['saved_tensor_hooks_save_on_cpu_and_nesting'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = (x * x).sin()
y.sum().backward()
print(x.grad)
log = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append('outer') or t, lambda t: t):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append('inner') or t, lambda t: t):
        z = x.exp()
    w = x.cos()
print(log)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    E(lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    r = x * x
print(r.grad_fn)
print(z.grad_fn._raw_saved_result if hasattr(z.grad_fn, '_raw_saved_result') else None)
'''

# ---- the things a student prints while exploring the graph

PROGRAMS['explore_graph_attributes'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(x, y, z, out, sep='\n')
print(repr(out), str(out.grad_fn), out.grad_fn.name())
fn = out.grad_fn
while fn is not None:
    print(type(fn).__name__, fn.name(), [(type(n).__name__ if n is not None else None, i) for n, i in fn.next_functions])
    fn = fn.next_functions[0][0] if fn.next_functions else None
acc = y.grad_fn.next_functions[0][0]
print(acc, acc.variable is x, type(acc).__name__, acc.name())
print(isinstance(y.grad_fn, torch.autograd.graph.Node), y.grad_fn.metadata)
print(z.grad_fn._saved_self is None, z.grad_fn._saved_other.shape)
print(out.grad_fn._saved_self_sym_sizes, out.grad_fn._saved_self_sym_numel if hasattr(out.grad_fn, '_saved_self_sym_numel') else '')
print(y.grad_fn._saved_alpha, y.grad_fn._saved_other if hasattr(y.grad_fn, '_saved_other') else 'no other')
print(x.grad_fn, x.is_leaf, x.requires_grad, x.output_nr if hasattr(x, 'output_nr') else '')
print(loss := out.backward)
'''

PROGRAMS['explore_seed_notes_multiply_add'] = PRE + r'''
class MultiplyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b
x = torch.ones(1)
w = torch.rand(1, requires_grad=True) if False else torch.tensor([0.5], requires_grad=True)
b = torch.rand(1, requires_grad=True) if False else torch.tensor([0.25], requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
z.backward()
print(x.grad, w.grad, b.grad)
print(z, z.grad_fn, z.grad_fn.next_functions)
x = torch.ones(1)
w = torch.tensor([0.5], requires_grad=True)
b = torch.tensor([0.25], requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z.grad_fn.apply(torch.ones(1)))
E(lambda: z.grad_fn(torch.ones(1)))
print(z.grad_fn.needs_input_grad, z.grad_fn.saved_tensors)
'''

PROGRAMS['explore_requires_grad_propagation'] = PRE + r'''
x = torch.randn(5, 5) if False else torch.ones(5, 5)
y = torch.ones(5, 5)
z = torch.ones(5, 5, requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
E(lambda: setattr(b, 'requires_grad', False))
E(lambda: b.requires_grad_(False))
b2 = b.detach()
b2.requires_grad = True
print(b2.is_leaf, b2.requires_grad, b2.grad_fn)
a.requires_grad_()
print(a.requires_grad, a.is_leaf)
E(lambda: setattr(a, 'requires_grad', 1))
E(lambda: a.requires_grad_(None))
model = torch.nn.Linear(5, 2)
for param in model.parameters():
    param.requires_grad = False
model.bias.requires_grad_(True)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
out = model(z)
print(out.grad_fn, out.grad_fn.next_functions)
'''

PROGRAMS['element_does_not_require_grad'] = PRE + r'''
x = torch.ones(3)
loss = (x * 2).sum()
E(lambda: loss.backward())
E(lambda: torch.autograd.grad(loss, x))
w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    l2 = (w * x).sum()
E(lambda: l2.backward())
l3 = (w.detach() * x).sum()
E(lambda: l3.backward())
E(lambda: torch.autograd.backward([loss, (w * 2).sum()]))
print(w.grad)
E(lambda: torch.autograd.backward([]))
E(lambda: torch.autograd.backward(None))
E(lambda: torch.autograd.backward([w.sum()], [torch.tensor(1.), torch.tensor(2.)]))
E(lambda: torch.autograd.grad([], [w]))
E(lambda: torch.autograd.grad(w.sum(), []))
'''

PROGRAMS['variable_and_old_tutorial_idioms'] = PRE + r'''
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x, type(x).__name__, x.requires_grad)
y = Variable(torch.ones(2))
print(y.requires_grad, isinstance(x, torch.Tensor))
out = (x * 3).sum()
out.backward()
print(x.grad.data, x.data, x.grad.data.zero_(), x.grad)
v = Variable(x)
print(v is x, v.requires_grad)
print(torch.autograd.Variable is Variable)
z = Variable(torch.ones(2), volatile=True) if False else None
E(lambda: Variable(torch.ones(2), volatile=True))
print(x.type(), x.data.type(), x.grad.type())
'''

PROGRAMS['anomaly_detection_nan_and_traceback'] = PRE + r'''
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    E(lambda: y.sum().backward())
print(x.grad)
with torch.autograd.set_detect_anomaly(True):
    z = (x / x).sum()
    E(lambda: z.backward())
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
x.grad = None
w = (x * 0).log()
w.sum().backward()
print(x.grad)
with torch.autograd.detect_anomaly(check_nan=False):
    x.grad = None
    x.sqrt().sum().backward()
    print(x.grad, torch.is_anomaly_check_nan_enabled())
'''

PROGRAMS['optimizer_with_non_leaf_and_frozen'] = PRE + r'''
w = torch.ones(2, requires_grad=True)
v = w * 2
E(lambda: torch.optim.SGD([v], lr=0.1))
E(lambda: torch.optim.SGD(w, lr=0.1))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD([w, w], lr=0.1))
opt = W(lambda: torch.optim.SGD([w], lr=0.1))
print(opt)
opt.step()
print(w)
frozen = torch.ones(2)
opt2 = torch.optim.Adam([frozen], lr=0.1)
opt2.step()
print(frozen)
(w * 3).sum().backward()
opt.step()
print(w, w.grad)
E(lambda: torch.optim.SGD([w], lr=-1))
E(lambda: torch.optim.Adam([w], betas=(1.0, 0.9)))
'''

PROGRAMS['detach_resize_and_misc_inplace_errors'] = PRE + r'''
x = torch.ones(4, requires_grad=True)
y = x * 2
v = y.view(2, 2)
E(lambda: v.detach_())
z = y.detach_()
print(z is y, y.requires_grad, y.grad_fn, y.is_leaf)
E(lambda: x.resize_(2, 2))
E(lambda: x.set_(torch.zeros(4)))
E(lambda: x.resize_as_(torch.zeros(2)))
w = torch.ones(3, requires_grad=True)
E(lambda: w.detach_())
print(w.requires_grad)
u = w.unsqueeze(0)
E(lambda: u.detach_())
E(lambda: w.numpy())
E(lambda: w.share_memory_() is w and print('shared'))
E(lambda: torch.nn.Parameter(w * 2))
print(torch.nn.Parameter(w.detach() * 2))
'''

PROGRAMS['T_and_mT_on_non_2d_warning'] = PRE + r'''
x = torch.arange(6.).reshape(1, 2, 3).requires_grad_()
t = x.T
print(t.shape, t.grad_fn)
y = torch.arange(3.)
print(y.T, y.T.shape)
print(x.mT.shape, x.mT.grad_fn, x.mH.shape)
E(lambda: y.mT)
print(torch.tensor(2.).T, torch.ones(2, 3).T.shape, torch.ones(2, 3).H.shape)
'''

PROGRAMS['copy_construct_tensor_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor(x)
print(y, y.requires_grad, y.is_leaf)
z = torch.tensor(x * 2, requires_grad=True)
print(z, z.grad_fn)
a = torch.as_tensor(x)
print(a is x)
b = torch.Tensor(x)
print(b is x, b.requires_grad)
c = torch.FloatTensor([1, 2])
print(c)
d = torch.tensor([x[0], x[1]])
print(d, d.requires_grad)
e = torch.stack([x[0], x[1]])
print(e)
f = torch.tensor([torch.tensor(1.), torch.tensor(2.)])
print(f)
'''

PROGRAMS['leaf_grad_assignment_rules'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
x.grad = torch.tensor([5., 6.])
print(x.grad)
(x * 1).sum().backward()
print(x.grad)
x.grad = None
print(x.grad)
del x.grad
print(x.grad)
y = x * 2
y.grad = torch.ones(2)
print(y.grad)
E(lambda: setattr(x, 'grad', torch.ones(2, 1)))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.int64)))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.float64)))
E(lambda: setattr(x, 'grad', x))
g = torch.ones(2, requires_grad=True)
x.grad = g
print(x.grad, x.grad is g)
n = torch.ones(2)
n.grad = torch.zeros(2)
print(n.grad, n.requires_grad)
'''

# ---- printing the way a student does: f-strings, containers, formats, precision

PROGRAMS['print_forms_of_graph_tensors'] = PRE + r'''
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.backward()
print(f"x={x} y={y} grad={x.grad}")
print(f"{y:.3f}", f"{x.grad:.1f}", '{:.2e}'.format(y), format(y, '6.2f'), f"{y.item():.4f}")
v = torch.tensor([1.5, 2.5], requires_grad=True)
E(lambda: f"{v:.2f}")
print(f"{v}", f"{v!r}", str(v), format(v, ''))
print([x, y], (y,), {'loss': y, 'grad': x.grad})
print(y.grad_fn, [y.grad_fn], {'fn': y.grad_fn.name()})
torch.set_printoptions(precision=2)
print(v * 3.14159, (v * 3.14159).grad_fn)
torch.set_printoptions(sci_mode=True)
print(v * 1e-5)
torch.set_printoptions(profile='default')
print(v * 1e-5, v * 1e5, v.double() * 1e10)
print(torch.tensor([1e-8, 1.], requires_grad=True) * 1)
print(torch.tensor([float('nan'), float('inf')], requires_grad=True).exp())
print(torch.zeros(0, requires_grad=True), torch.zeros(2, 0, requires_grad=True) * 2)
print(torch.tensor([1, 2, 3.]).requires_grad_().sum(0, keepdim=True))
print(torch.randn(3, dtype=torch.float64).requires_grad_().dtype if False else torch.ones(2, dtype=torch.float64, requires_grad=True) * 2)
print(torch.ones(2, dtype=torch.float16, requires_grad=True) / 3)
print(torch.ones(2, dtype=torch.bfloat16, requires_grad=True) / 3)
print(torch.ones(2, dtype=torch.complex64, requires_grad=True) * 1j)
'''

PROGRAMS['print_parameters_and_module_grads'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
x = torch.randn(4, 3)
y = model(x)
print(y, y.grad_fn, y.grad_fn.next_functions)
loss = y.pow(2).mean()
loss.backward()
for name, p in model.named_parameters():
    print(name, p.shape, p.grad)
print(model[0].weight)
print(repr(model[0].bias))
print(model[0].weight.grad_fn, model[0].weight.is_leaf, type(model[0].weight).__name__)
w = model[0].weight * 1
print(type(w).__name__, w.grad_fn)
print(list(model.parameters())[0].grad.norm())
print(model[0].weight.data, model[0].weight.detach())
print(model.state_dict()['0.weight'].requires_grad, model.state_dict()['0.weight'].grad_fn)
'''

PROGRAMS['double_backward_tutorial_saving_outputs_and_intermediates'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out
x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx
    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input
def sinh(x):
    return Sinh.apply(x)[0]
x = torch.rand(4, dtype=torch.double, requires_grad=True) if False else torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))
class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2
    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input
print(torch.autograd.gradcheck(SinhBad.apply, x))
E(lambda: torch.autograd.gradgradcheck(SinhBad.apply, x))
out = SinhBad.apply(x)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn)
'''

PROGRAMS['double_backward_tutorial_non_tensor_saving'] = PRE + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)
class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return grad_out * 3 * x ** 2
    @staticmethod
    def backward(ctx, grad_out):
        x, grad_out_orig = ctx.saved_tensors
        return grad_out * 3 * x ** 2, grad_out * 6 * x * grad_out_orig
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, x), torch.autograd.gradgradcheck(Cube.apply, x))
y = Cube.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
h, = torch.autograd.grad(g.sum(), x)
print(h)
'''

PROGRAMS['func_api_student_mistakes'] = PRE + r'''
from torch.func import grad, vmap, jacrev, jvp, vjp
x = torch.tensor([1., 2., 3.])
E(lambda: grad(lambda t: t ** 2)(x))
print(grad(lambda t: (t ** 2).sum())(x))
E(lambda: grad(lambda t: (t ** 2).sum())(torch.arange(3)))
E(lambda: grad(lambda t: t.sum().item())(x))
print(grad(lambda t, u: (t * u).sum(), argnums=1)(x, x * 2))
E(lambda: grad(lambda t, u: (t * u).sum(), argnums=2)(x, x))
print(jacrev(torch.sin)(x))
print(vmap(torch.dot)(x.view(3, 1), x.view(3, 1)))
E(lambda: vmap(torch.sum)(torch.tensor(1.)))
print(jvp(torch.sin, (x,), (torch.ones(3),)))
E(lambda: jvp(torch.sin, x, torch.ones(3)))
out, fn = vjp(torch.sin, x)
print(out, fn(torch.ones(3)))
xr = torch.ones(3, requires_grad=True)
g = grad(lambda t: (t ** 2).sum())(xr)
print(g, g.requires_grad, g.grad_fn)
'''

PROGRAMS['checkpoint_student_warnings'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    return t.sin().exp()
y = checkpoint(f, x, use_reentrant=False)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
E(lambda: checkpoint(f, x))
y2 = checkpoint(f, x, use_reentrant=True)
print(y2.grad_fn)
y2.sum().backward()
print(x.grad)
xn = torch.ones(2)
y3 = checkpoint(f, xn, use_reentrant=True)
print(y3.requires_grad)
'''

PROGRAMS['nn_losses_shape_warnings'] = PRE + r'''
import torch.nn.functional as F
pred = torch.tensor([[0.5], [1.5]], requires_grad=True)
target = torch.tensor([1., 2.])
loss = F.mse_loss(pred, target)
print(loss, loss.grad_fn)
loss.backward()
print(pred.grad)
l1 = F.l1_loss(pred, target)
print(l1)
E(lambda: F.mse_loss(pred, torch.ones(3)))
E(lambda: F.cross_entropy(torch.randn(2, 3), torch.tensor([0., 1.])))
E(lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
E(lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([[0], [1]])))
print(F.softmax(torch.tensor([[1., 2.]], requires_grad=True)))
print(F.log_softmax(torch.tensor([1., 2.], requires_grad=True)))
E(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.])))
E(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([[1.]])))
print(F.binary_cross_entropy_with_logits(torch.tensor([0.5], requires_grad=True), torch.tensor([1.])))
E(lambda: F.binary_cross_entropy_with_logits(torch.tensor([0.5]), torch.tensor([1, 0])))
'''

PROGRAMS['seed_notes_one_layer_network'] = PRE + r'''
x = torch.ones(5)
y = torch.zeros(3)
torch.manual_seed(0)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
loss.backward()
print(w.grad)
print(b.grad)
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)
E(lambda: loss.backward())
print(loss.grad_fn.next_functions, loss.grad_fn._saved_pos_weight, loss.grad_fn._saved_weight, loss.grad_fn._saved_reduction)
'''

PROGRAMS['lr_scheduler_order_warning'] = PRE + r'''
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
sched.step()
print(sched.get_last_lr(), opt.param_groups[0]['lr'])
(w * 2).sum().backward()
opt.step()
sched.step()
print(w, sched.get_last_lr())
print(sched.get_lr())
'''

PROGRAMS['clip_grad_and_grads_none'] = PRE + r'''
m = torch.nn.Linear(2, 2)
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0))
x = torch.ones(1, 2)
torch.manual_seed(0)
with torch.no_grad():
    m.weight.fill_(2.); m.bias.fill_(1.)
(m(x) * 10).sum().backward()
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0), m.weight.grad, m.bias.grad)
print(torch.nn.utils.clip_grad_value_(m.parameters(), 0.1), m.weight.grad)
m.weight.grad[0, 0] = float('nan')
E(lambda: torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0))
'''

# ---- context managers used the wrong way

PROGRAMS['grad_mode_managers_misused'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
def bare():
    with torch.no_grad:
        pass
E(bare)
def bare_enable():
    with torch.enable_grad:
        pass
E(bare_enable)
def bare_inference():
    with torch.inference_mode:
        pass
E(bare_inference)
@torch.inference_mode
def f(t):
    return t * 2
print(f(x).requires_grad, f(x).is_inference())
E(lambda: torch.set_grad_enabled(lambda t: t))
def set_bare():
    @torch.set_grad_enabled
    def g(t):
        return t * 2
    return g(x)
E(set_bare)
@torch.enable_grad
def h(t):
    return t * 2
with torch.no_grad():
    print(h(x).requires_grad)
E(lambda: torch.no_grad(True))
E(lambda: torch.inference_mode(mode='yes'))
with torch.no_grad(), torch.enable_grad():
    print((x * 2).requires_grad)
cm = torch.no_grad()
with cm:
    with cm:
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
'''

PROGRAMS['leaf_modified_after_forward_version_message'] = PRE + r'''
w = torch.tensor([1., 2., 3.], requires_grad=True)
y = (w * w).sum()
with torch.no_grad():
    w.add_(1)
E(lambda: y.backward())
w2 = torch.tensor([1., 2.], requires_grad=True)
z = w2.exp()
with torch.no_grad():
    w2[0] = 5
print(w2._version)
z.sum().backward()
print(w2.grad)
i = torch.tensor([0, 1])
v = torch.tensor([1., 2.], requires_grad=True)
g = v.gather(0, i)
i[0] = 1
E(lambda: g.sum().backward())
print(v.grad, i._version)
m = torch.tensor([1., 2.], requires_grad=True)
s = m.sigmoid()
s2 = s.view(2)
with torch.no_grad():
    s2.mul_(2)
E(lambda: s.sum().backward())
'''

PROGRAMS['nan_gradient_traps'] = PRE + r'''
x = torch.tensor([-1., 0., 4.], requires_grad=True)
y = torch.where(x > 0, x.sqrt(), torch.zeros_like(x))
y.sum().backward()
print(y, x.grad)
x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x))
y = torch.where(x > 0, safe.sqrt(), torch.zeros_like(x))
y.sum().backward()
print(x.grad)
x.grad = None
x.abs().sum().backward(); print(x.grad)
x.grad = None
x.relu().sum().backward(); print(x.grad)
x.grad = None
x.clamp(min=0).sum().backward(); print(x.grad)
x.grad = None
x.clamp(0, 4).sum().backward(); print(x.grad)
z = torch.zeros(3, requires_grad=True)
z.norm().backward(); print(z.grad)
z.grad = None
(z / z).sum().backward(); print(z.grad)
z.grad = None
z.sqrt().sum().backward(); print(z.grad)
z.grad = None
(z ** 0.5).sum().backward(); print(z.grad)
z.grad = None
(z ** 0).sum().backward(); print(z.grad)
z.grad = None
z.log().sum().backward(); print(z.grad)
t = torch.tensor([1., 3., 3.], requires_grad=True)
t.max().backward(); print(t.grad)
t.grad = None
t.max(0).values.backward(); print(t.grad)
t.grad = None
torch.max(t, torch.tensor([3., 3., 1.])).sum().backward(); print(t.grad)
t.grad = None
t.median().backward(); print(t.grad)
t.grad = None
t.amax().backward(); print(t.grad)
'''

PROGRAMS['complex_backward_mistakes'] = PRE + r'''
z = torch.tensor([1+2j, 3-1j], requires_grad=True)
print(z, z.dtype)
E(lambda: z.sum().backward())
E(lambda: (z * z).sum().backward())
z.abs().sum().backward()
print(z.grad)
z.grad = None
(z * z.conj()).real.sum().backward()
print(z.grad)
w = torch.tensor([1., 2.], requires_grad=True)
c = w * (1 + 1j)
print(c, c.grad_fn)
c.abs().sum().backward(retain_graph=True)
print(w.grad)
E(lambda: torch.autograd.grad(c.sum(), w))
print(torch.autograd.grad(c.sum(), w, torch.tensor(1+0j)))
'''

PROGRAMS['autograd_grad_deprecated_and_batched'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y.sum(), x, only_inputs=True, retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), x, only_inputs=False, retain_graph=True))
print(torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad(outputs=[y], inputs=[x], grad_outputs=[torch.ones(2)], retain_graph=True))
print(torch.autograd.grad(y.sum(), inputs=x, retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), x, retain_graph=True, create_graph=True, allow_unused=True, foo=1))
E(lambda: torch.autograd.backward(y.sum(), grad_variables=None))
'''

PROGRAMS['function_static_method_mistakes'] = PRE + r'''
class NotStatic(torch.autograd.Function):
    def forward(ctx, x):
        return x * 2
    def backward(ctx, g):
        return g * 2
a = torch.ones(2, requires_grad=True)
r = W(lambda: NotStatic.apply(a))
print(r)
r.sum().backward()
print(a.grad)
class Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('grad enabled in forward:', torch.is_grad_enabled(), x.requires_grad)
        y = x * 2
        print('inner', y.requires_grad, y.grad_fn)
        print('needs', ctx.needs_input_grad)
        return y
    @staticmethod
    def backward(ctx, g):
        print('grad enabled in backward:', torch.is_grad_enabled())
        return g * 2
out = Inner.apply(a)
out.sum().backward()
with torch.no_grad():
    o2 = Inner.apply(a)
print(o2.requires_grad, o2.grad_fn)
o3 = Inner.apply(torch.ones(2))
print(o3.requires_grad, o3.grad_fn)
class Deprec(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = W(lambda: ctx.saved_variables)
        return g * 2
Deprec.apply(a).sum().backward()
print(a.grad)
'''

PROGRAMS['function_saved_intermediate_modified'] = PRE + r'''
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        y.add_(1)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
a = torch.tensor([1., 2.], requires_grad=True)
E(lambda: Bad.apply(a).sum().backward())
class ModInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
b = a * 1
out = ModInput.apply(b)
b.add_(1)
E(lambda: out.sum().backward())
class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g
c = a * 1
v = ViewOut.apply(c)
print(v.grad_fn, v._base is c, v._is_view())
E(lambda: v.mul_(2))
'''

PROGRAMS['backward_on_leaf_and_accumulation_forms'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.backward(torch.tensor([3., 4.]))
print(x.grad)
x.sum().backward()
print(x.grad)
E(lambda: x.backward())
x.grad.zero_()
print(x.grad)
y = x * x
y.backward(torch.ones(2), retain_graph=True)
y.backward(torch.ones(2) * 2)
print(x.grad)
s = torch.tensor(3., requires_grad=True)
s.backward()
print(s.grad)
s.backward(torch.tensor(2.))
print(s.grad)
x.grad = None
torch.autograd.backward([x * 2, x * 3], [torch.ones(2), torch.ones(2)])
print(x.grad)
torch.autograd.backward((x ** 2).sum(), inputs=x)
print(x.grad)
'''

# ---- warnings a student meets on the way (deprecated spellings, degenerate statistics, resized outputs)

PROGRAMS['warnings_deprecated_spellings'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([-1., 0., 2.], requires_grad=True)
print(F.sigmoid(x), F.tanh(x))
m = torch.nn.Linear(2, 2)
torch.nn.init.xavier_uniform(torch.empty(2, 2))
torch.nn.init.constant(m.bias, 0.5)
print(m.bias)
(m(torch.ones(1, 2))).sum().backward()
print(torch.nn.utils.clip_grad_norm(m.parameters(), 1.0))
print(torch.nn.MSELoss(size_average=False))
print(F.mse_loss(x, torch.zeros(3), reduce=False))
print(torch.range(0, 2))
print(F.upsample(torch.ones(1, 1, 2), scale_factor=2))
print(torch.meshgrid(torch.arange(2), torch.arange(2)))
'''

PROGRAMS['warnings_degenerate_statistics'] = PRE + r'''
x = torch.tensor([3.], requires_grad=True)
s = x.std()
print(s, s.grad_fn)
s.backward()
print(x.grad)
print(torch.tensor([[1., 2.]], requires_grad=True).var(0))
print(torch.ones(1, 3).std(dim=0, keepdim=True))
b = torch.nn.BatchNorm1d(2)
E(lambda: b(torch.ones(1, 2)))
b.eval()
print(b(torch.ones(1, 2)))
print(torch.empty(0).mean(), torch.empty(0, requires_grad=True).sum())
print(torch.tensor([1., 2.]).std(correction=2))
E(lambda: torch.ones(2).std(unbiased=False, correction=1))
'''

PROGRAMS['warnings_resized_out_and_readonly_numpy'] = PRE + r'''
import numpy as np
a = torch.ones(3)
out = torch.zeros(2)
torch.add(a, a, out=out)
print(out)
out2 = torch.zeros(0)
torch.mul(a, 2, out=out2)
print(out2)
x = torch.ones(3, requires_grad=True)
E(lambda: torch.add(x, 1, out=torch.zeros(3)))
E(lambda: torch.exp(torch.ones(3), out=x))
arr = np.arange(3.)
arr.flags.writeable = False
t = torch.from_numpy(arr)
print(t)
t2 = torch.as_tensor(arr)
print(t2)
'''

PROGRAMS['warnings_default_tensor_type_and_dtype'] = PRE + r'''
torch.set_default_dtype(torch.float64)
x = torch.tensor([1.5], requires_grad=True)
print(x, x.dtype, (x * 2).dtype, torch.ones(1).dtype)
torch.set_default_dtype(torch.float32)
E(lambda: torch.set_default_dtype(torch.int64))
print(torch.get_default_dtype(), torch.tensor(1.).dtype)
'''

PROGRAMS['multi_grad_hooks_and_graph_utilities'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
d = a + b
def hook(grads):
    print('multi', [None if g is None else g.tolist() for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((c, d), hook)
print(type(h).__name__)
(c.sum() + d.sum()).backward(retain_graph=True)
c.sum().backward()
h.remove()
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    x = a.clone()
    y = x * x
    x.add_(1)
    y.sum().backward()
print(a.grad)
z = a.clone()
w = z.sin()
torch.autograd.graph.increment_version(z)
E(lambda: w.sum().backward())
print(torch.autograd.graph.Node, isinstance(w.grad_fn, torch.autograd.graph.Node))
'''

PROGRAMS['removable_handles_and_repr'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
h = x.register_hook(lambda g: g)
print(h, type(h), hasattr(h, 'id'))
with x.register_hook(lambda g: g * 0) as h2:
    (x * 1).sum().backward()
    print(x.grad)
(x * 1).sum().backward()
print(x.grad)
m = torch.nn.Linear(1, 1)
h3 = m.register_forward_pre_hook(lambda mod, inp: print('pre', inp[0].shape))
m(torch.ones(2, 1))
h3.remove()
print(m._forward_pre_hooks)
y = x * 2
h4 = y.grad_fn.register_hook(lambda gi, go: None)
print(type(h4).__name__)
h4.remove()
'''

# ---- what a student finds when poking at grad_fn: the saved attributes of many ops

PROGRAMS['explore_saved_attributes_of_many_ops'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([[1., -2., 3.], [4., 5., -6.]], requires_grad=True)
w = torch.tensor([[0.5, 1.], [1.5, -1.], [2., 0.]], requires_grad=True)
idx = torch.tensor([1, 0])
exprs = ["x[0]", "x[:, 1:]", "x[idx]", "x[x > 0]", "x[None]", "x.T", "x.mT", "x.reshape(3, 2)", "x.flatten()", "x.expand(2, 2, 3)",
 "x.repeat(2, 1)", "x.mean(1)", "x.std(0)", "x.var()", "x.softmax(1)", "x.log_softmax(0)", "x @ w", "x[0] @ w", "x[0] @ x[1]",
 "x.matmul(w).relu()", "F.linear(x, w.t())", "F.linear(x, w.t(), torch.ones(2))", "x.to(torch.float64)", "x.double()", "torch.cat([x, x])",
 "torch.stack([x, x])", "x.split(1)[0]", "x.chunk(3, 1)[1]", "x.unbind()[0]", "x.narrow(1, 0, 2)", "x.masked_fill(x > 0, 0)",
 "torch.where(x > 0, x, 0.)", "torch.where(x > 0, x, torch.zeros(2, 3))", "x.norm()", "x.norm(dim=1)", "torch.dist(x, x.detach())",
 "x.max()", "x.max(1)[0]", "x.amax(1)", "x.min(0).values", "x.sort(1)[0]", "x.topk(2)[0]", "x.cumsum(1)", "x.cumprod(0)", "x.prod()",
 "x.prod(1)", "x.pow(2)", "x ** 2.5", "2 ** x", "x.pow(x)", "x.clamp(min=0)", "x.clamp(-1, 1)", "x.clamp(max=torch.zeros(3))",
 "x.abs()", "x.exp2()", "x.sigmoid()", "F.gelu(x)", "F.silu(x)", "F.leaky_relu(x, 0.1)", "F.elu(x)", "F.softplus(x)", "F.dropout(x, 0.0)",
 "F.cross_entropy(x, idx)", "F.nll_loss(x.log_softmax(1), idx)", "F.mse_loss(x, x.detach() * 2)", "F.binary_cross_entropy(x.sigmoid(), torch.ones(2, 3))",
 "F.layer_norm(x, (3,))", "F.normalize(x)", "torch.einsum('ij,jk->ik', x, w)", "x.gather(1, torch.tensor([[0], [2]]))",
 "x.index_select(1, idx)", "x.diag()", "x.tril()", "x.flip(0)", "x.roll(1)", "x.permute(1, 0)", "x.squeeze()", "x.unsqueeze(2)",
 "x.view(-1)", "x.contiguous()", "x.clone()", "x.sum(dim=1, keepdim=True)", "x.logsumexp(1)", "x.atan2(w.t())", "torch.lerp(x, w.t(), 0.5)",
 "torch.addmm(torch.zeros(2, 2), x, w)", "x.div(2)", "x / w.t()", "x.div(w.t(), rounding_mode=None)", "x.sub(w.t(), alpha=2)", "x.add(1, alpha=3)",
 "1 - x", "x.neg()", "x.reciprocal()", "x.sqrt()", "x.rsqrt()", "x.log1p()", "x.sin().cos()", "x.tan()", "x.asinh()",
 "torch.maximum(x, w.t())", "torch.fmax(x, w.t())", "x.trace()", "x.square()", "x.frac()", "x.trunc()", "x.mean()", "x.nansum()", "x.nanmean()",
 "x.unfold(1, 2, 1)", "x.as_strided((2, 2), (1, 1))", "x.new_zeros(2) + x[0, :2]", "x.type(torch.float64)", "x.float()", "x.select(1, 2)",
 "F.pad(x, (1, 1))", "F.embedding(idx, x)", "torch.outer(x[0], x[1])", "torch.kron(x, x)", "torch.cdist(x, x)", "torch.diff(x)", "x.renorm(2, 0, 1)",
 "x.logit()", "x.erf()", "x.lgamma()", "x.digamma()", "torch.hypot(x, w.t())", "x.xlogy(2.)", "torch.cross(x, w.t(), dim=1)", "x.cumsum(0).flip(1)"]
for e in exprs:
    try:
        y = eval(e)
        fn = y.grad_fn
        attrs = [a for a in dir(fn) if a.startswith('_saved')]
        vals = []
        for a in attrs:
            try:
                v = getattr(fn, a)
                vals.append((a, v if not isinstance(v, torch.Tensor) else ('T', tuple(v.shape), str(v.dtype), v.flatten()[:4].tolist())))
            except Exception as ex:
                vals.append((a, type(ex).__name__))
        print(e, '->', fn.name(), [type(n).__name__ if n else None for n, _ in fn.next_functions], [i for _, i in fn.next_functions], vals)
    except Exception as ex:
        print(e, '->', type(ex).__name__, ex)
'''

# ---- gradcheck's failure messages (several inputs and outputs, complex, fast mode, forward AD)

PROGRAMS['gradcheck_failure_messages_in_depth'] = PRE + FWD + r'''
from torch.autograd import gradcheck, gradgradcheck
class Bad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y
    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        return g1 * y + g2, g1 * x * 0.9 + g2
x = torch.tensor([[0.5, 1.0], [2., 3.]], dtype=torch.double, requires_grad=True)
y = torch.tensor([[1.5, -1.0], [0.2, 0.3]], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(Bad2.apply, (x, y)))
E(lambda: gradcheck(Bad2.apply, (x, y), fast_mode=True))
E(lambda: gradcheck(Bad2.apply, (x, y.detach())))
E(lambda: gradcheck(Bad2.apply, (x.t(), y)))
E(lambda: gradcheck(Bad2.apply, (x, y), atol=0.5, rtol=0.5))
c = torch.tensor([1+1j, 2-1j], dtype=torch.cdouble, requires_grad=True)
class BadC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * g * x
E(lambda: gradcheck(BadC.apply, (c,)))
E(lambda: gradcheck(BadC.apply, (c,), fast_mode=True))
E(lambda: gradcheck(lambda t: t.abs(), (c,)))
E(lambda: gradcheck(lambda t: (t * t).real, (c,)))
E(lambda: gradcheck(lambda t: t.sum(), (x,), check_batched_grad=True))
E(lambda: gradcheck(lambda t: t.sum(), (x,), check_undefined_grad=True, check_forward_ad=True))
class BadJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.exp() * 2
E(lambda: gradcheck(BadJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False))
E(lambda: gradcheck(lambda t: t.exp(), (x,), check_forward_ad=True))
E(lambda: gradgradcheck(lambda t: t.exp() * 2, (x,), gen_non_contig_grad_outputs=True))
def f_int(t):
    return t.sum(), (t > 0).sum()
E(lambda: gradcheck(f_int, (x,)))
E(lambda: gradcheck(lambda t: t.round(), (x,)))
E(lambda: gradcheck(lambda t: t.abs(), (torch.tensor([0., 1.], dtype=torch.double, requires_grad=True),)))
E(lambda: gradcheck(lambda t: t.clone(), (torch.tensor([1., 2.], dtype=torch.float32, requires_grad=True),), eps=1e-3, atol=1e-2))
E(lambda: gradcheck(lambda t: t.relu(), (torch.tensor([1e-8, 1.], dtype=torch.double, requires_grad=True),)))
'''

# ---- .grad accumulation identity, hooks and retain_grad with in-place ops
# fixed: accumulating into a hand-made .grad with other strides gives PyTorch's gradient layout contract warning
# (once per process, so in the fresh-process test)

PROGRAMS['grad_identity_hooks_retain_grad_inplace'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
g = x.grad
(x * 3).sum().backward()
print(g is x.grad, g, x.grad)
(x * 3).sum().backward(create_graph=True)
print(g is x.grad, g, x.grad, x.grad.grad_fn)
g2 = x.grad
(x * 3).sum().backward()
print(g2 is x.grad, x.grad.grad_fn)
x.grad = None
with torch.no_grad():
    pass
x.grad = torch.zeros(2).expand(2)
(x * 1).sum().backward()
print(x.grad, x.grad.stride())
x.grad = torch.zeros(4)[::2]
gg = x.grad
(x * 1).sum().backward()
print(x.grad, gg is x.grad, x.grad.stride())
# hooks and retain_grad with in-place
a = torch.ones(2, requires_grad=True)
b = a * 2
b.retain_grad()
b.register_hook(lambda g: print('hook on b', g))
b.mul_(3)
print(b.retains_grad, b.grad_fn)
b.sum().backward()
print(b.grad, a.grad)
c = a * 1
c.register_hook(lambda g: print('hook c before', g) or g * 10)
c.retain_grad()
c.register_hook(lambda g: print('hook c after', g))
c.sum().backward()
print(c.grad, a.grad)
d = a * 1
v = d[0]
v.register_hook(lambda g: print('view hook', g))
d.register_hook(lambda g: print('base hook', g))
d[1].mul_(2)
d.sum().backward()
e = a * 1
e.retain_grad()
ev = e.view(2)
ev.retain_grad()
ev.add_(1)
print(e.grad_fn, ev.grad_fn)
(e * ev).sum().backward()
print(e.grad, ev.grad)
f = a.clone()
f.retain_grad()
f.retain_grad()
f.sum().backward(retain_graph=True)
f.sum().backward()
print(f.grad)
h = a.clone()
hv = h[:1]
hv.retain_grad()
h.sum().backward()
print(hv.grad, h.grad)
'''


# ---- the docs' own examples, retyped by a student (with the student's detours)

PROGRAMS['extending_linear_function_and_module'] = PRE + r"""
class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
class Linear(torch.nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = torch.nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = torch.nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)
    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)
    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None)
torch.manual_seed(0)
m = Linear(3, 2)
print(m, m.weight, m.bias)
x = torch.randn(4, 3, requires_grad=True)
out = m(x)
print(out, out.grad_fn)
out.sum().backward()
print(m.weight.grad, m.bias.grad, x.grad)
m2 = Linear(3, 2, bias=False)
print(m2, m2.bias, list(dict(m2.named_parameters())))
E(lambda: m2(x).sum().backward())
print(m2.weight.grad)
from torch.autograd import gradcheck
input = (torch.randn(4, 3, dtype=torch.double, requires_grad=True), torch.randn(5, 3, dtype=torch.double, requires_grad=True))  # (the docs' 20x20 and 30x20, smaller)
test = gradcheck(LinearFunction.apply, input + (None,), eps=1e-6, atol=1e-4)
print(test)
E(lambda: LinearFunction.apply(x, m.weight))
"""

PROGRAMS['extending_mul_constant_and_torch_function'] = PRE + r"""
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
x = torch.tensor([1., 2.], requires_grad=True)
y = MulConstant.apply(x, 5.5)
y.sum().backward()
print(y, x.grad)
class BadMulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, torch.tensor(0.)
E(lambda: BadMulConstant.apply(x, 5.5).sum().backward())
HANDLED_FUNCTIONS = {}
class ScalarTensor(object):
    def __init__(self, N, value):
        self._N = N
        self._value = value
    def __repr__(self):
        return "ScalarTensor(N={}, value={})".format(self._N, self._value)
    def tensor(self):
        return self._value * torch.eye(self._N)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(issubclass(t, (torch.Tensor, ScalarTensor)) for t in types):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)
import functools
def implements(torch_function):
    def decorator(func):
        functools.update_wrapper(func, torch_function)
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator
@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N
d = ScalarTensor(5, 2)
print(d, d.tensor())
print(torch.mean(d))
E(lambda: torch.sum(d))
E(lambda: torch.add(d, 1))
@implements(torch.add)
def add(input, other):
    try:
        if input._N == other._N:
            return ScalarTensor(input._N, input._value + other._value)
        else:
            raise ValueError("Shape mismatch!")
    except AttributeError:
        return torch.add(input.tensor(), other)
s = ScalarTensor(2, 2)
print(torch.add(s, s), torch.add(s, torch.tensor([[1, 1], [1, 1]])))
E(lambda: torch.add(s, ScalarTensor(3, 1)))
E(lambda: torch.mul(s, 3))
"""

PROGRAMS['forward_ad_tutorial_modules_and_functional_call'] = PRE + FWD + r"""
from torch.func import functional_call
torch.manual_seed(0)
model = torch.nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp[:2])
model = torch.nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp, jvp2))
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
def fn(x, y):
    return x ** 2 + y ** 2
primal_out, tangent_out = torch.func.jvp(fn, (primal, tangent), (tangent, tangent))
print(primal_out.shape, torch.allclose(tangent_out, 2 * primal * tangent + 2 * tangent * tangent))
with fwAD.dual_level():
    x = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(x.sum()).tangent.shape, type(fwAD.unpack_dual(x)).__name__)
    E(lambda: x.numpy())
    E(lambda: x.item())
    print(fwAD.unpack_dual(x[0, 0]).tangent == tangent[0, 0])
"""

PROGRAMS['seed_notes_mean_x_squared_and_vjp'] = PRE + r"""
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.mean(x * x)
print(y, y.grad_fn, y.grad_fn.next_functions, y.grad_fn.next_functions[0][0].next_functions)
y.backward()
print(x.grad, x.grad == x / 2)
x2 = torch.tensor([1., 2., 3.], requires_grad=True)
y2 = x2 * 2
while y2.data.norm() < 1000:
    y2 = y2 * 2
print(y2, y2.grad_fn)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y2.backward(v)
print(x2.grad)
print(x2.requires_grad, (x2 ** 2).requires_grad)
with torch.no_grad():
    print((x2 ** 2).requires_grad)
yd = x2.detach()
print(yd.requires_grad, x2.eq(yd).all())
J = torch.autograd.functional.jacobian(lambda t: t * 2 ** 10, x2)
print(J, v @ J)
"""

PROGRAMS['threads_running_backward'] = PRE + r"""
import threading
x = torch.ones(5, 5, requires_grad=True)
def train_fn():
    y = x + 3
    y = y * y
    y.sum().backward()
threads = []
for _ in range(4):
    p = threading.Thread(target=train_fn, args=())
    p.start()
    threads.append(p)
for p in threads:
    p.join()
print(x.grad)
results = []
def grad_fn_thread(k):
    t = torch.tensor([float(k)], requires_grad=True)
    results.append((k, torch.autograd.grad((t ** 3).sum(), t)[0].item()))
ts = [threading.Thread(target=grad_fn_thread, args=(k,)) for k in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
print(sorted(results))
def no_grad_in_thread():
    with torch.no_grad():
        results.append(('thread', torch.is_grad_enabled()))
with torch.no_grad():
    t = threading.Thread(target=lambda: results.append(('child', torch.is_grad_enabled())))
    t.start(); t.join()
print(results[-1], torch.is_grad_enabled())
"""

PROGRAMS['finetuning_freeze_and_mechanics_notes'] = PRE + r"""
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
for param in model.parameters():
    param.requires_grad = False
model[2] = torch.nn.Linear(3, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
x = torch.randn(2, 4)
out = model(x)
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print([(n, p.grad is None) for n, p in model.named_parameters()])
optimizer.step()
print(optimizer.state_dict()['state'].keys(), len(optimizer.param_groups[0]['params']))
model.requires_grad_(False)
E(lambda: model(x).sum().backward())
model.eval()
with torch.inference_mode():
    y = model(x)
print(y.requires_grad, y.is_inference(), model.training)
model.train()
model[0].requires_grad_()
h = model(x).sum()
print(h.grad_fn, [type(n).__name__ if n else None for n, _ in h.grad_fn.next_functions[0][0].next_functions])
"""


# ---- Function.apply with keywords, outputs returned twice, func transforms and autograd.functional misuse

PROGRAMS['function_apply_forms_and_functional_misuse'] = PRE + FWD + r'''
class K(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=2.0):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: K.apply(x, k=3.0))
E(lambda: K.apply(x))
E(lambda: K.apply())
E(lambda: K.apply(x, 1, 2))
class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        return y, y
    @staticmethod
    def backward(ctx, g1, g2):
        print('same grads', g1, g2)
        return g1 + g2
a, b = Same.apply(x)
print(a is b, a.grad_fn is b.grad_fn, a.output_nr, b.output_nr)
(a.sum() + 2 * b.sum()).backward()
print(x.grad)
class SaveOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
o = SaveOut.apply(x)
o.add_(1)
E(lambda: o.sum().backward())
o2 = SaveOut.apply(x)
print(o2.grad_fn, o2.grad_fn._raw_saved_tensors if hasattr(o2.grad_fn, '_raw_saved_tensors') else '')
print(type(o2.grad_fn._raw_saved_tensors[0]).__name__)
E(lambda: torch.autograd.grad(x.sum(), (t for t in [x])))
E(lambda: torch.autograd.grad((x * 2).sum(), [x, x]))
y = (x * 3).sum()
y.backward(inputs=[x, x])
print(x.grad)
from torch.func import grad, grad_and_value
def f(t):
    return (t ** 2).sum(), t.mean()
E(lambda: grad(f)(x.detach()))
print(grad(f, has_aux=True)(x.detach()))
E(lambda: grad(lambda t: ((t ** 2).sum(), 1), has_aux=True)(x.detach()))
E(lambda: grad(lambda t: (t ** 2).sum(), has_aux=True)(x.detach()))
print(grad_and_value(lambda t: (t ** 2).sum())(x.detach()))
class VmapFn(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x.sin()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
print(torch.vmap(VmapFn.apply)(torch.tensor([[0., 1.], [2., 3.]])))
class NoVmap(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: torch.vmap(NoVmap.apply)(torch.ones(2, 2)))
print(torch.func.grad(lambda t: VmapFn.apply(t).sum())(torch.tensor([0., 1.])))
E(lambda: torch.func.grad(lambda t: NoVmap.apply(t).sum())(torch.tensor([0., 1.])))
J = torch.autograd.functional.jacobian(lambda t: t ** 2, x, vectorize=True)
print(J)
E(lambda: torch.autograd.functional.jacobian(lambda t: t ** 2, x, strategy='forward-mode'))
print(torch.autograd.functional.jacobian(lambda t: t ** 2, x, strategy='forward-mode', vectorize=True))
E(lambda: torch.autograd.functional.jacobian(lambda t: t ** 2, x, strategy='sideways'))
print(torch.autograd.functional.jacobian(lambda t: torch.ones(2), x))
E(lambda: torch.autograd.functional.jacobian(lambda t: torch.ones(2), x, strict=True))
E(lambda: torch.autograd.functional.jacobian(lambda t: 3.0, x))
print(torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), x, create_graph=True))
E(lambda: torch.autograd.functional.hessian(lambda t: t ** 3, x))
print(torch.autograd.functional.jvp(lambda t: t ** 2, x, torch.ones(2)))
E(lambda: torch.autograd.functional.vjp(lambda t: t ** 2, x))
print(torch.autograd.functional.vhp(lambda t: (t ** 3).sum(), x, torch.ones(2)))
'''

# ---- walking a layer's whole backward graph, the way a student draws it by hand

PROGRAMS['walk_backward_graph_of_layers'] = PRE + r'''
import torch.nn as nn
def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or id(fn) in seen:
        return
    seen.add(id(fn))
    saved = sorted(a for a in dir(fn) if a.startswith('_saved_'))
    vals = []
    for a in saved:
        try:
            v = getattr(fn, a)
        except Exception as e:
            v = type(e).__name__
        if isinstance(v, torch.Tensor):
            v = ('T', tuple(v.shape), str(v.dtype))
        elif isinstance(v, (tuple, list)) and v and isinstance(v[0], torch.Tensor):
            v = [('T', tuple(t.shape)) for t in v]
        vals.append((a, v))
    print('  ' * depth + type(fn).__name__, vals)
    for nf, i in fn.next_functions:
        walk(nf, depth + 1, seen)
torch.manual_seed(0)
cnn = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.BatchNorm2d(2), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.5), nn.Linear(8, 3))
x = torch.randn(2, 1, 4, 4)
walk(cnn(x).sum().grad_fn)
cnn.eval()
walk(cnn(x).log_softmax(1).mean().grad_fn)
emb = nn.Embedding(4, 2, padding_idx=0)
walk(emb(torch.tensor([0, 3])).sum().grad_fn)
ln = nn.LayerNorm(3)
walk(ln(torch.randn(2, 3)).sum().grad_fn)
mha = nn.MultiheadAttention(4, 2, batch_first=True)
q = torch.randn(1, 2, 4)
o, w = mha(q, q, q)
walk(o.sum().grad_fn)
'''

# ---- training-loop mistakes

PROGRAMS['loop_accumulating_loss_tensor_keeps_graph'] = PRE + r"""
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
data = [torch.randn(3) for _ in range(3)]
total_loss = 0
for x in data:
    loss = (w * x).sum() ** 2
    total_loss += loss
print(total_loss, total_loss.grad_fn, total_loss.grad_fn.next_functions)
total_loss.backward()
print(w.grad)
w.grad = None
total = 0.
for x in data:
    loss = (w * x).sum() ** 2
    loss.backward()
    total += loss.item()
print(total, type(total).__name__, w.grad)
losses = []
for x in data:
    losses.append((w * x).sum())
stacked = torch.stack(losses)
print(stacked, stacked.grad_fn)
E(lambda: torch.tensor(losses))
t = torch.tensor([l.item() for l in losses])
print(t, t.requires_grad)
s = sum(losses)
print(s, s.grad_fn)
m = torch.mean(torch.stack(losses))
m.backward()
print(w.grad)
"""

PROGRAMS['loop_rnn_hidden_state_and_detach'] = PRE + r"""
torch.manual_seed(0)
W = torch.randn(2, 2, requires_grad=True)
h = torch.zeros(2)
xs = [torch.randn(2) for _ in range(4)]
for i, x in enumerate(xs):
    h = torch.tanh(W @ h + x)
    if i == 1:
        h.sum().backward(retain_graph=True)
        print('grad at 1', W.grad)
print(h.grad_fn, h.grad_fn.next_functions[0][0])
h.sum().backward()
print(W.grad)
W.grad = None
h = torch.zeros(2)
for i, x in enumerate(xs):
    h = torch.tanh(W @ h + x)
    if i % 2 == 1:
        h.sum().backward()
        h = h.detach()
print(W.grad, h.requires_grad)
h = torch.zeros(2)
def step():
    global h
    for x in xs[:2]:
        h += W @ x
E(step)
h2 = torch.zeros(2, requires_grad=True)
def step2():
    global h2
    h2 += 1
E(step2)
h3 = torch.zeros(2)
h3 = h3 + W @ xs[0]
h3 += W @ xs[1]
print(h3, h3.grad_fn)
h3.sum().backward()
print(W.grad)
"""

PROGRAMS['loop_manual_sgd_mistakes'] = PRE + r"""
torch.manual_seed(0)
x = torch.linspace(-1, 1, 5)
y = 3 * x + 1
w = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
lr = 0.1
for epoch in range(3):
    pred = w * x + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    def update():
        global w
        w -= lr * w.grad
    E(update)
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    print(epoch, f"{loss.item():.4f}", w, b, w.grad, b.grad)
print(w.is_leaf, b.is_leaf, w.grad_fn)
def update2():
    global b
    b = b - lr * b.grad
    return b
r = update2()
print(r, r.is_leaf, r.grad_fn)
pred = w * x + r
loss = ((pred - y) ** 2).mean()
loss.backward()
print(r.grad, b.grad)
"""

PROGRAMS['lists_of_tensors_and_python_numbers'] = PRE + r"""
a = torch.tensor(2., requires_grad=True)
vals = [a, a * 2, a ** 2]
print(vals)
t = torch.stack(vals)
print(t, t.grad_fn)
print(max(vals), min(vals).grad_fn, sorted(vals, reverse=True))
print(sum(vals), sum(vals).grad_fn)
print(float(a), int(a * 2), round(float(a ** 0.5), 3))
E(lambda: round(a ** 0.5, 2))
E(lambda: round(a))
print(abs(-a), -a, +a, (+a).grad_fn)
print(a == 2, a > 1, (a == 2).requires_grad)
print(a // 1, a % 1.5)
E(lambda: divmod(5, torch.tensor(2)))
E(lambda: divmod(a, 2))
print(2 ** a, 2 / a, 2 - a, (2 - a).grad_fn, (2 / a).grad_fn)
print(math_val := __import__('math').sqrt(a))
E(lambda: __import__('math').sqrt(torch.tensor([1., 4.])))
import numpy as np
E(lambda: np.float64(a))
print(np.float64(a.detach()), np.sqrt(a.detach()))
"""

PROGRAMS['requires_grad_flags_and_leaf_rules_in_depth'] = PRE + r"""
a = torch.randn(2, requires_grad=True) if False else torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
print(b.is_leaf, b.requires_grad, b.grad_fn)
c = a.detach().clone()
print(c.is_leaf, c.requires_grad)
d = a.detach().requires_grad_()
print(d.is_leaf, d.requires_grad, d._version)
e = torch.zeros_like(a)
print(e.requires_grad, torch.zeros_like(a, requires_grad=True).requires_grad, torch.empty_like(a).is_leaf)
f = a.new_ones(2)
print(f.requires_grad)
g = torch.tensor(a.tolist(), requires_grad=True)
print(g, g.is_leaf)
h = a.to(torch.float64)
print(h.is_leaf, h.grad_fn, a.to(torch.float32) is a, a.float() is a, a.double().grad_fn)
i = a.cpu()
print(i is a)
j = a[:]
print(j.is_leaf, j.grad_fn, j._base is a, j.requires_grad)
k = a.view_as(a)
print(k.grad_fn, k.is_leaf)
p = torch.nn.Parameter(torch.ones(2))
q = p.detach()
print(type(q).__name__, q.requires_grad, type(p.data).__name__, type(p * 1).__name__, type(p.clone()).__name__)
print(p.is_leaf, p.grad_fn, torch.nn.Parameter(torch.ones(1), requires_grad=False).requires_grad)
r = torch.nn.Parameter(p)
print(r is p, type(r).__name__, r.requires_grad)
"""


# ---- every way a student makes a view (leaf, non-leaf, under no_grad, in inference mode), then changes it in place
# fixed: an output of split/chunk/unbind made under no_grad, modified in place with grad mode on, gives PyTorch's
# no_grad view error (minigrad gave the multi-output one)

PROGRAMS['views_made_every_way_then_modified_in_place'] = PRE + r'''
views = ["v = base[0]", "v = base.view(-1)", "v = base.unbind()[0]", "v = base.split(1)[0]", "v = base.chunk(2)[1]", "v = base.t()", "v = base.diagonal()",
         "v = base.detach()", "v = base.as_strided((2,), (1,))", "v = base.unflatten(0, (1, 2))", "v = base.real", "v = base.expand(2, 2, 2)", "v = base.narrow(0, 0, 1)",
         "v = base.split_with_sizes([1, 1])[0]", "v = base.unsafe_split(1)[0]", "v = base.movedim(0, 1)", "v = base.squeeze()", "v = base.select(1, 0)", "v = base[..., None]",
         "v = base.view(torch.int32)", "v = base.swapaxes(0, 1)", "v = base.T", "v = base.mT", "v = base.indices() if False else base[[0]]", "v = base[base > 0]", "v = base.reshape(4)", "v = base.contiguous()"]
modes = ["leaf", "nonleaf", "nograd", "inference"]
for vs in views:
    for mode in modes:
        for op in ["v.mul_(2)", "v.zero_()"]:
            leaf = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
            try:
                if mode == "leaf":
                    base = leaf
                    exec(vs)
                elif mode == "nonleaf":
                    base = leaf * 1
                    exec(vs)
                elif mode == "nograd":
                    base = leaf * 1
                    with torch.no_grad():
                        exec(vs)
                else:
                    with torch.inference_mode():
                        base = torch.tensor([[1., 2.], [3., 4.]])
                        exec(vs)
            except Exception as e:
                print(vs, mode, 'create', type(e).__name__, e); continue
            try:
                exec(op)
                r = ('ok', type(v.grad_fn).__name__ if v.grad_fn else None, v.requires_grad, v._version)
                try:
                    base.sum().backward()
                    r += (leaf.grad.tolist(),)
                except Exception as e:
                    r += ('bw', type(e).__name__, str(e)[:150])
                print(vs, mode, op, r)
            except Exception as e:
                print(vs, mode, op, type(e).__name__, e)
'''

# ---- printing ctx and the custom node at every stage of a custom Function's life
# fixed: an instance of torch.autograd.Function itself printed as <minigrad.autograd.function.Function ...>

PROGRAMS['function_ctx_printed_at_every_stage'] = PRE + r'''
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n=2):
        print('ctx', ctx, type(ctx).__name__)
        print('needs', ctx.needs_input_grad)
        E(lambda: ctx.saved_tensors)
        E(lambda: ctx.to_save)
        print(hasattr(ctx, 'materialize_grads'), getattr(ctx, 'dirty_tensors', 'nodirty'), getattr(ctx, 'non_differentiable', 'nonondiff'))
        ctx.save_for_backward(x)
        E(lambda: ctx.saved_tensors)
        print(type(ctx.to_save).__name__, len(ctx.to_save))
        ctx.n = n
        return x * n
    @staticmethod
    def backward(ctx, g):
        print('bw ctx', ctx.n, ctx.needs_input_grad, len(ctx.saved_tensors), ctx.saved_tensors[0].requires_grad)
        E(lambda: ctx.save_for_backward(g))
        E(lambda: ctx.mark_dirty(g))
        return g * ctx.n, None
x = torch.tensor([1., 2.], requires_grad=True)
y = MyFn.apply(x, 3)
print(MyFn, MyFn.__name__, type(y.grad_fn), type(y.grad_fn).__name__, y.grad_fn._forward_cls is MyFn)
print(y.grad_fn.n, y.grad_fn.needs_input_grad, y.grad_fn.saved_tensors, y.grad_fn.next_functions, y.grad_fn.name())
print(y.grad_fn.metadata, y.grad_fn.requires_grad if hasattr(y.grad_fn, 'requires_grad') else '')
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn.saved_tensors)
E(lambda: y.grad_fn.n)
print(isinstance(y.grad_fn, torch.autograd.graph.Node), isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction))
print(issubclass(MyFn, torch.autograd.Function), isinstance(MyFn, torch.autograd.function.FunctionMeta))
E(lambda: MyFn.apply(torch.tensor([1, 2])))
E(lambda: MyFn.apply(torch.tensor([1, 2]), 2).requires_grad)
z = MyFn.apply(x.detach(), 2)
print(z.requires_grad, z.grad_fn)
with torch.no_grad():
    w = MyFn.apply(x, 2)
print(w.requires_grad, w.grad_fn)
E(lambda: torch.autograd.Function.apply(x))
E(lambda: torch.autograd.Function.forward(None, x))
E(lambda: torch.autograd.Function.backward(None, x))
E(lambda: torch.autograd.Function.jvp(None, x))
E(lambda: torch.autograd.Function())
'''

# ---- the saved tensor hooks tutorial: hooks per saved tensor, counting packs, saving to disk

PROGRAMS['saved_tensor_hooks_per_tensor_and_to_disk'] = PRE + r'''
x = torch.randn(5, requires_grad=True) if False else torch.arange(5.).requires_grad_()
y = x.pow(2)
print(y.grad_fn._saved_self.equal(x), y.grad_fn._saved_self is x)
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__, raw)
def pack_hook(t):
    print('pack', t)
    return 'packed'
def unpack_hook(p):
    print('unpack', p)
    return x
raw.register_hooks(pack_hook, unpack_hook)
E(lambda: raw.register_hooks(pack_hook, unpack_hook))
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
E(lambda: raw.register_hooks(pack_hook, unpack_hook))
E(lambda: y.grad_fn._saved_self)
y2 = x.exp()
r2 = y2.grad_fn._raw_saved_result
E(lambda: r2.register_hooks(lambda t: t))
E(lambda: r2.register_hooks(1, 2))
E(lambda: r2.register_hooks(lambda t: t, lambda t: 1))
E(lambda: y2.sum().backward())
y3 = x * 2
print(y3.grad_fn._raw_saved_other if hasattr(y3.grad_fn, '_raw_saved_other') else 'no raw other', y3.grad_fn._saved_other)
E(lambda: y3.grad_fn._raw_saved_self)
print(y3.grad_fn._saved_self)
counter = [0]
def pack(t):
    counter[0] += 1
    return counter[0], t
def unpack(p):
    print('unpacking', p[0])
    return p[1]
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    a = x.sin()
    b = a * a
    c = b.tanh()
print(counter)
c.sum().backward()
import tempfile, os, uuid
tmp_dir_obj = tempfile.TemporaryDirectory()
tmp_dir = tmp_dir_obj.name
def pack_to_disk(tensor):
    name = os.path.join(tmp_dir, str(uuid.uuid4()))
    torch.save(tensor, name)
    return name
def unpack_from_disk(name):
    return torch.load(name, weights_only=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk):
    z = x.pow(2).sum()
x.grad = None
z.backward()
print(x.grad)
tmp_dir_obj.cleanup()
'''

# ---- more of the same mistakes, in the variants students write them

PROGRAMS['mistake_backward_on_loss_list_and_tuple'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
losses = [(x * 2).sum(), (x ** 2).sum()]
E(lambda: losses.backward())
E(lambda: torch.autograd.backward(losses))
print(x.grad)
E(lambda: torch.autograd.backward(tuple(l * 1 for l in [(x * 3).sum()]), grad_tensors=[torch.tensor(2.)]))
print(x.grad)
out = x * 2, x * 3
E(lambda: out.sum())
E(lambda: torch.autograd.backward(out))
torch.autograd.backward(out, [torch.ones(2), torch.ones(2)])
print(x.grad)
E(lambda: torch.autograd.backward(x * 4, torch.ones(2), inputs=[]))
E(lambda: torch.autograd.backward(x * 4, [torch.ones(2), torch.ones(2)]))
"""

PROGRAMS['mistake_grad_of_detached_and_data_paths'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = x.detach() * 2
E(lambda: torch.autograd.grad(y.sum(), x))
y2 = x.data * 2
E(lambda: y2.sum().backward())
z = (x * 2).detach().requires_grad_()
z.sum().backward()
print(z.grad, x.grad)
w = torch.tensor(x.detach().numpy() * 2, requires_grad=True)
(w * x).sum().backward()
print(w.grad, x.grad)
v = torch.from_numpy(x.detach().numpy())
v[0] = 10
print(x, v)
n = x.detach().numpy()
n[1] = 20
print(x)
E(lambda: (x * 1).sum().backward())
print(x.grad)
"""

PROGRAMS['mistake_scalar_vs_one_element_tensors'] = PRE + r"""
x = torch.tensor([3.], requires_grad=True)
y = x ** 2
y.backward()
print(x.grad, y.shape, y.dim())
z = torch.tensor([[2.]], requires_grad=True)
(z * 3).backward()
print(z.grad)
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: (w * 2).backward())
E(lambda: (w * 2)[None].backward())
(w * 2)[1].backward()
print(w.grad)
(w * 2)[:1].backward()
print(w.grad)
print((w * 2).sum(0, keepdim=True).shape)
(w * 2).sum(0, keepdim=True).backward()
print(w.grad)
E(lambda: (w * 2).sum(0, keepdim=True).backward(torch.tensor(1.)))
E(lambda: (w * 2).sum().backward(torch.tensor([1.])))
"""

PROGRAMS['mistake_hooks_capture_loop_variable'] = PRE + r"""
x = torch.tensor([1., 2., 3.], requires_grad=True)
ys = [x * k for k in range(1, 4)]
grads = {}
for i, y in enumerate(ys):
    y.register_hook(lambda g: grads.__setitem__(i, g))
sum(y.sum() for y in ys).backward()
print(grads)
grads.clear()
x.grad = None
ys = [x * k for k in range(1, 4)]
for i, y in enumerate(ys):
    y.register_hook(lambda g, i=i: grads.__setitem__(i, g * i))
sum(y.sum() for y in ys).backward()
print(sorted(grads.items()))
print(x.grad)
"""

PROGRAMS['mistake_modifying_grad_in_hook_and_after'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
def double(g):
    return g * 2
def inplace(g):
    g.mul_(2)
y = x * 3
y.register_hook(double)
y.sum().backward()
print(x.grad)
x.grad = None
y = x * 3
y.register_hook(inplace)
E(lambda: y.sum().backward())
print(x.grad)
x.grad = None
(x * 3).sum().backward()
g = x.grad
g.mul_(0.5)
print(x.grad, g is x.grad)
x.grad.data.clamp_(max=1.0)
print(x.grad)
x.grad[0] = 7
print(x.grad, x.grad._version)
x.grad += 1
print(x.grad)
x.grad = x.grad * 2
print(x.grad)
"""

PROGRAMS['mistake_integer_math_in_loss'] = PRE + r"""
torch.manual_seed(0)
w = torch.tensor([0.5, -0.5], requires_grad=True)
labels = torch.tensor([1, 0])
logits = w * 2
loss = ((logits - labels) ** 2).mean()
print(loss, loss.grad_fn, loss.dtype)
loss.backward()
print(w.grad)
E(lambda: torch.nn.functional.mse_loss(logits, labels))
E(lambda: torch.nn.functional.binary_cross_entropy_with_logits(logits, labels))
print(torch.nn.functional.binary_cross_entropy_with_logits(logits, labels.float()))
acc = (logits.argmax() == labels[0]).float().mean()
print(acc, acc.requires_grad)
E(lambda: acc.backward())
correct = (logits > 0).sum()
print(correct, correct.dtype, correct / 2, (correct / 2).dtype, correct // 2)
E(lambda: torch.mean(labels))
print(torch.mean(labels.float()), labels.float().requires_grad)
"""

PROGRAMS['mistake_requires_grad_after_ops'] = PRE + r"""
x = torch.tensor([1., 2.])
y = x * 2
x.requires_grad_()
print(y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
z = x * 2
z.sum().backward()
print(x.grad)
a = torch.ones(2)
b = a.view(2)
a.requires_grad_()
print(b.requires_grad, b.is_leaf, b.grad_fn)
c = torch.ones(2)
d = c[0:1]
E(lambda: d.requires_grad_())
print(d.requires_grad, d.is_leaf, d._base is c)
(d * 2).sum().backward()
print(d.grad, c.grad)
"""

PROGRAMS['seed_notes_autograd_grad_every_argument'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = x * y + x ** 2
gx, gy = torch.autograd.grad(outputs=z, inputs=(x, y), grad_outputs=torch.ones_like(z), retain_graph=True, create_graph=True)
print(gx, gy)
print(gx.grad_fn, gy.grad_fn)
gxx, = torch.autograd.grad(gx.sum(), x, retain_graph=True)
print(gxx)
u = torch.tensor([5.], requires_grad=True)
print(torch.autograd.grad(z.sum(), [x, u], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(z.sum(), [x, u], allow_unused=True, materialize_grads=True, retain_graph=True))
print(torch.autograd.grad([z.sum(), (x * 10).sum()], [x], retain_graph=True))
print(torch.autograd.grad([z.sum(), (x * 10).sum()], [x], grad_outputs=[torch.tensor(1.), torch.tensor(0.5)], retain_graph=True))
print(torch.autograd.grad([z.sum(), (x * 10).sum()], [x], grad_outputs=[None, torch.tensor(0.5)], retain_graph=True))
print(torch.autograd.grad(z, x, torch.ones(2), retain_graph=False))
E(lambda: torch.autograd.grad(z, x, torch.ones(2)))
print(x.grad, y.grad)
"""

PROGRAMS['seed_notes_backward_every_argument'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.backward(gradient=torch.tensor([1., 0.1]), retain_graph=True)
print(x.grad)
y.backward(gradient=torch.tensor([1., 0.1]), retain_graph=True, create_graph=False)
print(x.grad)
x.grad = None
(x ** 3).sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad)
g = x.grad
x.grad = None
g.sum().backward()
print(x.grad)
x.grad = None
torch.autograd.backward(tensors=[(x ** 2).sum()], grad_tensors=None, retain_graph=None, create_graph=False, inputs=[x])
print(x.grad)
E(lambda: torch.autograd.backward(tensors=(x ** 2).sum(), grad_tensors=torch.tensor(2.), inputs=x.detach()))
"""

PROGRAMS['seed_notes_polynomial_with_autograd_only'] = PRE + r"""
torch.manual_seed(0)
x = torch.linspace(-3.14159, 3.14159, 50)
y = torch.sin(x)
a = torch.zeros((), requires_grad=True)
b = torch.zeros((), requires_grad=True)
c = torch.zeros((), requires_grad=True)
d = torch.zeros((), requires_grad=True)
learning_rate = 1e-6
for t in range(200):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None
print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
print(a, b.grad, y_pred.grad_fn)
"""

PROGRAMS['forward_ad_mistakes_outside_level'] = PRE + FWD + r"""
x = torch.tensor([1., 2.])
t = torch.tensor([1., 1.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    y = d * 3
print(fwAD.unpack_dual(y))
print(y, d)
E(lambda: fwAD.unpack_dual(y, level=0))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(x, t, level=5))
    d = fwAD.make_dual(x, t)
    E(lambda: fwAD.make_dual(d, t))
    w = torch.ones(2, requires_grad=True)
    dw = fwAD.make_dual(w, t)
    print(dw.requires_grad, dw.grad_fn, fwAD.unpack_dual(dw).primal is w)
    out = (dw * 2).sum()
    out.backward()
    print(w.grad)
E(lambda: fwAD.dual_level().__exit__(None, None, None))
with fwAD.dual_level():
    E(lambda: fwAD.enter_dual_level())
"""

PROGRAMS['grad_of_common_nn_functions_printed'] = PRE + r"""
import torch.nn.functional as F
x = torch.tensor([-2., -0.5, 0., 0.5, 2.], requires_grad=True)
for name in ['relu', 'sigmoid', 'tanh', 'gelu', 'silu', 'softplus', 'elu', 'leaky_relu', 'hardtanh', 'relu6', 'mish', 'hardswish', 'logsigmoid', 'softsign', 'tanhshrink', 'hardsigmoid', 'selu', 'celu']:
    x.grad = None
    y = getattr(F, name)(x)
    y.sum().backward()
    print(name, y.grad_fn, x.grad)
y = F.softmax(x, dim=0)
g, = torch.autograd.grad(y[2], x)
print(g)
y = F.log_softmax(x, dim=0)
g, = torch.autograd.grad(y[2], x)
print(g)
"""

PROGRAMS['optimizers_step_without_backward_and_none_grads'] = PRE + r"""
torch.manual_seed(0)
for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad):
    w = torch.nn.Parameter(torch.tensor([1., -1.]))
    opt = cls([w], lr=0.1)
    opt.step()
    print(cls.__name__, w, opt.state_dict()['state'])
    (w ** 2).sum().backward()
    opt.step()
    print(cls.__name__, w.data, sorted(opt.state[w].keys()))
    opt.zero_grad()
    print(w.grad)
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
w.grad = torch.ones(2)
opt.step()
w.grad = None
opt.step()
print(w, opt.state[w]['momentum_buffer'])
E(lambda: torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, dampening=0.5))
"""


# ---- custom Functions named and nested the ways students name them, several outputs with a non-tensor

PROGRAMS['function_names_nesting_and_multiple_outputs'] = PRE + r'''
class Outer:
    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2
class MyBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1
    @staticmethod
    def backward(ctx, g):
        return g
def make():
    class Local(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()
        @staticmethod
        def backward(ctx, g):
            return g
    return Local
x = torch.tensor([1., 2.], requires_grad=True)
for F in (Outer.Inner, MyBackward, make()):
    y = F.apply(x)
    print(y, y.grad_fn, type(y.grad_fn).__name__, type(y.grad_fn).__qualname__, y.grad_fn.name(), F.__qualname__)
    print(repr(type(y.grad_fn)), str(F))
y = MyBackward.apply(MyBackward.apply(x))
print(y.grad_fn.next_functions, y.grad_fn.next_functions[0][0].next_functions)
z = Outer.Inner.apply(x).sum() * MyBackward.apply(x).mean()
print(z, z.grad_fn.next_functions)
z.backward()
print(x.grad)
class Multi(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b, a - b, 5
    @staticmethod
    def backward(ctx, g1, g2, g3):
        print('g3', g3)
        return g1 + g2, g1 - g2
p, q, r = Multi.apply(x, x * 2)
print(p, q, r, p.grad_fn is q.grad_fn, p.output_nr if hasattr(p, 'output_nr') else '', q.output_nr if hasattr(q, 'output_nr') else '')
print(p.grad_fn.next_functions)
(p + q).sum().backward()
print(x.grad)
'''

# ---- views made inside inference_mode of a normal tensor, and x.view(dtype) (not an autograd view)
# fixed: x.view(dtype) made in inference mode is an inference tensor, as in PyTorch (minigrad's was a normal one)

PROGRAMS['inference_mode_views_and_dtype_views'] = PRE + r"""
base = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True) * 1
with torch.inference_mode():
    v = base.view(torch.int32)
    w = base.view(-1)
    s = base.split(1)[0]
    d = base.detach()
    print(v.is_inference(), w.is_inference(), s.is_inference(), d.is_inference(), v.requires_grad, w.requires_grad)
    E(lambda: v._version)
    v.add_(1)
    print(base)
E(lambda: v._version)
E(lambda: v.add_(1))
print(v * 2)
E(lambda: w.mul_(2))
E(lambda: s.mul_(2))
print(w._version, w._is_view(), w._base is base, w.grad_fn)
b2 = torch.ones(2)
with torch.no_grad():
    v2 = b2.view(torch.int32)
v2.add_(1)
print(b2._version, v2._version, v2._is_view(), b2)
v3 = base.view(torch.float32)
print(v3._is_view(), v3.grad_fn, v3.requires_grad)
E(lambda: base.view(torch.float64))
print(base.view(torch.int16).shape, base.view(torch.uint8).shape)
"""


# ---- backward and autograd.grad called under no_grad / inference_mode; grad mode inside backward and hooks

PROGRAMS['backward_under_no_grad_and_grad_mode_inside_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
with torch.no_grad():
    g, = torch.autograd.grad(y, x, create_graph=True, retain_graph=True)
    print(g, g.requires_grad, g.grad_fn)
    y.backward(retain_graph=True)
    print(x.grad)
    y.backward(create_graph=True, retain_graph=True)
    print(x.grad, x.grad.requires_grad)
with torch.inference_mode():
    E(lambda: torch.autograd.grad(y, x, retain_graph=True))
    E(lambda: y.backward(retain_graph=True))
print(x.grad)
torch.set_grad_enabled(False)
z = x * 2
print(z.requires_grad)
E(lambda: z.sum().backward())
torch.set_grad_enabled(True)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        print('grad mode in backward', torch.is_grad_enabled())
        return g * 2
w = F.apply(x)
w.sum().backward(retain_graph=True)
w.sum().backward(create_graph=True)
def hook(g):
    print('hook grad mode', torch.is_grad_enabled(), g.requires_grad)
v = x * 5
v.register_hook(hook)
v.sum().backward(retain_graph=True)
v.sum().backward(create_graph=True)
'''

# ---- mark_dirty on views, returning a view of an input, set_materialize_grads(False) with None gradients

PROGRAMS['fn_mark_dirty_views_and_unmaterialized_grads'] = PRE + r'''
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
base = torch.tensor([1., 2., 3.], requires_grad=True)
b = base * 1
v = b[:2]
o = Dirty.apply(v)
print(o is v, o.grad_fn, v.grad_fn, b.grad_fn, b)
b.sum().backward()
print(base.grad)
base.grad = None
b = base * 1
with torch.no_grad():
    nv = b[:2]
E(lambda: Dirty.apply(nv))
c = base * 1
parts = c.split(2)
E(lambda: Dirty.apply(parts[0]))
class DirtyTwo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g, g
d = base * 1
r = DirtyTwo.apply(d, base)
print(r is d, r.grad_fn, r._version)
r.sum().backward()
print(base.grad)
class ReturnsInputView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:1]
    @staticmethod
    def backward(ctx, g):
        out = torch.zeros(3)
        out[:1] = g
        return out
q = base * 1
rv = ReturnsInputView.apply(q)
print(rv.grad_fn, rv._base is q)
E(lambda: rv.add_(1))
q.add_(1)
E(lambda: rv.grad_fn)
E(lambda: rv.sum().backward())
class NoMat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print('g', g1, g2)
        return None
base.grad = None
a1, a2 = NoMat.apply(base)
a1.sum().backward()
print(base.grad)
class NoMatAllNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('called', g1, g2)
        return g1
p1, p2 = NoMatAllNone.apply(base)
E(lambda: (p2 * 0).sum().backward())
print(base.grad)
'''

# Programs whose warnings PyTorch gives once per process (TORCH_WARN_ONCE: ``x.T`` on 3-D, copy-constructing a
# tensor, create_graph=True on leaves, torch.range, meshgrid without indexing, read-only NumPy arrays, the gradient
# layout contract, float() of a tensor that requires grad): minigrad warns once too, so what these print depends
# on what ran before in the process. They run, in this order, in a fresh process.
ONCE = ['T_and_mT_on_non_2d_warning', 'copy_construct_tensor_warning', 'create_graph_leak_warning',
        'warnings_deprecated_spellings', 'warnings_resized_out_and_readonly_numpy',
        'grad_identity_hooks_retain_grad_inplace', 'seed_notes_backward_every_argument', 'numpy_item_tolist_mistakes',
        'backward_under_no_grad_and_grad_mode_inside_backward',
        'lists_of_tensors_and_python_numbers']


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - set(ONCE)))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
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
        "import test_parity_programs_hunt14 as m\n"
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
