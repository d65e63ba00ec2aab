"""Session 13 leftovers (nn and versions): what torch.nn.utils imports by itself (no ``prune``), Module.to_empty and
_save_to_state_dict, where the module warnings point (filename a user sees), float64 convolutions' bits.

Each test compares with PyTorch, run live (fresh interpreters where the question is what an import brings).
"""
from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from parity import same_as_torch, torch_or_skip

import minigrad

ROOT = Path(__file__).resolve().parent.parent

# (a fresh interpreter: which submodules a package has before the program imports any)
_FRESH = r'''
import importlib, json, sys, types
lib = sys.argv[1]
__import__(lib)
out = {}
for name in ("", ".nn", ".nn.utils", ".autograd", ".utils"):
    mod = importlib.import_module(lib + name)
    out[name] = sorted(k for k in dir(mod) if isinstance(getattr(mod, k), types.ModuleType) and not k.startswith("_"))
out["prune_before"] = hasattr(sys.modules[lib + ".nn.utils"], "prune")
importlib.import_module(lib + ".nn.utils.prune")
out["prune_after"] = hasattr(sys.modules[lib + ".nn.utils"], "prune")
out["nn.utils names"] = sorted(k for k in dir(sys.modules[lib + ".nn.utils"]) if not k.startswith("_"))
print(json.dumps(out))
'''


def _fresh(lib: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _FRESH, lib], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def test_nn_utils_submodules_as_a_fresh_import_has_them():
    torch_or_skip()
    ours, theirs = _fresh("minigrad"), _fresh("torch")
    assert ours["prune_before"] is theirs["prune_before"] is False
    assert ours["prune_after"] is theirs["prune_after"] is True
    # torch.nn.utils after ``import torch``: the same public names (clip_grad, convert_parameters ... no prune,
    # no ``warnings`` or tensor ops of minigrad's own)
    assert ours["nn.utils names"] == theirs["nn.utils names"]
    for name in (".nn", ".nn.utils", ".utils"):   # no submodule of ours that PyTorch does not import
        assert set(ours[name]) <= set(theirs[name]), (name, set(ours[name]) - set(theirs[name]))


def test_clip_grad_and_convert_parameters_modules():
    same_as_torch("""
import torch.nn.utils as u
for f in (u.clip_grad_norm_, u.clip_grad_norm, u.clip_grad_value_, u.get_total_norm, u.clip_grads_with_norm_,
          u.parameters_to_vector, u.vector_to_parameters):
    print(f.__name__, f.__module__.split(".")[-1])
print(u.clip_grad.__all__, u.__all__)
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
m = torch.nn.Linear(2, 3)
v = parameters_to_vector(m.parameters())
print(v.shape, v.grad_fn)
vector_to_parameters(torch.arange(9.0), m.parameters())
print(m.weight, m.bias)
m(torch.ones(1, 2)).sum().backward()
print(u.clip_grad.clip_grad_norm_(m.parameters(), 0.5), m.weight.grad)
""")


def test_to_empty_and_apply_keep_the_parameter_and_gradient_objects():
    same_as_torch("""
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3))
m(torch.randn(4, 2)).sum().backward()
w, g = m[0].weight, m[0].weight.grad
r = m.to_empty(device="cpu")
print(r is m, m[0].weight is w, type(m[0].weight).__name__, m[0].weight.requires_grad, m[0].weight.shape,
      m[0].weight.grad is g, m[0].weight.grad.shape, m[1].running_mean.shape, m[1].num_batches_tracked.dtype)
s = torch.nn.Sequential(torch.nn.Linear(2, 2)); s.register_buffer("b", torch.ones(2)); b0 = s.b; w0 = s[0].weight.data
s.to_empty(device=None, recurse=False); print(s.b is b0, s[0].weight.data is w0)
E(lambda: m.to_empty())
E(lambda: m.to_empty("cpu"))
E(lambda: m.to_empty(device="cuda"))
E(lambda: m.to_empty(device="cpu", foo=1))
E(lambda: m.to_empty(device=3))
# .double() keeps the gradient object (PyTorch's set_data), a non-leaf gradient too
m = torch.nn.Linear(2, 3); m(torch.randn(4, 2)).sum().backward(); g = m.weight.grad; w = m.weight
m.double(); print(m.weight is w, m.weight.grad is g, g.dtype, g._version, w._version, g.requires_grad)
m.to(torch.float16); print(m.weight.grad is g, g.dtype)
x = torch.ones(2, requires_grad=True)
m = torch.nn.Linear(2, 2); m.weight.grad = (x * 2).expand(2, 2); g = m.weight.grad
m.double(); print(m.weight.grad is g, m.weight.grad.dtype, type(m.weight.grad.grad_fn).__name__)
print(sorted(set(dir(torch.nn.Linear(2, 3))) & {"to_empty", "_save_to_state_dict"}))
""")


def test_save_to_state_dict_is_the_overridable_step():
    same_as_torch("""
class M(torch.nn.Module):
    def __init__(self):
        super().__init__(); self.l = torch.nn.Linear(1, 1); self.register_buffer("x", torch.ones(1))
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars); destination[prefix + "extra"] = 5
print(list(torch.nn.Sequential(M()).state_dict().keys()))
d = {}; torch.nn.Linear(1, 2)._save_to_state_dict(d, "p.", True); print({k: type(v).__name__ for k, v in d.items()})
d = {}; torch.nn.BatchNorm1d(2)._save_to_state_dict(d, "", False); print({k: type(v).__name__ for k, v in d.items()})
""")


def _warning_places(lib) -> list:
    """(path inside the library package or 'USER', message start) of the warnings a few module calls give."""
    nn = lib.nn
    package = str(Path(lib.__file__).parent)

    class ListOut(nn.Module):
        def forward(self, x):
            return [x * 2]

    m = ListOut()
    m.register_full_backward_hook(lambda *a: None)
    q = lib.randn(1, 3, 4)
    calls = [lambda: m(lib.ones(2, requires_grad=True))]
    mha = nn.MultiheadAttention(4, 2, batch_first=True)
    calls.append(lambda: mha(q, q, q, attn_mask=lib.zeros(3, 3), key_padding_mask=lib.zeros(1, 3, dtype=lib.bool)))
    calls.append(lambda: mha(q, q, q, attn_mask=lib.zeros(3, 3, dtype=lib.bool), key_padding_mask=lib.zeros(1, 3)))
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    calls.append(lambda: layer(q, src_mask=lib.zeros(3, 3), src_key_padding_mask=lib.zeros(1, 3, dtype=lib.bool)))
    qs = q.transpose(0, 1)
    calls.append(lambda: nn.functional.multi_head_attention_forward(
        qs, qs, qs, 4, 2, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0, mha.out_proj.weight,
        mha.out_proj.bias, key_padding_mask=lib.zeros(1, 3, dtype=lib.bool), attn_mask=lib.zeros(3, 3)))
    places = []
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        for w in caught:
            where = (w.filename[len(package) + 1:] if w.filename.startswith(package) else "USER")
            places.append((where, str(w.message)[:40]))
    return places


def test_warnings_point_where_pytorch_points():
    torch = torch_or_skip()
    ours, theirs = _warning_places(minigrad), _warning_places(torch)
    # minigrad's MultiheadAttention lives in nn/modules/attention.py, PyTorch's in nn/modules/activation.py
    ours = [(w.replace("nn/modules/attention.py", "nn/modules/activation.py"), m) for w, m in ours]
    assert ours == theirs
    assert [w for w, _ in theirs] == ["nn/modules/module.py", "nn/modules/activation.py",
                                      "nn/modules/activation.py", "nn/modules/transformer.py", "nn/functional.py"]


def test_float64_convolutions_have_pytorchs_bits():
    torch = torch_or_skip()
    if minigrad._matmul._LIB is None:
        pytest.skip("minigrad runs without MKL here: its products are NumPy's")
    rng = np.random.default_rng(13)
    checked = 0
    for trial in range(40):
        dims = 1 + trial % 2
        n, c, o, k = (int(v) for v in rng.integers(1, 4, 4))
        size = tuple(int(v) for v in rng.integers(4, 12, dims))
        dilation = int(rng.integers(1, 3))
        x = rng.standard_normal((n, c) + size)
        w = rng.standard_normal((o, c) + (k,) * dims)
        b = rng.standard_normal(o) if trial % 3 else None
        conv_t = torch.nn.functional.conv1d if dims == 1 else torch.nn.functional.conv2d
        conv_m = minigrad.nn.functional.conv1d if dims == 1 else minigrad.nn.functional.conv2d
        for padding in ("same", 1, 0):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")   # (padding='same' with an even kernel warns in both)
                try:
                    want = conv_t(torch.tensor(x), torch.tensor(w), None if b is None else torch.tensor(b),
                                  padding=padding, dilation=dilation).numpy()
                except RuntimeError:
                    continue
                got = conv_m(minigrad.tensor(x), minigrad.tensor(w), None if b is None else minigrad.tensor(b),
                             padding=padding, dilation=dilation).numpy()
            if int(np.prod(want.shape[2:])) == 1:
                continue   # (one output position: not emulated, see _conv_bits.forward)
            np.testing.assert_array_equal(got, want, err_msg=str((n, c, o, k, size, dilation, padding)))
            checked += 1
    assert checked > 60


def test_unique_consecutive_dim_and_inference_versions():
    same_as_torch("""
v2 = torch.tensor([[1, 1], [1, 1], [2, 3], [1, 1]])
for d in (0, 1, -1, -2):
    E(lambda: print(torch.unique_consecutive(v2, dim=d, return_inverse=True, return_counts=True)))
    E(lambda: print(v2.unique_consecutive(dim=d)))
x = torch.tensor([[float('nan'), 1.], [float('nan'), 1.], [2., 2.]], requires_grad=True)
E(lambda: print(torch.unique_consecutive(x, dim=0, return_counts=True)))
E(lambda: print(torch.unique_consecutive(x, return_counts=True)))
E(lambda: torch.unique_consecutive(torch.tensor(3.), dim=0))
E(lambda: torch.unique_consecutive(torch.tensor(3.), dim=-1))
E(lambda: torch.unique_consecutive(v2, dim=-3))
E(lambda: print(torch.unique_consecutive(torch.tensor(3.), dim=None, return_inverse=True)))
E(lambda: print(torch.unique_consecutive(torch.zeros(0, 2), dim=0, return_inverse=True, return_counts=True)))
E(lambda: torch.unique_consecutive(torch.zeros(2, 0), dim=0, return_inverse=True, return_counts=True))
E(lambda: print(torch.unique_consecutive(torch.tensor([1, 1, 2]), dim=-1, return_inverse=True)))
E(lambda: torch.unique_consecutive(v2, dim=1.5))
E(lambda: print(torch.unique_consecutive(torch.ones(2, 3, 2).cumsum(1), dim=2, return_inverse=True,
                                        return_counts=True)))
# inference tensors used outside inference mode: the versions PyTorch's kernels leave on the results
with torch.inference_mode():
    ts = [torch.tensor([1, 1, 2, 2, 3, 1]), torch.tensor([[1, 1], [1, 1], [2, 3]]), torch.tensor([1., 1., 2.]),
          torch.tensor([])]
for t in ts:
    for kw in ({}, dict(return_inverse=True), dict(return_counts=True), dict(return_inverse=True, return_counts=True),
               dict(dim=0), dict(dim=-1, return_inverse=True, return_counts=True), dict(dim=0, return_counts=True)):
        if t.numel() == 0 and "dim" in kw:
            continue
        r = torch.unique_consecutive(t, **kw)
        print(t.dim(), kw, [x._version for x in (r if isinstance(r, tuple) else (r,))])
""")
