"""MKL's vector math (minigrad/_vml.py): the 15 unary ops PyTorch's CPU build hands to MKL give PyTorch's bits
on float32 and float64, also where the correctly rounded value differs (log(0.75), sin on a grid)."""
from __future__ import annotations

import numpy as np
import pytest
from parity import run_both, torch_or_skip

import minigrad
from minigrad import _vml

needs_mkl = pytest.mark.skipif(not _vml.available, reason="MKL (the `mkl` package, x86-64 Linux) is not installed")

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1e30, -1e30, 88.8, -104.0, 710.0, 1.0, -1.0, 0.5]
DOMAIN = {"log": "positive", "log2": "positive", "log10": "positive", "sqrt": "positive",
          "asin": "unit", "acos": "unit", "erfinv": "unit"}


def _sample(op: str, dtype) -> np.ndarray:
    rng = np.random.default_rng(len(op))
    x = np.concatenate([rng.standard_normal(3000) * 3, rng.standard_normal(500) * 100, SPECIAL])
    if DOMAIN.get(op) == "positive":
        x = np.abs(x)
    elif DOMAIN.get(op) == "unit":
        x = np.tanh(x)
    return x.astype(dtype)


@needs_mkl
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("op", sorted(_vml.OPS))
def test_op_gives_pytorchs_bits(op: str, dtype) -> None:
    torch = torch_or_skip()
    x = _sample(op, dtype)
    ours = getattr(minigrad, op)(minigrad.tensor(x)).numpy()
    theirs = getattr(torch, op)(torch.tensor(x)).numpy()
    np.testing.assert_array_equal(ours, theirs)   # (nan == nan here)
    strided = getattr(minigrad, op)(minigrad.tensor(x[:3000].reshape(60, 50)).t()).numpy()
    np.testing.assert_array_equal(strided, theirs[:3000].reshape(60, 50).T)


@needs_mkl
def test_where_the_correctly_rounded_value_differs() -> None:
    # MKL's log(0.75) is one ulp from the correctly rounded float32 (NumPy's -0.28768208)
    assert minigrad.tensor(0.75).log().item() == -0.28768205642700195
    x = minigrad.linspace(-3.141592653589793, 3.141592653589793, 2000)
    correctly_rounded = np.sin(x.numpy().astype(np.float64)).astype(np.float32)
    assert (minigrad.sin(x).numpy() != correctly_rounded).sum() == 92   # PyTorch's sin differs there too


POLYNOMIAL = r"""
import math
import torch
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-6 * param.grad
layer = model[0]
print(f'y = {layer.bias.item()} + {layer.weight[:, 0].item()} x + {layer.weight[:, 1].item()} x^2 '
      f'+ {layer.weight[:, 2].item()} x^3')
"""


@needs_mkl
def test_the_polynomial_tutorial_prints_pytorchs_losses() -> None:
    # "Learning PyTorch with Examples" (nn module): sin on the grid and the 2000x3 products decide every digit
    ours, theirs = run_both(POLYNOMIAL)
    assert theirs.count("\n") == 7
    assert ours == theirs


def test_without_mkl_the_numpy_route_stays(monkeypatch) -> None:
    monkeypatch.setattr(_vml, "_LIB", None)
    fallback = np.sin
    assert _vml.unary("sin", fallback) is fallback


RMSPROP = r"""
import math
import torch
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(900):
    loss = loss_fn(model(xx), y)
    if t % 100 == 99:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model[0].weight, model[0].bias)
"""


@needs_mkl
def test_the_optimizers_take_mkls_square_roots() -> None:
    # RMSprop's square_avg.sqrt() is MKL's in PyTorch (and so in minigrad's optimizers): the first step
    # where NumPy's correctly rounded root would differ is 425 here
    ours, theirs = run_both(RMSPROP)
    assert theirs.count("\n") == 12
    assert ours == theirs
