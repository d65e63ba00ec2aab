"""Graph fuzz fixes of session 28, second round: regressions of differences found by the graph fuzzer
(tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family) and by its follow-ups.

Each program prints what a user sees (values, dtypes, graphs, errors) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``).
"""
from __future__ import annotations

from parity import same_as_torch


def test_bmm_empty_product_skips_dtype_check():
    # PyTorch's bmm returns zeros in mat2's dtype before its kernel checks dtypes when the contracted dim or the
    # result is empty (einsum inherits it); minigrad raised "expected scalar type Float but found ComplexFloat"
    same_as_torch("""
c = torch.complex64
for a, b in [((1, 2, 0), (1, 0, 3)), ((0, 2, 1), (0, 1, 3)), ((1, 0, 1), (1, 1, 3)), ((1, 2, 1), (1, 1, 0))]:
    for da, db in [(torch.float32, c), (c, torch.float32), (torch.bool, torch.float32), (torch.float16, torch.int64),
                   (torch.bool, torch.bool)]:
        r = torch.bmm(torch.ones(a, dtype=da), torch.ones(b, dtype=db))
        print(r.dtype, r.shape, r)
E(lambda: torch.bmm(torch.ones(1, 2, 1), torch.ones(1, 1, 3, dtype=c)))
E(lambda: torch.bmm(torch.ones(1, 2, 1, dtype=torch.bool), torch.ones(1, 1, 3, dtype=torch.bool)))
print(torch.einsum('bij,bjk->bik', torch.zeros(1, 2, 0), torch.zeros(1, 0, 3, dtype=c)).dtype)
print(torch.einsum('ij,jk->ik', torch.zeros(2, 0, dtype=c), torch.zeros(0, 3)).dtype)
print(torch.matmul(torch.zeros(2, 2, 0), torch.zeros(2, 0, 3, dtype=c)).dtype)
x = torch.zeros(1, 2, 0, requires_grad=True)
E(lambda: torch.bmm(x, torch.zeros(1, 0, 3, dtype=torch.int64)))
r = torch.bmm(x, torch.zeros(1, 0, 3, dtype=torch.float64))
print(r.grad_fn.name(), r.dtype)
r.sum().backward()
print(x.grad)
y = torch.zeros(1, 0, 3, dtype=c, requires_grad=True)
r = torch.bmm(x, y)
print(r.grad_fn.name(), r.dtype)
E(lambda: r.abs().sum().backward())   # (a complex gradient for the real x: PyTorch's engine refuses it)
""")
