"""minigrad.nn: layers, losses and the functional API (torch.nn's autograd-relevant part)."""
from . import functional  # noqa: F401
