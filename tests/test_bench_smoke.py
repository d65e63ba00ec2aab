"""The benchmark harness runs, and every workload's minigrad gradients equal the hand-written NumPy ones.

Tiny sizes, one run each, no timing assertions: speed is measured by ``python -m bench``, never by tests.
"""
import gc
import json

import numpy as np
import pytest

from bench import harness, workloads

WORKLOADS = workloads.workloads()


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_minigrad_gradients_match_hand_numpy(name):
    wl = WORKLOADS[name]
    results = workloads.check_grads(wl, "tiny", seed=1)  # raises if any implementation disagrees
    mg, ref = results["minigrad"], results["numpy"]
    assert set(mg) == set(ref) and mg  # compared above; here: there is something to compare
    for k in ref:
        np.testing.assert_allclose(mg[k], ref[k], rtol=1e-4, atol=1e-4)
        assert np.any(ref[k] != 0), f"{name}: d/d{k} is all zeros, the check would be vacuous"


def test_check_grads_catches_a_wrong_gradient():
    wl = WORKLOADS["W5"]
    good = wl.impls["numpy"]

    def wrong(inputs):
        step = good(inputs)
        return lambda: {k: v * 2 for k, v in step().items()}

    bad = workloads.Workload(wl.name, wl.title, wl.sizes, wl.setup, {"numpy": good, "minigrad": wrong})
    with pytest.raises(AssertionError, match="differs from hand NumPy"):
        workloads.check_grads(bad, "tiny")


def test_w3_long_chain_has_no_recursion_error():
    wl = WORKLOADS["W3"]
    inputs = wl.setup(20_000, np.random.default_rng(0))
    grads = wl.impls["minigrad"](inputs)()
    assert grads["x"].tolist() == [1.0]


def test_w6_graph_is_freed_without_the_garbage_collector():
    wl = WORKLOADS["W1"]
    inputs = wl.setup(wl.sizes["tiny"], np.random.default_rng(0))
    probes = []
    step = workloads.w1_lib(workloads.minigrad)(inputs, probes=probes)
    gc.disable()
    try:
        step()
        step()
    finally:
        gc.enable()
    assert len(probes) == 2 and all(ref() is None for ref in probes)


def test_timing_table_and_json(tmp_path):
    wl = WORKLOADS["W5"]
    inputs = wl.setup(wl.sizes["tiny"], np.random.default_rng(0))
    steps = {name: make(inputs) for name, make in wl.impls.items()}
    timing = harness.time_interleaved(steps, reps=2, warmup=0, gc_on=True)
    assert set(timing) == set(wl.impls) and all(t["reps"] == 2 for t in timing.values())
    record = harness._record(wl, "tiny", True, timing)
    harness.verdicts([record])
    table = harness.format_table([record], None)
    assert table.splitlines()[2].startswith("| W5 ")
    path = harness.write_json(tmp_path / "r.json", {"results": [record]})
    assert json.loads(path.read_text())["results"][0]["workload"] == "W5"
