"""LazyModuleMixin (torch.nn.modules.lazy): modules whose parameter shapes come from their first input.

As PyTorch's: a lazy module registers two hooks when built, a forward pre-hook (``_infer_parameters``: give the
placeholders their shapes from the first input, then remove both hooks and become ``cls_to_become``) and a
load_state_dict pre-hook (``_lazy_load_hook``: loading a state dict gives placeholders the saved shapes).
Subclasses define ``initialize_parameters(input)``; one whose ``__init__`` bypasses the mixin's (the lazy
convolutions call their base class's directly) calls ``_register_lazy_hooks()`` itself.
"""
from __future__ import annotations

import itertools

from ..._class_names import TorchNamed
from ...autograd.grad_mode import no_grad
from ..parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin(metaclass=TorchNamed):
    """What lazy modules share: the two hooks and the switch to ``cls_to_become`` once initialised."""

    cls_to_become: type | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._register_lazy_hooks()

    def _register_lazy_hooks(self) -> None:
        """PyTorch's LazyModuleMixin.__init__ tail (the same two handles, in the same order)."""
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs) -> None:
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                input_param = state_dict[key]
                if is_lazy(param) and not is_lazy(input_param):   # the saved tensor gives the shape
                    with no_grad():
                        param.materialize(input_param.shape)

    def initialize_parameters(self, *args, **kwargs) -> None:
        """Give the placeholders their shapes from the input (each lazy module defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer still waits for its shape."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None) -> None:
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become
