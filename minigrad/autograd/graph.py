"""The backward graph: Node (a grad_fn), AccumulateGrad (a leaf's sink), saved tensors, hook handles.

A Node is created by every recorded operation. It points *backwards* to the nodes that produced its
inputs through ``next_functions`` — a tuple of ``(node, input_nr)`` edges — and keeps whatever the
derivative formula needs (``_saved_self``, ``_saved_other``, ...). Nothing points forward, so the graph
is freed by reference counting as soon as the output tensor goes away.

Internally the edges are kept as ``_next_nodes`` (per edge, the node the gradient goes to) and
``_next_nrs`` (per edge, the input number of that node); ``next_functions`` pairs them up when read
(as PyTorch builds it on access). The nodes are stored as the first one (``_next_node``) plus a tuple
of the others (``_next_rest``, a shared constant when they are all None): most nodes have one input
that requires grad (unary ops, ``x * 2``), and then the node is the only object the garbage collector
has to track for it. A long graph is mostly such nodes, and with gc on, collections walking every live
object are what it costs (see bench/PROFILE.md).
"""
from __future__ import annotations

import _thread
import contextlib
import functools
import itertools
import operator
import sys
import threading
import warnings
import weakref
from collections import OrderedDict
from typing import Any, NamedTuple

from .. import _meta, _vmap_batched, _zerotensor
from .._class_names import CNodeNamed, NodeNamed, TorchNamed, object_repr, real_mro, torch_named_tuple
from .._errstate import call_user
from .._meta import METAS as _METAS
from .._per_thread import PerThreadList
from .._warn_once import first_time as _first_time
from .._zerotensor import ZEROS as _ZEROS
from . import grad_mode  # at the top: an import inside AccumulateGrad._apply costs ~0.6 us per call

__all__ = [
    "AccumulateGrad",
    "GradientEdge",
    "Node",
    "RemovableHandle",
    "SavedTensor",
    "allow_mutation_on_saved_tensors",
    "disable_saved_tensors_hooks",
    "get_gradient_edge",
    "increment_version",
    "region_activation_memory_budget",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
    "set_override_stale_capture_stream",
    "set_warn_on_accumulate_grad_stream_mismatch",
]

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
    "or if you need to access saved tensors after calling backward."
)

def _c_type_name(obj) -> str:
    """The type name PyTorch's C++ prints (tp_name): qualified for C types (numpy.ndarray), bare otherwise."""
    t = type(obj)
    if t.__module__.startswith("minigrad") and t.__name__ in ("dtype", "device", "Size", "layout", "memory_format"):
        return f"torch.{t.__name__}"  # (C types in PyTorch)
    if t.__flags__ & (1 << 9) or t.__module__ == "builtins":  # (Py_TPFLAGS_HEAPTYPE: a class made in Python)
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


# Nodes created later run earlier in backward (PyTorch orders its ready queue by this number).
_sequence = itertools.count()
# The nodes an ``autograd.grad(..., inputs=...)`` pass needs, by the id of the thread running it (no entry in any
# other pass), set by the engine: a node computes only the gradients whose edge leads to one of them (PyTorch's
# ``task_should_compute_output``), so a hook sees ``None`` for the others and a formula that would raise is not
# run. By thread, as PyTorch's graph task is its thread's: two threads' passes never see each other's. Read as
# ``_task_wanted.get(get_ident()) if _task_wanted else None``: one check while no such pass runs.
_task_wanted: dict = {}


class RemovableHandle(metaclass=TorchNamed):
    """Returned by ``register_hook``; ``handle.remove()`` unregisters the hook (torch.utils.hooks.RemovableHandle).

    It refers weakly to the dict of hooks it was made for (``hooks_dict_ref``) and to any other dicts the hook is
    also in (``extra_dict_ref``: a non-leaf tensor's hook is in its ``_backward_hooks`` and in its grad_fn's)."""

    __module__ = "minigrad.utils.hooks"  # (where PyTorch's is, and where minigrad exposes it)
    next_id: int = 0
    __slots__ = ("hooks_dict_ref", "id", "extra_dict_ref")

    def __init__(self, hooks_dict, *, extra_dict=None) -> None:
        self.hooks_dict_ref = _weak(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extra = [extra_dict] if isinstance(extra_dict, dict) else extra_dict if isinstance(extra_dict, list) else []
        self.extra_dict_ref = tuple(_weak(d) for d in extra)

    def remove(self) -> None:
        """Unregister the hook (no-op if already removed)."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            hooks = ref()
            if hooks is not None:
                hooks.pop(self.id, None)

    def __getstate__(self) -> tuple:
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state: tuple) -> None:
        # (a dict gone before pickling: a reference to a fresh one, as PyTorch's dead reference)
        self.hooks_dict_ref = _weak(OrderedDict() if state[0] is None else state[0])
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = tuple(_weak(d) for d in state[2] if d is not None) if len(state) > 2 and state[2] else ()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {hex(id(self))}>"


def _weak(d):
    """A weak reference to a dict of hooks: an OrderedDict, as PyTorch's (a plain dict raises its TypeError)."""
    return weakref.ref(d)


# The id -> hook mappings (tensors', nodes', modules' hooks) are OrderedDicts, as PyTorch's.
_HookDict = OrderedDict


def _add_hook(owner_dict: _HookDict, fn, extra_dict=None) -> RemovableHandle:
    handle = RemovableHandle(owner_dict, extra_dict=extra_dict)
    owner_dict[handle.id] = fn
    return handle


class _LinkedHookDict:
    """A tensor's hook dict linked into a node by ``node._register_hook_dict(tensor)``: called with the gradient, it
    runs the hooks the dict holds then (each result replacing the gradient), as PyTorch's PyFunctionTensorPreHook."""

    __slots__ = ("hooks",)

    def __init__(self, hooks) -> None:
        self.hooks = hooks

    def __call__(self, grad):
        for fn in list(self.hooks.values()):
            result = call_user(fn, grad)
            if result is not None:
                engine._check_hook_result(fn, grad, result)
                grad = result
        return grad


class _NodeExtras:
    """A node's rarely used state, made the first time one of these is set (see ``_Extra``)."""

    __slots__ = ("_anomaly_trace", "_batch_sums", "_edge_meta", "_metadata", "_post_hooks", "_pre_hooks",
                 "_retains_grad", "_tensor_pre_hooks")

    def __init__(self) -> None:
        self._pre_hooks = None         # node.register_prehook(fn(grad_outputs))
        self._post_hooks = None        # node.register_hook(fn(grad_inputs, grad_outputs))
        self._tensor_pre_hooks = None  # tensor.register_hook on an output: list of (output_nr, fn)
        self._retains_grad = None      # output_nr -> weakref to a tensor that called retain_grad()
        self._metadata = None
        self._anomaly_trace = None
        self._edge_meta = None         # output_nr -> (shape, dtype) noted by get_gradient_edge
        self._batch_sums = None        # inputs unbatched at a vmap level this op ran batched at (_vmap_batched)


class _Extra:
    """``node._pre_hooks`` and co.: kept in ``node._extras``, which stays None until one is set.

    Almost no node has hooks, so a node is created with one store instead of six, and the engine
    tells "nothing special here" from one attribute (``_extras is None``).
    """

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, node, owner=None):
        if node is None:
            return self
        extras = node._extras
        return None if extras is None else getattr(extras, self.name)

    def __set__(self, node, value) -> None:
        if node._extras is None:
            node._extras = _NodeExtras()
        setattr(node._extras, self.name, value)


def _not_writable(name: str):
    """The setter of a read-only node attribute: PyTorch's AttributeError (a custom Function's node names its C++
    base class)."""
    def fset(node, value=None) -> None:  # (also the deleter: PyTorch refuses ``del`` the same way)
        owner = "torch._C._FunctionBase" if hasattr(type(node), "_forward_cls") else type(node).__name__
        raise AttributeError(f"attribute '{name}' of '{owner}' objects is not writable")
    return fset


class _BoundCMethod(functools.partial):
    """A node's method bound to it, printed as PyTorch's C++ methods are (``print(y.grad_fn.name)``, parentheses
    forgotten: ``<built-in method name of MulBackward0 object at 0x...>``); a partial, so the call costs no more.
    Python's own messages name it by its class: ``'builtin_function_or_method' object is not subscriptable``."""

    __slots__ = ()

    @property
    def __self__(self):
        return self.args[0]

    @property
    def __name__(self) -> str:
        return self.func.__name__

    def __eq__(self, other) -> bool:
        return isinstance(other, _BoundCMethod) and self.func is other.func and self.args[0] is other.args[0]

    def __hash__(self) -> int:
        return hash((self.func, id(self.args[0])))

    def __repr__(self) -> str:
        node = self.args[0]
        return f"<built-in method {self.func.__name__} of {type(node).__name__} object at {hex(id(node))}>"


_BoundCMethod.__name__ = _BoundCMethod.__qualname__ = "builtin_function_or_method"
_BoundCMethod.__module__ = "builtins"


class _CMethod:
    """A Node method PyTorch implements in C++: bound, it is a ``_BoundCMethod``."""

    __slots__ = ("_fn",)

    def __init__(self, fn) -> None:
        self._fn = fn

    def __get__(self, obj, cls=None):
        return self._fn if obj is None else _BoundCMethod(self._fn, obj)


# The Node methods that are C++ methods in PyTorch (a subclass's own definitions are wrapped too: __init_subclass__),
# with how many arguments each takes besides the node (CPython's METH_NOARGS: 0, METH_O: 1)
_C_METHODS = {"name": 0, "register_hook": 1, "register_prehook": 1, "_register_hook_dict": 1, "_sequence_nr": 0,
              "_set_sequence_nr": 1}


def _checked_c_method(fn, n_args: int):
    """``fn`` refusing other argument counts and keywords with CPython's METH_NOARGS / METH_O messages, which name
    the type defining the C method: the node's class, or ``_FunctionBase`` for a custom Function's node."""
    @functools.wraps(fn)
    def method(node, *args, **kwargs):
        if kwargs or len(args) != n_args:
            owner = "_FunctionBase" if hasattr(type(node), "_forward_cls") else type(node).__name__
            if kwargs:
                raise TypeError(f"{owner}.{fn.__name__}() takes no keyword arguments")
            takes = "no arguments" if n_args == 0 else "exactly one argument"
            raise TypeError(f"{owner}.{fn.__name__}() takes {takes} ({len(args)} given)")
        return fn(node, *args)
    return method


def _wrap_c_methods(cls) -> None:
    for name, n_args in _C_METHODS.items():
        fn = cls.__dict__.get(name)
        if fn is not None and not isinstance(fn, _CMethod):
            setattr(cls, name, _CMethod(_checked_c_method(fn, n_args)))


class Node(metaclass=NodeNamed):
    """A node of the backward graph (what ``tensor.grad_fn`` returns)."""

    # (no __weakref__: PyTorch's C++ nodes refuse weak references; a custom Function's node, a Python class, and
    # the nodes of view ops, which a saved output refers to weakly (_dispatch._record_copy_slices), add it)
    __slots__ = ("_extras", "_input_meta", "_next_node", "_next_nrs", "_next_rest", "_seq")

    # How many outputs (gradient slots) the node has: a class attribute, so the engine reads it
    # directly. Multi-output nodes override it (OpNode classes of split & co, custom Functions).
    _n_outputs = 1
    # Built-in nodes are skipped when every incoming gradient is undefined (None); a custom Function's
    # backward still runs (PyTorch calls it, with zeros unless set_materialize_grads(False)).
    _runs_without_grads = False
    # True when the engine may skip _validate_outputs for this node: op nodes set it (Op.grads_fit), every
    # other node keeps this False.
    _grads_fit = False

    _pre_hooks = _Extra()
    _post_hooks = _Extra()
    _tensor_pre_hooks = _Extra()
    _retains_grad = _Extra()
    _metadata = _Extra()
    _anomaly_trace = _Extra()
    _edge_meta = _Extra()
    _batch_sums = _Extra()

    def __init__(self) -> None:
        # (_dispatch's Op._record and Op.run_number make op nodes without this call: keep them in step)
        self._next_node = None         # edge 0: the node the gradient goes to (None: no gradient)
        self._next_rest: tuple = ()    # edges 1, 2 ...: the same (see _next_nodes)
        self._next_nrs: tuple = ()     # per edge: which input of that node (its output_nr)
        self._seq = next(_sequence)
        self._input_meta = ()          # per edge: (shape, numpy dtype) of the forward input
        self._extras = None            # hooks, retained grads, metadata, anomaly trace (see _Extra)

    def name(self) -> str:
        """The node's name, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    @property
    def next_functions(self) -> tuple:
        """The edges to the nodes that produced this node's inputs: ``((node, input_nr), ...)``."""
        return tuple(zip(self._next_nodes, self._next_nrs))

    @property
    def _next_nodes(self) -> tuple:
        """Per edge: the node the gradient goes to (None: that input gets no gradient)."""
        return (self._next_node,) + self._next_rest if self._next_nrs else ()

    @_next_nodes.setter
    def _next_nodes(self, nodes: tuple) -> None:
        # Set before _next_nrs, whose length is the number of edges.
        self._next_node = nodes[0] if nodes else None
        self._next_rest = _rest_of(nodes)

    def _set_edges(self, edges) -> None:
        """Set the edges from ``(node, input_nr)`` pairs."""
        self._next_nodes = tuple(node for node, _ in edges)
        self._next_nrs = tuple(nr for _, nr in edges)

    @property
    def metadata(self) -> dict:
        """A dict for users to attach anything to the node (kept as long as the node)."""
        if self._metadata is None:
            self._metadata = {}
            if self._anomaly_trace is not None:  # (anomaly mode keeps the forward's stack there, as PyTorch does)
                from .anomaly_mode import _trace_metadata
                self._metadata.update(_trace_metadata(self._anomaly_trace))
        return self._metadata

    @property
    def requires_grad(self) -> bool:
        """Always True: a node exists only where a gradient is needed."""
        return True

    def _sequence_nr(self) -> int:
        return self._seq

    def _set_sequence_nr(self, sequence_nr: int) -> None:
        self._seq = sequence_nr

    @property
    def _input_metadata(self) -> tuple:
        """PyTorch's metadata of the gradients the node takes in, one per output of its forward: shape, dtype."""
        return tuple(_InputMetadata(shape, dtype) for shape, dtype in self._output_meta())

    def _output_meta(self) -> tuple:
        # (op nodes record their outputs' (shape, numpy dtype) as _out_meta; a node made another way, e.g. a
        # number operand's Op.run_number, has its input's)
        meta = getattr(self, "_out_meta", None)
        if meta is not None:
            return meta
        shape = getattr(self, "_out_shape", None)   # (a one-output op's node: _dispatch.Op._record)
        return ((shape, self._out_dtype),) if shape is not None else self._input_meta[:1]

    def _register_hook_dict(self, tensor) -> None:
        # (PyTorch's hands the node the tensor's live hook dict: the hooks registered on the tensor later run too)
        if tensor._backward_hooks is None:
            tensor._backward_hooks = _HookDict()
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = _HookDict()
        _add_hook(self._tensor_pre_hooks, (tensor._output_nr, _LinkedHookDict(tensor._backward_hooks)))

    def __dir__(self):
        # PyTorch's C++ nodes list their getters only: no Python internals of minigrad's. (The class's names from
        # its dir(), which follows the real bases: object.__dir__ would read the shown ``__bases__``, CNodeNamed)
        names = [n for n in {*dir(type(self)), *getattr(self, "__dict__", ())}
                 if n.startswith(("_saved_", "_raw_saved_")) or not n.startswith("_") and n not in self._dir_hidden]
        return sorted(set(_NODE_DIR).union(names))

    _dir_hidden: tuple = ()

    def _apply(self, grad_outputs: tuple) -> tuple:
        """Gradients for each edge of ``next_functions`` from gradients of this node's outputs."""
        raise NotImplementedError

    def _apply_in_mode(self, grad_outputs: tuple, grad_enabled: bool, nexts: tuple) -> tuple:
        # (the engine's call, with the grad mode it runs the node in and its ``_next_nodes``; only OpNode uses them,
        # to skip a per-thread read and a tuple)
        return self._apply(grad_outputs)

    def __call__(self, *grad_outputs):
        if len(grad_outputs) != self._n_outputs:
            raise TypeError(f"expected {self._n_outputs} arguments, got {len(grad_outputs)} instead")
        from .._tensor import Tensor  # (a call by hand is rare: no cached lookup needed)
        for i, g in enumerate(grad_outputs):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"argument {i} is not a Variable")
        if not isinstance(self, AccumulateGrad) and all(g is None for g in grad_outputs):
            # PyTorch's formulas give an undefined gradient (None) to every input when no incoming one is defined
            n = len(self.next_functions)
            return None if n == 1 else (None,) * n
        result = self._apply(grad_outputs)
        return result[0] if len(result) == 1 else result  # one gradient comes alone, as in PyTorch

    def _release_variables(self) -> None:
        """Free saved tensors once a backward pass no longer needs them."""

    # ---- hooks -----------------------------------------------------------------------------
    def register_hook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after the node runs; a returned tuple replaces grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = _HookDict()
        return _add_hook(self._post_hooks, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before the node runs; a returned tuple replaces grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
        return _add_hook(self._pre_hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn, tensor_hooks=None) -> RemovableHandle:
        """``tensor.register_hook(fn)`` on output ``output_nr``; ``tensor_hooks``: the tensor's ``_backward_hooks``,
        which lists it too (the handle removes it from both)."""
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = _HookDict()
        handle = _add_hook(self._tensor_pre_hooks, (output_nr, fn), extra_dict=tensor_hooks)
        if tensor_hooks is not None:
            tensor_hooks[handle.id] = fn
        return handle

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        _wrap_c_methods(cls)
        if not cls.__module__.startswith(("minigrad", "torch.", "builtins")):
            # A user's subclass of PyTorch's abstract Node: abstract until it defines each of Node's abstract methods
            # (object.__new__ refuses it, naming those left; minigrad's own node classes are concrete), and printed
            # as a Python object (<__main__.MyNode object at 0x...>), not as a C++ node
            mro = real_mro(cls)   # (a custom Function's node class shows no Node in its __mro__)
            own = mro[:mro.index(Node)]
            cls.__abstractmethods__ = frozenset(name for name in Node.__abstractmethods__
                                                if not any(name in vars(k) for k in own))
            if not any("__repr__" in vars(k) for k in own):
                cls.__repr__ = object.__repr__


_wrap_c_methods(Node)

# PyTorch's C++ getters without setters: assigning or deleting is refused with its message
for _name in ("next_functions", "metadata", "requires_grad", "_input_metadata"):
    _prop = Node.__dict__[_name]
    setattr(Node, _name, property(_prop.fget, _not_writable(_name), _not_writable(_name), _prop.__doc__))


# What dir() of a PyTorch (C++) node lists besides its _saved_* getters and public names.
_NODE_DIR = ("__call__", "__class__", "__delattr__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__",
             "__getattribute__", "__getstate__", "__gt__", "__hash__", "__init__", "__init_subclass__", "__le__",
             "__lt__", "__ne__", "__new__", "__reduce__", "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__",
             "__str__", "__subclasshook__", "_input_metadata", "_register_hook_dict", "_sequence_nr",
             "_set_sequence_nr")


class _InputMetadata(metaclass=TorchNamed):
    """What a node knows of one gradient it takes in (``node._input_metadata``): its shape, dtype and device."""

    __slots__ = ("_shape", "_dtype")
    _torch_name = "torch._C._autograd._InputMetadata"

    def __init__(self, shape, dtype) -> None:
        self._shape, self._dtype = shape, dtype

    shape = property(lambda self: list(self._shape))
    dtype = property(lambda self: _dtypes().from_numpy(self._dtype))
    device = property(lambda self: _cpu())
    is_nested_tensor = property(lambda self: False)
    is_cpp_nested_tensor = property(lambda self: False)

    def __repr__(self) -> str:
        return f"<torch._C._autograd._InputMetadata object at {hex(id(self))}>"

    def _pybind11_conduit_v1_(self, *args):
        # (pybind11's hook for other C++ extensions: it hands them nothing they can use, as here)
        return None

    def __dir__(self):
        return sorted(set(object.__dir__(self)) - {"_shape", "_dtype", "__slots__", "_torch_name"})


def _dtypes():
    from .. import _dtypes
    return _dtypes


def _cpu():
    from .._device import CPU
    return CPU


# ``Node()`` itself is refused, as PyTorch's abstract Node is: setting __abstractmethods__ marks this class
# alone abstract (object.__new__ checks the flag; the node classes built on it are unaffected, at no cost).
Node.__abstractmethods__ = frozenset(("_input_metadata", "_register_hook_dict", "_sequence_nr", "metadata", "name",
                                      "next_functions", "register_hook", "register_prehook"))


# Edges 1, 2 ... of a node when none of them leads anywhere (``x * 2``: the number's edge), shared
# by every such node so that it holds no tuple of its own (see the module docstring).
_NO_NODES = tuple((None,) * n for n in range(8))


def _rest_of(nodes: tuple) -> tuple:
    """``nodes[1:]``, as a shared tuple when every one of them is None."""
    for node in nodes[1:]:
        if node is not None:
            return nodes[1:]
    n = len(nodes) - 1
    return _NO_NODES[n] if 0 <= n < len(_NO_NODES) else nodes[1:]


_RUNS_FIRST = 2**64 - 1  # AccumulateGrad's sequence number (PyTorch's UINT64_MAX): runs as soon as it is ready
# The locks AccumulateGrad holds while it adds into a leaf's .grad (see _accumulate): a leaf uses the one its node's
# address picks. A pool, not a lock per node: nodes are made again for each graph, and making a lock costs more
# than the accumulation's other bookkeeping; two leaves sharing one only wait for each other's addition.
_ACCUMULATE_LOCKS = tuple(threading.RLock() for _ in range(64))
# How many threads started by ``threading`` / ``_thread`` still run (C's count, raised before a thread starts and
# lowered after its function returns; the main thread is not one). At 0 the main thread is the only Python thread,
# so no other backward pass can be in an addition, and none can start during this one: only this thread could start
# it. Not counted: threads C code starts and that call into Python (PyGILState_Ensure), which a program running
# backward passes from a C library's callbacks would need the lock against.
_threads_started = _thread._count


class AccumulateGrad(Node, metaclass=CNodeNamed):   # (a C++ class in PyTorch: see CNodeNamed)
    """The sink of a leaf tensor: adds the arriving gradient into ``variable.grad``."""

    __slots__ = ("__weakref__", "_variable")   # (its tensor keeps a weak reference to it, as PyTorch's)
    __module__ = "builtins"  # as PyTorch's: type(node) prints <class 'AccumulateGrad'>

    # The leaf, read-only as PyTorch's getter (a C-level getter: the engine reads it per leaf and backward)
    variable = property(operator.attrgetter("_variable"), _not_writable("variable"), _not_writable("variable"))

    def __init__(self, variable) -> None:
        # Node.__init__'s stores, without drawing a number from _sequence (PyTorch's takes none either,
        # so the nodes made after a leaf's first use are numbered as in PyTorch)
        self._next_node, self._next_rest, self._next_nrs = None, (), ()
        self._seq = _RUNS_FIRST
        self._extras = None
        self._variable = variable
        self._input_meta = ((variable._data.shape, variable._data.dtype),)

    def name(self) -> str:
        """PyTorch's node name."""
        return "torch::autograd::AccumulateGrad"

    def _apply(self, grad_outputs: tuple) -> tuple:
        """Add the incoming gradient into the leaf's ``.grad``."""
        new = grad_outputs[0]
        if new is not None:
            self._accumulate(new, False, grad_mode.STATE.enabled)
        else:
            self._post_accumulate_hooks()
        return ()

    def _accumulate(self, new, owned: bool, grad_enabled: bool) -> None:
        """Add ``new`` into ``variable.grad`` (under this leaf's lock while another thread runs), then run its hooks.

        ``grad_enabled``: the calling thread's grad mode (create_graph: ``.grad`` gets a graph), read by the caller;
        the engine's fast path knows it without a read of the per-thread state (~600 instructions per leaf).

        As PyTorch's AccumulateGrad (its ``mutex_``): backward passes in two threads reaching one leaf would read the
        same old .grad (and NumPy's in-place add of a big one runs without the GIL), so one gradient would be lost.
        The lock covers the addition only: the tensor's pre-hooks ran before (engine), the post-accumulate-grad hooks
        run after it is released, so a hook may wait for another thread's backward pass into the same leaf.
        Reentrant, in case a ``.grad`` subclass's ``__torch_function__`` runs a backward pass into the same leaf.
        """
        if _threads_started():   # (see _threads_started: the usual one-thread program takes no lock, ~2.4k less)
            with _ACCUMULATE_LOCKS[id(self) >> 4 & 63]:   # (objects are 16-byte aligned: the low bits say nothing)
                self._add_into_grad(new, owned, grad_enabled)
        else:
            self._add_into_grad(new, owned, grad_enabled)
        if self._variable._post_accumulate_grad_hooks:   # (the common leaf has none: no call per accumulation)
            self._post_accumulate_hooks()

    def _add_into_grad(self, new, owned: bool, grad_enabled: bool) -> None:
        """Add ``new`` into ``variable.grad``.

        ``owned``: the engine checked that nothing else refers to ``new`` or its array, so a first
        gradient becomes ``.grad`` as it is instead of being copied (PyTorch's AccumulateGrad "steals"
        such gradients too; for a big weight the copy is a whole extra pass over memory).
        """
        var = self.variable
        if var._grad_fn is not None:  # (changed in place since: no longer a leaf)
            raise RuntimeError("leaf variable has been moved into the graph interior")
        if not var._requires_grad:
            # requires_grad turned off after the graph was built: PyTorch accumulates nothing (but still runs the
            # post-accumulate-grad hooks: _accumulate)
            return
        if var._grad_dtype is not False:  # set by the user (see Tensor.grad_dtype): None keeps new's dtype
            want = var._grad_dtype
            if want is not None and new.dtype != want:
                new, owned = new.to(want), True
        old = var._grad
        if old is None:
            if grad_enabled:
                # create_graph=True: PyTorch copies into a fresh tensor shaped like the variable, so
                # ``.grad`` is a CopyBackwards node over the gradient's graph (never the gradient itself).
                var._grad = _copy_like(new, var)
            else:
                # Own storage: the engine's buffers may alias a user's tensor.
                # (a view taken as it is becomes a plain alias: PyTorch's ``new.detach()``, same version counter;
                # an efficient zero tensor too, which PyTorch steals rather than clones: see _zerotensor)
                if _ZEROS and not owned:
                    owned = _zerotensor.is_zero(new)
                if owned and new._fw_grad is not None:
                    owned = False   # (a gradient with a tangent: PyTorch copies it rather than steals it, version 1)
                if owned and var._data.size == 0:
                    # (an empty variable: the layout contract compares the strides it was made with, see
                    # _strides.empty_strides; a gradient that breaks it, a zero tensor too, is copied into the
                    # variable's)
                    owned = _empty_obeys_layout(new, var)
                var._grad = (new if new._view_base is None else new.detach()) if owned else new._detached_copy()
                if _METAS and not owned and _meta.is_meta(new):
                    _meta.mark(var._grad)   # (a copy of a meta gradient: a meta tensor, see _meta.py)
                if var._data.size == 0 and not owned:
                    from .. import _strides
                    _strides.keep_empty_strides(var._grad, var.stride())
                var._grad._fw_grad = None  # (under forward AD: .grad never carries a tangent, as in PyTorch)
                g = var._grad._data
                # (a stride 0, even on a size-1 dim, is a view of someone's memory, e.g. a slice of an expanded
                # gradient through cat's backward: PyTorch's layout contract refuses it, so it is copied)
                if (not (var._data.flags.c_contiguous and g.flags.c_contiguous) or (0 in g.strides and g.size)) \
                        and (grad_mode.GRAD_LAYOUT_ENFORCED[0] or not owned):  # (enforce_grad_layout_policy(False))
                    laid_out = _obey_layout(var._grad._data, var._data)
                    owned = owned and laid_out is var._grad._data  # (else PyTorch copies, as below)
                    meta = _METAS and laid_out is not var._grad._data and _meta.is_meta(var._grad)
                    var._grad._data = laid_out
                    if meta:
                        _meta.mark(var._grad)   # (the laid-out copy of a meta gradient: a meta tensor)
                if not owned and _dense(var._data):
                    # PyTorch's copy is ``empty_strided(...).copy_(new)``: an in-place write, version 1
                    # (``x.sum().backward()`` leaves ``x.grad._version`` at 1; a non-dense variable's
                    # gradient is a plain clone, version 0)
                    var._grad._version_counter = [1]
        elif grad_enabled:
            # create_graph=True: out of place, so the sum stays differentiable.
            var._grad = old + new
            _check_layout(var._grad, var, 282)
        elif old.is_sparse or new.is_sparse:  # (minigrad/sparse.py; dense + sparse gives a dense sum)
            from ..sparse import _accumulate
            if old.is_sparse and new.is_sparse:
                _accumulate(old, new)  # in place: the entries concatenated
            else:
                var._grad = new + old if old.is_sparse else old + new
        elif _ZEROS and _zerotensor.is_zero(old):   # (PyTorch adds in place: into a ZeroTensor, refused)
            _zerotensor.check_mutable(old)
        elif _METAS and _meta.is_meta(old):
            old.add_(new)  # (a meta .grad: the op, which writes nothing, see _meta.py)
        elif old._data.dtype.kind == "c" or old._data.dtype.names:   # (complex32: a structured dtype, no +=)
            old.add_(new)  # (complex: PyTorch's add_ multiplies new by alpha = 1 + 0j first, so -inf·0 gives NaN)
            _check_layout(old, var, 252)
        elif new._fw_grad is not None:   # (under forward AD: PyTorch's in-place add gives .grad the tangent's sum)
            old.add_(new)
            _check_layout(old, var, 252)
        else:
            if 0 in old._data.strides:  # (a .grad set to an expanded tensor: PyTorch's ``+=`` refuses the write)
                from .._dispatch import _no_internal_overlap_first
                _no_internal_overlap_first(None, old)
            try:
                old._data += new._data  # in place, as PyTorch does (a user's reference sees the sum)
            except (ValueError, TypeError):
                old.add_(new)  # (.data was replaced by one of another shape since: PyTorch's in-place add error)
                raise
            old._version_counter[0] += 1
            _check_layout(old, var, 252)

    def _post_accumulate_hooks(self) -> None:
        """The leaf's post-accumulate-grad hooks. PyTorch runs them whenever this node runs: also when no gradient
        came (a custom Function's backward returned None for the leaf) or when nothing was accumulated."""
        var = self.variable
        hooks = var._post_accumulate_grad_hooks
        if hooks:
            for hook in list(hooks.values()):
                result = call_user(hook, var)
                if result is not None:
                    # PyTorch runs the generic hook-result checks first (type, dtype, size), so the tensor
                    # itself back (e.g. ``lambda p: p.add_(...)``, an in-place update) is accepted
                    engine._check_hook_result(hook, var, result)
                    if result is not var:
                        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _check_layout(grad, var, line: int) -> None:
    """PyTorch's CHECK_RESULT after adding into an existing ``.grad``: a warning, once per process (a
    TORCH_WARN_ONCE), when the sum breaks the "gradient layout contract" (the variable's strides when it is dense,
    C order otherwise). It costs speed, not correctness: e.g. a transposed weight given a contiguous ``.grad``."""
    if not grad_mode.GRAD_LAYOUT_ENFORCED[0] or grad.is_sparse or var.is_sparse:
        return
    g, v = grad._data, var._data
    if g.strides == v.strides and g.itemsize == v.itemsize and v.flags.c_contiguous and g.size and 0 not in g.strides:
        return  # (the usual case. Not for a stride 0, which breaks the contract even on a size-1 dim; nor for an
        # empty tensor: its strides are PyTorch's, from Tensor.stride(), NumPy's are all 0)
    if _dense(v):
        # strides must agree on the dims of size > 1; a size-1 dim may have any stride but 0 (an expanded view)
        obeys = all(gs == vs if n != 1 else gs != 0 for n, gs, vs in zip(g.shape, grad.stride(), var.stride()))
    else:
        obeys = grad.is_contiguous()
    if not obeys and _first_time(f"grad layout contract {line}"):   # (each of its two lines warns once)
        _ENGINE_WARNINGS.messages.append(  # (given when the engine returns, as PyTorch's C++ warnings)
            "grad and param do not obey the gradient layout contract. This is not an error, but may impair "
            f"performance.\ngrad.sizes() = {list(g.shape)}, strides() = {list(grad.stride())}\nparam.sizes() = "
            f"{list(v.shape)}, strides() = {list(var.stride())} (Triggered internally at "
            f"/__w/pytorch/pytorch/torch/csrc/autograd/functions/accumulate_grad.h:{line}.)")


def _empty_obeys_layout(grad, var) -> bool:
    """PyTorch's obeys_layout_contract for an empty ``var`` (always non-overlapping and dense: it is contiguous) on
    the strides PyTorch keeps for empty tensors (_strides.empty_strides): strides equal on the dims of size != 1,
    a size-1 dim may have any stride but 0."""
    return all(g == v if n != 1 else g != 0 for n, g, v in zip(var.shape, grad.stride(), var.stride()))


def _dense(variable) -> bool:
    """PyTorch's is_non_overlapping_and_dense for an array: its elements fill a block of memory exactly
    (any order of dims: a transposed weight is dense; an expanded or step-sliced one is not)."""
    if variable.flags.c_contiguous or variable.flags.f_contiguous:
        return True
    dims = [(st, n) for st, n in zip(variable.strides, variable.shape) if n != 1]
    expected, dense = variable.itemsize, True
    for st, n in sorted(dims):
        dense = dense and st == expected
        expected *= n
    return dense


def _obey_layout(grad, variable):
    """``grad`` (an array) laid out as PyTorch's "gradient layout contract" asks: with the variable's
    strides when the variable is dense and non-overlapping (a transposed weight), C-contiguous otherwise."""
    import numpy as np
    from numpy.lib.stride_tricks import as_strided
    meta = _METAS and _meta.holds_meta(grad)   # (a meta gradient's copy: meta memory, nothing written)
    if not _dense(variable):  # expanded, sliced with a step ...: a contiguous gradient
        if meta and not grad.flags.c_contiguous:
            return _meta.empty(grad.shape, grad.dtype)
        return grad if grad.flags.c_contiguous else np.ascontiguousarray(grad)
    strides = tuple(st // variable.itemsize * grad.itemsize for st in variable.strides)  # in grad's bytes
    # (strides must agree on the dims of size > 1; a size-1 dim may have any stride but 0: see _check_layout)
    if all(a == b if n != 1 else a != 0 for a, b, n in zip(grad.strides, strides, grad.shape)):
        return grad
    if meta:
        return _meta.empty(grad.shape, grad.dtype, [st // grad.itemsize for st in strides])
    out = as_strided(np.empty(grad.size, dtype=grad.dtype), grad.shape, strides)
    out[...] = grad
    return out


def _copy_like(grad, variable):
    """``empty_like(variable).copy_(grad)`` (PyTorch's clone_obey_contract): differentiable, never aliasing."""
    import numpy as np

    from .. import derivatives as D
    from .._tensor import Tensor
    if _METAS and _meta.is_meta(grad):   # (a meta gradient's copy is a meta tensor, in memory that costs nothing)
        from .._strides import preserve_strides
        data = _meta.empty(variable._data.shape, grad._data.dtype, preserve_strides(variable._data))
        fresh = _meta.mark(Tensor._make(data))
    else:
        fresh = Tensor._make(np.empty_like(variable._data, dtype=grad._data.dtype))  # the variable's layout
    return D.copy_(fresh, grad, out=fresh)


# minigrad.Tensor, looked up once: _tensor.py imports this module before defining the class, and an
# import statement in SavedTensor.unpack (run for every saved output in backward) costs ~0.6 us.
_TENSOR_CLASS: list = []


class SavedTensor:
    """A tensor saved for backward, with its version at save time (to catch in-place changes).

    A node's *output* is stored without its grad_fn (output -> grad_fn -> saved output would be a
    reference cycle); it is rebuilt, pointing at the node, when unpacked.
    """

    __module__ = "torch._C._autograd"  # printed like PyTorch's (<torch._C._autograd.SavedTensor object at ...>)

    __slots__ = (
        "_data",
        "_freed",
        "_grad_fn_name",
        "_hook_meta",
        "_is_output",
        "_output_nr",
        "_packed",
        "_requires_grad",
        "_saved_version",
        "_tensor",
        "_unpack_hook",
        "_version_counter",
        "_view_grad_fn",
        "_vmap_levels",
        "_was_non_leaf",
    )

    def __init__(self, tensor=None, is_output: bool = False) -> None:
        if tensor is None:  # (``torch.autograd.SavedTensor()`` in a program: only autograd makes them)
            raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")
        if tensor._is_inference:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
                "normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
        self._is_output = is_output
        self._saved_version = tensor._version_counter[0]
        self._version_counter = tensor._version_counter
        self._freed = False
        self._unpack_hook = None
        self._packed = None
        self._hook_meta = None
        self._was_non_leaf = False
        self._view_grad_fn = None   # (the output of an in-place op on a view: see _dispatch._record_copy_slices)
        hooks = _thread_hooks()[-1] if _saved_hooks_stack and _thread_hooks() else None
        if hooks is not None:
            self._output_nr = tensor._output_nr
            self._requires_grad = tensor.requires_grad
            self._grad_fn_name = None
            self._vmap_levels = 0
            if is_output and _hooks_tls.pack_later:
                # (an in-place op on a view: packed once the view's history is rebased, see _HooksTLS)
                self._tensor = self._data = None
                _hooks_tls.pack_later[-1].append((self, hooks))
                return
            self._pack_with(tensor, *hooks)
            return
        if is_output:
            self._tensor = None
            self._data = tensor._data  # the array only: keeping the tensor would be a cycle
            self._output_nr = tensor._output_nr
            self._requires_grad = tensor.requires_grad
            # inside vmap, the vmap levels it is batched at (the rebuilt tensor is batched there too)
            self._vmap_levels = _vmap_batched.levels(tensor) if _vmap_batched.DEPTH[0] else 0
        else:
            self._tensor = tensor
            self._data = None
            self._output_nr = 0
            self._requires_grad = False
            self._was_non_leaf = tensor._grad_fn is not None  # (see unpack: an input detached in place later)
        self._grad_fn_name = None
        if SNAPSHOTS:
            SNAPSHOTS[-1].setdefault(id(self._version_counter), []).append(self)

    def _copy_before_write(self) -> None:
        """Keep the saved value as it is now, before an in-place write changes it (see ``SNAPSHOTS``)."""
        if self._freed or self._unpack_hook is not None or self._version_counter[0] != self._saved_version:
            return
        with grad_mode.enable_grad():   # (recorded copies: an outer transform differentiates through them)
            if self._is_output:
                self._data = self._data.copy(order="K")
                self._version_counter = [self._saved_version]
                if self._tensor is not None:   # (its forward-AD tangent, written in place next)
                    self._tensor = self._tensor.clone()
                return
            copy = self._tensor.clone()
        self._tensor, self._version_counter = copy, copy._version_counter
        self._saved_version, self._was_non_leaf = copy._version_counter[0], copy._grad_fn is not None

    @classmethod
    def undefined(cls) -> SavedTensor:
        """What PyTorch shows for a tensor slot that holds nothing (``x * 2``'s ``_raw_saved_self``)."""
        saved = cls.__new__(cls)
        saved._is_output, saved._freed, saved._saved_version, saved._version_counter = False, False, 0, [0]
        saved._tensor = saved._data = saved._unpack_hook = saved._packed = saved._hook_meta = None
        saved._output_nr, saved._requires_grad, saved._grad_fn_name = 0, False, None
        saved._was_non_leaf = False
        saved._view_grad_fn = None
        saved._vmap_levels = 0
        return saved

    def unpack(self, node=None, in_backward: bool = False):
        """The saved tensor, checked against later in-place modification (``in_backward``: read by the node's
        backward formula, not through a ``_saved_*`` attribute)."""
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if node is None and self._is_output and self._requires_grad:
            # (``saved.unpack()`` called by a user: an output is stored without its node, which only the
            # node itself can give back; PyTorch's message)
            raise RuntimeError("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
                               "This is not supported, please use out-of-place `.detach()` instead")
        if self._view_grad_fn is not None and node is not None:
            node = self._view_grad_fn() or node   # (the view's node while it lives, as PyTorch's weak_grad_fn_)
        if self._unpack_hook is not None:
            return self._rewrap(call_user(self._unpack_hook, self._packed), node)
        current = self._version_counter[0]
        if current != self._saved_version and not (in_backward and self._detached_in_place()):
            self._raise_modified(node, current)   # (PyTorch's unpack checks a detach_() first, the version after)
        if not self._is_output:
            if in_backward and self._detached_in_place():
                # PyTorch's SavedVariable finds a saved input's grad_fn on the tensor itself; detach_() cleared it
                # (a ``_saved_*`` attribute passes the node, which PyTorch then takes instead: no error there)
                raise RuntimeError("Trying to use a saved tensor that has been detached in-place, i.e. with "
                                   ".detach_().This is not supported, please use out-of-place `.detach()` instead")
            return self._tensor
        # Rebuild the output as a tensor whose grad_fn is this node (no cycle is stored).
        if not _TENSOR_CLASS:
            from .._tensor import Tensor
            _TENSOR_CLASS.append(Tensor)
        t = _TENSOR_CLASS[0]._make(self._data)
        t._version_counter = self._version_counter
        if self._requires_grad and node is not None:
            t._requires_grad = True
            t._grad_fn = node
            t._output_nr = self._output_nr
        if self._tensor is not None and forward_ad._level[0] is not None:
            t._fw_grad = self._tensor  # an output's slot holds its forward-AD tangent (forward-over-reverse)
        if self._vmap_levels and _vmap_batched.DEPTH[0]:
            _vmap_batched.mark(t, self._vmap_levels)
        return t

    @property
    def unpack_hook(self):
        """The unpack hook set on this saved tensor (None without hooks)."""
        return self._unpack_hook

    @property
    def data(self):
        """The saved tensor as stored, unchecked (an output without its grad_fn; what the pack hook returned
        when there are hooks; None once freed)."""
        if self._unpack_hook is not None and not self._freed:
            return self._packed
        if self._freed or not self._is_output or self._data is None:
            return None if self._freed else self._tensor
        if not _TENSOR_CLASS:
            from .._tensor import Tensor
            _TENSOR_CLASS.append(Tensor)
        t = _TENSOR_CLASS[0]._make(self._data)
        t._version_counter = self._version_counter
        return t

    def _detached_in_place(self) -> bool:
        """A saved input that had a grad_fn when saved and has none now (x.detach_() since)."""
        return (not self._is_output and self._was_non_leaf and self._tensor._grad_fn is None
                and self._tensor.grad_fn is None)

    def _raise_modified(self, node, current: int, tensor=None):
        """PyTorch's error for a saved tensor modified in place (``tensor``: the output itself, when it is sparse)."""
        from .._tensor import Tensor
        t = tensor if tensor is not None else Tensor._make(self._data) if self._is_output else self._tensor
        shape = ", ".join(str(s) for s in t._data.shape)
        name = t._legacy_type_name()
        kind, backend = (name[13:-6], "SparseCPU") if name.startswith("torch.sparse.") else (name[6:-6], "CPU")
        if _METAS and _meta.is_meta(t):
            name = f"Meta{kind}Type"  # (C++'s type name: a meta tensor has no legacy Tensor class)
        elif kind not in ("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double"):
            name = f"{backend}{kind}Type"  # dtypes without a legacy Tensor class print their C++ type name here
        desc = f"[{name} [{shape}]]"
        producer = node if self._is_output else t.grad_fn
        if producer is None and self._was_non_leaf and node is not None:
            producer = node   # (detached in place since: PyTorch's unpack(saved_for) names the node that saved it)
        from .._dispatch import _is_transform_leaf
        if not self._is_output and _is_transform_leaf(t):
            producer = None   # (torch.func's stand-in for an input, a view here, is a leaf wrapper in PyTorch)
        if producer is not None:
            # PyTorch names the producing op without "Backward0" ("output 0 of Mul"); other overloads keep
            # their number ("output 0 of Elu1" for the in-place elu_'s EluBackward1)
            # (a custom Function's "ExpBackward" gives "Exp"; "torch::autograd::CopyBackwards" and CopySlices
            # keep their names)
            base, sep, number = type(producer).name(producer).rpartition("Backward")
            name = type(producer).name(producer)
            if sep and (number.isdigit() or not number):
                name = base + ("" if number == "0" else number)
            # (PyTorch's SavedVariable records output_nr only for an output or when hooks pack it: a saved input
            # reads "output 0" whichever output of its producer it is, svdvals' S of LinalgSvd too)
            where = f"{desc}, which is output {self._output_nr} of {name},"
        else:
            where = desc
        from .anomaly_mode import _enabled as anomaly_enabled
        hint = ("the backtrace further above shows the operation that failed to compute its gradient. The "
                "variable in question was changed in there or anywhere later. Good luck!" if anomaly_enabled[0] else
                "enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")
        raise RuntimeError(
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: {where} is at version {current}; expected version {self._saved_version} instead. "
            f"Hint: {hint}"
        )

    def release(self) -> None:
        """Forget the saved value (after backward without retain_graph)."""
        if self._tensor is None and self._data is None and self._unpack_hook is None:
            return  # an undefined tensor (an absent optional input): PyTorch's still reads None afterwards
        self._tensor = self._data = self._packed = self._hook_meta = None
        self._freed = True

    def register_hooks(self, *hooks) -> None:
        """Attach pack/unpack hooks to this one saved tensor (``node._raw_saved_self.register_hooks``)."""
        if len(hooks) != 2 or not all(map(callable, hooks)):  # (PyTorch's pybind11 argument check)
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types are supported:\n"
                "    1. (self: torch._C._autograd.SavedTensor, arg0: collections.abc.Callable, arg1: "
                "collections.abc.Callable) -> None\n\nInvoked with: " + ", ".join(repr(a) for a in (self, *hooks)))
        pack_hook, unpack_hook = hooks
        if self._freed:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of "
                "the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
                "you need to backward through the graph a second time or if you need to access saved variables "
                "after calling backward.")
        if self._tensor is None and self._data is None and self._unpack_hook is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        if self._unpack_hook is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only "
                               "one pair of hooks is allowed at a time.")
        if not self._is_output:
            self._output_nr = self._tensor._output_nr   # (PyTorch's register_hooks saves the metadata first)
        self._pack_with(self.data if self._is_output else self.unpack(), pack_hook, unpack_hook, detached=True)

    def _pybind11_conduit_v1_(self, *args):
        # (pybind11's hook for other C++ extensions: it hands them nothing they can use, as here)
        return None

    def __dir__(self):
        # PyTorch's pybind11 class lists its own methods only: none of minigrad's internals
        return sorted({n for n in object.__dir__(self) if n.startswith("__") and n != "__slots__"}
                      | {"_pybind11_conduit_v1_", "data", "register_hooks", "unpack", "unpack_hook"})

    def _pack_with(self, tensor, pack_hook, unpack_hook, detached: bool = False) -> None:
        # Keep only what ``pack_hook`` returns, plus the autograd links that PyTorch puts back on
        # whatever ``unpack_hook`` returns (a node's own output gets the node back at unpack time).
        if not self._is_output:
            fn = tensor.grad_fn
            if fn is not None:
                self._hook_meta = (fn, tensor._output_nr)
            elif tensor._requires_grad:
                self._hook_meta = (None, weakref.ref(tensor._grad_accumulator_node()))
        version = tensor._version_counter[0]
        with grad_mode.no_grad():  # (PyTorch packs with grad mode off; register_hooks gives a detached value)
            self._packed = call_user(pack_hook, tensor.detach() if detached else tensor)
        if tensor._version_counter[0] != version:
            raise RuntimeError("A saved tensor pack hook is modifying its input in place. Tensors provided as input "
                               "to pack hook cannot be modified by in-place operations as this can lead to unexpected "
                               "side-effects. Please open an issue if you need to perform in-place operations on the "
                               "input to a pack hook.")
        self._unpack_hook = unpack_hook
        self._tensor = self._data = None

    def _rewrap(self, value, node):
        from .._tensor import Tensor
        if not isinstance(value, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{_c_type_name(value)}")
        if not value._requires_grad and self._hook_meta is None and not (self._is_output and self._requires_grad):
            return value   # (nothing autograd must put back on it: PyTorch's unpack gives the hook's tensor itself)
        t = Tensor._make(value._data)
        t._version_counter = value._version_counter
        if self._is_output:
            if self._requires_grad and node is not None:
                t._requires_grad, t._grad_fn, t._output_nr = True, node, self._output_nr
        elif self._hook_meta is not None:
            fn, extra = self._hook_meta
            t._requires_grad = True
            if fn is not None:
                t._grad_fn, t._output_nr = fn, extra
            else:
                t._grad_accumulator = extra  # the original leaf's AccumulateGrad: gradients still reach it
        return t


# ---- saved tensor hooks (pack/unpack) --------------------------------------------------------

# PyTorch's default hooks are per thread (SavedTensorDefaultHooksTLS): each thread has its own stack
# (``_thread_hooks``); _saved_hooks_stack holds every thread's entries, so that "no hooks anywhere" stays one
# list test on the hot path (_dispatch).
_saved_hooks_stack: list = []
_SAVED_HOOKS_LOCK = threading.Lock()   # held while an entry is removed from _saved_hooks_stack (appends are atomic)


class _HooksTLS(threading.local):
    def __init__(self) -> None:
        self.stack: list = []
        self.disabled_message = None
        # The saved outputs of an in-place op on a view, with the hooks to pack them with (a list per op being
        # recorded, _dispatch._record_copy_slices): PyTorch saves them after rebasing the view's history, so the
        # pack hook gets the view itself, its grad_fn AsStridedBackward0.
        self.pack_later: list = []


_hooks_tls = _HooksTLS()


def _thread_hooks() -> list:
    """This thread's stack of (pack, unpack) hooks."""
    return _hooks_tls.stack


class saved_tensors_hooks(metaclass=TorchNamed):
    """Context manager: every tensor saved for backward goes through ``pack_hook`` / ``unpack_hook``."""

    __repr__ = object_repr  # <torch.autograd.graph.saved_tensors_hooks object at 0x...>

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if not (callable(self.pack_hook) and callable(self.unpack_hook)):  # (PyTorch's pybind11 argument check)
            raise TypeError("_push_saved_tensors_default_hooks(): incompatible function arguments. The following "
                            "argument types are supported:\n    1. (arg0: collections.abc.Callable, arg1: "
                            "collections.abc.Callable) -> None\n\nInvoked with: "
                            f"{self.pack_hook!r}, {self.unpack_hook!r}")
        if _hooks_tls.disabled_message is not None:
            raise RuntimeError(_hooks_tls.disabled_message)
        entry = (self.pack_hook, self.unpack_hook)
        _hooks_tls.stack.append(entry)  # ``as`` binds None, as in PyTorch
        _saved_hooks_stack.append(entry)

    def __exit__(self, *exc) -> None:
        entry = _hooks_tls.stack.pop()
        # (one thread at a time: another thread's removal between reading the length and indexing raised an
        # IndexError, or shifted the entries so that the index found pointed at another one)
        with _SAVED_HOOKS_LOCK:
            for i in range(len(_saved_hooks_stack) - 1, -1, -1):  # (another thread's entries may come after it)
                if _saved_hooks_stack[i] is entry:
                    del _saved_hooks_stack[i]
                    break


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are stored on the CPU (where minigrad's already are): pack and unpack hand them through."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):   # (PyTorch's names: a program may print them)
            return tensor.device, tensor

        def unpack_from_cpu(packed):
            return packed[1]

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Context manager (or decorator) that makes using ``saved_tensors_hooks`` an error (with ``error_message``)."""
    if _hooks_tls.stack:  # hooks already active: PyTorch refuses right away
        raise RuntimeError(error_message)
    prev = _hooks_tls.disabled_message
    _hooks_tls.disabled_message = error_message
    try:
        yield
    finally:
        _hooks_tls.disabled_message = prev


# ---- allow_mutation_on_saved_tensors ------------------------------------------------------------

# Callbacks run with a tensor just before its data is overwritten in place (``_dispatch._write_inplace``).
_before_write: list = []

# torch.func.jvp nested in another runs as the double-vjp trick (func/_transforms.py), on a graph PyTorch's real
# forward AD never records: its formulas read each op's inputs as they are then, so writing a saved tensor in place
# later is no error there. Per running trick, the tensors its ops saved, by id(version counter); a write copies
# them first (copy_saved_before_write). A grad / vjp transform running inside holds its own (HeldSaves) while its
# function runs: its backward checks them as PyTorch's does; the trick's backward, later, reads them too. Per thread,
# as the transforms' levels.
SNAPSHOTS = PerThreadList()


class HeldSaves(dict):
    """The saved tensors of a grad / vjp function running inside a double-vjp trick (not copied before writes)."""


def copy_saved_before_write(tensor) -> None:
    """``tensor`` is about to be written in place: the saved tensors of the running double-vjp tricks that share
    its memory (its version counter) keep their values."""
    for table in SNAPSHOTS:
        if table and type(table) is not HeldSaves:
            for saved in table.pop(id(tensor._version_counter), ()):
                saved._copy_before_write()


_allow_mutation_enabled = [False]


class _Handle:
    """What the pack hook of allow_mutation_on_saved_tensors stores in place of a tensor."""


class _AllowMutationOnSavedContext(metaclass=TorchNamed):
    """State of one allow_mutation_on_saved_tensors block: saved originals, and clones made before writes."""

    __repr__ = object_repr

    def __init__(self) -> None:
        self.cloned = weakref.WeakKeyDictionary()  # handle -> copy taken before an in-place write
        self.original = weakref.WeakKeyDictionary()  # handle -> the saved tensor itself
        self.tid_to_weakhandle = weakref.WeakValueDictionary()  # (id, data_ptr, version) -> handle
        self.sid_to_tid: dict = {}  # (data_ptr, version) -> tids saved with that memory
        self.thread = threading.get_ident()  # the thread inside the block (PyTorch's TorchDispatchMode is its own)

    def clear(self) -> None:
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()

    def pack(self, tensor) -> _Handle:
        # PyTorch's ids: one per tensor object and version, one per memory address and version.
        tid = (id(tensor), tensor.data_ptr(), tensor._version)
        self.sid_to_tid.setdefault((tensor.data_ptr(), tensor._version), []).append(tid)
        handle = self.tid_to_weakhandle.get(tid)
        if handle is None:  # the same tensor (same version) saved twice shares one handle
            handle = _Handle()
            self.tid_to_weakhandle[tid] = handle
            self.original[handle] = tensor
        return handle

    def unpack(self, handle: _Handle):
        msg = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
               "in which the graph was originally recorded.")
        if not _allow_mutation_enabled[0]:
            raise AssertionError(msg)
        if handle in self.cloned:
            return self.cloned[handle]
        if handle not in self.original:
            raise AssertionError(msg)
        return self.original[handle]

    def clone_before_write(self, tensor) -> None:
        # As PyTorch, saved tensors are found by the written tensor's address and version: a saved tensor
        # that shares memory at another address (``b`` when ``b[1:]`` is written) is not copied.
        if threading.get_ident() != self.thread:   # (another thread's write: PyTorch's mode does not see it)
            return
        for tid in self.sid_to_tid.get((tensor.data_ptr(), tensor._version), ()):
            handle = self.tid_to_weakhandle.get(tid)
            if handle is None or handle in self.cloned:  # freed by a backward, or copied already
                continue
            self.cloned[handle] = self.original.pop(handle).clone()


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which tensors saved for backward may be changed in place (copied first)."""
    ctx = _AllowMutationOnSavedContext()
    with saved_tensors_hooks(ctx.pack, ctx.unpack):
        _before_write.append(ctx.clone_before_write)
        try:
            if _allow_mutation_enabled[0]:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _allow_mutation_enabled[0] = True
            yield ctx
        finally:
            _before_write.remove(ctx.clone_before_write)
            ctx.clear()
            _allow_mutation_enabled[0] = False


# ---- edges ---------------------------------------------------------------------------------------

@torch_named_tuple
class GradientEdge(NamedTuple):
    """``(node, output_nr, ownership_token)``: where a tensor's gradient enters the graph (the token, for
    torch.compile, keeps the node alive; None for edges taken from tensors)."""

    node: Any
    output_nr: int
    ownership_token: Any = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The graph edge of ``tensor``: its grad_fn, or its AccumulateGrad for a leaf."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    node, output_nr = tensor._edge()
    # (the shape and dtype of the tensor the edge was taken from, kept on its node, for the implicit gradient and
    # shape checks of ``backward(edge)`` / ``grad(edge, ...)``: minigrad's nodes keep the metadata of their forward
    # inputs only, PyTorch's also their outputs')
    if node._edge_meta is None:
        node._edge_meta = {}
    node._edge_meta[output_nr] = (tensor._data.shape, tensor.dtype)
    return GradientEdge(node, output_nr)


def edge_metadata(edge):
    """``(shape, dtype)`` noted by ``get_gradient_edge`` for this edge, or None."""
    return (getattr(edge[0], "_edge_meta", None) or {}).get(edge[1])


def increment_version(tensor) -> None:
    """Bump the version counter, as an in-place op would (for changes made behind autograd's back)."""
    from .._tensor import Tensor  # (here: _tensor imports this module)
    if isinstance(tensor, Tensor):
        tensor = (tensor,)
    try:  # (any iterable, as PyTorch's binding takes it; each tensor bumped before the next element is checked)
        tensors = iter(tensor)
    except TypeError:
        raise RuntimeError("increment_version expect a Iterable[Tensor] as input") from None
    for t in tensors:
        if not isinstance(t, Tensor):
            raise RuntimeError("increment_version expects each element of the iterable to be a tensor")
        t._version_counter[0] += 1


# PyTorch's stream flags (CUDA only: on the CPU they are only kept), process-wide
_STREAM_FLAGS = {"warn_on_accumulate_grad_stream_mismatch": True, "override_stale_capture_stream": False}


def _set_stream_flag(name: str, enabled: bool) -> None:
    if not isinstance(enabled, bool):  # (PyTorch's C++ check, a RuntimeError)
        raise RuntimeError(f"enabled must be a bool, but got {type(enabled).__name__}")
    _STREAM_FLAGS[name] = enabled


def set_warn_on_accumulate_grad_stream_mismatch(enabled: bool) -> None:
    """Whether AccumulateGrad warns when a gradient arrives on another stream than its node's (CUDA only)."""
    _set_stream_flag("warn_on_accumulate_grad_stream_mismatch", enabled)


def set_override_stale_capture_stream(enabled: bool) -> None:
    """Whether a stale stream met during CUDA graph capture is replaced by the capturing one (CUDA only)."""
    _set_stream_flag("override_stale_capture_stream", enabled)


def region_activation_memory_budget(budget: float):
    """The activation memory budget (a ratio in [0, 1]) of a torch.compile region: an error in eager mode."""
    name = "torch.autograd.graph.region_activation_memory_budget"
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"{name}: expects a float, got {type(budget).__name__}")
    if not 0.0 <= budget <= 1.0:
        raise ValueError(f"{name}: must be in [0, 1], got {budget}")
    # (minigrad's torch.compile runs functions eagerly: never inside a compiled region)
    raise RuntimeError(f"{name} can only be used inside a torch.compile region; it has no effect in eager mode.")


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """Call ``fn`` once per backward pass: mode 'all' after every tensor that takes part in it has its
    gradient (``fn(grads)``, None for tensors outside the pass); mode 'any' on the first one (``fn(grad)``)."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    if mode == "all" and any(not t.requires_grad for t in tensors):
        raise AssertionError("Expected gradient function to be set")  # PyTorch looks up every tensor's node
    state = {"task": None, "grads": None, "left": 0}

    def make_hook(i):
        def hook(grad):
            from .engine import graph_tasks
            tasks = graph_tasks()
            task = tasks[-1] if tasks else None
            new_pass = task is None or state["task"] != task[0]
            if new_pass:
                state["task"] = None if task is None else task[0]
                if mode == "any":  # (no count of the tensors taking part: PyTorch's 'any' asks the engine nothing)
                    fn(grad)
                else:
                    state["grads"] = [None] * len(tensors)
                    state["left"] = sum(1 for t in tensors if _takes_part(t, task))
            if mode == "all":
                state["grads"][i] = grad
                state["left"] -= 1
                if state["left"] == 0:
                    grads, state["grads"] = state["grads"], None
                    fn(grads)
        return hook

    handles = [t.register_hook(make_hook(i)) for i, t in enumerate(tensors) if t.requires_grad]
    return _MultiHandle(handles)


def _takes_part(tensor, task) -> bool:
    """Will the running backward compute ``tensor``'s gradient?"""
    if task is None or not tensor.requires_grad:
        return task is None and tensor.requires_grad
    _, root, deps, needed, captures, _ = task
    node = tensor.grad_fn
    if node is None:
        acc = tensor._grad_accumulator
        node = acc() if acc is not None else None
    # autograd.grad() captures an input's gradient at its node without running it: that counts too.
    takes_part = node is not None and (node is root or node in deps) and \
        (needed is None or node in needed or node in captures)
    if takes_part and captures and node in captures and not node._next_nrs:
        # (PyTorch cannot tell either, for a leaf whose gradient autograd.grad() captures)
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                           "autograd.grad(). This is currently not supported.")
    return takes_part


class _MultiHandle(metaclass=TorchNamed):
    """Removes every per-tensor hook of a multi-grad hook at once."""

    __slots__ = ("handles",)
    __repr__ = object_repr

    def __init__(self, handles: list) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


# Last: forward_ad subclasses Node (SavedTensor.unpack reads its active level).
# ---- the engine's entry from backward() ----------------------------------------------------------------------

def _engine_run_backward(warn: list, *args) -> None:
    """Run the backward engine (``engine.run_backward(*args)``), as PyTorch's helper of this name does.

    ``warn``: a one-element flag, for ``backward(create_graph=True)``'s warning (cleared once given). PyTorch warns
    from C++, and a C++ warning reaches Python when the engine returns (a failed backward too), located at the
    Python line that called the engine: this function's, in torch/autograd/graph.py; a library line, not the
    user's."""
    try:
        _engine_returned(engine.run_backward(*args), warn)
    except BaseException as e:
        _flush_engine_warnings(warn, e.__traceback__.tb_lineno)
        raise


def _engine_returned(result, warn: list) -> None:
    _flush_engine_warnings(warn, sys._getframe(1).f_lineno)   # (the line calling the engine)


class _EngineWarnings(threading.local):
    """Warnings PyTorch's engine gives from C++ during backward() (AccumulateGrad's layout warning): they reach
    Python when the engine returns, after the create_graph warning given at its start. Per thread, as PyTorch's
    warning handler: each thread's backward pass gives its own."""

    def __init__(self) -> None:
        self.messages: list = []


_ENGINE_WARNINGS = _EngineWarnings()


def hold_engine_warning(message: str) -> bool:
    """Keep ``message``, a C++ warning of a backward formula, for when backward() returns (PyTorch's engine replays
    its nodes' warnings then, after the create_graph warning). False outside backward(): the caller warns."""
    # (the nearest engine pass on this thread's stack, looked up only on this rare path: no flag on the hot one)
    frame = sys._getframe(1)
    while frame is not None and frame.f_code is not engine.run_backward.__code__:
        frame = frame.f_back
    if frame is None or frame.f_back is None or frame.f_back.f_code is not _engine_run_backward.__code__:
        return False
    _ENGINE_WARNINGS.messages.append(message)
    return True


def _flush_engine_warnings(warn: list, lineno: int) -> None:
    """The engine's C++ warnings, located at line ``lineno`` of this file: ``backward(create_graph=True)``'s
    (when ``warn`` holds True; cleared once given), then those collected during the run."""
    messages = []
    if warn[0]:
        warn[0] = False
        messages.append(
            "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
            "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
            "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
            "to None after use to break the cycle and avoid the leak. "
            # PyTorch's C++ warnings end with the source line that raised them; kept so messages match.
            "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)")
    pending = _ENGINE_WARNINGS.messages
    if pending:
        messages += pending
        pending.clear()
    for message in messages:
        warnings.warn_explicit(message, UserWarning, __file__, lineno, __name__,
                               globals().setdefault("__warningregistry__", {}), globals())


# Last: forward_ad subclasses Node, and engine imports this module (_engine_run_backward reads
# ``engine.run_backward`` when called: an import statement there cost ~9k instructions per backward()).
from . import engine, forward_ad  # noqa: E402
