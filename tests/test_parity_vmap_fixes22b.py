"""Session 22b fixes of torch.func differences: an unbatched tensor (an input with in_dim None, a tensor the function
closes over or names as a global, jacfwd's primal) written in place inside vmap is written once per call of the
function, as by PyTorch's single call (one per chunk with chunk_size): minigrad's loop starts each slice from the values
its chunk began with, so x.exp_() is not exp(exp(x)) in the second example (nested seed 1560: jacfwd of jacrev of a
function calling b.exp_() left the primal at inf, which the program's next transform then read).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values,
versions and exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
from torch.func import jacfwd, jacrev, vmap
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_jacfwd_of_a_function_writing_its_input_writes_it_once():
    # PyTorch's jacfwd is one call of f on batched tangents: the primal becomes exp(x) once, and every basis
    # vector's jvp is taken at x (minigrad's loop over the basis wrote exp(exp(x)), then exp of that ...)
    same_output(_E + r"""
def f(a):
    a.exp_()
    return a * a
x = torch.tensor([0.5, -1., 2.], dtype=torch.float64)
print(jacfwd(f)(x))
print(x, x._version)
x = torch.tensor([[0.5, -1.], [0.25, 2.]], dtype=torch.float64)
print(jacfwd(lambda a: a[0].mul_(3) + a[1])(x))
print(x)
""")


def test_jacfwd_of_jacrev_then_another_transform_sees_one_write():
    # nested seed 1560: jacfwd(jacrev(fs)) then jacrev(jacrev(fs)) of a function calling b.exp_() on its input;
    # PyTorch's primal is exp(b) after the first and exp(exp(b)) after the second (minigrad's was inf)
    same_output(_E + r"""
b = torch.tensor([[-0.04, 4.5, 1.94]], dtype=torch.float64)
a = torch.tensor([[0.3], [-0.2]], dtype=torch.float64)
def fs(a, b):
    b.exp_()
    return ((a - torch.copysign(b, torch.arange(3))) ** 2).sum()
print(jacfwd(jacrev(fs))(a, b).sum())
print(b)
print(jacrev(jacrev(fs))(a, b).sum())
print(b)
print(vmap(fs, in_dims=(0, None), chunk_size=1)(torch.stack([a, a * 2]), b))
print(b)
""")


def test_unbatched_input_and_captured_tensor_written_once_inside_vmap():
    # an input with in_dim None and a global tensor, written with unbatched values: PyTorch writes them once per call
    # (w + 1, c * 2 + 1), so every example reads the same values and the version moves by one per op; with
    # chunk_size=1 it calls the function once per example, and each chunk reads what the one before wrote
    same_output(_E + r"""
w = torch.tensor([1., 2.])
c = torch.zeros(2)
def g(b, w):
    w.add_(1)
    c.mul_(2).add_(1)
    return b * w + c
print(vmap(g, in_dims=(0, None))(torch.ones(3, 2), w))
print(w, w._version, c, c._version)
print(vmap(g, in_dims=(0, None), chunk_size=1)(torch.ones(3, 2), w))
print(w, w._version, c, c._version)
def outer():
    k = torch.ones(2)
    h = lambda b: b + k.mul_(3)
    return vmap(h, chunk_size=2)(torch.zeros(3, 2)), k, k._version
print(outer())
# a batched value written into it is refused, and the write before the refusal stays
E(lambda: vmap(lambda b: (w.add_(1), w.add_(b)))(torch.ones(3, 2)))
print(w)
""")


def test_write_into_a_mapped_inputs_memory_is_the_batchs_own():
    # the unbatched tensor shares memory with the mapped input (its first row): each example's write lands in its own
    # row, which PyTorch's batched mul_ writes too; the unbatched view reads the rows as the examples leave them
    same_output(_E + r"""
y = torch.arange(6.).reshape(3, 2)
print(vmap(lambda b, first: b.mul_(2) + first.sum(), in_dims=(0, None))(y, y[:1]))
print(y)
""")


def test_complex_tangent_refuses_parts_of_two_dtypes():
    # func seed 34: under torch.func.jvp the tangent of a 0-d float32 x * 0.5 is float64 (the lifted number), and
    # complex's forward formula at::complex(real_t, imag_t) refuses the mix with the kernel's own message (a missing
    # tangent is a ZeroTensor of the primal's dtype); plain forward AD keeps float32 and reaches the next op
    same_output(_E + r"""
from torch.func import jvp
b = torch.tensor(0.09)
c = torch.tensor(0.3)
for f in [lambda b: torch.complex(b, b), lambda b: torch.complex(b, b * 0.5), lambda b: torch.complex(b * 0.5, b),
          lambda b: torch.complex(c, b * 0.5), lambda b: torch.complex(b * 0.5, b * 0.25),
          lambda b: torch.complex(b, b * 0.5).div_(torch.tensor(0.72), rounding_mode='floor')]:
    E(lambda: jvp(f, (b,), (b,)))
E(lambda: jvp(lambda b: torch.complex(b, b * 0.5), (b.reshape(1),), (b.reshape(1),)))
""")


def test_tensor_a_helper_closes_over_is_captured():
    # nested seed 1681: grad of a function calling helpers that close over a tensor (not an argument) writing it in
    # place: PyTorch's wrappers tell it is captured and refuse the write before the op's own dtype check (complex
    # into float); minigrad's reach of what the function sees now follows the helpers' closures too
    same_output(_E + r"""
from torch.func import grad
def make():
    data = {'b': (torch.tensor([1., 2.]), False)}
    def helper(a):
        data['b'][0].mul_(0.5j)
        return a.sum()
    def other(a):
        data['b'][0].mul_(2)
        return a.sum()
    return helper, other, data
helper, other, data = make()
E(lambda: grad(lambda a: helper(a))(torch.tensor([1., 3.])))
E(lambda: grad(lambda a: (other(a), a.detach()), has_aux=True)(torch.tensor([1., 3.])))
print(data['b'][0])
""")
