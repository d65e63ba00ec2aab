"""Session 14 (O3): fixes of OpInfo sweep leftovers (tests/opinfo_sweep.py), each compared live with torch.

Wrong values (complex logsumexp, integer inputs of poisson_nll_loss / cosine_embedding_loss), conjugate bits
(inverse FFTs of real signals), and errors/crashes on empty or unusual arguments (searchsorted, gather/scatter with
an empty index, conj_physical_ of bool, Tensor.lu's plain tuple).
"""
from __future__ import annotations

from parity import ERROR_PRELUDE, same_as_torch, torch_or_skip

# R(t): a tensor's values rounded to 8 decimals (complex as (real, imag) pairs), for printing
PRELUDE = ERROR_PRELUDE + """
def R(t):
    t = t.detach().resolve_conj()
    return (torch.view_as_real(t) if t.is_complex() else t).round(decimals=8).tolist()
"""


def _exact_lines(label, dtype, max_samples=None):
    """The sweep's differences for (op, dtype) other than last-bit (ulp) ones, which session 14's O4 owns."""
    torch_or_skip()
    import opinfo_sweep
    n_run, lines = opinfo_sweep.sweep_lines(label, dtype, max_samples)
    assert n_run > 0
    return [line for line in lines if " ulp" not in line]


def test_logsumexp_complex_takes_the_max_of_real_parts():
    """The imaginary part goes through exp and log: its principal value, not the input's (PyTorch subtracts the
    max of the real parts only)."""
    same_as_torch("""
x = torch.tensor([0.5 - 7.58j, 1.0 + 4.0j, -2.0 + 9.5j], dtype=torch.complex128)
print(R(torch.logsumexp(x[:1], 0)), R(torch.logsumexp(x, 0)))
print(R(torch.logsumexp(x.reshape(3, 1), 1, keepdim=True)))
print(R(torch.logsumexp(torch.tensor([float('inf') + 1j, 1.0 + 0j], dtype=torch.complex128), 0)))
""", PRELUDE)
    assert _exact_lines("logsumexp", "complex128") == []


def test_inverse_fft_of_a_real_signal_is_a_lazy_conjugate():
    """ifft / ihfft of a real input: PyTorch returns the conj() of the forward r2c transform, a conjugate view."""
    same_as_torch("""
x = torch.tensor([1.0, 2.0, -3.0, 4.5], dtype=torch.float64, requires_grad=True)
for fn in (torch.fft.ifft, torch.fft.ihfft):
    y = fn(x)
    print(y.is_conj(), type(y.grad_fn).__name__, y._base is not None, y._version, R(y))
    (y.abs() ** 2).sum().backward()
    print(R(x.grad)); x.grad = None
z = torch.fft.ihfftn(torch.tensor([[1.0, 2.0], [3.0, 5.0]]), dim=(1,))
print(z.is_conj(), R(z), torch.fft.ihfft2(torch.tensor([[1.0, 2.0], [3.0, 5.0]])).is_conj())
with torch.inference_mode():
    w = torch.fft.ifft(torch.tensor([1.0, 2.0]))
print(w.is_conj(), w.is_inference())
""", PRELUDE)


def test_integer_inputs_of_losses_with_a_float_epsilon():
    """poisson_nll_loss(log_input=False) and cosine_embedding_loss add a float eps to integer tensors: float32."""
    same_as_torch("""
F = torch.nn.functional
i, t = torch.tensor([0, 0, 2, 5]), torch.tensor([0, 3, 0, 4])
for full in (False, True):
    out = F.poisson_nll_loss(i, t, log_input=False, full=full, reduction='none')
    print(R(out), out.dtype)
a = torch.tensor([[1, -7, 4], [6, 9, 2]]); b = torch.tensor([[2, 1, -4], [6, 8, 3]])
for y in (torch.tensor([1, -1]), torch.tensor([-1, 1])):
    out = F.cosine_embedding_loss(a, b, y, margin=0.25, reduction='none')
    print(R(out), out.dtype)
print(R(F.cosine_embedding_loss(a.bool(), b.bool(), torch.tensor([1, -1]))))
""", PRELUDE)


def test_searchsorted_of_empty_tensors():
    same_as_torch("""
e = torch.empty(0, 0)
print(torch.searchsorted(e, e), torch.searchsorted(torch.empty(2, 0), torch.empty(2, 0, dtype=torch.float32)))
print(torch.searchsorted(torch.empty(0, 3), torch.empty(0, 2), right=True).shape)
print(torch.searchsorted(torch.tensor([[1.0, 3.0], [2.0, 4.0]]), torch.empty(2, 0)).shape)
print(torch.searchsorted(torch.empty(2, 0), torch.tensor([[1.0], [2.0]])))
""", PRELUDE)


def test_gather_and_scatter_with_an_empty_index():
    """An empty index: PyTorch checks neither its rank nor its dtype, and reads or writes nothing."""
    same_as_torch("""
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.gather(x, 0, torch.empty(2, 0, dtype=torch.int64))
print(y.shape, y.stride(), type(y.grad_fn).__name__)
y.sum().backward(); print(x.grad, x.grad._version)
print(torch.gather(x.detach(), 0, torch.empty(0, 4, dtype=torch.uint8)).shape)
z = torch.randn(2, 3, dtype=torch.complex128)
print(z.gather(1, torch.empty(0, 5, 7, dtype=torch.int64)).shape)
print(torch.zeros(2, 3).scatter_add(1, torch.empty(0, 5, 7, dtype=torch.int64), torch.ones(2, 2)))
print(E(lambda: torch.gather(x, 0, torch.zeros(2, 1, dtype=torch.int64))))
""", PRELUDE)


def test_conj_physical_inplace_of_bool_and_tensor_lu_tuple():
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
b = torch.tensor([True, False]); r = b.conj_physical_()
print(r is b, r, b._version)
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(type(A.lu()).__name__, type(A.lu(get_infos=True)).__name__, type(torch.lu(A, get_infos=True)).__name__)
LU, piv, info = A.lu(get_infos=True)
print(R(LU), piv, info)
print(E(lambda: A.lu(True, False, 3)))
""", PRELUDE)
