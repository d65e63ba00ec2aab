"""``torch._C``: the few names of PyTorch's C extension that user code reaches for (__torch_function__ switches)."""
from .overrides import (  # noqa: F401
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    _disabled_torch_function_impl,
    _is_torch_function_all_disabled,
    _is_torch_function_enabled,
    _is_torch_function_mode_enabled,
)
