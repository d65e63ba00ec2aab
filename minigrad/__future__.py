"""torch.__future__: opt-in flags for how ``nn.Module`` conversions (``.to``, ``.double()`` ...) treat parameters."""
_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Make module conversions assign new Parameters instead of changing the existing ones through ``.data``."""
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    """Whether module conversions assign new Parameters (default False)."""
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Make module conversions swap the converted tensors into the existing Parameters (``torch.utils.swap_tensors``);
    takes precedence over the overwrite flag."""
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    """Whether module conversions swap tensors into the existing Parameters (default False)."""
    return _swap_module_params_on_conversion
