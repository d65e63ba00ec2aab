"""Activation checkpointing (torch.utils.checkpoint): keep a block's inputs, recompute the rest in backward.

Two ways, as in PyTorch (``use_reentrant`` chooses; PyTorch warns when it is not given and then takes True):

- reentrant: the block runs under ``no_grad`` inside a custom Function (``CheckpointFunctionBackward``);
  its backward reruns the block with grad on and calls ``backward`` on that little graph (a backward
  inside a backward: hence "reentrant"). It cannot serve ``autograd.grad`` or ``backward(inputs=...)``.
- non-reentrant: the block runs normally, so its outputs have their usual ``grad_fn`` (``MulBackward0``
  ...), but every tensor its nodes save goes through saved-tensor hooks that keep only a placeholder.
  The first time backward needs one, the block is rerun (with the forward's random state) and the
  recomputed tensors fill the placeholders.
"""
from __future__ import annotations

import contextlib
import itertools
import warnings
import weakref
from collections import defaultdict

from .. import _creation
from .._class_names import TorchNamed
from .._tensor import Tensor
from ..amp import autocast_mode
from ..amp.autocast_mode import autocast
from ..autograd import engine, grad_mode
from ..autograd.function import Function
from ..autograd.graph import SavedTensor, saved_tensors_hooks

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction", "check_backward_validity",
           "detach_variable", "get_device_states", "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "DefaultDeviceType", "set_checkpoint_debug_enabled"]

_DEFAULT_DETERMINISM_MODE = "default"


def noop_context_fn():
    """The default ``context_fn``: no context around the forward nor the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant: bool | None = None, context_fn=noop_context_fn,
               determinism_check: str = _DEFAULT_DETERMINISM_MODE, debug: bool = False, early_stop: bool = True,
               **kwargs):
    """``function(*args, **kwargs)``, keeping only its inputs for backward, which recomputes the rest."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch "
            "2.9, calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default behavior, you can pass "
            "use_reentrant=True. Refer to docs for more details on the differences between the two variants.",
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check, early_stop, args, kwargs)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None, **kwargs):
    """Run ``functions`` (a list or an nn.Sequential) in ``segments`` pieces, checkpointing all but the last."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed explicitly. "
            "In version 2.9 we will raise an exception if use_reentrant is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default behavior, you can pass "
            "use_reentrant=True. Refer to docs for more details on the differences between the two variants.",
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)


def detach_variable(inputs: tuple) -> tuple:
    """The tensors of ``inputs`` detached, each keeping its requires_grad (other values as they are)."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs) -> None:
    """Warn when no input tensor requires grad (the checkpointed block then gets no gradient)."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


class _ForkedRng:
    """Run a block with the CPU generator set to ``state``, then put back the state it had before."""

    def __init__(self, state, enabled: bool) -> None:
        self.state, self.enabled = state, enabled

    def __enter__(self):
        if self.enabled:
            self.saved = _creation.get_rng_state()
            _creation.set_rng_state(self.state)

    def __exit__(self, *exc) -> None:
        if self.enabled:
            _creation.set_rng_state(self.saved)


# =============================================================================================
# Reentrant: a custom Function whose backward reruns the block and backpropagates through it
# =============================================================================================

def _cpu_autocast_kwargs() -> dict:
    """The CPU autocast state of the forward: the recomputation in backward runs under the same."""
    return {"enabled": autocast_mode.is_autocast_enabled("cpu"), "dtype": autocast_mode.get_autocast_dtype("cpu"),
            "cache_enabled": autocast_mode.is_autocast_cache_enabled()}


def _is_checkpoint_valid() -> bool:
    """False inside ``autograd.grad`` or ``backward(inputs=...)``: a nested backward could not fill their results."""
    tasks = engine.graph_tasks()
    return not tasks or tasks[-1][3] is None


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without a graph, backward by recomputing (CheckpointFunctionBackward)."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        """Run the block without recording; keep its tensor inputs (and the random state) for backward."""
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = _creation.get_rng_state()
        ctx.cpu_autocast_kwargs = _cpu_autocast_kwargs()
        ctx.inputs, ctx.tensor_indices, tensor_inputs = [], [], []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        """Rerun the block with grad on (same random state) and backpropagate ``args`` through it."""
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing an `inputs` "
                "parameter to .backward(). To resolve this error, you can either set use_reentrant=False, or call "
                ".backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        with _ForkedRng(getattr(ctx, "fwd_cpu_state", None), ctx.preserve_rng_state):
            detached_inputs = detach_variable(tuple(inputs))
            with grad_mode.enable_grad(), autocast("cpu", **ctx.cpu_autocast_kwargs):
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        outputs_with_grad, args_with_grad = [], []
        for out, grad in zip(outputs, args):
            if isinstance(out, Tensor) and out.requires_grad:
                outputs_with_grad.append(out)
                args_with_grad.append(grad)
        if not outputs_with_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        from ..autograd import backward
        backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


# =============================================================================================
# Non-reentrant: saved-tensor hooks keep placeholders, the first unpack recomputes the block
# =============================================================================================

class CheckpointError(RuntimeError, metaclass=TorchNamed):
    """Raised when the recomputation does not save the same tensors as the forward did."""


class _StopRecomputation(Exception):
    """Raised inside the recomputation once every tensor still needed is recomputed (early stop)."""


class _Handle:
    """A key for one recomputed tensor (one per placeholder and backward)."""


class _Holder:
    """The placeholder a node keeps instead of a saved tensor: its handle for each backward that recomputed it."""

    def __init__(self) -> None:
        self.handles: dict = {}


class _Frame:
    """One checkpointed call: its inputs, its placeholders, and what each backward recomputed."""

    def __init__(self, recompute_fn, early_stop: bool, metadata_fn) -> None:
        self.recompute_fn = recompute_fn
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.saved_args: list = []
        self.weak_holders: list = []     # placeholders in save order (weakly: they die with the graph)
        self.x_metadatas: list = []      # (shape, dtype, device) of each tensor saved in the forward
        self.recomputed: defaultdict = defaultdict(weakref.WeakKeyDictionary)  # backward id -> handle -> tensor
        self.recomp_counter: defaultdict = defaultdict(int)
        self.is_recomputed: defaultdict = defaultdict(bool)
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, args) -> None:
        self.saved_args = [SavedTensor(a) if isinstance(a, Tensor) else a for a in args]

    def get_inputs(self) -> list:
        # (PyTorch's SavedTensor.unpack() has no node to fall back on: an input detached in place since is refused,
        # as a backward formula refuses it)
        return [a.unpack(in_backward=True) if isinstance(a, SavedTensor) else a for a in self.saved_args]

    def check_recomputed_tensors_match(self, gid) -> None:
        """PyTorch's checks that the recomputation saved as many tensors, of the same metadata, as the forward."""
        if self.ignore_saved_mismatch:
            return
        if len(self.weak_holders) != self.recomp_counter[gid]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward and "
                f"recomputation.\nNumber of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter[gid]}.\n{_DEBUG_TIP}")
        different = []
        for idx, weak_holder in enumerate(self.weak_holders):
            holder = weak_holder()
            if holder is None:
                continue
            recomputed = self.metadata_fn(self.recomputed[gid][holder.handles[gid]])
            if self.x_metadatas[idx] != recomputed:
                different.append((idx, self.x_metadatas[idx], recomputed))
        if different:
            text = "".join(f"tensor at position {i}:\nsaved metadata: {saved}\nrecomputed metadata: {new}\n"
                           for i, saved, new in different)
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following tensors have different "
                                  f"metadata than during the forward pass.\n{text}.\n{_DEBUG_TIP}")


_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def _default_meta_extractor(x: Tensor) -> dict:
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_DETERMINISM_CHECKS = {_DEFAULT_DETERMINISM_MODE: _default_meta_extractor, "none": lambda _: None}
_outside_backward_ids = itertools.count()


def _current_graph_task_id():
    """The running backward's id; outside backward (reading ``node._saved_result``) a fresh one each time."""
    tasks = engine.graph_tasks()
    if tasks:
        return tasks[-1][0]
    return ("outside backward", next(_outside_backward_ids))


def _checkpoint_hooks(frame: _Frame) -> saved_tensors_hooks:
    """The hooks of the forward: each saved tensor becomes a placeholder; unpacking one recomputes."""
    def pack_hook(x):
        holder = _Holder()
        frame.weak_holders.append(weakref.ref(holder))
        if frame.metadata_fn is not None:
            with grad_mode.no_grad():
                frame.x_metadatas.append(frame.metadata_fn(x))
        return holder

    def unpack_hook(holder):
        gid = _current_graph_task_id()
        if not frame.is_recomputed[gid]:
            args = frame.get_inputs()
            try:
                with _recomputation_hooks(weakref.ref(frame), gid), grad_mode.enable_grad():
                    frame.recompute_fn(*args)
            except _StopRecomputation:
                pass
            frame.is_recomputed[gid] = True
            frame.check_recomputed_tensors_match(gid)
        if holder.handles[gid] is None:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked once. If "
                "you are calling ctx.saved_tensors in backward, make sure to do so only once. Otherwise please open "
                "an issue with details on your use case.")
        result = frame.recomputed[gid][holder.handles[gid]]
        holder.handles[gid] = None
        return result

    return saved_tensors_hooks(pack_hook, unpack_hook)


def _recomputation_hooks(frame_ref, gid) -> saved_tensors_hooks:
    """The hooks of a recomputation: the i-th tensor saved fills the forward's i-th placeholder."""
    def pack_hook(x):
        x = x.detach() if x.requires_grad else x
        frame = frame_ref()
        index = frame.recomp_counter[gid]
        frame.recomp_counter[gid] += 1
        if index >= len(frame.weak_holders):
            if not frame.forward_completed:  # (a backward inside the checkpointed block itself)
                frame.ignore_saved_mismatch = True
                return x
            raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during recomputation than "
                                  f"during the original forward pass.\n{_DEBUG_TIP}")
        holder = frame.weak_holders[index]()
        if holder is not None:  # (None: that node's saved tensors were already freed)
            holder.handles[gid] = _Handle()
            frame.recomputed[gid][holder.handles[gid]] = x
        if frame.early_stop and frame.recomp_counter[gid] == len(frame.weak_holders):
            raise _StopRecomputation
        return x

    return saved_tensors_hooks(pack_hook, lambda x: x)


_early_stop_override: list = [None]


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Whether non-reentrant checkpoints made inside stop recomputing once all needed tensors are back."""
    prev = _early_stop_override[0]
    _early_stop_override[0] = enable
    try:
        yield
    finally:
        _early_stop_override[0] = prev


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Accepted for PyTorch compatibility (minigrad's checkpoint errors carry no operator logs)."""
    yield


class DefaultDeviceType:
    """The device type whose random state checkpoints save when no input is on a device ("cpu": none here)."""

    _default_device_type: str | None = None

    @staticmethod
    def set_device_type(device: str = "cuda") -> None:
        """Set the default device type for checkpointing."""
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type() -> str:
        """The default device type for checkpointing (the accelerator's, else "cpu")."""
        if not DefaultDeviceType._default_device_type:
            DefaultDeviceType._default_device_type = "cpu"
        return DefaultDeviceType._default_device_type


def get_device_states(*args) -> tuple[list[int], list]:
    """The ids and random states of the non-CPU devices ``args``' tensors are on (none: CPU and meta only)."""
    return [], []


def set_device_states(devices, states, *, device_type=None) -> None:
    """Restore the random states ``get_device_states`` returned (nothing to do without devices)."""


def _checkpoint_without_reentrant(fn, preserve_rng_state, context_fn, determinism_check, early_stop, args, kwargs):
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, but got "
                         f"{determinism_check}")
    forward_context, recompute_context = context_fn()
    fwd_cpu_state = _creation.get_rng_state() if preserve_rng_state else None
    cpu_autocast_kwargs = _cpu_autocast_kwargs()

    def recompute_fn(*inputs) -> None:
        with _ForkedRng(fwd_cpu_state, preserve_rng_state), autocast("cpu", **cpu_autocast_kwargs), recompute_context:
            fn(*inputs, **kwargs)

    if not grad_mode.is_grad_enabled():
        return fn(*args, **kwargs)
    stop = _early_stop_override[0] if _early_stop_override[0] is not None else early_stop
    frame = _Frame(recompute_fn, stop, _DETERMINISM_CHECKS[determinism_check])
    frame.save_inputs(args)
    with _checkpoint_hooks(frame), forward_context:
        result = fn(*args, **kwargs)
    frame.forward_completed = True
    return result
