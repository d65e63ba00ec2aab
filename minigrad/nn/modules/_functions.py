"""torch.nn.modules._functions' CrossMapLRN2d: the autograd Function behind nn.CrossMapLRN2d (Lua Torch's LRN).

A port of PyTorch's Python Function, step for step (the same float operations in the same order, so the same
bits): the scale of channel c is k + α/size · (sum of the squares of the channels in a window around c),
kept as a running sum (add the channel entering the window, subtract the one leaving it); the output is
x · scale^(-β). Its backward is written out by hand, as PyTorch's is.
"""
from __future__ import annotations

from ... import _creation
from ..._tensor import Tensor
from ...autograd.function import Function


class CrossMapLRN2d(Function):
    """Local response normalization across channels of an (N, C, H, W) input."""

    @staticmethod
    def forward(ctx, input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> Tensor:
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        channels = input.size(1)
        input_square = input.pow(2)
        pre_pad = int((size - 1) / 2 + 1)
        pre_pad_crop = min(pre_pad, channels)
        scale = _creation.zeros_like(input)
        for c in range(pre_pad_crop):   # the first channel's window
            scale[:, 0] += input_square[:, c]
        for c in range(1, channels):   # slide the window: add the channel entering, subtract the one leaving
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += input_square[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= input_square[:, c - pre_pad]
        scale = scale.mul(alpha / size).add(k)
        ctx.scale = scale
        output = scale.pow(-beta).mul(input)
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output: Tensor):
        input, output = ctx.saved_tensors
        batch_size, channels, input_height, input_width = input.shape
        paddded_ratio = input.new_zeros(channels + ctx.size - 1, input_height, input_width)
        cache_ratio_value = 2 * ctx.alpha * ctx.beta / ctx.size
        inverse_pre_pad = int(ctx.size - (ctx.size - 1) / 2)
        grad_input = ctx.scale.pow(-ctx.beta).mul(grad_output)
        for n in range(batch_size):
            paddded_ratio[inverse_pre_pad:inverse_pre_pad + channels] = grad_output[n].mul(output[n]).div(ctx.scale[n])
            accum_ratio = paddded_ratio[:ctx.size - 1].sum(0)
            for c in range(channels):
                accum_ratio = accum_ratio.add(paddded_ratio[c + ctx.size - 1])
                grad_input[n][c] = grad_input[n][c].addcmul(input[n][c], accum_ratio, value=-cache_ratio_value)
                accum_ratio = accum_ratio.add(paddded_ratio[c], alpha=-1)
        return grad_input, None, None, None, None
