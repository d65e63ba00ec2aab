"""Matplotlib plots for lessons; derivatives come from the autograd library of the tensors used."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import (
    Figure,
)  # not pyplot: no global figure state, no double display in Jupyter

from .dot import grad_color
from .names import named_tensors
from .tensors import is_tensor, norm, to_numpy

MAX_JACOBIAN = 4096  # entries; each row costs one backward pass


class PlotFigure(Figure):
    """A Figure that shows itself as PNG in Jupyter without pyplot's inline backend."""

    def _repr_png_(self) -> bytes:
        import io

        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=100)
        return buf.getvalue()


def autograd_module(module: Any = None, *tensors: Any) -> Any:
    """The torch-like module to use: given, else the one the tensors come from, else minigrad or torch."""
    if module is not None:
        return module
    for t in tensors:
        if is_tensor(t):
            return sys.modules[type(t).__module__.split(".")[0]]
    for name in (
        "minigrad",
        "torch",
    ):  # already imported by the caller: no import cost, no surprise
        mod = sys.modules.get(name)
        if mod is not None and hasattr(mod, "tensor"):
            return mod
    for name in ("minigrad", "torch"):
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, "tensor"):
            return mod
    raise RuntimeError("no autograd library found: pass module=minigrad (or torch)")


def _leaf(mod: Any, values: Any) -> Any:
    return mod.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def _const(mod: Any, values: Any) -> Any:
    return mod.tensor(np.asarray(values, dtype=np.float64))


def _grad(t: Any) -> np.ndarray:
    g = getattr(t, "grad", None)
    return np.zeros(tuple(t.shape)) if g is None else np.asarray(to_numpy(g), dtype=np.float64)


def _axes(ax: Any, size: tuple[float, float] = (6, 4)) -> tuple[Figure, Any]:
    if ax is not None:
        return ax.figure, ax
    fig = PlotFigure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def derivative(
    f: Callable[[Any], Any], xs: np.ndarray, module: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """f(xs) and df/dx at each point, by one backward pass through f (which must act elementwise)."""
    mod = autograd_module(module)
    x = _leaf(mod, xs)
    y = f(x)
    y.sum().backward()
    return np.asarray(to_numpy(y), dtype=np.float64), _grad(x)


def plot_function(
    f: Callable[[Any], Any],
    x: tuple[float, float] | Sequence[float] = (-3.0, 3.0),
    *,
    n: int = 200,
    module: Any = None,
    ax: Any = None,
    title: str | None = None,
) -> Figure:
    """Plot f and its derivative computed by autograd over an interval (or given points)."""
    xs = np.linspace(x[0], x[1], n) if len(x) == 2 else np.asarray(x, dtype=np.float64)
    ys, dys = derivative(f, xs, module)
    fig, ax = _axes(ax)
    name = getattr(f, "__name__", "f")
    name = "f" if name == "<lambda>" else name
    ax.plot(xs, ys, label=f"{name}(x)", color="#1f77b4")
    ax.plot(xs, dys, label=f"d{name}/dx (autograd)", color="#d62728", linestyle="--")
    ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_xlabel("x")
    ax.legend()
    ax.set_title(title or f"{name} and its derivative")
    return fig


def descent_path(
    loss_fn: Callable[[Any, Any], Any],
    start: Sequence[float],
    *,
    lr: float = 0.1,
    steps: int = 50,
    module: Any = None,
) -> np.ndarray:
    """Points visited by plain gradient descent on loss_fn(x, y), start included (stops if it blows up)."""
    mod = autograd_module(module)
    p = np.asarray(start, dtype=np.float64).copy()
    path = [p.copy()]
    for _ in range(steps):
        x, y = _leaf(mod, p[0]), _leaf(mod, p[1])
        loss_fn(x, y).backward()
        p = p - lr * np.array([float(_grad(x)), float(_grad(y))])
        if not np.all(np.isfinite(p)):
            break
        path.append(p.copy())
    return np.array(path)


def _surface(loss_fn: Callable, X: np.ndarray, Y: np.ndarray, mod: Any) -> np.ndarray:
    try:  # elementwise loss functions evaluate the whole grid in one call
        Z = np.asarray(to_numpy(loss_fn(_const(mod, X), _const(mod, Y))), dtype=np.float64)
        if Z.shape == X.shape:
            return Z
    except Exception:
        pass
    return np.array(
        [
            [float(to_numpy(loss_fn(_const(mod, a), _const(mod, b)))) for a, b in zip(ra, rb)]
            for ra, rb in zip(X, Y)
        ]
    )


def plot_descent(
    loss_fn: Callable[[Any, Any], Any],
    start: Sequence[float],
    *,
    lr: float = 0.1,
    steps: int = 50,
    xlim: tuple[float, float] | None = None,
    ylim: tuple[float, float] | None = None,
    levels: int = 30,
    resolution: int = 80,
    module: Any = None,
    ax: Any = None,
    title: str | None = None,
) -> Figure:
    """Contours of a 2-D loss loss_fn(x, y) and the path gradient descent takes from start."""
    mod = autograd_module(module)
    path = descent_path(loss_fn, start, lr=lr, steps=steps, module=mod)
    pad = lambda lo, hi: (lo - 0.25 * (hi - lo + 1), hi + 0.25 * (hi - lo + 1))  # noqa: E731
    xlim = xlim or pad(path[:, 0].min(), path[:, 0].max())
    ylim = ylim or pad(path[:, 1].min(), path[:, 1].max())
    X, Y = np.meshgrid(np.linspace(*xlim, resolution), np.linspace(*ylim, resolution))
    Z = _surface(loss_fn, X, Y, mod)
    fig, ax = _axes(ax, (6, 5))
    cs = ax.contour(X, Y, Z, levels=levels, cmap="viridis", linewidths=0.8)
    fig.colorbar(cs, ax=ax, label="loss")
    ax.plot(
        path[:, 0],
        path[:, 1],
        "o-",
        color="#d62728",
        markersize=3,
        linewidth=1.2,
        label=f"gradient descent (lr={lr}, {len(path) - 1} steps)",
    )
    ax.plot(path[:1, 0], path[:1, 1], "s", color="black", label="start")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title(title or "Gradient descent on the loss surface")
    return fig


def jacobian(f: Callable[[Any], Any], x: Any, module: Any = None) -> np.ndarray:
    """The Jacobian of f at x (outputs × inputs, both flattened), one backward pass per output."""
    mod = autograd_module(module, x)
    x0 = np.asarray(to_numpy(x) if is_tensor(x) else x, dtype=np.float64)
    out0 = np.asarray(to_numpy(f(_const(mod, x0))), dtype=np.float64)
    m, n = out0.size, x0.size
    if m * n > MAX_JACOBIAN:
        raise ValueError(f"Jacobian has {m}×{n} entries; plot at most {MAX_JACOBIAN}")
    J = np.zeros((m, n))
    for i in range(m):
        xt = _leaf(mod, x0)
        y = f(xt)
        seed = np.zeros(out0.shape)
        seed.flat[i] = 1.0
        y.backward(_const(mod, seed))
        J[i] = _grad(xt).ravel()
    return J


def plot_jacobian(
    f: Callable[[Any], Any],
    x: Any,
    *,
    module: Any = None,
    ax: Any = None,
    annotate: bool | None = None,
    title: str | None = None,
) -> Figure:
    """The Jacobian of f at x as a heatmap (rows: outputs, columns: inputs)."""
    J = jacobian(f, x, module)
    fig, ax = _axes(
        ax, (1.2 + 0.5 * J.shape[1], 1.0 + 0.45 * J.shape[0]) if J.size <= 400 else (7, 6)
    )
    vmax = float(np.abs(J).max()) or 1.0
    im = ax.imshow(J, cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto")
    fig.colorbar(im, ax=ax)
    if annotate if annotate is not None else J.size <= 64:
        for (i, j), v in np.ndenumerate(J):
            ax.text(
                j,
                i,
                f"{v:.2g}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if abs(v) > 0.6 * vmax else "black",
            )
    ax.set_xlabel("input j")
    ax.set_ylabel("output i")
    ax.set_title(title or "Jacobian ∂yᵢ/∂xⱼ")
    return fig


def grad_norms(params: Any) -> list[tuple[str, float | None]]:
    """(name, L2 norm of .grad or None) per parameter."""
    if isinstance(params, Mapping) or hasattr(params, "named_parameters"):
        pairs = named_tensors(params)
    else:
        items = list(params)
        pairs = (
            items
            if items and isinstance(items[0], tuple)
            else [(f"param {i}", t) for i, t in enumerate(items)]
        )
    out = []
    for name, t in pairs:
        g = getattr(t, "grad", None)
        out.append((str(name), None if g is None else norm(to_numpy(g))))
    return out


def plot_grad_norms(
    params: Any,
    *,
    ax: Any = None,
    log: bool = True,
    grad_range: tuple[float, float] = (1e-6, 1e3),
    title: str | None = None,
) -> Figure:
    """Bar chart of each parameter's gradient norm, coloured from vanishing (blue) to exploding (red)."""
    rows = grad_norms(params)
    fig, ax = _axes(ax, (6, 0.8 + 0.35 * max(len(rows), 1)))
    names = [r[0] for r in rows]
    values = [r[1] if r[1] is not None else 0.0 for r in rows]
    colors = ["#dddddd" if r[1] is None else grad_color(r[1], *grad_range) for r in rows]
    pos = np.arange(len(rows))
    floor = grad_range[0] / 10
    ax.barh(pos, [max(v, floor) if log else v for v in values], color=colors, edgecolor="#555555")
    for p, r in zip(pos, rows):
        if r[1] is None:
            ax.text(floor, p, " no grad", va="center", fontsize=8, color="#666666")
    ax.set_yticks(pos, names)
    ax.invert_yaxis()  # first parameter on top, like a model summary
    if log:
        ax.set_xscale("log")
        for edge, text in zip(grad_range, ("vanishing", "exploding")):
            ax.axvline(edge, color="#999999", linestyle=":", linewidth=1)
            ax.text(edge, -0.6, text, fontsize=7, color="#666666", ha="center")
    ax.set_xlabel("‖grad‖")
    ax.set_title(title or "Gradient norm per parameter")
    return fig


def _floats(values: Iterable[Any]) -> list[float]:
    return [
        float(np.asarray(to_numpy(v)).reshape(())) if is_tensor(v) else float(v) for v in values
    ]


def plot_losses(
    losses: Sequence[Any] | Mapping[str, Sequence[Any]],
    *,
    ax: Any = None,
    log: bool = False,
    title: str | None = None,
    xlabel: str = "step",
) -> Figure:
    """Training curves: a list of losses, or {name: list} for several (train, validation, ...)."""
    series = dict(losses) if isinstance(losses, Mapping) else {"loss": losses}
    fig, ax = _axes(ax)
    _draw_losses(ax, {k: _floats(v) for k, v in series.items()}, log, title, xlabel)
    return fig


def _draw_losses(
    ax: Any, series: Mapping[str, list[float]], log: bool, title: str | None, xlabel: str
) -> None:
    ax.clear()
    for name, ys in series.items():
        ax.plot(np.arange(len(ys)), ys, label=name)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("loss")
    if series:
        ax.legend()
    ax.set_title(title or "Training loss")


class LossPlot:
    """A loss-curve figure that redraws in place in a notebook as you call update(loss=...)."""

    def __init__(
        self, *, live: bool = True, log: bool = False, every: int = 1, title: str | None = None
    ):
        self.live, self.log, self.every, self.title = live, log, max(int(every), 1), title
        self.history: dict[str, list[float]] = {}
        self.figure = PlotFigure(figsize=(6, 4), layout="constrained")
        self.ax = self.figure.add_subplot()
        self._handle = None
        self._calls = 0
        _draw_losses(self.ax, self.history, log, title, "step")

    def update(self, **values: Any) -> None:
        """Append one value per named curve (e.g. update(train=0.3, val=0.4)) and redraw."""
        for name, v in values.items():
            self.history.setdefault(name, []).append(_floats([v])[0])
        self._calls += 1
        if self._calls % self.every == 0:
            self.redraw()

    def redraw(self) -> None:
        """Draw the loss history again."""
        _draw_losses(self.ax, self.history, self.log, self.title, "step")
        if self.live:
            self._display()

    def _display(self) -> None:
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            return
        if get_ipython() is None:
            return  # plain Python: nothing to update in place
        if self._handle is None:
            self._handle = display(self.figure, display_id=True)
        else:
            self._handle.update(self.figure)

    def _repr_png_(self) -> bytes:
        return self.figure._repr_png_()
