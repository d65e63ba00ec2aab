"""A small CPU profiler laid out like ``torch.autograd.profiler``: where does the time go?

    with profiler.profile() as prof:
        loss = model(x).sum()
        loss.backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))

Every table op is recorded as ``aten::<name>`` (forward, and the ops inside backward formulas), every
backward node by its name (``MulBackward0``), custom Functions by their class name, and any block by
``record_function("name")``. *Total* time of an event includes the events nested in it; *self* time
does not. When no profiler is active, ops pay one flag check (``_dispatch._extras``).
"""
from __future__ import annotations

import enum
import functools
import json
import threading
import time
import warnings

from .._class_names import TorchNamed, object_repr

__all__ = ["profile", "record_function", "emit_itt", "emit_nvtx", "EnforceUnique", "FunctionEvent", "FunctionEventAvg",
           "EventList", "DeviceType"]

_enabled = [False]
_current: list = []   # the active profile (at most one)
_open: list = []      # events entered but not yet exited (innermost last)
_annotating = [False]  # an emit_itt / emit_nvtx block is open: it holds the profiler session as a profile does
_ALREADY_ENABLED = "Profiler is already enabled on this thread."


def _now_us() -> float:
    return time.perf_counter_ns() / 1000.0


def _format_time(time_us: float) -> str:
    """1.234ms / 56.789us, as PyTorch prints times."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _short(time_us: float) -> str:
    """A time in microseconds as PyTorch's event repr shows its start and end: Python's float, to the ns."""
    return str(round(time_us, 3))


def _format_time_share(time_us: float, total_us: float) -> str:
    return "NaN" if total_us == 0 else f"{time_us * 100.0 / total_us:.2f}%"


class DeviceType(enum.Enum):
    """Where an event ran (``torch.autograd.DeviceType``): always the CPU here."""

    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    MTIA = 10
    MPS = 11
    HPU = 12
    Meta = 13
    Vulkan = 14
    Metal = 15
    XPU = 16
    PrivateUse1 = 20


class FunctionEvent(metaclass=TorchNamed):
    """One recorded call: name, start and end time, and the calls made inside it.

    ``sequence_nr``: PyTorch's sequence number when the call was recorded (an op called with grad mode on: the
    number its node takes, or would take; a backward node: its own), -1 for anything else; ``fwd_thread``: 1 for a
    backward node's event, 0 otherwise. The fields PyTorch fills from what minigrad does not record (devices,
    memory, shapes, remote calls) keep PyTorch's values for a CPU run without those options.
    """

    _torch_name = "torch.autograd.profiler_util.FunctionEvent"

    def __init__(self, id: int, name: str, start_us: float, parent: FunctionEvent | None,
                 sequence_nr: int = -1, fwd_thread: int = 0, scope: int = 0) -> None:
        self.id = id
        self.name = name
        self.trace_name = name
        self.start_us = start_us
        self.end_us = start_us
        self.cpu_parent = parent
        self.cpu_children: list = []
        self.count = 1
        self.sequence_nr = sequence_nr
        self.fwd_thread = fwd_thread
        self.thread = 1
        self.overload_name = ""
        self.device_type = DeviceType.CPU
        self.node_id = -1
        self.is_async = self.is_remote = self.is_legacy = False
        self.input_shapes: list = []
        self.concrete_inputs: list = []
        self.stack: list = []
        self.kernels: list = []
        self.cpu_memory_usage = self.device_memory_usage = self.flops = 0
        self.self_cpu_memory_usage = self.self_device_memory_usage = 0
        self.device_time_total = self.self_device_time_total = 0
        # PyTorch's RecordScope: 0 a function (ops, custom Functions), 1 a backward node, 7 a user's record_function
        self.scope = scope
        self.is_user_annotation = scope == 7
        self.activity_type = "user_annotation" if scope == 7 else "cpu_op"
        self.use_device = None
        self.input_dtypes: list = []
        self.kwinputs: dict = {}
        self.event_metadata = None
        self.is_python_function = False
        self.python_id = self.python_parent_id = self.python_module_id = -1
        self.self_cpu_percent = self.total_cpu_percent = self.total_device_percent = -1

    @property
    def key(self) -> str:
        """The name events are grouped by in ``key_averages``."""
        return self.name

    @property
    def cpu_time_total(self) -> float:
        """Duration of the event in microseconds, children included."""
        return self.end_us - self.start_us

    cpu_time = cpu_time_total
    device_time = 0.0

    @property
    def self_cpu_time_total(self) -> float:
        """Time in microseconds not spent in child events."""
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    # (the times as the table prints them)
    cpu_time_str = cpu_time_total_str = property(lambda self: _format_time(self.cpu_time_total))
    self_cpu_time_total_str = property(lambda self: _format_time(self.self_cpu_time_total))
    device_time_str = device_time_total_str = self_device_time_total_str = property(lambda self: _format_time(0))

    def __repr__(self) -> str:
        # (PyTorch's fields, in its order; its device fields are named after use_device, None on a CPU run)
        device = self.use_device
        return (f"<FunctionEvent id={self.id} name={self.name} overload_name={self.overload_name} "
                f"device_type={self.device_type} node_id={self.node_id} cpu_time={_format_time(self.cpu_time_total)} "
                f"start_us={_short(self.start_us)} end_us={_short(self.end_us)} "
                f"cpu_children={[c.id for c in self.cpu_children]} {device}_time={_format_time(0)} name={self.name} "
                f"thread={self.thread} input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} "
                f"{device}_memory_usage={self.device_memory_usage} is_async={self.is_async} "
                f"is_remote={self.is_remote} seq_nr={self.sequence_nr} is_legacy={self.is_legacy}>")


class FunctionEventAvg(metaclass=TorchNamed):
    """Events with the same name added up (a row of ``key_averages()``)."""

    _torch_name = "torch.autograd.profiler_util.FunctionEventAvg"

    def __init__(self, key: str) -> None:
        self.key = key
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_parent = None

    def add(self, other) -> FunctionEventAvg:
        """Add another event's count and times into this row."""
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    @property
    def cpu_time(self) -> float:
        """Average total time per call."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    cpu_time_str = property(lambda self: _format_time(self.cpu_time))
    cpu_time_total_str = property(lambda self: _format_time(self.cpu_time_total))
    self_cpu_time_total_str = property(lambda self: _format_time(self.self_cpu_time_total))

    def __repr__(self) -> str:
        # PyTorch's, with its device and memory fields (nothing is recorded for them here)
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str}  self_cuda_time=0.000us cuda_time=0.000us input_shapes=None "
                f"cpu_memory_usage=0 cuda_memory_usage=0>")


class EventList(list, metaclass=TorchNamed):
    """A list of events with PyTorch's summaries: ``key_averages()``, ``table()``, ``total_average()``."""

    _torch_name = "torch.autograd.profiler_util.EventList"

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> EventList:
        """One averaged row per event name, in order of first appearance."""
        rows: dict = {}
        for evt in self:
            row = rows.get(evt.key)
            if row is None:
                row = rows[evt.key] = FunctionEventAvg(evt.key)
            row.add(evt)
        return EventList(rows.values())

    def total_average(self) -> FunctionEventAvg:
        """One row summing every event."""
        total = FunctionEventAvg("Total")
        for evt in self:
            total.add(evt)
        return total

    @property
    def self_cpu_time_total(self) -> float:
        """Sum of the events' self times in microseconds."""
        return sum(evt.self_cpu_time_total for evt in self)

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80, header: str | None = None,
              top_level_events_only: bool = False, time_unit: str | None = None) -> str:
        """The summary table, laid out as PyTorch's."""
        return _build_table(self, sort_by, header, row_limit, max_name_column_width, top_level_events_only,
                            time_unit)

    def __str__(self) -> str:
        return self.table()

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (open in chrome://tracing or Perfetto)."""
        events = [{"name": e.name, "ph": "X", "ts": e.start_us, "dur": e.cpu_time_total, "pid": 0, "tid": 0,
                   "cat": "cpu_op"} for e in self if isinstance(e, FunctionEvent)]
        with open(path, "w") as f:
            json.dump({"traceEvents": events}, f)


def _build_table(events, sort_by, header, row_limit, max_name_column_width, top_level_events_only,
                 time_unit) -> str:
    if len(events) == 0:
        return ""
    if sort_by is not None:
        events = sorted(events, key=lambda evt: getattr(evt, sort_by), reverse=True)
    name_width = max(len(evt.key) for evt in events) + 4
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
    widths = [name_width] + [12] * (len(headers) - 1)
    row_format = "".join("{: >" + str(w) + "}  " for w in widths)
    header_sep = "".join("-" * w + "  " for w in widths)
    line_length = sum(widths) + 2 * (len(widths) - 1)

    def fmt(time_us: float) -> str:
        if time_unit == "s":
            return f"{time_us / 1e6:.3f}s"
        if time_unit == "ms":
            return f"{time_us / 1e3:.3f}ms"
        if time_unit == "us":
            return f"{time_us:.3f}us"
        return _format_time(time_us)

    total_self = sum(evt.self_cpu_time_total for evt in events)
    out = []
    if header is not None:
        out += ["=" * line_length, header]
    if top_level_events_only:
        out += ["=" * line_length, "This report only display top-level ops statistics"]
    out += [header_sep, row_format.format(*headers), header_sep]
    shown = 0
    for evt in events:
        if shown == row_limit:
            break
        if top_level_events_only and evt.cpu_parent is not None:
            continue
        shown += 1
        name = evt.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[: max_name_column_width - 3] + "..."
        out.append(row_format.format(
            name, _format_time_share(evt.self_cpu_time_total, total_self), fmt(evt.self_cpu_time_total),
            _format_time_share(evt.cpu_time_total, total_self), fmt(evt.cpu_time_total),
            fmt(evt.cpu_time), evt.count))
    out += [header_sep, f"Self CPU time total: {fmt(total_self)}"]
    return "\n".join(out) + "\n"


class profile(metaclass=TorchNamed):
    """Context manager recording every op (forward and backward) run inside it."""

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None,
                 record_shapes: bool = False, with_flops: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_modules: bool = False, use_kineto: bool = False,
                 use_cpu: bool = True, experimental_config=None, acc_events: bool = False,
                 custom_trace_id_callback=None, post_processing_timeout_s: float | None = None,
                 activity_filters: dict | None = None) -> None:
        self.enabled = enabled
        if not enabled:
            return  # (PyTorch's disabled profile keeps nothing else: reading its events fails, see _missing)
        self._function_events: EventList | None = None
        self._events: list = []
        self.entered = False
        self._taken_over = False   # (another profile was entered inside this one: see __enter__)
        # The options, kept as PyTorch keeps them (shapes, flops, memory and stacks are not recorded here)
        self.use_cuda, self.use_device = use_cuda, use_device
        if use_cuda:
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use ``use_device = 'cuda'`` "
                          "instead.", FutureWarning, stacklevel=2)
            self.use_device = "cuda"
        self.record_shapes = record_shapes or with_flops
        self.with_flops, self.profile_memory, self.with_stack = with_flops, profile_memory, with_stack
        self.with_modules, self.use_cpu, self.acc_events = with_modules, use_cpu, acc_events
        self.custom_trace_id_callback = custom_trace_id_callback
        self.post_processing_timeout_s, self.activity_filters = post_processing_timeout_s, activity_filters or {}
        if not use_cpu and not use_kineto:
            raise AssertionError("Device-only events supported only with Kineto (use_kineto=True)")
        if self.use_device is not None:
            if self.use_device not in ("cuda", "xpu", "mtia", "hpu"):
                warnings.warn(f"The {self.use_device} is not a valid device option.", stacklevel=2)
                self.use_device = None
            elif self.use_device != "mtia":   # (no such device here)
                warnings.warn(f"{self.use_device.upper()} is not available, disabling {self.use_device.upper()} "
                              "profiling", stacklevel=2)
                self.use_cuda, self.use_device = False, None
            else:  # (PyTorch's Kineto here has no MTIA activity)
                raise AssertionError("Legacy MTIA profiling is not supported. Requires use_kineto=True on MTIA "
                                     "devices.")

    def _missing(self, name: str) -> AttributeError:
        """PyTorch's error reading a disabled profile's events: the first attribute its code reads is not set."""
        return AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'", name=name, obj=self)

    def __repr__(self) -> str:
        # PyTorch's: the events once the profile is finished (or read), before that a fixed text
        if not self.enabled:
            raise self._missing("_needs_processing")
        return "<unfinished torch.autograd.profile>" if self._function_events is None else repr(self._function_events)

    def __str__(self) -> str:
        if not self.enabled:
            raise self._missing("_needs_processing")
        return "<unfinished torch.autograd.profile>" if self._function_events is None else str(self._function_events)

    def _processed_events(self) -> EventList:
        """``function_events`` as the tables and totals read them (PyTorch's _ensure_function_events)."""
        if not self.enabled:
            raise self._missing("experimental_config")
        return self.function_events

    @property
    def function_events(self) -> EventList:
        """The recorded events; read before the profile has finished, an empty list (PyTorch's lazy processing
        of results it does not have yet)."""
        if not self.enabled:
            raise self._missing("_function_events")
        if self._function_events is None:
            self._function_events = EventList()
        return self._function_events

    def __enter__(self) -> profile | None:
        if not self.enabled:
            return None  # (PyTorch's: ``with profile(enabled=False) as p`` binds None)
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        if _annotating[0]:
            raise RuntimeError(_ALREADY_ENABLED)
        for outer in _current:
            # (PyTorch: a profile entered inside another takes over the profiling session; the outer one finishes
            # empty, its exit finding no session, and nothing is recorded after the inner one's exit)
            outer._events, outer._taken_over = [], True
        self.entered = True
        self._events = []
        self._thread = threading.get_ident()
        _current[:] = [self]
        _open.clear()
        _set_enabled(True)
        return self

    def __exit__(self, *exc) -> None:
        if not self.enabled:
            return
        if self._taken_over:   # (its session ended with the inner profile: nothing recorded)
            self._function_events = EventList()
            return
        _set_enabled(False)
        _current.clear()
        _open.clear()
        self._function_events = EventList(self._events)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> EventList:
        """Events grouped by name (see ``EventList.key_averages``)."""
        return self._processed_events().key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by: str | None = None, row_limit: int = 100, **kwargs) -> str:
        """The recorded events as PyTorch's text table."""
        return self._processed_events().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def total_average(self) -> FunctionEventAvg:
        """One row summing every recorded event."""
        return self._processed_events().total_average()

    @property
    def self_cpu_time_total(self) -> float:
        """Sum of the recorded events' self times in microseconds."""
        return self._processed_events().self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (JSON) to ``path``."""
        if not self.enabled:
            raise self._missing("kineto_results")   # (PyTorch's Kineto build saves its results)
        self.function_events.export_chrome_trace(path)


class EnforceUnique(metaclass=TorchNamed):
    """Raises an error if a key is seen more than once."""

    def __init__(self) -> None:
        self.seen: set = set()

    def see(self, *key) -> None:
        """Observe a key and raise an error if it is seen multiple times."""
        if key in self.seen:
            raise RuntimeError("duplicate key: " + str(key))
        self.seen.add(key)

    __repr__ = object_repr


class emit_itt(metaclass=TorchNamed):
    """Annotate every op with an ITT range for Intel VTune: no tool listens here, so only the context is kept."""

    _kind = "ITT"

    def __init__(self, enabled: bool = True, record_shapes: bool = False) -> None:
        self.enabled = enabled
        self.entered = False
        self.record_shapes = record_shapes

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:  # (never reset on exit, as in PyTorch: one object is entered once)
            raise RuntimeError(f"{self._kind} annotation context manager is not reentrant")
        self.entered = True
        self._start()
        if _current or _annotating[0]:
            raise RuntimeError(_ALREADY_ENABLED)
        _annotating[0] = True
        return self

    def _start(self) -> None:
        pass

    def __exit__(self, *exc) -> bool | None:
        if not self.enabled:
            return None
        _annotating[0] = False
        return False

    __repr__ = object_repr


class emit_nvtx(emit_itt):
    """Annotate every op with an NVTX range for Nsight: needs CUDA (its ``torch.cuda.synchronize()`` refuses)."""

    _kind = "NVTX"

    def __init__(self, enabled: bool = True, record_shapes: bool = False) -> None:  # (its own name in errors)
        super().__init__(enabled, record_shapes)

    def _start(self) -> None:
        from .. import cuda
        cuda.synchronize()


def _set_enabled(value: bool) -> None:
    from . import engine, forward_ad
    _enabled[0] = engine._profiling[0] = value
    forward_ad._sync_extras()


class record_function(metaclass=TorchNamed):
    """Label a block (``with record_function("name"):``) or a function (as a decorator) in the profile."""

    __repr__ = object_repr

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._event = None
        self._sequence_nr, self._fwd_thread = -1, 0   # (set for the events of ops and nodes: see FunctionEvent)
        self._scope = 7   # (a user's block; the events minigrad makes itself set theirs: see FunctionEvent)

    def __enter__(self) -> record_function:
        # (PyTorch's profiler records only the thread that started it: its callbacks are thread-local)
        active = _current[-1:]   # (a copy: another thread may end the profile meanwhile)
        if _enabled[0] and active and active[0]._thread == threading.get_ident():
            prof = active[0]
            evt = FunctionEvent(len(prof._events) + 1, self.name, _now_us(), _open[-1] if _open else None,  # (from 1)
                                self._sequence_nr, self._fwd_thread, self._scope)
            if evt.cpu_parent is not None:
                evt.cpu_parent.cpu_children.append(evt)
            prof._events.append(evt)
            _open.append(evt)
            self._event = evt
        return self

    def __exit__(self, *exc) -> None:
        evt = self._event
        if evt is not None:
            evt.end_us = _now_us()
            if _open and _open[-1] is evt:
                _open.pop()
            self._event = None

    def __call__(self, func):
        name = self.name

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with record_function(name):
                return func(*args, **kwargs)
        return wrapper


def _record_call(name: str) -> record_function:
    """The event of a call minigrad records itself (an op, a custom Function's forward): scope "function"."""
    block = record_function(name)
    block._scope = 0
    return block


def _record_op(name: str) -> record_function:
    """The event of a table op (``aten::<name>``): with grad mode on, the sequence number its node takes."""
    from . import grad_mode, graph
    block = _record_call("aten::" + name)
    if grad_mode.STATE.enabled:
        block._sequence_nr = int(repr(graph._sequence)[6:-1])   # (the next number: itertools' count(n) is n)
    return block


def _run_node_profiled(node, grads: tuple) -> tuple:
    """The engine runs a backward node through here while profiling."""
    from . import anomaly_mode
    name, sequence_nr = type(node).name(node), node._sequence_nr()
    # (a node made by no forward op, AccumulateGrad: UINT64_MAX, shown as -1, and no forward thread)
    sequence_nr, fwd_thread = (-1, 0) if sequence_nr == 2 ** 64 - 1 else (sequence_nr, 1)
    # PyTorch's engine wraps each node's call in an "evaluate_function" event, the node's own event inside it
    outer = _record_call("autograd::engine::evaluate_function: " + name)
    block = record_function(name)
    block._scope = 1   # (RecordScope BACKWARD_FUNCTION)
    outer._sequence_nr = block._sequence_nr = sequence_nr
    outer._fwd_thread = block._fwd_thread = fwd_thread
    with outer, block:
        if anomaly_mode._enabled[0]:
            return anomaly_mode._run_with_anomaly_check(node, grads)
        return node._apply(grads)
