"""minigrad.nn: Module, Parameter, layers, containers, losses and init against PyTorch."""
from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from minigrad import nn
from tests.parity import assert_close, run_both, torch_or_skip


def test_parameter_repr_and_flags():
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert p.requires_grad and p.is_leaf and isinstance(p, minigrad.Tensor)
    frozen = nn.Parameter(minigrad.tensor([1.0]), requires_grad=False)
    assert repr(frozen) == "Parameter containing:\ntensor([1.])"
    assert type(p * 2) is minigrad.Tensor                  # results of ops are plain tensors


def test_module_reprs_match_torch():
    program = """
import torch
from torch import nn
s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1, bias=False), nn.Dropout(0.2),
                  nn.LeakyReLU(0.2, inplace=True), nn.GELU('tanh'), nn.Softmax(dim=1), nn.Flatten(), nn.Identity(),
                  nn.SiLU(), nn.Sigmoid(), nn.Tanh(), nn.ReLU(inplace=True), nn.LogSoftmax(1),
                  nn.Sequential(nn.Linear(1, 1)), nn.ModuleList([nn.Tanh(), nn.Tanh(), nn.ReLU()]))
print(s)
print(s[0:2])
print(nn.CrossEntropyLoss(), nn.MSELoss(), nn.L1Loss(), nn.BCELoss(), nn.BCEWithLogitsLoss(), nn.NLLLoss())
print(nn.Module())
print(len(s), type(s[-1]).__name__, type(s[1]).__name__)
"""
    mine, theirs = run_both(program)
    assert mine == theirs


def test_linear_init_distribution_and_forward():
    minigrad.manual_seed(0)
    layer = nn.Linear(400, 300)
    w, b = layer.weight.detach().numpy(), layer.bias.detach().numpy()
    bound = 1 / math.sqrt(400)                 # kaiming_uniform_(a=√5) gives U(±1/√fan_in)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound
    assert np.abs(b).max() <= bound
    x = minigrad.randn(7, 400)
    np.testing.assert_allclose(layer(x).detach().numpy(), x.numpy() @ w.T + b, rtol=1e-4, atol=1e-5)
    assert layer(x).grad_fn.name() == "AddmmBackward0"
    assert nn.Linear(3, 2, bias=False).bias is None


def test_linear_parity_with_copied_weights():
    torch = torch_or_skip()
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        layer = lib.nn.Linear(3, 2)
        with lib.no_grad():
            layer.weight.copy_(lib.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 1.0]]))
            layer.bias.copy_(lib.tensor([0.1, -0.1]))
        lib.nn.functional.mse_loss(layer(lib.tensor(x)), lib.zeros(4, 2)).backward()
        results.append((layer.weight.grad, layer.bias.grad))
    assert_close(results[0][0], results[1][0])
    assert_close(results[0][1], results[1][1])


def test_registration_and_traversal():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
            self.head = nn.Linear(3, 1)
            self.scale = nn.Parameter(minigrad.ones(1))
            self.register_buffer("steps", minigrad.zeros(1))
            self.register_buffer("cache", minigrad.zeros(2), persistent=False)

        def forward(self, x):
            return self.head(self.body(x)) * self.scale

    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["scale", "body.0.weight", "body.0.bias", "head.weight",
                                                      "head.bias"]
    assert [n for n, _ in net.named_children()] == ["body", "head"]
    assert [n for n, _ in net.named_modules()] == ["", "body", "body.0", "body.1", "head"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "cache"]
    assert list(net.state_dict().keys()) == ["scale", "steps", "body.0.weight", "body.0.bias", "head.weight",
                                             "head.bias"]
    assert len(list(net.parameters())) == 5 and len(list(net.modules())) == 5
    assert net.get_parameter("body.0.bias") is net.body[0].bias
    shared = nn.Linear(2, 2)
    assert len(list(nn.Sequential(shared, shared).parameters())) == 2   # shared parameters counted once
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'missing'"):
        _ = net.missing
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'scale' "
                                        r"\(torch.nn.Parameter or None expected\)"):
        net.scale = minigrad.ones(1)
    with pytest.raises(NotImplementedError, match='Module \\[Module\\] is missing the required "forward" function'):
        nn.Module()(1)
    out = net(minigrad.ones(4, 2))
    out.sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_train_eval_apply_requires_grad():
    net = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
    assert net.training and net[1].training
    assert net.eval() is net and not net[1].training
    x = minigrad.ones(3, 2)
    np.testing.assert_array_equal(net[1](x).numpy(), x.numpy())        # eval: dropout is the identity
    net.train()
    assert net[1].training
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "Dropout", "Sequential"]
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_zero_grad_set_to_none_false():
    layer = nn.Linear(2, 1)
    layer(minigrad.ones(1, 2)).sum().backward()
    layer.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(layer.weight.grad.numpy(), np.zeros((1, 2)))


def test_state_dict_round_trip_and_errors():
    a, b = nn.Linear(2, 3), nn.Linear(2, 3)
    sd = a.state_dict()
    assert isinstance(sd, OrderedDict) and not sd["weight"].requires_grad
    assert repr(b.load_state_dict(sd)) == "<All keys matched successfully>"
    np.testing.assert_array_equal(b.weight.detach().numpy(), a.weight.detach().numpy())
    assert b.weight.requires_grad
    bad = {"weight": minigrad.ones(2, 2), "foo": minigrad.ones(1)}
    message = ('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". \n\t'
               'Unexpected key(s) in state_dict: "foo". \n\tsize mismatch for weight: copying a param with shape '
               'torch.Size([2, 2]) from checkpoint, the shape in current model is torch.Size([3, 2]).')
    with pytest.raises(RuntimeError) as info:
        b.load_state_dict(bad)
    assert str(info.value) == message
    result = b.load_state_dict({"weight": minigrad.zeros(3, 2)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == []


def test_to_double_and_float_keep_parameters():
    layer = nn.Linear(2, 2)
    weight = layer.weight
    layer.double()
    assert layer.weight is weight and weight.dtype is minigrad.float64
    assert layer(minigrad.ones(1, 2, dtype=minigrad.float64)).dtype is minigrad.float64
    layer.to(minigrad.float32)
    assert weight.dtype is minigrad.float32


def test_forward_hook():
    layer = nn.Linear(2, 2)
    calls = []
    handle = layer.register_forward_hook(lambda m, args, out: calls.append(out.shape))
    layer(minigrad.ones(3, 2))
    handle.remove()
    layer(minigrad.ones(3, 2))
    assert calls == [minigrad.Size([3, 2])]


def test_sequential_and_module_list_containers():
    seq = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert seq.fc is seq[0] and len(seq) == 2 and list(seq) == [seq.fc, seq.act]
    seq.append(nn.Tanh())
    assert type(seq[-1]).__name__ == "Tanh"
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    assert len(layers) == 3 and len(list(layers.parameters())) == 6


@pytest.mark.parametrize("layer, fn", [
    (nn.ReLU(), "relu"), (nn.Tanh(), "tanh"), (nn.Sigmoid(), "sigmoid"), (nn.SiLU(), "silu"), (nn.GELU(), "gelu"),
])
def test_activation_layers_match_functional(layer, fn):
    x = minigrad.randn(3, 4)
    np.testing.assert_array_equal(layer(x).numpy(), getattr(nn.functional, fn)(x).numpy())


def test_flatten_identity_softmax_layers():
    x = minigrad.randn(2, 3, 4)
    assert nn.Flatten()(x).shape == minigrad.Size([2, 12])
    assert nn.Identity()(x) is x
    np.testing.assert_allclose(nn.Softmax(dim=-1)(x).sum(-1).numpy(), np.ones((2, 3)), rtol=1e-6)


def test_loss_modules_match_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    p = rng.random((4, 3)).astype(np.float32)
    t = np.array([0, 2, 1, 1])
    pairs = [
        (lambda lib: lib.nn.MSELoss(reduction="sum"), lambda lib: (lib.tensor(x), lib.tensor(p))),
        (lambda lib: lib.nn.L1Loss(), lambda lib: (lib.tensor(x), lib.tensor(p))),
        (lambda lib: lib.nn.BCELoss(), lambda lib: (lib.tensor(p), lib.tensor(p[::-1].copy()))),
        (lambda lib: lib.nn.BCEWithLogitsLoss(pos_weight=lib.tensor([1.0, 2.0, 3.0])),
         lambda lib: (lib.tensor(x), lib.tensor(p))),
        (lambda lib: lib.nn.CrossEntropyLoss(weight=lib.tensor([1.0, 2.0, 0.5]), label_smoothing=0.1),
         lambda lib: (lib.tensor(x), lib.tensor(t))),
        (lambda lib: lib.nn.NLLLoss(ignore_index=2), lambda lib: (lib.tensor(x), lib.tensor(t))),
    ]
    for make, args in pairs:
        assert_close(make(minigrad)(*args(minigrad)), make(torch)(*args(torch)))


def test_init_functions():
    torch = torch_or_skip()
    w = minigrad.empty(200, 100)
    nn.init.xavier_uniform_(w)
    bound = math.sqrt(6 / 300)
    assert np.abs(w.numpy()).max() <= bound and np.abs(w.numpy()).max() > 0.98 * bound
    nn.init.kaiming_normal_(w, nonlinearity="relu")
    assert abs(w.numpy().std() - math.sqrt(2 / 100)) < 0.01
    nn.init.xavier_normal_(w, gain=2.0)
    assert abs(w.numpy().std() - 2 * math.sqrt(2 / 300)) < 0.01
    nn.init.constant_(w, 0.5)
    assert (w.numpy() == 0.5).all()
    nn.init.zeros_(w)
    assert (w.numpy() == 0).all()
    nn.init.ones_(w)
    assert (w.numpy() == 1).all()
    for args in [("linear",), ("tanh",), ("relu",), ("leaky_relu", 0.2), ("selu",)]:
        assert nn.init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)
    t = minigrad.empty(4, 3, 2, 5)
    assert nn.init._calculate_fan_in_and_fan_out(t) == torch.nn.init._calculate_fan_in_and_fan_out(
        torch.empty(4, 3, 2, 5))
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2"):
        nn.init.xavier_uniform_(minigrad.empty(3))
    with pytest.raises(ValueError, match="Unsupported nonlinearity softplus"):
        nn.init.calculate_gain("softplus")


def test_tensor_random_fills_are_seeded_and_checked():
    a, b = minigrad.empty(5), minigrad.empty(5)
    minigrad.manual_seed(3)
    a.uniform_(-2, 2)
    minigrad.manual_seed(3)
    b.uniform_(-2, 2)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert (np.abs(a.numpy()) <= 2).all() and a._version == 1
    leaf = minigrad.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        leaf.normal_()
