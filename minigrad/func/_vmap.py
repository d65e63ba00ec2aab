"""``vmap``: map a function over a dimension of its inputs.

PyTorch's vmap pushes the batch dimension into every op (BatchedTensor), so the function runs once. minigrad is
a teaching engine and does the plain thing instead: a Python loop that calls ``func`` on each slice and stacks
the results. Values, shapes and gradients are the same; it is not fast, and results carry ``StackBackward0``
where PyTorch's carry the last op's node. What PyTorch refuses to batch (``.item()`` on a slice, writing a slice
into a captured tensor in place, ...) raises its errors: ``_vmap_batched.py`` tracks which tensors are batched.
As PyTorch's one call, the function's warnings show once (the first slice's), and so does what it prints (the
first slice's, once per chunk); an input's slice prints as PyTorch's ``BatchedTensor(lvl=1, bdim=0, value=<the
whole input>)``, and so does a batched tensor the function computed (its slices' values, known once all ran).
"""
from __future__ import annotations

import contextlib
import functools
import io
import sys
import textwrap
import threading
import types
import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as _np

from .. import _dispatch, _matmul, _random
from .. import _vmap_batched as _batched
from .._creation import eye
from .._ops import cat, stack
from .._per_thread import PerThreadList
from .._tensor import Tensor
from ..autograd import _vmap_calls_ahead as _calls_ahead
from ..autograd.grad_mode import is_grad_enabled, set_grad_enabled
from ._pytree import broadcast_to_and_flatten, tree_flatten, tree_unflatten

__all__ = ["vmap"]


def _name(func) -> str:
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_name(func.func)}, ...)"
    return repr(func)


def vmap(func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """``func`` mapped over dim ``in_dims`` of its inputs, results stacked at ``out_dims``: a Python loop, not fast.

    minigrad is a teaching engine: this vmap calls ``func`` once per slice (``x.select(in_dim, i)``) and stacks
    the results with ``minigrad.stack``, where PyTorch runs ``func`` once on batched tensors.
    ``randomness``: "error" raises if ``func`` draws random numbers, "same" restarts the generator for each
    slice so all see the same numbers (PyTorch's), "different" lets each slice draw its own (PyTorch's numbers
    where its sampler draws in the same order, e.g. ``rand``; not its vectorized ``randn`` of 16+ numbers).
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or 'same'. "
                           f"Got {randomness}")
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        return call(args, kwargs)

    def call(args: tuple, kwargs: dict, empty: bool = False):
        """``empty``: the batch has no examples and ``args`` one harmless example standing in for them."""
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _process_inputs(in_dims, args, func)
        if chunk_size is not None and not chunk_sizes(batch_size, chunk_size):  # (only PyTorch's errors: a loop is
            # the same in any chunks; a batch of no examples has none, so PyTorch never calls func and finds no
            # outputs to concatenate)
            raise AssertionError("arg_spec must not be None")
        if batch_size == 0:
            # PyTorch calls func once, on batches of no examples; a loop would never call it and could not know
            # the outputs' shapes: call it on one harmless example and keep none of its rows (the level's batch
            # size stays 0 for the batch rules' errors that depend on it).
            padded = [a if d is None else cat([a, _harmless_example(a, d)], d) for a, d in zip(flat_args, flat_in_dims)]
            return _no_rows(call(tree_unflatten(padded, args_spec), kwargs, empty=True), out_dims)
        # chunk_size only changes how PyTorch batches the work; a loop is the same in any chunks
        rng = _Randomness(randomness)
        rules = _RuleCalls(batch_size, randomness, flat_args, flat_in_dims)
        rules.chunk = chunk_size
        # the slices are "batched" tensors (see _vmap_batched.py)
        _batched.enter(0 if empty else batch_size, func, [a for a, d in zip(flat_args, flat_in_dims) if d is None],
                       randomness)
        _RULES.append(rules)
        unmapped = _Unmapped(func, [a for a, d in zip(flat_args, flat_in_dims) if d is None],
                             [a for a, d in zip(flat_args, flat_in_dims) if d is not None])
        prints = _Prints(batch_size, chunk_size, flat_in_dims)
        _PRINTS.append(prints)
        try:
            while True:  # one pass over the slices, again after each custom Function vmap rule they reached
                prints.start_pass()
                outputs = []
                batched_out: set = set()  # positions of flat outputs that are batched (for out_dims None)
                # (the versions PyTorch's one call sees; numbers among the arguments have none)
                start = [a._version_counter[0] if isinstance(a, Tensor) else None for a in flat_args]
                for i in range(batch_size):
                    if chunk_size is not None and not empty and i % chunk_size == 0:
                        # (PyTorch runs vmap once per chunk: its batch rules' errors name the chunk's size)
                        _batched.SIZES[-1] = min(chunk_size, batch_size - i)
                    unmapped.before_slice(i, chunk_size)
                    rng.before_slice(i)
                    flat = [a if d is None else a.select(d, i) for a, d in zip(flat_args, flat_in_dims)]
                    for a, d, whole, v in zip(flat, flat_in_dims, flat_args, start):
                        if d is not None:
                            if isinstance(a, Tensor) and not whole._is_inference:
                                a._version_counter = _SliceVersion(whole._version_counter, v)
                            _batched.mark_slice(a)
                            if whole._requires_grad and (whole._grad_fn is None or _dispatch._is_transform_leaf(whole)):
                                _dispatch.transform_leaf(a)  # (PyTorch's batched leaf is still the leaf)
                    rules.start_slice(i, flat)
                    prints.start_slice(i)
                    again = int(i < batch_size - 1)  # while > 0, autograd.grad keeps graphs made outside for the next
                    _calls_ahead[0] += again
                    _matmul.IN_VMAP[0] += 1
                    shown = warnings.showwarning
                    if i:  # PyTorch calls func once: its warnings show once, the first example's (whatever the filters)
                        warnings.showwarning = functools.partial(_drop_warning, shown, threading.get_ident())
                    try:
                        outputs.append(func(*tree_unflatten(flat, args_spec), **kwargs))
                    except _Gather as stop:
                        if stop.rules is not rules:
                            raise
                        rng.after_slice()
                        continue
                    except Exception:
                        # a slice that drew and then failed: PyTorch raised at the draw, before this error
                        if (refused := rng.refusal()) is not None:
                            raise refused from None
                        raise
                    finally:
                        _calls_ahead[0] -= again
                        _matmul.IN_VMAP[0] -= 1
                        warnings.showwarning = shown
                        sys.stdout = prints.real
                    batched_out.update(j for j, o in enumerate(tree_flatten(outputs[-1])[0])   # (at any level, as
                                       if isinstance(o, Tensor) and _batched.levels(o))      # PyTorch's check)
                    rng.after_slice()
                if not rules.pending:
                    break
                rules.call_rule(func)
                rng.restart()
        finally:
            rng.end()
            _RULES.pop()
            _PRINTS.pop()
            _batched.exit_()
            prints.show()
        return _stack_outputs(outputs, out_dims, func, batched_out)
    return wrapped


def _drop_warning(show, thread: int, *args, **kwargs) -> None:
    """``warnings.showwarning`` while the examples after the first run: what they warn was warned already (another
    thread's warnings meanwhile are shown by ``show``)."""
    if threading.get_ident() != thread:
        show(*args, **kwargs)


def batched_repr(t: Tensor) -> str | None:
    """How PyTorch prints ``t`` inside vmap when ``t`` is the example of an input the function got: the
    BatchedTensor of the level, ``BatchedTensor(lvl=1, bdim=0, value=...)`` around the whole input (itself an
    example of an outer vmap's input, or a plain tensor); None to print ``t`` as usual. A batched tensor the
    function computed prints as a placeholder that ``_Prints.show`` replaces (one vmap without other transforms)."""
    from ..autograd.function import _TRANSFORMS_ACTIVE
    if _TRANSFORMS_ACTIVE[0] or len(_RULES) != _batched.DEPTH[0]:  # (a legacy vmap of is_grads_batched: no _RULES)
        return None
    if _PRINTS and _PRINTS[-1].shown is not None:
        shown = input_repr(t)
        return _PRINTS[-1].placeholder(t) if shown is None else shown
    return input_repr(t)


def input_repr(t: Tensor) -> str | None:
    """``BatchedTensor(lvl=..., bdim=..., value=<the whole input>)`` when ``t`` is the example of an input the
    function got, else None."""
    for level in reversed(range(len(_RULES))):
        rules = _RULES[level]
        for a, whole, d in zip(rules.flat, rules.flat_args, rules.flat_in_dims):
            if a is t and d is not None:
                if _batched.SIZES[level] == 0:  # (the harmless example stands in for none)
                    whole = whole.narrow(d, 0, 0)
                inner = textwrap.indent(repr(whole), "    ")  # (blank lines stay blank)
                return f"BatchedTensor(lvl={level + 1}, bdim={d}, value=\n{inner}\n)"
    return None


class _Null(io.TextIOBase):
    """Where the slices print whose call PyTorch does not make."""

    def write(self, text: str) -> int:
        return len(text)


class _ThisThread(io.TextIOBase):
    """``sys.stdout`` while a slice runs: the vmapping thread's text goes to ``target``, other threads' (which
    PyTorch's vmap does not touch) to the stdout vmap found."""

    def __init__(self, target, real) -> None:
        self.target, self.real, self.thread = target, real, threading.get_ident()

    def write(self, text: str) -> int:
        return (self.target if threading.get_ident() == self.thread else self.real).write(text)

    def flush(self) -> None:
        self.real.flush()


_PRINTS = PerThreadList()  # one _Prints per running vmap in this thread, outermost first


@contextlib.contextmanager
def first_row_only_shows(row: int):
    """One row of a loop standing for PyTorch's one call under its legacy vmap (is_grads_batched, the forward-mode
    jacobian, gradcheck's batched forward check): after the first row, what this thread prints or warns is dropped."""
    if not row:
        yield
        return
    real, shown = sys.stdout, warnings.showwarning
    sys.stdout = _ThisThread(_Null(), real)
    warnings.showwarning = functools.partial(_drop_warning, shown, threading.get_ident())
    try:
        yield
    finally:
        sys.stdout, warnings.showwarning = real, shown


class _Prints:
    """What the function prints while vmap runs it. PyTorch calls it once (once per chunk), so only the first slice
    (of each chunk) prints, and only in the last pass (see _RuleCalls): the text is held until vmap is done. There,
    a batched tensor prints as the whole batch, ``BatchedTensor(lvl=1, bdim=0, value=...)``: each slice records its
    examples of the printed tensors in print order, and the first slice's text holds placeholders for them. (Only
    one vmap with batch dims 0 and no chunks or other transforms, and a tensor that does not require grad.)"""

    def __init__(self, batch_size: int, chunk_size: int | None, flat_in_dims: list) -> None:
        self.real = sys.stdout
        self.batch_size, self.chunk_size = batch_size, chunk_size
        self.batchable = (chunk_size is None and len(_RULES) == 1 and _batched.DEPTH[0] == 1
                          and all(d in (None, 0) for d in flat_in_dims))
        self.text = io.StringIO()
        self.shown: list | None = None  # per placeholder: (the first slice's plain repr, [each slice's example])
        self.k = 0  # how many batched tensors the running slice printed

    def start_pass(self) -> None:
        self.text = io.StringIO()
        self.shown = [] if self.batchable else None

    def start_slice(self, i: int) -> None:
        first = i == 0 if self.chunk_size is None else i % self.chunk_size == 0
        sys.stdout = _ThisThread(self.text if first else _Null(), self.real)
        self.k = 0

    def placeholder(self, t: Tensor) -> str | None:
        if not _batched.levels(t) or t._requires_grad:
            return None
        k, self.k = self.k, self.k + 1
        shown, self.shown = self.shown, None   # (the plain repr of t, not another placeholder)
        try:
            if k == len(shown):
                shown.append((repr(t), []))
            shown[k][1].append(t.detach())
        finally:
            self.shown = shown
        return f"\x00vmap print {k}\x00"

    def show(self) -> None:
        """The text the function printed, written where it would have gone, each placeholder replaced."""
        sys.stdout = self.real
        text = self.text.getvalue()
        for k, (plain, examples) in enumerate(self.shown or ()):
            if len(examples) == self.batch_size and len({e.shape for e in examples}) == 1:
                inner = textwrap.indent(repr(stack(examples)), "    ")
                plain = f"BatchedTensor(lvl=1, bdim=0, value=\n{inner}\n)"
            text = text.replace(f"\x00vmap print {k}\x00", plain)
        self.real.write(text)


def chunk_sizes(total: int, chunk_size: int) -> list:
    """PyTorch's split of ``total`` rows into chunks: ``chunk_size`` each, the remainder last. (A float
    ``chunk_size`` fails there as in PyTorch: a list times a float.)"""
    sizes = [chunk_size] * (total // chunk_size)
    if total % chunk_size:
        sizes.append(total % chunk_size)
    return sizes


class VmapInfo(NamedTuple):
    """What a custom ``autograd.Function``'s ``vmap`` staticmethod is told about the running vmap."""
    batch_size: int
    randomness: str


class _SliceVersion(list):
    """The version counter of one slice of a batched input (and of the views made of it). PyTorch runs ``func`` once,
    so an in-place op writes every example at the same point of the program; minigrad's loop writes slice after
    slice, and a shared counter would make the later slices' writes look like changes to what the earlier slices
    saved for backward. So each slice counts its own writes (from the input's version when the loop began), and
    every bump also bumps the batched input's counter, whose memory it is."""

    __slots__ = ("outer",)

    def __init__(self, outer: list, start: int) -> None:
        super().__init__([start])
        self.outer = outer

    def __setitem__(self, i, value) -> None:
        self.outer[0] += value - self[0]
        super().__setitem__(i, value)


class _Unmapped:
    """The unbatched tensors the function gets or reaches (jacfwd's primals, a closure's or a global's tensors).

    PyTorch runs the function once per chunk (once without chunk_size), so an in-place op writes such a tensor once
    per chunk (with an unbatched value: a batched one is refused); the loop writes it once per slice, and later
    slices would read (and write again) what earlier ones wrote (x.exp_() twice is exp(exp(x))). So each slice
    starts from the values and version its chunk began with, and the chunk's last slice leaves the one write
    PyTorch's call makes. (Tensors requiring grad keep their writes: their graphs and views' grad_fns follow the
    version; so do tensors sharing memory with a mapped input.)"""

    __slots__ = ("tensors", "first", "chunk")

    def __init__(self, func, unmapped: list, mapped: list) -> None:
        seen: dict = {}
        mapped = [a._data for a in mapped if isinstance(a, Tensor)]  # (their slices' writes are the batch's own)
        for t in (*unmapped, *_reached_tensors(func)):
            if (isinstance(t, Tensor) and id(t) not in seen and not t._requires_grad and not t._is_inference
                    and type(t._data) is _np.ndarray and not t.is_meta
                    and not any(_np.may_share_memory(t._data, m) for m in mapped)):
                seen[id(t)] = t
        self.tensors = list(seen.values())
        self.first = self.chunk = self._take()

    def _take(self) -> list:
        # (the array itself too: an in-place view op, transpose_ or unsqueeze_, gives the tensor another one)
        return [(t, t._data, t._data.copy(), t._version_counter[0]) for t in self.tensors]

    def before_slice(self, i: int, chunk_size: int | None) -> None:
        """Slice ``i`` starts: from the loop's start (a new pass), what the last chunk left, or its chunk's start."""
        if i == 0:
            self.chunk = self.first
        elif chunk_size is not None and i % chunk_size == 0:
            self.chunk = self._take()
            return
        for t, array, data, version in self.chunk:  # (nothing written, usually: a version check each)
            if t._version_counter[0] != version:
                if t._data is not array and _np.may_share_memory(t._data, array):
                    t._data = array   # (its shape and strides as the chunk began)
                if t._data.shape == data.shape and t._data.dtype == data.dtype:
                    _np.copyto(t._data, data)
                    t._version_counter[0] = version


def _code_values(func) -> list:
    """What a Python function's code reaches directly: its closure cells' contents and the globals it names."""
    values = []
    for cell in func.__closure__ or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:  # (an empty cell)
            pass
    values.extend(func.__globals__[n] for n in func.__code__.co_names if n in func.__globals__)
    return values


def _reached_tensors(func) -> list:
    """The tensors ``func`` reaches: its closure cells, the globals its code names, a partial's arguments (and
    what tuples, lists and dicts among them hold, and what a helper function among them reaches)."""
    values: list = []
    for _ in range(8):  # (partials of wrapped functions of ...: a few levels are plenty)
        if isinstance(func, functools.partial):
            values.extend(func.args)
            values.extend(func.keywords.values())
            func = func.func
            continue
        func = getattr(func, "__func__", func)
        if not hasattr(func, "__code__"):
            break
        values.extend(_code_values(func))
        func = getattr(func, "__wrapped__", None)
    out = []
    for _ in range(3):  # (jacfwd's tuple of primals; a dict of (tensor, flag) pairs; a helper's closure)
        nested = []
        for v in values:
            if isinstance(v, (tuple, list)):
                nested.extend(v)
            elif isinstance(v, dict):
                nested.extend(v.values())
            elif isinstance(v, Tensor):
                out.append(v)
            elif isinstance(v, types.FunctionType):   # (a function it calls: its closure, the globals it names)
                nested.extend(_code_values(v))
        values = nested
    out.extend(v for v in values if isinstance(v, Tensor))
    return out


class _Gather(BaseException):
    """A slice reached a custom Function's vmap rule whose batched result is not known yet: its call stops here
    (a BaseException, so that the user's ``except Exception`` lets it through) and the loop goes on to the next."""

    def __init__(self, rules) -> None:
        self.rules = rules


_RULES = PerThreadList()  # one _RuleCalls per running vmap in this thread, outermost first (index = vmap level)


class _RuleCalls:
    """The custom ``autograd.Function`` vmap rules one running vmap has met.

    PyTorch's vmap calls a Function's ``vmap`` staticmethod once, with the whole batch and the batch dims
    (``in_dims``), and hands ``func`` the result's examples. A loop over slices cannot do that in one go: the first
    pass stops each slice at the rule call (``_Gather``) and keeps its arguments, the rule runs once on them
    stacked, and the next pass runs the slices again, each taking its example of the rule's result there (and
    stopping at the next rule call, if any). So ``func`` runs once per slice and per rule call, the rule once
    (once per chunk with ``chunk_size``, as PyTorch calls ``func`` once per chunk).
    """

    def __init__(self, batch_size: int, randomness: str, flat_args: list, flat_in_dims: list) -> None:
        self.batch_size, self.randomness = batch_size, randomness
        self.flat_args, self.flat_in_dims = flat_args, flat_in_dims
        self.results: list = []  # per rule call of a slice, in order: (inputs given, flat outputs, out dims, spec,
        # the inputs it changed, what the rule printed)
        self.pending: dict = {}  # slice index -> (arguments of the rule call it stopped at, its slices of inputs)
        self.slice, self.calls, self.flat = 0, 0, []
        self.chunk = None  # vmap's chunk_size: PyTorch calls func, and so the rule, once per chunk
        self.cls = None  # the Function whose rule call the slices stopped at
        self.grad_enabled = True  # the grad mode at that call

    def start_slice(self, i: int, flat: list) -> None:
        self.slice, self.calls, self.flat = i, 0, flat

    def apply(self, cls, args: tuple, recorded: bool = False):
        """The running slice's example of the ``calls``-th rule call's result (or a stop to gather it);
        ``recorded``: Function.apply records its own node with it (transforms inside the vmap)."""
        k = self.calls
        self.calls += 1
        if k < len(self.results):
            return self._example(k, args, recorded)
        self.pending[self.slice] = (args, self.flat)
        self.cls = cls
        self.grad_enabled = is_grad_enabled()  # (a call in a backward pass without create_graph: off)
        raise _Gather(self)

    def call_rule(self, func) -> None:
        """Run the rule of the call the slices stopped at, once (once per chunk with chunk_size, as PyTorch runs
        the function once per chunk), on their arguments batched."""
        if len(self.pending) != self.batch_size:
            raise RuntimeError(f"vmap({_name(func)}): the slices reached a custom autograd.Function a different "
                               "number of times (minigrad's vmap runs the function once per slice)")
        chunk = self.chunk or self.batch_size
        try:
            self.results.append([self._call_rule(start, min(chunk, self.batch_size - start))
                                 for start in range(0, self.batch_size, chunk)])
        finally:
            self.pending = {}

    def _call_rule(self, start: int, size: int) -> tuple:
        """The rule run on slices ``start`` to ``start + size``: what ``_example`` needs of its result."""
        cls, level = self.cls, _RULES.index(self)
        bit = 1 << level
        per_slice = [self.pending[i][0] for i in range(start, start + size)]
        batched, in_dims, stacked_at = [], [], set()
        for p, arg in enumerate(per_slice[0]):
            if not (isinstance(arg, Tensor) and _batched.levels(arg) & bit):
                batched.append(arg)
                in_dims.append(None)
                continue
            # a slice handed to func as it is: the input it came from (the chunk's part of it), with its batch dim
            # where the user put it
            where = [next((j for j, a in enumerate(self.pending[i][1]) if a is per_slice[i - start][p]), None)
                     for i in range(start, start + size)]
            if where[0] is not None and all(w == where[0] for w in where):
                whole, d = self.flat_args[where[0]], self.flat_in_dims[where[0]]
                batched.append(whole if size == self.batch_size else whole.narrow(d, start, size))
                in_dims.append(d)
                continue
            stacked = stack([args[p] for args in per_slice])  # (a value computed per slice: batch dim first)
            _batched.set_levels(stacked, _batched.levels(stacked) & ~bit)
            stacked_at.add(p)
            batched.append(stacked)
            in_dims.append(0)
        if _batched.SIZES[level] == 0:  # (a batch of no examples: the rule sees none, not the loop's stand-in)
            size, batched = 0, [b if d is None else b.narrow(d, 0, 0) for b, d in zip(batched, in_dims)]
        versions = {p: batched[p]._version_counter[0] for p in stacked_at}
        # the rule runs at the level below this vmap: its tensors are not batched here, nor are Functions it calls
        in_vmap, _matmul.IN_VMAP[0] = _matmul.IN_VMAP[0], level
        # What the rule prints is held, and printed where the function's one call in PyTorch reaches the rule: by the
        # first slice, in the last pass (_example), after what the function printed before the call.
        printed, stdout = io.StringIO(), sys.stdout
        sys.stdout = _ThisThread(printed, stdout)
        try:
            # in the grad mode of its call site, as PyTorch's rule runs there: under no_grad its result records
            # nothing (else the stacked slices' graph would leak into, say, a backward pass's gradients)
            with set_grad_enabled(self.grad_enabled):
                result = cls.vmap(VmapInfo(size, self.randomness), tuple(in_dims), *batched)
        except BaseException:
            _PRINTS[level].text.write(printed.getvalue())  # (after the pass's text so far, as PyTorch printed it)
            raise
        finally:
            sys.stdout = stdout
            _matmul.IN_VMAP[0] = in_vmap
        base = ("Expected the vmap staticmethod to have two returns, an output and out_dims with pytree structure "
                "compatible with the output. ")
        if not isinstance(result, tuple):
            raise RuntimeError(base + f"Got a {type(result)} instead")
        if len(result) != 2:
            raise RuntimeError(base + f"Got {len(result)} returns instead")
        output, out_dims = result
        flat_out, spec = tree_flatten(output)
        flat_dims = broadcast_to_and_flatten(out_dims, spec)
        if flat_dims is None:
            raise RuntimeError(f"The autograd.Function's vmap staticmethod returned an incompatible (output, out_dims) "
                               f"tuple. Expected out_dims={out_dims} to be compatible with the structure of `output`. "
                               f"out_dims has structure {tree_flatten(out_dims)[1]} but output has structure {spec}. "
                               "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html")
        # the stacks the rule changed in place (a mark_dirty Function bumps their versions)
        changed = {p for p in stacked_at if batched[p]._version_counter[0] != versions[p]}
        return batched, flat_out, flat_dims, spec, changed, printed.getvalue()

    def _example(self, k: int, args: tuple, recorded: bool):
        chunk = self.chunk or self.batch_size
        batched, flat_out, flat_dims, spec, changed, printed = self.results[k][self.slice // chunk]
        i = self.slice % chunk  # (the slice's example in its chunk's result)
        sys.stdout.write(printed)  # (what the rule printed: kept by the first slice (of its chunk), see _Prints)
        bit = 1 << _RULES.index(self)
        examples = []
        for out, d in zip(flat_out, flat_dims):
            same = next((p for p, b in enumerate(batched) if b is out), None) if isinstance(out, Tensor) else None
            if same is not None and same in changed and d is not None:
                # The rule got a stack of the slices' values, not their memory, and changed it in place (a
                # mark_dirty Function): this slice's tensor takes the new values, as PyTorch's rule changed it.
                # Unless Function.apply records the in-place node itself, the example is the stack's slice,
                # whose graph goes through the rule's in-place node.
                if out.shape[d]:  # (none over a batch of no examples)
                    args[same]._data[...] = out._data.take(i, axis=d)
                if not recorded:  # (else Function.apply's mark_dirty bumps it)
                    args[same]._version_counter[0] += 1
                if recorded:  # (batched now, whatever it was)
                    _batched.set_levels(args[same], _batched.levels(args[same]) | bit)
                    examples.append(args[same])
                    continue
                example = _row(out, d, i)
                _batched.set_levels(example, _batched.levels(out) | bit)
                examples.append(example)
            elif same is not None:  # an input given back: the Function's own input (PyTorch's identity check first)
                examples.append(args[same])
            elif not isinstance(out, Tensor) or d is None:
                examples.append(out)
            else:
                example = _row(out, d, i)
                _batched.set_levels(example, _batched.levels(out) | bit)
                examples.append(example)
        return tree_unflatten(examples, spec)


def _row(out: Tensor, d: int, i: int) -> Tensor:
    """Example ``i`` of a rule's result ``out`` (batch dim ``d``); zeros over a batch of no examples, where the
    loop's stand-in example needs a value and none of its rows is kept."""
    if out.shape[d]:
        return out.select(d, i)
    d %= out.dim()
    return out.new_zeros(tuple(out.shape[:d]) + tuple(out.shape[d + 1:]))


def custom_function_rule(cls, args: tuple):
    """``cls.apply(*args)`` inside vmap for a Function with its own ``vmap`` staticmethod: (this slice's example
    of the rule's result (see ``_RuleCalls``), None when that is the call's result or else how many transforms
    inside the vmap wrap the call: Function.apply records its node with the example as forward's output), or None
    where forward runs on each slice instead (no input batched at a running vmap)."""
    from ..autograd.function import _TRANSFORMS_ACTIVE
    mask = _batched.levels_of(*(a for a in args if isinstance(a, Tensor)))
    level = mask.bit_length() - 1  # the innermost vmap the inputs are batched at handles the call
    if level < 0 or level >= len(_RULES):
        return None
    inside = _TRANSFORMS_ACTIVE[0] - _batched._TRANSFORMS_AT_ENTER[level]
    return _RULES[level].apply(cls, args, inside > 0), (None if inside <= 0 else inside - 1)


class _Randomness:
    """The ``randomness`` flag, enforced on the default generator around each slice's call."""

    def __init__(self, mode: str) -> None:
        # (the default generator, or an outer "same" vmap's replay of it, where this one runs)
        self.mode, self.gen, self.outer = mode, _random.gen(None), _batched.REPLAY[0]
        self.start = None if mode == "different" else self.gen.get_state()
        self.first = self.start if self.start is not None else self.gen.get_state()
        self.replay, self.replay_all = None, False
        # (the enclosing vmap's slice state, put back at the end)
        self.outer_slice = _batched.SLICE_DRAWS[0], _batched.LATER_SLICE[0], _batched.REFUSED_AT[0]

    def restart(self) -> None:
        """Another pass over the slices (after a custom Function's vmap rule): they draw the same numbers again."""
        if self.mode == "same":
            self.replay_all = True   # (the first slice replays its draws too)
        else:
            self.gen.set_state(self.first)

    def before_slice(self, i: int) -> None:
        self.draws = _batched.SLICE_DRAWS[0] = _batched.DRAWS[0]
        _batched.REFUSED_AT[0] = None
        _batched.LATER_SLICE[0] = self.outer_slice[1] or i > 0
        if self.mode == "same":
            # PyTorch calls func once: the first slice draws from the generator, the others replay those draws on
            # this thread's copy of its state then (_batched.REPLAY), so another thread's draws meanwhile stay
            if i or self.replay_all:
                if self.replay is None:
                    self.replay = self.gen.clone_state()
                self.replay.set_state(self.start)
                _batched.REPLAY[0] = self.replay
            for g, state in _batched.GENERATORS[-1].values():   # (the generators given to random ops: restarted)
                g.set_state(state)

    def refusal(self) -> RuntimeError | None:
        """PyTorch's error if the slice drew random numbers in "error" mode (the generator then put back), else None."""
        # PyTorch raises at the random op itself; a loop sees it afterwards, as a draw of this thread from the
        # generator (another thread's draws meanwhile are no vmap's)
        if self.mode == "error" and _batched.DRAWS[0] != self.draws:
            # PyTorch raises before drawing: the generator is as it was then (seeded by the function, maybe)
            self.gen.set_state(self.start if _batched.REFUSED_AT[0] is None else _batched.REFUSED_AT[0])
            return RuntimeError(_batched.RANDOM_IN_ERROR_MODE)
        return None

    def after_slice(self) -> None:
        if (error := self.refusal()) is not None:
            raise error

    def end(self) -> None:
        _batched.REPLAY[0] = self.outer
        _batched.SLICE_DRAWS[0], _batched.LATER_SLICE[0], _batched.REFUSED_AT[0] = self.outer_slice


def _check_out_dims(out_dims, func) -> None:
    if isinstance(out_dims, int):
        return
    for d in tree_flatten(out_dims)[0]:
        if not (d is None or isinstance(d, int)):
            raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a "
                             "python collection of ints representing where in the outputs the vmapped dimension "
                             "should appear.")


def _process_inputs(in_dims, args: tuple, func):
    """(batch size, one in_dim per flat argument, the flat arguments, their structure), with PyTorch's checks."""
    where = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if len(args) == 0:
        raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                         "trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = broadcast_to_and_flatten(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has structure "
                         f"{tree_flatten(in_dims)[1]} but inputs has structure {args_spec}.")
    for i, (arg, d) in enumerate(zip(flat_args, flat_in_dims)):
        if not isinstance(d, int) and d is not None:
            raise ValueError(f"{where}: Got in_dim={d} for an input but in_dim must be either an integer dimension "
                             "or None.")
        if isinstance(d, int) and not isinstance(arg, Tensor):
            raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of type {type(arg)}. We cannot "
                             "vmap over non-Tensor arguments, please use None as the respective in_dim")
        if d is not None and not -arg.dim() <= d < arg.dim():
            raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is a Tensor of dimensionality "
                             f"{arg.dim()} so expected in_dim to satisfy -{arg.dim()} <= in_dim < {arg.dim()}.")
        if d is not None and d < 0:
            flat_in_dims[i] = d % arg.dim()
    sizes = [arg.size(d) for arg, d in zip(flat_args, flat_in_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0], flat_in_dims, flat_args, args_spec


def _stack_outputs(outputs: list, out_dims, func, batched: set = frozenset()):
    """One output pytree: every leaf's per-slice values stacked at its out_dim (``batched``: the positions of the
    flat outputs that depend on the mapped inputs)."""
    flat_first, spec = tree_flatten(outputs[0])
    incompatible = ValueError(
        f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the structure of "
        f"`outputs`. out_dims has structure {tree_flatten(out_dims)[1]} but outputs has structure {spec}.")
    if isinstance(outputs[0], Tensor):  # PyTorch's special case: a lone tensor takes out_dims=(d,) too
        if isinstance(out_dims, tuple) and len(out_dims) != 1 or not isinstance(out_dims, (int, tuple, type(None))):
            raise incompatible
        flat_out_dims = list(out_dims) if isinstance(out_dims, tuple) else [out_dims]
    else:
        flat_out_dims = broadcast_to_and_flatten(out_dims, spec)
        if flat_out_dims is None:
            raise incompatible
    per_slice = [tree_flatten(o)[0] for o in outputs]
    name = _name(func)
    result = []
    for j, d in enumerate(flat_out_dims):
        values = [flat[j] for flat in per_slice]
        if d is None:
            # Unbatched output: PyTorch errors if it depends on the mapped inputs (_vmap_batched's marks; a
            # result made outside the marked ops shows it by its effect: the slices disagree).
            if isinstance(values[0], Tensor) and (j in batched or any(not _same(values[0], v) for v in values[1:])):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            result.append(values[0])
            continue
        if not isinstance(values[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(values[0])}. "
                             "Did you mean to set out_dims= to None for output?")
        if 0 <= d <= values[0].dim() and j not in batched and all(_same(values[0], v) for v in values[1:]):
            # An unbatched output: PyTorch inserts the batch size at out_dim into its sizes and expands it (a
            # stride-0 view; an expand error where the sizes do not line up, e.g. [3, 4] -> [3, B, 4]).
            # (A negative out_dim, or one past the end, reads outside the sizes there: no expand to copy.)
            sizes = list(values[0].shape)
            sizes.insert(d, len(values))
            result.append(values[0].expand(sizes))
            continue
        result.append(stack(values, d))
    return tree_unflatten(result, spec)


def _harmless_example(a: Tensor, d: int) -> Tensor:
    """One example for a batch of none (size 1 at dim ``d``), with values no op refuses: PyTorch's call sees no values
    at all. Identity matrices for square matrices (inv, cholesky, solve), ones for other floats (log, 1/x,
    multinomial), zeros for integers and bools (valid indices)."""
    shape = a.shape[:d] + a.shape[d + 1:]
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        return a.new_zeros(shape).unsqueeze(d)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        return eye(shape[-1], dtype=a.dtype).expand(shape).contiguous().unsqueeze(d)
    return a.new_ones(shape).unsqueeze(d)


def _no_rows(out, out_dims):
    """``out`` (vmap's result for one example) with its batch dims narrowed to size 0."""
    flat, spec = tree_flatten(out)
    dims = [out_dims] * len(flat) if isinstance(out_dims, int) or out_dims is None \
        else list(out_dims) if isinstance(out, Tensor) else broadcast_to_and_flatten(out_dims, spec)
    return tree_unflatten([o.narrow(d, 0, 0) if isinstance(o, Tensor) and d is not None else o
                           for o, d in zip(flat, dims)], spec)


def _same(a: Tensor, b) -> bool:
    return a is b or (isinstance(b, Tensor) and a.shape == b.shape and bool((a == b).all()))
