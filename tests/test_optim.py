"""minigrad.optim against torch.optim: the same start, five steps, the same parameters."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import minigrad
from minigrad import nn, optim
from tests.parity import torch_or_skip

RNG = np.random.default_rng(0)
W = RNG.standard_normal((3, 4)).astype(np.float32)
B = RNG.standard_normal(3).astype(np.float32)
X = RNG.standard_normal((5, 4)).astype(np.float32)
Y = RNG.standard_normal((5, 3)).astype(np.float32)


def _train(lib, name, kwargs, steps=5):
    layer = lib.nn.Linear(4, 3)
    with lib.no_grad():
        layer.weight.copy_(lib.tensor(W))
        layer.bias.copy_(lib.tensor(B))
    opt = getattr(lib.optim, name)(layer.parameters(), **kwargs)
    for _ in range(steps):
        opt.zero_grad()
        lib.nn.functional.mse_loss(layer(lib.tensor(X)), lib.tensor(Y)).backward()
        opt.step()
    return layer, opt


CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.5, dampening=0.3, maximize=True)),
    ("Adam", dict(lr=0.1)),
    ("Adam", dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.1, weight_decay=0.5, amsgrad=True, maximize=True)),
]


@pytest.mark.parametrize("name, kwargs", CONFIGS)
def test_five_steps_match_torch(name, kwargs):
    torch = torch_or_skip()
    mine, opt_m = _train(minigrad, name, kwargs)
    theirs, opt_t = _train(torch, name, kwargs)
    np.testing.assert_allclose(mine.weight.detach().numpy(), theirs.weight.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(mine.bias.detach().numpy(), theirs.bias.detach().numpy(), atol=1e-6)
    sd_m, sd_t = opt_m.state_dict(), opt_t.state_dict()
    assert sd_m["param_groups"] == sd_t["param_groups"]
    assert list(sd_m["state"]) == list(sd_t["state"])
    for i, state in sd_t["state"].items():
        assert list(sd_m["state"][i]) == list(state)
        for key, value in state.items():
            np.testing.assert_allclose(sd_m["state"][i][key].numpy(), value.numpy(), atol=1e-6)
    assert repr(opt_m) == repr(opt_t)


def test_state_dict_round_trip_continues_identically():
    a, opt_a = _train(minigrad, "Adam", dict(lr=0.1), steps=3)
    b = nn.Linear(4, 3)
    b.load_state_dict(a.state_dict())
    opt_b = optim.Adam(b.parameters(), lr=0.5)
    # (a copy, as torch.save / torch.load make: load_state_dict shares the loaded state tensors, as PyTorch's does,
    # so loading opt_a's own state_dict would make the two optimizers update one set of moments)
    opt_b.load_state_dict(copy.deepcopy(opt_a.state_dict()))
    assert opt_b.param_groups[0]["lr"] == 0.1 and opt_b.param_groups[0]["params"][0] is b.weight
    for layer, opt in ((a, opt_a), (b, opt_b)):
        opt.zero_grad()
        nn.functional.mse_loss(layer(minigrad.tensor(X)), minigrad.tensor(Y)).backward()
        opt.step()
    np.testing.assert_array_equal(a.weight.detach().numpy(), b.weight.detach().numpy())


def test_param_groups_and_zero_grad():
    w1, w2 = nn.Parameter(minigrad.ones(2)), nn.Parameter(minigrad.ones(2))
    opt = optim.SGD([{"params": [w1]}, {"params": w2, "lr": 0.5}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    (w1 * 2 + w2 * 3).sum().backward()
    opt.step()
    np.testing.assert_allclose(w1.detach().numpy(), [0.8, 0.8])
    np.testing.assert_allclose(w2.detach().numpy(), [-0.5, -0.5])
    assert w1._version == 1                                   # updated in place
    opt.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(w1.grad.numpy(), [0.0, 0.0])
    opt.zero_grad()
    assert w1.grad is None
    w3 = nn.Parameter(minigrad.ones(1))
    opt.add_param_group({"params": [w3], "momentum": 0.9})
    assert opt.param_groups[2]["lr"] == 0.1 and opt.param_groups[2]["momentum"] == 0.9


def test_closure_and_skipped_parameters():
    w = nn.Parameter(minigrad.tensor([1.0]))
    unused = nn.Parameter(minigrad.tensor([5.0]))
    opt = optim.SGD([w, unused], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 1.0
    np.testing.assert_allclose(w.detach().numpy(), [0.8])
    np.testing.assert_array_equal(unused.detach().numpy(), [5.0])   # no grad: untouched


@pytest.mark.parametrize("make, message", [
    (lambda p: optim.SGD(p, lr=-1), "Invalid learning rate: -1"),
    (lambda p: optim.SGD(p, momentum=-0.5), "Invalid momentum value: -0.5"),
    (lambda p: optim.SGD(p, nesterov=True), "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: optim.Adam(p, betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
    (lambda p: optim.Adam(p, eps=-1.0), "Invalid epsilon value: -1.0"),
    (lambda p: optim.AdamW(p, weight_decay=-1), "Invalid weight_decay value: -1"),
    (lambda p: optim.SGD([], lr=0.1), "optimizer got an empty parameter list"),
    (lambda p: optim.SGD([{"params": p}, {"params": p}], lr=0.1),
     "some parameters appear in more than one parameter group"),
])
def test_argument_errors(make, message):
    params = [nn.Parameter(minigrad.ones(1))]
    with pytest.raises(ValueError) as info:
        make(params)
    assert str(info.value) == message


def test_non_leaf_rejected():
    x = minigrad.ones(2, requires_grad=True) * 2
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([x], lr=0.1)
