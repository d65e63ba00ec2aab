"""Session 11: viz on real-world-style graphs (a small CNN, LSTMs, Transformer layers, custom Functions,
double backward, hooks, a trained model), drawn from PyTorch and from minigrad: the same DOT texts (saved
tensors, forward direction, automatic names, gradients after backward) and the same stepper frames; the plot
helpers compute the same data with either library. Plus what the graph fuzzer's new seeds found."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: parity

from parity import torch_or_skip  # noqa: E402
from test_viz_graph_fuzz import KINDS, NO_RENDERER, differences  # noqa: E402

import viz  # noqa: E402
from viz import plots  # noqa: E402


def _init(torch, m, seed=0):
    rs = np.random.RandomState(seed)
    for p in m.parameters():
        p.data = torch.tensor((rs.randn(*p.shape) * 0.5).astype(np.float32))
    return m


def _inp(torch, shape, seed=1, rg=False):
    return torch.tensor(np.random.RandomState(seed).randn(*shape).astype(np.float32), requires_grad=rg)


# Each program takes the library as ``torch`` and returns (tensors to draw, their names, the root of backward).


def cnn(torch):
    nn = torch.nn
    m = _init(torch, nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                                   nn.Conv2d(4, 4, 3, stride=2, groups=2, bias=False), nn.AdaptiveAvgPool2d(1),
                                   nn.Flatten(), nn.Linear(4, 3)))
    y = nn.functional.cross_entropy(m(_inp(torch, (2, 2, 6, 6))), torch.tensor([0, 2]))
    return [y], dict(m.named_parameters()), y


def cnn_eval(torch):
    nn = torch.nn
    m = _init(torch, nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Dropout(0.5), nn.SiLU(), nn.Flatten(),
                                   nn.Linear(8, 2)))
    m.eval()
    x = _inp(torch, (3, 1, 4, 4), rg=True)
    y = m(x).log_softmax(-1).mean()
    return [y], {"x": x, **dict(m.named_parameters())}, y


def lstm_bidirectional_proj(torch):
    m = _init(torch, torch.nn.LSTM(2, 4, bidirectional=True, proj_size=2))
    h0, c0 = _inp(torch, (2, 1, 2), 3, True), _inp(torch, (2, 1, 4), 4, True)
    out, (h, c) = m(_inp(torch, (3, 1, 2)), (h0, c0))
    y = out.sum() + c.sum()
    return [y, h], {"h0": h0, "c0": c0, **dict(m.named_parameters())}, y


def gru_into_rnn(torch):
    g = _init(torch, torch.nn.GRU(3, 2, batch_first=True))
    r = _init(torch, torch.nn.RNN(2, 2, nonlinearity="relu"), 1)
    x = _inp(torch, (1, 4, 3), rg=True)
    o, h = g(x)
    o2, _ = r(o.transpose(0, 1))
    y = o2.sum() + h.sum()
    return [y], {"x": x}, y


def transformer_encoder_norm_first(torch):
    layer = _init(torch, torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True,
                                                          norm_first=True, activation="gelu"))
    x = _inp(torch, (2, 3, 4), rg=True)
    mask = torch.tensor([[False, False, True], [False, False, False]])
    y = layer(x, src_key_padding_mask=mask).pow(2).mean()
    return [y], {"x": x}, y


def transformer_encoder_causal(torch):
    layer = _init(torch, torch.nn.TransformerEncoderLayer(4, 1, dim_feedforward=6, dropout=0.0))
    x = _inp(torch, (3, 1, 4), rg=True)
    y = layer(x, src_mask=torch.nn.Transformer.generate_square_subsequent_mask(3), is_causal=True).sum()
    return [y], {"x": x}, y


def attention_kdim_vdim(torch):
    m = _init(torch, torch.nn.MultiheadAttention(4, 2, kdim=3, vdim=5))
    q = _inp(torch, (2, 1, 4), rg=True)
    o, w = m(q, _inp(torch, (3, 1, 3), 2), _inp(torch, (3, 1, 5), 3), average_attn_weights=False)
    y = o.sum() + w.sum()
    return [y, w], {"q": q}, y


def sdpa_causal(torch):
    q, k, v = (_inp(torch, (1, 2, 3, 4), s, True) for s in (1, 2, 3))
    y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True).sum()
    return [y], {"q": q, "k": k, "v": v}, y


def custom_functions(torch):
    class Sq(torch.autograd.Function):  # two outputs, one not differentiable; a Python number in ctx
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x * x * k, (x > 0)

        @staticmethod
        def backward(ctx, g, _g_mask):
            (x,) = ctx.saved_tensors
            return 2 * x * g * ctx.k, None

    class Double_(torch.autograd.Function):  # in place (mark_dirty)
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Mul(torch.autograd.Function):  # forward without ctx, setup_context
        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

    x, b = _inp(torch, (3,), rg=True), _inp(torch, (3,), 2, True)
    y, m = Sq.apply(x, 3.0)
    z = Double_.apply(y.clone())
    out = (Mul.apply(z, b) * m).sum()
    return [out, m], {"x": x, "b": b}, out


def gradient_penalty(torch):
    m = _init(torch, torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)))
    x = _inp(torch, (2, 3), rg=True)
    (g,) = torch.autograd.grad(m(x).sum(), x, create_graph=True)
    pen = ((g.norm(2, dim=1) - 1) ** 2).mean()
    return [pen, g], {"x": x, **dict(m.named_parameters())}, pen


def hessian_vector_product(torch):
    x, v = _inp(torch, (3,), rg=True), _inp(torch, (3,), 5)
    (g,) = torch.autograd.grad((x.sin() * x.exp()).sum() + (x @ x) ** 2, x, create_graph=True)
    (h,) = torch.autograd.grad((g * v).sum(), x, create_graph=True)
    out = h.sum()
    return [out, g, h], {"x": x}, out


def tensor_and_node_hooks(torch):
    x, w = _inp(torch, (3,), rg=True), _inp(torch, (3,), 2, True)
    w.register_hook(lambda g: g * 2)
    y = x * w
    y.register_hook(lambda g: g + 1)
    y.retain_grad()
    z = y.exp()
    z.grad_fn.register_prehook(lambda go: (go[0] * 0.5,))
    z.grad_fn.register_hook(lambda gi, go: None)
    x.register_post_accumulate_grad_hook(lambda p: None)
    out = z.sum()
    return [out], {"x": x, "w": w, "y": y}, out


def module_hooks(torch):
    m = _init(torch, torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU()))
    m.register_full_backward_hook(lambda mod, gi, go: None)  # (BackwardHookFunctionBackward nodes)
    m[0].register_full_backward_pre_hook(lambda mod, go: None)
    m[0].register_forward_hook(lambda mod, i, o: o * 2)
    x = _inp(torch, (2, 3), rg=True)
    out = m(x).sum()
    return [out], {"x": x, **dict(m.named_parameters())}, out


def embedding_layer_norm(torch):
    emb = _init(torch, torch.nn.Embedding(5, 4, padding_idx=0))
    ln = _init(torch, torch.nn.LayerNorm(4), 1)
    out = torch.nn.functional.gelu(ln(emb(torch.tensor([[0, 2, 4], [1, 1, 3]]))), approximate="tanh").mean()
    return [out], dict(emb.named_parameters()), out


def conv1d_groupnorm_transpose(torch):
    nn = torch.nn
    m = _init(torch, nn.Sequential(nn.Conv1d(2, 4, 3, padding="same"), nn.GroupNorm(2, 4), nn.LeakyReLU(0.1),
                                   nn.ConvTranspose1d(4, 2, 2, stride=2), nn.Upsample(scale_factor=2)))
    x = _inp(torch, (1, 2, 5), rg=True)
    out = m(x).abs().sum()
    return [out], {"x": x}, out


def after_two_optimizer_steps(torch):
    m = _init(torch, torch.nn.Linear(3, 2))
    x = _inp(torch, (4, 3))
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    for _ in range(2):
        opt.zero_grad()
        torch.nn.functional.mse_loss(m(x), torch.zeros(4, 2)).backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
        opt.step()
    loss = torch.nn.functional.mse_loss(m(x), torch.zeros(4, 2))
    return [loss], dict(m.named_parameters()), loss


def checkpointed_block(torch):
    m = _init(torch, torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.GELU()))
    x = _inp(torch, (2, 3), rg=True)
    out = torch.utils.checkpoint.checkpoint(m, x, use_reentrant=False).sum()
    return [out], {"x": x}, out


def parametrized_linear(torch):
    lin = torch.nn.utils.parametrizations.weight_norm(_init(torch, torch.nn.Linear(3, 2)))
    orth = torch.nn.utils.parametrizations.orthogonal(_init(torch, torch.nn.Linear(2, 2), 1))
    out = orth(lin(_inp(torch, (2, 3)))).sum()
    return [out], {**dict(lin.named_parameters()), **dict(orth.named_parameters())}, out


def batch_norm_stats_reset(torch):
    # (the graph fuzzer's nn seed 40066) reset_running_stats() writes the saved running statistics in place:
    # PyTorch's backward refuses them; the stepper shows the same error
    bn = torch.nn.BatchNorm1d(1)
    x = _inp(torch, (3, 1, 2), rg=True)
    y = bn(x)
    bn.reset_running_stats()
    out = y.sum()
    return [out], {"x": x}, out


def residual_in_place(torch):
    l1, l2 = _init(torch, torch.nn.Linear(3, 3)), _init(torch, torch.nn.Linear(3, 3), 1)
    x = _inp(torch, (2, 3), rg=True)
    h = l1(x)
    h += l2(h.relu())
    h[:, 0] = h[:, 1] * 2
    h.mul_(0.5)
    out = h.sum()
    return [out], {"x": x}, out


def packed_gru(torch):
    g = _init(torch, torch.nn.GRU(2, 3))
    x = _inp(torch, (4, 2, 2), rg=True)
    o, h = g(torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor([4, 2])))
    o, _lengths = torch.nn.utils.rnn.pad_packed_sequence(o)
    out = o.sum() + h.sum()
    return [out], {"x": x}, out


def vision_ops(torch):
    F = torch.nn.functional
    x = _inp(torch, (1, 2, 4, 4), rg=True)
    grid = _inp(torch, (1, 3, 3, 2), 2, True).tanh()
    out = (F.grid_sample(x, grid, align_corners=False).sum() + F.interpolate(x, scale_factor=1.5, mode="bicubic").mean()
           + F.fold(F.unfold(x, 2, stride=2), (4, 4), 2, stride=2).pow(2).sum() + torch.cdist(x[0, 0], x[0, 1]).sum())
    return [out], {"x": x}, out


def distributions_rsample(torch):
    mu, log_sigma = _inp(torch, (3,), rg=True), _inp(torch, (3,), 2, True)
    torch.manual_seed(0)
    d = torch.distributions.Normal(mu, log_sigma.exp())
    out = (d.log_prob(d.rsample()).sum()
           + torch.distributions.kl_divergence(d, torch.distributions.Normal(0.0, 1.0)).sum())
    return [out], {"mu": mu, "log_sigma": log_sigma}, out


def mixed_precision(torch):
    # fixed: under autocast minigrad cast an op's arguments left to right; PyTorch's wrapper casts them right to
    # left (C++ argument evaluation), so linear's bias cast came first there: the stepper ran the casts of the
    # input and of the bias in the other order
    lin = _init(torch, torch.nn.Linear(3, 2))
    x = _inp(torch, (2, 3), rg=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = lin(x)
    out = y.float().softmax(-1).sum() + x.half().float().sum()
    return [out], {"x": x, **dict(lin.named_parameters())}, out


def instance_norm_momentum_none(torch):
    # fixed (the graph fuzzer's nn seed 60142): InstanceNorm with momentum=None raised instance_norm()'s TypeError;
    # PyTorch's module passes momentum 0.0
    n = torch.nn.InstanceNorm1d(2, momentum=None, track_running_stats=True, affine=True)
    x = _inp(torch, (1, 2, 3), rg=True)
    out = n(x).pow(2).sum() + n.running_var.sum()
    return [out], {"x": x, **dict(n.named_parameters())}, out


def copy_of_inference_tensor(torch):
    # fixed (the graph fuzzer's session-11 seeds 121071, 121205): a clone / dtype conversion of an inference tensor
    # made outside inference mode is at version 1 in PyTorch (its copy_ is counted); the saved copy was drawn "v0"
    a = _inp(torch, (2, 3), rg=True)
    with torch.inference_mode():
        frozen = a * 2
    out = (frozen.clone() * a).exp().sum() + (frozen.double() * a).sum() + (frozen.t().contiguous() @ a).sum()
    return [out], {"a": a}, out


def cond_nuclear(torch):
    # fixed (the graph fuzzer's session-11 seed 122032): linalg.cond(A, 'nuc') is PyTorch's
    # ``S.sum(-1) * S.reciprocal().sum(-1)``, whose right operand is built first: the stepper ran the two sums in
    # the other order
    a = _inp(torch, (3, 3), rg=True)
    out = torch.linalg.cond(a.tanh() + torch.eye(3), "nuc")
    return [out], {"a": a}, out


def logit_double_backward(torch):
    # fixed (the graph fuzzer's session-11 seed 123040): logit's create_graph formula saves PyTorch's C++ ``1 - x``
    # (empty_like(x).fill_(1).sub_(x): at version 2); minigrad's was a plain subtraction (version 0)
    c = torch.tensor([0.3, 0.05, 0.9], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(c.logit(0.2).sum() + c.logit().exp().sum(), c, create_graph=True)
    out = (g * g).sum()
    return [out, g], {"c": c}, out


PROGRAMS = [cnn, cnn_eval, lstm_bidirectional_proj, gru_into_rnn, transformer_encoder_norm_first,
            transformer_encoder_causal, attention_kdim_vdim, sdpa_causal, custom_functions, gradient_penalty,
            hessian_vector_product, tensor_and_node_hooks, module_hooks, embedding_layer_norm,
            conv1d_groupnorm_transpose, after_two_optimizer_steps, checkpointed_block, parametrized_linear,
            batch_norm_stats_reset, residual_in_place, packed_gru, vision_ops, distributions_rsample, mixed_precision,
            instance_norm_momentum_none, copy_of_inference_tensor, cond_nuclear,
            logit_double_backward]


def _err(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _texts(torch, program) -> dict:
    """Every text viz gives for the program: drawings before and after backward, the stepper's frames."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ys, names, root = program(torch)
        for k, kw in KINDS.items():
            out[k] = viz.draw(ys, names=names, auto_names=False, **kw).source
        out["auto_names"] = viz.draw(ys, show_saved=True).source
        try:
            st = viz.BackwardStepper(root, names=names, show_saved=True, engine=NO_RENDERER)
            out["stepper"] = "\n\n".join(f.text for f in st.frames)
            out["stepper/last"] = st.drawing(len(st.frames) - 1).source
        except RuntimeError as e:  # (the library's own backward error)
            out["stepper"] = _err(e)
        ys, names, root = program(torch)  # (a fresh graph: the stepper ran backward through the first)
        try:
            root.backward()
            out["after"] = viz.draw(ys, names=names, auto_names=False, **KINDS["saved"]).source
        except RuntimeError as e:
            out["after"] = _err(e)
    return out


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_real_world_graphs_draw_the_same(program):
    torch = torch_or_skip()
    import minigrad

    theirs = _texts(torch, program)
    assert differences(_texts(minigrad, program), theirs) == []
    assert all(v.startswith("digraph") for k, v in theirs.items() if k not in ("stepper", "after"))


def test_copies_of_inference_tensors_are_at_version_one():
    torch = torch_or_skip()
    import minigrad

    def versions(mod):
        a = mod.ones(2, 2)
        with mod.inference_mode():
            i = a * 2
        copies = [i.clone(), i.t().clone(), i.t().contiguous(), i.double(), i.int(), i.bool(), i.half(),
                  i.to(mod.float32, copy=True), mod.clone(i), i[0].expand(2, 2).clone(), a.clone(), i * 1, i.exp(),
                  mod.ones(1, 2, 2, 2).clone(memory_format=mod.channels_last)]
        return [c._version for c in copies]

    assert versions(minigrad) == versions(torch)
    assert versions(torch)[:3] == [1, 1, 1] and versions(torch)[-4:] == [0, 0, 0, 0]


def test_stale_running_stats_refused_as_in_pytorch():
    torch = torch_or_skip()
    import minigrad

    stepper = [_texts(mod, batch_norm_stats_reset)["stepper"] for mod in (minigrad, torch)]
    assert stepper[0] == stepper[1]
    assert "modified by an inplace operation: [torch.FloatTensor [1]] is at version 2" in stepper[1]


def _autocast_sequence_numbers(torch) -> dict:
    """Every node behind each op run under CPU autocast, with its sequence number relative to the op's node."""
    rs = np.random.RandomState(0)

    def t(*shape):
        return torch.tensor(rs.randn(*shape).astype(np.float32), requires_grad=True)

    a, b, c, w4, x4, bias, a3, b3, c3 = t(2, 3), t(3, 4), t(2, 4), t(2, 1, 3, 3), t(1, 1, 5, 5), t(2), t(2, 2, 3), \
        t(2, 3, 2), t(2, 2, 2)
    F = torch.nn.functional
    programs = {
        "linear": lambda: F.linear(a, b.t(), c[0]), "linear_keywords": lambda: F.linear(a * 1, weight=b.t() * 1,
                                                                                          bias=c[0] * 1),
        "addmm": lambda: torch.addmm(c * 1, a * 1, b * 1), "conv2d": lambda: F.conv2d(x4, w4, bias, padding=1),
        "baddbmm": lambda: torch.baddbmm(c3 * 1, a3 * 1, b3 * 1), "mm_cached": lambda: torch.mm(a, b * 1),
        "cat": lambda: torch.cat([a * 1, (a * 1).bfloat16()]), "addcmul": lambda: torch.addcmul(a * 1, a * 2, a * 3),
    }
    out = {}
    for name, f in programs.items():
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = f()
        first, todo, nodes = y.grad_fn._sequence_nr(), [y.grad_fn], []
        while todo:
            n = todo.pop(0)
            if n is not None and not type(n).__name__ == "AccumulateGrad":
                nodes.append((type(n).__name__, n._sequence_nr() - first))
                todo += [m for m, _ in n.next_functions]
        out[name] = nodes
    return out


def test_autocast_casts_arguments_right_to_left():
    torch = torch_or_skip()
    import minigrad

    theirs = _autocast_sequence_numbers(torch)
    assert _autocast_sequence_numbers(minigrad) == theirs
    assert theirs["linear"][1:3] == [("ToCopyBackward0", -4), ("ToCopyBackward0", -2)]  # (bias cast before input)


# -- the plot helpers compute the same data from either library -----------------------------------------------------


def _plot_data(mod) -> dict:
    lin = mod.nn.Linear(3, 2)
    with mod.no_grad():
        lin.weight.copy_(mod.tensor([[0.1, -0.2, 0.3], [0.5, 0.4, -0.6]]))
        lin.bias.fill_(0.1)
    out = {
        "jacobian_float32_model": plots.jacobian(lambda x: lin(x.float()), np.array([1.0, 2.0, 3.0]), mod),
        "jacobian_of_tensor": plots.jacobian(lambda x: lin(x.float()).tanh(), mod.tensor([1.0, 2.0, 3.0])),
        "jacobian_scalar": plots.jacobian(lambda x: x * mod.tensor([1.0, 2.0], dtype=mod.float64), 1.5, mod),
        "derivative_kinks": plots.derivative(lambda x: x.abs() + x.clamp(0, 0.5) + mod.relu(x),
                                             np.array([-1.0, 0.0, 0.5, 1.0]), mod),
        "derivative_half": plots.derivative(lambda x: x.half().exp(), np.array([0.1, 0.2]), mod),
        "descent": plots.descent_path(lambda x, y: (x - 1) ** 2 + 10 * (y + 0.5) ** 2, (0.0, 0.0), lr=0.05,
                                      steps=5, module=mod),
        "descent_float32": plots.descent_path(lambda x, y: (x.float() - 1) ** 2 + (y.float() * 3).sin(),
                                              (0.3, 0.2), lr=0.1, steps=4, module=mod),
    }
    lin(mod.tensor([[1.0, 2.0, 3.0]])).sum().backward()
    out["grad_norms"] = plots.grad_norms(lin)
    out["grad_norm_bars"] = [p.get_height() for p in plots.plot_grad_norms(lin).axes[0].patches]
    bf = mod.nn.Linear(2, 2).to(mod.bfloat16)
    bf(mod.ones(1, 2, dtype=mod.bfloat16)).sum().backward()
    out["grad_norms_bfloat16"] = [(n, round(v, 3)) for n, v in plots.grad_norms(bf) if n.endswith("bias")]
    out["losses"] = [line.get_ydata().tolist() for line in plots.plot_losses(
        {"train": [mod.tensor(1.5), mod.tensor(0.5, requires_grad=True) * 1, 0.25],
         "val": [mod.tensor(1.5, dtype=mod.bfloat16), mod.tensor([0.5])]}).axes[0].lines]
    return out


def test_plot_helpers_give_the_same_data():
    torch = torch_or_skip()
    import minigrad

    theirs, mine = _plot_data(torch), _plot_data(minigrad)
    assert list(mine) == list(theirs)
    for key, want in theirs.items():
        got = mine[key]
        if key.startswith("grad_norms"):  # [(name, norm)]
            assert [n for n, _ in got] == [n for n, _ in want], key
            got, want = [v for _, v in got], [v for _, v in want]
        elif key == "losses":
            got, want = sum(got, []), sum(want, [])
        for a, b in zip(got if isinstance(got, tuple) else [got], want if isinstance(want, tuple) else [want],
                        strict=True):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, err_msg=key)
            assert np.asarray(a).shape == np.asarray(b).shape, key
