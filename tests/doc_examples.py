"""PyTorch's own docstring examples, run with torch and with minigrad, compared line by line.

PyTorch's docstrings carry ``>>>`` examples. minigrad's ``manual_seed``/``randn``/``rand``/``randint`` draw the same
bits as torch's, so every example can be run twice from the same seed -- once with ``torch`` bound to PyTorch, once
to minigrad -- and the two runs must print the same thing.

For each example (one ``>>>`` statement) the record holds what doctest would see -- stdout including the repr of an
expression's value -- plus the warnings raised and the exception's type and message. An example list (one
docstring) is skipped, with the reason recorded, when PyTorch itself fails on it (an exception the docstring does
not show) or when it needs something minigrad deliberately lacks (CUDA/MPS devices, sparse layouts, quantization,
named tensors, torch.compile/jit, distributed).

Usage (from /work/main, with the venv python)::

    python tests/doc_examples.py torch              # every function minigrad exposes in torch
    python tests/doc_examples.py torch.Tensor       # Tensor methods
    python tests/doc_examples.py torch.cumsum torch.Tensor.index_add_   # single objects
    python tests/doc_examples.py torch.autograd -v  # -v: also list the skipped names with reasons
    python tests/doc_examples.py torch --seed 3     # the same examples from manual_seed(3): other random inputs
    python tests/doc_examples.py --more             # torch.nn, nn.functional, optim, distributions, func ...
    python tests/doc_examples.py --new              # torch.utils.data, nn.utils.prune, FunctionCtx, Node ...
    python tests/doc_examples.py torch --print precision=9,sci_mode=False   # after set_printoptions(...)

The library API: ``compare(path)`` -> ``Result`` for one object; ``names_in(namespace)`` -> the object paths a
sweep of that namespace covers; ``KNOWN`` lists deliberate, understood differences.
"""
from __future__ import annotations

import contextlib
import doctest
import functools
import importlib
import io
import itertools
import math
import re
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parity import _SUBMODULES, fresh_warn_once  # noqa: E402  (_SUBMODULES: the torch.* submodules a program may import)

# What minigrad deliberately lacks: an example list whose source matches one of these is skipped.
_UNSUPPORTED = [
    (re.compile(r"sparse|to_dense\(|_coo|_csr|_csc|_bsr|_bsc|crow_indices|ccol_indices|\.indices\(\)"),
     "sparse layout"),
    (re.compile(r"quantiz|qint|quint|q_scale|dequantize|int_repr"), "quantized tensors"),
    (re.compile(r"names=|refine_names|rename\(|align_to|\.names\b|unflatten\(['\"]"), "named tensors"),
    (re.compile(r"torch\.compile|torch\.jit|jit\.script|jit\.trace|torch\.export|torch\._dynamo|fx\."),
     "torch.compile/jit"),
    # ("torch.distributed\b": torch.distributions is supported)
    (re.compile(r"torch\.distributed\b|init_process_group|torch\.multiprocessing"), "distributed"),
    (re.compile(r"nested_tensor|torch\.nested|to_mkldnn|mkldnn|vulkan|meta\b|device=['\"]meta"),
     "nested/mkldnn/meta tensors"),
]

# Examples on another device are dropped one by one (the rest of the list still runs; if it needed them, PyTorch
# fails with a NameError and the list is skipped); so are DataLoaders with worker processes (minigrad's loads in
# the calling process: the order of the batches of an IterableDataset differs).
_DEVICE = re.compile(r"cuda|\bmps\b|device=['\"](?!cpu)|\.to\(['\"](?!cpu)|\bxpu\b|\bhpu\b|mtia|num_workers=[1-9]")

# Deliberate, understood differences: object path -> reason. A sweep reports these as skipped, not differing.
KNOWN: dict[str, str] = {
    # complex64 inverse (getrf/getri) and potri/potrs bits: the diagonal of inv(A) for a Hermitian A gets a
    # -3e-9j imaginary part in minigrad, exactly 0 in PyTorch's MKL; the float32 halves of the examples match
    "torch.cholesky_inverse": "complex64 LAPACK inverse bits (torch.dist of ~1e-4 vs ~8e-4)",
    "torch.cholesky_solve": "complex64 LAPACK solve bits (torch.dist of ~3e-6 vs ~6e-6)",
    # oneDNN's 3-D convolution sums in its own blocked order; values agree to ~1e-6 relative, not bit for bit
    "torch.conv3d": "oneDNN 3-D convolution summation order",
    "torch.conv_transpose3d": "oneDNN 3-D transposed convolution summation order",
    "torch.nn.functional.conv3d": "oneDNN 3-D convolution summation order",
    "torch.nn.functional.conv_transpose3d": "oneDNN 3-D transposed convolution summation order",
    # torch.func.linearize traces with torch.fx, which warns about its own get_attr nodes: an implementation detail
    "torch.func.linearize": "torch.fx's internal 'get_attr Node with no underlying reference' warning",
    # PyTorch's own float32 result varies between runs of one seed (MKL's gelsd/pinv bits follow the buffers'
    # alignment): torch.dist(X, pinv(A) @ B) printed 8.9e-07 .. 1.2e-06 over 200 allocations
    "torch.linalg.lstsq": "PyTorch's float32 lstsq/pinv bits vary with memory alignment between runs",
    # the module's parameters are torch.empty's uninitialized memory: their values depend on the allocator's history
    "torch.nn.utils.skip_init": "uninitialized parameters (torch.empty's memory)",
    # its dummies are lambdas (*args, **kwargs): PyTorch's spell out each function's signature by hand
    "torch.overrides.get_testing_overrides": "the dummy lambdas' signatures",
    # minigrad has a lazy conjugate bit but no lazy negative bit: z = x.conj().imag is materialized
    "torch.resolve_neg": "no lazy negative bit (x.conj().imag.is_neg() is False)",
}

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")  # object addresses differ between the two runs
# A function's repr: PyTorch's are mostly C builtins, minigrad's Python functions (the same function either way)
_FUNCTION_REPR = re.compile(r"<built-in method (\w+) of type object at 0x[0-9a-fA-F]+>"
                            r"|<function (\w+) at 0x[0-9a-fA-F]+>")


def _normalized(text: str) -> str:
    return _ADDRESS.sub("0x", _FUNCTION_REPR.sub(lambda m: f"<function {m.group(1) or m.group(2)}>", text))


_FRAME = re.compile(r'  File "(?P<file>[^"]*)", line \d+, in [^\n]*\n(?:    [^\n]*\n)?')


def _own_frames(text: str) -> str:
    """A traceback inside a warning (anomaly mode's "Traceback of forward call") keeps only the example's frames:
    the harness's and the libraries' own frames differ between the two runs."""
    return _FRAME.sub(lambda m: m.group(0) if m.group("file") == "<doc example>" else "", text)


@dataclass
class Record:
    """What one ``>>>`` example did: doctest's view (stdout incl. the value's repr), warnings and exception."""
    source: str
    output: str = ""
    warnings: list = field(default_factory=list)
    error: str | None = None

    def key(self):
        return (_normalized(self.output), [_normalized(_own_frames(w)) for w in self.warnings],
                None if self.error is None else _normalized(self.error))


@dataclass
class Result:
    """The comparison of one object's example list: ``status`` is "equal", "differ", "skip" or "none"."""
    path: str
    status: str
    reason: str = ""
    diffs: list = field(default_factory=list)  # (example source, torch record, minigrad record)


def _resolve(root, path: str):
    """``root`` (a module) followed by the dotted ``path`` minus its first part ("torch.linalg.norm" -> attr)."""
    obj, parts = root, path.split(".")
    for i, part in enumerate(parts[1:], 1):
        if not hasattr(obj, part) and isinstance(obj, type(math)):
            # a submodule its package does not import (torch.nn.utils.prune): import it, as an example would
            with contextlib.suppress(ImportError):
                importlib.import_module(f"{root.__name__}.{'.'.join(parts[1:i + 1])}")
        obj = getattr(obj, part)
    return obj


def docstring(path: str) -> str | None:
    """PyTorch's docstring of the object at ``path`` ("torch.cumsum", "torch.Tensor.index_add_")."""
    import torch
    try:
        obj = _resolve(torch, path)
    except AttributeError:
        return None
    doc = getattr(obj, "__doc__", None)
    return doc if isinstance(doc, str) else None


def examples(doc: str) -> list:
    """doctest's ``Example`` objects of a docstring (``source`` and expected ``want``/``exc_msg``)."""
    try:
        exs = doctest.DocTestParser().get_examples(doc)
    except ValueError:  # a malformed docstring (bad indentation): nothing to run
        return []
    return _join_continuations(exs)


def _join_continuations(exs: list) -> list:
    """Some docstrings continue a statement on a ``>>>`` line instead of ``...`` (``>>> def f(x):`` then
    ``>>>     return x``), or on lines without a prompt (which doctest reads as the expected output): an example
    that does not compile is joined with its output or the next examples until it does; a compiling block is
    continued by the indented examples after it."""
    out, i = [], 0
    while i < len(exs):
        ex, source, want = exs[i], exs[i].source, exs[i].want
        if not _compiles(source) and want and _compiles(source + want):
            source, want = source + want, ""
        while i + 1 < len(exs) and (not _compiles(source) or exs[i + 1].source[:1] in " \t" and not want):
            i += 1
            source, want = source + exs[i].source, exs[i].want
        if source != ex.source:
            ex = doctest.Example(source, want, exs[i].exc_msg, lineno=ex.lineno, indent=ex.indent,
                                 options=ex.options)
        out.append(ex)
        i += 1
    return out


def _compiles(source: str) -> bool:
    try:
        compile(source, "<doc example>", "single")
        return True
    except (SyntaxError, ValueError, OverflowError):
        return False


@contextlib.contextmanager
def _as_torch(module):
    """``import torch`` / ``from torch.linalg import multi_dot`` inside the examples give ``module``'s modules:
    every loaded ``torch.X`` maps to ``module.X`` (when ``module`` has it; otherwise the import fails)."""
    if module.__name__ == "torch":  # sys.modules already holds torch's own modules
        yield
        return
    for sub in _SUBMODULES + ("linalg", "signal", "signal.windows", "nn.attention", "sparse", "types"):
        with contextlib.suppress(ImportError):
            importlib.import_module(f"{module.__name__}.{sub}")
    prefix = module.__name__ + "."
    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    for k in saved:
        del sys.modules[k]
    sys.modules["torch"] = module
    for k, v in list(sys.modules.items()):
        if k.startswith(prefix):
            sys.modules["torch." + k[len(prefix):]] = v
    try:
        yield
    finally:
        for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _reset(module) -> None:
    """Global settings an example may change must not leak into the next example list."""
    module.set_printoptions(profile="default")
    module.set_default_dtype(module.float32)
    module.set_grad_enabled(True)
    module.set_default_device(None)
    with contextlib.suppress(Exception):
        module.use_deterministic_algorithms(False)
    with contextlib.suppress(Exception):
        module.autograd.set_detect_anomaly(False)


def _namespace(module, path: str) -> dict:
    """The names an example may use without importing: torch's doctests run in the globals of the object's module,
    so ``jacobian(...)`` in torch.autograd.functional's docstrings is found; plus the usual aliases."""
    ns = {"__name__": "__doc_example__", "torch": module, "nn": module.nn, "F": module.nn.functional,
          "np": np, "numpy": np, "math": math, "itertools": itertools, "io": io, "functools": functools}
    parent = path.rsplit(".", 1)[0]
    # (a method's examples -- torch.autograd.function.FunctionCtx.mark_dirty -- run in its class's module)
    while parent.count(".") > 1 and not isinstance(_resolve_or_none(module, parent), type(math)):
        parent = parent.rsplit(".", 1)[0]
    if parent != "torch" and parent != "torch.Tensor":
        mod = _resolve_or_none(module, parent)
        if isinstance(mod, type(math)):
            ns.update({n: getattr(mod, n) for n in dir(mod) if not n.startswith("_")})
    return ns


def _resolve_or_none(root, path: str):
    try:
        return _resolve(root, path)
    except AttributeError:
        return None


def run(module, exs: list, path: str = "torch", seed: int = 0, printoptions: dict | None = None) -> list[Record]:
    """Run the examples in order from a fresh namespace and ``manual_seed(seed)``, as doctest would (after
    ``set_printoptions(**printoptions)``: the same examples print with other precisions, widths, sci_mode ...)."""
    records = []
    ns = _namespace(module, path)
    # (in a scratch folder: an example may save "tensor.pt" or open files of its own)
    with _as_torch(module), tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        module.manual_seed(seed)
        try:
            if printoptions:
                module.set_printoptions(**printoptions)
            for ex in exs:
                rec = Record(ex.source)
                buf = io.StringIO()
                with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(buf):
                    warnings.simplefilter("always")
                    # "single" mode prints an expression statement's value through sys.displayhook, as doctest.
                    old_hook = sys.displayhook
                    sys.displayhook = sys.__displayhook__
                    try:
                        exec(compile(ex.source, "<doc example>", "single"), ns)
                    except Exception as e:  # noqa: BLE001 - the exception is the record
                        rec.error = f"{type(e).__name__}: {e}"
                    finally:
                        sys.displayhook = old_hook
                rec.output = buf.getvalue()
                rec.warnings = [f"{w.category.__name__}: {w.message}" for w in caught]
                records.append(rec)
        finally:
            _reset(module)
    return records


def unsupported(exs: list) -> str | None:
    """Why minigrad deliberately cannot run these examples, or None."""
    text = "\n".join(ex.source for ex in exs)
    for pattern, reason in _UNSUPPORTED:
        if pattern.search(text):
            return reason
    return None


# What examples of these namespaces use without defining it ("optimizer", "model", "train(...)"), and what to print
# after them: (setup, probe), as docstrings. Where one applies, PyTorch's +SKIP (given for want of these names) is
# not honoured; an example that still needs more is skipped as broken (NameError).
_OPTIM_SETUP = """
>>> model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
>>> input, target = torch.randn(5, 4), torch.randn(5, 2)
>>> loss_fn = torch.nn.MSELoss()
>>> optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
>>> def train(*args):
...     optimizer.zero_grad()
...     loss_fn(model(input), target).backward()
...     optimizer.step()
>>> def validate(*args):
...     return loss_fn(model(input), target).item()
>>> loader = [(input, target), (input * 2, target)]
"""
_OPTIM_PROBE = """
>>> print([round(g["lr"], 10) for g in optimizer.param_groups], validate())
>>> print([p.sum().item() for p in model.parameters()])
"""
# torch.utils.data's and prune's examples are all +SKIP (for a namedtuple import, a dataset they leave undefined):
# they run, and an example still broken (``CustomType``) is dropped alone -- with the ones that need its names.
_DATA_SETUP = """
>>> from collections import namedtuple
>>> from torch.nn.utils import prune
>>> ImageDataset = lambda: torch.utils.data.TensorDataset(torch.randn(4, 3))
>>> TextDataset = lambda: [f"text {i}" for i in range(4)]
"""
_FIXTURES = {"torch.optim": (_OPTIM_SETUP, _OPTIM_PROBE),
             "torch.nn.Module.": (_OPTIM_SETUP, ">>> print(sorted(model.state_dict()))\n"),
             "torch.utils.data.": (_DATA_SETUP, ""), "torch.nn.utils.prune.": (_DATA_SETUP, ""),
             "torch.autograd.function.FunctionCtx.": ("", ""), "torch.autograd.profiler.": ("", "")}
# Where a broken example is dropped alone instead of skipping its whole list
_DROP_BROKEN = ("torch.utils.data.", "torch.nn.utils.prune.", "torch.autograd.function.FunctionCtx.",
                "torch.autograd.profiler.")

# Exceptions that mean the example itself is broken (undefined names, pseudo-code), not a PyTorch behaviour.
_BROKEN = ("NameError", "SyntaxError", "IndentationError", "ImportError", "ModuleNotFoundError")


def _apply_directives(doc: str, exs: list, skips: bool = True) -> tuple[list, str | None]:
    """Honour torch's doctest directives: ``# xdoctest: +SKIP`` alone on a ``>>>`` line (doctest's parser drops
    such comment-only lines, so they are read from the docstring) skips the examples after it, at the end of a line
    only that example; ``+REQUIRES(env:TORCH_DOCTEST_CUDA)`` (or LAPACK, ...) needs what we lack. Examples on
    another device are dropped one by one. Returns the examples to run, or a reason to skip them all."""
    stop = None  # line number of the first own-line +SKIP
    for lineno, line in enumerate(doc.splitlines()):
        m = re.match(r"\s*>>>\s*#\s*x?doctest:\s*(.*)", line)
        if m and "REQUIRES" in m.group(1) and re.search(r"CUDA|CUDNN|MPS|LAPACK|DISTRIBUTED|ONNX|HIP", m.group(1)):
            return [], "needs a CUDA/MPS/other device"
        if m and "+SKIP" in m.group(1) and stop is None and skips:
            stop = lineno
    kept = []
    for ex in exs:
        if stop is not None and ex.lineno > stop:
            break
        directive = re.search(r"#\s*x?doctest:\s*(.*)", ex.source)
        if directive and "+SKIP" in directive.group(1) and skips:
            continue
        if _DEVICE.search(ex.source):
            continue
        kept.append(ex)
    return kept, (None if kept else "docstring marked +SKIP or needs a CUDA/MPS/other device")


# What an example printing a tensor of uninitialized memory (torch.empty, new_empty) shows depends on the allocator's
# history: whatever it was, PyTorch's second run often shows the same. Its output is not compared, its errors are.
_UNINITIALIZED = re.compile(r"\bempty\w*\(|new_empty")


def _uninitialized(exs) -> set:
    """The indices of the examples that show uninitialized memory: those that make it, and later ones that only
    display a name assigned from it (``a = torch.empty_strided(...)``, then ``a``)."""
    shown, names = set(), set()
    for i, ex in enumerate(exs):
        source = ex.source.strip()
        if _UNINITIALIZED.search(source):
            shown.add(i)
            names.update(re.findall(r"^(\w+)\s*=(?!=)", source, re.M))
        elif re.fullmatch(r"(?:print\()?(\w+)\)?", source) and re.sub(r"\W", " ", source).split()[-1] in names:
            shown.add(i)
    return shown


def _key(i: int, uninitialized: set, rec: Record):
    key = rec.key()
    return key[1:] if i in uninitialized else key


def compare(path: str, seed: int = 0, printoptions: dict | None = None) -> Result:
    """Run the docstring examples of the torch object at ``path`` with torch and minigrad; compare the records."""
    import torch

    import minigrad
    doc = docstring(path)
    exs = examples(doc) if doc else []
    if not exs:
        return Result(path, "none", "no examples")
    if path in KNOWN:
        return Result(path, "skip", "KNOWN: " + KNOWN[path])
    fixture = next((f for prefix, f in _FIXTURES.items() if path.startswith(prefix)), None)
    # (with the names they assume, the examples PyTorch skips for want of them run; the probe shows the result)
    exs, why = _apply_directives(doc, exs, skips=fixture is None)
    why = why or unsupported(exs)
    if why:
        return Result(path, "skip", why)
    setup, probe = [], []
    if fixture is not None:
        setup, probe = examples(fixture[0]), examples(fixture[1])
        exs = setup + exs + probe
    theirs = run(torch, exs, path, seed, printoptions)
    broken = [i for i, (ex, rec) in enumerate(zip(exs, theirs))
              if rec.error is not None and ex.exc_msg is None and rec.error.startswith(_BROKEN)]
    # A broken example (undefined names, pseudo-code): nothing to compare. Any other exception PyTorch raises
    # is compared like a value: minigrad must raise the same.
    if broken and (not path.startswith(_DROP_BROKEN) or len(broken) == len(exs) - len(setup) - len(probe)):
        return Result(path, "skip", "torch fails: " + theirs[broken[0]].error.splitlines()[0][:100])
    try:
        _resolve(minigrad, path)
    except AttributeError:
        return Result(path, "skip", "minigrad lacks it")
    mine = run(minigrad, exs, path, seed, printoptions)
    blank = _uninitialized(exs)
    diffs = [(ex.source, t, m) for i, (ex, t, m) in enumerate(zip(exs, theirs, mine))
             if _key(i, blank, t) != _key(i, blank, m) and i not in broken]
    if diffs:
        # PyTorch run again: an example whose output changes between two runs (torch.empty's uninitialized
        # memory, MKL results that depend on memory alignment) is not compared
        again = run(torch, exs, path, seed, printoptions)
        diffs = [(ex.source, t, m) for i, (ex, t, t2, m) in enumerate(zip(exs, theirs, again, mine))
                 if _key(i, blank, t) == _key(i, blank, t2) and _key(i, blank, t) != _key(i, blank, m)
                 and i not in broken]
    return Result(path, "differ" if diffs else "equal", diffs=diffs)


# ---------------------------------------------------------------------------------------------------------------
# Which names a sweep covers
# ---------------------------------------------------------------------------------------------------------------

def _imported_from_elsewhere(obj, namespace: str) -> bool:
    """A name a module merely imports: ``typing.TypedDict`` in torch.optim.lr_scheduler, ``enum.Enum`` in
    parametrizations, the distribution classes torch.distributions.kl imports, F.pad in distributions.transforms.
    Such an object is swept where it is defined (a public torch module minigrad has too), or not at all (not
    torch's)."""
    if namespace in ("torch", "torch.Tensor"):  # torch re-exports torch.functional's einsum, stft ... as its own
        return False
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str) or module == "torch" or module.startswith(namespace):
        return False
    if not module.startswith("torch."):
        return True
    import minigrad
    try:  # defined in a public module that minigrad has too: swept there
        return "._" not in module and hasattr(_resolve(minigrad, module), getattr(obj, "__name__", ""))
    except AttributeError:
        return False


def names_in(namespace: str) -> list[str]:
    """The object paths of ``namespace`` ("torch", "torch.Tensor", "torch.linalg", ...) that minigrad exposes,
    PyTorch documents with examples, sorted."""
    import torch

    import minigrad
    theirs, mine = _resolve(torch, namespace), _resolve(minigrad, namespace)
    out = []
    for name in sorted(set(dir(mine)) & set(dir(theirs))):
        if name.startswith("_"):
            continue
        obj = getattr(theirs, name, None)
        if obj is None or isinstance(obj, type(torch)):  # submodules are swept on their own
            continue
        if _imported_from_elsewhere(obj, namespace):
            continue
        # functions and classes; in torch.Tensor also properties (is_leaf, grad ...), which carry examples too
        if not callable(obj) and namespace != "torch.Tensor":
            continue
        doc = getattr(obj, "__doc__", None)
        if isinstance(doc, str) and ">>>" in doc:
            out.append(f"{namespace}.{name}")
    return out


NAMESPACES = ("torch", "torch.Tensor", "torch.autograd", "torch.autograd.graph", "torch.autograd.forward_ad",
              "torch.autograd.functional", "torch.linalg", "torch.special", "torch.fft")
# The modules' and classes' namespaces (tests/test_parity_doc_examples_more.py; ``--more`` on the command line)
MORE_NAMESPACES = (
    "torch.nn", "torch.nn.Module", "torch.nn.functional", "torch.nn.init", "torch.nn.utils", "torch.nn.utils.rnn",
    "torch.nn.utils.parametrize", "torch.nn.utils.parametrizations", "torch.nn.utils.stateless",
    "torch.nn.utils.clip_grad", "torch.optim",
    "torch.optim.Optimizer", "torch.optim.lr_scheduler", "torch.optim.swa_utils", "torch.distributions",
    "torch.distributions.transforms", "torch.distributions.kl", "torch.func", "torch.utils.checkpoint",
    "torch.testing", "torch.random", "torch.overrides", "torch.Size", "torch.Generator")


# Session 13: the packages and classes the sweeps above did not reach (tests/test_parity_doc_examples13.py; ``--new``
# on the command line). A class's methods are swept as a namespace; the names whose docstring one of the sweeps
# above already runs (inherited methods, re-exports) are left out.
NEW_NAMESPACES = (
    "torch.utils.data", "torch.distributions.constraints", "torch.distributions.utils", "torch.nn.utils.prune",
    "torch.autograd.function.FunctionCtx", "torch.autograd.graph.Node", "torch.autograd.profiler",
    "torch.autograd.grad_mode", "torch.autograd.anomaly_mode", "torch.nn.Sequential", "torch.nn.ModuleList",
    "torch.nn.ModuleDict", "torch.nn.ParameterList", "torch.nn.ParameterDict", "torch.nn.Embedding",
    "torch.nn.EmbeddingBag", "torch.nn.parameter", "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts",
    "torch.distributions.transforms.CumulativeDistributionTransform", "torch.utils.hooks", "torch.serialization",
    "torch.accelerator", "torch.compiler")


def new_names() -> list[str]:
    """The object paths of NEW_NAMESPACES whose docstrings NAMESPACES and MORE_NAMESPACES do not run already."""
    covered = {docstring(p) for ns in NAMESPACES + MORE_NAMESPACES for p in names_in(ns)}
    out = []
    for ns in NEW_NAMESPACES:
        for path in names_in(ns):
            doc = docstring(path)
            if doc not in covered:
                covered.add(doc)
                out.append(path)
    return out


def sweep(paths: list[str], seed: int = 0, printoptions: dict | None = None) -> list[Result]:
    """compare() each path, each as in a fresh process: the warnings given once per process are given whatever
    ran before (``parity.fresh_warn_once``; in this process, and in the worker other test files ran in)."""
    results = []
    for p in paths:
        with fresh_warn_once():
            results.append(compare(p, seed, printoptions))
    return results


def _show(rec: Record) -> str:
    parts = [rec.output.rstrip("\n")] if rec.output else []
    parts += [f"[warning] {w}" for w in rec.warnings]
    if rec.error:
        parts.append(f"[error] {rec.error}")
    return "\n".join(parts) or "(nothing)"


def report(results: list[Result], verbose: bool = False) -> str:
    lines = []
    by = {s: [r for r in results if r.status == s] for s in ("equal", "differ", "skip", "none")}
    compared = len(by["equal"]) + len(by["differ"])
    lines.append(f"names: {len(results)}  compared: {compared}  equal: {len(by['equal'])}  "
                 f"differing: {len(by['differ'])}  skipped: {len(by['skip'])}  no examples: {len(by['none'])}")
    reasons: dict[str, list[str]] = {}
    for r in by["skip"]:
        key = r.reason.split(":")[0] if r.reason.startswith(("torch fails", "KNOWN")) else r.reason
        reasons.setdefault(key, []).append(r.path)
    for key, paths in sorted(reasons.items()):
        lines.append(f"  skipped ({key}): {len(paths)}")
        if verbose:
            for r in by["skip"]:
                if r.path in paths:
                    lines.append(f"      {r.path}: {r.reason}")
    for r in by["differ"]:
        lines.append(f"\n=== {r.path}")
        for source, t, m in r.diffs:
            lines.append(">>> " + source.rstrip("\n").replace("\n", "\n... "))
            lines.append("--- torch:\n" + _show(t))
            lines.append("--- minigrad:\n" + _show(m))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0  # other random inputs, same examples
    # --print precision=2,sci_mode=True: the examples run after set_printoptions(precision=2, sci_mode=True)
    printoptions = None
    if "--print" in argv:
        import ast
        pairs = (kv.split("=", 1) for kv in argv[argv.index("--print") + 1].split(","))
        printoptions = {k: (v if k == "profile" else ast.literal_eval(v)) for k, v in pairs}
    args = [a for i, a in enumerate(argv) if a not in ("-v", "--seed", "--more", "--new", "--print")
            and argv[i - 1:i] not in (["--seed"], ["--print"])]
    paths = new_names() if "--new" in argv and not args else []
    args = args or ([] if paths else list(MORE_NAMESPACES if "--more" in argv else NAMESPACES))
    import torch
    for a in args:
        obj = _resolve(torch, a)
        if isinstance(obj, type(torch)) or a == "torch.Tensor":
            paths += names_in(a)
        else:
            paths.append(a)
    results = sweep(paths, seed, printoptions)
    print(report(results, verbose))
    return 1 if any(r.status == "differ" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
