"""The fast path of #8 round 19 (bench/PROFILE.md): a 1-D operand's strides in the layout test of elementwise ops.

``Op._run`` and ``Op._run_untracked`` lay an elementwise result of 2+ dims out as TensorIterator does; since round
18 the strides of a C-contiguous operand with a size-1 dim are walked (``_strides._plain``) only when the operands'
shapes differ. A 1-D operand of a 2+-dim result (W4's bias ``b2`` of shape (1,) in ``h @ W2 + b2``) is broadcast
along every other dim: TensorIterator gives it stride 0 there, and its ``reorder_dimensions`` skips any pair of
dims where an operand's stride is 0, so such an operand never orders the output's dims, whatever its own stride
(``x[3::20]`` of ten values is a (1,) tensor of stride 20). Round 19 skips its walk. Every case is compared with
PyTorch (dtype, shape, strides, bytes), with grad mode on (``_run``, recorded) and off (``_run_untracked``), and a
spy on ``_plain`` checks which operands are still walked (a 2-D (1, 1) operand and a (100, 1) column are).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _strides


def _values(shape, seed=0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) + 0.25).astype(np.float32)


def _one(T, seed=0):
    """A (1,) tensor whose one stride is 20 (the fourth of twenty values, every twentieth): not C strides."""
    return T.from_numpy(_values((20,), seed))[3::20]


def _odd(T, seed=0):
    """A (2, 1, 4) tensor, C-contiguous in NumPy's sense, whose size-1 dim has the odd stride 7."""
    return T.from_numpy(_values((2, 1, 4), seed)).as_strided((2, 1, 4), (4, 7, 1))


def _col(T, seed=0):
    """A (3, 1) column that is the transpose of a (1, 3) row: strides (1, 3), not C strides (1, 1)."""
    return T.from_numpy(_values((1, 3), seed)).t()


# name -> (function of the library and the inputs' requires_grad, the shapes whose strides are still walked)
CASES = {
    # a 1-D operand beside 2+-dim ones: never walked
    "w4_bias": (lambda T, rg: T.from_numpy(_values((100, 1), 1)).requires_grad_(rg)
                + T.from_numpy(_values((1,), 2)), [(100, 1)]),
    "bias_first": (lambda T, rg: T.from_numpy(_values((1,), 2)).requires_grad_(rg)
                   * T.from_numpy(_values((100, 1), 1)), [(100, 1)]),
    "odd_one_beside_column": (lambda T, rg: T.from_numpy(_values((5, 1), 1)).requires_grad_(rg) - _one(T, 2),
                              [(5, 1)]),
    "odd_one_beside_odd_column": (lambda T, rg: _col(T, 1).requires_grad_(rg) + _one(T, 2), [(3, 1)]),
    "odd_one_beside_odd_3d": (lambda T, rg: _odd(T, 1).requires_grad_(rg) * _one(T, 2), [(2, 1, 4)]),
    # (the odd 3-D operand sends the op to _strides.elementwise, whose own test then walks the operands in turn)
    "odd_one_first_3d": (lambda T, rg: _one(T, 2).requires_grad_(rg) + _odd(T, 1), [(1,), (2, 1, 4)]),
    "odd_one_beside_transposed": (lambda T, rg: T.from_numpy(_values((4, 3), 1)).requires_grad_(rg).t()
                                  + _one(T, 2), [(3, 4)]),   # (not C-contiguous: _strides.elementwise lays it out)
    "odd_one_three": (lambda T, rg: T.addcmul(_col(T, 1).requires_grad_(rg), _one(T, 2), _col(T, 3)),
                      [(3, 1)]),
    "odd_one_with_number": (lambda T, rg: T.from_numpy(_values((4, 1), 1)).requires_grad_(rg) + _one(T, 2) * 3,
                            [(4, 1)]),
    # declining: a 2-D operand with size-1 dims beside another shape is walked as before
    "one_by_one": (lambda T, rg: T.from_numpy(_values((100, 1), 1)).requires_grad_(rg)
                   + T.from_numpy(_values((1, 1), 2)), [(100, 1), (1, 1)]),
    "odd_row_beside_3d": (lambda T, rg: T.from_numpy(_values((5, 1, 4), 2)).requires_grad_(rg)
                          * _odd(T, 1)[:1], [(5, 1, 4), (1, 1, 4)]),
    # 1-D results: no layout test at all
    "one_d": (lambda T, rg: T.from_numpy(_values((6,), 1)).requires_grad_(rg) + _one(T, 2), []),
}


def _record(t) -> tuple:
    return str(t.dtype), tuple(t.shape), t.stride(), t.detach().numpy().tobytes()


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "untracked"])
@pytest.mark.parametrize("name", list(CASES))
def test_layout_and_bits_match_pytorch(name, requires_grad) -> None:
    torch = torch_or_skip()
    fn, _ = CASES[name]
    if requires_grad:
        expected, got = fn(torch, True), fn(minigrad, True)
        assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__
    else:
        with torch.no_grad():
            expected = fn(torch, False)
        with minigrad.no_grad():
            got = fn(minigrad, False)
        assert got.grad_fn is None
    assert _record(got) == _record(expected)


def _spy_plain(monkeypatch) -> list:
    calls = []
    plain = _strides._plain

    def spy(a):
        calls.append(a.shape)
        return plain(a)
    monkeypatch.setattr(_strides, "_plain", spy)
    return calls


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "untracked"])
@pytest.mark.parametrize("name", list(CASES))
def test_one_dim_operands_are_not_walked(name, requires_grad, monkeypatch) -> None:
    fn, walked = CASES[name]
    operands = fn(minigrad, False)   # (made before the spy: a view's own set-up may look at strides)
    del operands
    calls = _spy_plain(monkeypatch)
    with minigrad.set_grad_enabled(requires_grad):
        fn(minigrad, requires_grad)
    assert sorted(set(calls)) == sorted(walked)


def test_w4_forward_walks_only_the_column(monkeypatch) -> None:
    """W4's ``h @ W2 + b2``: one walk, the (100, 1) product's; the bias's none."""
    h = minigrad.from_numpy(_values((100, 16), 1)).requires_grad_()
    w2 = minigrad.from_numpy(_values((16, 1), 2)).requires_grad_()
    b2 = minigrad.from_numpy(_values((1,), 3)).requires_grad_()
    calls = _spy_plain(monkeypatch)
    pred = h.matmul(w2) + b2
    assert calls == [(100, 1)]
    assert type(pred.grad_fn).__name__ == "AddBackward0"


def test_w4_style_mlp_gradients_match_pytorch() -> None:
    torch = torch_or_skip()

    def run(lib):
        rng = np.random.default_rng(5)
        x = lib.from_numpy(rng.standard_normal((100, 2)).astype(np.float32))
        y = lib.from_numpy(rng.standard_normal((100, 1)).astype(np.float32))
        dims = [2, 16, 16, 1]
        params = []
        for i in range(3):
            params.append(lib.from_numpy((rng.standard_normal((dims[i], dims[i + 1])) / 4).astype(np.float32))
                          .requires_grad_())
            params.append(lib.from_numpy(rng.standard_normal(dims[i + 1]).astype(np.float32)).requires_grad_())
        w0, b0, w1, b1, w2, b2 = params
        h = (x.matmul(w0) + b0).tanh()
        h = (h.matmul(w1) + b1).tanh()
        pred = h.matmul(w2) + b2
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        return [_record(loss)] + [_record(p.grad) for p in params]

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("name", ["odd_one_beside_column", "odd_one_beside_odd_3d", "odd_one_three"])
def test_gradients_through_odd_one_dim_operands_match_pytorch(name) -> None:
    torch = torch_or_skip()
    fn, _ = CASES[name]

    def run(lib):
        out = fn(lib, True)
        leaf = out.grad_fn.next_functions[0][0].variable if name != "odd_one_three" else None
        weights = lib.from_numpy(_values(tuple(out.shape), 9))
        (out * weights).sum().backward()
        return _record(out), None if leaf is None else _record(leaf.grad)

    assert run(minigrad) == run(torch)
