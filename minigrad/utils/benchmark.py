"""torch.utils.benchmark's Timer and Measurement, as the autograd tutorials use them (Python statements only).

``Timer(stmt, setup, globals=...)`` wraps ``timeit.Timer``: ``timeit(number)`` warms up with ``number // 100`` runs
then times one block; ``blocked_autorange`` grows the block until the timer's overhead is small, then repeats it for
``min_run_time``. A ``Measurement`` keeps the raw block times and prints PyTorch's summary (median, IQR, runs).
C++ statements, Callgrind and ``Compare`` are not provided.
"""
from __future__ import annotations

import dataclasses
import enum
import math
import sys
import textwrap
import timeit as _timeit
from collections.abc import Callable
from typing import Any

import numpy as np

from .._class_names import TorchNamed

__all__ = ["Language", "Measurement", "TaskSpec", "Timer", "select_unit", "timer"]

_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25


def timer() -> float:
    """The clock a Timer reads by default (no accelerator to synchronize)."""
    return _timeit.default_timer()


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


def select_unit(t: float) -> tuple[str, float]:
    """The unit (ns, us, ms or s) that prints ``t`` seconds with an O(1) magnitude, and its scale."""
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(math.log10(t) // 3) if t > 0 else -4, "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec(metaclass=TorchNamed):
    """What a Timer measures (its globals aside)."""
    _torch_name = "torch.utils.benchmark.utils.common.TaskSpec"

    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label (with its sub-label), else the statement."""
        if self.label is not None:
            return self.label + (f": {self.sub_label}" if self.sub_label else "")
        if "\n" not in self.stmt:
            return self.stmt + (f": {self.sub_label}" if self.sub_label else "")
        return f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self) -> str:
        """The setup line of a summary ('' for none)."""
        if self.setup == "pass" or not self.setup:
            return ""
        return f"setup:\n{textwrap.indent(self.setup, '  ')}" if "\n" in self.setup else f"setup: {self.setup}"

    def summarize(self) -> str:
        """Title, description and setup, as a Measurement prints them."""
        sections = [self.title, self.description or "", self.setup_str()]
        return "\n".join(f"{s}\n" if "\n" in s else s for s in sections if s)


@dataclasses.dataclass(init=True, repr=False)
class Measurement(metaclass=TorchNamed):
    """The block times of one Timer run, with their statistics per run of ``stmt``."""
    _torch_name = "torch.utils.benchmark.utils.common.Measurement"

    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict | None = None

    @property
    def times(self) -> list:
        """Seconds per run of ``stmt``, one per block."""
        return [t / self.number_per_run for t in self.raw_times]

    def _stats(self) -> tuple:
        # (sorted times, median, mean, 25th and 75th percentiles: torch.quantile's linear interpolation)
        times = np.sort(np.asarray(self.times, dtype=np.float64))
        p25, median, p75 = (float(np.quantile(times, q)) for q in (0.25, 0.5, 0.75))
        return times, median, float(times.mean()), p25, p75

    @property
    def median(self) -> float:
        return self._stats()[1]

    @property
    def mean(self) -> float:
        return self._stats()[2]

    @property
    def iqr(self) -> float:
        _, _, _, p25, p75 = self._stats()
        return p75 - p25

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        """Whether the interquartile range is below ``threshold`` of the median."""
        return self.iqr / self.median < threshold

    @property
    def has_warnings(self) -> bool:
        return bool(self._warnings())

    def _warnings(self) -> list:
        if self.meets_confidence(_IQR_WARN_THRESHOLD):
            return []
        msg = ("This suggests significant environmental influence." if not self.meets_confidence(
            _IQR_GROSS_WARN_THRESHOLD) else "This could indicate system fluctuation.")
        return [f"  WARNING: Interquartile range is {self.iqr / self.median * 100:.1f}% of the median measurement.\n"
                f"           {msg}"]

    def __getattr__(self, name: str) -> Any:
        if name in {f.name for f in dataclasses.fields(TaskSpec)}:   # (stmt, label ... read through)
            return getattr(self.task_spec, name)
        raise AttributeError(f"'Measurement' object has no attribute '{name}'")

    @property
    def title(self) -> str:
        return self.task_spec.title

    def __repr__(self) -> str:
        times, median, _, p25, p75 = self._stats()
        n = len(times)
        unit, scale = select_unit(median)
        lines = [f"<torch.utils.benchmark.utils.common.Measurement object at {hex(id(self))}>",
                 self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {(p75 - p25) / scale:.2f} {unit} ({p25 / scale:.2f} to {p75 / scale:.2f})")
        threads = self.task_spec.num_threads
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {threads} thread{'s' if threads > 1 else ''}")
        lines.extend(self._warnings() if n > 1 else [])
        return "\n".join(lines).strip()


class Timer(metaclass=TorchNamed):
    """Time a Python statement (``timeit.Timer`` with PyTorch's warm-up and replicate conventions)."""
    _torch_name = "torch.utils.benchmark.utils.timer.Timer"

    def __init__(self, stmt: str = "pass", setup: str = "pass", global_setup: str = "",
                 timer: Callable[[], float] = timer, globals: dict | None = None, label: str | None = None,
                 sub_label: str | None = None, description: str | None = None, env: str | None = None,
                 num_threads: int = 1, language: Language | str = Language.PYTHON) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._globals = dict(globals or {})
        if language in (Language.PYTHON, "py", "python"):
            self._globals.setdefault("torch", sys.modules[__name__.split(".")[0]])   # (minigrad, as torch)
            if global_setup:
                raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely this code can simply "
                                 "be moved to `setup`.")
        elif language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("minigrad's Timer times Python statements only")
        else:
            raise ValueError(f"Invalid language `{language}`.")
        stmt = textwrap.dedent(stmt)
        stmt = (stmt[1:] if stmt and stmt[0] == "\n" else stmt).rstrip()
        setup = textwrap.dedent(setup)
        setup = (setup[1:] if setup and setup[0] == "\n" else setup).rstrip()
        self._timer = _timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup, label=label,
                                   sub_label=sub_label, description=description, env=env, num_threads=num_threads)

    def _timeit(self, number: int) -> float:
        return max(self._timer.timeit(number), 1e-9)

    def timeit(self, number: int = 1000000) -> Measurement:
        """Run ``stmt`` ``number`` times (after a warm-up of ``number // 100``) as one block."""
        self._timeit(number=max(int(number // 100), 2))
        return Measurement(number_per_run=number, raw_times=[self._timeit(number=number)], task_spec=self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def blocked_autorange(self, callback: Callable | None = None, min_run_time: float = 0.2) -> Measurement:
        """Blocks of runs, each long against the timer's overhead, repeated for at least ``min_run_time`` seconds."""
        overhead = float(np.median([self._timeit(0) for _ in range(5)]))
        number = 1
        while True:   # (block size: 10x until the overhead is below 1e-4 of a block, or the block is long)
            taken = self._timeit(number)
            if (overhead / taken <= 1e-4 and taken >= min_run_time / 1000) or taken > min_run_time \
                    or number * 10 > 2147483647:
                break
            number *= 10
        times, total = [], 0.0
        while total < min_run_time:
            spent = self._timeit(number)
            times.append(spent)
            total += spent
            if callback:
                callback(number, spent)
        return Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)
