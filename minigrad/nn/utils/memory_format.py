"""convert_conv2d/3d_weight_memory_format: store every (transposed) convolution's weight in a memory format."""
from __future__ import annotations

from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _convert(module: Module, memory_format, kinds: tuple) -> Module:
    """PyTorch's steps: a clone in the format, resized in place to its own size (which keeps the strides)."""
    if isinstance(module, kinds):
        weight_data = module.weight.detach().clone(memory_format=memory_format)
        module.weight.data = weight_data.resize_(weight_data.size(), memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module: Module, memory_format) -> Module:
    """Every Conv2d / ConvTranspose2d weight in ``module`` re-laid out in ``memory_format`` (e.g. channels_last)."""
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module: Module, memory_format) -> Module:
    """Every Conv3d / ConvTranspose3d weight in ``module`` re-laid out in ``memory_format``."""
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
