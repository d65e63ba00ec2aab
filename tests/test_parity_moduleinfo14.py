"""Session 14 (second wave): the ModuleInfo sweep's last-bit leftovers, fixed, compared live with PyTorch.

- reflection / replication padding's backward adds the output gradients in PyTorch's order (its CPU kernel
  walks the output positions row-major, adding each into the input element it copied);
- softmax's float32 backward over the last dim: the partial last vector's g·y is fused into its sum only when
  the kernel runs inline (one row or one thread), not in the copy that runs on several threads;
- soft_margin_loss: PyTorch's exp and log1p, every step rounded in the input's dtype;
- multi_margin_loss: PyTorch's loop, in the input's dtype (rows' losses added in double for the mean/sum).
"""
from __future__ import annotations

import pytest
from parity import torch_or_skip

import minigrad as mg


def _bits_equal(a, b):
    a, b = a.detach().numpy(), b.detach().numpy()
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _convert(t):
    from torch_testing_db import convert
    return convert(t)


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("shape,padding", [
    ((2, 3, 7), (3, 2)), ((3, 5, 6), (4, 5)), ((2, 3, 4, 5), (3, 1, 2, 3)), ((1, 2, 6, 4), (-1, 2, 3, 0)),
    ((2, 1, 3, 4, 5), (2, 3, 1, 2, 2, 1)), ((3, 4, 3, 3), (2, 2, 2, 2)), ((2, 5, 4, 3), (1, 2, 3, 0))])
def test_pad_backward_adds_in_pytorch_order(mode, dtype, shape, padding):
    torch = torch_or_skip()
    torch.manual_seed(len(shape) * 10 + sum(padding))
    x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
    xm = _convert(x)
    yt = torch.nn.functional.pad(x, padding, mode=mode)
    ym = mg.nn.functional.pad(xm, padding, mode=mode)
    g = torch.randn(yt.shape, dtype=yt.dtype)
    yt.backward(g)
    ym.backward(_convert(g))
    assert _bits_equal(yt, ym)
    assert _bits_equal(x.grad, xm.grad)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", [(10, 20), (3, 100), (1, 24), (47,), (2, 3, 20), (5, 17), (4, 33)])
def test_softmax_float32_backward_fused_tail_follows_threads(threads, shape):
    torch = torch_or_skip()
    saved = torch.get_num_threads(), mg.get_num_threads()
    torch.set_num_threads(threads)
    mg.set_num_threads(threads)
    try:
        for seed in range(4):
            torch.manual_seed(seed)
            x = torch.randn(shape, requires_grad=True)
            xm = _convert(x)
            for fn in ("softmax", "softmin"):
                x.grad, xm.grad = None, None
                yt = getattr(torch.nn.functional, fn)(x, -1)
                ym = getattr(mg.nn.functional, fn)(xm, -1)
                g = torch.randn(shape)
                yt.backward(g)
                ym.backward(_convert(g))
                assert _bits_equal(x.grad, xm.grad), (fn, seed)
    finally:
        torch.set_num_threads(saved[0])
        mg.set_num_threads(saved[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("shape", [(5,), (10, 3), (4, 5, 6), (100,)])
def test_soft_margin_loss_bits(dtype, reduction, shape):
    torch = torch_or_skip()
    torch.manual_seed(len(shape))
    x = (torch.randn(shape, dtype=getattr(torch, dtype)) * 3).requires_grad_()
    y = torch.randn(shape, dtype=x.dtype).sign()
    xm = _convert(x)
    lt = torch.nn.functional.soft_margin_loss(x, y, reduction=reduction)
    lm = mg.nn.functional.soft_margin_loss(xm, _convert(y), reduction=reduction)
    g = torch.randn(lt.shape, dtype=lt.dtype)
    lt.backward(g)
    lm.backward(_convert(g))
    assert _bits_equal(lt, lm)
    assert _bits_equal(x.grad, xm.grad)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("p,margin,weighted", [(1, 1.0, False), (2, 0.3, False), (1, 2.7, True), (2, 1.0, True)])
@pytest.mark.parametrize("shape", [(6,), (10, 3), (30, 11)])
def test_multi_margin_loss_bits(dtype, reduction, p, margin, weighted, shape):
    torch = torch_or_skip()
    torch.manual_seed(p + len(shape))
    x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
    t = torch.randint(0, shape[-1], shape[:-1])
    w = torch.rand(shape[-1], dtype=x.dtype) if weighted else None
    xm = _convert(x)
    lt = torch.nn.functional.multi_margin_loss(x, t, p=p, margin=margin, weight=w, reduction=reduction)
    lm = mg.nn.functional.multi_margin_loss(xm, _convert(t), p=p, margin=margin,
                                            weight=None if w is None else _convert(w), reduction=reduction)
    g = torch.randn(lt.shape, dtype=lt.dtype)
    lt.backward(g)
    lm.backward(_convert(g))
    assert _bits_equal(lt, lm)
    assert _bits_equal(x.grad, xm.grad)


@pytest.fixture(scope="module")
def sweep():
    torch_or_skip()
    import moduleinfo_sweep
    return moduleinfo_sweep


@pytest.mark.parametrize("name", ["ReflectionPad1d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad3d"])
def test_module_inputs_of_the_other_pads_match(sweep, name):
    # (the 2-D pads, Softmax, Softmin, SoftMarginLoss and MultiMarginLoss run in test_parity_moduleinfo.py)
    failures = []
    for dtype in ("float64", "float32"):
        inputs = sweep.module_inputs(sweep.module_info(name), dtype, True)
        for index in range(len(inputs)):
            failures += [f"#{index} {dtype}: {s}" for s in sweep.run_case(name, index, dtype, True, inputs=inputs)]
    assert failures == []


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(7, 9), (30, 11), (5,)])
def test_multilabel_margin_loss_rows_rounded_before_their_sum(dtype, reduction, shape):
    # PyTorch's inner loop adds a row's terms in double but returns them in the input's dtype; the rows are
    # then added in double
    torch = torch_or_skip()
    torch.manual_seed(shape[-1])
    for _ in range(3):
        x = (torch.randn(shape, dtype=getattr(torch, dtype)) * 0.7).requires_grad_()
        t = torch.randint(-1, shape[-1], shape)
        xm = _convert(x)
        lt = torch.nn.functional.multilabel_margin_loss(x, t, reduction=reduction)
        lm = mg.nn.functional.multilabel_margin_loss(xm, _convert(t), reduction=reduction)
        g = torch.randn(lt.shape, dtype=lt.dtype)
        lt.backward(g)
        lm.backward(_convert(g))
        assert _bits_equal(lt, lm)
        assert _bits_equal(x.grad, xm.grad)
