"""Session 12: viz on real models drawn from PyTorch and from minigrad (an LSTM/GRU unrolled 3 steps, attention, a
ResNet basic block with BatchNorm, checkpointing, saved-tensor hooks, a custom Function with non-differentiable
outputs, a forward-AD dual computation, the same tensor saved by several nodes): the same DOT texts, the same
stepper text and drawing at every step, the same drawings after a backward that kept the graph, a second walk
(retain_graph) and the drawing after it (saved values freed), the same error for a third walk; the plot helpers'
data on these models. Plus what the graph fuzzer's seeds 123700-126799 / nn 130000-131799 found."""

from __future__ import annotations

import re
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


def lstm_cell_unrolled(torch):
    cell = _init(torch, torch.nn.LSTMCell(2, 3))
    x = _inp(torch, (3, 1, 2), rg=True)
    h, c = _inp(torch, (1, 3), 2, True), _inp(torch, (1, 3), 3, True)
    h0 = h
    for t in range(3):
        h, c = cell(x[t], (h, c))
    y = h.sum() + c.pow(2).sum()
    return [y, h, c], {"x": x, "h0": h0, **dict(cell.named_parameters())}, y

def gru_cell_unrolled(torch):
    cell = _init(torch, torch.nn.GRUCell(2, 3))
    x = _inp(torch, (3, 2, 2), rg=True)
    h = torch.zeros(2, 3)
    hs = []
    for t in range(3):
        h = cell(x[t], h)
        hs.append(h)
    y = torch.stack(hs).tanh().mean()
    return [y], {"x": x, **dict(cell.named_parameters())}, y

def lstm_3_steps(torch):
    m = _init(torch, torch.nn.LSTM(2, 3, num_layers=2))
    x = _inp(torch, (3, 1, 2), rg=True)
    out, (h, c) = m(x)
    y = out[-1].sum() + h.sum()
    return [y, c], {"x": x, **dict(m.named_parameters())}, y

def gru_3_steps(torch):
    m = _init(torch, torch.nn.GRU(2, 3, batch_first=True, bidirectional=True))
    x = _inp(torch, (1, 3, 2), rg=True)
    out, h = m(x)
    y = out.pow(2).sum() + h.mean()
    return [y], {"x": x, **dict(m.named_parameters())}, y

def mha(torch):
    m = _init(torch, torch.nn.MultiheadAttention(4, 2, batch_first=True))
    q, k = _inp(torch, (1, 3, 4), 1, True), _inp(torch, (1, 2, 4), 2, True)
    out, w = m(q, k, k, key_padding_mask=torch.tensor([[False, True]]))
    y = out.sum() + w.pow(2).sum()
    return [y, w], {"q": q, "k": k, **dict(m.named_parameters())}, y

def mha_self_average_false(torch):
    m = _init(torch, torch.nn.MultiheadAttention(4, 2, bias=False, add_bias_kv=True))
    x = _inp(torch, (3, 1, 4), 1, True)
    mask = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
    out, w = m(x, x, x, attn_mask=mask, average_attn_weights=False)
    y = out.mean() + w[0, 1].sum()
    return [y], {"x": x, **dict(m.named_parameters())}, y

def resnet_block(torch):
    nn = torch.nn
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(2, 2, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(2)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(2, 2, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(2)
        def forward(self, x):
            idt = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            out += idt
            return self.relu(out)
    m = _init(torch, Block())
    x = _inp(torch, (2, 2, 3, 3), rg=True)
    y = m(x).mean()
    return [y], {"x": x, **dict(m.named_parameters())}, y

def resnet_block_downsample_eval(torch):
    nn = torch.nn
    conv1 = nn.Conv2d(2, 3, 3, stride=2, padding=1, bias=False)
    bn1 = nn.BatchNorm2d(3)
    down = nn.Sequential(nn.Conv2d(2, 3, 1, stride=2, bias=False), nn.BatchNorm2d(3))
    m = _init(torch, nn.ModuleList([conv1, bn1, down]))
    m.eval()
    x = _inp(torch, (1, 2, 4, 4), rg=True)
    out = torch.relu(bn1(conv1(x)))
    out = out + down(x)
    y = torch.relu_(out).sum()
    return [y], {"x": x, **dict(m.named_parameters())}, y

def checkpoint_reentrant(torch):
    m = _init(torch, torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2)))
    x = _inp(torch, (2, 3), rg=True)
    h = torch.utils.checkpoint.checkpoint(m[0], x, use_reentrant=True)
    out = torch.utils.checkpoint.checkpoint(lambda t: m[2](m[1](t)), h, use_reentrant=False).pow(2).sum()
    return [out], {"x": x, **dict(m.named_parameters())}, out

def checkpoint_sequential(torch):
    nn = torch.nn
    m = _init(torch, nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 3), nn.Sigmoid()))
    x = _inp(torch, (2, 3), rg=True)
    out = torch.utils.checkpoint.checkpoint_sequential(m, 2, x, use_reentrant=False).sum()
    return [out], {"x": x, **dict(m.named_parameters())}, out

def saved_hooks(torch):
    x = _inp(torch, (3,), rg=True)
    w = _inp(torch, (3,), 2, True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t + 0):
        y = (x * w).exp()
    with torch.autograd.graph.save_on_cpu():
        z = y.sin() * x
    out = z.sum()
    return [out], {"x": x, "w": w}, out

def saved_hooks_pack_tuple(torch):
    x = _inp(torch, (2, 2), rg=True)
    store = []
    def pack(t):
        store.append(t.detach().clone())
        return len(store) - 1
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda i: store[i]):
        y = x.pow(3).mm(x).tanh()
    out = y.sum()
    return [out, y], {"x": x}, out

def nondiff_outputs(torch):
    class SortIdx(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return v, i
        @staticmethod
        def backward(ctx, gv, gi):
            (i,) = ctx.saved_tensors
            return torch.zeros_like(gv).scatter(0, i, gv)
    class NoMat(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3
        @staticmethod
        def backward(ctx, g1, g2):
            out = 0
            if g1 is not None:
                out = out + 2 * g1
            if g2 is not None:
                out = out + 3 * g2
            return out
    x = _inp(torch, (4,), rg=True)
    v, i = SortIdx.apply(x)
    a, _b = NoMat.apply(v)
    out = (a * i.float()).sum()
    return [out, i], {"x": x}, out

def shared_saved(torch):
    x = _inp(torch, (3,), rg=True)
    s = x.sigmoid()
    y = s * s + s.exp() * s + torch.mul(s, 2) + s.pow(2)
    e = x.exp()
    z = y * e + e.log() + (e / e.sum())
    out = z.sum()
    return [out, s], {"x": x}, out

def forward_ad_dual(torch):
    fwAD = torch.autograd.forward_ad
    x = _inp(torch, (3,), rg=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(3))
        y = (d.sin() * d).sum()
        p, t = fwAD.unpack_dual(y)
    out = p + t
    return [out, p, t], {"x": x}, out

PROGRAMS = [lstm_cell_unrolled, gru_cell_unrolled, lstm_3_steps, gru_3_steps, mha, mha_self_average_false,
            resnet_block, resnet_block_downsample_eval, checkpoint_reentrant, checkpoint_sequential, saved_hooks,
            saved_hooks_pack_tuple, nondiff_outputs, shared_saved, forward_ad_dual]

# PyTorch's oneDNN LSTM saves its workspace (opaque bytes, uninitialised memory: result3 of MkldnnRnnLayerBackward0);
# minigrad saves an empty one. The value of that one saved tensor is not compared.
_WORKSPACE = re.compile(r"\(\d+,\) uint8 v0</FONT></TD></TR><TR><TD><FONT POINT-SIZE=\"8\">[^<]*")


def _err(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _texts(torch, program) -> dict:
    """Every text viz gives for the program: the drawings, the stepper's text and every frame's drawing (backward
    keeping the graph), the drawing after it, a second walk and the drawing after that (saved values freed), and
    the error of a third walk."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ys, names, root = program(torch)
        for k, kw in KINDS.items():
            out[k] = viz.draw(ys, names=names, auto_names=False, **kw).source
        out["auto_names"] = viz.draw(ys, show_saved=True).source
        st = viz.BackwardStepper(root, names=names, show_saved=True, engine=NO_RENDERER, retain_graph=True)
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
        for k in range(len(st.frames)):
            out[f"stepper/{k}"] = st.drawing(k).source
        out["retained"] = viz.draw(ys, names=names, auto_names=False, **KINDS["saved"]).source
        again = viz.BackwardStepper(root, names=names, show_saved=True, engine=NO_RENDERER)
        out["again"] = "\n\n".join(f.text for f in again.frames)
        out["again/last"] = again.drawing(len(again.frames) - 1).source
        out["freed"] = viz.draw(ys, names=names, auto_names=False, **KINDS["saved"]).source
        try:
            viz.BackwardStepper(root, names=names, show_saved=True, engine=NO_RENDERER)
            out["third"] = "no error"
        except RuntimeError as e:
            out["third"] = _err(e)
    return {k: _WORKSPACE.sub("workspace", v) for k, v in out.items()}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_real_models_draw_the_same(program):
    torch = torch_or_skip()
    import minigrad

    theirs = _texts(torch, program)
    assert differences(_texts(minigrad, program), theirs) == []
    assert "Trying to backward through the graph a second time" in theirs["third"]
    assert "freed" in theirs["freed"] and "freed" not in theirs["retained"]


def test_lstm_workspace_is_the_only_value_left_out():
    torch = torch_or_skip()
    import minigrad

    raw = {mod.__name__: viz.draw(lstm_3_steps(mod)[0], show_saved=True).source for mod in (torch, minigrad)}
    assert "(28672,) uint8" in raw["torch"] and "(0,) uint8" in raw["minigrad"]  # (result3, the workspace)
    assert [_WORKSPACE.sub("workspace", t).count("workspace") for t in raw.values()] == [2, 2]


# -- fixed: viz drew two saved tensors as one -------------------------------------------------------------------------


def _fresh_unpacks(torch) -> str:
    """Saved tensors read through an unpack hook are new tensors at each read: freed, their memory may hold the next
    one read (same pointer, shape and strides), which viz then took for the same tensor."""
    x, w = _inp(torch, (3,), rg=True), _inp(torch, (3,), 2, True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t + 0):
        y = (x * w).exp()
    return viz.draw(y, names={"x": x, "w": w}, auto_names=False, **KINDS["saved"]).source


def test_saved_tensors_unpacked_anew_are_drawn_apart():
    torch = torch_or_skip()
    import minigrad

    theirs, mine = _fresh_unpacks(torch), _fresh_unpacks(minigrad)
    assert differences({"saved": mine}, {"saved": theirs}) == []
    assert "<B>saved self</B>" in mine and "<B>saved other</B>" in mine


# -- fixed: TensorIterator's layout beside a broadcast operand (what the drawing showed: a saved view of an output
# -- drawn as the output itself, seed 125733) -------------------------------------------------------------------------


def _layouts(torch) -> list:
    x = torch.ones(1, 2).transpose(0, 1)  # (2, 1) with strides (1, 2): C-contiguous, size-1 dim's stride odd
    y = torch.ones(2, 1, 3).transpose(0, 1)
    results = [x * 1, x + 2.5, x * torch.ones(1), x - torch.ones(2, 1), torch.ones(1) / x, x + x, x.exp(),
               torch.where(x > 0, x, 2.0), torch.remainder(x, torch.ones(1)), torch.atan2(x, torch.ones(1, 1)),
               y * torch.ones(3), y.mul(2), torch.ones(1, 3, 1).permute(2, 1, 0) * 2, x + torch.ones(2, 3)]
    return [(tuple(r.shape), r.stride(), r.is_contiguous()) for r in results]


def test_outputs_beside_broadcast_operands_keep_size_one_strides():
    torch = torch_or_skip()
    import minigrad

    assert _layouts(minigrad) == _layouts(torch)
    assert _layouts(torch)[0][1] == (1, 2)


def test_graph_fuzz_seeds_found_this_session_draw_the_same():
    torch_or_skip()
    from test_viz_graph_fuzz import check

    prog, diffs, broke, _why = check(125733, "tensor")
    assert diffs == [] and broke == []


# -- fixed: forward AD's tangent graphs (PyTorch's formulas read each primal through _fw_primal: an Identity node) ----


def _tangent_graphs(torch) -> dict:
    """The graph behind each op's tangent (node names, sequence numbers relative to each other), inputs requiring
    grad: the nodes backward through a tangent walks (e.g. a loss on a jvp)."""
    ops = {
        "mul": lambda a, b: a * b, "square": lambda a, b: a * a, "sin_times": lambda a, b: a.sin() * a.cos(),
        "div": lambda a, b: a / b, "exp": lambda a, b: a.exp(), "tanh": lambda a, b: a.tanh(),
        "sigmoid": lambda a, b: a.sigmoid(), "relu": lambda a, b: a.relu(), "sqrt": lambda a, b: a.abs().sqrt(),
        "maximum": lambda a, b: torch.maximum(a, b), "where": lambda a, b: torch.where(a > 0, a, b),
        "lerp": lambda a, b: torch.lerp(a, b, 0.3), "silu": lambda a, b: torch.nn.functional.silu(a),
        "gelu": lambda a, b: torch.nn.functional.gelu(a), "clamp": lambda a, b: a.clamp(-0.5, 0.5),
        "log1p": lambda a, b: a.abs().log1p(), "prod": lambda a, b: a.prod(), "cumsum": lambda a, b: a.cumsum(0),
        "mean": lambda a, b: a.mean(), "pow": lambda a, b: a.abs() ** b,
    }
    fw = torch.autograd.forward_ad
    out = {}
    for name, f in ops.items():
        a = torch.tensor([0.5, -1.2, 2.0], requires_grad=True)
        b = torch.tensor([1.5, 0.3, -0.7], requires_grad=True)
        with fw.dual_level():
            y = f(fw.make_dual(a, torch.tensor([1.0, 2.0, 3.0])), fw.make_dual(b, torch.tensor([0.5, -1.0, 2.0])))
            t = fw.unpack_dual(y).tangent
        nodes, todo = [], [(t.grad_fn, 0)]
        while todo:
            fn, depth = todo.pop()
            nodes.append((depth, fn.name() if fn is not None else None, fn and fn._sequence_nr()))
            todo += [(c, depth + 1) for c, _ in reversed(fn.next_functions)] if fn is not None else []
        order = sorted({s for _, _, s in nodes if s is not None})
        out[name] = [(d, n, order.index(s) if s is not None else None) for d, n, s in nodes]
    return out


def test_tangent_graphs_read_primals_through_identity_nodes():
    torch = torch_or_skip()
    import minigrad

    theirs, mine = _tangent_graphs(torch), _tangent_graphs(minigrad)
    assert mine == theirs
    # other_t * self_p + self_t * other_p: the self term built first (C++ evaluates the right operand first)
    assert theirs["mul"][:4] == [(0, "AddBackward0", 6), (1, "MulBackward0", 5), (2, None, None),
                                 (2, "torch::autograd::Identity", 2)]


# -- the plot helpers on these models ---------------------------------------------------------------------------------


def _model_plot_data(mod) -> dict:
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for program in (resnet_block, lstm_cell_unrolled, mha):
            _, names, root = program(mod)
            root.backward()
            out[f"grad_norms/{program.__name__}"] = plots.grad_norms(
                {k: v for k, v in names.items() if k != "x" and k != "q" and k != "k"}.items())
        cell = _init(mod, mod.nn.GRUCell(2, 3))
        h = _inp(mod, (1, 3), 4)
        out["jacobian/gru_cell"] = plots.jacobian(lambda x: cell(x.float().view(1, 2), h).view(3),
                                                  np.array([0.3, -0.2]), mod)
        att = _init(mod, mod.nn.MultiheadAttention(2, 1))
        out["jacobian/attention"] = plots.jacobian(
            lambda x: att(x.float().view(2, 1, 2), x.float().view(2, 1, 2), x.float().view(2, 1, 2))[0].reshape(4),
            np.array([0.3, -0.2, 0.5, 0.1]), mod)
    return out


def test_plot_helpers_on_real_models_give_the_same_data():
    torch = torch_or_skip()
    import minigrad

    theirs, mine = _model_plot_data(torch), _model_plot_data(minigrad)
    assert list(mine) == list(theirs)
    for key, want in theirs.items():
        got = mine[key]
        if key.startswith("grad_norms"):
            assert [n for n, _ in got] == [n for n, _ in want], key
            got, want = [v for _, v in got], [v for _, v in want]
        np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-5, atol=1e-7,
                                   err_msg=key)
        assert np.asarray(got).shape == np.asarray(want).shape, key


# -- fixed: a deep copy of a tensor is at version 1 (PyTorch's is an empty tensor set_() to the copied storage; a
# -- Parameter's is a clone, at 0): the running statistics of AveragedModel/update_bn drawn at their version (seed
# -- 150006) --------------------------------------------------------------------------------------------------------


def _copied_versions(torch) -> list:
    import copy

    a = torch.ones(3)
    a.add_(1)
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
    avg = torch.optim.swa_utils.AveragedModel(model)
    before = [b._version for b in avg.module[1].buffers()]
    torch.optim.swa_utils.update_bn([(torch.ones(4, 3),)], avg)
    return [copy.deepcopy(a)._version, copy.deepcopy(torch.ones(2, 2).t())._version,
            copy.deepcopy(torch.nn.Parameter(torch.ones(2)))._version,
            copy.deepcopy(torch.ones(2, requires_grad=True))._version, copy.deepcopy(torch.ones(0))._version,
            before, [b._version for b in avg.module[1].buffers()], [p._version for p in avg.module.parameters()]]


def test_deep_copies_are_at_version_one():
    torch = torch_or_skip()
    import minigrad

    assert _copied_versions(minigrad) == _copied_versions(torch)
    assert _copied_versions(torch)[:3] == [1, 1, 0]
