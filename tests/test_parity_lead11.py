"""Differences the session-11 lead fixed while merging; each program runs with minigrad and PyTorch and must print
the same (``parity.same_as_torch``).

- ``as_strided`` of a tensor whose own memory is laid out in another dim order (an elementwise result of a permuted
  tensor keeps the permuted layout, so its storage is one block read in stride order, not a C-order copy).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS: dict[str, str] = {}

PROGRAMS["as_strided_of_permuted_layout"] = """
y = torch.arange(27.).reshape(3, 3, 3).permute(1, 2, 0) * 2
y.requires_grad_()
print(y.stride())
z = y.as_strided((2,), (1,), 19); z2 = y.as_strided((3,), (1,), 0)
print(z, z2)
(z.sum() * 3 + (z2 * z2).sum()).backward()
print(y.grad, y.grad.stride())
a = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2) * 1
print(a.stride(), a.as_strided((4,), (2,), 3), a.as_strided((2, 2), (1, 12)))
b = torch.arange(6.).reshape(2, 3).t().exp()
print(b.as_strided((3,), (1,), 2))
"""



PROGRAMS["post_hook_keeps_grad_inputs"] = """
x = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor([3., -1.], requires_grad=True)
log = []
y = x * w
z = (y * y).sum()
square = z.grad_fn.next_functions[0][0]
square.register_hook(lambda grad_inputs, grad_outputs: log.append(grad_inputs))
square.register_prehook(lambda grad_outputs: log.append(grad_outputs))
z.backward()
for entry in log:
    print(entry, [t._version for t in entry])
print(x.grad, x.grad._version, w.grad, w.grad._version)
a = torch.ones(3, requires_grad=True)
m = a * a
m.grad_fn.register_hook(lambda gi, go: None)
m.sum().backward()
print(a.grad, a.grad._version)
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program(name):
    same_as_torch(PROGRAMS[name])
