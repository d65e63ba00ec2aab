"""Small autograd leftovers (session 28, second round): each test compares a short program with PyTorch."""
from parity import same_as_torch


def test_private_softmax_functions():
    # torch._softmax / torch._log_softmax are ATen's kernel calls (half_to_float refused on the CPU); minigrad's
    # _softmax was its kernel module ('module' object is not callable) and _log_softmax was missing
    same_as_torch("""
x = torch.tensor([[1., 2., 3.], [0., 1., -1.]], requires_grad=True)
for f in (torch._softmax, torch._log_softmax):
    y = f(x, 1, False)
    print(y, y.grad_fn.name())
    y.sum().backward()
    print(x.grad)
    x.grad = None
    print(f(input=x.double(), dim=0, half_to_float=False))
    print(f(x.half(), -1, False))
    E(lambda: f(torch.tensor([1, 2]), 0, False))
    E(lambda: f(x, 0, True))
    E(lambda: f(x, 2, True))
    E(lambda: f(x, 0, 1))
    E(lambda: f(x, 0.5, False))
    E(lambda: f([1., 2.], 0, False))
""")


def test_view_printed_before_base_requires_grad():
    # PyTorch's grad_fn() of a view without a node whose base has no history returns before noting the version, so
    # the node is still made once the base requires grad; minigrad noted it on the print and kept None
    same_as_torch("""
z = torch.zeros(5)
v = z[1:3]
z.add_(1)
print(v, v.grad_fn, v.is_leaf)
z.requires_grad_()
print(v.grad_fn.name(), v.is_leaf, v.requires_grad)
(v * torch.tensor([2., 3.])).sum().backward()
print(z.grad)
w = torch.zeros(4)
u = w[:2]
w.mul_(2)
print(u)
w.requires_grad_()
print((u + 1).grad_fn.next_functions[0][0].name())
""")


def test_softmax_into_view_out_records_copy_slices():
    # PyTorch's softmax.int_out rebases a view out's history: its NotImplemented node in a CopySlices on the base
    # (its edge to the input replaced by the base's); minigrad wrote the values and left the base without a node
    same_as_torch("""
x = torch.tensor([1., 2., 3.], requires_grad=True)
for f in (torch.softmax, torch.log_softmax):
    b = torch.zeros(4)
    r = f(x, 0, out=b[1:])
    print(b, r.grad_fn.name(), r._base is b, r.requires_grad)
    print(b.grad_fn.name(), b.grad_fn.next_functions, r.grad_fn.next_functions[0][0] is b.grad_fn)
    E(lambda: r.sum().backward())
    c = torch.zeros(3)
    print(f(x, 0, out=c).grad_fn.name())
""")
