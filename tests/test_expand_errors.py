"""``expand``'s size checks run from the last dim to the first, as PyTorch's: the first error it meets wins."""
import pytest

import minigrad
from tests.parity import torch_or_skip

SIZES = [(3, 4), (4, 3, 5), (2, -1, 4), (-1, 2, 3), (1, 3), (5,), (3, -1), (-1, 5, 3), (-2, 4, 4),
         (3, 4, -1), (1, 2, 3), (4, -1, -1), (0, 2, 3)]


def _outcome(lib, sizes):
    try:
        return tuple(lib.ones(2, 3).expand(*sizes).shape)
    except RuntimeError as e:
        return str(e)


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_expand_result_or_error_matches_torch(sizes):
    torch = torch_or_skip()
    assert _outcome(minigrad, sizes) == _outcome(torch, sizes)


def test_several_mismatches_name_the_last_dim():
    # (2, 3) -> (3, 4): both dims mismatch; PyTorch reports dim 1 (4 vs 3), not dim 0
    assert "(4) must match the existing size (3) at non-singleton dimension 1" in _outcome(minigrad, (3, 4))
