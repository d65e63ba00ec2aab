"""torch.nn.parallel on a machine without GPUs (minigrad's only kind): ``DataParallel`` runs the module itself."""
from __future__ import annotations

from .modules.module import Module


class DataParallel(Module):
    """Wraps ``module`` (state_dict keys ``module.*``); with no GPU its forward is the module's, as PyTorch's."""

    _torch_name = "torch.nn.parallel.data_parallel.DataParallel"   # type(obj) prints PyTorch's module path

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0) -> None:
        super().__init__()
        # (PyTorch finds no device type and returns early: no dim, output_device or src_device_obj attributes)
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim: int = 0, module_kwargs=None):
    """The functional DataParallel: it needs a GPU, which PyTorch finds none of on CPU."""
    raise RuntimeError("device type could not be determined")
