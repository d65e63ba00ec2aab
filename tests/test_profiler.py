"""The autograd profiler: events for forward ops, backward nodes and labelled blocks; PyTorch's table."""
import re

import pytest

import minigrad as torch
from minigrad import _dispatch
from minigrad.autograd import profiler


def _profile_step():
    x = torch.ones(4, 4, requires_grad=True)
    with profiler.profile() as prof:
        with profiler.record_function("my_block"):
            y = (x * 2).exp().sum()
        y.backward()
    return prof


def test_counts_and_names():
    prof = _profile_step()
    rows = {e.key: e for e in prof.key_averages()}
    # mul: forward, and inside ExpBackward0 (grad·result) and MulBackward0 (grad·2) — as in PyTorch
    assert rows["aten::mul"].count == 3 and rows["aten::exp"].count == 1
    assert rows["my_block"].count == 1
    for node in ("SumBackward0", "ExpBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"):
        assert rows[node].count == 1


def test_self_time_excludes_children_and_totals_add_up():
    prof = _profile_step()
    block = next(e for e in prof.function_events if e.name == "my_block")
    assert {c.name for c in block.cpu_children} == {"aten::mul", "aten::exp", "aten::sum"}
    children = sum(c.cpu_time_total for c in block.cpu_children)
    assert block.self_cpu_time_total == pytest.approx(block.cpu_time_total - children)
    total = prof.key_averages().self_cpu_time_total
    assert total == pytest.approx(sum(e.self_cpu_time_total for e in prof.function_events))


def test_table_layout_is_pytorchs():
    table = _profile_step().key_averages().table(sort_by="self_cpu_time_total", row_limit=3)
    lines = table.split("\n")
    assert lines[1].split() == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%", "CPU", "total",
                                "CPU", "time", "avg", "#", "of", "Calls"]
    assert lines[0] == lines[2] == lines[-3] and set(lines[0]) == {"-", " "}
    assert len(lines) == 3 + 3 + 2 + 1        # header, 3 rows, rule + total, trailing newline
    assert re.fullmatch(r"Self CPU time total: \d+\.\d{3}(us|ms|s)", lines[-2])
    selfs = [float(re.findall(r"(\d+\.\d+)%", row)[0]) for row in lines[3:6]]
    assert selfs == sorted(selfs, reverse=True)


def test_disabled_profiler_records_nothing_and_hot_path_flag_is_off():
    assert not _dispatch._extras[0]
    prof = profiler.profile(enabled=False)
    with prof as bound:
        torch.ones(2) * 2
    assert bound is None and not hasattr(prof, "function_events")  # (PyTorch's: None is bound, no events kept)
    with profiler.profile():
        assert _dispatch._extras[0]
    assert not _dispatch._extras[0]
    with profiler.record_function("outside"):    # no profiler: a no-op
        pass


def test_record_function_decorator_and_custom_function():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    @profiler.record_function("step")
    def step(x):
        return Double.apply(x).sum()

    with profiler.profile() as prof:
        step(torch.ones(3, requires_grad=True)).backward()
    names = [e.key for e in prof.key_averages()]
    assert names[:3] == ["step", "Double", "aten::mul"]
    assert "DoubleBackward" in names


def test_unfinished_profile_reads_as_empty():
    # PyTorch processes its results lazily: read before the profile finishes, they are an empty list
    with profiler.profile() as prof:
        assert list(prof.key_averages()) == [] and repr(prof) == "[]"
        torch.ones(2).mul(2)
    assert "aten::mul" in [e.name for e in prof.function_events]
