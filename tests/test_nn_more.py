"""Coverage-pass nn pieces against PyTorch: functional activations/losses/distances/normalization,
the new layers and containers (reprs, parameters), ``type(obj)`` printing, and pickling."""
from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

RNG = np.random.default_rng(3)
X = RNG.uniform(-4, 4, (3, 4))
Y = RNG.uniform(-4, 4, (3, 4))
W = RNG.uniform(0.5, 2, 4)
B = RNG.uniform(-1, 1, 4)
P = RNG.uniform(0.1, 1, (3, 4))
P /= P.sum(1, keepdims=True)


def _run(T, fn, *arrays):
    xs = [T.tensor(a, dtype=T.float64, requires_grad=True) for a in arrays]
    out = fn(T.nn.functional, T, *xs)
    grads = T.autograd.grad(out, xs, T.ones_like(out), allow_unused=True)
    node = out.grad_fn
    return (out.detach().numpy(), [None if g is None else g.numpy() for g in grads],
            type(node).__name__, sorted(a for a in dir(node) if a.startswith("_saved_")))


FUNCTIONAL = {
    "softplus": (lambda F, T, x: F.softplus(x), [X]),
    "softplus_beta": (lambda F, T, x: F.softplus(x, beta=2, threshold=3), [X]),
    "elu": (lambda F, T, x: F.elu(x, 0.5), [X]),
    "selu": (lambda F, T, x: F.selu(x), [X]),
    "celu": (lambda F, T, x: F.celu(x, 2.0), [X]),
    "hardtanh": (lambda F, T, x: F.hardtanh(x, -2.0, 2.5), [X]),
    "relu6": (lambda F, T, x: F.relu6(x * 2), [X]),
    "logsigmoid": (lambda F, T, x: F.logsigmoid(x), [X]),
    "hardsigmoid": (lambda F, T, x: F.hardsigmoid(x), [X]),
    "hardswish": (lambda F, T, x: F.hardswish(x), [X]),
    "mish": (lambda F, T, x: F.mish(x), [X]),
    "softsign": (lambda F, T, x: F.softsign(x), [X]),
    "tanhshrink": (lambda F, T, x: F.tanhshrink(x), [X]),
    "softmin": (lambda F, T, x: F.softmin(x, 1), [X]),
    "normalize": (lambda F, T, x: F.normalize(x), [X]),
    "normalize_p1_dim0": (lambda F, T, x: F.normalize(x, p=1, dim=0), [X]),
    "smooth_l1": (lambda F, T, x, y: F.smooth_l1_loss(x, y), [X, Y]),
    "smooth_l1_beta": (lambda F, T, x, y: F.smooth_l1_loss(x, y, reduction="none", beta=2.0), [X, Y]),
    "smooth_l1_beta0": (lambda F, T, x, y: F.smooth_l1_loss(x, y, reduction="sum", beta=0.0), [X, Y]),
    "huber": (lambda F, T, x, y: F.huber_loss(x, y), [X, Y]),
    "huber_delta": (lambda F, T, x, y: F.huber_loss(x, y, reduction="sum", delta=2.0), [X, Y]),
    "kl_div_batchmean": (lambda F, T, x, y: F.kl_div(x, y, reduction="batchmean"), [np.log(P), P[::-1].copy()]),
    "kl_div_log_target": (lambda F, T, x, y: F.kl_div(x, y, reduction="sum", log_target=True),
                          [np.log(P), np.log(P[::-1]).copy()]),
    "kl_div_none": (lambda F, T, x, y: F.kl_div(x, y, reduction="none"), [np.log(P), P[::-1].copy()]),
    "cosine_similarity": (lambda F, T, x, y: F.cosine_similarity(x, y), [X, Y]),
    "cosine_similarity_dim0": (lambda F, T, x, y: F.cosine_similarity(x, y, dim=0), [X, Y]),
    "layer_norm": (lambda F, T, x, w, b: F.layer_norm(x, (4,), w, b), [X, W, B]),
    "layer_norm_no_affine": (lambda F, T, x: F.layer_norm(x, [3, 4]), [X]),
    "embedding": (lambda F, T, w: F.embedding(T.tensor([[0, 2], [2, 1]]), w), [X]),
    "embedding_padding": (lambda F, T, w: F.embedding(T.tensor([[0, 2], [2, 1]]), w, padding_idx=2), [X]),
    "pad": (lambda F, T, x: F.pad(x, (1, 2)), [X]),
    "pad_2d_value": (lambda F, T, x: F.pad(x, (1, 0, 2, 1), value=3.0), [X]),
    "pad_crop": (lambda F, T, x: F.pad(x, (-1, 1)), [X]),
}


@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_functional_matches_torch(name):
    torch = torch_or_skip()
    fn, arrays = FUNCTIONAL[name]
    got, want = _run(minigrad, fn, *arrays), _run(torch, fn, *arrays)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-10, atol=1e-12)
    # PyTorch's hardsigmoid gradient uses 1/6 rounded to float32, even for float64 tensors
    rtol = 1e-7 if name == "hardsigmoid" else 1e-9
    for g, w in zip(got[1], want[1]):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-12)
    assert got[2:] == want[2:]


def test_pairwise_distance_values_and_gradients():
    # values and gradients as PyTorch; its node is NormBackward1 (torch.norm), minigrad's the vector norm's
    torch = torch_or_skip()
    fn = lambda F, T, x, y: F.pairwise_distance(x, y)
    got, want = _run(minigrad, fn, X, Y), _run(torch, fn, X, Y)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    for g, w in zip(got[1], want[1]):
        np.testing.assert_allclose(g, w, rtol=1e-10)


def test_one_hot_matches_torch():
    torch = torch_or_skip()
    for T in (minigrad, torch):
        assert T.nn.functional.one_hot(T.tensor([0, 2, 1])).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
        out = T.nn.functional.one_hot(T.tensor([[0], [2]]), 4)
        assert out.tolist() == [[[1, 0, 0, 0]], [[0, 0, 1, 0]]] and str(out.dtype) == "torch.int64"


ERRORS = [
    lambda T: T.nn.functional.one_hot(T.tensor([0.0, 1.0])),
    lambda T: T.nn.functional.one_hot(T.tensor([0, 3]), 2),
    lambda T: T.nn.functional.pad(T.ones(2), (1,)),
    lambda T: T.nn.functional.layer_norm(T.ones(2, 3), (2,)),
    lambda T: T.nn.functional.embedding(T.tensor([0.0]), T.ones(2, 2)),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_functional_errors_match_torch(i):
    torch = torch_or_skip()
    with pytest.raises(RuntimeError) as want:
        ERRORS[i](torch)
    with pytest.raises(RuntimeError) as got:
        ERRORS[i](minigrad)
    assert str(got.value) == str(want.value)


def test_inplace_activation_writes_the_input():
    x = minigrad.tensor([-1.0, 0.5, 9.0])
    out = minigrad.nn.functional.relu6(x, inplace=True)
    assert out is x and x.tolist() == [0.0, 0.5, 6.0]


# ---- layers -----------------------------------------------------------------------------------

def _layers(T):
    nn = T.nn
    return [
        nn.Softplus(), nn.Softplus(2, 10), nn.ELU(), nn.ELU(0.5, True), nn.SELU(), nn.SELU(True), nn.CELU(),
        nn.CELU(2.0), nn.Hardtanh(), nn.Hardtanh(-2, 2, True), nn.ReLU6(), nn.ReLU6(True), nn.LogSigmoid(),
        nn.Softmin(1), nn.Softmin(), nn.Hardsigmoid(), nn.Hardswish(), nn.Mish(), nn.Softsign(), nn.Tanhshrink(),
        nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=-1),
        nn.Embedding(10, 3, max_norm=1.0, scale_grad_by_freq=True, sparse=True),
        nn.LayerNorm(4), nn.LayerNorm((3, 4), eps=1e-6, elementwise_affine=False), nn.LayerNorm(4, bias=False),
        nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(), nn.HuberLoss(delta=2.0), nn.KLDivLoss(),
        nn.KLDivLoss(reduction="batchmean", log_target=True), nn.CosineSimilarity(), nn.CosineSimilarity(0, 1e-6),
        nn.PairwiseDistance(), nn.ModuleDict({"a": nn.Linear(2, 3), "b": nn.ReLU()}), nn.ModuleDict(),
        nn.ParameterList([nn.Parameter(T.ones(2)), nn.Parameter(T.ones(2, 3))]), nn.ParameterList(),
        nn.ParameterDict({"w": nn.Parameter(T.ones(2))}),
        nn.ParameterDict({"w": nn.Parameter(T.ones(2)), "v": T.zeros(3, dtype=T.float64)}),
        nn.Sequential(nn.Embedding(5, 2), nn.LayerNorm(2), nn.ELU()),
    ]


def test_layer_reprs_match_torch():
    torch = torch_or_skip()
    assert [repr(m) for m in _layers(minigrad)] == [repr(m) for m in _layers(torch)]


def _param_names(T):
    nn = T.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleDict({"b": nn.Linear(2, 2), "a": nn.LayerNorm(2)})
            self.ps = nn.ParameterList([T.zeros(2), nn.Parameter(T.ones(1))])
            self.pd = nn.ParameterDict({"z": T.ones(1), "y": T.ones(2)})
            self.emb = nn.Embedding(3, 2, padding_idx=1)

    net = Net()
    return ([n for n, _ in net.named_parameters()], list(net.state_dict()), net.emb.weight[1].tolist(),
            [type(p).__name__ for p in net.ps], list(net.pd.keys()), len(net.layers), "a" in net.layers)


def test_containers_register_parameters_like_torch():
    torch = torch_or_skip()
    assert _param_names(minigrad) == _param_names(torch)


def test_layers_compute_like_functional():
    torch = torch_or_skip()
    for T in (minigrad, torch):
        T.manual_seed(0)
    x = RNG.uniform(-2, 2, (2, 4))
    for make in (lambda T: T.nn.ELU(0.3), lambda T: T.nn.Softplus(2.0), lambda T: T.nn.Hardtanh(-1.0, 0.5),
                 lambda T: T.nn.Softmin(1), lambda T: T.nn.Mish(), lambda T: T.nn.LogSigmoid()):
        got = make(minigrad)(minigrad.tensor(x)).numpy()
        want = make(torch)(torch.tensor(x)).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-12)
    for make in (lambda T: T.nn.SmoothL1Loss(beta=0.5), lambda T: T.nn.HuberLoss(delta=0.7)):
        got = make(minigrad)(minigrad.tensor(x), minigrad.tensor(x[::-1].copy())).item()
        want = make(torch)(torch.tensor(x), torch.tensor(x[::-1].copy())).item()
        assert got == pytest.approx(want, rel=1e-12)


def test_embedding_and_layer_norm_train():
    emb = minigrad.nn.Embedding(4, 3, padding_idx=0)
    ln = minigrad.nn.LayerNorm(3)
    out = ln(emb(minigrad.tensor([[0, 1, 1, 3]]))).pow(2).sum()
    out.backward()
    assert emb.weight.grad[0].tolist() == [0.0, 0.0, 0.0]       # the padding row gets no gradient
    assert emb.weight.grad[2].tolist() == [0.0, 0.0, 0.0]       # an unused row neither
    assert ln.weight.grad.shape == (3,) and abs(ln.bias.grad.sum().item()) < 1e-4   # each row of y sums to 0


# ---- type(obj) prints PyTorch's class; pickling still uses minigrad's --------------------------

def _types(T):
    x = T.ones(2, requires_grad=True)
    lin = T.nn.Linear(2, 3)
    objs = [x, T.nn.Parameter(T.ones(1)), lin, T.nn.Sequential(), T.nn.ReLU(), T.nn.MSELoss(), T.nn.Dropout(),
            T.nn.Flatten(), T.nn.Embedding(2, 2), T.nn.LayerNorm(2), T.nn.CosineSimilarity(), T.nn.ModuleDict(),
            T.optim.SGD(lin.parameters(), lr=0.1), T.optim.Adam(lin.parameters()), T.float32, T.Size([1]),
            (x * 2).sum().grad_fn, T.device("cpu")]
    return [repr(type(o)) for o in objs] + [repr(T.nn.Module), repr(T.optim.Optimizer)]


def test_type_reprs_match_torch():
    torch = torch_or_skip()
    assert _types(minigrad) == _types(torch)


def test_user_subclass_keeps_its_own_module_name():
    class Net(minigrad.nn.Module):
        pass

    assert repr(Net) == f"<class '{__name__}.test_user_subclass_keeps_its_own_module_name.<locals>.Net'>"
    assert minigrad.nn.Linear.__module__ == "minigrad.nn.modules.linear"


def test_pickle_round_trip():
    t = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
    p = minigrad.nn.Parameter(minigrad.tensor([0.5, -1.0]))
    state = minigrad.nn.Sequential(minigrad.nn.Linear(2, 3), minigrad.nn.LayerNorm(3)).state_dict()
    t2, p2, state2 = pickle.loads(pickle.dumps((t, p, state)))
    assert type(t2) is minigrad.Tensor and t2.tolist() == t.tolist()
    assert type(p2) is minigrad.nn.Parameter and p2.requires_grad and p2.tolist() == [0.5, -1.0]
    assert list(state2) == list(state)
    for k in state:
        np.testing.assert_array_equal(state2[k].numpy(), state[k].numpy())
    buf = io.BytesIO()
    pickle.dump(minigrad.float64, buf)
    assert pickle.loads(buf.getvalue()) is minigrad.float64
    assert pickle.loads(pickle.dumps(minigrad.Size([2, 3]))) == minigrad.Size([2, 3])
