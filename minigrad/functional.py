"""minigrad.functional: the ``torch.*`` functions PyTorch writes in Python (torch/functional.py), under that name.

They are the same objects as ``minigrad.norm``, ``minigrad.einsum`` ...; ``torch.overrides.resolve_name`` names
them ``torch.functional.<name>``, as PyTorch's does.
"""
from __future__ import annotations

from minigrad import (
                      atleast_1d,
                      atleast_2d,
                      atleast_3d,
                      block_diag,
                      broadcast_shapes,
                      broadcast_tensors,
                      cartesian_prod,
                      cdist,
                      chain_matmul,
                      einsum,
                      istft,
                      lu,
                      meshgrid,
                      norm,
                      pca_lowrank,
                      split,
                      stft,
                      svd_lowrank,
                      tensordot,
                      unique,
                      unique_consecutive,
                      unravel_index,
)

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors", "cartesian_prod",
           "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu", "norm", "meshgrid", "pca_lowrank", "split",
           "stft", "svd_lowrank", "tensordot", "unique", "unique_consecutive", "unravel_index"]
