"""In-place operations, version counters, views (``_base``), detach, and CopySlices gradients."""

import numpy as np
import pytest
from parity import same_as_torch

import minigrad as mg

# ---- unit tests (no torch needed) ---------------------------------------------------------------

def test_version_counter_is_shared_by_views_and_detach():
    x = mg.tensor([1.0, 2.0, 3.0])
    v = x[1:]
    d = x.detach()
    assert (x._version, v._version, d._version) == (0, 0, 0)
    v.add_(1)
    assert (x._version, v._version, d._version) == (1, 1, 1)
    assert x.tolist() == [1.0, 3.0, 4.0] and d.tolist() == [1.0, 3.0, 4.0]
    assert v._base is x and v._is_view() and not x._is_view()


def test_in_place_on_leaf_requiring_grad_is_refused():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError,
                       match="a leaf Variable that requires grad is being used in an in-place operation."):
        x.add_(1)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0].mul_(2)
    with mg.no_grad():
        x.mul_(2)
    assert x.tolist() == [2.0, 4.0] and x._version == 1


def test_modified_saved_tensor_is_detected():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    z = y * y
    y.add_(1)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2\]\], which is output 0 of Add, is at "
                       r"version 1; expected version 0 instead"):
        z.sum().backward()


def test_copy_slices_gradient():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[1:].mul_(mg.tensor([2.0, 3.0]))
    assert type(y.grad_fn).__name__ == "CopySlices"
    (y * y).sum().backward()
    # y = [x0, 2 x1, 3 x2]  ->  d/dx sum(y^2) = [2 x0, 8 x1, 18 x2]
    np.testing.assert_allclose(x.grad._data, [2.0, 16.0, 54.0])


# ---- parity with PyTorch ----------------------------------------------------------------------

PROGRAMS = {
    "saved_tensor_modified_in_place": """
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
c = b * 2
b.mul_(3)
E(lambda: c.sum().backward())
a2 = torch.tensor([1., 2., 3.], requires_grad=True)
m = a2 * a2
n = m * m
m.add_(1)
E(lambda: n.sum().backward())
r = a2.exp()
r.add_(1)
E(lambda: r.sum().backward())
q = a2 * 1
q2 = q.t() if q.dim() > 1 else q[0:2]
s = q2 * q2
q.mul_(2)
E(lambda: s.sum().backward())
""",
    "leaf_errors_and_no_grad_and_detach_sharing": """
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: x.add_(1))
E(lambda: x[0].add_(1))
E(lambda: x.view(3).zero_())
with torch.no_grad():
    x.add_(1)
    x[0] = 5
print(x, x._version)
y = x.detach()
y.zero_()
print(x, x._version, y._version)
z = x.data
print(z._version)
z.add_(1)
print(x._version, x)
""",
    "views_of_a_non_leaf_copy_slices": """
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * 1
v = y.view(4)
t = y.t()
print(v._base is y, t._base is y, v._is_view(), y._is_view(), v.grad_fn, t.grad_fn)
v2 = v[1:3]
print(v2._base is y)
v2.add_(torch.tensor([10., 20.]))
print(y.grad_fn, v.grad_fn, v2.grad_fn, t.grad_fn, y._version, v._version, t._version)
print(y.grad_fn.next_functions)
(y * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(t * 2).sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(v2 * v2).sum().backward()
print(x.grad)
""",
    "setitem_on_clone_and_on_constant": """
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x.clone()
y[1:3] = x[:2] * 5
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
z = torch.zeros(4)
z[0] = x[3]
print(z.requires_grad, z.grad_fn, z.is_leaf)
z.sum().backward()
print(x.grad)
w = torch.zeros(2, 2)
w[0].copy_(x[:2])
print(w.grad_fn)
w.sum().backward()
print(x.grad)
""",
    "detach_and_requires_grad": """
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
y.detach_()
print(y.requires_grad, y.is_leaf, y.grad_fn)
v = (x*1)[0:1]
E(lambda: v.detach_())
d = x.detach()
print(d.requires_grad, d.is_leaf, d._version == x._version)
d.requires_grad_()
print(d.requires_grad, x.requires_grad)
x2 = x.clone().detach().requires_grad_(True)
print(x2.is_leaf, x2.grad_fn)
u = torch.ones(2)
u.requires_grad_()
print(u.requires_grad)
E(lambda: (x * 1).requires_grad_(False))
E(lambda: setattr(x * 1, 'requires_grad', False))
print((x*1).requires_grad_(True).requires_grad)
""",
    "retain_grad_follows_in_place": """
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.retain_grad()
y.add_(1)
print(y.retains_grad, y.grad_fn)
(y * y).sum().backward()
print(y.grad, x.grad)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_inplace_view_programs_match_torch(name):
    same_as_torch(PROGRAMS[name])
