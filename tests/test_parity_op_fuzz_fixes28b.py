"""Session 28's second round of argument and message leftovers: split_with_sizes' one int, unsqueeze's keyword dim,
Tensor.unflatten as PyTorch's Python method, group_norm's 0-dim tensor eps, scatter_add's dtype check first, zeta's
bool number in its backward, soft_margin_loss's bool negation first, native_layer_norm's statistics of an empty
half input, and sizes beyond int64 refused by the parsers of new_*, resize_, permute, tile and unflatten.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_split_with_sizes_refuses_one_int():
    # PyTorch: its parser refuses an int for split_sizes; minigrad iterated it ("'int' object is not iterable") or
    # checked the dim first
    same_as_torch("""
x = torch.arange(16.).view(4, 4)
E(lambda: x.split_with_sizes(2, 2))
E(lambda: x.split_with_sizes(2))
print(x.split_with_sizes([1, 3], 1))
""")


def test_unsqueeze_keyword_dim_has_no_position():
    # PyTorch: a dim given by keyword is named without "(position 1)"; minigrad could not tell it from a positional
    same_as_torch("""
x = torch.zeros(2)
E(lambda: x.unsqueeze(dim=None))
E(lambda: x.unsqueeze(None))
E(lambda: x.unsqueeze(dim="a"))
E(lambda: x.unsqueeze(0, dim=0))
E(lambda: x.unsqueeze(input=x, dim=0))
E(lambda: x.unsqueeze(foo=0))
E(lambda: x.unsqueeze(0, 1))
E(lambda: torch.Tensor.unsqueeze(x, dim=None))
E(lambda: torch.unsqueeze(x, dim=None))
E(lambda: torch.unsqueeze(input=x, dim=None))
E(lambda: torch.unsqueeze(input=x, dim=7))
E(lambda: torch.unsqueeze(x, 0, input=x))
print(x.unsqueeze(dim=0).shape, x.unsqueeze(dim=torch.tensor(1)).shape, torch.unsqueeze(input=x, dim=-1).shape)
""")


def test_unflatten_method_counts_as_python_method():
    # PyTorch: Tensor.unflatten is a Python method ("Tensor.unflatten() takes 3 positional arguments") that hands
    # dim and sizes on by position; minigrad counted without self and named a keyword sizes without position
    same_as_torch("""
x = torch.zeros(4, 4)
E(lambda: x.unflatten(1, 0, 2))
E(lambda: x.unflatten(1))
E(lambda: x.unflatten(1, (2, 2), foo=3))
E(lambda: x.unflatten(1, (2.5,)))
E(lambda: x.unflatten(1, sizes=(2.5,)))
E(lambda: x.unflatten(1, 2))
E(lambda: x.unflatten("a", (2, 2)))
E(lambda: x.unflatten(None, (2.5,)))
E(lambda: torch.unflatten(x, 1, 0, 2))
E(lambda: torch.unflatten(x, "a", (2, 2)))
E(lambda: torch.unflatten(x, 1, (2.5,)))
print(x.unflatten(1, (2, 2)).shape, x.unflatten(torch.tensor(1), (2, -1)).shape, torch.unflatten(x, 0, [2, 2]).shape)
""")


def test_group_norm_takes_a_0_dim_tensor_eps():
    # PyTorch: torch.group_norm's parser reads a 0-dim tensor (not requiring grad) as the float eps; minigrad's kernel
    # failed in NumPy
    same_as_torch("""
F = torch.nn.functional
x = torch.tensor([[[1., 2., 4.], [0., 3., 1.], [5., 1., 2.], [2., 2., 7.]]] * 2)
print(F.group_norm(x, 2, eps=torch.tensor(1e-3)))
print(F.group_norm(x, 2, eps=torch.tensor(1)))
E(lambda: F.group_norm(x, 2, eps=torch.tensor([1e-3])))
E(lambda: F.group_norm(x, 2, eps=torch.tensor(1e-3, requires_grad=True)))
E(lambda: F.group_norm(x, 2, eps=None))
""")


def test_scatter_add_checks_src_dtype_before_shapes_and_bounds():
    # PyTorch: scatter_add's dtype check comes right after the index's; minigrad checked the shapes and the index
    # bounds first
    same_as_torch("""
x = torch.zeros(3, dtype=torch.int64)
for idt in (torch.int32, torch.int64):
    for src in (torch.tensor([1j, 2j]), torch.tensor([1., 2.])):
        E(lambda: x.scatter_add_(0, torch.tensor([0, 5], dtype=idt), src))
        E(lambda: x.scatter_add(0, torch.tensor([[0, 1]], dtype=idt), src))
        E(lambda: x.scatter_add(0, torch.tensor([0, 1, 2, 0], dtype=idt), src))
E(lambda: torch.zeros(()).scatter_add(0, torch.tensor(4), torch.tensor(1., dtype=torch.float64)))
E(lambda: torch.zeros(3, dtype=torch.int64).scatter_add(0, torch.tensor([0, 5]), torch.tensor([1, 2])))
print(x.scatter_add(0, torch.tensor([0, 0, 2], dtype=torch.int32), torch.tensor([1, 2, 3])))
""")


def test_zeta_backward_refuses_negating_a_bool_number():
    # PyTorch: the formula's -self negates the Scalar, which refuses a bool; minigrad's -False was 0
    same_as_torch("""
t = torch.tensor([2., 3.], requires_grad=True)
for s in (False, True, 2, 2.5):
    def run():
        t.grad = None
        torch.special.zeta(s, t).sum().backward()
        print(t.grad)
    E(run)
""")


def test_soft_margin_loss_negates_a_bool_input_before_broadcasting():
    # PyTorch: neg_out(output, input) refuses a bool input before mul_(target) broadcasts; minigrad broadcast first
    same_as_torch("""
F = torch.nn.functional
B, B3 = torch.tensor([True, False]), torch.tensor([True, False, True])
f2, f3 = torch.tensor([1., 2.]), torch.tensor([1., 2., 3.])
for a, b in ((B, B3), (B, f3), (B, torch.ones(2, 2)), (B, B), (f2, B3), (f2, f3), (f2, torch.ones(2, 2))):
    E(lambda: F.soft_margin_loss(a, b))
    E(lambda: F.soft_margin_loss(a, b, reduction="none"))
print(F.soft_margin_loss(f2, torch.tensor([1., -1.])))
""")


def test_native_layer_norm_of_empty_half_input_keeps_statistics_dtype():
    # PyTorch: a float16/bfloat16 input's mean and rstd have the parameters' dtype (float32 for float32 weight) even
    # when empty; minigrad gave the input's dtype for an empty input
    same_as_torch("""
for dt in (torch.float16, torch.bfloat16):
    for shape, ns in (((2, 0), [0]), ((0, 3), [3]), ((2, 3, 0), [3, 0])):
        for w in (None, torch.ones(ns), torch.ones(ns, dtype=dt)):
            for b in (None, torch.zeros(ns, dtype=torch.float32 if w is None else w.dtype)):
                out = torch.native_layer_norm(torch.zeros(shape, dtype=dt), ns, w, b, 1e-5)
                print([(t.dtype, tuple(t.shape)) for t in out], out[2].isnan().all().item())
    x = torch.zeros(2, 0, dtype=dt, requires_grad=True)
    out = torch.native_layer_norm(x, [0], torch.ones(0, requires_grad=True), None, 1e-5)
    out[0].sum().backward()
    print(out[0].grad_fn.name(), x.grad.dtype, x.grad.shape)
""")


def test_sizes_beyond_int64_refused_by_the_parser():
    # PyTorch: the parsers of new_*, resize_, permute, tile and unflatten fail to unpack an int beyond int64 first;
    # minigrad named empty()/ones()/repeat() or failed later (NumPy's dimension limit, range checks).
    # (E prints the message up to its C++ frames, which PyTorch's message goes on with: only the first line)
    same_as_torch("""
def E1(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
x = torch.zeros(4, 4)
for n in ("new_empty", "new_zeros", "new_ones"):
    E1(lambda: getattr(x, n)(2**63))
    E1(lambda: getattr(x, n)(2, -2**63 - 1))
    E1(lambda: getattr(x, n)((2**63,)))
    E1(lambda: getattr(x, n)(size=(2**63,)))
E1(lambda: x.new_full((2**63,), 1))
y = torch.zeros(4, 4)
E1(lambda: y.resize_(2**63))
E1(lambda: y.resize_(1, 2**63))
E1(lambda: y.resize_((2**63,)))
E1(lambda: y.resize_(-1, 2**63))
E1(lambda: y.resize_(-1))
E1(lambda: x.permute(2**63))
E1(lambda: x.permute(0, 2**63))
E1(lambda: torch.permute(x, (0, 2**63)))
E1(lambda: x.permute(0, 2))
E1(lambda: x.tile(2**63))
E1(lambda: x.tile(1, 2**63))
E1(lambda: torch.tile(x, (2**63,)))
E1(lambda: x.unflatten(0, (2**63,)))
E1(lambda: x.unflatten(0, (2, 2**63)))
E1(lambda: torch.unflatten(x, 0, (2**63,)))
E1(lambda: x.unflatten(0, (3, 2)))
print(x.new_empty(2, 3).shape, x.permute(1, 0).shape, x.tile(2).shape)
""")
