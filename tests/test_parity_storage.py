"""``Tensor.untyped_storage()`` / ``Tensor.storage()`` (minigrad/storage.py): views share their base's memory,
copies have their own, and storages print as PyTorch prints them."""
from __future__ import annotations

import pytest
from parity import run_both

PROGRAMS = {
    "views_share_memory": r"""
import torch
x = torch.arange(6.)
v = x.view(2, 3)
t = v.t()
s = x.untyped_storage()
print(type(s).__name__, s.nbytes(), s.size(), len(s), s.element_size(), s.device, s.data_ptr() == x.data_ptr())
for y in (v, t, x[2:], x[::2], x.reshape(3, 2), x.detach()):
    print(y.untyped_storage().data_ptr() == s.data_ptr(), y.storage_offset(), y.untyped_storage().nbytes())
for y in (x.clone(), x + 0, x.contiguous().clone(), t.contiguous()):
    print(y.untyped_storage().data_ptr() == s.data_ptr())
print(x[2:].data_ptr() - x.data_ptr())
""",
    "storage_prints": r"""
import torch, warnings
x = torch.tensor([1., 2.5, 3.])
print(x.untyped_storage())
print(torch.tensor([1, 2], dtype=torch.int16).untyped_storage().tolist())
print(torch.tensor([], dtype=torch.int64).untyped_storage())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    st = x.storage()   # (PyTorch warns once per process: whether it does here depends on earlier tests)
    print(all(str(m.message).startswith("TypedStorage is deprecated") for m in w))
print(st)
print(type(st).__name__, st.size(), len(st), st.dtype, st.nbytes(), st.element_size(), st[1], st.tolist())
print(torch.tensor([0.1, 0.2]).storage())
print(torch.tensor([True, False]).storage())
print(x[1:].storage().size(), x[1:].storage().data_ptr() == x.storage().data_ptr())
print(isinstance(st, torch.TypedStorage), isinstance(x.untyped_storage(), torch.UntypedStorage))
print(torch.UntypedStorage, torch.TypedStorage)
""",
    "grad_and_inplace_share": r"""
import torch
w = torch.ones(3, requires_grad=True)
(w * 2).sum().backward()
g = w.grad
print(g.untyped_storage().data_ptr() == w.grad.untyped_storage().data_ptr())
with torch.no_grad():
    w.add_(1)
print(w.untyped_storage().nbytes(), w.data.untyped_storage().data_ptr() == w.untyped_storage().data_ptr())
b = w.detach().view(3, 1).expand(3, 4)
print(b.untyped_storage().nbytes(), b.untyped_storage().data_ptr() == w.untyped_storage().data_ptr())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_storage_program_prints_like_pytorch(name):
    mine, theirs = run_both(PROGRAMS[name])
    assert mine == theirs
    assert mine.count("\n") >= 3


def test_typed_storage_warns_once_at_the_users_line():
    """The deprecation warning of ``storage()``: PyTorch's text, once per process, at the caller's line."""
    import subprocess
    import sys
    code = ("import warnings, minigrad as torch\nwarnings.simplefilter('always')\n"
            "x = torch.ones(2)\nx.storage()\nx.storage()\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stderr
    assert err.count("UserWarning: TypedStorage is deprecated. It will be removed in the future") == 1
    assert "<string>:4:" in err
