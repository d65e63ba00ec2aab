"""Differences found when session 23's helpers' work came together."""
from __future__ import annotations

from parity import same_as_torch


def test_complex_cumprod_through_zero_keeps_the_fused_signed_zeros():
    # PyTorch's complex<double> product compiles to fused multiply-adds: (-1.1-0.7j)·0j has imaginary part
    # fma(-1.1, 0., -0.7·0.) = -0. + -0. = -0. (the emulated fma gave +0.); prod's gradient at a zero shows it
    same_as_torch("""
z0 = torch.tensor([1 + 2j, -0.5 + 0.3j, 0j, 2 - 1j], dtype=torch.cfloat)
print(z0[:3].cumprod(0), torch.cat([torch.ones(1, dtype=torch.cfloat), z0[:3]]).cumprod(0))
a = torch.tensor([0j, 1+1j, -1-1j, 0.5-2j], dtype=torch.complex128)
print(a.cumprod(0), torch.tensor([-0.0+0j, 2j]).cumprod(0))
z = z0.clone().requires_grad_()
z.prod().backward(torch.tensor(1 + 1j, dtype=torch.cfloat))
print(z.grad)
""")
