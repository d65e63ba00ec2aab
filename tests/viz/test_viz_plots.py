"""Plots return matplotlib Figures with the expected artists; derivatives come from autograd."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

import viz
from viz import plots


def test_function_and_derivative(backend):
    fig = viz.plot_function(lambda x: x.tanh(), (-2, 2), n=50, module=backend.mod)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    f_line, d_line = ax.get_lines()[:2]
    xs = f_line.get_xdata()
    np.testing.assert_allclose(f_line.get_ydata(), np.tanh(xs), rtol=1e-6)
    np.testing.assert_allclose(d_line.get_ydata(), 1 - np.tanh(xs) ** 2, rtol=1e-6)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["f(x)", "df/dx (autograd)"]


def test_descent_path_and_contours(backend):
    def bowl(x, y):
        return x * x + (y * y) * 4.0

    fig = viz.plot_descent(bowl, (2.0, 1.0), lr=0.1, steps=20, module=backend.mod)
    ax = fig.axes[0]
    assert (
        any(isinstance(c, LineCollection) for c in ax.collections) or ax.collections
    )  # contour set
    path = ax.get_lines()[0]
    xs, ys = path.get_xdata(), path.get_ydata()
    assert len(xs) == 21
    np.testing.assert_allclose(xs[1], 2.0 - 0.1 * 4.0)  # d/dx x² = 2x
    np.testing.assert_allclose(ys[1], 1.0 - 0.1 * 8.0)  # d/dy 4y² = 8y
    assert abs(xs[-1]) < abs(xs[0]) and len(fig.axes) == 2  # plot + colorbar


def test_jacobian_heatmap(backend):
    def f(x):
        return x * x * 3.0

    x = backend.tensor(np.array([1.0, 2.0, -1.0]))
    fig = viz.plot_jacobian(f, x)  # module inferred from the tensor
    J = np.asarray(fig.axes[0].images[0].get_array())
    np.testing.assert_allclose(J, np.diag([6.0, 12.0, -6.0]))
    assert len(fig.axes[0].texts) == 9  # small Jacobians are annotated


def test_grad_norms(backend):
    a = backend.tensor(np.array([3.0, 4.0]), requires_grad=True)
    b = backend.tensor(np.array([1.0]), requires_grad=True)
    c = backend.tensor(np.array([1.0]), requires_grad=True)
    ((a * 1.0).sum() + (b * 1e-8).sum()).backward()
    rows = plots.grad_norms({"a": a, "b": b, "c": c})
    assert (
        rows[0] == ("a", pytest.approx(np.sqrt(2.0)))
        and rows[1][1] == pytest.approx(1e-8)
        and rows[2] == ("c", None)
    )
    fig = viz.plot_grad_norms({"a": a, "b": b, "c": c})
    ax = fig.axes[0]
    assert len(ax.patches) == 3 and ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    assert any("no grad" in t.get_text() for t in ax.texts)
    fills = [p.get_facecolor() for p in ax.patches]
    assert fills[0] != fills[1]  # vanishing vs healthy


def test_losses_and_live_plot(torch_backend):
    torch = torch_backend.mod
    fig = viz.plot_losses(
        {
            "train": [1.0, 0.5, 0.25],
            "val": [torch.tensor(1.2), torch.tensor(0.7), torch.tensor(0.6)],
        },
        log=True,
    )
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.get_lines()] == ["train", "val"]
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata(), [1.2, 0.7, 0.6], rtol=1e-6)
    live = viz.LossPlot(live=True)
    for k in range(5):
        live.update(train=1.0 / (k + 1))
    assert live.history == {"train": [1.0, 0.5, 1 / 3, 0.25, 0.2]}
    assert len(live.ax.get_lines()) == 1 and len(live.ax.get_lines()[0].get_xdata()) == 5
    assert live._repr_png_()[:4] == b"\x89PNG"


def test_module_inference():
    torch = pytest.importorskip("torch", reason="PyTorch not installed")
    assert plots.autograd_module(None, torch.ones(1)) is torch
    assert plots.autograd_module(torch) is torch
