"""Complex abs and sgn with PyTorch's bits: |z| is SLEEF's hypot (complex128 vectors) or glibc's,
z/|z| divides the parts by |z| (NumPy's own complex abs and division round otherwise)."""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_abs_and_sgn_match_torch(dtype):
    torch = torch_or_skip()
    z = torch.randn(20000, dtype=getattr(torch, dtype), generator=torch.Generator().manual_seed(0))
    z[:3] = torch.tensor([0, 3 + 4j, -0.0 - 2j])
    m = minigrad.tensor(z.numpy())
    same_abs = (m.abs().numpy() == z.abs().numpy()).mean()
    same_sgn = (m.sgn().numpy() == z.sgn().numpy()).mean()
    assert same_abs == 1.0 and same_sgn == 1.0   # complex128: SLEEF's double-double hypot, ported
    strided = z[::3]   # not contiguous: PyTorch's scalar loop, glibc's hypot
    assert np.array_equal(minigrad.tensor(z.numpy())[::3].abs().numpy(), strided.abs().numpy())
    assert m.abs().numpy()[:3].tolist() == [0.0, 5.0, 2.0]
    assert m.sgn().numpy()[:3].tolist() == z.sgn().numpy()[:3].tolist()
    assert not np.array_equal(np.abs(z.numpy()), z.abs().numpy())   # (NumPy's own abs: the test can fail)


def test_abs_gradient_of_complex_input():
    torch = torch_or_skip()
    z = torch.randn(5000, dtype=torch.complex64, generator=torch.Generator().manual_seed(1), requires_grad=True)
    m = minigrad.tensor(z.detach().numpy(), requires_grad=True)
    z.abs().sum().backward()
    m.abs().sum().backward()
    assert (m.grad.numpy() == z.grad.numpy()).mean() > 0.99
    np.testing.assert_allclose(m.grad.numpy(), z.grad.numpy(), rtol=1e-6, atol=1e-7)


def test_hypot_special_values():
    torch = torch_or_skip()
    z = torch.tensor([0, 3 + 4j, 1e-310 + 1e-311j, 1e300 + 1e300j, complex("inf"), complex(0, -float("inf")),
                      5e-324j, 1 + 1e-20j], dtype=torch.complex128)
    got = minigrad.tensor(z.numpy()).abs().numpy()
    assert got.tobytes() == z.abs().numpy().tobytes()
    nan = minigrad.tensor(np.array([complex("nan"), complex(1, float("nan"))])).abs().numpy()
    assert np.isnan(nan).all()


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_vector_blocks_and_scalar_tails(dtype):
    """PyTorch's vector code (SLEEF's hypot, z/|z|) on blocks of 16 (complex64) or 8 (complex128) elements,
    its scalar code (glibc's hypot, z·(1/|z|)) on the tail and on strided input."""
    torch = torch_or_skip()
    z = torch.randn(4000, dtype=getattr(torch, dtype), generator=torch.Generator().manual_seed(2))
    z[5] = 0
    m = minigrad.tensor(z.numpy())
    for part in [slice(0, n) for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 33)] + [slice(None, None, 2), slice(1, 40, 3)]:
        for name in ("abs", "sgn"):
            got, want = getattr(m[part], name)().numpy(), getattr(z[part], name)().numpy()
            assert np.array_equal(got, want), (part, name)
    got = m.reshape(40, 100).t().sgn().numpy()
    assert np.array_equal(got, z.reshape(40, 100).t().sgn().numpy())
