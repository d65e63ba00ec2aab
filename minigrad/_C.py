"""``torch._C``: the few names of PyTorch's C extension that user code reaches for (__torch_function__ switches)."""
from .autograd.forward_ad import _is_fwd_grad_enabled  # noqa: F401
from .autograd.forward_ad import _set_fwd_grad as _set_fwd_grad_enabled  # noqa: F401
from .autograd.function import _FunctionBase  # noqa: F401
from .autograd.grad_mode import is_grad_enabled, is_inference_mode_enabled  # noqa: F401,E402
from .autograd.variable import _LegacyVariableBase  # noqa: F401
from .overrides import (  # noqa: F401
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    _disabled_torch_function_impl,
    _is_torch_function_all_disabled,
    _is_torch_function_enabled,
    _is_torch_function_mode_enabled,
)


def _set_grad_enabled(*args, **kwargs) -> None:
    """``torch._C._set_grad_enabled(enabled)``: switch grad mode on or off (what ``set_grad_enabled`` does)."""
    from .autograd.grad_mode import _set_grad_mode
    enabled = kwargs.pop("enabled") if "enabled" in kwargs else args[0] if args else None
    if enabled is None and not args:
        raise TypeError('set_grad_enabled() missing 1 required positional arguments: "enabled"')
    if type(enabled) is not bool:
        raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                        f"{type(enabled).__name__}")
    _set_grad_mode(enabled)
from ._tensor import TensorBase  # noqa: F401,E402
