"""viz: draw autograd graphs (minigrad or PyTorch), step through backward, plot."""

from __future__ import annotations

from .drawing import Drawing, draw
from .render import RendererNotFound, RenderError

__version__ = "0.1.0"
__all__ = [
    "draw",
    "Drawing",
    "RendererNotFound",
    "RenderError",
    "BackwardStepper",
    "plot_function",
    "plot_descent",
    "plot_jacobian",
    "plot_grad_norms",
    "plot_losses",
    "LossPlot",
]

_LAZY = {  # heavy optional imports (ipywidgets, matplotlib) happen on first use only
    "BackwardStepper": "stepper",
    "plot_function": "plots",
    "plot_descent": "plots",
    "plot_jacobian": "plots",
    "plot_grad_norms": "plots",
    "plot_losses": "plots",
    "LossPlot": "plots",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'viz' has no attribute {name!r}")
