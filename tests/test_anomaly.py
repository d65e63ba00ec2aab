"""Anomaly mode: NaN in backward raises with the node's name; errors show the forward traceback."""
import warnings

import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd import Function, detect_anomaly, set_detect_anomaly


def _run_backward_collecting_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError) as info:
            fn()
    return info.value, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def make_nan(x):
    return x.log()          # log(0) = -inf; its backward makes inf, then inf * 0 = nan


def test_nan_in_backward_names_the_node_and_shows_the_forward_line():
    x = torch.tensor([0.0, 2.0], requires_grad=True)

    def run():
        with np.errstate(all="ignore"), detect_anomaly():
            y = make_nan(x * 0)
            y.sum().backward()

    err, messages = _run_backward_collecting_warnings(run)
    assert str(err) == "Function 'MulBackward0' returned nan values in its 0th output."
    trace = [m for m in messages if m.startswith("Error detected in MulBackward0.")]
    assert len(trace) == 1
    assert trace[0].startswith("Error detected in MulBackward0. Traceback of forward call that caused the error:\n")
    assert "y = make_nan(x * 0)" in trace[0] and "minigrad/" not in trace[0]


def test_anomaly_off_means_no_check():
    x = torch.tensor([0.0], requires_grad=True)
    with np.errstate(all="ignore"):
        (x * 0).log().sum().backward()
    assert np.isnan(x.grad.numpy()).all()


def test_check_nan_false_and_flags():
    assert not torch.is_anomaly_enabled()
    with set_detect_anomaly(True, check_nan=False):
        assert torch.is_anomaly_enabled() and not torch.is_anomaly_check_nan_enabled()
        x = torch.tensor([0.0], requires_grad=True)
        with np.errstate(all="ignore"):
            (x * 0).log().sum().backward()
        assert np.isnan(x.grad.numpy()).all()
    assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()


def test_error_in_custom_backward_shows_where_the_function_was_applied():
    class Broken(Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            raise RuntimeError("Some error in backward")

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            anomaly = detect_anomaly()
        with anomaly:
            out = Broken.apply(torch.ones(2, requires_grad=True))
            out.sum().backward()

    err, messages = _run_backward_collecting_warnings(run)
    assert str(err) == "Some error in backward"
    assert any(m.startswith("Error detected in BrokenBackward.") and "out = Broken.apply(" in m for m in messages)


def test_node_created_outside_anomaly_mode_has_no_trace():
    x = torch.tensor([0.0], requires_grad=True)
    y = (x * 0).log()

    def run():
        with np.errstate(all="ignore"), set_detect_anomaly(True):
            y.sum().backward()

    err, messages = _run_backward_collecting_warnings(run)
    assert "returned nan values" in str(err)
    assert "No forward pass information available. Enable detect anomaly during forward pass" in messages[0]


def test_detect_anomaly_warns_and_is_not_a_decorator():
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        mode = detect_anomaly()
    # as in PyTorch: a context manager only, so ``@detect_anomaly()`` fails
    with pytest.raises(TypeError, match="'detect_anomaly' object is not callable"):
        mode(lambda: None)
    with mode:
        assert torch.is_anomaly_enabled()
    assert not torch.is_anomaly_enabled()


def test_message_matches_pytorch():
    from tests.parity import torch_or_skip
    real = torch_or_skip()
    msgs = []
    for lib in (torch, real):
        x = lib.tensor([0.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            with lib.autograd.detect_anomaly():
                try:
                    (x * 0).log().sum().backward()
                except RuntimeError as e:
                    msgs.append(str(e))
    assert msgs[0] == msgs[1]
