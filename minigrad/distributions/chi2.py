"""Chi2: a port of torch/distributions/chi2.py (the same formulas, on minigrad ops)."""
from __future__ import annotations

from . import constraints
from .gamma import Gamma
from .utils import Tensor

__all__ = ["Chi2"]


class Chi2(Gamma):
    """Creates a Chi-squared distribution parameterized by shape parameter `df`."""

    arg_constraints = {"df": constraints.positive}

    def __init__(
        self,
        df: Tensor | float,
        validate_args: bool | None = None,
    ) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Chi2, _instance)
        return super().expand(batch_shape, new)

    @property
    def df(self) -> Tensor:
        return self.concentration * 2
