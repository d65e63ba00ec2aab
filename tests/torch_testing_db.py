"""PyTorch's own test databases (OpInfo, ModuleInfo, OptimizerInfo, autograd.Function db) for parity sweeps.

`torch.testing._internal` ships with the torch wheel but imports `expecttest`, a test-only package we do not
install: a stub stands in for it (only its `TestCase` name is read at import time). Sample arguments are built by
torch's own sample functions, then converted to minigrad tensors with the same values, dtype, strides and
requires_grad, so both libraries run the same call.
"""
from __future__ import annotations

import sys
import types
import unittest

import numpy as np


def _stub_expecttest():
    """Put a stand-in `expecttest` module in sys.modules (torch's test utilities import it)."""
    if "expecttest" not in sys.modules:
        stub = types.ModuleType("expecttest")
        stub.TestCase = unittest.TestCase
        sys.modules["expecttest"] = stub


def import_db(name: str):
    """One of torch's test databases: 'op_db', 'module_db', 'optim_db' or 'autograd_function_db'."""
    import torch.backends

    _stub_expecttest()
    try:
        return _import_db(name)
    finally:
        # torch's common_utils calls torch.backends.disable_global_flags() at import: later programs in the same
        # process setting `torch.backends.cudnn.deterministic = True` would raise. Undo it.
        torch.backends.flags_frozen.__globals__["__allow_nonbracketed_mutation_flag"] = True


def _import_db(name: str):
    if name == "op_db":
        from torch.testing._internal.common_methods_invocations import op_db
        return op_db
    if name == "module_db":
        from torch.testing._internal.common_modules import module_db
        return module_db
    if name == "optim_db":
        from torch.testing._internal.common_optimizers import optim_db
        return optim_db
    if name == "autograd_function_db":
        from torch.testing._internal.autograd_function_db import autograd_function_db
        return autograd_function_db
    raise ValueError(f"unknown database {name!r}")


def _contiguous_strides(shape):
    """torch's strides of a new contiguous tensor of this shape (a size-0 or size-1 dim counts as 1)."""
    strides, step = [], 1
    for n in reversed(tuple(shape)):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def to_minigrad_tensor(t, mg=None):
    """A minigrad tensor with the values, dtype, strides, storage offset and requires_grad of torch tensor `t`."""
    import torch

    if mg is None:
        import minigrad as mg
    dtype = getattr(mg, str(t.dtype).removeprefix("torch."))
    base = t.detach()
    if base.dtype in (torch.bfloat16,):
        # NumPy has no bfloat16: go through float32 (exact) and round back (exact again).
        storage = np.array(base.float().numpy(), copy=True)
    else:
        storage = np.array(base.resolve_conj().resolve_neg().numpy(), copy=True)
    if t.numel() > 1 and any(st == 0 and n > 1 for st, n in zip(t.stride(), t.shape)):
        # An expanded tensor (stride 0, as an attention mask broadcast over a batch): one copy of the values,
        # expanded the same way (a copy into overlapping memory would be refused).
        dims = [d for d, (st, n) in enumerate(zip(t.stride(), t.shape)) if st == 0 and n > 1]
        one = t.detach()
        for d in dims:
            one = one.narrow(d, 0, 1)
        out = to_minigrad_tensor(one, mg).expand(tuple(t.shape)).detach()
        if t.requires_grad:
            out.requires_grad_(True)
        return out
    if t.dim() > 0 and (t.numel() == 0 or t.stride() != _contiguous_strides(t.shape)):
        # Rebuild the layout: same sizes and strides over a fresh buffer holding the values (also of tensors
        # torch calls contiguous: qr's Q of one column has strides (1, 3), of no column (1, 3) too; NumPy's
        # copy has (1, 1) and (0, 0) -- an empty one always (0, ...) -- and a gradient's layout can follow the
        # input's, e.g. mm's backward).
        out = mg.empty_strided(tuple(t.shape), t.stride(), dtype=dtype)
        if t.numel():
            with mg.no_grad():
                out.copy_(mg.from_numpy(storage).to(dtype))
    else:
        out = mg.from_numpy(storage).to(dtype)
        if out.dtype == dtype and out.dtype != mg.bfloat16 and np.shares_memory(storage, out.numpy()):
            out = out.clone()
    if t.requires_grad:
        out.requires_grad_(True)
    return out


def convert(value, mg=None):
    """Convert torch objects inside `value` (tensors, dtypes, lists/tuples/dicts of them) to minigrad's."""
    import torch

    if mg is None:
        import minigrad as mg
    if isinstance(value, torch.Tensor):
        return to_minigrad_tensor(value, mg)
    if isinstance(value, torch.dtype):
        return getattr(mg, str(value).removeprefix("torch."))
    if isinstance(value, torch.memory_format):
        return getattr(mg, str(value).removeprefix("torch."))
    if isinstance(value, torch.Size):
        return mg.Size(value)
    if isinstance(value, torch.device):
        return mg.device(str(value))
    if isinstance(value, tuple):
        return tuple(convert(v, mg) for v in value)
    if isinstance(value, list):
        return [convert(v, mg) for v in value]
    if isinstance(value, dict):
        return {k: convert(v, mg) for k, v in value.items()}
    return value


def to_numpy(t):
    """Values of a torch or minigrad tensor as a NumPy array of its own dtype (bfloat16 as float32)."""
    t = t.detach()
    if str(t.dtype).endswith("bfloat16"):
        t = t.float()
    return np.array(t.resolve_conj().numpy(), copy=True)
