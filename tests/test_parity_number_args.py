"""Number arguments given as tensors, and NumPy's missing bfloat16: PyTorch's parser takes a 0-d tensor outside
autograd as a Number (``torch.full((2,), t)``, ``x.add(y, alpha=t)``) and refuses any other tensor with a
TypeError; ``.numpy()`` of a bfloat16 tensor is a TypeError (NumPy has no such dtype). Each program prints the
same under minigrad and PyTorch."""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

_VALUES = ("[torch.tensor(2), torch.tensor(2.5, dtype=torch.float64), torch.tensor(True), torch.tensor([1.0]),"
           " torch.tensor([1., 2.]), torch.tensor(1.5, requires_grad=True)]")

PROGRAMS['full_family_tensor_fill'] = r'''
import torch
x = torch.zeros(2, dtype=torch.int32)
calls = [('full', lambda v: torch.full((2,), v)), ('full_like', lambda v: torch.full_like(x, v)),
         ('new_full', lambda v: x.new_full((2,), v)), ('fill_', lambda v: x.float().fill_(v))]
for name, f in calls:
    for v in VALUES:
        try:
            r = f(v)
            print(name, r, r.dtype, r.requires_grad)
        except Exception as e:
            print(name, type(e).__name__, e)
'''.replace("VALUES", _VALUES)

PROGRAMS['alpha_tensor'] = r'''
import torch
x = torch.zeros(2)
calls = [('add', lambda v: torch.add(x, 1, alpha=v)), ('sub', lambda v: x.sub(x, alpha=v)),
         ('rsub', lambda v: torch.rsub(x, 1, alpha=v)), ('add_', lambda v: x.clone().add_(1, alpha=v)),
         ('sub_', lambda v: x.clone().sub_(x, alpha=v)), ('add number first', lambda v: torch.add(1, x, alpha=v))]
for name, f in calls:
    for v in VALUES:
        try:
            r = f(v)
            print(name, r, r.requires_grad)
        except Exception as e:
            print(name, type(e).__name__, e)
'''.replace("VALUES", _VALUES)

PROGRAMS['bfloat16_has_no_numpy'] = r'''
import numpy as np
import torch
x = torch.arange(3, dtype=torch.bfloat16)
calls = [lambda: x.numpy(), lambda: np.asarray(x), lambda: x.tolist(), lambda: x.float().numpy(),
         lambda: torch.tensor(x), lambda: torch.tensor([x[0], x[1]]), lambda: x[1].item(),
         lambda: torch.full((2,), x[1]),
         lambda: x.half().numpy(), lambda: x.requires_grad_().numpy(), lambda: x.detach().numpy(force=True)]
for f in calls:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
'''

PROGRAMS['factory_argument_types'] = r'''
import torch
calls = [lambda: torch.ones(2, requires_grad=1), lambda: torch.zeros(2, requires_grad=None),
         lambda: torch.tensor([1.], requires_grad=1), lambda: torch.full(3, 1.), lambda: torch.full((3,), 'x'),
         lambda: torch.empty(2, requires_grad=1.0), lambda: torch.zeros_like(torch.ones(2), requires_grad=1),
         lambda: torch.ones_like(torch.ones(2), requires_grad=True),
         lambda: torch.full_like(torch.ones(2), 2, requires_grad=0),
         lambda: torch.arange(3, requires_grad=True)]
for f in calls:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
s = torch.set_grad_enabled(False)
print(s.prev, s.mode, torch.is_grad_enabled())
torch.set_grad_enabled(True)
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
