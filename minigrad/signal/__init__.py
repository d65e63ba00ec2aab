"""torch.signal: window functions (torch.signal.windows)."""
from . import windows  # noqa: F401
