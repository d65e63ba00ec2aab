"""Optimizer: the base class (parameter groups, per-parameter state, zero_grad, state_dict)."""
from __future__ import annotations

import contextlib
import copy
import functools
import warnings
from collections import OrderedDict, defaultdict

import numpy as np

from .. import _meta, _vml
from .._class_names import TorchNamed
from .._dispatch import _check_inference_write
from .._dtypes import float32
from .._float_math import _is_reduced
from .._fused import fma
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from ..autograd.graph import RemovableHandle, _add_hook, _HookDict
from ..nn.parameter import _reset_grad

_REQUIRED = object()  # a default that the user must give (as torch.optim.optimizer.required)
_global_step_pre_hooks: _HookDict = _HookDict()   # every optimizer's, before its own (register_optimizer_step_*)
_global_step_post_hooks: _HookDict = _HookDict()


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """Run ``hook(optimizer, args, kwargs)`` before every optimizer's ``step``."""
    return _add_hook(_global_step_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """Run ``hook(optimizer, args, kwargs)`` after every optimizer's ``step``."""
    return _add_hook(_global_step_post_hooks, hook)


def _hooked_step(func):
    """``step`` wrapped to run the step hooks; ``args`` starts with the optimizer itself, as in PyTorch."""
    @functools.wraps(func)
    def step(*args, **kwargs):
        self = args[0]
        for hook in (*_global_step_pre_hooks.values(), *self.__dict__.get("_optimizer_step_pre_hooks", {}).values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{func} must return None or a tuple of (new_args, new_kwargs), but got "
                                       f"{result}.")
                args, kwargs = result
        out = func(*args, **kwargs)
        for hook in (*self.__dict__.get("_optimizer_step_post_hooks", {}).values(), *_global_step_post_hooks.values()):
            hook(self, args, kwargs)
        return out

    step.hooked = True
    return step


class Optimizer(metaclass=TorchNamed):
    """Base class: holds ``param_groups`` (lists of parameters with their options) and ``state``."""

    # PyTorch's error for a sparse gradient; None where the update takes them (SGD, Adagrad: the update
    # of a sparse gradient equals the dense one, which ``_update`` computes from ``grad._data``)
    _sparse_error: str | None = "{} does not support sparse gradients"
    # PyTorch's error for capturable=True (CUDA graphs) on the CPU; None where there is no such flag
    _capturable_error: str | None = None
    # whether fused=True checks the dtype of one parameter only (SGD, Adagrad) rather than of each (Adam)
    _fused_check_once: bool = False

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {params._legacy_type_name()}")
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)
        # As PyTorch: the class's step (the most derived one, once) is wrapped to run the step hooks
        if not getattr(type(self).step, "hooked", False):
            step = _hooked_step(type(self).step)
            if "step" not in type(self).__dict__:   # (Optimizer's: each of PyTorch's optimizers has its own step,
                # print(opt.step) shows "<bound method SGD.step of ...>")
                owner = next(c for c in type(self).__mro__
                             if "step" in c.__dict__ or c.__module__.startswith("minigrad.optim."))
                step.__qualname__ = f"{owner.__qualname__}.step"
            type(self).step = step

    def _hooks(self, kind: str) -> OrderedDict:
        return self.__dict__.setdefault(kind, OrderedDict())

    def _register(self, kind: str, hook, prepend: bool = False) -> RemovableHandle:
        hooks = self._hooks(kind)
        handle = _add_hook(hooks, hook)
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """Run ``hook(optimizer, args, kwargs)`` before ``step``; it may return new ``(args, kwargs)``."""
        return self._register("_optimizer_step_pre_hooks", hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """Run ``hook(optimizer, args, kwargs)`` after ``step``."""
        return self._register("_optimizer_step_post_hooks", hook)

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer)`` before ``state_dict``."""
        return self._register("_optimizer_state_dict_pre_hooks", hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer, state_dict)`` after ``state_dict``; a returned dict replaces it."""
        return self._register("_optimizer_state_dict_post_hooks", hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer, state_dict)`` before ``load_state_dict``; a returned dict is loaded instead."""
        return self._register("_optimizer_load_state_dict_pre_hooks", hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Run ``hook(optimizer)`` after ``load_state_dict``."""
        return self._register("_optimizer_load_state_dict_post_hooks", hook, prepend)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own options (missing options come from the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        # Parameters may come with their names, as (name, tensor) pairs (``model.named_parameters()``): the
        # group then lists the names under "param_names" (kept in state_dict); all of a group's or none.
        names = [p[0] for p in param_group["params"] if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in param_group["params"]]
        if names:
            if len(names) != len(param_group["params"]):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                from .._legacy import typename
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not self.defaults.get("differentiable") and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")   # (a differentiable step may update one)
        for name, default in self.defaults.items():
            if default is _REQUIRED and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in param_group["params"]}) != len(param_group["params"]):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                raise ValueError("all optimizer param groups should be with/without names. cannot add param group "
                                 f"{'with' if 'param_names' in param_group else 'without'} names to the optimizer")
        existing = [p for g in self.param_groups for p in g["params"]]
        if any(p is q for p in param_group["params"] for q in existing):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's gradient (to None by default)."""
        for group in self.param_groups:
            for p in group["params"]:
                _reset_grad(p, set_to_none)

    def step(self, closure=None):
        """Update the parameters once (subclasses implement ``_update``)."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        # (PyTorch's _use_grad_for_differentiable: the step runs with grad mode set to ``differentiable``; with it
        # on, _write refuses the in-place update of a parameter that is a leaf requiring grad, as autograd refuses
        # any in-place op on one, after the state updates that come before it)
        with set_grad_enabled(bool(self.defaults.get("differentiable"))):
            for group in self.param_groups:
                params = [p for p in group["params"] if p.grad is not None]
                for p in params:   # PyTorch's _init_group: every parameter's state is made before any update
                    if self._sparse_error is not None and p.grad.is_sparse:  # (minigrad/sparse.py)
                        raise RuntimeError(self._sparse_error.format(type(self).__name__))
                    state = self.state.get(p, {})
                    if group.get("fused"):
                        self._check_fused_param(p, state)
                    if not state:
                        if _meta.METAS and _meta.is_meta(p):   # (computing nothing: see _on_stand_ins)
                            with _on_stand_ins(p, state):
                                self._init_state(p, p.grad._data, state, group)
                        else:
                            self._init_state(p, p.grad._data, state, group)
                        if state:  # (plain SGD keeps no state, and PyTorch then lists none)
                            self.state[p] = state
                if group.get("fused") and self._fused_check_once:
                    self._check_fused_kernel(params)
                for p in params:
                    if self._capturable_error is not None and group.get("capturable"):
                        raise AssertionError(self._capturable_error)
                    state = self.state.get(p, {})
                    unbumped = _fused_writes(p, state) if group.get("fused") else ()
                    if _meta.METAS and _meta.is_meta(p):   # (computing nothing: see _on_stand_ins)
                        with _on_stand_ins(p, state):
                            self._update(p, p.grad._data, state, group)
                    else:
                        self._update(p, p.grad._data, state, group)
                    for counter, version in unbumped:
                        counter[0] = version
                    if state:
                        self.state[p] = state
        return loss

    def _check_fused_param(self, p: Tensor, state: dict) -> None:
        """fused=True takes floating point parameters only (PyTorch's _device_dtype_check_for_fused). SGD and
        Adagrad check the first parameter with a gradient of their first step; Adam checks each parameter as it
        makes its state."""
        if self._fused_check_once:
            if self.__dict__.get("_fused_checked"):
                return
            self._fused_checked = True
        elif state:
            return
        if not p.is_floating_point():
            raise RuntimeError("`fused=True` requires all the params to be floating point Tensors of supported "
                               f"devices: {_FUSED_DEVICES} but {p.dtype} and {p.device.type}")

    def _check_fused_kernel(self, params: list) -> None:
        """SGD's and Adagrad's fused kernels refuse complex parameters past the first (which the dtype check
        saw), before they update any parameter."""

    def _init_state(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        """Fill the empty ``state`` of a parameter before its first update (PyTorch's lazy initialization)."""

    def _update(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        raise NotImplementedError

    # ---- saving and loading -------------------------------------------------------------------
    def state_dict(self) -> dict:
        """{'state': {index: {...}}, 'param_groups': [{options..., 'params': [indices]}]}."""
        for hook in list(self.__dict__.get("_optimizer_state_dict_pre_hooks", {}).values()):
            hook(self)
        index: dict[int, int] = {}   # id(param) -> position, counted across groups (never shown)
        groups = []
        start = 0   # (positions count every entry: a parameter listed twice in a group gets its last position)
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            index.update({id(p): i for i, p in enumerate(group["params"], start) if id(p) not in index})
            start += len(group["params"])
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for hook in list(self.__dict__.get("_optimizer_state_dict_post_hooks", {}).values()):
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore options and state saved by ``state_dict`` (parameters matched by position)."""
        state_dict = state_dict.copy()   # (a shallow copy, as PyTorch's: the pre-hooks get it, not the caller's)
        for hook in list(self.__dict__.get("_optimizer_load_state_dict_pre_hooks", {}).values()):
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        # (as PyTorch: only the param_groups are deep-copied; the per-parameter state tensors of the loaded dict
        # are shared when their dtype already matches the parameter's, so stepping one optimizer moves the other's)
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        params = {i: p for g, s in zip(self.param_groups, saved_groups) for i, p in zip(s["params"], g["params"])}
        policy = {i: s.get("capturable", False) or s.get("fused", False) for s in saved_groups for i in s["params"]}

        def cast(p, value, fused, key=None):
            """Buffers take a floating parameter's dtype (``.to`` returns the same tensor when it already has it);
            the step count stays as saved (float32 when capturable / fused); containers are rebuilt."""
            if isinstance(value, Tensor):
                if key == "step":
                    return value.to(float32) if fused else value
                return value.to(p.dtype) if p.is_floating_point() else value
            if isinstance(value, dict):
                return {k: cast(p, v, fused, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(p, v, fused) for v in value)
            return value

        self.state = defaultdict(dict)
        for i, s in state_dict["state"].items():
            if i in params:
                self.state[params[i]] = cast(params[i], s, policy[i])
            else:   # (state of no parameter of the groups is kept as is)
                self.state[i] = s
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:   # (a state_dict saved without names)
                saved["param_names"] = group["param_names"]
            group.clear()
            group.update(saved)
        for hook in list(self.__dict__.get("_optimizer_load_state_dict_post_hooks", {}).values()):
            hook(self)

    def __repr__(self) -> str:
        out = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            out += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    out += f"    {key}: {group[key]}\n"
        return out + ")"

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)


# The pointwise steps of PyTorch's optimizers, rounded as its CPU kernels round them (numbers are first
# cast to the tensor's dtype; ``add(alpha=)``, ``addcmul`` and ``lerp`` are fused multiply-adds).
# float16/bfloat16 tensors run the tensor op itself: PyTorch's vector code and its scalar code (the n % 32 last
# elements) round those differently, which minigrad's ops model (minigrad/derivatives.py, _float_math.two_paths).
def _opmath(method: str):
    """For float16/bfloat16 arrays, ``x.<method>(*args)`` as minigrad's tensor op computes it."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(x, *args):
            if not _is_reduced(x.dtype):
                return fn(x, *args)
            *tensors, number = args
            with no_grad():
                out = getattr(Tensor._make(x), method)(*(Tensor._make(np.asarray(a)) for a in tensors),
                                                       **{_NUMBER_NAMES[method]: float(number)})
            return out._data
        return wrapper
    return decorate


_NUMBER_NAMES = {"mul": "other", "div": "other", "add": "alpha", "addcmul": "value", "addcdiv": "value",
                 "lerp": "weight"}


@_opmath("mul")
def scale(x: np.ndarray, s: float) -> np.ndarray:
    """``x.mul(s)`` for a number s."""
    return x * x.dtype.type(s)


@_opmath("div")
def divide(x: np.ndarray, s: float) -> np.ndarray:
    """``x.div(s)`` for a number s."""
    return x / x.dtype.type(s)


@_opmath("add")
def add_scaled(x: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """``x.add(y, alpha=alpha)``: x + alpha·y."""
    if alpha == 1:
        return x + y  # (one rounding already)
    dt = x.dtype
    if dt.kind == "c":
        return x + dt.type(alpha) * y  # (complex kernels round the product, then the sum)
    return fma(dt.type(alpha), y, x, dt)


@_opmath("addcmul")
def addcmul(x: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float) -> np.ndarray:
    """``x.addcmul(t1, t2, value=value)``: x + (value·t1)·t2."""
    dt = x.dtype
    return fma(dt.type(value) * t1, t2, x, dt)


@_opmath("addcdiv")
def addcdiv(x: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float) -> np.ndarray:
    """``x.addcdiv(t1, t2, value=value)``: x + (value·t1)/t2 (no fused step)."""
    return x + x.dtype.type(value) * t1 / t2


sqrt = _vml.unary("sqrt", np.sqrt)   # ``x.sqrt()``: MKL's, as PyTorch's Tensor.sqrt (minigrad/_vml.py)


def fused_sqrt(x: np.ndarray, fused) -> np.ndarray:
    """√x as the update takes it: with fused=True (the CPU kernels of Adam, AdamW and Adagrad) the vector unit's
    correctly rounded square root, otherwise ``x.sqrt()`` (MKL's, which may be one ulp off)."""
    # (float16/bfloat16: the fused kernels compute in float32 between loads and stores, not modelled here)
    return np.sqrt(x) if fused and not _is_reduced(x.dtype) else sqrt(x)


@_opmath("lerp")
def lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """``start.lerp(end, weight)``: from start when the weight is small, from end otherwise."""
    dt = start.dtype
    if end.dtype != dt:   # (state in one dtype, gradients in another: a module converted after its first step)
        from .._ops import _META_NAMES
        raise RuntimeError(f"expected dtype {_META_NAMES[dt.name]} for `end` but got dtype "
                           f"{_META_NAMES[end.dtype.name]}")
    w = dt.type(weight)
    diff = end - start
    return fma(w, diff, start, dt) if abs(w) < 0.5 else fma(w - dt.type(1), diff, end, dt)


def _write(p: Tensor, values: np.ndarray) -> None:
    """Overwrite a parameter's values in place (like ``p.data.copy_``: a version bump, no history). In grad mode
    (a step with differentiable=True) a leaf requiring grad is refused, as PyTorch's in-place update of it."""
    if p.requires_grad and p.is_leaf and is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    target = p._data
    if np.iscomplexobj(target) and not np.iscomplexobj(values):
        target = _real(target)  # (values computed on the real and imaginary parts)
    target[...] = values
    p._version_counter[0] += 1
    _check_inference_write(p)   # (an inference tensor's parameter: refused after the write, as PyTorch's add_)


@contextlib.contextmanager
def _on_stand_ins(p: Tensor, state: dict):
    """For a meta parameter (see minigrad/_meta.py), the step inside computed on one element in each dim of it, its
    gradient and its state tensors, and the state tensors it makes put on the meta device at p's shape: PyTorch's
    meta kernels compute nothing, however large the parameter (a sparse gradient: the step as it is)."""
    if p.grad.is_sparse:
        yield
        return
    shape, tiny = p._data.shape, (1,) * p._data.ndim
    made_here = {id(v) for v in state.values()}
    swapped = [(t, t._data) for t in (p, p.grad, *state.values()) if isinstance(t, Tensor) and t._data.shape == shape]
    for t, data in swapped:
        t._data = np.zeros(tiny, data.dtype)
    try:
        yield
    finally:
        for t, data in swapped:
            t._data = data
        for v in state.values():   # (new state of p's shape: a meta tensor, as PyTorch's zeros_like(p))
            if isinstance(v, Tensor) and id(v) not in made_here and v._data.shape == tiny and p._data.ndim:
                v._data = _meta.empty(shape, v._data.dtype)
                _meta.mark(v)


def _recorded(p: Tensor, group: dict, complex_ok: bool = False) -> bool:
    """Whether a step runs PyTorch's single-tensor update itself, in tensor ops (differentiable=True, in grad
    mode): those record the update wherever an operand has history (a parameter that is not a leaf, a gradient
    made with create_graph=True, state tensors that require grad), with PyTorch's nodes, and refuse the in-place
    update of a leaf that requires grad as PyTorch does. The NumPy update still covers complex parameters, sparse
    gradients, the foreach variants and hyper-parameters given as tensors (complex parameters too unless
    ``complex_ok``: the update then views them as real pairs itself)."""
    if not (group["differentiable"] and is_grad_enabled()) or p.is_complex() and not complex_ok or p.grad.is_sparse \
            or group.get("foreach"):
        return False
    for value in group.values():
        if isinstance(value, Tensor) or isinstance(value, tuple) and any(isinstance(v, Tensor) for v in value):
            return False
    return True


def _fused_writes(p: Tensor, state: dict) -> list:
    """(version counter, version) of the tensors a fused step writes without a version bump: PyTorch's fused
    kernels (_fused_adam_, _fused_sgd_ ...) update the parameter and its state in place unseen by autograd; only
    the step counters, which _foreach_add_ advances, count their writes."""
    tensors = [p, *(t for key, t in state.items() if key != "step" and isinstance(t, Tensor))]
    return [(t._version_counter, t._version_counter[0]) for t in tensors]


def _bump(state: dict, **writes: int) -> None:
    """Count the in-place ops PyTorch's update makes on each state tensor (``exp_avg.lerp_``, ``step += 1`` ...):
    their ``_version``, which a user can read (the values are written through NumPy here)."""
    for key, n in writes.items():
        state[key]._version_counter[0] += n


def _real(a: np.ndarray) -> np.ndarray:
    """A complex array as a view of (real, imaginary) pairs, shape (..., 2): PyTorch's optimizers update
    complex parameters as pairs of reals (``torch.view_as_real``); a real array is returned as it is."""
    # (a new last axis of length 1, viewed as two reals: works for 0-d and strided arrays alike)
    return a[..., np.newaxis].view(a.real.dtype) if np.iscomplexobj(a) else a


def _new_step(value: float) -> Tensor:
    """A 0-dim step counter (or NAdam's μ product) as PyTorch keeps it: float32, float64 if that is the default."""
    from .._dtypes import float64, get_default_dtype
    if isinstance(value, Tensor):   # (a learning rate given as a Tensor: its value, without NumPy's __array__)
        value = value._data.reshape(())
    return Tensor._make(np.array(value, dtype=np.float64 if get_default_dtype() is float64 else np.float32))


_FUSED_DEVICES = "['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone']"   # PyTorch's fused kernels' devices
_DEVICES = "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']"   # PyTorch's capturable devices (CPU is not one)
CAPTURABLE_ERROR = f"If capturable=True, params and state_steps must be on supported devices: {_DEVICES}."


def _check_fused(fused, foreach, differentiable) -> None:
    """The flags PyTorch's fused optimizers (SGD, Adam, AdamW, Adagrad) refuse together, after super().__init__."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _check_tensor_lr(lr) -> None:
    """Every optimizer's first check: a learning rate given as a Tensor holds one number."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def _check_adam_args(lr: float, betas: tuple, eps: float, weight_decay: float) -> None:
    """The argument checks PyTorch's Adam family shares (same order, same messages)."""
    _check_tensor_lr(lr)
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")
