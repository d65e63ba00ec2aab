"""MultiheadAttention: softmax(Q·Kᵀ/√d + mask)·V over several heads, with input and output projections."""
from __future__ import annotations

from ... import _creation
from ..._tensor import Tensor
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import Linear
from .module import Module


def _contiguous_format():
    from ... import contiguous_format
    return contiguous_format


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear (PyTorch's name for MultiheadAttention's out_proj, which quantization leaves alone)."""

    _torch_name = "torch.nn.modules.linear.NonDynamicallyQuantizableLinear"   # type(obj) prints PyTorch's path


class MultiheadAttention(Module):
    """Attention over ``num_heads`` heads of size embed_dim/num_heads, as torch.nn.MultiheadAttention.

    Inputs are (L, N, E) (or (N, L, E) with batch_first, or unbatched (L, E)); returns (output, weights),
    the weights averaged over the heads unless ``average_attn_weights=False`` (None when not ``need_weights``).
    PyTorch's inference fast path (eval mode, no grad) runs the same composite, its output then copied to a fresh
    contiguous tensor as the fused kernel returns it.
    """

    __constants__ = ["batch_first"]
    _torch_name = "torch.nn.modules.activation.MultiheadAttention"

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device=None, dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(_creation.empty((embed_dim, embed_dim), dtype=dtype))
            self.k_proj_weight = Parameter(_creation.empty((embed_dim, self.kdim), dtype=dtype))
            self.v_proj_weight = Parameter(_creation.empty((embed_dim, self.vdim), dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(_creation.empty((3 * embed_dim, embed_dim), dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(_creation.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_creation.empty((1, 1, embed_dim), dtype=dtype))
            self.bias_v = Parameter(_creation.empty((1, 1, embed_dim), dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        # Xavier-uniform projections, zero biases, Xavier-normal key/value biases (in PyTorch's draw order)
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                need_weights: bool = True, attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple:
        float_masks = any(m is not None and m.is_floating_point() for m in (attn_mask, key_padding_mask))
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             None if attn_mask is None else attn_mask.dtype, "attn_mask",
                                             query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if not float_masks and self._takes_fast_path(query, key, value):
            # PyTorch's inference fast path (torch._native_multi_head_attention): its kernel checks the query's
            # size first and returns a fresh contiguous (N, L, E) output; the values are the composite's below
            if query.size(-1) != self.embed_dim:
                raise RuntimeError(f"passed-in embed_dim {self.embed_dim} didn't match last dim of query "
                                   f"{query.size(-1)}")
            out, weights = self._composite(query, key, value, key_padding_mask, need_weights, attn_mask,
                                           average_attn_weights, is_causal)
            return out.clone(memory_format=_contiguous_format()), weights
        return self._composite(query, key, value, key_padding_mask, need_weights, attn_mask, average_attn_weights,
                               is_causal)

    def _takes_fast_path(self, query: Tensor, key: Tensor, value: Tensor) -> bool:
        """PyTorch's conditions for the fast path (MultiheadAttention.forward's why_not_fast_path, all empty):
        batch_first self-attention (one tensor as query, key and value) in eval mode, an even number of heads,
        one packed in_proj with a bias, no bias_k / add_zero_attn, no autocast, and no grad to record."""
        from ...amp.autocast_mode import is_autocast_enabled
        from ...autograd.grad_mode import is_grad_enabled
        if not (query.dim() == 3 and query is key and key is value and self.in_proj_weight is not None
                and self.in_proj_bias is not None and query.dtype == self.in_proj_bias.dtype
                and query.dtype == self.in_proj_weight.dtype and not self.training and self.num_heads % 2 == 0
                and self.batch_first and self.bias_k is None and self.bias_v is None and not self.add_zero_attn
                and self._qkv_same_embed_dim and not is_autocast_enabled()):
            return False
        args = (query, self.in_proj_weight, self.in_proj_bias, self.out_proj.weight, self.out_proj.bias)
        return not (is_grad_enabled() and any(t is not None and t.requires_grad for t in args))

    def _composite(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask, need_weights: bool,
                   attn_mask, average_attn_weights: bool, is_causal: bool) -> tuple:
        """F.multi_head_attention_forward on (L, N, E) inputs (the slow path)."""
        is_batched = query.dim() == 3
        if self.batch_first and is_batched:   # to (L, N, E), keeping "the same tensor" where it was
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else dict(
            use_separate_proj_weight=True, q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight)
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights
