"""torch.utils.hooks: the handle every ``register_*hook`` returns, and the module backward-hook helper."""
from ..autograd.graph import RemovableHandle  # noqa: F401
from ..nn.modules._backward_hook import BackwardHook  # noqa: F401
