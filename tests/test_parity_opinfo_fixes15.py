"""Session 15 (O9): non-bit OpInfo sweep leftovers of session 14 (tests/opinfo_sweep.py), each compared live with
torch: grad_fn of .to(copy=True) given positionally, conjugate bits of vdot/dot results, addbmm_ resizing its input
(and storages shared with NumPy that cannot grow), matrix_rank with tolerance tensors, histogram's weight, complex
logcumsumexp, householder_product/ormqr backward without reflectors, strides of unique(dim=)/unique_consecutive(dim=),
max_unpool2d and 3-D nearest/trilinear interpolation of channels_last inputs.
"""
from __future__ import annotations

from parity import ERROR_PRELUDE, same_as_torch

# R(t): a tensor's values rounded to 8 decimals (complex as (real, imag) pairs), for printing
PRELUDE = ERROR_PRELUDE + """
def R(t):
    t = t.detach().resolve_conj()
    return (torch.view_as_real(t) if t.is_complex() else t).round(decimals=8).tolist()
"""


def test_to_with_copy_given_positionally_records_to_copy():
    """Tensor.to(device, dtype, non_blocking, copy) / to(dtype, non_blocking, copy): a positional copy=True copies
    (ToCopyBackward0) even when nothing changes."""
    same_as_torch("""
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
for args in (('cpu', torch.float64, False, True), ('cpu', torch.float64, True, False), (torch.float64, False, True),
             (torch.float64, True, True), (x, False, True), (x, True, False), (None, torch.float64, False, True)):
    y = x.to(*args)
    print(y is x, type(y.grad_fn).__name__, y._version)
""", PRELUDE)


def test_vdot_and_dot_of_conjugate_views_return_a_conjugate_bit():
    """PyTorch's CPU kernels: vdot(x, y.conj()) is dot(x, y).conj() and dot(x.conj(), y.conj()) dot(x, y).conj():
    results with the conjugate bit set (not views); the other combinations resolve it."""
    same_as_torch("""
a = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128, requires_grad=True)
b = torch.tensor([2 - 1j, 1 + 1j], dtype=torch.complex128, requires_grad=True)
for x, y in ((a.conj(), b), (a, b.conj()), (a.conj(), b.conj()), (a, b)):
    for fn in (torch.vdot, torch.dot):
        r = fn(x, y)
        print(fn.__name__, R(r), r.is_conj(), r._is_view(), type(r.grad_fn).__name__)
r = torch.vdot(a, b.conj())
(r * (0.5 - 2j)).real.backward()
print(R(a.grad), a.grad.is_conj(), R(b.grad), b.grad.is_conj())
""", PRELUDE)


def test_addbmm_inplace_resizes_its_input_and_numpy_storages_cannot_grow():
    """addbmm_ is addbmm(out=self): an input broadcasting to the product's shape is resized to it (history and
    gradient kept); memory shared with NumPy by from_numpy cannot grow."""
    same_as_torch("""
import numpy as np
b1 = torch.arange(24.0, dtype=torch.float64).reshape(2, 3, 4) / 10
b2 = torch.arange(40.0, dtype=torch.float64).reshape(2, 4, 5) / 7
for shape in ((1,), (), (1, 5), (3, 1)):
    x = torch.full(shape, 2.0, dtype=torch.float64)
    r = x.addbmm_(b1, b2, beta=0.5, alpha=2)
    print(r is x, tuple(x.shape), x.stride(), x._version, R(x[0]))
E(lambda: torch.ones(5, 3, dtype=torch.float64).addbmm_(b1, b2))
E(lambda: torch.from_numpy(np.ones(1)).addbmm_(b1, b2))
u = torch.from_numpy(np.ones(3))
print(tuple(u.resize_(2).shape), tuple(u.resize_(3).shape))
a = torch.tensor([[1.5], [2.0], [-1.0]], dtype=torch.float64, requires_grad=True)
c = a * 1
c.addbmm_(b1.requires_grad_(), b2, beta=2)
c.backward(torch.arange(15.0, dtype=torch.float64).reshape(3, 5))
print(type(c.grad_fn).__name__, c._version, R(a.grad), R(b1.grad.sum()))
""", PRELUDE)


def test_matrix_rank_with_tolerance_tensors():
    """atol/rtol (or tol) tensors: one tolerance per matrix, PyTorch's defaults (rtol = eps·max(m, n) where atol is
    not > 0), rank 0 for empty inputs whatever the tolerances' shapes; complex tolerances refused."""
    same_as_torch("""
A = torch.tensor([[[2.0, 0, 0], [0, 1e-3, 0], [0, 0, 1e-9]], [[1.0, 2, 3], [2, 4, 6], [0, 0, 1]]], dtype=torch.float64)
for kw in (dict(atol=torch.tensor([1e-2, 0.5])), dict(atol=torch.tensor([0.0, 0.5]), rtol=torch.tensor([1e-4, 0.1])),
           dict(atol=torch.tensor([1e-4, 0.0], dtype=torch.float32)), dict(tol=torch.tensor([1e-2, 0.5])),
           dict(rtol=torch.tensor([1e-5, 0.9]), hermitian=True)):
    r = torch.linalg.matrix_rank(A, **kw)
    print(r.tolist(), r.dtype, r._version)
for shape, n in (((0, 5, 5), 0), ((0, 0, 0), 0), ((2, 0, 0), 2)):
    r = torch.linalg.matrix_rank(torch.zeros(shape, dtype=torch.float64), atol=torch.zeros(n), rtol=torch.zeros(n))
    print(r.tolist(), tuple(r.shape), r._version)
E(lambda: torch.linalg.matrix_rank(A, rtol=torch.tensor(1j)))
E(lambda: torch.linalg.matrix_rank(A, atol=torch.tensor([1.0, 2.0, 3.0])))
""", PRELUDE)


def test_histogram_flattens_its_weight():
    """torch.histogram reshapes weight to one dim as it does input: any shape with input's element count works."""
    same_as_torch("""
x = torch.linspace(0, 1, 12, dtype=torch.float64).reshape(3, 4)
w = torch.arange(12.0, dtype=torch.float64).reshape(3, 4)
print(R(torch.histogram(x, 3, weight=w).hist), R(x.histogram(3, weight=w.reshape(12), density=True).hist))
print(R(torch.histogram(x, 2, weight=w.reshape(2, 6)).hist))
E(lambda: torch.histogram(x, 3, weight=w[0]))
""", PRELUDE)


def test_logcumsumexp_of_complex_numbers():
    """PyTorch's complex loop: min/max by real part, NaNs infectious, -inf/+inf real parts handled apart; the
    gradient through log of the conjugate gradient (no sign split)."""
    same_as_torch("""
z = torch.tensor([[0.5 + 1j, -1.0 + 2j, 2.0 - 0.5j, 0.25 + 3j],
                  [float('-inf') + 0j, 1.0 + 1j, float('-inf') + 2j, 0.5 - 1j],
                  [float('inf') + 1j, float('inf') + 2j, 1.0 + 0j, 2.0 + 0j],
                  [1.0 + 0j, complex(float('nan'), 1.0), 2.0 + 1j, 0j]], dtype=torch.complex128)
for dim in (0, 1):
    print(R(torch.logcumsumexp(z, dim)))
print(torch.logcumsumexp(z.to(torch.complex64), 1).dtype)
w = z[:1].clone().requires_grad_()
y = torch.logcumsumexp(w, 1)
y.backward(torch.tensor([[1 - 1j, 0.5j, 2.0, -1 + 0.25j]], dtype=torch.complex128))
print(type(y.grad_fn).__name__, R(w.grad), w.grad.is_conj())
""", PRELUDE)


def test_householder_product_and_ormqr_backward_without_reflectors():
    """No reflectors (empty tau) or no matrices: PyTorch's backward returns undefined gradients (.grad stays None);
    ormqr's gradient of other is still computed."""
    same_as_torch("""
for shape, k in (((0, 0), 0), ((3, 2), 0), ((0, 3, 2), 2), ((3, 0), 0)):
    A = torch.ones(shape, dtype=torch.float64, requires_grad=True)
    tau = torch.ones(shape[:-2] + (k,), dtype=torch.float64, requires_grad=True)
    Q = torch.linalg.householder_product(A, tau)
    Q.backward(torch.ones_like(Q))
    print(tuple(Q.shape), A.grad, tau.grad)
    if k == min(shape[-2:]):
        A.grad = tau.grad = None
        C = torch.ones(shape[:-2] + (shape[-2], 2), dtype=torch.float64, requires_grad=True)
        out = torch.ormqr(A, tau, C, left=True, transpose=False)
        out.backward(torch.ones_like(out))
        print(A.grad, tau.grad, tuple(C.grad.shape))
""", PRELUDE)


def test_unique_along_a_dim_is_laid_out_dim_first():
    """unique(dim=d) / unique_consecutive(dim=d): the slices stacked along a new first dim, moved back to d."""
    same_as_torch("""
x = torch.tensor([[[1, 0], [1, 0], [0, 1], [1, 0]], [[0, 0], [0, 0], [1, 1], [0, 0]], [[1, 0], [1, 0], [1, 0], [0, 0]]])
for d in (0, 1, 2, -1):
    u = torch.unique(x, dim=d, return_inverse=True, return_counts=True)
    c = torch.unique_consecutive(x, dim=d, return_inverse=True, return_counts=True)
    print(d, tuple(u[0].shape), u[0].stride(), tuple(c[0].shape), c[0].stride(), u[1].tolist(), c[2].tolist())
y = torch.tensor([[3.0], [1.0], [3.0]])
print(torch.unique(y, dim=1).stride(), torch.unique_consecutive(y, dim=1).stride(), torch.unique(y, dim=0).stride())
""", PRELUDE)


def test_channels_last_unpooling_and_3d_interpolation_keep_the_layout():
    """max_unpool2d of a channels_last input, and nearest/nearest-exact/trilinear 3-D upsampling of a
    channels_last_3d one, give outputs in that memory format (area and contiguous inputs do not)."""
    same_as_torch("""
F = torch.nn.functional
x = torch.arange(16.0, dtype=torch.float64).reshape(1, 2, 2, 4)
i = torch.tensor([[[[0, 3, 9, 6], [20, 17, 23, 18]], [[1, 2, 8, 10], [13, 14, 22, 21]]]])
for inp, idx in ((x, i), (x.to(memory_format=torch.channels_last), i.to(memory_format=torch.channels_last))):
    y = F.max_unpool2d(inp, idx, 2, output_size=(4, 8))
    print(y.stride(), R(y[0, 1, 1]))
print(F.max_unpool1d(x[0], i[0] % 8, 2, output_size=(8,)).stride())
v = torch.arange(60.0, dtype=torch.float64).reshape(2, 2, 5, 1, 3).to(memory_format=torch.channels_last_3d)
for mode in ('nearest', 'nearest-exact', 'trilinear', 'area'):
    print(mode, F.interpolate(v, (5, 2, 4), mode=mode).stride(),
          F.interpolate(v.contiguous(), (5, 2, 4), mode=mode).stride())
""", PRELUDE)
