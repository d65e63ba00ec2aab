"""Saved-tensor hooks, multi-grad hooks, gradient edges and increment_version (vs PyTorch)."""
import pytest

import minigrad as torch
from minigrad.autograd.graph import (
    disable_saved_tensors_hooks,
    get_gradient_edge,
    increment_version,
    register_multi_grad_hook,
    saved_tensors_hooks,
)
from tests.parity import run_both


def test_pack_and_unpack_are_called_for_every_saved_tensor():
    log = []

    def pack(t):
        log.append("pack")
        return t.detach() * 1

    def unpack(t):
        log.append("unpack")
        return t

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(pack, unpack):
        y = (a * a).exp().sum()        # mul saves a twice, exp saves its result
    assert log == ["pack"] * 3
    y.backward()
    assert log == ["pack"] * 3 + ["unpack"] * 3
    assert a.grad.tolist() == pytest.approx([5.436563, 218.392625], rel=1e-6)


def test_compressing_saved_tensors_to_half_precision():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach().numpy().astype("float16"),
                             lambda p: torch.tensor(p.astype("float32"))):
        y = (a * a).sum()
    y.backward()
    assert a.grad.tolist() == [2.0, 4.0]


def test_unpacked_input_keeps_its_autograd_links():
    x = torch.tensor([3.0], requires_grad=True)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: ("p", t), lambda p: p[1] * 10)
    saved = y.grad_fn._saved_self
    assert saved.tolist() == [30.0] and saved.requires_grad and saved.grad_fn is None
    y.backward()
    assert x.grad.tolist() == [60.0]
    with pytest.raises(RuntimeError, match="Calling register_hooks on a saved tensor after it has been freed"):
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def test_disable_saved_tensors_hooks():
    with disable_saved_tensors_hooks("no hooks here"):
        with pytest.raises(RuntimeError, match="no hooks here"):
            with saved_tensors_hooks(lambda t: t, lambda t: t):
                pass


def test_multi_grad_hook_all_fires_once_per_backward_with_participants():
    a, b, c = (torch.tensor([v], requires_grad=True) for v in (1.0, 2.0, 3.0))
    calls = []
    handle = register_multi_grad_hook((a, b, c), lambda grads: calls.append(grads))
    (a * 2 + b * 3).sum().backward()
    assert [[None if g is None else g.tolist() for g in grads] for grads in calls] == [[[2.0], [3.0], None]]
    calls.clear()
    (a * 5).sum().backward()
    assert [[None if g is None else g.tolist() for g in grads] for grads in calls] == [[[5.0], None, None]]
    handle.remove()
    calls.clear()
    (a * 5).sum().backward()
    assert calls == []


def test_multi_grad_hook_any_and_bad_mode():
    a, b = torch.tensor([1.0], requires_grad=True), torch.tensor([2.0], requires_grad=True)
    calls = []
    register_multi_grad_hook((a, b), lambda g: calls.append(g.tolist()), mode="any")
    (a * 2 + b * 3).sum().backward()
    (a * 2 + b * 3).sum().backward()
    assert len(calls) == 2
    with pytest.raises(ValueError, match=r"Expects mode to be one of \('all', 'any'\) but got x"):
        register_multi_grad_hook((a,), print, mode="x")


def test_gradient_edge_and_increment_version():
    x = torch.ones(2, requires_grad=True)
    z = x * 2
    edge = get_gradient_edge(z)
    assert (edge.node.name(), edge.output_nr) == ("MulBackward0", 0)
    assert torch.autograd.grad((z * 3).sum(), edge)[0].tolist() == [3.0, 3.0]
    t = torch.ones(2)
    v = t._version
    increment_version(t)
    assert t._version == v + 1


def test_prints_like_pytorch():
    program = """
import torch
log = []
def pack(t):
    log.append(("pack", tuple(t.shape)))
    return t.detach() * 1
def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (a * a).exp().sum()
y.backward(); print(a.grad, log)
x = torch.tensor([3.0], requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: ("p", t), lambda p: p[1] * 10)
print(y.grad_fn._saved_self)
y.backward(); print(x.grad)
a = torch.tensor([1.0], requires_grad=True); b = torch.tensor([2.0], requires_grad=True)
c = torch.tensor([3.0], requires_grad=True)
res = []
h = torch.autograd.graph.register_multi_grad_hook((a, b, c), lambda grads: res.append(grads))
(a * 2 + b * 3).sum().backward()
(a * 5).sum().backward()
print(res)
"""
    ours, theirs = run_both(program)
    assert ours == theirs
