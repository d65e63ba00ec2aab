"""PyTorch parity helper: compare minigrad against real PyTorch when torch is importable.

Tests that use ``torch_or_skip()`` are skipped with a visible reason when PyTorch is not installed
(CI installs the pinned CPU build, so they run there). minigrad itself never imports torch.
"""
from __future__ import annotations

import contextlib
import re
import warnings

import numpy as np
import pytest

try:
    import torch as _torch
except ImportError:  # pragma: no cover - depends on the machine
    _torch = None

HAVE_TORCH = _torch is not None
requires_torch = pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch not installed: parity test skipped")


def torch_or_skip():
    """The torch module, or skip the calling test with a reason."""
    if _torch is None:
        pytest.skip("PyTorch not installed: parity test skipped")
    return _torch


def _intel_cpu() -> bool:
    try:
        with open("/proc/cpuinfo") as f:
            return "GenuineIntel" in f.read()
    except OSError:
        return False


# The gemm bits these tests check are those of MKL's kernels on an AMD CPU (Zen), where the emulation was written;
# on an Intel CPU, even capped to AVX2 (conftest.py), MKL's small and batched products sum in another order.
INTEL_CPU = _intel_cpu()


def skip_on_intel_gemm_bits():
    """Skip the calling test on an Intel CPU: it checks last bits of MKL products that only its AMD kernels give."""
    if INTEL_CPU:
        pytest.skip("checks the last bits of MKL's products on an AMD CPU; MKL's Intel kernels round otherwise")


def to_numpy(t) -> np.ndarray:
    """Values of a minigrad or torch tensor as float64/complex128 NumPy."""
    if t is None:
        return None
    arr = t.detach().cpu().resolve_conj().numpy() if hasattr(t, "cpu") else np.asarray(t)
    return np.asarray(arr, dtype=np.complex128 if np.iscomplexobj(arr) else np.float64)


def assert_close(a, b, rtol=1e-5, atol=1e-6) -> None:
    """Assert two tensors (minigrad or torch) hold the same values."""
    np.testing.assert_allclose(to_numpy(a), to_numpy(b), rtol=rtol, atol=atol)


_SUBMODULES = (
    "autograd", "autograd.functional", "autograd.graph", "autograd.forward_ad", "autograd.profiler",
    "autograd.gradcheck", "autograd.anomaly_mode", "autograd.grad_mode", "autograd.function", "autograd.variable",
    "nn", "nn.functional", "nn.init", "nn.parameter", "nn.modules", "nn.utils", "nn.utils.rnn", "optim",
    "optim.lr_scheduler", "optim.swa_utils", "nn.utils.parametrize", "nn.utils.parametrizations", "nn.utils.prune",
    "nn.utils.stateless", "nn.utils.fusion", "nn.utils.clip_grad", "nn.utils.convert_parameters", "nn.parallel",
    # torch.nn.modules' files: a program importing from one must get minigrad's, not torch's, in the minigrad run
    "nn.modules.module", "nn.modules.activation", "nn.modules.batchnorm", "nn.modules.container", "nn.modules.conv",
    "nn.modules.distance", "nn.modules.dropout", "nn.modules.flatten", "nn.modules.fold", "nn.modules.instancenorm",
    "nn.modules.linear", "nn.modules.loss", "nn.modules.normalization", "nn.modules.padding",
    "nn.modules.pixelshuffle", "nn.modules.pooling", "nn.modules.rnn", "nn.modules.sparse",
    "nn.modules.transformer", "nn.modules.upsampling", "nn.modules.adaptive", "nn.modules.channelshuffle",
    "nn.modules.lazy", "nn.modules.utils", "utils.hooks",
    "utils.data.dataset", "utils.data.sampler", "utils.data.dataloader", "utils.data.distributed", "random",
    "distributions.utils",
    "special", "utils", "utils.data", "utils.checkpoint", "utils.benchmark", "cuda", "backends", "backends.cudnn",
    "backends.mps",
    "accelerator", "distributions", "distributions.transforms", "distributions.constraints", "distributions.kl",
    "func", "fft", "testing", "compiler", "profiler", "version", "overrides", "_C",
    "amp", "amp.autocast_mode", "amp.grad_scaler", "cpu", "cpu.amp", "__future__",
)


def run_both(program: str) -> tuple[str, str]:
    """Run ``program`` (which does ``import torch``) once with minigrad as torch, once with torch; return stdouts."""
    import contextlib
    import importlib
    import io
    import sys

    import minigrad
    torch = torch_or_skip()
    outs = []
    for module in (minigrad, torch):
        # Every ``torch.xxx`` submodule a program may import, mapped to the module's own one (when it has it).
        saved = {k: sys.modules.get(k) for k in ("torch", *(f"torch.{s}" for s in _SUBMODULES))}
        sys.modules["torch"] = module
        for sub in _SUBMODULES:
            try:  # the real submodule, not an attribute (torch.autograd.gradcheck is also a function)
                target = importlib.import_module(f"{module.__name__}.{sub}")
            except ImportError:
                target = None
            if target is None:
                sys.modules.pop(f"torch.{sub}", None)  # not provided: the import fails, as it should
            else:
                sys.modules[f"torch.{sub}"] = target
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(program, "<program>", "exec"), {"__name__": "__program__"})
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
            # Global settings a program may change must not leak into the next one.
            module.set_printoptions(profile="default")
            module.set_default_dtype(module.float32)
            module.set_grad_enabled(True)
            module.set_default_device(None)  # (PyTorch's set_default_device installs a global function mode)
            module.distributions.Distribution.set_default_validate_args(True)  # (torch.compile turns it off)
            # (a global full backward hook fixes the kind for good, even once removed: a later program's legacy
            # register_module_backward_hook would raise)
            module.nn.modules.module._global_is_full_backward_hook = None
            module.backends.cudnn.deterministic = module.backends.cudnn.benchmark = False  # (set by training recipes)
            module.autograd.set_multithreading_enabled(True)   # (its decorator form switches it off for good)
        outs.append(buf.getvalue())
    return outs[0], outs[1]


# Warnings PyTorch gives once per process (TORCH_WARN_ONCE) depend on what ran earlier in the process: a test that
# compares warnings runs its program as in a fresh process. PyTorch's "already given" state cannot be reset, but
# torch.set_warn_always(True) gives such a warning every time without using up its once; minigrad keeps its state in
# module-level lists and sets named *warn* (``[]`` or ``[False]`` before the warning), which are cleared for the run.
_ONCE_FLAGS: dict = {}   # module name -> {flag name: its value before any warning}


def _minigrad_once_flags() -> list:
    """(container, its value before any warning) of each of minigrad's once-per-process warning flags."""
    import inspect
    import sys
    flags = []
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "minigrad" or name.startswith("minigrad.")):
            continue
        if name not in _ONCE_FLAGS:   # the initial values, as the source writes them: ``_X = [False]`` or ``[]``
            try:
                src = inspect.getsource(mod)
            except (OSError, TypeError):
                src = ""
            _ONCE_FLAGS[name] = {k: [False] if re.search(rf"^{k}\b[^=\n]*= \[False\]", src, re.M) else type(v)()
                                 for k, v in vars(mod).items() if "warn" in k.lower() and isinstance(v, (list, set))
                                 and k not in ("_warn_always", "_ENGINE_WARNINGS")}
        flags += [(vars(mod)[k], fresh) for k, fresh in _ONCE_FLAGS[name].items()]
    return flags


@contextlib.contextmanager
def fresh_warn_once():
    """Run the block with every once-per-process warning of minigrad and torch not yet given (state restored after)."""
    import minigrad
    torch = torch_or_skip()
    flags = _minigrad_once_flags()
    saved = [(flag, type(flag)(flag)) for flag, _ in flags]
    always = torch.is_warn_always_enabled(), minigrad.is_warn_always_enabled()
    # PyTorch's TypedStorage warning (tensor.storage()) is Python code whose once flag set_warn_always leaves alone:
    # reset for the block, as minigrad's (else it shows only in the first program of the process that uses it)
    typed = torch.storage._warn_typed_storage_removal.__dict__
    typed_warned = typed.pop("has_warned", None)
    try:
        for flag, fresh in flags:
            flag.clear()
            flag.update(fresh) if isinstance(flag, set) else flag.extend(fresh)
        torch.set_warn_always(True)
        minigrad.set_warn_always(True)
        yield
    finally:
        torch.set_warn_always(always[0])
        minigrad.set_warn_always(always[1])
        typed.pop("has_warned", None)
        if typed_warned is not None:
            typed["has_warned"] = typed_warned
        for flag, value in saved:
            flag.clear()
            flag.update(value) if isinstance(flag, set) else flag.extend(value)


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")  # object addresses differ between the two runs

# ``import torch`` and ``E(f)``: call f and print "no error" or the exception's type and message, so a
# parity program checks PyTorch's errors one line at a time.
ERROR_PRELUDE = """import torch
def E(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
"""


def same_as_torch(program: str, prelude: str = ERROR_PRELUDE) -> str:
    """Run ``prelude + program`` with minigrad and with torch; assert the same non-empty output (addresses masked)."""
    mine, theirs = run_both(prelude + program)
    assert _ADDRESS.sub("0x", mine) == _ADDRESS.sub("0x", theirs)
    assert mine.strip()
    return mine


def same_output(program: str) -> None:
    """Run ``program`` with minigrad and with torch, warnings silenced; assert the same non-empty stdout."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (warnings go to stderr; only stdout is compared)
        ours, theirs = run_both(program)
    assert theirs.strip(), "the program printed nothing under PyTorch"
    assert _ADDRESS.sub("0x", ours) == _ADDRESS.sub("0x", theirs)


# A helper a program may use: the node names of a graph, breadth first, each node once.
WALK = """
def walk(root):
    order, seen, queue = [], set(), [root]
    while queue:
        n = queue.pop(0)
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        order.append(type(n).__name__)
        queue += [m for m, _ in n.next_functions]
    return order
"""
