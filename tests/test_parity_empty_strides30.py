"""Strides of tensors with no elements, as PyTorch gives them (session 30, task 14).

TensorIterator orders an empty output's dims by its operands' strides, as any other (unless all operands have its
shape: every empty tensor is contiguous, so the fast setup gives C order), and packs them with compatible_stride,
which gives stride 0 to every dim after a size-0 one: ``ones(2, 0, 3).transpose(0, 2) * 2`` has strides (1, 3, 0).
"""
from __future__ import annotations

from parity import same_as_torch

SHOW = """
def S(*ts):
    print(*[t.stride() for t in ts])
a = torch.ones(2, 0, 3).transpose(0, 2)           # (3, 0, 2), strides (1, 3, 3)
b = torch.ones(0, 3).t()                          # (3, 0), strides (1, 3)
c = torch.ones(4, 0, 5, 6).permute(2, 0, 3, 1)    # (5, 4, 6, 0)
"""


def test_elementwise_output_order():
    # binary ops with a number or a broadcast operand, in both dtypes; same-shape operands and unary ops: C order
    same_as_torch(SHOW + """
for dt in (torch.float32, torch.complex64):
    for x in (a.to(dt), b.to(dt), c.to(dt)):
        S(x * 2, x + 1.5, 1 - x, 2 / x, x * torch.ones(x.shape[-1], dtype=dt), torch.ones(x.shape[-1]) + x)
        S(x * torch.ones((), dtype=torch.float64), x * x, x.neg(), x.exp(), x + x.contiguous(), x ** 2)
        S(torch.addcmul(x, x, torch.ones(x.shape[-1], dtype=dt)), torch.lerp(x, torch.ones(x.shape[-1], dtype=dt), 0.5))
S(a.sum(0, keepdim=True), a.mean(2, keepdim=True), a.cumsum(0), a.clone().mul_(2), a.clone().add_(torch.ones(2)))
S(torch.ones(1, 0).expand(3, 0) * 2, torch.ones(0, 1).t() * 2, torch.ones(3, 0, 1).transpose(0, 1) * 2)
S(torch.ones(3, 0, dtype=torch.int64).t() * 2, torch.ones(0, 3, dtype=torch.float16).t() * 2.5)
""")


def test_comparison_where_bitwise_order():
    same_as_torch(SHOW + """
S(a > 0, b <= 1, c == 1, a < torch.ones(2), torch.where(a > 0, a, 0.), torch.where(b > 0, b, torch.zeros(1)))
S(torch.maximum(a, torch.ones(2)), torch.atan2(b, torch.ones(1)), torch.clamp(a, min=torch.zeros(2)))
i = torch.ones(0, 3, dtype=torch.int32).t()
S(torch.ones(0, 3, dtype=torch.bool).t() & True, i | torch.ones(3, 1, dtype=torch.int32))
""")


def test_out_resized_as_iterator_output():
    # an out= of another shape is restrided as TensorIterator's output: abs of a complex tensor is the unary op's,
    # deg2rad's is mul by a number's (their functions write into empty_like(input))
    same_as_torch(SHOW + """
S(torch.mul(a, 2, out=torch.empty(0)), torch.add(b, torch.ones(1), out=torch.empty(0)))
S(torch.eq(c, 1, out=torch.empty(0, dtype=torch.bool)))
z = a.to(torch.complex64)
S(torch.abs(z, out=torch.empty(0)), torch.abs(z), torch.deg2rad(a, out=torch.empty(0)), torch.deg2rad(a))
o = torch.empty(0, 3).t()
S(torch.mul(torch.ones(3, 0), 2, out=o), o)
""")


def test_complex_abs_and_conj_physical_keep_input_strides():
    same_as_torch(SHOW + """
for x in (a.to(torch.complex64), torch.ones(1, 0, dtype=torch.complex128).expand(3, 0), c.to(torch.complex64)):
    S(x.abs(), torch.absolute(x), x.conj_physical(), x.angle(), x.sgn(), x.isnan())
""")


def test_view_as_real_real_imag_strides():
    same_as_torch(SHOW + """
for x in (a.to(torch.complex64), torch.ones(1, 0, dtype=torch.complex128).expand(3, 0), b.to(torch.complex64)):
    S(torch.view_as_real(x), x.real, x.imag, torch.view_as_complex(torch.view_as_real(x)))
S(torch.view_as_complex(torch.zeros(0, 3, 2).transpose(0, 1)))
""")


def test_slice_step_of_empty_tensor():
    # PyTorch multiplies a sliced dim's stride by the step, also where no element or one is left (NumPy does not)
    same_as_torch(SHOW + """
S(b[::2], b[:, ::2], torch.ones(3, 0, 1).permute(2, 0, 1)[:, :, ::2])
S(torch.ones(3, 4).t()[4::2], torch.ones(3, 4)[:, 3::3], torch.ones(3, 4).t()[:, 3:])
S(torch.ones(3, 0, 1).permute(2, 0, 1)[:, :, ::2].expand(0, 3, 0) * 2)
""")


def test_channels_last_strides_of_empty_tensors():
    same_as_torch(SHOW + """
cl = torch.channels_last
for x in (torch.ones(4, 0, 5, 6).permute(0, 2, 3, 1), torch.ones(0, 3, 4, 5), torch.ones(2, 3, 0, 5)):
    S(x.contiguous(memory_format=cl), x.to(memory_format=cl), x.clone(memory_format=cl))
    S(torch.empty_like(x, memory_format=cl))
    S(torch.zeros_like(x, memory_format=cl), x.to(torch.float64, memory_format=cl))
    y = x.contiguous(memory_format=cl)
    S(y * 2, y + y, y * torch.ones(x.shape[-1]))
x = torch.ones(0, 2, 3, 4, 5)
S(x.contiguous(memory_format=torch.channels_last_3d), torch.empty_like(x, memory_format=torch.channels_last_3d))
""")


def test_empty_like_kernels_and_rounded_division():
    # hardtanh / relu6 / nan_to_num write into empty_like(input) (nan_to_num's out= is the unary iterator's);
    # isclose is laid out as its input == other; rounded division as TensorIterator's, recorded or not
    same_as_torch(SHOW + """
F = torch.nn.functional
S(F.relu6(a), F.hardtanh(b), torch.nan_to_num(a), torch.nan_to_num(a, out=torch.empty(0)))
S(torch.isclose(a, a), torch.isclose(a, torch.ones(2)), torch.floor_divide(b, 2))
S(torch.div(a, torch.ones(2), rounding_mode="trunc"), torch.heaviside(a, torch.ones(2)))
S(torch.heaviside(a.detach().requires_grad_(), torch.ones(2)))
x = a.detach().requires_grad_()
S(torch.floor_divide(x, 2), torch.div(x, 2, rounding_mode="floor"), torch.div(x, torch.ones(2), rounding_mode="floor"))
""")
