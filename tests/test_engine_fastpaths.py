"""The engine's performance shortcuts must not change results (see bench/PROFILE.md).

- AccumulateGrad takes a gradient without copying it only when nothing else refers to it;
- in-place ops outside autograd write straight into their tensor (``Op._run_into``);
- the per-op save plan saves exactly what the formulas need;
- ``tensor <op> python number`` does not wrap the number unless it is read (``Op.run_number``);
- ``next_functions`` is built on access from the node's internal edge tuples.
"""
from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import engine
from tests.parity import assert_close, torch_or_skip


def test_two_leaves_fed_the_same_gradient_get_separate_grads():
    # AddBackward0 hands the very same tensor to both leaves: at most one may take it as is.
    x = mg.ones(3, requires_grad=True)
    y = mg.ones(3, requires_grad=True)
    for _ in range(2):
        (x + y).sum().backward()
    assert not np.shares_memory(x.grad._data, y.grad._data)
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(y.grad.numpy(), [2.0, 2.0, 2.0])


def test_gradient_kept_by_a_hook_is_not_changed_by_later_accumulation():
    x = mg.ones(3, requires_grad=True)
    kept = []
    h = x + 0
    h.register_hook(kept.append)
    (h * 1).sum().backward()
    (x * 5).sum().backward()  # accumulates in place into x.grad
    np.testing.assert_array_equal(kept[0].numpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 6.0, 6.0])


def test_user_gradient_is_not_taken_over_by_grad():
    g = mg.full((3,), 2.0)
    z = mg.zeros(3, requires_grad=True)
    (z + 0).backward(g)
    (z + 0).backward(g)
    np.testing.assert_array_equal(g.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(z.grad.numpy(), [4.0, 4.0, 4.0])


def test_sole_owner_takes_a_tensor_only_the_engine_holds():
    # The expected reference counts are calibrated for this Python at import; a gradient held by one
    # local (as in the engine loop) must be taken, one more holder must make it refused.
    def engine_like():
        grad = mg.ones(3)
        return engine._sole_owner(grad)

    def with_second_holder():
        grad = mg.ones(3)
        keep = grad  # noqa: F841 - the second reference is the point
        return engine._sole_owner(grad)

    assert engine_like()
    assert not with_second_holder()


def test_sole_owner_refuses_shared_tensors_takes_views():
    base = mg.ones(4)
    view = base[1:]
    # a view nobody else holds is taken, whoever holds its base: PyTorch's AccumulateGrad counts the gradient's own
    # references only (x.view(3).backward(v) makes x.grad share v's memory: see test_parity_leftovers11.py)
    assert engine._sole_owner(view)
    view_holder = [view]
    assert not engine._sole_owner(view)
    assert view_holder
    shared = mg.ones(4)
    other_holder = [shared]
    assert not engine._sole_owner(shared)  # referenced from a list too
    assert other_holder


def test_sgd_step_in_place_matches_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    w0, g0 = rng.standard_normal((5, 4)).astype(np.float32), rng.standard_normal((5, 4)).astype(np.float32)
    results = []
    for lib in (mg, torch):
        w = lib.from_numpy(w0.copy()).requires_grad_()
        (w * lib.from_numpy(g0)).sum().backward()
        alias = w.detach()  # shares w's storage: must see the update
        v0 = w._version
        with lib.no_grad():
            w -= 0.1 * w.grad
            w.add_(1.0)
            w.mul_(2.0)
            w.sub_(w.grad, alpha=0.5)  # alpha != 1: the general path
        results.append((w.detach().clone(), alias.clone(), w._version - v0))
    (mw, ma, mv), (tw, ta, tv) = results
    assert_close(mw, tw)
    assert_close(ma, ta)
    assert mv == tv


def test_in_place_errors_unchanged():
    torch = torch_or_skip()
    for lib in (mg, torch):
        leaf = lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            leaf.add_(1.0)
    msgs = []
    for lib in (mg, torch):
        small = lib.ones(3)
        with pytest.raises(RuntimeError) as e:
            small.add_(lib.ones(2, 3))  # broadcasting into the output is not allowed
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]
    for lib in (mg, torch):
        ints = lib.ones(3, dtype=lib.int64)
        with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
            ints.mul_(1.5)


@pytest.mark.parametrize("requires", [(True, True), (True, False), (False, True)])
def test_saved_values_follow_which_inputs_require_grad(requires):
    torch = torch_or_skip()
    seen = []
    for lib in (mg, torch):
        a = lib.full((2,), 3.0, requires_grad=requires[0])
        b = lib.full((2,), 4.0, requires_grad=requires[1])
        fn = (a * b).grad_fn
        seen.append(tuple(None if v is None else v.tolist() for v in (fn._saved_self, fn._saved_other)))
    assert seen[0] == seen[1]


# ---- tensor <op> python number (Op.run_number) ------------------------------------------------

NUMBER_CASES = [(op, value) for op in ("add", "sub", "mul", "div")
                for value in (1.0001, 3, -0.0, 1e6, float("inf"), 2**40)]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("op,value", NUMBER_CASES)
def test_number_operand_gives_what_wrapping_it_gives(op, value, dtype):
    # The shortcut hands NumPy the number itself; the general path casts a wrapped 0-dim tensor.
    x = mg.tensor(np.array([1.5, -2.0, 0.25, 3.0]), dtype=getattr(mg, dtype))
    wrapped = mg.tensor(value, dtype=mg.float64 if type(value) is float else mg.int64)
    fast, general = getattr(x, op)(value), getattr(x, op)(wrapped)
    assert fast.dtype is general.dtype is x.dtype
    np.testing.assert_array_equal(fast.numpy(), general.numpy())


def test_number_operand_saved_like_pytorch():
    x = mg.ones(3, requires_grad=True)
    fn = (x * 1.5).grad_fn
    assert fn._saved_other is fn._saved_other  # wrapped once, then the same tensor (as in PyTorch)
    assert repr(fn._saved_other) == "tensor(1.5000, dtype=torch.float64)"
    assert fn._saved_self is None
    assert type(fn._raw_saved_other).__name__ == "SavedTensor"
    assert fn.next_functions == ((x.grad_fn or x._grad_accumulator(), 0), (None, 0))
    assert (x + 2).grad_fn._saved_alpha == 1
    later = (x * 2).grad_fn
    with mg.inference_mode():  # wrapped while reading, but it stands for a tensor of the recording
        assert not later._saved_other.is_inference()


def test_number_operand_freed_after_backward_and_gradients_right():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = ((x * 3) / 2 - 1) * 2.5 + 7
    mul = y.grad_fn.next_functions[0][0]
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.75, 3.75])
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = mul._saved_other
    z = x * 4.0
    z.sum().backward(retain_graph=True)
    z.sum().backward()  # retain_graph: the saved number is read again
    np.testing.assert_allclose(x.grad.numpy(), [11.75, 11.75])


def test_pack_hooks_never_see_the_wrapped_number():
    # PyTorch packs only real tensors: the 0-dim tensor a Python number becomes is not handed to hooks.
    x = mg.ones(2, requires_grad=True)
    packed = []
    with mg.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = x * 2.0
    assert packed == []
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_number_operand_matches_torch():
    torch = torch_or_skip()

    def run(lib):
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = (x * 1.0001 + 0.001) / 3 - 2
        fn = y.grad_fn.next_functions[0][0]  # DivBackward0
        names = sorted(a for a in dir(fn) if a.startswith("_saved_"))
        y.sum().backward()
        return names, x.grad

    (mn, mgrad), (tn, tgrad) = run(mg), run(torch)
    assert mn == tn
    assert_close(mgrad, tgrad)


# ---- the converted number kept for its next use (_dispatch._NUMBER_OPERANDS) ---------------------

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_kept_number_operand_gives_the_same_bits_every_time(op, dtype):
    # 0.0 and -0.0 are equal dict keys and nan is not equal to itself: neither may come back as the other.
    x = mg.tensor(np.array([1.5, -2.0, 0.0, -0.0, np.inf]), dtype=getattr(mg, dtype))
    for value in (1.0001, 0.0, -0.0, 1.0001, -0.0, 0.0, float("nan"), 1e300, 1e300):
        fast = getattr(x, op)(value)
        general = getattr(x, op)(mg.tensor(value, dtype=mg.float64))
        assert fast.numpy().tobytes() == general.numpy().tobytes(), value


def test_kept_number_operand_is_shared_read_only_and_bounded():
    from minigrad import _dispatch
    x = mg.ones(3)
    (x * 1.25).numpy()
    kept = _dispatch._NUMBER_OPERANDS[(1.25, np.dtype(np.float32))]
    assert kept.shape == () and kept.dtype == np.float32 and not kept.flags.writeable
    assert (0.0, np.dtype(np.float32)) not in _dispatch._NUMBER_OPERANDS
    for i in range(1100):
        x + (1.0 + i / 4096)
    assert len(_dispatch._NUMBER_OPERANDS) <= 1024
    np.testing.assert_array_equal((x * 1.25).numpy(), [1.25, 1.25, 1.25])
