"""Parity hunt: ~125 programs drawn from a PyTorch-built and a minigrad-built graph give the same
pictures, DOT sources, stepper frames and plot data; viz survives PyTorch graphs minigrad cannot make.

Each program takes the library as ``torch`` (``import torch`` or ``import minigrad as torch``) and returns
its output(s), or (outputs, {name: tensor}). Programs marked ``# fixed:`` found a bug (in minigrad's graph
attributes or in viz's reading of them). Everything compared is deterministic: node ids come from the
walk order, never from id().
"""

from __future__ import annotations

import numpy as np
import pytest

import viz


def t(torch, a, rg=False, dtype=None):
    return torch.tensor(np.asarray(a, dtype=np.float32 if dtype is None else dtype), requires_grad=rg)


def _init(torch, m, seed=0):
    rs = np.random.RandomState(seed)
    for p in m.parameters():
        p.data = torch.tensor((rs.randn(*p.shape) * 0.5).astype(np.float32))
    return m


def as_strided(torch):
    a = t(torch, np.arange(6.0), True)
    b = a.as_strided((2, 2), (1, 2), 1)
    return (b * b).sum()


def big_graph(torch):
    a = t(torch, [0.5, 1.0], True)
    y = a
    for _k in range(350):
        y = (y * 0.99).tanh() + a
    return y.sum()


def big_graph_irregular(torch):
    a = t(torch, [0.5, 1.0], True)
    y = a
    for k in range(400):
        y = [y.sin(), y * 2, y.exp() * 0.001][k % 3] + (a if k % 7 == 0 else 0.1)
    return y.sum()


def checkpoint(torch):
    ck = torch.utils.checkpoint.checkpoint
    a = t(torch, [1.0, 2.0], True)
    w = t(torch, [0.5, -1.0], True)
    y = ck(lambda x: (x * w).sin(), a, use_reentrant=False)
    return y.sum()


def checkpoint_reentrant(torch):
    ck = torch.utils.checkpoint.checkpoint
    a = t(torch, [1.0, 2.0], True)
    y = ck(lambda x: x.sin() * 2, a, use_reentrant=True)
    return y.sum()


def complex_t(torch):
    # fixed: viz keyed saved tensors by memory only; PyTorch's lazy conj() view of a leaf was drawn as the leaf
    a = torch.tensor(np.array([1 + 2j, 3 - 1j], dtype=np.complex64), requires_grad=True)
    return (a * a.conj()).real.sum() + a.abs().sum()


def conv(torch):
    rs = np.random.RandomState(2)
    x = t(torch, rs.randn(1, 2, 5, 5))
    w = t(torch, rs.randn(3, 2, 3, 3), True)
    b = t(torch, rs.randn(3), True)
    F = torch.nn.functional
    y = F.max_pool2d(F.relu(F.conv2d(x, w, b, padding=1)), 2)
    return y.sum()


def conv1d(torch):
    rs = np.random.RandomState(3)
    x = t(torch, rs.randn(2, 2, 7), True)
    w = t(torch, rs.randn(3, 2, 3), True)
    return torch.nn.functional.conv1d(x, w, stride=2).pow(2).mean()


def copyslices(torch):
    a = t(torch, [1.0, 2.0, 3.0, 4.0], True)
    y = a.clone()
    y[1:3] = a[:2] * 2
    y[0].mul_(5)
    return y.sum()


def custom_fn_none_input(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, n):
            return x * y * n

        @staticmethod
        def backward(ctx, g):
            return g, None, None

    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0])
    return F.apply(a, b, 2).sum()


def custom_fn_nontensor(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = x.argmax()
            ctx.mark_non_differentiable(idx)
            return x * 2, idx, 7

        @staticmethod
        def backward(ctx, g, gi, gk):
            return g * 2

    a = t(torch, [1.0, 5.0, 2.0], True)
    y, i, k = F.apply(a)
    return y.sum() * 1.0


def custom_fn_once(torch):
    once_differentiable = torch.autograd.function.once_differentiable

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x * k

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.k, None

    a = t(torch, [1.0, 2.0], True)
    return F.apply(a, 3.0).sum()


def custom_fn_two_out(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x + y, x * y

        @staticmethod
        def backward(ctx, ga, gb):
            x, y = ctx.saved_tensors
            return ga + gb * y, ga + gb * x

    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0], True)
    p, q = F.apply(a, b.exp())
    return (p * q).sum()


def detached(torch):
    a = t(torch, [1.0, 2.0], True)
    b = a.detach() * 3
    with torch.no_grad():
        c = a * 2
    return (a * b + c).sum()


def double_bw(torch):
    # fixed: formulas ran in input order; PyTorch's generated apply() runs them in alphabetical order
    # of the inputs (mul's other before self): the order of create_graph's nodes, so of the stepper
    a = t(torch, [1.0, 2.0], True)
    y = (a.sin() * a).sum()
    (g,) = torch.autograd.grad(y, a, create_graph=True)
    return g.pow(2).sum()


def double_bw_mlp(torch):
    # fixed: formula order under create_graph (as double_bw)
    rs = np.random.RandomState(8)
    w = t(torch, rs.randn(3, 2), True)
    x = t(torch, rs.randn(4, 3), True)
    y = torch.tanh(x @ w).sum()
    (gx,) = torch.autograd.grad(y, x, create_graph=True)
    return gx.norm()


def empty(torch):
    a = t(torch, np.zeros((0, 3)), True)
    return a.exp().sum() + t(torch, [1.0], True).sum()


def float64(torch):
    a = t(torch, [1.0, 2.0], True, np.float64)
    b = torch.arange(2)
    return (a * b + a.sigmoid()).sum()


def freed(torch):
    a = t(torch, [1.0, 2.0], True)
    y = (a.exp() * a).sum()
    y.backward()
    return y


def gru_cell(torch):
    rs = np.random.RandomState(5)
    cell = torch.nn.GRUCell(3, 2)
    for p in cell.parameters():
        p.data = t(torch, rs.randn(*p.shape))
    h = cell(t(torch, rs.randn(2, 3)))
    return h.sum(), dict(cell.named_parameters())


def lstm_cell(torch):
    rs = np.random.RandomState(6)
    cell = torch.nn.LSTMCell(3, 2)
    for p in cell.parameters():
        p.data = t(torch, rs.randn(*p.shape))
    h, c = cell(t(torch, rs.randn(2, 3)))
    return (h * c).sum(), dict(cell.named_parameters())


def mlp(torch):
    # fixed: a loss's saved target (a tensor argument) was not freed by backward
    nn = torch.nn
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    for p in m.parameters():
        p.data = torch.tensor(np.random.RandomState(p.numel()).randn(*p.shape).astype(np.float32))
    x = t(torch, np.random.RandomState(1).randn(5, 3))
    y = torch.tensor([0, 1, 1, 0, 1])
    return torch.nn.functional.cross_entropy(m(x), y), dict(m.named_parameters())


def none_next(torch):
    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0])
    return (a * b + b).sum()


def retain_grad(torch):
    a = t(torch, [1.0, 2.0], True)
    h = a.exp()
    h.retain_grad()
    y = (h * a).sum()
    y.backward(retain_graph=True)
    return y, {"a": a, "h": h}


def rnn_cell(torch):
    rs = np.random.RandomState(4)
    wih = t(torch, rs.randn(4, 3), True)
    whh = t(torch, rs.randn(4, 4), True)
    h = t(torch, np.zeros((1, 4)))
    for _k in range(3):
        x = t(torch, rs.randn(1, 3))
        h = torch.tanh(x @ wih.t() + h @ whh.t())
    return h.sum()


def rnn_module(torch):
    rs = np.random.RandomState(7)
    rnn = torch.nn.RNN(3, 2, batch_first=True)
    for p in rnn.parameters():
        p.data = t(torch, rs.randn(*p.shape))
    out, h = rnn(t(torch, rs.randn(1, 3, 3)))
    return out.sum() + h.sum()


def saved_hooks(torch):
    a = t(torch, [1.0, 2.0], True)
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 1, lambda x: x):
        y = (a * a.exp()).sum()
    return y


def saved_strings(torch):
    a = t(torch, [0.5, -1.0, 2.0], True)
    y = torch.nn.functional.gelu(a, approximate="tanh") + torch.div(a, 3.0, rounding_mode=None)
    z = torch.nn.functional.interpolate(a.view(1, 1, 3), scale_factor=2, mode="linear")
    return y.sum() + z.sum()


def saved_types(torch):
    a = t(torch, np.arange(6.0).reshape(2, 3), True)
    y = a.sum(dim=(0, 1), keepdim=True) + a.mean(1).unsqueeze(1)
    z = torch.nn.functional.pad(a, (1, 2)).sum() + a.transpose(0, 1).reshape(-1).sum()
    w = a.to(torch.float64).sum() + torch.clamp(a, min=0.5).sum() + a.std(dim=1, correction=0).sum()
    return y.sum() + z + w


def topk_max(torch):
    a = t(torch, np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]), True)
    v, i = a.topk(2, dim=1)
    m = a.max(dim=0)
    s = a.sort(dim=1, descending=True)
    return v.sum() + m.values.sum() + s.values[:, 0].sum() + a.min()


def unbind_split(torch):
    a = t(torch, np.arange(12.0).reshape(3, 4), True)
    u = a.unbind(0)
    s = a.split(2, dim=1)
    c = a.chunk(2, 1)
    return (u[0] * u[2]).sum() + s[1].sum() + c[0].mean()


def view_inplace(torch):
    a = t(torch, np.arange(6.0), True)
    y = a * 1
    v = y.view(2, 3)
    v.add_(1)
    w = y[::2]
    w.exp_()
    return y.sum()


def accumulate_twice(torch):
    a = t(torch, [1.0, -2.0], True)
    (a * 3).sum().backward()
    y = (a * a).sum()
    return y


def activations(torch):
    F = torch.nn.functional
    a = t(torch, [-1.5, -0.2, 0.3, 2.0], True)
    return (
        F.relu(a)
        + F.leaky_relu(a, 0.1)
        + F.elu(a)
        + F.selu(a)
        + F.silu(a)
        + F.mish(a)
        + F.softplus(a)
        + F.hardtanh(a)
        + F.gelu(a)
        + F.relu6(a)
        + F.hardswish(a)
        + F.logsigmoid(a)
    ).sum()


def as_strided_inplace(torch):
    a = t(torch, np.arange(6.0), True)
    b = a.clone()
    v = b.as_strided((2,), (2,), 1)
    v.mul_(3)
    return b.sum()


def backward_create_graph(torch):
    x = t(torch, [1.0, 2.0], True)
    y = (x.sin() ** 2).sum()
    y.backward(create_graph=True)
    return (x.grad * x).sum()


def bf16(torch):
    a = torch.tensor([1.0, 2.5], dtype=torch.bfloat16, requires_grad=True)
    h = torch.tensor([1.0, 2.5], dtype=torch.float16, requires_grad=True)
    return (a * 3).float().sum() + (h.float() * 2).sum()


def complex_views(torch):
    a = t(torch, np.arange(8.0).reshape(4, 2), True)
    c = torch.view_as_complex(a)
    d = c * c.conj() + c.angle()
    return torch.view_as_real(d).sum() + c.abs().sum()


def conv_transpose(torch):
    rs = np.random.RandomState(6)
    x = t(torch, rs.randn(1, 2, 3, 3), True)
    w = t(torch, rs.randn(2, 3, 2, 2), True)
    return torch.nn.functional.conv_transpose2d(x, w, stride=2).sum()


def cum_ops(torch):
    a = t(torch, [1.0, 2.0, 3.0, 0.5], True)
    return a.cumsum(0).sum() + a.cumprod(0).sum() + a.prod() + a.logcumsumexp(0).sum() + a.cummax(0).values.sum()


def data_mutation(torch):
    a = t(torch, [1.0, 2.0], True)
    y = a * a
    a.data.mul_(2)
    return y.sum()


def dict_outputs(torch):
    a = t(torch, [1.0, 2.0], True)
    return {"loss": (a * 2).sum(), "aux": a.tanh().mean()}


def dropout_eval(torch):
    m = torch.nn.Dropout(0.5).eval()
    a = t(torch, [1.0, 2.0], True)
    return m(a).sum() + torch.nn.functional.dropout(a, 0.0, training=True).sum()


def embedding(torch):
    e = _init(torch, torch.nn.Embedding(5, 3))
    idx = torch.tensor([[0, 2], [4, 2]])
    return e(idx).pow(2).sum(), dict(e.named_parameters())


def fn_mark_dirty(torch):
    class Inplace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = t(torch, [1.0, 2.0], True)
    b = a.clone()
    c = Inplace.apply(b)
    return (c * a).sum()


def fn_nested(torch):
    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.exp()

    class Outer(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = Inner.apply(x)
            ctx.save_for_backward(y)
            return y * 2

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * 2 * y

    a = t(torch, [0.1, 0.2], True)
    return Outer.apply(Inner.apply(a)).sum()


def fn_returns_input(torch):
    class Id(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x, y.view_as(y) * 1

        @staticmethod
        def backward(ctx, gx, gy):
            return gx, gy

    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0], True)
    p, q = Id.apply(a, b)
    return (p * q).sum()


def fn_setup_context(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x, y, k):
            return x * y + k

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, y, k = inputs
            ctx.save_for_backward(x, None, y)
            ctx.k = k

        @staticmethod
        def backward(ctx, g):
            x, n, y = ctx.saved_tensors
            return g * y, g * x, None

    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0], True)
    return F.apply(a, b.sin(), 3).sum()


def grad_of_grad_leaf(torch):
    x = t(torch, [1.0, 2.0], True)
    y = (x**3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    return (h * g).sum()


def hooks_everywhere(torch):
    a = t(torch, [1.0, 2.0], True)
    a.register_hook(lambda g: g * 3)
    b = a * a
    b.register_hook(lambda g: g + 1)
    b.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    c = b.sum()
    c.grad_fn.register_hook(lambda gi, go: gi)
    return c


def inplace_relu_chain(torch):
    a = t(torch, [-1.0, 2.0, 3.0], True)
    b = a * 1
    b.relu_()
    b.mul_(2).add_(1)
    b[0] = 5.0
    return b.sum()


def ints_bools(torch):
    a = t(torch, [1.0, 2.0, 3.0], True)
    m = a > 1.5
    i = torch.arange(3)
    return (a * m + a * i).sum() + torch.where(m, a, a * 0).sum() + a[m].sum()


def linalg(torch):
    rs = np.random.RandomState(5)
    a = t(torch, rs.randn(3, 3) + 3 * np.eye(3), True, np.float64)
    u, s, vh = torch.linalg.svd(a)
    q, r = torch.linalg.qr(a)
    w, v = torch.linalg.eigh(a @ a.T)
    return torch.linalg.det(a) + torch.linalg.inv(a).sum() + s.sum() + r.abs().sum() + w.sum() + torch.linalg.norm(a)


def long_unroll(torch):
    rs = np.random.RandomState(9)
    w = t(torch, rs.randn(3, 3) * 0.3, True)
    h = t(torch, rs.randn(1, 3))
    for _k in range(150):
        h = torch.tanh(h @ w + 0.1)
    return h.sum()


def losses(torch):
    # fixed: cross_entropy with label_smoothing made its two products in the other order than ATen (stepper order)
    F = torch.nn.functional
    x = t(torch, np.random.RandomState(2).randn(4, 3), True)
    y = torch.tensor([0, 2, 1, 2])
    w = t(torch, [1.0, 2.0, 0.5])
    a = F.cross_entropy(x, y, weight=w, label_smoothing=0.1)
    b = F.kl_div(x.log_softmax(1), x.detach().softmax(1), reduction="batchmean")
    c = F.smooth_l1_loss(x, x.detach() * 0.5) + F.huber_loss(x, x.detach() + 1)
    d = F.binary_cross_entropy_with_logits(x, (x.detach() > 0).float(), pos_weight=w)
    return a + b + c + d


def many_outputs(torch):
    a = t(torch, [1.0, 2.0], True)
    b = a * 2
    return [b.sum(), (b * b).mean(), a.exp()]


def matmuls(torch):
    rs = np.random.RandomState(3)
    a = t(torch, rs.randn(2, 3, 4), True)
    b = t(torch, rs.randn(4, 5), True)
    c = t(torch, rs.randn(5), True)
    return (a @ b @ c).sum() + torch.einsum("bij,jk->bik", a, b).mean() + torch.bmm(a, a.transpose(1, 2)).sum()


def mha(torch):
    m = _init(torch, torch.nn.MultiheadAttention(4, 2, batch_first=True))
    x = t(torch, np.random.RandomState(1).randn(1, 3, 4), True)
    y, w = m(x, x, x)
    return y.sum() + w.sum()


def named_intermediates(torch):
    x = t(torch, [1.0, 2.0], True)
    h = x.exp()
    g = h * x
    return g.sum(), {"x": x, "h": h, "g": g}


def nan_inf(torch):
    a = t(torch, [0.0, 1.0, -1.0], True)
    return (a.log() + a.sqrt()).sum() + (a / a).sum()


def norms(torch):
    # fixed: LayerNorm's weight and bias were made as ones/zeros (version 0), PyTorch fills them in place (version 1)
    bn = _init(torch, torch.nn.BatchNorm1d(3))
    ln = _init(torch, torch.nn.LayerNorm(3), 1)
    gn = _init(torch, torch.nn.GroupNorm(1, 3), 2)
    x = t(torch, np.random.RandomState(1).randn(4, 3), True)
    return (bn(x) * ln(x)).sum() + gn(x.view(4, 3, 1)).sum(), {"x": x}


def output_leaf(torch):
    a = t(torch, [1.0, 2.0], True)
    return [a, a.sin().sum()]


def pools(torch):
    F = torch.nn.functional
    x = t(torch, np.random.RandomState(4).randn(1, 2, 6, 6), True)
    return (
        F.avg_pool2d(x, 2).sum()
        + F.adaptive_avg_pool2d(x, 3).sum()
        + F.max_pool2d(x, 3, 2, 1).sum()
        + F.adaptive_max_pool2d(x, 2).sum()
        + F.interpolate(x, scale_factor=2, mode="bilinear").sum()
        + F.pad(x, (1, 1, 2, 0), mode="reflect").sum()
    )


def requires_grad_mid(torch):
    a = t(torch, [1.0, 2.0])
    b = (a * 2).requires_grad_()
    c = b.detach().requires_grad_(True)
    return (b * c).sum()


def scatter_gather(torch):
    a = t(torch, np.arange(6.0).reshape(2, 3), True)
    idx = torch.tensor([[0, 1, 0], [1, 0, 1]])
    s = torch.zeros(2, 3).scatter_add(0, idx, a)
    g = a.gather(1, torch.tensor([[2], [0]]))
    m = a.masked_select(a > 2)
    z = torch.zeros(2, 3)
    z = z.index_put((torch.tensor([0, 1]), torch.tensor([2, 0])), a[:, 0])
    return s.sum() + g.sum() + m.sum() + z.sum() + a.index_add(0, torch.tensor([1, 0]), a).sum()


def shapes(torch):
    a = t(torch, np.arange(24.0).reshape(2, 3, 4), True)
    b = a.permute(2, 0, 1).flip(0).roll(1, 2).repeat(1, 2, 1)
    c = a.expand(2, 2, 3, 4).reshape(4, 12).narrow(1, 2, 5)
    d = torch.cat([a, a * 2], 1).unfold(2, 2, 1)
    e = torch.stack([a.sum(0), a.mean(0)]).movedim(0, -1)
    return b.sum() + c.sum() + d.sum() + e.sum() + a.diagonal(0, 1, 2).sum() + a.tril().sum()


def softmax_family(torch):
    a = t(torch, [[1.0, 2.0, 3.0], [0.5, 0.1, -1.0]], True)
    return (a.softmax(1) * a.log_softmax(0)).sum() + torch.logsumexp(a, 1).sum() + a.sigmoid().sum()


def transformer_layer(torch):
    # fixed: LayerNorm parameters' version (as norms)
    layer = _init(torch, torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True))
    x = t(torch, np.random.RandomState(3).randn(1, 3, 4))
    return layer(x).sum(), dict(layer.named_parameters())


def view_of_view_inplace(torch):
    a = t(torch, np.arange(12.0).reshape(3, 4), True)
    b = a.clone()
    b.t()[1:].unsqueeze(0)[0, :, 1].zero_()
    b.diagonal().add_(1)
    return b.pow(2).sum()


def wide_unbind(torch):
    a = t(torch, np.arange(300.0), True)
    parts = a.unbind(0)
    s = parts[0]
    for p in parts[1:]:
        s = s + p * 1.0
    return s


def zero_dim(torch):
    a = torch.tensor(2.0, requires_grad=True)
    return (a**3) * a.exp() - a.log()


def allow_mutation(torch):
    a = t(torch, [1.0, 2.0], True)
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        b = a.clone()
        y = b * b
        b.mul_(2)
        out = y.sum()
    return out


def allow_unused(torch):
    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [1.0], True)
    g = torch.autograd.grad((a**2).sum(), [a, b], allow_unused=True, create_graph=True)
    return g[0].sum()


def backward_inputs(torch):
    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0], True)
    y = (a * b).sum()
    y.backward(inputs=[a], retain_graph=True)
    return y, {"a": a, "b": b}


def big_forward(torch):
    a = t(torch, [0.1, 0.2], True)
    y = a
    for _k in range(350):
        y = y.sin() + a * 0.5
    return y.sum()


def clamp_tensor_bounds(torch):
    # fixed: clamp's absent max (min= a tensor only) read as freed after backward instead of None
    # fixed: clamp's absent max read as freed after backward (as embedding_bag)
    a = t(torch, [-2.0, 0.5, 3.0], True)
    lo = t(torch, [-1.0, 0.0, 0.0], True)
    return (
        torch.clamp(a, min=lo, max=t(torch, [2.0, 2.0, 2.0])).sum()
        + torch.clamp(a, min=lo).sum()
        + a.clamp(-1, 1).sum()
        + torch.minimum(a, lo).sum()
    )


def clip_then_draw(torch):
    a = t(torch, [3.0, 4.0], True)
    y = (a * a).sum()
    y.backward(retain_graph=True)
    torch.nn.utils.clip_grad_norm_([a], 1.0)
    return y, {"a": a}


def conv3d_bn(torch):
    rs = np.random.RandomState(10)
    x = t(torch, rs.randn(1, 1, 3, 3, 3), True)
    w = t(torch, rs.randn(2, 1, 2, 2, 2), True)
    y = torch.nn.functional.conv3d(x, w)
    return (torch.nn.functional.batch_norm(y, None, None, training=True) * t(torch, rs.randn(1, 2, 2, 2, 2))).sum()


def detach_inplace(torch):
    a = t(torch, [1.0, 2.0], True)
    b = a * 2
    c = b * 3
    b.detach_()
    return (c * b).sum()


def distances(torch):
    # fixed: cosine_similarity divided x1 before x2; ATen's (x1 / n1) * (x2 / n2) runs the right division first
    F = torch.nn.functional
    x = t(torch, np.random.RandomState(1).randn(3, 4), True)
    y = t(torch, np.random.RandomState(2).randn(2, 4), True)
    return (
        torch.cdist(x, y).sum()
        + F.normalize(x, dim=1).sum()
        + F.cosine_similarity(x[:2], y).sum()
        + F.pairwise_distance(x[:2], y).sum()
    )


def embedding_bag(torch):
    # fixed: an absent optional input (per_sample_weights=None) read as freed after backward instead of None
    e = torch.nn.EmbeddingBag(5, 2, mode="mean")
    e.weight.data = t(torch, np.random.RandomState(7).randn(5, 2))
    return e(torch.tensor([0, 2, 4, 1]), torch.tensor([0, 2])).sum(), dict(e.named_parameters())


def expand_broadcast(torch):
    a = t(torch, [[1.0], [2.0]], True)
    b = t(torch, [1.0, 2.0, 3.0], True)
    return (a + b).sum() + (a * b).prod() + torch.broadcast_tensors(a, b)[0].sum()


def fft_ops(torch):
    a = t(torch, [1.0, 2.0, 0.5, -1.0], True)
    f = torch.fft.rfft(a)
    return (f.abs() ** 2).sum() + torch.fft.irfft(f * 2, n=4).sum()


def fn_needs_input_grad(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return (g * y if ctx.needs_input_grad[0] else None), (g * x if ctx.needs_input_grad[1] else None)

    a = t(torch, [1.0, 2.0], True)
    b = t(torch, [3.0, 4.0])
    return F.apply(a, b).sum()


def fn_no_materialize(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 if g2 is None else g1 + g2 if g1 is not None else g2

    a = t(torch, [1.0, 2.0], True)
    p, q = F.apply(a)
    return p.sum()


def fn_save_output(torch):
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    a = t(torch, [0.5, 1.0], True)
    return Exp.apply(a).sum()


def grad_outputs(torch):
    a = t(torch, [1.0, 2.0], True)
    y = a.exp() * a
    (g,) = torch.autograd.grad(y, a, grad_outputs=t(torch, [0.5, -1.0], True), create_graph=True)
    return g.sum()


def grid_unfold(torch):
    F = torch.nn.functional
    x = t(torch, np.random.RandomState(3).randn(1, 1, 4, 4), True)
    g = t(torch, np.random.RandomState(4).rand(1, 2, 2, 2) * 2 - 1, True)
    return (
        F.grid_sample(x, g, align_corners=False).sum() + F.unfold(x, 2).sum() + F.fold(F.unfold(x, 2), (4, 4), 2).sum()
    )


def gru_module(torch):
    rs = np.random.RandomState(9)
    gru = torch.nn.GRU(2, 2, bidirectional=True)
    for p in gru.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.5)
    out, h = gru(t(torch, rs.randn(2, 1, 2)))
    return out.sum()


def inplace_on_leaf_view_nograd(torch):
    a = t(torch, [1.0, 2.0, 3.0], True)
    with torch.no_grad():
        a[0] = 5.0
    return (a * a).sum()


def int_outputs(torch):
    a = t(torch, [1.0, 2.0], True)
    return [a.argmax(), (a * 2).sum()]


def lstm_hidden_order(torch):
    # fixed: the oneDNN LSTM made its output transpose before the h_n/c_n stacks (stepper order)
    rs = np.random.RandomState(8)
    lstm = torch.nn.LSTM(2, 2, batch_first=True)
    for p in lstm.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.5)
    out, (h, c) = lstm(t(torch, rs.randn(1, 2, 2)))
    return out.sum() + h.sum() + c.sum()


def lstm_module(torch):
    rs = np.random.RandomState(8)
    lstm = torch.nn.LSTM(2, 3, num_layers=2, batch_first=True)
    for p in lstm.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.5)
    out, (h, c) = lstm(t(torch, rs.randn(1, 2, 2)))
    return out.sum() + c.sum()


def model_params(torch):
    m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
    for p in m.parameters():
        p.data = t(torch, np.random.RandomState(p.numel() + 3).randn(*p.shape))
    return m(t(torch, [[1.0, -1.0]])).sum(), dict(m.named_parameters())


def one_hot_mse(torch):
    F = torch.nn.functional
    a = t(torch, np.random.RandomState(5).randn(3, 4), True)
    y = F.one_hot(torch.tensor([0, 3, 1]), 4).float()
    return F.mse_loss(a.softmax(1), y) + F.l1_loss(a, y, reduction="sum")


def pack_hooks_numpy(torch):
    a = t(torch, [1.0, 2.0], True)
    with torch.autograd.graph.saved_tensors_hooks(
        lambda x: x.detach().numpy().copy(), lambda arr: torch.from_numpy(arr)
    ):
        y = (a * a.exp()).sum()
    return y


def polar_complex(torch):
    r = t(torch, [1.0, 2.0], True)
    th = t(torch, [0.5, 1.0], True)
    z = torch.polar(r, th)
    return (z * z).real.sum() + z.imag.sum() + torch.angle(z).sum()


def post_acc_hook(torch):
    a = t(torch, [1.0, 2.0], True)
    a.register_post_accumulate_grad_hook(lambda p: None)
    return (a * a).sum()


def retain_twice(torch):
    a = t(torch, [1.0, 2.0], True)
    y = (a.sin() * 2).sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    return y, {"a": a}


def save_on_cpu(torch):
    a = t(torch, [1.0, 2.0], True)
    with torch.autograd.graph.save_on_cpu():
        y = (a.sin() * a).sum()
    return y


def selections(torch):
    a = t(torch, [[3.0, 1.0, 2.0, 5.0], [0.0, 5.0, 4.0, -1.0]], True)
    return (
        a.kthvalue(2, 1).values.sum()
        + a.median(1).values.sum()
        + a.sort(dim=1, stable=True).values[:, -1].sum()
        + a.mode(1).values.sum()
        + a.amax(1).sum()
        + a.amin(0).sum()
        + a.argsort(1).float().sum()
        + a.norm(p=float("inf"))
    )


def shared_roots(torch):
    a = t(torch, [1.0, 2.0], True)
    h = a.tanh()
    return [h.sum(), (h * h).sum(), (h * a).mean()]


def sigmoid_inplace_output(torch):
    a = t(torch, [1.0, 2.0], True)
    b = a * 1
    b.sigmoid_()
    b.tanh_()
    return b.sum()


def sparse_embedding(torch):
    # fixed: viz could not read PyTorch's sparse gradients (drawn as None)
    e = torch.nn.Embedding(4, 2, sparse=True)
    e.weight.data = t(torch, np.arange(8.0).reshape(4, 2))
    return e(torch.tensor([0, 2, 2])).pow(2).sum(), dict(e.named_parameters())


def stale_saved_output(torch):
    a = t(torch, [1.0, 2.0], True)
    y = a.exp()
    z = y * 2
    y.add_(1)
    return z.sum() + y.sum()


def var_std(torch):
    a = t(torch, np.random.RandomState(6).randn(3, 4), True)
    return a.var(1).sum() + a.std(0, correction=0).sum() + torch.var_mean(a, 0)[0].sum() + torch.std_mean(a)[1]


def view_after_base_inplace(torch):
    x = t(torch, [1.0, 2.0, 3.0], True)
    a = x.clone()
    v = a[1:]
    a.mul_(2)
    return v.sum() + a.sum()


def view_regenerated_chain(torch):
    x = t(torch, np.arange(6.0).reshape(2, 3), True)
    a = x * 1
    v = a.t().reshape(-1)
    w = a.view(3, 2)
    w.add_(1)
    return (v * 2).sum() + a.sum()


def weight_norm(torch):
    # fixed: nn.Parameter(t) started a version counter of its own; PyTorch's shares t's (original1 at v1)
    lin = torch.nn.Linear(3, 2)
    for p in lin.parameters():
        p.data = t(torch, np.random.RandomState(p.numel()).randn(*p.shape))
    lin = torch.nn.utils.parametrizations.weight_norm(lin)
    return lin(t(torch, [[1.0, 2.0, 3.0]])).sum()


def where_scalar(torch):
    a = t(torch, [-2.0, 0.5, 3.0], True)
    return torch.where(a > 0, a, 0.0).sum() + torch.where(a > 1, 1.0, a * 2).sum()


def attrs_bools(torch):
    a = t(torch, [[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], True)
    v, i = a.topk(2, 1, largest=False, sorted=True)
    return (
        v.sum()
        + a.std(1, unbiased=False).sum()
        + a.var(0, keepdim=True).sum()
        + a.max(1, keepdim=True).values.sum()
        + a.logsumexp(1, keepdim=True).sum()
        + a.norm(p=3, dim=1).sum()
        + a.sort(0, descending=True).values.sum()
        + torch.cdist(a, a, p=1.0).sum()
        + a.cummin(1).values.sum()
    )


def attrs_dtypes(torch):
    a = t(torch, [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], True)
    F = torch.nn.functional
    return (
        F.softmax(a, 1, dtype=torch.float64).sum()
        + a.cumsum(1, dtype=torch.float64).sum()
        + F.log_softmax(a, 0, dtype=torch.float64).sum()
        + a.sum(dtype=torch.float64)
        + a.to(torch.float16).float().sum()
        + a.prod(1, dtype=torch.float64).sum()
        + a.mean(dtype=torch.float64)
    )


def attrs_embedding(torch):
    F = torch.nn.functional
    w = t(torch, np.arange(10.0).reshape(5, 2), True)
    idx = torch.tensor([[0, 4, 2]])
    return (
        F.embedding(idx, w, padding_idx=-1).sum()
        + F.embedding(idx, w, max_norm=None, scale_grad_by_freq=True).sum()
        + F.one_hot(idx, 5).float().sum()
    )


def attrs_lists(torch):
    F = torch.nn.functional
    rs = np.random.RandomState(0)
    x = t(torch, rs.randn(1, 4, 5, 5), True)
    w = t(torch, rs.randn(4, 2, 3, 3), True)
    y = F.conv2d(x, w, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
    z = F.max_pool2d(x, (2, 3), stride=(1, 2), padding=(1, 1), dilation=(1, 1), ceil_mode=True)
    u = F.avg_pool2d(x, 3, 2, 1, ceil_mode=False, count_include_pad=False, divisor_override=None)
    v = F.interpolate(x, size=(7, 3), mode="bilinear", align_corners=True)
    s = x.split([1, 3], 1)
    r = x.repeat_interleave(2, dim=0)
    return (
        y.sum()
        + z.sum()
        + u.sum()
        + v.sum()
        + s[1].sum()
        + r.sum()
        + x.permute(0, 2, 3, 1).sum()
        + x.expand(2, 4, 5, 5).sum()
    )


def attrs_losses(torch):
    # fixed: poisson_nll_loss made exp(input) before target * input (GCC evaluates ATen's right operand first)
    F = torch.nn.functional
    a = t(torch, np.random.RandomState(1).randn(3, 4), True)
    y = torch.tensor([1, 0, 3])
    b = t(torch, np.random.RandomState(2).rand(3, 4))
    return (
        F.nll_loss(a.log_softmax(1), y, ignore_index=3, reduction="sum")
        + F.multi_margin_loss(a, y, p=1, margin=0.5)
        + F.margin_ranking_loss(a[0], a[1], torch.tensor([1.0, -1.0, 1.0, -1.0]), margin=0.1)
        + F.soft_margin_loss(a, b * 2 - 1)
        + F.poisson_nll_loss(a, b, log_input=True)
        + F.gaussian_nll_loss(a, b, b + 0.5)
        + F.cosine_embedding_loss(a[:2], a[1:], torch.tensor([1.0, -1.0]))
        + F.triplet_margin_loss(a[:1], a[1:2], a[2:])
        + F.hinge_embedding_loss(a, b * 2 - 1)
        + F.multilabel_soft_margin_loss(a, (b > 0.5).float())
    )


def attrs_misc(torch):
    # fixed: TrilBackward0's diagonal read -1 (PyTorch's getter reads int64 arguments as unsigned); tensordot
    # permuted both operands before reshaping either (ATen permutes and reshapes each in turn: stepper order)
    a = t(torch, [[1.0, 2.0], [3.0, 4.0]], True)
    return (
        torch.kron(a, a).sum()
        + torch.trace(a)
        + torch.tril(a, -1).sum()
        + torch.triu(a, 1).sum()
        + torch.diag(a).sum()
        + torch.diag_embed(a).sum()
        + torch.block_diag(a, a).sum()
        + torch.cross(torch.cat([a, a[:1]], 0), torch.ones(3, 2), dim=0).sum()
        + torch.atleast_3d(a).sum()
        + torch.tensordot(a, a, dims=([1], [0])).sum()
        + torch.inner(a, a).sum()
        + torch.renorm(a, 2, 0, 1.0).sum()
        + torch.logdet(a @ a.T + torch.eye(2))
        + torch.matrix_exp(a * 0.1).sum()
        + torch.linalg.matrix_power(a, 3).sum()
    )


def attrs_negative_ints(torch):
    a = t(torch, np.arange(24.0).reshape(2, 3, 4), True)
    return (
        a.select(-1, -2).sum()
        + a.narrow(-1, -3, 2).sum()
        + a.diagonal(-1, -2, -1).sum()
        + a.roll((1, -2), (0, -1)).sum()
        + a.flip(-1, 0).sum()
        + a.movedim(-1, 0).sum()
        + a.unfold(-1, 2, 1).sum()
        + a.squeeze(-3).sum()
        + a[..., -1].sum()
        + a.amax((-1, 0)).sum()
        + a.transpose(-1, -3).sum()
    )


def attrs_norm_layers(torch):
    # fixed: instance_norm viewed the input before repeating weight and bias (ATen's node order)
    F = torch.nn.functional
    rs = np.random.RandomState(3)
    x = t(torch, rs.randn(2, 3, 4), True)
    w = t(torch, rs.randn(3), True)
    b = t(torch, rs.randn(3), True)
    rm = torch.zeros(3)
    rv = torch.ones(3)
    return (
        F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3, eps=1e-3).sum()
        + (F.instance_norm(x, weight=w, bias=b) * x.detach()).sum()
        + (F.layer_norm(x, (4,), eps=1e-6) * x.detach()).sum()
        + F.local_response_norm(x, 2).sum()
        + F.rms_norm(x, (4,)).sum()
        + F.batch_norm(x, rm, rv, w, b, training=False).sum()
    )


def attrs_scalars(torch):
    F = torch.nn.functional
    a = t(torch, [-2.0, -0.5, 0.5, 2.0], True)
    return (
        F.hardtanh(a, -1.0, 1.5)
        + F.leaky_relu(a, 0.2)
        + F.softplus(a, beta=2.0, threshold=5.0)
        + F.elu(a, alpha=0.7)
        + F.celu(a, 1.3)
        + F.threshold(a, 0.1, -3.0)
        + a.pow(2.5).nan_to_num()
        + a.clamp(-1.0, 1.0)
        + torch.addcmul(a, a, a, value=0.3)
        + torch.lerp(a, a * 2, 0.25)
        + a.masked_fill(a > 0, 0.5)
        + a.index_fill(0, torch.tensor([1]), 7.0)
        + torch.div(a, 3.0, rounding_mode="floor")
        + a.add(a, alpha=2)
        + a.sub(3, alpha=2)
        + torch.rsub(a, 1.0)
    ).sum()


def attrs_scatter(torch):
    # fixed: take_along_dim's gather saved the caller's index tensor; PyTorch's is always a new tensor
    a = t(torch, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], True)
    src = t(torch, [[0.5, 0.5, 0.5], [2.0, 2.0, 2.0]], True)
    idx = torch.tensor([[0, 1, 0], [1, 0, 1]])
    return (
        a.scatter(0, idx, src).sum()
        + a.scatter_reduce(0, idx, src, "amax", include_self=False).sum()
        + a.scatter(1, idx, 2.0).sum()
        + a.index_add(1, torch.tensor([0, 2, 1]), src, alpha=0.5).sum()
        + a.index_copy(0, torch.tensor([1, 0]), src).sum()
        + a.masked_scatter(a > 2, src).sum()
        + a.take_along_dim(idx, 1).sum()
    )


def custom_fn_inplace_view(torch):
    class Dbl(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = t(torch, [1.0, 2.0, 3.0], True)
    b = a.clone()
    Dbl.apply(b[1:])
    return b.sum()


def custom_fn_view_output(torch):
    class V(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2, 2)

    a = t(torch, [[1.0, 2.0], [3.0, 4.0]], True)
    y = V.apply(a * 2)
    return (y * y).sum()


def inplace_on_view_of_view(torch):
    x = t(torch, np.arange(12.0).reshape(3, 4), True)
    a = x.clone()
    v = a[1:].t()
    w = v[1:3]
    w.mul_(2)
    v.add_(x[1:].t())
    return a.sum() + w.sum()


def regenerated_views(torch):
    x = t(torch, np.arange(8.0), True)
    a = x * 1
    u = a.unfold(0, 3, 2)
    d = a.view(2, 4).diagonal()
    e = a.view(2, 4).t().expand(2, 4, 2)
    a.add_(1)
    return u.sum() + d.sum() + e.sum()


def unbind_inplace(torch):
    x = t(torch, np.arange(6.0).reshape(2, 3), True)
    a = x * 1
    r0, r1 = a.unbind(0)
    s = a.split(1, 0)
    return (r0 * r1).sum() + s[0].sum()


def view_chain_saved(torch):
    x = t(torch, np.arange(6.0).reshape(2, 3), True)
    v = x.t()
    y = v.exp() * v
    return y.sum() + (v[0] * x[0, :2]).sum()


def cat_empty(torch):
    a = t(torch, [1.0, 2.0], True)
    e = t(torch, np.zeros(0), True)
    return torch.cat([a, e, a * 2]).sum() + torch.stack([a, a]).sum()


def conv_same(torch):
    rs = np.random.RandomState(1)
    x = t(torch, rs.randn(1, 2, 5, 5), True)
    w = t(torch, rs.randn(3, 2, 3, 3), True)
    return (torch.nn.functional.conv2d(x, w, padding="same") * t(torch, rs.randn(1, 3, 5, 5))).sum()


def ctc(torch):
    rs = np.random.RandomState(3)
    lp = t(torch, rs.randn(5, 1, 4), True).log_softmax(2)
    return torch.nn.functional.ctc_loss(lp, torch.tensor([[1, 2]]), torch.tensor([5]), torch.tensor([2]))


def decoder_layer(torch):
    # fixed: cross-attention projected k/v before q (PyTorch's _in_projection_packed: q first)
    layer = torch.nn.TransformerDecoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True)
    rs = np.random.RandomState(4)
    for p in layer.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.3)
    x = t(torch, rs.randn(1, 2, 4))
    mem = t(torch, rs.randn(1, 3, 4), True)
    return layer(x, mem).sum(), {"mem": mem}


def norms_funcs(torch):
    # fixed: matrix_norm('fro') saved dim=(-2, -1) unwrapped; PyTorch's node saves the wrapped dims
    a = t(torch, [[3.0, -4.0], [1.0, 2.0]], True)
    return (
        torch.linalg.vector_norm(a, 3)
        + torch.linalg.matrix_norm(a)
        + a.norm(dim=0).sum()
        + torch.dist(a, a * 2)
        + torch.nn.functional.normalize(a, p=1).sum()
        + torch.linalg.norm(a, "nuc")
        + a.renorm(1, 0, 2.0).sum()
    )


def packed_bilstm(torch):
    # fixed: the packed LSTM stacked h_n before c_n (as packed_lstm)
    rs = np.random.RandomState(6)
    lstm = torch.nn.LSTM(2, 2, bidirectional=True)
    for p in lstm.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.5)
    x = t(torch, rs.randn(3, 3, 2), True)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor([3, 2, 1]))
    out, (h, c) = lstm(packed)
    return h.sum() + c.sum() * 2 + out.data.sum()


def packed_gru(torch):
    rs = np.random.RandomState(7)
    gru = torch.nn.GRU(2, 2, bidirectional=True)
    for p in gru.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.5)
    x = t(torch, rs.randn(3, 3, 2), True)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor([3, 2, 1]))
    out, h = gru(packed)
    return h.sum() + out.data.sum()


def packed_lstm(torch):
    # fixed: packed LSTM sliced h before c (ATen's make_tuple(slice(h), slice(c)) runs right to left)
    rs = np.random.RandomState(2)
    lstm = torch.nn.LSTM(2, 2)
    for p in lstm.parameters():
        p.data = t(torch, rs.randn(*p.shape) * 0.5)
    x = t(torch, rs.randn(3, 2, 2), True)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor([3, 2]))
    out, (h, c) = lstm(packed)
    return h.sum()


def pixel_ops(torch):
    F = torch.nn.functional
    x = t(torch, np.random.RandomState(5).randn(1, 4, 2, 2), True)
    return (
        F.pixel_shuffle(x, 2).sum()
        + F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2).pow(2).sum()
        + F.channel_shuffle(x, 2).mul(2).sum()
        + F.glu(x, 1).sum()
        + F.softmin(x, 1).max()
    )


def sdpa(torch):
    rs = np.random.RandomState(0)
    q = t(torch, rs.randn(1, 2, 3, 4), True)
    k = t(torch, rs.randn(1, 2, 3, 4), True)
    v = t(torch, rs.randn(1, 2, 3, 4), True)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True).sum()


PROGRAMS = {
    "cat_empty": cat_empty,
    "conv_same": conv_same,
    "ctc": ctc,
    "decoder_layer": decoder_layer,
    "norms_funcs": norms_funcs,
    "packed_bilstm": packed_bilstm,
    "packed_gru": packed_gru,
    "packed_lstm": packed_lstm,
    "pixel_ops": pixel_ops,
    "sdpa": sdpa,
    "custom_fn_inplace_view": custom_fn_inplace_view,
    "custom_fn_view_output": custom_fn_view_output,
    "inplace_on_view_of_view": inplace_on_view_of_view,
    "regenerated_views": regenerated_views,
    "unbind_inplace": unbind_inplace,
    "view_chain_saved": view_chain_saved,
    "attrs_bools": attrs_bools,
    "attrs_dtypes": attrs_dtypes,
    "attrs_embedding": attrs_embedding,
    "attrs_lists": attrs_lists,
    "attrs_losses": attrs_losses,
    "attrs_misc": attrs_misc,
    "attrs_negative_ints": attrs_negative_ints,
    "attrs_norm_layers": attrs_norm_layers,
    "attrs_scalars": attrs_scalars,
    "attrs_scatter": attrs_scatter,
    "as_strided": as_strided,
    "big_graph": big_graph,
    "big_graph_irregular": big_graph_irregular,
    "checkpoint": checkpoint,
    "checkpoint_reentrant": checkpoint_reentrant,
    "complex_t": complex_t,
    "conv": conv,
    "conv1d": conv1d,
    "copyslices": copyslices,
    "custom_fn_none_input": custom_fn_none_input,
    "custom_fn_nontensor": custom_fn_nontensor,
    "custom_fn_once": custom_fn_once,
    "custom_fn_two_out": custom_fn_two_out,
    "detached": detached,
    "double_bw": double_bw,
    "double_bw_mlp": double_bw_mlp,
    "empty": empty,
    "float64": float64,
    "freed": freed,
    "gru_cell": gru_cell,
    "lstm_cell": lstm_cell,
    "mlp": mlp,
    "none_next": none_next,
    "retain_grad": retain_grad,
    "rnn_cell": rnn_cell,
    "rnn_module": rnn_module,
    "saved_hooks": saved_hooks,
    "saved_strings": saved_strings,
    "saved_types": saved_types,
    "topk_max": topk_max,
    "unbind_split": unbind_split,
    "view_inplace": view_inplace,
    "accumulate_twice": accumulate_twice,
    "activations": activations,
    "as_strided_inplace": as_strided_inplace,
    "backward_create_graph": backward_create_graph,
    "bf16": bf16,
    "complex_views": complex_views,
    "conv_transpose": conv_transpose,
    "cum_ops": cum_ops,
    "data_mutation": data_mutation,
    "dict_outputs": dict_outputs,
    "dropout_eval": dropout_eval,
    "embedding": embedding,
    "fn_mark_dirty": fn_mark_dirty,
    "fn_nested": fn_nested,
    "fn_returns_input": fn_returns_input,
    "fn_setup_context": fn_setup_context,
    "grad_of_grad_leaf": grad_of_grad_leaf,
    "hooks_everywhere": hooks_everywhere,
    "inplace_relu_chain": inplace_relu_chain,
    "ints_bools": ints_bools,
    "linalg": linalg,
    "long_unroll": long_unroll,
    "losses": losses,
    "many_outputs": many_outputs,
    "matmuls": matmuls,
    "mha": mha,
    "named_intermediates": named_intermediates,
    "nan_inf": nan_inf,
    "norms": norms,
    "output_leaf": output_leaf,
    "pools": pools,
    "requires_grad_mid": requires_grad_mid,
    "scatter_gather": scatter_gather,
    "shapes": shapes,
    "softmax_family": softmax_family,
    "transformer_layer": transformer_layer,
    "view_of_view_inplace": view_of_view_inplace,
    "wide_unbind": wide_unbind,
    "zero_dim": zero_dim,
    "allow_mutation": allow_mutation,
    "allow_unused": allow_unused,
    "backward_inputs": backward_inputs,
    "big_forward": big_forward,
    "clamp_tensor_bounds": clamp_tensor_bounds,
    "clip_then_draw": clip_then_draw,
    "conv3d_bn": conv3d_bn,
    "detach_inplace": detach_inplace,
    "distances": distances,
    "embedding_bag": embedding_bag,
    "expand_broadcast": expand_broadcast,
    "fft_ops": fft_ops,
    "fn_needs_input_grad": fn_needs_input_grad,
    "fn_no_materialize": fn_no_materialize,
    "fn_save_output": fn_save_output,
    "grad_outputs": grad_outputs,
    "grid_unfold": grid_unfold,
    "gru_module": gru_module,
    "inplace_on_leaf_view_nograd": inplace_on_leaf_view_nograd,
    "int_outputs": int_outputs,
    "lstm_hidden_order": lstm_hidden_order,
    "lstm_module": lstm_module,
    "model_params": model_params,
    "one_hot_mse": one_hot_mse,
    "pack_hooks_numpy": pack_hooks_numpy,
    "polar_complex": polar_complex,
    "post_acc_hook": post_acc_hook,
    "retain_twice": retain_twice,
    "save_on_cpu": save_on_cpu,
    "selections": selections,
    "shared_roots": shared_roots,
    "sigmoid_inplace_output": sigmoid_inplace_output,
    "sparse_embedding": sparse_embedding,
    "stale_saved_output": stale_saved_output,
    "var_std": var_std,
    "view_after_base_inplace": view_after_base_inplace,
    "view_regenerated_chain": view_regenerated_chain,
    "weight_norm": weight_norm,
    "where_scalar": where_scalar,
}
# Programs whose saved values cannot match: PyTorch's oneDNN LSTM saves its workspace (28672 bytes of
# uninitialised memory); minigrad saves an empty one. They are compared with show_saved=False.
SAVED_DIFFERS = {"lstm_module", "lstm_hidden_order"}
# Programs whose gradients include float noise around 0 (the query bias of attention: softmax is shift
# invariant), printed differently by the two libraries: their frames are compared node for node, not as text.
STEPPER_NOISE = {"decoder_layer"}


# ---- comparing ------------------------------------------------------------------------------------


def _build(B, program):
    np.random.seed(0)
    B.mod.manual_seed(0)
    r = PROGRAMS[program](B.mod)
    if isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], dict):
        return r
    return r, None


def _dump(desc):
    """Everything a drawing holds, as plain data (the gradient norm only through the DOT colours)."""
    nodes = [
        (
            n.id,
            n.kind,
            n.title,
            n.name,
            n.attrs,
            n.notes,
            n.count,
            n.fn_index,
            n.tensor and {k: v for k, v in vars(n.tensor).items() if k != "grad_norm"},
        )
        for n in desc.nodes
    ]
    edges = [(e.src, e.dst, e.kind, e.label, e.input_nr) for e in desc.edges]
    return nodes, edges


VIEWS = {
    "saved": {"show_attrs": True, "show_constants": True},
    "forward": {"direction": "forward", "color_grads": True, "max_nodes": 7, "show_attrs": True},
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("program", list(PROGRAMS))
def test_same_drawing(both, program, view):
    kw = dict(VIEWS[view], show_saved=program not in SAVED_DIFFERS)
    drawn = []
    for B in both:
        out, names = _build(B, program)
        d = viz.draw(out, names=names, auto_names=False, **kw)
        drawn.append((_dump(d.graph), d.source))
    assert drawn[0][0] == drawn[1][0]
    assert drawn[0][1] == drawn[1][1]


def _step_through(B, program):
    out, names = _build(B, program)
    root = out[0] if isinstance(out, list) else next(iter(out.values())) if isinstance(out, dict) else out
    try:
        st = viz.BackwardStepper(root, names=names, show_saved=program not in SAVED_DIFFERS, engine="none-such")
    except Exception as e:  # the library's own error (freed graph, stale saved value ...): must match too
        return (type(e).__name__, str(e)), None
    n = len(st.frames)
    shown = range(n) if n <= 40 else [0, 1, 2, n // 2, n - 2, n - 1]  # (long unrolls: a sample of frames)
    after = viz.draw(
        out,
        names=names,
        auto_names=False,
        show_attrs=True,
        show_constants=True,
        show_saved=program not in SAVED_DIFFERS,
    )
    return ([f.text for f in st.frames], [st.drawing(k).source for k in shown], _dump(after.graph), after.source), st


@pytest.mark.parametrize("program", list(PROGRAMS))
def test_same_stepper(both, program):
    """Frame by frame the same gradients; after backward (graph freed) the same drawing."""
    (got_t, st_t), (got_m, st_m) = (_step_through(B, program) for B in both)
    if program in STEPPER_NOISE:
        got_t, got_m = got_t[2:], got_m[2:]  # the drawing after backward only
    assert got_t == got_m
    if st_t is not None:
        assert len(st_t.frames) == len(st_m.frames) > 0
        for ft, fm in zip(st_t.frames, st_m.frames):
            assert (ft.node_id, ft.leaf) == (fm.node_id, fm.leaf)
            assert [(d, nr) for d, nr, _ in ft.grads_out] == [(d, nr) for d, nr, _ in fm.grads_out]


def test_programs_include_graphs_of_over_1000_nodes(both):
    from viz.walk import walk

    assert len(PROGRAMS) >= 80
    for B in both:
        assert len(walk([_build(B, "big_forward")[0]])) == 1052
        assert len(walk([_build(B, "big_graph")[0]])) == 1052


@pytest.mark.parametrize("program", ["mlp", "copyslices", "custom_fn_two_out"])
def test_same_svg(both, program):
    svgs = []
    for B in both:
        out, names = _build(B, program)
        svgs.append(viz.draw(out, names=names, auto_names=False, show_attrs=True).svg())
    assert svgs[0] == svgs[1]
    assert svgs[0].count('class="node') >= 5


def test_freed_saved_values_drawn_as_freed(both):
    for B in both:
        out, _ = _build(B, "mlp")
        out.backward()
        saved = [n for n in viz.draw(out, auto_names=False).graph.nodes if n.kind == "saved"]
        assert {n.title for n in saved} >= {"target", "total_weight", "mat1", "result"}
        assert all(n.tensor.state == "freed" for n in saved)


def test_conj_view_is_not_its_base(both):
    """PyTorch's conj() is a lazy view over its base's memory: the saved conj(a) is drawn as its own tensor."""
    for B in both:
        a = B.mod.tensor(np.array([1 + 2j, 3 - 1j], dtype=np.complex64), requires_grad=True)
        y = a * a.conj()
        saved = {e.label: e.src for e in viz.draw(y, auto_names=False).graph.edges if e.kind == "saved"}
        d = viz.draw(y, auto_names=False)
        assert d.graph.node(saved["self"]).kind == "leaf"
        other = d.graph.node(saved["other"])
        assert other.kind == "tensor" and other.tensor.value == "[1-2j, 3+1j]"


# ---- plots: the same data from either library ----------------------------------------------------


def test_same_plot_data(both):
    from viz import plots

    got = []
    for B in both:
        ys, dys = plots.derivative(lambda x: x.tanh() * x.exp(), np.linspace(-2, 2, 7), module=B.mod)
        J = plots.jacobian(lambda x: (x * x).cumsum(0).sin(), np.array([0.5, 1.0, -1.5]), module=B.mod)
        path = plots.descent_path(
            lambda x, y: (x - 1) ** 2 + 3 * (y + 0.5) ** 2 + x * y, [2.0, 1.0], lr=0.1, steps=20, module=B.mod
        )
        w = B.mod.tensor([3.0, 4.0], requires_grad=True)
        (w * w).sum().backward()
        norms = plots.grad_norms({"w": w, "unused": B.mod.tensor([1.0], requires_grad=True)})
        got.append((ys, dys, J, path, norms))
    for a, b in zip(*got):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)  # (±0 compare equal: PyTorch's cumsum backward gives -0.0)
        else:
            assert a == b
    assert got[0][4] == [("w", 10.0), ("unused", None)]


# ---- robustness: PyTorch graphs minigrad cannot make ----------------------------------------------


def test_meta_tensors_draw_and_step(torch_backend):
    torch = torch_backend.mod
    a = torch.randn(2, 3, device="meta", requires_grad=True)
    y = (a.exp() * a).sum()
    d = viz.draw(y, auto_names=False)
    assert [n.title for n in d.graph.nodes if n.kind == "fn"] == ["SumBackward0", "MulBackward0", "ExpBackward0"]
    assert d.graph.by_kind("leaf")[0].tensor.value == "?"  # no values to read
    st = viz.BackwardStepper(y, engine="none-such")
    assert [f.node for f in st.frames] == ["SumBackward0", "MulBackward0", "ExpBackward0", "AccumulateGrad"]


def test_sparse_and_quantized_values(torch_backend):
    torch = torch_backend.mod
    e = torch.nn.Embedding(3, 2, sparse=True)
    with torch.no_grad():
        e.weight.copy_(torch.arange(6.0).view(3, 2))
    st = viz.BackwardStepper(e(torch.tensor([0, 2, 2])).sum(), engine="none-such")
    np.testing.assert_array_equal(st.frames[-1].leaf_grad_after, [[1, 1], [0, 0], [2, 2]])
    q = torch.quantize_per_tensor(torch.tensor([1.0, 2.0]), 0.5, 0, torch.quint8)
    assert viz.draw(q, auto_names=False).graph.nodes[0].tensor.value == "[1, 2]"


class _FakeNode:
    """A node of an unknown class: odd saved values, attributes that raise, no hooks."""

    next_functions = ((None, 0), "not a pair")
    _saved_size = (2, 3)

    def __init__(self, size_type, symint):
        self._saved_size = size_type([2, 3])
        self._saved_sym = symint

    @property
    def _saved_bad(self):
        raise ValueError("cannot read")

    @property
    def _saved_gone(self):
        raise RuntimeError("Trying to backward through the graph a second time")


class _FakeOutput:
    requires_grad = True

    def __init__(self, fn, shape):
        self.grad_fn, self.shape = fn, shape

    def detach(self):
        raise RuntimeError("no values")


def test_unknown_nodes_symints_and_raising_attributes(torch_backend):
    torch = torch_backend.mod
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    sym = ShapeEnv().create_unbacked_symint()
    out = _FakeOutput(_FakeNode(torch.Size, sym), (sym, 3))
    d = viz.draw(out, show_attrs=True, auto_names=False)
    fn = d.graph.nodes[0]
    assert fn.title == "_FakeNode" and fn.attrs == [("size", "torch.Size([2, 3])"), ("sym", "u0")]
    states = {n.title: n.tensor.state for n in d.graph.nodes if n.kind == "saved"}
    assert states == {"bad": "unavailable", "gone": "freed"}
    assert d.graph.by_kind("output")[0].tensor.shape == ()  # a SymInt shape cannot be read as ints


def test_unreadable_next_functions(torch_backend):
    class BadNext:
        @property
        def next_functions(self):
            raise RuntimeError("boom")

    d = viz.draw(_FakeOutput(BadNext(), (1,)), auto_names=False)
    assert [n.kind for n in d.graph.nodes] == ["fn", "output"]


def test_delayed_error_node(both):
    """once_differentiable under create_graph: the gradient hangs off an Error node in both libraries."""
    results = []
    for B in both:
        torch = B.mod

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, g):
                return g * 2

        a = torch.tensor([1.0, 2.0], requires_grad=True)
        (g,) = torch.autograd.grad((F.apply(a) * a).sum(), a, create_graph=True)
        d = viz.draw(g, auto_names=False, show_attrs=True)
        with pytest.raises(RuntimeError) as err:
            viz.BackwardStepper(g.sum())
        results.append((_dump(d.graph), d.source, str(err.value)))
    assert results[0] == results[1]
    assert "Error" in [n.title for n in viz.draw(g, auto_names=False).graph.nodes]
    assert "marked with @once_differentiable" in results[1][2]


def test_mixed_saved_tuple_draws_its_tensors(both):
    """x[:, idx] saves indices = (None, idx): the tensor is drawn as `indices[1]`."""
    for B in both:
        x = B.mod.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        d = viz.draw(x[:, B.mod.tensor([0, 2])].sum(), auto_names=False)
        (saved,) = [n for n in d.graph.nodes if n.kind == "saved"]
        assert saved.title == "indices[1]" and saved.tensor.value == "[0, 2]"


@pytest.mark.parametrize(
    "bad, error, message",
    [
        (3, TypeError, "draw() takes a tensor or a sequence of tensors, got int"),
        (None, TypeError, "draw() takes a tensor or a sequence of tensors, got NoneType"),
        (np.ones(2), TypeError, "draw() takes a tensor or a sequence of tensors, got ndarray"),
        ("loss", TypeError, "draw() takes a tensor or a sequence of tensors, got str"),
        ([], ValueError, "draw() got no tensors to draw"),
    ],
)
def test_clear_errors_for_bad_draw_inputs(bad, error, message):
    with pytest.raises(error) as err:
        viz.draw(bad)
    assert str(err.value) == message


def test_clear_errors_for_bad_stepper_inputs(backend):
    with pytest.raises(TypeError, match="BackwardStepper takes a tensor, got int"):
        viz.BackwardStepper(3)
    a = backend.tensor([1.0], requires_grad=True)
    for no_graph in (a, backend.tensor([1.0])):
        with pytest.raises(ValueError, match="needs a tensor with a grad_fn"):
            viz.BackwardStepper(no_graph)
    with pytest.raises(TypeError, match="got int"):
        viz.draw([a * 2, 3])


def test_create_graph_nodes_numbered_as_in_pytorch(both):
    """Sequence numbers decide the order backward runs nodes in (the stepper's frames): a leaf's
    AccumulateGrad takes none (reads 2**64 - 1), and a node's formulas run in alphabetical order of
    their inputs (mul's ``other`` before ``self``), so create_graph's nodes are numbered as PyTorch's."""
    numbered = []
    for B in both:
        a, b = (B.tensor(v, requires_grad=True) for v in ([1.0, 2.0], [3.0, 4.0]))
        ea, eb = a.exp(), b.exp()
        ga, gb = B.mod.autograd.grad((ea * eb).sum(), [a, b], create_graph=True)
        first = ea.grad_fn._sequence_nr()
        nodes = [ga.grad_fn, gb.grad_fn, eb.grad_fn] + [f for f, _ in ga.grad_fn.next_functions]
        numbered.append(([f._sequence_nr() - first for f in nodes], ea.grad_fn.next_functions[0][0]._sequence_nr()))
    assert numbered[0] == numbered[1]
    assert numbered[1] == ([7, 6, 1, 5, 0], 2**64 - 1)
