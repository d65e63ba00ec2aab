"""``torch.profiler``: thin aliases of ``torch.autograd.profiler`` (see ``autograd/profiler.py``), which records CPU
ops only; ``profile`` takes torch.profiler's arguments. Not provided: ``schedule`` (every step is recorded),
Kineto traces, memory and FLOP counts."""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterable

from .autograd.profiler import EventList, record_function
from .autograd.profiler import profile as _autograd_profile

__all__ = ["profile", "record_function", "ProfilerActivity", "supported_activities", "kineto_available", "EventList"]


class ProfilerActivity(enum.Enum):
    """The devices a profile records (only CPU work exists here)."""

    CPU = 0
    XPU = 1
    MTIA = 4
    CUDA = 2
    HPU = 3
    PrivateUse1 = 5

    def __int__(self) -> int:
        return self.value


def supported_activities() -> set:
    """The activities this build can profile: the CPU."""
    return {ProfilerActivity.CPU}


def kineto_available() -> bool:
    """Whether PyTorch's Kineto tracer is built in: not in minigrad."""
    return False


class profile(_autograd_profile):
    """``torch.profiler.profile``: the autograd profiler with torch.profiler's arguments, start/stop/step."""

    _torch_name = "torch.profiler.profiler.profile"

    def __init__(self, *, activities: Iterable[ProfilerActivity] | None = None, schedule: Callable | None = None,
                 on_trace_ready: Callable | None = None, record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False, with_modules: bool = False,
                 experimental_config=None, execution_trace_observer=None, acc_events: bool = False,
                 use_cuda: bool | None = None, custom_trace_id_callback=None,
                 post_processing_timeout_s: float | None = None) -> None:
        if schedule is not None:
            raise NotImplementedError("minigrad's profiler records every step: schedule= is not supported")
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory, with_stack=with_stack,
                         with_flops=with_flops, with_modules=with_modules)
        self.activities = set(activities) if activities else supported_activities()
        self.on_trace_ready = on_trace_ready
        self.step_num = 0

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        if self.enabled and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def start(self) -> None:
        """Start recording (as entering ``with``)."""
        self.__enter__()

    def stop(self) -> None:
        """Stop recording (as leaving ``with``)."""
        self.__exit__(None, None, None)

    def step(self) -> None:
        """Count a training step (no schedule here, so recording goes on)."""
        self.step_num += 1

    def events(self) -> EventList:
        """The recorded events."""
        if not self.entered:  # (PyTorch's: no autograd profiler made before the first start)
            raise AssertionError("Profiler must be initialized before accessing events")
        return self.function_events
