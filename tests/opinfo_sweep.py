"""Sweep PyTorch's OpInfo database (op_db) against minigrad: forward, backward, method and in-place variants.

For every OpInfo whose function minigrad has, PyTorch's own sample inputs (built by PyTorch's developers to cover
each op's cases) are converted to minigrad tensors (same values, strides, requires_grad) and run through both
libraries. Compared: exceptions (type + message), output structure, dtype, shape, strides, values (bit-equal, else
max ulp / relative difference), grad_fn name; then backward with a seeded grad_output over the differentiable
outputs and every input's .grad; the method variant; the in-place variant (result identity, values, _version).

Usage (from /work/main, with the venv python):
    python tests/opinfo_sweep.py                      # every op, float64/float32/int64/bool/complex128
    python tests/opinfo_sweep.py add sub nn.functional.relu --dtype float64
    python tests/opinfo_sweep.py --list               # which ops run, which are skipped and why
One line per difference: ``op<TAB>variant<TAB>dtype<TAB>#sample<TAB>what differs`` (easy to split by op name);
``--show N`` prints the arguments of sample N of the selected op(s).
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import signal
import sys
import types
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
from torch_testing_db import convert, import_db, to_numpy  # noqa: E402

import minigrad  # noqa: E402

DTYPES = ("float64", "float32", "int64", "bool", "complex128")
SAMPLE_TIMEOUT = 30  # seconds for one sample (all variants): a hang is reported, not waited on

# torch module -> (minigrad module name, prefix the C name carries there)
_MODULES = {
    "torch": ("minigrad", ""),
    "torch.functional": ("minigrad", ""),
    "torch._C._linalg": ("minigrad.linalg", "linalg_"),
    "torch._C._special": ("minigrad.special", "special_"),
    "torch._C._fft": ("minigrad.fft", "fft_"),
    "torch._C._nn": ("minigrad.nn.functional", ""),
    "torch.nn.functional": ("minigrad.nn.functional", ""),
    "torch.signal.windows.windows": ("minigrad.signal.windows", ""),
}
# Python modules whose functions are written against `torch`: re-bound to minigrad (lambdas, small wrappers)
_REBIND = ("torch.testing._internal", )


_ALIASES = {"log_sigmoid": "logsigmoid"}  # C name -> Python name where they differ


class Skip(Exception):
    """The op cannot be run on minigrad (reason in the message)."""


def _minigrad_module(torch_module_name):
    """The minigrad module standing for a torch module (torch.nn.functional -> minigrad.nn.functional), or None."""
    if torch_module_name == "torch":
        return minigrad
    if not torch_module_name.startswith("torch."):
        return None
    try:
        return importlib.import_module("minigrad." + torch_module_name[len("torch."):])
    except ImportError:
        return None


def _wrapper_set_seed(op, *args, **kwargs):
    """torch.testing._utils.wrapper_set_seed for minigrad: the op after manual_seed(42) (random ops' samples)."""
    state = minigrad.get_rng_state()
    minigrad.manual_seed(42)
    try:
        return op(*args, **kwargs)
    finally:
        minigrad.set_rng_state(state)


def _map_global(value):
    """A torch object a re-bound function reads (module, function, class, dtype) -> minigrad's, else unchanged."""
    import torch.testing._utils as torch_testing_utils
    if value is torch_testing_utils.wrapper_set_seed:
        return _wrapper_set_seed
    if isinstance(value, types.ModuleType):
        if value.__name__ == "torch" or value.__name__.startswith("torch."):
            mod = _minigrad_module(value.__name__)
            return mod if mod is not None else value
        return value
    if isinstance(value, (torch.dtype, torch.Tensor)):
        return convert(value)
    if callable(value) and getattr(value, "__module__", None) and not isinstance(value, type):
        try:
            return resolve(value)
        except Skip:
            return value
    return value


def resolve(fn):
    """minigrad's callable for torch callable `fn` (by module and name; Python helpers re-bound); else Skip."""
    if fn is None:
        raise Skip("no variant")
    name = getattr(fn, "__name__", None)
    kind = type(fn).__name__
    if kind in ("method_descriptor", "wrapper_descriptor", "getset_descriptor"):
        if hasattr(minigrad.Tensor, name):
            return getattr(minigrad.Tensor, name)
        raise Skip(f"Tensor.{name} missing")
    module = getattr(fn, "__module__", None) or ""
    if kind in ("OpOverloadPacket", "OpOverload"):
        raise Skip(f"aten op overload {fn}")
    if kind == "_JittedFunction":
        raise Skip("jiterator (CUDA only)")
    if module == "torch._tensor":
        if hasattr(minigrad.Tensor, name):
            return getattr(minigrad.Tensor, name)
        raise Skip(f"Tensor.{name} missing")
    if module in _MODULES:
        mod_name, prefix = _MODULES[module]
        mod = importlib.import_module(mod_name)
        short = name[len(prefix):] if prefix and name.startswith(prefix) else name
        for candidate in (short, name, _ALIASES.get(short)):
            if candidate and hasattr(mod, candidate):
                return getattr(mod, candidate)
        if module == "torch._C._nn" and hasattr(minigrad, name):
            return getattr(minigrad, name)
        raise Skip(f"{mod_name}.{short} missing")
    if isinstance(fn, types.FunctionType) and module.startswith(_REBIND):
        return rebind(fn)
    if isinstance(fn, types.FunctionType) and module.startswith("torch."):
        mod = _minigrad_module(module)
        if mod is not None and hasattr(mod, name):
            return getattr(mod, name)
        raise Skip(f"{module}.{name} missing")
    raise Skip(f"unmapped callable {kind} {module}.{name}")


_REBOUND = {}


def _code_names(code):
    """Global names a code object (and the functions/lambdas nested in it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def rebind(f):
    """A copy of Python function `f` whose globals/closure name minigrad where they named torch."""
    if f in _REBOUND:
        return _REBOUND[f]
    if "ops" in _code_names(f.__code__):
        raise Skip(f"{f.__name__} calls torch.ops (aten overloads)")
    g = dict(f.__globals__)
    g["torch"] = minigrad
    for k in _code_names(f.__code__):
        if k in g and k != "torch":
            g[k] = _safe_map(g[k])
    closure = None
    if f.__closure__:
        closure = tuple(types.CellType(_safe_map(c.cell_contents)) if _cell_ok(c) else c for c in f.__closure__)
    out = types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, closure)
    out.__kwdefaults__ = f.__kwdefaults__
    _REBOUND[f] = out
    return out


def _safe_map(value):
    try:
        return _map_global(value)
    except Exception:  # noqa: BLE001 - no minigrad counterpart (e.g. float8 dtypes): keep torch's
        return value


def _cell_ok(cell):
    try:
        _ = cell.cell_contents
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------------------------------------- comparison

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _err(e):
    msg = _ADDRESS.sub("0x", str(e)).replace("minigrad", "torch")
    return f"{type(e).__name__}: {msg}"


def _short(s, n=160):
    s = s.replace("\n", "\\n").replace("\t", " ")
    return s if len(s) <= n else s[:n] + "..."


def _ordered_bits(a):
    """Float array -> integers whose order and distance are the floats' (ulps apart; +0 and -0 both 0)."""
    itype = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    i = a.view(itype).astype(np.int64)
    magnitude = i & np.int64((1 << (8 * a.dtype.itemsize - 1)) - 1)
    return np.where(i < 0, -magnitude, i)


def compare_values(mine, theirs):
    """'' if bit-equal (NaNs where NaNs), else a short description of the largest difference."""
    if mine.shape != theirs.shape:
        return f"values shape {mine.shape} vs {theirs.shape}"
    if mine.size == 0:
        return ""
    # (0-d and non-contiguous arrays cannot be viewed as bytes)
    mine, theirs = np.ascontiguousarray(np.atleast_1d(mine)), np.ascontiguousarray(np.atleast_1d(theirs))
    if np.iscomplexobj(theirs) or np.iscomplexobj(mine):
        for part, f in (("real", np.real), ("imag", np.imag)):
            d = compare_values(np.ascontiguousarray(f(mine)), np.ascontiguousarray(f(theirs)))
            if d:
                return f"{part}: {d}"
        return ""
    if theirs.dtype.kind != "f" or mine.dtype.kind != "f":
        if np.array_equal(mine, theirs):
            return ""
        bad = np.argwhere(mine != theirs)
        i = tuple(bad[0])
        return f"values differ at {len(bad)}/{mine.size} e.g. {i}: {mine[i]!r} vs {theirs[i]!r}"
    if mine.dtype != theirs.dtype:
        mine = mine.astype(theirs.dtype)
    nan_m, nan_t = np.isnan(mine), np.isnan(theirs)
    if not np.array_equal(nan_m, nan_t):
        i = tuple(np.argwhere(nan_m != nan_t)[0])
        return f"nan mismatch ({int((nan_m != nan_t).sum())}) e.g. {i}: {mine[i]!r} vs {theirs[i]!r}"
    ok = nan_t | (mine.view(np.uint8).reshape(mine.shape + (-1,)) == theirs.view(np.uint8).reshape(
        theirs.shape + (-1,))).all(-1)
    if ok.all():
        return ""
    same_value = nan_t | (mine == theirs)
    if same_value.all():
        return "signed zero differs"
    ulps = np.abs(_ordered_bits(np.ascontiguousarray(mine)) - _ordered_bits(np.ascontiguousarray(theirs)))
    ulps = np.where(same_value, 0, ulps)
    i = np.unravel_index(int(np.argmax(ulps)), ulps.shape)
    with np.errstate(all="ignore"):
        rel = np.abs(mine - theirs) / np.maximum(np.abs(theirs), np.finfo(theirs.dtype).tiny)
        rel = np.where(same_value, 0, rel)
    return (f"values: {int((~same_value).sum())}/{mine.size} differ, max {int(ulps[i])} ulp, "
            f"max rel {float(np.max(rel)):.3g} e.g. {tuple(int(x) for x in i)}: {mine[i]!r} vs {theirs[i]!r}")


def _is_tensor(x):
    return isinstance(x, (torch.Tensor, minigrad.Tensor))


# Ops whose result holds uninitialized memory: everything but the values is compared
UNINITIALIZED = {"empty", "empty_like", "new_empty", "new_empty_strided", "empty_permuted", "empty_strided"}
_VALUES = [True]   # (False while comparing an UNINITIALIZED op's results)


def compare_outputs(mine, theirs, path="out", grad_fn=True):
    """Differences between a minigrad result and torch's (recursive over tuples/lists), as a list of strings."""
    diffs = []
    if isinstance(theirs, torch.Tensor):
        if not isinstance(mine, minigrad.Tensor):
            return [f"{path}: type {type(mine).__name__} vs Tensor"]
        if str(mine.dtype) != str(theirs.dtype):
            diffs.append(f"{path}: dtype {mine.dtype} vs {theirs.dtype}")
        if tuple(mine.shape) != tuple(theirs.shape):
            return diffs + [f"{path}: shape {tuple(mine.shape)} vs {tuple(theirs.shape)}"]
        if theirs.layout != torch.strided:
            return diffs + [f"{path}: torch layout {theirs.layout}"]
        if theirs.numel() > 1 and tuple(mine.stride()) != tuple(theirs.stride()):
            diffs.append(f"{path}: stride {tuple(mine.stride())} vs {tuple(theirs.stride())}")
        if mine.requires_grad != theirs.requires_grad:
            diffs.append(f"{path}: requires_grad {mine.requires_grad} vs {theirs.requires_grad}")
        if grad_fn:
            gm = type(mine.grad_fn).__name__ if mine.grad_fn is not None else None
            gt = type(theirs.grad_fn).__name__ if theirs.grad_fn is not None else None
            if gm != gt:
                diffs.append(f"{path}: grad_fn {gm} vs {gt}")
        if theirs.is_conj() != mine.is_conj() if hasattr(mine, "is_conj") else False:
            diffs.append(f"{path}: is_conj {mine.is_conj()} vs {theirs.is_conj()}")
        try:
            d = compare_values(to_numpy(mine), to_numpy(theirs)) if _VALUES[0] else ""
        except Exception as e:  # noqa: BLE001 - reading values failed: that is the difference
            d = f"reading values raised {_err(e)}"
        if d:
            diffs.append(f"{path}: {d}")
        return diffs
    if isinstance(theirs, (tuple, list)):
        if not isinstance(mine, (tuple, list)):
            return [f"{path}: type {type(mine).__name__} vs {type(theirs).__name__}"]
        if type(mine).__name__ != type(theirs).__name__:
            diffs.append(f"{path}: type {type(mine).__name__} vs {type(theirs).__name__}")
        if len(mine) != len(theirs):
            return diffs + [f"{path}: len {len(mine)} vs {len(theirs)}"]
        for i, (m, t) in enumerate(zip(mine, theirs)):
            diffs += compare_outputs(m, t, f"{path}[{i}]", grad_fn)
        return diffs
    if isinstance(theirs, (torch.dtype, torch.Size)):
        if str(mine).replace("minigrad", "torch") != str(theirs):
            diffs.append(f"{path}: {mine} vs {theirs}")
        return diffs
    if isinstance(mine, minigrad.Tensor):
        return [f"{path}: type Tensor vs {type(theirs).__name__}"]
    if type(mine) is not type(theirs):
        return [f"{path}: type {type(mine).__name__} vs {type(theirs).__name__} ({mine!r} vs {theirs!r})"]
    if isinstance(theirs, float):
        d = compare_values(np.array([mine]), np.array([theirs]))
        return [f"{path}: {d}"] if d else []
    if theirs != mine and not (theirs is None and mine is None):
        try:
            if not (np.isnan(theirs) and np.isnan(mine)):
                return [f"{path}: {mine!r} vs {theirs!r}"]
        except TypeError:
            return [f"{path}: {mine!r} vs {theirs!r}"]
    return diffs


def _tensors(x):
    """Tensors inside nested tuples/lists/dicts, in order."""
    if _is_tensor(x):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for v in x for t in _tensors(v)]
    if isinstance(x, dict):
        return [t for v in x.values() for t in _tensors(v)]
    return []


def _differentiable(t):
    return t.requires_grad and (t.dtype.is_floating_point or t.dtype.is_complex)


# ---------------------------------------------------------------------------------------------- running

class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _call(fn, args, kwargs):
    """(result, None) or (None, exception)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs), None
    except _Timeout:
        raise
    except Exception as e:  # noqa: BLE001 - the exception is what we compare
        return None, e


def _seeded(seed):
    torch.manual_seed(seed)
    minigrad.manual_seed(seed)


def compare_call(t_fn, m_fn, t_args, t_kwargs, m_args, m_kwargs, seed=0):
    """Run both; (diffs, torch result, minigrad result, both_ok)."""
    _seeded(seed)
    t_out, t_err = _call(t_fn, t_args, t_kwargs)
    _seeded(seed)
    m_out, m_err = _call(m_fn, m_args, m_kwargs)
    if t_err is not None or m_err is not None:
        if t_err is None:
            return [f"minigrad raised {_short(_err(m_err))}"], t_out, m_out, False
        if m_err is None:
            return [f"no error; torch raised {_short(_err(t_err))}"], t_out, m_out, False
        if _err(t_err) != _err(m_err):
            return [f"error {_short(_err(m_err))} vs {_short(_err(t_err))}"], t_out, m_out, False
        return [], t_out, m_out, False
    return compare_outputs(m_out, t_out), t_out, m_out, True


def compare_backward(t_out, m_out, t_proc, m_proc, t_leaves, m_leaves, seed):
    """Backward over the differentiable outputs with a seeded grad_output; compare every leaf's .grad."""
    try:
        t_o = t_proc(t_out) if t_proc is not None else t_out
    except Exception as e:  # noqa: BLE001
        return [f"torch output_process_fn_grad raised {_short(_err(e))}"]
    try:
        m_o = m_proc(m_out) if m_proc is not None else m_out
    except Exception as e:  # noqa: BLE001
        return [f"output_process_fn_grad raised {_short(_err(e))}"]
    t_outs = [t for t in _tensors(t_o) if _differentiable(t)]
    m_all = _tensors(m_o)
    if len(m_all) != len(_tensors(t_o)):
        return [f"backward: {len(m_all)} output tensors vs {len(_tensors(t_o))}"]
    m_outs = [m for m, t in zip(m_all, _tensors(t_o)) if _differentiable(t)]
    if not t_outs:
        return []
    gen = torch.Generator().manual_seed(seed)
    t_grads = [torch.randn(t.shape, dtype=t.dtype, generator=gen) for t in t_outs]
    m_grads = [convert(g) for g in t_grads]
    for t in t_leaves:  # samples may share a leaf (e.g. one weight tensor): start from no .grad, as minigrad's copy
        t.grad = None
    t_e = m_e = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            torch.autograd.backward(t_outs, t_grads)
        except Exception as e:  # noqa: BLE001
            t_e = e
        try:
            minigrad.autograd.backward(m_outs, m_grads)
        except _Timeout:
            raise
        except Exception as e:  # noqa: BLE001
            m_e = e
    if t_e is not None or m_e is not None:
        if t_e is None:
            return [f"backward: minigrad raised {_short(_err(m_e))}"]
        if m_e is None:
            return [f"backward: no error; torch raised {_short(_err(t_e))}"]
        if _err(t_e) != _err(m_e):
            return [f"backward: error {_short(_err(m_e))} vs {_short(_err(t_e))}"]
        return []
    diffs = []
    for i, (m, t) in enumerate(zip(m_leaves, t_leaves)):
        tg, mg = t.grad, m.grad
        if tg is None and mg is None:
            continue
        if (tg is None) != (mg is None):
            diffs.append(f"grad[{i}]: {'None' if mg is None else 'tensor'} vs {'None' if tg is None else 'tensor'}")
            continue
        diffs += compare_outputs(mg, tg, f"grad[{i}]", grad_fn=False)
    return diffs


def _leaves(args):
    return [t for t in _tensors(args) if t.requires_grad and t.is_leaf]


def _fresh(x):
    """A copy of a torch sample argument with the same strides, no autograd history (for in-place variants)."""
    if isinstance(x, torch.Tensor):
        if x.numel() > 1 and any(st == 0 and n > 1 for st, n in zip(x.stride(), x.shape)):
            # expanded (stride 0): a copy into overlapping memory is refused; clone the storage instead
            out = torch.empty(0, dtype=x.dtype)
            out.set_(x.detach().untyped_storage().clone(), x.storage_offset(), x.shape, x.stride())
            return out
        out = torch.empty_strided(x.shape, x.stride(), dtype=x.dtype) if x.numel() else torch.empty(
            x.shape, dtype=x.dtype)
        with torch.no_grad():
            out.copy_(x.detach())
        return out
    if isinstance(x, tuple):
        return tuple(_fresh(v) for v in x)
    if isinstance(x, list):
        return [_fresh(v) for v in x]
    if isinstance(x, dict):
        return {k: _fresh(v) for k, v in x.items()}
    return x


def run_sample(op, fns, sample, dtype_name, idx, report, do_grad):
    """All variants of one sample; calls report(variant, what) for each difference."""
    seed = 1000 + idx
    t_args = (sample.input, *sample.args)
    t_kwargs = dict(sample.kwargs)
    t_ref = _fresh((t_args, t_kwargs))  # pristine copy for the in-place variant (the op may not be pure)
    # forward + backward of the function variant
    if "op" in fns:
        m_args, m_kwargs = convert(t_args), convert(t_kwargs)
        t_leaves, m_leaves = _leaves((t_args, t_kwargs)), _leaves((m_args, m_kwargs))
        diffs, t_out, m_out, ok = compare_call(op.op, fns["op"], t_args, t_kwargs, m_args, m_kwargs, seed)
        for d in diffs:
            report("op", d)
        if ok and do_grad:
            proc = sample.output_process_fn_grad
            m_proc = None
            if proc is not None:
                try:
                    m_proc = rebind(proc) if isinstance(proc, types.FunctionType) else proc
                except Exception:  # noqa: BLE001
                    m_proc = proc
            for d in compare_backward(t_out, m_out, proc, m_proc, t_leaves, m_leaves, seed):
                report("backward", d)
    if not isinstance(t_args[0], torch.Tensor):  # a scalar `self` (torch.add(2, t)): Tensor.add(2, t) is only
        fns = {k: v for k, v in fns.items() if k == "op"}  # refused by CPython's descriptor check, not compared
    if "method" in fns:
        t_a, t_k = _fresh((t_ref[0], t_ref[1]))
        m_a, m_k = convert(t_a), convert(t_k)
        diffs, *_ = compare_call(op.method_variant, fns["method"], t_a, t_k, m_a, m_k, seed)
        for d in diffs:
            report("method", d)
    if "inplace" in fns and not (isinstance(t_args[0], torch.Tensor)
                                 and torch._debug_has_internal_overlap(t_args[0]) == 2):
        # (self overlapping itself without a stride 0, e.g. as_strided((5, 6), (1, 1)): torch cannot tell and
        # writes in its traversal order, so the in-place result is the kernel's, not the op's: not compared)
        t_a, t_k = _fresh((t_ref[0], t_ref[1]))
        m_a, m_k = convert(t_a), convert(t_k)
        t_v0 = t_a[0]._version if isinstance(t_a[0], torch.Tensor) else None
        m_v0 = m_a[0]._version if isinstance(m_a[0], minigrad.Tensor) else None
        diffs, t_out, m_out, ok = compare_call(op.inplace_variant, fns["inplace"], t_a, t_k, m_a, m_k, seed)
        for d in diffs:
            report("inplace", d)
        if ok and isinstance(t_a[0], torch.Tensor):
            if (t_out is t_a[0]) != (m_out is m_a[0]):
                report("inplace", f"returns self: {m_out is m_a[0]} vs {t_out is t_a[0]}")
            for d in compare_outputs(m_a[0], t_a[0], "self", grad_fn=False):
                report("inplace", d)
            dv_t, dv_m = t_a[0]._version - t_v0, m_a[0]._version - m_v0
            if dv_t != dv_m:
                report("inplace", f"_version +{dv_m} vs +{dv_t}")


def op_label(op):
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def resolve_variants(op):
    """{'op'|'method'|'inplace': minigrad callable} and {variant: skip reason}."""
    fns, skipped = {}, {}
    for key, fn in (("op", op.op), ("method", op.method_variant), ("inplace", op.inplace_variant)):
        if fn is None:
            continue
        try:
            fns[key] = resolve(fn)
        except Skip as e:
            skipped[key] = str(e)
        except Exception as e:  # noqa: BLE001
            skipped[key] = f"resolving raised {_err(e)}"
    return fns, skipped


def sweep_op(op, dtypes, out, max_samples=None, only_sample=None, show=False, inputs="sample", max_numel=None):
    """Run one OpInfo over the dtypes; write difference lines to `out`; return (samples run, differences).

    inputs='reference': op.reference_inputs (PyTorch's larger sets: extremal values, broadcasting, promotion)."""
    label = op_label(op)
    fns, skipped = resolve_variants(op)
    if not fns:
        return 0, 0
    supported = {str(d).removeprefix("torch.") for d in op.supported_dtypes("cpu")}
    n_run = n_diff = 0
    for dtype_name in dtypes:
        if dtype_name not in supported:
            continue
        dtype = getattr(torch, dtype_name)
        do_grad = op.supports_autograd and (dtype.is_floating_point or dtype.is_complex)
        torch.manual_seed(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if inputs == "reference":
                    samples = map(_with_grad if do_grad else (lambda s: s),
                                  op.reference_inputs("cpu", dtype, requires_grad=False))
                else:
                    samples = op.sample_inputs("cpu", dtype, requires_grad=do_grad)
                if max_samples is None:
                    samples = list(samples)
        except Exception as e:  # noqa: BLE001
            print(f"{label}\t-\t{dtype_name}\t-\tsample_inputs raised {_short(_err(e))}", file=out)
            continue
        for idx, sample in _enumerate_safely(samples, max_samples):
            if only_sample is not None and idx != only_sample:
                continue
            if max_numel is not None and any(t.numel() > max_numel for t in _tensors(
                    (sample.input, sample.args, sample.kwargs))):
                continue
            if show:
                print(f"{label} {dtype_name} #{idx}: {sample.summary() if hasattr(sample, 'summary') else sample}",
                      file=out)

            def report(variant, what, _idx=idx, dtype_name=dtype_name):
                nonlocal n_diff
                n_diff += 1
                print(f"{label}\t{variant}\t{dtype_name}\t#{_idx}\t{what}", file=out, flush=True)

            signal.signal(signal.SIGALRM, _alarm)
            signal.alarm(SAMPLE_TIMEOUT)
            _VALUES[0] = op.name not in UNINITIALIZED
            try:
                run_sample(op, fns, sample, dtype_name, idx, report, do_grad)
            except _Timeout:
                report("-", f"timeout after {SAMPLE_TIMEOUT}s")
            except Exception as e:  # noqa: BLE001 - a crash of the sweep itself is a finding too
                report("-", f"sweep crashed: {_short(_err(e))}")
            finally:
                signal.alarm(0)
            n_run += 1
    return n_run, n_diff


def _with_grad(sample):
    """A reference sample with its floating/complex tensors made leaves requiring grad. (PyTorch runs
    reference_inputs forward only; built with requires_grad=True some builders fail on their integer tensors
    and others return views of a leaf, which minigrad's converted copy could not mirror.)"""
    for t in _tensors((sample.input, sample.args, sample.kwargs)):
        if (t.dtype.is_floating_point or t.dtype.is_complex) and t.is_leaf:
            t.requires_grad_(True)
    return sample


def _enumerate_safely(samples, limit):
    """(index, sample) pairs, at most `limit` of them (samples may be a generator)."""
    for idx, sample in enumerate(samples):
        if limit is not None and idx >= limit:
            return
        yield idx, sample


def op_by_label(label):
    """The OpInfo named `label` (name[.variant_test_name])."""
    if not _BY_LABEL:
        _BY_LABEL.update((op_label(op), op) for op in import_db("op_db"))
    return _BY_LABEL[label]


_BY_LABEL = {}


def sweep_lines(label, dtype_name, max_samples=None, inputs="sample", max_numel=None):
    """(samples run, difference lines) of one op and dtype: what the CLI prints, as a list (for tests)."""
    import io
    buf = io.StringIO()
    n_run, _ = sweep_op(op_by_label(label), [dtype_name], buf, max_samples, inputs=inputs, max_numel=max_numel)
    return n_run, buf.getvalue().splitlines()


def select_ops(prefixes, exact=False):
    ops = import_db("op_db")
    if not prefixes:
        return list(ops)
    if exact:
        return [op for op in ops if op_label(op) in prefixes or op.name in prefixes]
    return [op for op in ops if any(op_label(op).startswith(p) for p in prefixes)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="op name prefixes (OpInfo name[.variant_test_name])")
    p.add_argument("--exact", action="store_true", help="names are exact, not prefixes")
    p.add_argument("--dtype", action="append", help=f"dtype(s) to run (default: {', '.join(DTYPES)})")
    p.add_argument("--max-samples", type=int, default=None)
    p.add_argument("--inputs", choices=("sample", "reference"), default="sample",
                   help="sample_inputs (default) or reference_inputs (only ops that define them)")
    p.add_argument("--sample", type=int, default=None, help="run only this sample index")
    p.add_argument("--max-numel", type=int, default=None, help="skip samples with a larger tensor (faster)")
    p.add_argument("--show", action="store_true", help="print each sample's arguments")
    p.add_argument("--chunk", default=None, help="I/N: run only the I-th of N slices of the selected ops (1-based)")
    p.add_argument("--list", action="store_true", help="list ops: runnable variants or why skipped")
    a = p.parse_args(argv)
    ops = select_ops(a.names, a.exact)
    if a.inputs == "reference":  # (op.reference_inputs falls back to sample_inputs for the others)
        ops = [op for op in ops if op.reference_inputs_func is not None]
    if a.chunk:
        i, n = (int(x) for x in a.chunk.split("/"))
        ops = ops[i - 1::n]
    if a.list:
        for op in ops:
            fns, skipped = resolve_variants(op)
            print(f"{op_label(op)}\trun={','.join(fns) or '-'}\t" + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
        return 0
    dtypes = a.dtype or list(DTYPES)
    total_run = total_diff = 0
    for op in ops:
        n_run, n_diff = sweep_op(op, dtypes, sys.stdout, a.max_samples, a.sample, a.show, inputs=a.inputs,
                                 max_numel=a.max_numel)
        print(f"# {op_label(op)}: {n_run} samples, {n_diff} differences", file=sys.stderr, flush=True)
        total_run += n_run
        total_diff += n_diff
    print(f"# {len(ops)} ops, {total_run} samples, {total_diff} differences", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
