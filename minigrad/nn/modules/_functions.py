"""torch.nn.modules._functions' CrossMapLRN2d: the autograd Function behind nn.CrossMapLRN2d (Lua Torch's LRN).

A port of PyTorch's Python Function, step for step: the same float operations in the same order (so the same
bits), and the same in-place / ``out=`` writes, so what a user can observe matches too: the output is written
four times (resize_as_, pow(out=), pow(out=), mul_: its ``_version`` is 4), and a backward with
``create_graph=True`` fails as PyTorch's does (``torch.mul(..., out=)`` with the saved output, which requires
grad: "functions with out=... arguments don't support automatic differentiation").

The scale of channel c is k + α/size · (sum of the squares of the channels in a window around c), kept as a
running sum (add the channel entering the window, subtract the one leaving it); the output is
x · scale^(-β). Its backward is written out by hand, as PyTorch's is.
"""
from __future__ import annotations

from ..._tensor import Tensor
from ...autograd.function import Function


def _torch():
    """The minigrad package (its top-level pow / mul / sum with ``out=``), imported when first called."""
    import minigrad
    return minigrad


class CrossMapLRN2d(Function):
    """Local response normalization across channels of an (N, C, H, W) input."""

    @staticmethod
    def forward(ctx, input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> Tensor:
        torch = _torch()
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        ctx.scale = None
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        ctx.scale = ctx.scale or input.new()
        output = input.new()
        channels = input.size(1)
        output.resize_as_(input)
        ctx.scale.resize_as_(input)
        input_square = output   # (the output's storage is the buffer of the squares)
        torch.pow(input, 2, out=input_square)
        pre_pad = int((size - 1) / 2 + 1)
        pre_pad_crop = min(pre_pad, channels)
        scale_first = ctx.scale.select(1, 0)
        scale_first.zero_()
        for c in range(pre_pad_crop):   # the first channel's window
            scale_first.add_(input_square.select(1, c))
        for c in range(1, channels):   # slide the window: add the channel entering, subtract the one leaving
            scale_previous = ctx.scale.select(1, c - 1)
            scale_current = ctx.scale.select(1, c)
            scale_current.copy_(scale_previous)
            if c < channels - pre_pad + 1:
                scale_current.add_(input_square.select(1, c + pre_pad - 1), alpha=1)
            if c > pre_pad:
                scale_current.add_(input_square.select(1, c - pre_pad), alpha=-1)
        ctx.scale.mul_(ctx.alpha / ctx.size).add_(ctx.k)
        torch.pow(ctx.scale, -ctx.beta, out=output)
        output.mul_(input)
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output: Tensor):
        torch = _torch()
        input, output = ctx.saved_tensors
        grad_input = grad_output.new()
        batch_size, channels, input_height, input_width = (input.size(d) for d in range(4))
        paddded_ratio = input.new(channels + ctx.size - 1, input_height, input_width)
        accum_ratio = input.new(input_height, input_width)
        cache_ratio_value = 2 * ctx.alpha * ctx.beta / ctx.size
        inverse_pre_pad = int(ctx.size - (ctx.size - 1) / 2)
        grad_input.resize_as_(input)
        torch.pow(ctx.scale, -ctx.beta, out=grad_input).mul_(grad_output)
        paddded_ratio.zero_()
        padded_ratio_center = paddded_ratio.narrow(0, inverse_pre_pad, channels)
        for n in range(batch_size):
            # (under create_graph the saved output requires grad: this out= call raises, as PyTorch's does)
            torch.mul(grad_output[n], output[n], out=padded_ratio_center)
            padded_ratio_center.div_(ctx.scale[n])
            torch.sum(paddded_ratio.narrow(0, 0, ctx.size - 1), 0, keepdim=False, out=accum_ratio)
            for c in range(channels):
                accum_ratio.add_(paddded_ratio[c + ctx.size - 1])
                grad_input[n][c].addcmul_(input[n][c], accum_ratio, value=-cache_ratio_value)
                accum_ratio.add_(paddded_ratio[c], alpha=-1)
        return grad_input, None, None, None, None
