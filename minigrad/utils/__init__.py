"""torch.utils: data loading (``torch.utils.data``) and activation checkpointing (``torch.utils.checkpoint``)."""
from . import backcompat, checkpoint, data, dlpack, hooks  # noqa: F401


def swap_tensors(t1, t2) -> None:
    """Swap the contents of two tensor objects: each keeps its identity and takes the other's class, attributes and
    data (PyTorch's ``torch.utils.swap_tensors``)."""
    import copyreg
    import weakref

    from ..autograd.graph import get_gradient_edge
    if weakref.getweakrefs(t1):
        raise RuntimeError("Cannot swap t1 because it has weakref associated with it")
    if weakref.getweakrefs(t2):
        raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
    slots = set(copyreg._slotnames(t1.__class__))
    if slots != set(copyreg._slotnames(t2.__class__)):
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")

    def error_pre_hook(grad_outputs):
        raise RuntimeError(
            "Trying to execute AccumulateGrad node that was poisoned by swap_tensors "
            "this can happen when you try to run backward on a tensor that was swapped. "
            "For a module m with `torch.__future__.set_swap_module_params_on_conversion(True)` "
            "you should not change the device or dtype of the module (e.g. `m.cpu()` or `m.half()`) "
            "between running forward and backward. To resolve this, please only change the "
            "device/dtype before running forward (or after both forward and backward).")
    # A leaf's AccumulateGrad still in a graph would add into the wrong data after the swap: PyTorch poisons it.
    for t in (t1, t2):
        if t._grad_accumulator is not None and t._grad_accumulator() is not None:
            get_gradient_edge(t).node.register_prehook(error_pre_hook)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    t1.__dict__, t2.__dict__ = t2.__dict__, t1.__dict__
    # (minigrad's tensor state lives in Tensor's slots: swapping them swaps what PyTorch's TensorImpls hold)
    for slot in slots:
        a, b = hasattr(t1, slot), hasattr(t2, slot)
        if a and b:
            v = getattr(t1, slot)
            setattr(t1, slot, getattr(t2, slot))
            setattr(t2, slot, v)
        elif a:
            setattr(t2, slot, getattr(t1, slot))
            delattr(t1, slot)
        elif b:
            setattr(t1, slot, getattr(t2, slot))
            delattr(t2, slot)
    t1._grad_accumulator = t2._grad_accumulator = None  # (the old nodes add into the other object: a fresh one)
