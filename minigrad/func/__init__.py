"""``torch.func``: composable function transforms (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call).

Built on minigrad's own autograd (see ``_transforms.py`` for how nesting works without PyTorch's levels);
``vmap`` is a Python loop over the mapped dimension (``_vmap.py``), correct but not fast.
"""
from __future__ import annotations

from ._functional_call import functional_call, replace_all_batch_norm_modules_, stack_module_state
from ._transforms import (
    debug_unwrap,
    functionalize,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    vjp,
)
from ._vmap import vmap

__all__ = ["grad", "grad_and_value", "vmap", "replace_all_batch_norm_modules_", "functionalize", "hessian",
           "jacfwd", "jacrev", "jvp", "linearize", "vjp", "functional_call", "stack_module_state", "debug_unwrap"]
