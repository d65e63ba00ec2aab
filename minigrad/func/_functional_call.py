"""``functional_call``: call a module with other tensors in place of its parameters and buffers;
``stack_module_state``: the parameters and buffers of several same-shaped models, stacked for ``vmap``."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._ops import stack
from .._tensor import Tensor
from ..nn.modules.batchnorm import _BatchNorm

__all__ = ["functional_call", "stack_module_state", "replace_all_batch_norm_modules_"]

_MISSING = object()


def functional_call(module, parameter_and_buffer_dicts, args: Any = None, kwargs: dict | None = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` with the named tensors swapped in, the module's own ones restored afterwards."""
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts: dict = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                             "ambiguous")
        tensors = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                         f"{type(parameter_and_buffer_dicts)}")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    swap = _untie(module, tensors) if tie_weights else tensors
    if strict:
        _check_keys(module, swap)
    originals: dict = {}
    try:
        for name, value in swap.items():
            originals[name] = _swap(module, name, value)
        return module(*args, **kwargs)
    finally:  # also on an exception: the module gets its own tensors back
        current = {name: _swap(module, name, value) for name, value in originals.items()}
        # a module that reassigned a swapped tensor (self.foo = self.foo + 1) hands the new one back, as in PyTorch
        tensors.update({k: current[k] for k in tensors if k in current})


def _untie(module, tensors: dict) -> dict:
    """``tensors`` plus an entry for every name tied (the same tensor) to a given one, as PyTorch does."""
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    by_tensor: dict = {}
    for name, t in named.items():
        by_tensor.setdefault(id(t), set()).add(name)
    tied = {name: names for names in by_tensor.values() if len(names) > 1 for name in names}
    given = [name for name in tensors if name in tied]
    for name in given:
        names = tied[name]
        if len(names.intersection(given)) > 1 and len({id(tensors[n]) for n in names if n in tensors}) != 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, which are tied. "
                             "Consider using tie_weights=False")
    out = dict(tensors)
    for name in given:
        for other in tied[name]:
            out[other] = tensors[name]
    return out


def _check_keys(module, tensors: dict) -> None:
    valid = {n for n, _ in module.named_parameters(remove_duplicate=False)}
    valid |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
    missing, unexpected = sorted(valid - set(tensors)), sorted(set(tensors) - valid)
    msgs = []
    if unexpected:
        msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if msgs:
        raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(module._get_name(), "\n\t".join(msgs)))


def _swap(module, name: str, value):
    """Put ``value`` at the dotted ``name`` (or remove it, for ``_MISSING``); return what was there."""
    prefix, _, attr = name.rpartition(".")
    mod = module.get_submodule(prefix)
    if value is not _MISSING and value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{value} is not an instance of torch.Tensor")
    for registry in (mod._parameters, mod._buffers):
        if attr in registry:
            old = registry[attr]
            if value is _MISSING:
                del registry[attr]
            else:
                registry[attr] = value  # straight into the registry: a plain tensor may replace a Parameter
            return old
    old = getattr(mod, attr, _MISSING)
    if value is not _MISSING:
        setattr(mod, attr, value)
    elif old is not _MISSING:
        delattr(mod, attr)
    return old


def stack_module_state(models) -> tuple[dict, dict]:
    """``(params, buffers)``: each model's tensor of every name stacked along a new dim 0 (for ``vmap``)."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors: tuple, name: str):
        grads = {t.requires_grad for t in tensors}
        if len(grads) > 1:
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        result = stack(tensors)
        return result.detach().requires_grad_() if grads == {True} else result

    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: stacked(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    buffers = {k: stacked(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def replace_all_batch_norm_modules_(root):
    """Make every batch norm in ``root`` stop tracking running statistics (in place, for ``vmap``); returns root."""
    for m in root.modules():  # (root is the first of its modules)
        if isinstance(m, _BatchNorm) and m.track_running_stats:
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None
            m.track_running_stats = False
    return root
