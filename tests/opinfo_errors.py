"""Sweep of PyTorch's OpInfo `error_inputs`: the calls PyTorch's developers check must fail, run on minigrad.

    python tests/opinfo_errors.py [NAME_PREFIX ...] [--no-dtypes] [--verbose]

For every OpInfo of torch's `op_db` whose function minigrad has, each ErrorInput's call runs in torch and in
minigrad (arguments converted by tests/torch_testing_db.py) and the outcomes are compared: exception type and
message must be equal. A call minigrad accepts while torch raises is the worst case (a silent wrong result)
and is listed first. Then the op's samples run for the dtypes torch does NOT support for the op
(`op.dtypes` vs the twelve dense dtypes): torch raises "... not implemented for 'Bool'" style errors, and
minigrad must raise the same instead of computing something.

Ops whose function minigrad lacks are listed as skipped. Run by hand, in chunks (it is slow: ~700 ops).
"""
from __future__ import annotations

import os
import sys
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
from torch_testing_db import import_db as _import_db  # noqa: E402
from torch_testing_db import to_minigrad_tensor  # noqa: E402

import minigrad  # noqa: E402


def import_db(name: str):
    """torch_testing_db.import_db, with OpInfo's per-sample look-up of the running unittest test made free.

    op.sample_inputs / op.error_inputs call extract_test_fn(), which walks inspect.stack() (reading the source
    of every frame) for a unittest.TestCase in the stack; there is none here (pytest functions, a script), so
    it always returns None, but under pytest's deep stacks the walk costs ~0.1 s per call."""
    db = _import_db(name)
    from torch.testing._internal.opinfo import core
    core.extract_test_fn = lambda: None
    return db


ALL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
              "complex64", "complex128")
SAMPLES_PER_DTYPE = 3      # unsupported-dtype samples tried per (op, dtype): the first few are enough

_NAMESPACES = None


def _namespaces():
    """Pairs (torch namespace, minigrad namespace) in which a torch callable is looked up by identity."""
    pairs = [(torch, minigrad), (torch.Tensor, minigrad.Tensor)]
    for sub in ("linalg", "special", "fft", "nn.functional", "signal.windows", "functional", "masked",
                "_C._nn", "_C._linalg", "_C._special", "_C._fft"):
        t, m = torch, minigrad
        for part in sub.split("."):
            t = getattr(t, part, None)
            m = getattr(m, part, None) if m is not None else None
        if t is not None and m is not None:
            pairs.append((t, m))
    return pairs


def _lookup(f):
    """minigrad's function standing for torch callable `f` (same name in the matching namespace), or None."""
    global _NAMESPACES
    if _NAMESPACES is None:
        _NAMESPACES = {}
        for t_ns, m_ns in reversed(_namespaces()):     # torch's top level wins over its aliases
            for name in dir(t_ns):
                try:
                    obj = getattr(t_ns, name)
                except Exception:
                    continue
                if callable(obj) and hasattr(m_ns, name):
                    _NAMESPACES[id(obj)] = getattr(m_ns, name)
    return _NAMESPACES.get(id(f))


def _names(code):
    """The global and attribute names a code object (and the lambdas inside it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def resolve(f):
    """minigrad's version of torch callable `f`: by identity in torch's namespaces, or a lambda/def of the test
    database re-bound to see minigrad as `torch` (and `F` as minigrad.nn.functional). None if minigrad lacks it."""
    if f is None:
        return None
    found = _lookup(f)
    if found is not None:
        return found
    if isinstance(f, types.FunctionType) and f.__module__.startswith("torch.testing"):
        # (a torch function the code names that minigrad lacks: torch.svd_lowrank, torch.ops ...)
        # ("functional": torch.nn.functional read through torch.nn, not torch.functional)
        if any(n not in ("torch", "functional") and hasattr(torch, n) and not hasattr(minigrad, n)
               for n in _names(f.__code__)):
            return None
        cells = []
        for cell in f.__closure__ or ():   # (wrapper_set_seed(op, ...) lambdas hold torch's function in a cell)
            value = cell.cell_contents
            if callable(value) and "torch" in (getattr(value, "__module__", None) or "torch").split(".")[0]:
                value = resolve(value)
                if value is None:
                    return None
            cells.append(types.CellType(value))
        glb = {**f.__globals__, "torch": minigrad, "F": minigrad.nn.functional}
        return types.FunctionType(f.__code__, glb, f.__name__, f.__defaults__, tuple(cells) or None)
    return None


def _to_minigrad(t):
    """to_minigrad_tensor of a copy of `t` with its sizes, strides and storage offset (converting `t` itself
    would call its .numpy(), which makes its storage non-resizable: torch.cat(..., out=x) would then fail for
    that reason). A layout whose elements overlap (an expanded out= tensor, stride 0) cannot be filled by a
    copy: the same strides over a minigrad copy of the storage then."""
    if t.is_conj() or t.is_neg() or t.dtype == torch.bfloat16:
        return to_minigrad_tensor(t)       # (read through a resolved copy already)
    size = t.storage_offset() + 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride())) if t.numel() else 0
    storage = torch.as_strided(t.detach(), (size,), (1,), 0).clone() if size else t.detach().clone()
    if not size or all(s or n == 1 for n, s in zip(t.shape, t.stride())):
        copy = storage.as_strided(tuple(t.shape), t.stride(), t.storage_offset()) if size else storage
        return to_minigrad_tensor(copy.requires_grad_(t.requires_grad))
    out = to_minigrad_tensor(storage).as_strided(tuple(t.shape), t.stride(), t.storage_offset())
    return out.requires_grad_(t.requires_grad)


def _tensors_in(value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _tensors_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors_in(v)


def _shared_storages(args, kwargs) -> dict:
    """{storage key: None} for the storages two different tensors of the call view (torch.cat((y, z),
    out=z[:2])): their minigrad tensors are made views of one minigrad copy of the storage (filled in later)."""
    seen, shared = {}, {}
    for t in _tensors_in((args, kwargs)):
        if t.numel() == 0 or t.is_conj() or t.is_neg() or t.dtype == torch.bfloat16:
            continue
        key = (t.untyped_storage().data_ptr(), t.dtype)
        if seen.setdefault(key, id(t)) != id(t):
            shared[key] = None
    return shared


def convert(value, memo):
    """torch_testing_db.convert, keeping aliasing: the same torch tensor twice in a call (torch.cat([x, y],
    out=x)) becomes the same minigrad tensor twice, and views of one storage views of one minigrad storage
    (memo["storages"] from _shared_storages)."""
    if isinstance(value, torch.Tensor):
        if id(value) not in memo:
            key = (value.untyped_storage().data_ptr(), value.dtype)
            storages = memo.get("storages", {})
            if key in storages and value.numel():
                if storages[key] is None:
                    whole = torch.empty(0, dtype=value.dtype).set_(value.untyped_storage())
                    storages[key] = to_minigrad_tensor(whole.clone())
                view = storages[key].as_strided(tuple(value.shape), value.stride(), value.storage_offset())
                memo[id(value)] = view.requires_grad_(value.requires_grad) if value.requires_grad else view
            else:
                memo[id(value)] = _to_minigrad(value)
        return memo[id(value)]
    if isinstance(value, (tuple, list)):
        return type(value)(convert(v, memo) for v in value)
    if isinstance(value, dict):
        return {k: convert(v, memo) for k, v in value.items()}
    return _convert_leaf(value)


def _convert_leaf(value):
    import torch_testing_db
    if isinstance(value, torch.layout):   # (torch.strided: not converted by torch_testing_db.convert)
        return getattr(minigrad, str(value).removeprefix("torch."))
    if isinstance(value, torch.nn.Module) and not list(value.parameters()) \
            and hasattr(minigrad.nn, type(value).__name__):   # (distance_function=nn.PairwiseDistance())
        module = getattr(minigrad.nn, type(value).__name__)()
        for k, v in vars(value).items():
            if not k.startswith("_") and isinstance(v, (bool, int, float, str, type(None))):
                setattr(module, k, v)
        return module
    if callable(value) and not isinstance(value, type) and resolve(value) is not None:
        return resolve(value)   # (a torch function as an argument: distance_function=F.pairwise_distance)
    return torch_testing_db.convert(value)


def outcome(fn, sample, convert_args=False):
    """('ok', result) or ('raise', (type name, message)) of fn(sample.input, *sample.args, **sample.kwargs)."""
    try:
        args = (sample.input, *sample.args)
        kwargs = sample.kwargs
        if convert_args:
            memo = {"storages": _shared_storages(args, kwargs)}
            args, kwargs = convert(args, memo), convert(kwargs, memo)
    except Exception as e:  # noqa: BLE001 (a conversion failure is a harness problem, reported as such)
        return "convert", (type(e).__name__, str(e))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return "raise", (type(e).__name__, str(e))
    return "ok", result


def compare(t_out, m_out):
    """None when the outcomes agree (both succeed, or both raise the same type and message), else the kind:
    'MISSING' (torch raises, minigrad does not), 'EXTRA', 'TYPE', 'MSG', 'CONVERT'."""
    tk, tv = t_out
    mk, mv = m_out
    if mk == "convert":
        return "CONVERT"
    if tk == "ok" and mk == "ok":
        return None
    if tk == "raise" and mk == "ok":
        return "MISSING"
    if tk == "ok":
        return "EXTRA"
    if tv[0] != mv[0]:
        return "TYPE"
    if tv[1] != mv[1]:
        return "MSG"
    return None


def variants(op):
    """(label, torch callable, minigrad callable or None) for the function, method and in-place forms."""
    out = []
    for label, f in (("fn", op.op), ("method", op.method_variant), ("inplace", op.inplace_variant)):
        if f is not None:
            out.append((label, f, resolve(f)))
    return out


def error_cases(op):
    """The op's ErrorInputs (PyTorch seeds its generator before building them)."""
    if op.error_inputs_func is None:
        return []
    torch.manual_seed(0)
    return list(op.error_inputs("cpu"))


def sweep_errors(op, report):
    fn_t, fn_m = op.op, resolve(op.op)
    if fn_m is None:
        return False
    try:
        cases = error_cases(op)
    except Exception as e:  # noqa: BLE001
        report.append(("GEN", op_label(op), -1, f"error_inputs failed: {type(e).__name__}: {e}"))
        return True
    for i, ei in enumerate(cases):
        s = ei.sample_input
        m_out = outcome(fn_m, s, convert_args=True)
        t_out = outcome(fn_t, s)
        kind = compare(t_out, m_out)
        if kind is not None:
            report.append((kind, op_label(op), i, describe(t_out, m_out)))
        else:   # (OK: the same error; BOTH-RUN: neither raises, the error input no longer fails in torch either)
            report.append(("OK" if t_out[0] == "raise" else "BOTH-RUN", op_label(op), i, ""))
    return True


def sweep_dtypes(op, report):
    fn_t, fn_m = op.op, resolve(op.op)
    if fn_m is None:
        return
    supported = {str(d).removeprefix("torch.") for d in op.dtypes}
    for name in ALL_DTYPES:
        if name in supported:
            continue
        dt = getattr(torch, name)
        try:
            torch.manual_seed(0)
            samples = []
            for s in op.sample_inputs("cpu", dt):
                samples.append(s)
                if len(samples) >= SAMPLES_PER_DTYPE:
                    break
        except Exception:  # noqa: BLE001 (torch's sample function cannot build this dtype: nothing to run)
            continue
        for i, s in enumerate(samples):
            t_out = outcome(fn_t, s)
            if t_out[0] != "raise":
                continue        # torch computes it after all (its dtype list is conservative): O1's business
            m_out = outcome(fn_m, s, convert_args=True)
            kind = compare(t_out, m_out)
            label = f"{op_label(op)}[{name}]"
            if kind is not None:
                report.append(("D-" + kind, label, i, describe(t_out, m_out)))
            else:
                report.append(("D-OK", label, i, ""))


def op_label(op):
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def describe(t_out, m_out):
    def one(o):
        k, v = o
        if k == "ok":
            r = v
            if isinstance(r, (torch.Tensor, minigrad.Tensor)):
                return f"returned Tensor{tuple(r.shape)} {r.dtype}"
            return f"returned {type(r).__name__}"
        return f"{v[0]}: {v[1][:300]}"
    return f"\n      torch:    {one(t_out)}\n      minigrad: {one(m_out)}"


ORDER = ["MISSING", "D-MISSING", "CONVERT", "D-CONVERT", "TYPE", "D-TYPE", "MSG", "D-MSG", "EXTRA", "D-EXTRA",
         "GEN"]


def main(argv):
    verbose = "--verbose" in argv   # (--progress: each op's name on stderr as it starts)
    dtypes = "--no-dtypes" not in argv
    prefixes = [a for a in argv if not a.startswith("--")]
    db = import_db("op_db")
    report, skipped = [], []
    for op in db:
        if prefixes and not any(op.name.startswith(p) for p in prefixes):
            continue
        if resolve(op.op) is None:
            skipped.append(op_label(op))
            continue
        if "--progress" in argv:
            print(op_label(op), file=sys.stderr, flush=True)
        sweep_errors(op, report)
        if dtypes:
            sweep_dtypes(op, report)
    counts = {}
    for kind, *_ in report:
        counts[kind] = counts.get(kind, 0) + 1
    for kind in ORDER:
        for k, label, i, text in report:
            if k == kind:
                print(f"{kind:9s} {label} #{i}{text}")
    if verbose:
        for k, label, i, _ in report:
            if k in ("OK", "D-OK"):
                print(f"{k:9s} {label} #{i}")
    print("skipped (not in minigrad):", " ".join(skipped))
    print("counts:", " ".join(f"{k}={v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
