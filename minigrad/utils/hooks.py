"""torch.utils.hooks: the handle every ``register_*hook`` returns, the module backward-hook helper, and the warning
pickling gives for the tensor hooks it drops."""
import warnings

from ..autograd.graph import RemovableHandle  # noqa: F401
from ..nn.modules._backward_hook import BackwardHook  # noqa: F401


def unserializable_hook(f):
    """Mark ``f`` as a hook not meant to be saved: pickling a tensor that has it gives no warning."""
    f.__torch_unserializable__ = True
    return f


def warn_if_has_hooks(tensor) -> None:
    """Warn about each of the tensor's backward hooks that pickling drops (unless marked ``unserializable_hook``)."""
    if tensor._backward_hooks:
        for hook in tensor._backward_hooks.values():
            if not hasattr(hook, "__torch_unserializable__"):
                warnings.warn(f"backward hook {hook!r} on tensor will not be serialized.  If this is expected, you "
                              "can decorate the function with @torch.utils.hooks.unserializable_hook to suppress "
                              "this warning", stacklevel=2)
