"""nn.CTCLoss (torch.nn.modules.loss.CTCLoss; kept apart from loss.py, with F.ctc_loss in the missing-nn pass 5)."""
from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .loss import _Loss


class CTCLoss(_Loss):
    """The connectionist temporal classification loss: F.ctc_loss with this module's blank and reduction."""

    _torch_name = "torch.nn.modules.loss.CTCLoss"
    __constants__ = ["blank", "reduction"]

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor) -> Tensor:
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)
