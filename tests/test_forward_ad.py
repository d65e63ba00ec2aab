"""Forward-mode AD: dual levels, make_dual/unpack_dual, tangents through the table ops (vs PyTorch)."""
import numpy as np
import pytest

import minigrad as torch
import minigrad.autograd.forward_ad as fwAD
from tests.parity import assert_close, torch_or_skip

X = [[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]]
TX = [[1.0, 0.5, -0.3], [0.2, -1.0, 0.4]]
Y = [[1.1, 0.9, -0.4], [0.6, 2.0, 1.3]]
TY = [[-0.5, 0.1, 0.7], [1.0, 0.0, -0.2]]

# (name, f(x, y)) — one function per op family; x and y are 2x3 dual tensors.
CASES = [
    ("exp", lambda x, y: x.exp()), ("log", lambda x, y: (x * x + 1).log()), ("sigmoid", lambda x, y: x.sigmoid()),
    ("tanh", lambda x, y: x.tanh()), ("relu", lambda x, y: x.relu()), ("neg", lambda x, y: -x),
    ("sin", lambda x, y: x.sin()), ("cos", lambda x, y: x.cos()), ("sqrt", lambda x, y: (x * x + 1).sqrt()),
    ("abs", lambda x, y: x.abs()), ("clamp", lambda x, y: x.clamp(-1.0, 1.0)),
    ("add", lambda x, y: x + y * 2), ("sub", lambda x, y: x - y), ("mul", lambda x, y: x * y),
    ("div", lambda x, y: x / (y + 3)), ("pow", lambda x, y: x ** 3), ("rpow", lambda x, y: 2 ** x),
    ("pow_tensor", lambda x, y: (x * x + 1) ** y), ("maximum", lambda x, y: torch_like(x).maximum(x, y)),
    ("where", lambda x, y: torch_like(x).where(x > 0, x, y)),
    ("sum", lambda x, y: x.sum()), ("sum_dim", lambda x, y: x.sum(1)), ("mean", lambda x, y: x.mean()),
    ("mean_dim", lambda x, y: x.mean(0, keepdim=True)), ("prod", lambda x, y: x.prod()),
    ("max_dim", lambda x, y: x.max(1)[0]), ("amax", lambda x, y: x.amax(0)), ("var", lambda x, y: x.var(1)),
    ("std", lambda x, y: x.std()), ("logsumexp", lambda x, y: x.logsumexp(1)), ("norm", lambda x, y: x.norm()),
    ("cumsum", lambda x, y: x.cumsum(1)),
    ("view", lambda x, y: x.view(3, 2)), ("reshape", lambda x, y: x.reshape(-1)), ("t", lambda x, y: x.t()),
    ("transpose", lambda x, y: x.transpose(0, 1)), ("permute", lambda x, y: x.permute(1, 0)),
    ("expand", lambda x, y: x[:1].expand(4, 3)), ("unsqueeze", lambda x, y: x.unsqueeze(1)),
    ("squeeze", lambda x, y: x[:1].squeeze(0)), ("select", lambda x, y: x[1]), ("slice", lambda x, y: x[:, 1:]),
    ("index", lambda x, y: x[[1, 0, 1]]), ("cat", lambda x, y: torch_like(x).cat([x, y], 1)),
    ("stack", lambda x, y: torch_like(x).stack([x, y])), ("unbind", lambda x, y: x.unbind(1)[2]),
    ("flip", lambda x, y: x.flip(0)), ("clone", lambda x, y: x.clone()),
    ("mm", lambda x, y: x.mm(y.t())), ("matmul", lambda x, y: x @ y.t()), ("mv", lambda x, y: x.mv(y[0])),
    ("dot", lambda x, y: x[0].dot(y[1])), ("outer", lambda x, y: x[0].outer(y[1])),
    ("bmm", lambda x, y: x.unsqueeze(0).bmm(y.t().unsqueeze(0))),
    ("softmax", lambda x, y: torch_like(x).nn.functional.softmax(x, 1)),
    ("log_softmax", lambda x, y: torch_like(x).nn.functional.log_softmax(x, 0)),
    ("chain", lambda x, y: ((x * y).exp().sum(0) / (y.sum() + 5)).tanh()),
]


def torch_like(t):
    """The library a tensor belongs to (minigrad or torch), for functions that are not methods."""
    return torch if isinstance(t, torch.Tensor) else __import__("torch")


def _tangent(lib, fwd, f):
    with fwd.dual_level():
        x = fwd.make_dual(lib.tensor(X, dtype=lib.float64), lib.tensor(TX, dtype=lib.float64))
        y = fwd.make_dual(lib.tensor(Y, dtype=lib.float64), lib.tensor(TY, dtype=lib.float64))
        out = f(x, y)
        primal, tangent = fwd.unpack_dual(out)
        return primal.detach().clone(), tangent.detach().clone()


@pytest.mark.parametrize("name,f", CASES, ids=[c[0] for c in CASES])
def test_tangent_matches_pytorch(name, f):
    real = torch_or_skip()
    import torch.autograd.forward_ad as real_fwAD
    ours = _tangent(torch, fwAD, f)
    theirs = _tangent(real, real_fwAD, f)
    assert_close(ours[0], theirs[0])
    assert_close(ours[1], theirs[1], rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name,f", CASES, ids=[c[0] for c in CASES])
def test_tangent_matches_central_differences(name, f):
    eps = 1e-6
    x, y, tx, ty = (np.array(a) for a in (X, Y, TX, TY))

    def value(s):
        return f(torch.tensor(x + s * tx), torch.tensor(y + s * ty)).detach().numpy()

    numerical = (value(eps) - value(-eps)) / (2 * eps)
    _, tangent = _tangent(torch, fwAD, f)
    np.testing.assert_allclose(tangent.numpy(), numerical, rtol=1e-5, atol=1e-6)


def test_dual_level_lifecycle_and_unpack():
    x = torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level\\(\\) first"):
        fwAD.make_dual(x, x)
    with fwAD.dual_level() as level:
        assert level == 0
        d = fwAD.make_dual(x, torch.tensor([1.0, 0.0]))
        assert d._base is x and d is not x
        u = fwAD.unpack_dual(d)
        assert type(u).__name__ == "UnpackedDualTensor" and u.tangent.tolist() == [1.0, 0.0]
        assert fwAD.unpack_dual(x).tangent is None
        with pytest.raises(RuntimeError, match="Tensor is of size \\[2\\] while the given forward gradient is of size"):
            fwAD.make_dual(x, torch.ones(3))
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported at the moment"):
            fwAD.enter_dual_level()
        y = d * d
    assert fwAD.unpack_dual(y).tangent is None   # tangents are dropped when the level exits


def test_forward_and_reverse_mode_mix():
    xr = torch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(xr, torch.tensor([1.0, 0.0]))
        assert d.grad_fn.name() == "ViewBackward0"
        z = d * 3
        assert fwAD.unpack_dual(z).tangent.tolist() == [3.0, 0.0]
        z.sum().backward()
    assert xr.grad.tolist() == [3.0, 3.0]


def test_in_place_op_updates_the_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])).clone()
        d.mul_(d)
        # PyTorch's in-place formula t·x_old + t·x_new: the operand that is self itself is read already written
        # (so not 2·x·t = [2, 4]; torch gives [2, 6])
        assert fwAD.unpack_dual(d).tangent.tolist() == [2.0, 6.0]


def test_custom_function_jvp():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            ctx.x = x
            return x * x

        @staticmethod
        def jvp(ctx, x_t):
            return 2 * ctx.x * x_t

    class NoJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([3.0]), torch.tensor([1.0]))
        assert fwAD.unpack_dual(Square.apply(d)).tangent.tolist() == [6.0]
        with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
            NoJvp.apply(d)


def test_ops_without_forward_formula_raise():
    from minigrad import derivatives as D
    missing = [op for op in vars(D).values() if isinstance(op, D.Op) and op.jvp is None]
    if not missing:
        pytest.skip("every table op has a jvp")
    op = missing[0]
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        with pytest.raises(RuntimeError, match=f"Trying to use forward AD with {op.name} that does not support it"):
            fwAD._op_jvp(op, (d,) * len(op.inputs), (d,), None, {})
