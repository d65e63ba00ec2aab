"""``torch.compile`` without a compiler: the same calls and wrappers, and the model runs exactly as before.

minigrad has no graph capture and no code generation, so ``torch.compile(model)`` returns a pass-through with
PyTorch's observable surface: an ``OptimizedModule`` for an ``nn.Module`` (its repr, ``_orig_mod``, attribute
forwarding, ``state_dict`` keys prefixed ``_orig_mod.``, ``train()`` / ``eval()`` mirrored on the wrapped
module) and a wrapper function for a function. Outputs are computed by the ordinary ops, so their ``grad_fn``
are the usual nodes (PyTorch's compiled outputs have one ``CompiledFunctionBackward`` node instead).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .nn.modules.module import Module

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# torch._dynamo.list_backends(exclude_tags=()): the names torch.compile(backend="...") accepts
_BACKENDS = (
    "aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref",
    "aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts", "cudagraphs",
    "dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager", "eager_debug", "eager_noexcept",
    "inductor", "invoke_subgraph", "openxla", "openxla_eval", "pre_dispatch_eager", "ts", "tvm",
)
_default_backend: list = ["inductor"]   # torch.compiler.set_default_backend changes it


class InvalidBackend(RuntimeError):
    """``torch._dynamo.exc.InvalidBackend``: ``backend=`` names no registered backend."""


class OptimizedModule(Module):
    """What ``torch.compile(module)`` returns: a module holding the original as ``_orig_mod`` and calling it."""

    _torch_name = "torch._dynamo.eval_frame.OptimizedModule"
    # Attributes of the wrapper itself; any other attribute is read from and written to the wrapped module.
    _opt_mod_attributes = frozenset({"_orig_mod", "forward", "__dict__", "_super_module_initialized"})

    def __init__(self, mod: Module) -> None:
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_super_module_initialized", False)   # Module.__init__ sets training: ignore it
        super().__init__()
        object.__setattr__(self, "_super_module_initialized", True)
        self._orig_mod = mod   # registers the child module (hence "_orig_mod." in state_dict keys)
        self.forward = mod.__call__   # "compiled" forward: the module's own call, its hooks included

    def __len__(self) -> int:
        if hasattr(type(self._orig_mod), "__len__"):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __reduce__(self):
        return (type(self), (self._orig_mod,))

    @property
    def training(self) -> bool:
        """The wrapped module's flag (one flag, so ``c.eval()`` and ``m.training`` agree)."""
        return self._orig_mod.training

    @training.setter
    def training(self, value: bool) -> None:
        if self._super_module_initialized:
            self._orig_mod.training = value

    def __getattr__(self, name: str) -> Any:
        if name == "_orig_mod":
            return self.__dict__["_modules"]["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value) -> None:
        if hasattr(type(self), name) or name in self._opt_mod_attributes:
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name: str) -> None:
        if hasattr(type(self), name) or name in self._opt_mod_attributes:
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __dir__(self) -> list:
        own = self._orig_mod.__dir__()
        return own + [attr for attr in super().__dir__() if attr not in own]


def _check_options(mode: str | None, options: dict | None, backend) -> None:
    """PyTorch's checks of the arguments, made when a model is given (not when the decorator is built)."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if backend == "inductor":
        if mode is not None and mode not in _MODES:
            raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    elif isinstance(backend, str) and backend not in _BACKENDS:
        raise InvalidBackend(f"Invalid backend: {backend!r}, see `torch._dynamo.list_backends()` for available "
                             "backends.")


_dynamo_set_up = [False]   # PyTorch patches its modules once per process (TorchPatcher.patch)


def compile(model: Callable | None = None, *, fullgraph: bool = False, dynamic: bool | None = None,
            backend: str | Callable | None = None, mode: str | None = None, options: dict | None = None,
            name: str | None = None, disable: bool = False, recompile_limit: int | None = None,
            isolate_recompiles: bool = False, shapes_spec: Any = None) -> Callable:
    """Return ``model`` wrapped as PyTorch's compiled model, but NOT compiled: it runs the ordinary ops."""
    if backend is None:
        backend = _default_backend[0]
    if model is None:   # @torch.compile(mode=...): the decorator
        def fn(model: Callable) -> Callable:
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode, options=options,
                           name=name, disable=disable, recompile_limit=recompile_limit,
                           isolate_recompiles=isolate_recompiles, shapes_spec=shapes_spec)
        return fn
    _check_options(mode, options, backend)
    if disable:
        return model
    if not _dynamo_set_up[0]:
        # PyTorch's TorchDynamo, set up by the process's first compile, turns distributions' argument checks off
        from .distributions import Distribution
        Distribution.set_default_validate_args(False)
        _dynamo_set_up[0] = True
    if isinstance(model, Module):
        return OptimizedModule(model)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)
    compiled._torchdynamo_orig_callable = model
    return compiled


# ---- torch.set_float32_matmul_precision: a setting compile tutorials make first (state only: minigrad's float32
# matrix products always compute at "highest" precision) ----

_matmul_precision = ["highest"]


def set_float32_matmul_precision(precision: str) -> None:
    """Record "highest", "high" or "medium" (PyTorch's warning and no effect for any other string)."""
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        import warnings
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect. (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:458.)", UserWarning, stacklevel=2)
        return
    _matmul_precision[0] = precision


def get_float32_matmul_precision() -> str:
    """The value set by set_float32_matmul_precision ("highest" at start)."""
    return _matmul_precision[0]
