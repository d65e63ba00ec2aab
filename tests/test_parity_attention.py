"""Attention and transformer layers against PyTorch: F.scaled_dot_product_attention (fused CPU node or math
composite), nn.MultiheadAttention / F.multi_head_attention_forward, and the nn.Transformer family."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import minigrad
from tests.parity import assert_close, same_as_torch, torch_or_skip

F = minigrad.nn.functional
# (PyTorch's own warnings here -- nested tensors are a prototype, mismatched mask types -- are expected)
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _graph(fn) -> str:
    """The whole graph below ``fn`` as nested node names."""
    if fn is None:
        return "None"
    return fn.name().split("::")[-1] + "(" + ",".join(_graph(n) for n, _ in fn.next_functions) + ")"


def _arrays(shapes, dtype=np.float32, seed=0) -> list:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


# ---- hand-computed values --------------------------------------------------------------------------

def test_sdpa_hand_computed():
    # one query, two keys: scores (q·k)/√2 = (0, 1/√2 · 2) -> softmax weights (1, e^√2)/(1 + e^√2)
    q = minigrad.tensor([[[[1.0, -1.0]]]])
    k = minigrad.tensor([[[[1.0, 1.0], [2.0, 0.0]]]])
    v = minigrad.tensor([[[[10.0, 0.0], [0.0, 10.0]]]])
    w = math.exp(math.sqrt(2)) / (1 + math.exp(math.sqrt(2)))
    np.testing.assert_allclose(F.scaled_dot_product_attention(q, k, v).numpy()[0, 0, 0], [10 * (1 - w), 10 * w],
                               rtol=1e-6)
    # causal on a (2, 2) problem: the first query sees only the first key
    out = F.scaled_dot_product_attention(k, k, v, is_causal=True).numpy()[0, 0]
    np.testing.assert_allclose(out[0], [10.0, 0.0])
    # a fully masked row gives zeros (not NaN), in both the fused node and the math composite
    mask = minigrad.tensor([[False, False]])
    for args in ((q, k, v), (q[0], k[0], v[0])):
        np.testing.assert_array_equal(F.scaled_dot_product_attention(*args, attn_mask=mask).numpy().ravel(), [0, 0])


def test_sdpa_flash_gradients_hand_computed():
    # with all keys equal the weights are uniform: dV = Pᵀ·g = g/S summed over queries, dQ = 0 (scores constant)
    q = minigrad.randn(1, 1, 3, 2, requires_grad=True)
    k = minigrad.ones(1, 1, 4, 2, requires_grad=True)
    v = minigrad.randn(1, 1, 4, 2, requires_grad=True)
    out = F.scaled_dot_product_attention(q, k, v)
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    out.sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), np.full((1, 1, 4, 2), 3 / 4), rtol=1e-6)
    np.testing.assert_allclose(q.grad.numpy(), 0, atol=1e-7)


def test_generate_square_subsequent_mask_and_mha_weights_hand_computed():
    mask = minigrad.nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.tolist() == [[0.0, -math.inf, -math.inf], [0.0, 0.0, -math.inf], [0.0, 0.0, 0.0]]
    m = minigrad.nn.MultiheadAttention(4, 2)
    x = minigrad.randn(3, 1, 4)
    _, w = m(x, x, x, attn_mask=mask)
    # causal weights: row i is a distribution over the first i+1 keys
    np.testing.assert_allclose(w.detach().numpy()[0].sum(-1), 1, rtol=1e-6)
    assert w[0, 0].tolist()[1:] == [0.0, 0.0] and w[0, 1, 2].item() == 0.0


# ---- scaled_dot_product_attention vs PyTorch ----------------------------------------------------------

B4 = [(2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)]
B3 = [(3, 4, 8), (3, 5, 8), (3, 5, 8)]
TRIL = np.tril(np.ones((4, 5), bool))
SDPA_CASES = [   # (id, shapes, keyword arguments (NumPy masks), which inputs require grad, dtype)
    ("fused", B4, {}, (1, 1, 1), np.float32),
    ("fused-causal", B4, {"is_causal": True}, (1, 1, 1), np.float32),
    ("fused-bool-mask", B4, {"attn_mask": TRIL}, (1, 1, 1), np.float32),
    ("fused-float-mask-4d", B4, {"attn_mask": np.linspace(-1, 1, 40, dtype=np.float32).reshape(2, 1, 4, 5)},
     (1, 1, 1), np.float32),
    ("fused-gqa-scale", [(2, 4, 3, 8), (2, 2, 5, 8), (2, 2, 5, 8)], {"enable_gqa": True, "scale": -0.3},
     (1, 1, 1), np.float32),
    ("fused-query-only-float64", B4, {}, (1, 0, 0), np.float64),
    ("math-3d", B3, {}, (1, 1, 1), np.float32),
    ("math-3d-mask", B3, {"attn_mask": TRIL}, (1, 1, 1), np.float32),
    ("math-3d-causal-scale", B3, {"is_causal": True, "scale": -0.3}, (1, 1, 1), np.float32),
    ("math-2d", [(4, 8), (5, 8), (5, 8)], {}, (1, 1, 1), np.float32),
    ("math-3d-float16", B3, {"attn_mask": TRIL}, (1, 1, 1), np.float16),   # computed in float32, cast back
    ("math-gqa-3d", [(4, 3, 8), (2, 5, 8), (2, 5, 8)], {"enable_gqa": True}, (1, 1, 1), np.float32),
    ("math-value-dim", [(2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 6)], {}, (1, 1, 1), np.float32),
    ("math-batch-broadcast", [(2, 3, 4, 8), (1, 3, 5, 8), (1, 3, 5, 8)], {}, (1, 1, 1), np.float32),
    ("math-fully-masked-row", B3, {"attn_mask": np.array([[1, 1, 0, 0, 0], [0] * 5, [1] * 5, [1, 0, 0, 0, 0]],
                                                          bool)}, (1, 1, 1), np.float32),
    ("empty-query", [(2, 3, 0, 8), (2, 3, 5, 8), (2, 3, 5, 8)], {}, (1, 1, 1), np.float32),
    ("empty-keys", [(2, 3, 4, 8), (2, 3, 0, 8), (2, 3, 0, 8)], {}, (1, 1, 1), np.float32),
]


@pytest.mark.parametrize("shapes,kwargs,grads,dtype", [c[1:] for c in SDPA_CASES], ids=[c[0] for c in SDPA_CASES])
def test_sdpa_matches_torch(shapes, kwargs, grads, dtype):
    torch = torch_or_skip()
    arrays = _arrays(shapes, dtype)
    results = []
    for mod in (torch, minigrad):
        ins = [mod.tensor(a, requires_grad=bool(g)) for a, g in zip(arrays, grads)]
        kw = {k: mod.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        out = mod.nn.functional.scaled_dot_product_attention(*ins, **kw)
        graph = _graph(out.grad_fn)
        out.backward(mod.ones_like(out) * 0.5 if out.numel() else mod.ones_like(out))
        results.append((out, graph, [t.grad for t in ins], out.stride()))
    (t_out, t_graph, t_grads, t_stride), (m_out, m_graph, m_grads, m_stride) = results
    assert m_graph == t_graph and tuple(m_out.shape) == tuple(t_out.shape) and m_stride == t_stride
    if "Flash" not in m_graph:   # the math composite: PyTorch's bits
        np.testing.assert_array_equal(m_out.detach().numpy(), t_out.detach().numpy())
    assert_close(m_out, t_out, rtol=1e-5, atol=1e-6)
    for mg, tg in zip(m_grads, t_grads):
        assert (mg is None) == (tg is None)
        if mg is not None:
            assert_close(mg, tg, rtol=1e-5, atol=2e-6)


def test_sdpa_fused_node_saved_values_and_double_backward():
    torch = torch_or_skip()
    arrays = _arrays(B4)
    rows = []
    for mod in (torch, minigrad):
        q, k, v = (mod.tensor(a, requires_grad=True) for a in arrays)
        out = mod.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mod.tensor(TRIL))
        fn = out.grad_fn
        saved = sorted(a for a in dir(fn) if a.startswith("_saved_"))
        rows.append((saved, fn._saved_attn_mask, fn._saved_logsumexp, fn._saved_scale, fn._saved_is_causal,
                     fn._saved_dropout_p, fn._saved_logsumexp.stride(), fn._saved_output.stride()))
        g = mod.autograd.grad(out.sum(), (q, k, v), create_graph=True)
        # PyTorch's fused backward has no derivative: one NotImplemented node, edges only to what requires grad
        assert g[0].grad_fn is g[1].grad_fn and g[0].grad_fn.name() == "torch::autograd::NotImplemented"
        rows.append([type(n).__name__ for n, _ in g[0].grad_fn.next_functions])
        with pytest.raises(RuntimeError, match="derivative for aten::_scaled_dot_product_flash_attention_for_cpu_"
                                               "backward is not implemented"):
            g[0].sum().backward()
    (t_saved, *t_rest), t_edges, (m_saved, *m_rest), m_edges = rows
    assert m_saved == t_saved and m_edges == t_edges
    assert_close(m_rest[0], t_rest[0])   # the bool mask, saved as the additive float one (0 / -inf)
    assert_close(m_rest[1], t_rest[1])   # logsumexp
    assert m_rest[2:] == t_rest[2:]


SDPA_ERRORS = [
    ([(2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)], {"dtype_k": np.float64}),
    ([(8,), (2, 3, 5, 8), (2, 3, 5, 8)], {}),
    ([(2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)], {"attn_mask": np.ones((4, 5), np.int64)}),
    ([(2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)], {"attn_mask": np.ones((5,), bool)}),
    ([(2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)], {"attn_mask": np.ones((3, 5), bool)}),
    (B3, {"attn_mask": np.ones((4, 5), bool), "is_causal": True}),
    ([(2, 3, 4, 8), (2, 2, 5, 8), (2, 2, 5, 8)], {}),
    ([(2, 3, 4, 8), (2, 2, 5, 8), (2, 2, 5, 8)], {"enable_gqa": True}),
    ([(2, 3, 4, 8), (2, 3, 5, 7), (2, 3, 5, 8)], {}),
]


@pytest.mark.parametrize("shapes,kwargs", SDPA_ERRORS)
def test_sdpa_errors_match_torch(shapes, kwargs):
    torch = torch_or_skip()
    arrays = _arrays(shapes)
    kwargs = dict(kwargs)
    if kwargs.pop("dtype_k", None) is not None:
        arrays[1] = arrays[1].astype(np.float64)
    errors = []
    for mod in (torch, minigrad):
        kw = {k: mod.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        with pytest.raises((RuntimeError, IndexError)) as info:
            mod.nn.functional.scaled_dot_product_attention(*(mod.tensor(a) for a in arrays), **kw)
        errors.append((info.type, str(info.value)))
    assert errors[1] == errors[0]


# ---- MultiheadAttention ------------------------------------------------------------------------------

E = 8
CAUSAL = np.triu(np.ones((5, 5), bool), 1)
PADDING = np.array([[0, 0, 0, 1, 1]] * 3, bool)
MHA_CASES = [   # (id, constructor kwargs, input shapes, which inputs are the same tensor, forward kwargs, train)
    ("self", {}, [(5, 3, E)], "qkv", {}, False),
    ("self-no-weights", {}, [(5, 3, E)], "qkv", {"need_weights": False}, False),
    ("kv-shared", {}, [(5, 3, E), (4, 3, E)], "kv", {}, False),
    ("separate", {}, [(5, 3, E), (4, 3, E), (4, 3, E)], "", {"average_attn_weights": False}, False),
    ("kdim-vdim", {"kdim": 3, "vdim": 5}, [(5, 3, E), (4, 3, 3), (4, 3, 5)], "", {}, False),
    ("batch-first", {"batch_first": True, "num_heads": 4}, [(3, 5, E)], "qkv", {}, False),
    ("no-bias", {"bias": False}, [(5, 3, E)], "qkv", {"need_weights": False}, False),
    ("bias-kv-zero-attn", {"add_bias_kv": True, "add_zero_attn": True}, [(5, 3, E)], "qkv",
     {"attn_mask": CAUSAL, "key_padding_mask": PADDING}, False),
    ("unbatched", {}, [(5, E)], "qkv", {}, False),
    ("unbatched-no-weights", {}, [(5, E)], "qkv", {"need_weights": False}, False),
    ("masks", {}, [(5, 3, E)], "qkv", {"attn_mask": CAUSAL, "key_padding_mask": PADDING}, False),
    ("masks-no-weights", {}, [(5, 3, E)], "qkv",
     {"attn_mask": CAUSAL, "key_padding_mask": PADDING, "need_weights": False}, False),
    ("float-3d-mask", {}, [(5, 3, E)], "qkv",
     {"attn_mask": np.linspace(-2, 2, 150, dtype=np.float32).reshape(6, 5, 5)}, False),
    ("causal-hint", {}, [(5, 3, E)], "qkv", {"attn_mask": CAUSAL, "is_causal": True, "need_weights": False}, False),
    ("dropout-train", {"dropout": 0.3}, [(5, 3, E)], "qkv", {}, True),
    ("dropout-train-batch-first-no-weights", {"dropout": 0.3, "batch_first": True}, [(3, 5, E)], "qkv",
     {"need_weights": False}, True),
]


def _mha_inputs(mod, shapes, same):
    ins = [mod.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=1)]
    if same == "qkv":
        return [ins[0]] * 3, ins
    return ([ins[0], ins[1], ins[1]] if same == "kv" else ins), ins


@pytest.mark.parametrize("ctor,shapes,same,kwargs,train", [c[1:] for c in MHA_CASES], ids=[c[0] for c in MHA_CASES])
def test_multihead_attention_matches_torch(ctor, shapes, same, kwargs, train):
    torch = torch_or_skip()
    results = []
    for mod in (torch, minigrad):
        mod.manual_seed(0)
        m = mod.nn.MultiheadAttention(**{"embed_dim": E, "num_heads": 2, **ctor}).train(train)
        args, leaves = _mha_inputs(mod, shapes, same)
        kw = {k: mod.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        mod.manual_seed(5)
        out, weights = m(*args, **kw)
        graphs = (_graph(out.grad_fn), None if weights is None else _graph(weights.grad_fn))
        out.square().sum().backward()
        results.append((m, out, weights, graphs, leaves))
    (tm, t_out, t_w, t_graphs, t_leaves), (mm, m_out, m_w, m_graphs, m_leaves) = results
    assert repr(mm) == repr(tm)
    assert list(mm.state_dict()) == list(tm.state_dict())
    for (name, p), (_, tp) in zip(mm.named_parameters(), tm.named_parameters()):   # default init, bit for bit
        np.testing.assert_array_equal(p.detach().numpy(), tp.detach().numpy(), err_msg=name)
    assert m_graphs == t_graphs
    assert tuple(m_out.shape) == tuple(t_out.shape)
    assert_close(m_out, t_out)
    assert (m_w is None) == (t_w is None)
    if t_w is not None:
        assert tuple(m_w.shape) == tuple(t_w.shape)
        assert_close(m_w, t_w)
    for a, b in zip(list(mm.parameters()) + m_leaves, list(tm.parameters()) + t_leaves):
        assert_close(a.grad, b.grad, rtol=1e-4, atol=1e-5)


MHA_ERRORS = [
    ([(5, 3, E)], {"attn_mask": np.zeros((4, 5), np.float32)}),
    ([(5, 3, E)], {"attn_mask": np.zeros((5, 5), np.int64)}),
    ([(5, 3, E)], {"attn_mask": np.zeros((5,), np.float32)}),
    ([(5, 3, 2, E)], {}),
    ([(5, 3, 6)], {}),
    ([(5, 3, E)], {"is_causal": True}),
    ([(5, 3, E)], {"key_padding_mask": np.zeros((3, 4), bool)}),
]


@pytest.mark.parametrize("shapes,kwargs", MHA_ERRORS)
def test_multihead_attention_errors_match_torch(shapes, kwargs):
    torch = torch_or_skip()
    errors = []
    for mod in (torch, minigrad):
        m = mod.nn.MultiheadAttention(E, 2)
        args, _ = _mha_inputs(mod, shapes, "qkv")
        with pytest.raises((RuntimeError, AssertionError)) as info:
            m(*args, **{k: mod.tensor(v) for k, v in kwargs.items() if isinstance(v, np.ndarray)},
              **{k: v for k, v in kwargs.items() if not isinstance(v, np.ndarray)})
        errors.append((info.type, str(info.value)))
    assert errors[1] == errors[0]
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        minigrad.nn.MultiheadAttention(6, 4)


def test_mixed_mask_types_warn_like_torch():
    torch = torch_or_skip()
    messages = []
    for mod in (torch, minigrad):
        m = mod.nn.MultiheadAttention(E, 2)
        x = mod.zeros(5, 3, E)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m(x, x, x, attn_mask=mod.zeros(5, 5), key_padding_mask=mod.tensor(PADDING))
        messages.append([str(w.message) for w in caught])
    assert messages[1] == messages[0] and messages[0]


def test_multi_head_attention_forward_functional():
    torch = torch_or_skip()
    outs = []
    for mod in (torch, minigrad):
        mod.manual_seed(3)
        q, k, v = (mod.randn(4, 2, E, requires_grad=True) for _ in range(3))
        w_in, b_in, w_out, b_out = mod.randn(3 * E, E), mod.randn(3 * E), mod.randn(E, E), mod.randn(E)
        static_k, static_v = mod.randn(4, 6, 4), mod.randn(4, 6, 4)
        o, w = mod.nn.functional.multi_head_attention_forward(
            q, k, v, E, 2, w_in, b_in, None, None, False, 0.0, w_out, b_out, training=False,
            static_k=static_k, static_v=static_v)
        outs.append((o, w, _graph(o.grad_fn)))
    assert outs[1][2] == outs[0][2]
    assert_close(outs[1][0], outs[0][0], rtol=1e-5, atol=1e-5)
    assert_close(outs[1][1], outs[0][1])


def test_multihead_attention_inference_fast_path_values():
    """PyTorch takes _native_multi_head_attention in eval mode without grad; minigrad runs the composite."""
    torch = torch_or_skip()
    outs = []
    for mod in (torch, minigrad):
        mod.manual_seed(0)
        m = mod.nn.MultiheadAttention(E, 2, batch_first=True).eval()
        x = mod.tensor(_arrays([(3, 5, E)])[0])
        with mod.no_grad():
            outs.append(m(x, x, x, key_padding_mask=mod.tensor(PADDING)))
    assert_close(outs[1][0], outs[0][0])
    assert_close(outs[1][1], outs[0][1])


# ---- the Transformer family --------------------------------------------------------------------------

def _causal(mod, n):
    return mod.nn.Transformer.generate_square_subsequent_mask(n)


TRANSFORMER_CASES = [   # (id, builder, input shapes, forward kwargs, train)
    ("encoder-layer", lambda nn: nn.TransformerEncoderLayer(E, 2, 16), [(5, 3, E)], lambda mod: {}, False),
    ("encoder-layer-train", lambda nn: nn.TransformerEncoderLayer(E, 2, 16), [(5, 3, E)], lambda mod: {}, True),
    ("encoder-layer-gelu-norm-first-batch-first",
     lambda nn: nn.TransformerEncoderLayer(E, 2, 16, activation="gelu", norm_first=True, batch_first=True),
     [(3, 5, E)], lambda mod: {}, True),
    ("encoder-layer-callable-no-bias", lambda nn: nn.TransformerEncoderLayer(E, 2, 16, activation=minigrad.tanh
                                                                             if nn is minigrad.nn else None,
                                                                             bias=False),
     [(5, 3, E)], lambda mod: {}, False),
    ("encoder-layer-masks", lambda nn: nn.TransformerEncoderLayer(E, 2, 16), [(5, 3, E)],
     lambda mod: {"src_mask": _causal(mod, 5), "src_key_padding_mask": mod.tensor(PADDING)}, False),
    ("encoder", lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(E, 2, 16), 2, nn.LayerNorm(E)),
     [(5, 3, E)], lambda mod: {"mask": _causal(mod, 5)}, True),
    ("decoder-layer", lambda nn: nn.TransformerDecoderLayer(E, 2, 16), [(4, 3, E), (5, 3, E)], lambda mod: {},
     True),
    ("decoder", lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(E, 2, 16, norm_first=True), 2,
                                                 nn.LayerNorm(E)),
     [(4, 3, E), (5, 3, E)], lambda mod: {"tgt_mask": _causal(mod, 4)}, False),
    ("transformer", lambda nn: nn.Transformer(E, 2, 2, 2, 16), [(5, 3, E), (4, 3, E)],
     lambda mod: {"tgt_mask": _causal(mod, 4)}, True),
    ("transformer-batch-first-padding", lambda nn: nn.Transformer(E, 2, 1, 1, 16, batch_first=True),
     [(3, 5, E), (3, 4, E)],
     lambda mod: {"tgt_mask": _causal(mod, 4), "tgt_is_causal": True, "src_key_padding_mask": mod.tensor(PADDING),
                  "memory_key_padding_mask": mod.tensor(PADDING)}, False),
]


def _build(torch, builder):
    """The builder's module for minigrad and torch (the callable activation: tanh of each library)."""
    def make(mod):
        mod.manual_seed(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = builder(mod.nn)
        if isinstance(m, mod.nn.TransformerEncoderLayer) and m.activation is None:
            m.activation = mod.tanh
        return m, [str(w.message) for w in caught]
    return make(torch), make(minigrad)


@pytest.mark.parametrize("builder,shapes,kwargs,train", [c[1:] for c in TRANSFORMER_CASES],
                         ids=[c[0] for c in TRANSFORMER_CASES])
def test_transformer_modules_match_torch(builder, shapes, kwargs, train):
    torch = torch_or_skip()
    results = []
    for mod, (m, warned) in zip((torch, minigrad), _build(torch, builder)):
        m.train(train)
        ins = [mod.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=2)]
        mod.manual_seed(7)
        out = m(*ins, **kwargs(mod))
        graph = _graph(out.grad_fn)
        out.square().sum().backward()
        results.append((m, warned, out, graph, ins))
    (tm, t_warned, t_out, t_graph, t_ins), (mm, m_warned, m_out, m_graph, m_ins) = results
    assert repr(mm) == repr(tm) and m_warned == t_warned
    assert [(n, tuple(p.shape)) for n, p in mm.state_dict().items()] == [
        (n, tuple(p.shape)) for n, p in tm.state_dict().items()]
    for (name, p), tp in zip(mm.state_dict().items(), tm.state_dict().values()):   # default init, bit for bit
        np.testing.assert_array_equal(p.numpy(), tp.numpy(), err_msg=name)
    assert m_graph == t_graph and tuple(m_out.shape) == tuple(t_out.shape)
    assert_close(m_out, t_out, rtol=1e-5, atol=2e-6)
    for a, b in zip(list(mm.parameters()) + m_ins, list(tm.parameters()) + t_ins):
        assert_close(a.grad, b.grad, rtol=1e-4, atol=5e-5)


@pytest.mark.parametrize("padding", [True, False])
def test_encoder_inference_fast_path_values(padding):
    """Eval + no grad: PyTorch's _transformer_encoder_layer_fwd (and, with a key padding mask, nested tensors,
    which leave zeros at the padded positions before the final norm); minigrad's composite gives the same values."""
    torch = torch_or_skip()
    outs = []
    for mod in (torch, minigrad):
        mod.manual_seed(0)
        enc = mod.nn.TransformerEncoder(mod.nn.TransformerEncoderLayer(E, 2, 16, batch_first=True), 2).eval()
        x = mod.tensor(_arrays([(3, 5, E)], seed=4)[0])
        with mod.no_grad():
            outs.append(enc(x, src_key_padding_mask=mod.tensor(PADDING) if padding else None))
    assert_close(outs[1], outs[0], rtol=1e-5, atol=2e-6)
    if padding:
        assert not outs[1][:, 3:].numpy().any()


def test_transformer_errors_and_helpers_match_torch():
    torch = torch_or_skip()
    errors = []
    for mod in (torch, minigrad):
        mod.manual_seed(0)
        t = mod.nn.Transformer(E, 2, 1, 1, 16)
        for args in (((5, 3, E), (4, 2, E)), ((5, 3, E), (4, 3, 6))):
            with pytest.raises(RuntimeError) as info:
                t(mod.zeros(*args[0]), mod.zeros(*args[1]))
            errors.append(str(info.value))
        with pytest.raises(RuntimeError) as info:
            mod.nn.TransformerEncoderLayer(E, 2, activation="tanh")
        errors.append(str(info.value))
        errors.append(repr(mod.nn.Transformer.generate_square_subsequent_mask(3, dtype=mod.float64)))
    assert errors[4:] == errors[:4]


def test_dropout_of_a_transposed_input_draws_in_memory_order():
    """F.dropout on x.transpose(0, 1) (MultiheadAttention's batch_first output): PyTorch's noise follows memory."""
    torch = torch_or_skip()
    base = _arrays([(5, 3, 8)], seed=6)[0]
    outs = []
    for mod in (torch, minigrad):
        mod.manual_seed(11)
        outs.append(mod.nn.functional.dropout(mod.tensor(base).transpose(0, 1), 0.4).numpy())
    np.testing.assert_array_equal(outs[1], outs[0])


def test_tutorial_style_program_prints_the_same():
    """A small training step on nn.Transformer, printed, under ``import torch`` for both libraries."""
    torch_or_skip()
    program = """
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16,
                       batch_first=True)
src, tgt = torch.randn(2, 5, 8), torch.randn(2, 4, 8)
out = model(src, tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4))
print(out.shape, out.grad_fn)
out.sum().backward()
print(model.decoder.layers[0].multihead_attn.in_proj_weight.grad.shape)
print(nn.Transformer.generate_square_subsequent_mask(3))
print(model.encoder.layers[0].self_attn)
print(sorted(model.state_dict())[:4])
"""
    out = same_as_torch(program, prelude="")
    assert "torch.Size([2, 4, 8]) <NativeLayerNormBackward0 object at" in out
