"""Hooks: tensor hooks, node pre/post hooks, retain_grad, post-accumulate hooks, and the ORDER the
engine calls them in (checked against PyTorch on diamonds, wide fan-ins and several roots)."""
import pytest
from parity import same_as_torch

import minigrad as mg

# ---- unit tests (no torch needed) ---------------------------------------------------------------

def test_tensor_hook_replaces_gradient_and_handle_removes_it():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    handle = y.register_hook(lambda g: g * 10)
    y.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [30.0, 30.0]
    handle.remove()
    x.grad = None
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_leaf_hook_runs_before_accumulation():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()) or g + 1)
    (x * 2).sum().backward()
    assert seen == [[2.0, 2.0]]
    assert x.grad.tolist() == [3.0, 3.0]


def test_retain_grad_and_post_accumulate_hook():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    assert y.retains_grad and not x.retains_grad
    calls = []
    x.register_post_accumulate_grad_hook(lambda t: calls.append(t.grad.tolist()))
    (y * 2).sum().backward()
    assert y.grad.tolist() == [2.0, 2.0]
    assert calls == [[4.0, 8.0]]


def test_node_hooks_see_and_replace_gradients():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    log = []
    y.grad_fn.register_prehook(lambda gout: log.append(("pre", gout[0].tolist())))
    y.grad_fn.register_hook(lambda gin, gout: log.append(("post", gin[0].tolist(), gout[0].tolist())))
    y.backward(mg.tensor([1.0, 1.0]))
    assert log == [("pre", [1.0, 1.0]), ("post", [2.0, 2.0], [1.0, 1.0])]
    z = x * 2
    # MulBackward0 has two grad_inputs (the number 2 gets None): PyTorch wants a tuple of both back.
    z.grad_fn.register_hook(lambda gin, gout: (gin[0] * 0, gin[1]))
    x.grad = None
    z.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_hook_errors():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        mg.tensor([1.0]).register_hook(lambda g: g)
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="post accumulate grad hooks cannot be registered on non-leaf tensors"):
        (x * 2).register_post_accumulate_grad_hook(lambda t: None)
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        mg.tensor([1.0]).retain_grad()


# ---- parity with PyTorch ----------------------------------------------------------------------

ORDER_PROGRAMS = {
    "wide_fan_in_of_leaves": """
ls = [torch.tensor([float(i)], requires_grad=True) for i in range(7)]
order = []
for i, l in enumerate(ls):
    l.register_hook(lambda g, i=i: order.append(i))
class Total(torch.autograd.Function):
    @staticmethod
    def forward(ctx, *xs):
        return sum(xs)

    @staticmethod
    def backward(ctx, g):
        return (g,) * 7
Total.apply(*ls).sum().backward()
print(order)
""",
    "mixed_products": """
ls = [torch.tensor([float(i)], requires_grad=True) for i in range(6)]
order = []
for i, l in enumerate(ls):
    l.register_hook(lambda g, i=i: order.append(('leaf', i)))
s = ls[0] * ls[1] * ls[2]
s.register_hook(lambda g: order.append('s'))
t = ls[3] * ls[4]
t.register_hook(lambda g: order.append('t'))
(s + t + ls[5]).sum().backward()
print(order)
""",
    "diamond": """
x = torch.tensor([1., 2.], requires_grad=True)
order = []
a = x * 2; a.register_hook(lambda g: order.append(('a', g.tolist())))
b = a.exp(); b.register_hook(lambda g: order.append(('b', g.tolist())))
c = a.sin(); c.register_hook(lambda g: order.append(('c', g.tolist())))
d = b + c; d.register_hook(lambda g: order.append(('d', g.tolist())))
for n in (a, b, c, d):
    n.grad_fn.register_prehook(lambda go, n=n.grad_fn.name(): order.append(('pre', n)))
    n.grad_fn.register_hook(lambda gi, go, n=n.grad_fn.name(): order.append(('post', n)))
x.register_hook(lambda g: order.append(('x', [round(v, 4) for v in g.tolist()])))
d.sum().backward()
for o in order: print(o[0], o[1] if not isinstance(o[1], list) else [round(v, 4) for v in o[1]])
""",
    "diamond_created_in_other_order": """
x = torch.tensor([1.], requires_grad=True)
order = []
a = x * 2
c = a.sin()
b = a.exp()
for n, name in ((a, 'a'), (b, 'b'), (c, 'c')):
    n.register_hook(lambda g, name=name: order.append(name))
(b * c).sum().backward()
print(order)
""",
    "several_roots": """
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
order = []
y = x * w; y.register_hook(lambda g: order.append('y'))
z = y.exp(); z.register_hook(lambda g: order.append('z'))
u = w.sin(); u.register_hook(lambda g: order.append('u'))
x.register_hook(lambda g: order.append('x')); w.register_hook(lambda g: order.append('w'))
torch.autograd.backward([u.sum(), z.sum(), y.sum()])
print(order, x.grad, w.grad)
order.clear()
y = x * w; y.register_hook(lambda g: order.append('y'))
z = y * 3; z.register_hook(lambda g: order.append('z'))
torch.autograd.backward([y, z], [torch.ones(2), torch.ones(2)])
print(order)
""",
    "retain_grad_runs_after_tensor_hooks": """
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 100)
y.sum().backward()
print(y.grad, x.grad)
""",
    "hooks_see_undefined_gradients_as_none": """
x = torch.tensor([1., 2.], requires_grad=True)
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0] * 1, x[1] * 1

    @staticmethod
    def backward(ctx, ga, gb):
        return torch.tensor([ga.item(), gb.item()])
a, b = Two.apply(x)
calls = []
b.register_hook(lambda g: calls.append(('b', g)))
a.register_hook(lambda g: calls.append(('a', g)))
(a * 2).backward()
print(calls, x.grad)
""",
    "post_accumulate_hook_sees_updated_grad": """
x = torch.tensor([1., 2.], requires_grad=True)
x.register_post_accumulate_grad_hook(lambda t: print('post-acc', t.grad))
x.register_hook(lambda g: print('pre', g))
(x * 2).sum().backward()
(x * 3).sum().backward()
""",
    "node_hook_apis": """
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
h = y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
y.backward(retain_graph=True)
print(x.grad)
h.remove()
x.grad = None
y.backward()
print(x.grad)
acc = (x * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print('acc pre', go))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
(x * 1).sum().backward()
print(x.grad)
""",
    "grad_captures_and_hooks": """
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
y.register_hook(lambda g: g * 10)
z = (y * 3).sum()
print(torch.autograd.grad(z, y, retain_graph=True))
print(torch.autograd.grad(z, [y, x]))
print(x.grad)
""",
}


@pytest.mark.parametrize("name", sorted(ORDER_PROGRAMS))
def test_hook_programs_match_torch(name):
    same_as_torch(ORDER_PROGRAMS[name], prelude="import torch\n")
