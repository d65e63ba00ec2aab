"""The graph frees itself by reference counting: no node, saved tensor or leaf is kept alive by a cycle.

The garbage collector is disabled while each graph is built and dropped, so anything that survives
is held by a reference cycle (or a leak), not merely waiting for a collection.
"""
import gc
import weakref

import pytest

import minigrad as mg


@pytest.fixture
def no_gc():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def _alive(refs):
    return [type(r()).__name__ for r in refs if r() is not None]


class _Witness:
    """An object only a node's metadata dict holds: it dies with the node."""


def _ref(obj):
    """A weak reference to a tensor, or to a witness living exactly as long as a node (PyTorch's C++ nodes, as
    minigrad's op nodes, refuse weak references)."""
    if isinstance(obj, mg.Tensor):
        return weakref.ref(obj)
    witness = obj.metadata.setdefault("witness", _Witness())
    return weakref.ref(witness)


def test_chain_with_saved_inputs_and_outputs_is_freed(no_gc):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x          # saves self and other
    z = y.exp()        # saves its own output
    w = z.sigmoid().sum()
    refs = [_ref(n) for n in (w.grad_fn, z.grad_fn, y.grad_fn, y.grad_fn.next_functions[0][0])]
    refs += [_ref(y), _ref(z)]
    del y, z, w
    assert _alive(refs) == []
    assert x.grad is None  # the leaf itself is still ours


def test_accumulate_grad_and_leaf_do_not_keep_each_other(no_gc):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    acc = weakref.ref(y.grad_fn.next_functions[0][0].next_functions[0][0])
    assert acc().variable is x
    assert (x * 3).grad_fn.next_functions[0][0] is acc()  # shared while alive
    del y
    assert acc() is None
    leaf = weakref.ref(x)
    del x
    assert leaf() is None


def test_graph_is_freed_after_backward_and_with_retained_graph(no_gc):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.register_hook(lambda g: g)
    s = (y * y).sum()
    s.backward(retain_graph=True)
    refs = [_ref(y.grad_fn), _ref(s.grad_fn), _ref(y)]
    del y, s
    assert _alive(refs) == []


def test_custom_function_ctx_is_freed(no_gc):
    class Exp(mg.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    out = Exp.apply(x)
    refs = [_ref(out.grad_fn), _ref(out)]
    del out
    assert _alive(refs) == []


def test_copy_slices_and_views_are_freed(no_gc):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[1:]
    v.mul_(2)
    assert v.grad_fn.name() == "AsStridedBackward0"  # regenerated after the in-place change
    s = y.sum()
    refs = [_ref(y.grad_fn), _ref(v.grad_fn), _ref(s.grad_fn), _ref(v)]
    del y, v, s
    assert _alive(refs) == []


def test_saved_tensors_released_after_backward():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * x).sum()
    z.backward()
    with pytest.raises(RuntimeError, match="after they have already been freed"):
        _ = y.grad_fn._saved_result
    with pytest.raises(RuntimeError, match="after they have already been freed"):
        _ = z.grad_fn.next_functions[0][0]._saved_self
