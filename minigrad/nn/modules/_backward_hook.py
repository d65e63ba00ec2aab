"""Module backward hooks: identity nodes around a module's inputs and outputs catch their gradients.

Like PyTorch's ``torch.utils.hooks.BackwardHook``: the outputs pass through a ``BackwardHookFunction``
whose node records the gradients arriving from above (and lets backward pre-hooks replace them); the
inputs pass through another one whose node, once the input gradients are computed, calls the user hooks
with ``(module, grad_input, grad_output)``.
"""
from __future__ import annotations

import warnings

from ..._tensor import Tensor
from ...autograd.function import Function
from ...autograd.grad_mode import is_grad_enabled


class BackwardHookFunction(Function):
    """Identity on tensors; its node is where a module's gradients are caught."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


def _pack_with_none(indices, values, size: int) -> tuple:
    res = [None] * size
    for idx, val in zip(indices, values):
        res[idx] = val
    return tuple(res)


class BackwardHook:
    """Calls a module's full backward (pre-)hooks for one forward call."""

    def __init__(self, module, user_hooks: list, user_pre_hooks: list) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index = self.output_tensors_index = None

    def _apply_on_tensors(self, fn, args: tuple):
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in idx]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        new = BackwardHookFunction.apply(*tensors)
        fn(next(t.grad_fn for t in new if t.grad_fn is not None))
        out = list(args)
        for i, t in zip(idx, new):
            out[i] = t
        return tuple(out), idx

    def setup_input_hook(self, args: tuple) -> tuple:
        """Route the inputs through an identity node whose post-hook calls the user hooks."""
        def hook(grad_input, _):
            if self.grad_outputs is None:  # the gradient reached the inputs without passing the outputs
                return None
            res = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return tuple(res[i] for i in self.input_tensors_index)

        res, self.input_tensors_index = self._apply_on_tensors(lambda fn: fn.register_hook(hook), args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result):
        """Route the outputs through an identity node that records (and pre-hooks may replace) their gradients."""
        def hook(_, grad_output):
            self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
            for pre_hook in self.user_pre_hooks:
                new = pre_hook(self.module, self.grad_outputs)
                if new is None:
                    continue
                if len(new) != len(self.grad_outputs):
                    raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                       f"got {len(new)}, but expected {len(self.grad_outputs)}")
                self.grad_outputs = new
            local = self.grad_outputs
            if self.input_tensors_index is None:  # no input needs a gradient: the hooks fire here
                warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                              "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for "
                              "more details.", stacklevel=5)
                grad_inputs = (None,) * self.n_inputs
                for user_hook in self.user_hooks:
                    res = user_hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                        raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                           "always return None or None for all gradients.")
                self.grad_outputs = None
            return tuple(local[i] for i in self.output_tensors_index)

        is_tuple = isinstance(result, tuple)
        args = result if is_tuple else (result,)
        res, self.output_tensors_index = self._apply_on_tensors(lambda fn: fn.register_hook(hook), args)
        self.n_outputs = len(args)
        return res if is_tuple else res[0]
