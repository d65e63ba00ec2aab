"""Recurrent layers, transposed convolution and the padding modes against PyTorch.

Each module is built in both libraries, PyTorch's parameters are copied into minigrad's, and the same
input goes through both: outputs and every gradient (input, hidden state, parameters) must agree
(float64 to 1e-10, float32 to float32 rounding), and so must the graphs behind every output — node
names, edges (with their output numbers), and each node's ``_saved_*`` values (tensors by shape and
dtype). Then double backward, reprs, parameter names and initialisation bounds, PyTorch's error
messages, and whole programs run with both libraries.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from parity import run_both, same_as_torch, to_numpy, torch_or_skip

import minigrad

# ---- helpers ----------------------------------------------------------------------------------


def _graph(t) -> list:
    """The graph behind ``t`` as comparable data: per node (in first-visit order) its name, its edges as
    (node number, output number), and its saved values (tensors as shape and dtype)."""
    numbers, nodes = {}, []

    def visit(fn):
        if fn is None:
            return None
        if fn in numbers:
            return numbers[fn]
        numbers[fn] = len(numbers)
        entry = [type(fn).__name__, None, {}]
        nodes.append(entry)
        entry[1] = [(visit(f), nr) for f, nr in fn.next_functions]
        for name in dir(fn):
            if not name.startswith("_saved_"):
                continue
            if entry[0] == "MkldnnRnnLayerBackward0" and name == "_saved_result3":
                continue   # oneDNN's workspace: opaque bytes, minigrad keeps none (see rnn.py)
            value = getattr(fn, name)
            if hasattr(value, "shape"):
                value = ("tensor", tuple(value.shape), str(value.dtype).split(".")[-1])
            entry[2][name] = value
        return numbers[fn]

    visit(t.grad_fn)
    return nodes


def _close(a, b, dtype) -> None:
    a, b = to_numpy(a), to_numpy(b)
    scale = max(1.0, float(np.abs(b).max(initial=0)))
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == "float64" else dict(rtol=1e-5, atol=3e-6 * scale)
    np.testing.assert_allclose(a, b, **tol)


def _flat(value) -> list:
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _flat(v)]
    return [value]


def _modules(name: str, *args, dtype: str = "float64", **kwargs):
    """The same module in both libraries, minigrad's holding a copy of PyTorch's parameters."""
    torch = torch_or_skip()
    theirs = getattr(torch.nn, name)(*args, **kwargs)
    mine = getattr(minigrad.nn, name)(*args, **kwargs)
    assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    with minigrad.no_grad():
        for p, q in zip(mine.parameters(), theirs.parameters()):
            p.copy_(minigrad.from_numpy(q.detach().numpy().copy()))
    if dtype == "float64":
        mine.double()
        theirs.double()
    return mine, theirs


def _run_both(mine, theirs, x: np.ndarray, hidden=None, **forward_kwargs):
    """Forward and backward in both libraries. Returns per library (outputs, grads of input/hidden/params, graphs)."""
    torch = torch_or_skip()
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        inp = lib.from_numpy(x.copy()).requires_grad_(True)
        hx = None if hidden is None else [lib.from_numpy(h.copy()).requires_grad_(True) for h in hidden]
        args = (inp,) if hx is None else (inp, hx[0] if len(hx) == 1 else tuple(hx))
        outs = _flat(module(*args, **forward_kwargs))
        # a fixed, position-dependent weighting of every output, so each element's gradient is checked
        loss = sum((o * lib.from_numpy(np.cos(np.arange(o.numel())).reshape(tuple(o.shape)).astype(x.dtype))).sum()
                   for o in outs)
        graphs = [_graph(o) for o in outs]
        loss.backward()
        grads = [inp.grad] + ([] if hx is None else [h.grad for h in hx]) + [p.grad for p in module.parameters()]
        results.append((outs, grads, graphs))
    return results


def _check(mine, theirs, x, hidden=None, dtype="float64", **forward_kwargs) -> None:
    (outs, grads, graphs), (touts, tgrads, tgraphs) = _run_both(mine, theirs, x, hidden, **forward_kwargs)
    assert len(outs) == len(touts)
    for o, t in zip(outs, touts):
        assert tuple(o.shape) == tuple(t.shape)
        _close(o, t, dtype)
    for g, t in zip(grads, tgrads):
        _close(g, t, dtype)
    assert graphs == tgraphs


def _array(shape, dtype="float64", seed=0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# ---- recurrent layers: values, gradients and graphs ------------------------------------------------

RNN_CASES = [
    # (module, args, kwargs, input shape, hidden shapes or None)
    ("RNN", (3, 4), {}, (5, 2, 3), None),
    ("RNN", (3, 4, 2), dict(nonlinearity="relu", bias=False, bidirectional=True), (5, 2, 3), [(4, 2, 4)]),
    ("RNN", (3, 4), dict(batch_first=True), (2, 5, 3), None),
    ("RNN", (3, 4), {}, (5, 3), [(1, 4)]),
    ("RNN", (3, 4, 3), dict(bidirectional=True, batch_first=True), (1, 5, 3), None),
    ("GRU", (3, 4), {}, (5, 2, 3), None),
    ("GRU", (3, 4, 2), dict(batch_first=True, bidirectional=True), (2, 5, 3), [(4, 2, 4)]),
    ("GRU", (3, 4), dict(bias=False), (5, 3), None),
    ("GRU", (3, 4), dict(batch_first=True), (5, 3), [(1, 4)]),
    ("LSTM", (3, 4), {}, (5, 2, 3), None),
    ("LSTM", (3, 4, 2), dict(batch_first=True, bidirectional=True), (2, 5, 3), [(4, 2, 4), (4, 2, 4)]),
    ("LSTM", (3, 4), dict(bias=False), (5, 3), [(1, 4), (1, 4)]),
    ("LSTM", (3, 4), dict(batch_first=True), (5, 3), [(1, 4), (1, 4)]),
    ("LSTM", (3, 4, 3), {}, (5, 1, 3), None),
    ("LSTM", (3, 4, 2), dict(proj_size=2, bidirectional=True), (5, 2, 3), None),
    ("LSTM", (3, 4, 2), dict(proj_size=3, batch_first=True), (2, 5, 3), [(2, 2, 3), (2, 2, 4)]),
    ("RNNCell", (3, 4), {}, (2, 3), None),
    ("RNNCell", (3, 4), dict(nonlinearity="relu", bias=False), (3,), [(4,)]),
    ("GRUCell", (3, 4), {}, (2, 3), [(2, 4)]),
    ("GRUCell", (3, 4), dict(bias=False), (3,), None),
    ("LSTMCell", (3, 4), {}, (2, 3), None),
    ("LSTMCell", (3, 4), dict(bias=False), (3,), [(4,), (4,)]),
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", RNN_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(RNN_CASES)])
def test_recurrent_modules_match_torch(case, dtype):
    name, args, kwargs, shape, hidden = case
    mine, theirs = _modules(name, *args, dtype=dtype, **kwargs)
    hidden = None if hidden is None else [_array(s, dtype, seed=i + 1) for i, s in enumerate(hidden)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # float32 LSTM with projections warns (once), in both libraries
        _check(mine, theirs, _array(shape, dtype), hidden, dtype)


def test_float32_lstm_is_one_onednn_node_per_layer_and_direction():
    mine, _ = _modules("LSTM", 3, 4, 2, dtype="float32", bidirectional=True)
    out, (h, c) = mine(minigrad.randn(5, 2, 3))
    assert type(out.grad_fn).__name__ == "CatBackward0"
    layers = [fn for fn, _ in out.grad_fn.next_functions]
    assert [type(fn).__name__ for fn in layers] == ["MkldnnRnnLayerBackward0"] * 2
    assert [fn._saved_reverse for fn in layers] == [False, True]
    assert h.grad_fn.next_functions[0][0]._saved_result1.shape == (2, 4)
    # the float64 one is made of ordinary nodes instead
    mine, _ = _modules("LSTM", 3, 4, dtype="float64")
    out, _ = mine(minigrad.randn(5, 2, 3, dtype=minigrad.float64))
    assert type(out.grad_fn).__name__ == "StackBackward0"
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "MulBackward0"


@pytest.mark.parametrize("name,dtype", [("LSTM", "float32"), ("LSTM", "float64"), ("GRU", "float64"),
                                        ("RNN", "float64")])
def test_recurrent_double_backward_matches_torch(name, dtype):
    torch = torch_or_skip()
    mine, theirs = _modules(name, 3, 4, 2, dtype=dtype, bidirectional=True)
    x = _array((4, 2, 3), dtype)
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        inp = lib.from_numpy(x.copy()).requires_grad_(True)
        out, _ = module(inp)
        (g,) = lib.autograd.grad((out * out).sum(), inp, create_graph=True)
        (g * g).sum().backward()
        results.append([g, inp.grad] + [p.grad for p in module.parameters()])
    for a, b in zip(*results):
        _close(a, b, dtype)


@pytest.mark.parametrize("name,dtype", [("LSTM", "float32"), ("GRU", "float64"), ("LSTM", "float64")])
def test_dropout_between_layers_and_eval_mode(name, dtype):
    torch = torch_or_skip()
    mine, theirs = _modules(name, 3, 4, 3, dtype=dtype, dropout=0.5)
    x = _array((5, 2, 3), dtype)
    # training: the masks are random (different streams), the graph is the same (MulBackward0 between layers)
    graphs = [_graph(m(lib.from_numpy(x.copy()).requires_grad_(True))[0])
              for lib, m in ((minigrad, mine), (torch, theirs))]
    assert graphs[0] == graphs[1]
    assert "MulBackward0" in {node[0] for node in graphs[0]}
    mine.eval()
    theirs.eval()
    _check(mine, theirs, x, dtype=dtype)
    with minigrad.no_grad():
        out, _ = mine(minigrad.from_numpy(x.copy()))
    assert out.grad_fn is None and not out.requires_grad


def test_replaced_weight_is_used():
    """Assigning a new Parameter to weight_ih_l0 reaches the computation (the flat weight list follows)."""
    mine, theirs = _modules("GRU", 3, 4)
    torch = torch_or_skip()
    w = _array((12, 3), seed=5)
    mine.weight_ih_l0 = minigrad.nn.Parameter(minigrad.from_numpy(w.copy()))
    theirs.weight_ih_l0 = torch.nn.Parameter(torch.from_numpy(w.copy()))
    assert mine._flat_weights[0] is mine.weight_ih_l0
    _check(mine, theirs, _array((5, 2, 3)))


# ---- recurrent layers: parameters, initialisation, repr, errors ---------------------------------------

def test_parameters_names_shapes_and_init_bounds():
    torch = torch_or_skip()
    for args, kwargs in [((10, 20, 2), dict(bidirectional=True)), ((10, 20), dict(proj_size=5, bias=False)),
                         ((3, 7), {})]:
        for name in ("RNN", "GRU", "LSTM"):
            if name != "LSTM" and "proj_size" in kwargs:
                continue
            mine, theirs = getattr(minigrad.nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
            assert repr(mine) == repr(theirs)
            assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
                [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
            assert mine._flat_weights_names == theirs._flat_weights_names
            assert mine._all_weights == theirs._all_weights
            assert [[tuple(p.shape) for p in ps] for ps in mine.all_weights] == \
                [[tuple(p.shape) for p in ps] for ps in theirs.all_weights]
            bound = 1 / math.sqrt(mine.hidden_size)
            for p in mine.parameters():
                values = p.detach().numpy()
                assert values.min() >= -bound and values.max() <= bound
                assert values.std() > bound / 4   # spread over the interval, not a constant
    for name, kwargs in (("RNNCell", dict(nonlinearity="relu")), ("GRUCell", {}), ("LSTMCell", dict(bias=False))):
        mine, theirs = getattr(minigrad.nn, name)(6, 9, **kwargs), getattr(torch.nn, name)(6, 9, **kwargs)
        assert repr(mine) == repr(theirs)
        assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
            [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
        assert all(abs(p.detach().numpy()).max() <= 1 / 3 for p in mine.parameters())


def test_reprs():
    same_as_torch("""
nn = torch.nn
print(nn.RNN(10, 20, num_layers=2), nn.LSTM(10, 20, batch_first=True), nn.GRU(3, 4, bias=False, bidirectional=True))
print(nn.RNN(3, 4, 2, 'relu', dropout=0.5), nn.LSTM(3, 4, proj_size=2, num_layers=2, bidirectional=True))
print(nn.RNNCell(3, 4, nonlinearity='relu', bias=False), nn.LSTMCell(3, 4), nn.GRUCell(3, 4, bias=False))
print(nn.Sequential(nn.LSTM(3, 4), nn.Linear(4, 2)))
m = nn.RNN(3, 4, 2, 'relu')
print(m.nonlinearity, m.mode, m.dropout, m.proj_size, m.bias, m.batch_first)
""")


def test_recurrent_errors():
    same_as_torch("""
nn = torch.nn
E(lambda: nn.RNN(3, 4, dropout=1.5))
E(lambda: nn.RNN(3, 4, dropout=True))
E(lambda: nn.RNN(3, 4, bias=1))
E(lambda: nn.RNN(3, 4, batch_first=None))
E(lambda: nn.RNN(3.0, 4))
E(lambda: nn.RNN(0, 4))
E(lambda: nn.RNN(3, 4.0))
E(lambda: nn.RNN(3, 0))
E(lambda: nn.RNN(3, 4, 0))
E(lambda: nn.LSTM(3, 4, proj_size=-1))
E(lambda: nn.LSTM(3, 4, proj_size=4))
E(lambda: nn.GRU(3, 4, proj_size=2))
E(lambda: nn.RNN(3, 4, nonlinearity='sigmoid'))
for name in ('RNN', 'GRU', 'LSTM'):
    m = getattr(nn, name)(3, 4, num_layers=2).double()
    E(lambda: m(torch.zeros(5, 2, 3)))
    E(lambda: m(torch.zeros(5, 2, 2, 3, dtype=torch.float64)))
    E(lambda: m(torch.zeros(3, dtype=torch.float64)))
    E(lambda: m(torch.zeros(5, 2, 5, dtype=torch.float64)))
    E(lambda: m(torch.zeros(5, 5, dtype=torch.float64)))
    h = torch.zeros(2, 3, 4, dtype=torch.float64)
    E(lambda: m(torch.zeros(5, 2, 3, dtype=torch.float64), (h, h) if name == 'LSTM' else h))
    E(lambda: m(torch.zeros(5, 2, 3, dtype=torch.float64), (h[0], h[0]) if name == 'LSTM' else h[0]))
    E(lambda: m(torch.zeros(5, 3, dtype=torch.float64), (h, h[0]) if name == 'LSTM' else h))
    E(lambda: m(torch.zeros(5, 3, dtype=torch.float64), (h[:, 0], h[:1, 0]) if name == 'LSTM' else h[:1, 0]))
    E(lambda: m(torch.zeros(0, 2, 3, dtype=torch.float64)))
m = nn.LSTM(3, 4, proj_size=2).double()
h4, h2 = torch.zeros(1, 2, 4, dtype=torch.float64), torch.zeros(1, 2, 2, dtype=torch.float64)
E(lambda: m(torch.zeros(5, 2, 3, dtype=torch.float64), (h4, h4)))
E(lambda: m(torch.zeros(5, 2, 3, dtype=torch.float64), (h2, h2)))
for name in ('RNNCell', 'GRUCell', 'LSTMCell'):
    c = getattr(nn, name)(3, 4).double()
    E(lambda: c(torch.zeros(2, 2, 3, dtype=torch.float64)))
    E(lambda: c(torch.zeros(2, 5, dtype=torch.float64)))
    for h in (torch.zeros(3, 4, dtype=torch.float64), torch.zeros(2, 5, dtype=torch.float64),
              torch.zeros(1, 2, 4, dtype=torch.float64)):
        E(lambda: c(torch.zeros(2, 3, dtype=torch.float64), (h, h) if name == 'LSTMCell' else h))
E(lambda: nn.RNNCell(3, 4, nonlinearity='foo')(torch.zeros(2, 3)))
c = nn.LSTMCell(3, 4).double()
E(lambda: c(torch.zeros(2, 3, dtype=torch.float64), (torch.zeros(2, 4, dtype=torch.float64),
                                                      torch.zeros(2, 5, dtype=torch.float64))))
""")


def test_projection_warning_once():
    torch = torch_or_skip()
    minigrad._warn_once._WARNED.discard("lstm projections oneDNN")
    m = minigrad.nn.LSTM(3, 4, proj_size=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(minigrad.randn(2, 1, 3))
        m(minigrad.randn(2, 1, 3))
    assert [str(w.message) for w in caught] == [
        "LSTM with projections is not supported with oneDNN. Using default implementation. (Triggered internally "
        "at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)"]
    assert caught[0].filename.endswith("rnn.py")
    assert torch is not None


def test_a_plain_tuple_is_not_a_packed_sequence():
    # (PackedSequence inputs run: tests/test_parity_missing_nn3.py; a plain tuple fails as in PyTorch)
    m = minigrad.nn.GRU(3, 4)
    with pytest.raises(AttributeError, match="'tuple' object has no attribute 'dim'"):
        m((minigrad.randn(4, 3), minigrad.tensor([2, 2])))


# ---- unsafe_split / unsafe_chunk --------------------------------------------------------------------

def test_unsafe_chunk_matches_torch():
    torch = torch_or_skip()
    x = _array((2, 7))
    results = []
    for lib in (minigrad, torch):
        t = lib.from_numpy(x.copy()).requires_grad_(True)
        pieces = t.unsafe_chunk(3, 1)
        y = pieces[0].sigmoid_()   # in place on a piece: allowed, the pieces are not views
        graph = _graph(y)
        (y.sum() + 2 * pieces[2].sum() + lib.unsafe_split(t, 2, -1)[3].sum()).backward()
        results.append((type(pieces).__name__, [tuple(p.shape) for p in pieces], graph, t.grad))
    assert results[0][:3] == results[1][:3]
    _close(results[0][3], results[1][3], "float64")
    same_as_torch("""
x = torch.zeros(2, 7)
E(lambda: x.unsafe_chunk(0, 1))
E(lambda: torch.tensor(1.).unsafe_chunk(3, 0))
E(lambda: x.unsafe_split(-1, 1))
E(lambda: x.unsafe_split([3, 4], 1))
E(lambda: torch.unsafe_split(x, 0, 1))
print([tuple(p.shape) for p in torch.unsafe_chunk(x, 3, 1)], [tuple(p.shape) for p in x.unsafe_split(3)])
""")


# ---- transposed convolution -----------------------------------------------------------------------

CONV_T_CASES = [
    ("conv_transpose2d", [(2, 4, 5, 5), (4, 3, 3, 2), (6,)],
     dict(stride=2, padding=1, output_padding=1, groups=2, dilation=(1, 2))),
    ("conv_transpose1d", [(4, 5), (4, 3, 3)], {}),
    ("conv_transpose1d", [(2, 4, 5), (4, 3, 3)], dict(stride=1, output_padding=1, dilation=2)),
    ("conv_transpose2d", [(2, 4, 5, 5), (4, 3, 3, 2), (3,)], dict(stride=(3, 1), padding=(0, 1))),
    ("conv_transpose2d", [(1, 2, 3, 4), (2, 2, 4, 3), (2,)],
     dict(stride=(3, 2), padding=(2, 1), output_padding=(2, 1))),
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CONV_T_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CONV_T_CASES)])
def test_conv_transpose_functional_matches_torch(case, dtype):
    torch = torch_or_skip()
    name, shapes, kwargs = case
    arrays = [_array(s, dtype, seed=i) for i, s in enumerate(shapes)]
    results = []
    for lib in (minigrad, torch):
        ts = [lib.from_numpy(a.copy()).requires_grad_(True) for a in arrays]
        y = getattr(lib.nn.functional, name)(*ts, **kwargs)
        v = lib.from_numpy(np.sin(np.arange(y.numel())).reshape(tuple(y.shape)).astype(dtype))
        graph = _graph(y)
        grads = lib.autograd.grad((y * v).sum(), ts, create_graph=True)
        ggraph = _graph(grads[0])
        (sum((g * g).sum() for g in grads[:2])).backward()   # double backward through the conv's backward
        results.append((y, grads, [t.grad for t in ts[:2]], graph, ggraph))
    (y, grads, second, graph, ggraph), (ty, tgrads, tsecond, tgraph, tggraph) = results
    assert tuple(y.shape) == tuple(ty.shape)
    for a, b in zip([y, *grads, *second], [ty, *tgrads, *tsecond]):
        _close(a, b, dtype)
    assert graph == tgraph and ggraph == tggraph
    assert [node[2]["_saved_transposed"] for node in graph if node[0] == "ConvolutionBackward0"] == [True]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_conv_transpose_modules_match_torch(dtype):
    cases = [
        ("ConvTranspose2d", (4, 6, 3), dict(stride=2, padding=1, output_padding=1, groups=2, dilation=2),
         (2, 4, 5, 5), {}),
        ("ConvTranspose2d", (4, 6, (3, 2)), dict(stride=(2, 1), bias=False), (4, 5, 5), {}),
        ("ConvTranspose2d", (4, 6, 3), dict(stride=2), (2, 4, 5, 5), dict(output_size=(12, 12))),
        ("ConvTranspose1d", (4, 6, 3), dict(stride=3, padding=1), (2, 4, 5), dict(output_size=[2, 6, 15])),
        ("ConvTranspose1d", (4, 6, 3), {}, (4, 5), {}),
    ]
    for name, args, kwargs, shape, forward_kwargs in cases:
        mine, theirs = _modules(name, *args, dtype=dtype, **kwargs)
        assert repr(mine) == repr(theirs)
        assert mine.transposed and mine.output_padding == theirs.output_padding
        _check(mine, theirs, _array(shape, dtype), dtype=dtype, **forward_kwargs)


def test_conv_transpose_init_bounds():
    m = minigrad.nn.ConvTranspose2d(4, 6, (3, 2), groups=2)
    assert tuple(m.weight.shape) == (4, 3, 3, 2)
    bound = 1 / math.sqrt(3 * 3 * 2)   # fan_in of the weight: size(1) · kernel = C_out/groups · Πkernel
    for p in (m.weight, m.bias):
        values = p.detach().numpy()
        assert values.min() >= -bound and values.max() <= bound and values.std() > bound / 4


def test_conv_transpose_errors():
    same_as_torch("""
F = torch.nn.functional
for dt in (torch.float64, torch.float32):
    x = torch.randn(2, 4, 5, 5, dtype=dt); w = torch.randn(4, 3, 3, 3, dtype=dt); b = torch.randn(3, dtype=dt)
    E(lambda: F.conv_transpose2d(x, w, b, stride=2, output_padding=2))
    E(lambda: F.conv_transpose2d(x, w, b, stride=1, output_padding=1))
    E(lambda: F.conv_transpose2d(x[:, :3], w, b))
    E(lambda: F.conv_transpose2d(x, w, torch.randn(4, dtype=dt)))
    E(lambda: F.conv_transpose2d(x, w, b, groups=3))
    E(lambda: F.conv_transpose2d(x, w, b, groups=2))
    E(lambda: F.conv_transpose2d(x, w, b, padding=5))
    E(lambda: F.conv_transpose2d(x, w, b, padding=-1))
    E(lambda: F.conv_transpose2d(x, w, b, output_padding=-1))
    E(lambda: F.conv_transpose2d(x[0, 0], w, b))
    E(lambda: F.conv_transpose2d(x, w, b, stride=(1, 2, 3)))
    E(lambda: F.conv_transpose2d(x, w, b, output_padding=(1, 2, 3)))
    E(lambda: F.conv_transpose2d(x, w, b, stride=0))
    E(lambda: F.conv_transpose2d(x, w, b, groups=0))
    E(lambda: F.conv_transpose2d(x, w.double() if dt == torch.float32 else w.float(), b))
    E(lambda: F.conv_transpose1d(x[0], w[..., 0], b, padding=5))
    E(lambda: F.conv_transpose1d(x[0], w[..., 0], b, dilation=0))
    E(lambda: F.conv_transpose1d(x[0], w[..., 0], b, stride=2, output_padding=2))
    E(lambda: F.conv_transpose1d(x[0], w[None], b))
    E(lambda: F.conv_transpose1d(x[0], w[..., 0], b, padding='same'))
nn = torch.nn
E(lambda: nn.ConvTranspose2d(4, 6, 3, padding_mode='reflect'))
E(lambda: nn.ConvTranspose1d(4, 6, 3, groups=4))
m = nn.ConvTranspose2d(4, 6, 3, stride=2)
E(lambda: m(torch.randn(2, 4, 5, 5), output_size=(19, 19)))
E(lambda: m(torch.randn(2, 4, 5, 5), output_size=(19,)))
print(m(torch.randn(2, 4, 5, 5), output_size=[2, 6, 12, 11]).shape)
print(m(torch.randn(4, 5, 5), output_size=[6, 12, 11]).shape)
print(m.transposed, m.output_padding, m.weight.shape, m.bias.shape, m._reversed_padding_repeated_twice)
""")


# ---- padding modes ----------------------------------------------------------------------------------

PAD_CASES = [((1, 2, 5), (1, 2)), ((2, 5), (1, 2)), ((2, 5), (-1, 2)), ((1, 2, 4, 5), (1, 2, 2, 1)),
             ((2, 4, 5), (1, 2, 2, -1)), ((1, 1, 3, 4, 5), (1, 1, 2, 1, 1, 2)), ((1, 4, 5, 6), (1, 1, 1, 1, 1, 1))]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("case", PAD_CASES, ids=[f"{len(c[0])}d-{c[1]}" for c in PAD_CASES])
def test_pad_modes_match_torch(case, mode):
    torch = torch_or_skip()
    shape, pad = case
    x = _array(shape)
    results = []
    for lib in (minigrad, torch):
        t = lib.from_numpy(x.copy()).requires_grad_(True)
        y = lib.nn.functional.pad(t, pad, mode=mode)
        v = lib.from_numpy(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)))
        (g,) = lib.autograd.grad((y * v).sum(), t, create_graph=True)
        graphs = [_graph(y), _graph(g) if g.requires_grad else None]
        if g.requires_grad:
            (g * g * g).sum().backward()
        results.append((y, g, t.grad, graphs))
    (y, g, gg, graphs), (ty, tg, tgg, tgraphs) = results
    _close(y, ty, "float64")
    _close(g, tg, "float64")
    assert (gg is None) == (tgg is None)
    if gg is not None:
        _close(gg, tgg, "float64")
    assert graphs == tgraphs


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("padding_mode", ["reflect", "replicate", "circular"])
def test_conv_padding_modes_match_torch(padding_mode, dtype):
    for name, args, kwargs, shape in [("Conv2d", (2, 3, 3), dict(padding=(1, 2)), (2, 2, 5, 6)),
                                      ("Conv1d", (2, 3, 3), dict(padding=2, stride=2), (2, 2, 5)),
                                      ("Conv1d", (2, 3, 4), dict(padding="same"), (2, 5))]:
        mine, theirs = _modules(name, *args, dtype=dtype, padding_mode=padding_mode, **kwargs)
        assert repr(mine) == repr(theirs)
        _check(mine, theirs, _array(shape, dtype), dtype=dtype)


PAD_MODULES = [("ReflectionPad1d", (2,)), ("ReflectionPad2d", ((1, 0, 2, 1),)), ("ReplicationPad2d", (2,)),
               ("ReplicationPad1d", ((3, 1),)), ("ZeroPad2d", ((1, 2, 0, 1),)), ("ZeroPad1d", (2,)),
               ("ConstantPad2d", (1, 3.5)), ("ConstantPad1d", ((1, 2), -1.0)), ("CircularPad2d", (1,)),
               ("CircularPad1d", ((2, 1),)), ("ReflectionPad3d", (1,)), ("ReplicationPad3d", ((1, 0, 1, 0, 0, 1),)),
               ("ZeroPad3d", (1,)), ("ConstantPad3d", (1, 2.0)), ("CircularPad3d", (1,))]


@pytest.mark.parametrize("case", PAD_MODULES, ids=[c[0] for c in PAD_MODULES])
def test_padding_modules_match_torch(case):
    name, args = case
    mine, theirs = _modules(name, *args)
    assert repr(mine) == repr(theirs)
    shape = (2, 3, 4, 5) if "2d" in name else (2, 3, 5) if "1d" in name else (1, 2, 3, 4, 5)
    _check(mine, theirs, _array(shape))


def test_pad_values_and_errors():
    same_as_torch("""
F = torch.nn.functional
x3 = torch.randn(1, 2, 5); x4 = torch.randn(1, 2, 4, 5); x5 = torch.randn(1, 1, 3, 4, 5)
E(lambda: F.pad(x3, (5, 1), mode='reflect'))
E(lambda: F.pad(x4, (1, 1, 4, 1), mode='reflect'))
E(lambda: F.pad(x5, (1, 1, 1, 1, 3, 1), mode='reflect'))
E(lambda: F.pad(x3, (-3, -2), mode='replicate'))
E(lambda: F.pad(x4, (-3, -3, 1, 1), mode='replicate'))
E(lambda: F.pad(x3, (6, 1), mode='circular'))
E(lambda: F.pad(torch.randn(2, 5), (-3, -3), mode='circular'))
E(lambda: F.pad(x3, (1,), mode='reflect'))
E(lambda: F.pad(x3, (1, 1, 1, 1, 1, 1, 1, 1), mode='reflect'))
E(lambda: F.pad(torch.randn(5), (1, 1), mode='reflect'))
E(lambda: F.pad(x4, (1, 1), mode='replicate'))
E(lambda: F.pad(x3, (1, 1), mode='foo'))
E(lambda: F.pad(x3, (1, 1), mode='reflect', value=1.0))
E(lambda: F.pad(torch.randn(1, 0, 5), (1, 1), mode='reflect'))
E(lambda: F.pad(torch.randn(2, 0, 3), (1, 1), mode='replicate'))
E(lambda: F.pad(torch.randn(2, 1, 0, 3), (1, 1, 1, 1), mode='reflect'))
E(lambda: F.pad(torch.randn(1, 0, 3, 4, 5), (1, 1, 1, 1, 1, 1), mode='replicate'))
print(F.pad(x3, (1, 1), mode='reflect', value=0.0).shape, F.pad(torch.randn(0, 2, 3), (1, 1), mode='replicate').shape)
for mode in ('reflect', 'replicate', 'circular'):
    print(F.pad(torch.arange(6).view(1, 2, 3), (2, 1), mode=mode))
    print(F.pad(torch.arange(12.).view(1, 3, 4), (1, 2, 2, 1), mode=mode))
x = torch.randn(2, 3, requires_grad=True)
print(F.pad(x, (-1, 2)).grad_fn._saved_pad, F.pad(x, (-1, 2), mode='reflect').grad_fn._saved_padding)
E(lambda: torch.nn.CircularPad2d(1)(torch.randn(5, 5)))
E(lambda: torch.nn.CircularPad1d(1)(torch.randn(2, 3, 5, 5)))
""")


# ---- F.linear on a non-contiguous input (the batch_first RNN path) -------------------------------------

def test_linear_graph_follows_at_linear():
    torch = torch_or_skip()
    x, w, b = _array((2, 3, 4)), _array((5, 4), seed=1), _array((5,), seed=2)
    graphs = []
    for lib in (minigrad, torch):
        t, tw, tb = (lib.from_numpy(a.copy()).requires_grad_(True) for a in (x, w, b))
        F = lib.nn.functional
        graphs.append([_graph(F.linear(t.transpose(0, 1), tw, tb)),              # matmul, then add_
                       _graph(F.linear(t.transpose(0, 1)[:, :1], tw, tb)),       # contiguous: one addmm
                       _graph(F.linear(t, tw, tb)), _graph(F.linear(t[0, 0], tw, tb)),
                       _graph(F.linear(t.transpose(0, 1)[None], tw, tb))])
    assert graphs[0] == graphs[1]
    assert graphs[0][0][0][0] == "AddBackward0"


# ---- whole programs -----------------------------------------------------------------------------------

def test_program_sequence_model_training():
    """A small LSTM/GRU sequence model trained for a few steps: same losses, outputs and gradients printed."""
    mine, theirs = run_both("""
import torch
torch.manual_seed(0)
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(3, 5, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = torch.nn.GRU(10, 4)
        self.cell = torch.nn.GRUCell(4, 4)
        self.head = torch.nn.Linear(4, 2)
    def forward(self, x):
        y, (h, c) = self.lstm(x)
        y, h = self.gru(y.transpose(0, 1))
        return self.head(self.cell(y[-1], h[0]))
model = Model().double()
with torch.no_grad():   # the same parameters in both libraries (their random streams differ)
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel(), dtype=torch.float64).view_as(p).roll(i))
x = torch.linspace(-1, 1, 2 * 6 * 3, dtype=torch.float64).view(2, 6, 3).sin()
target = torch.tensor([[0.5, -0.5], [1.0, 0.0]], dtype=torch.float64)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 10), type(out.grad_fn).__name__,
          model.lstm.weight_hh_l1_reverse.grad.norm().item().__round__(10))
print(model)
""")
    assert mine == theirs
    assert "LSTM(3, 5, num_layers=2, batch_first=True, bidirectional=True)" in mine


def test_program_conv_autoencoder():
    """Conv2d with reflect padding down, ConvTranspose2d up: same output, loss and gradients printed."""
    mine, theirs = run_both("""
import torch
nn = torch.nn
model = nn.Sequential(nn.Conv2d(1, 3, 3, stride=2, padding=1, padding_mode='reflect'), nn.Tanh(),
                      nn.ConvTranspose2d(3, 1, 3, stride=2, padding=1, output_padding=1), nn.ReplicationPad2d(1))
model = model.double()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel(), dtype=torch.float64).view_as(p).roll(i))
x = torch.arange(2 * 36, dtype=torch.float64).view(2, 1, 6, 6).cos().requires_grad_()
y = model(x)
loss = (y ** 2).mean()
loss.backward()
print(model)
print(y.shape, type(y.grad_fn).__name__, round(loss.item(), 10))
print(x.grad.sum().item().__round__(10), model[2].weight.grad.flatten()[:4])
""")
    assert mine == theirs
