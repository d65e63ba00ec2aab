"""PyTorch's docstring examples of torch.nn, nn.functional, optim, distributions, func ... run with torch and with
minigrad must print the same (tests/doc_examples.py, MORE_NAMESPACES); plus the argument errors of the C++-bound
namespaces torch.linalg, torch.fft and torch.special, and focused tests for the fixes the sweep led to.
"""
from __future__ import annotations

import warnings

import pytest
from parity import same_as_torch

torch = pytest.importorskip("torch", reason="PyTorch not installed: parity test skipped")

import doc_examples  # noqa: E402  (tests/doc_examples.py: needs torch)

import minigrad  # noqa: E402

_CHUNK = 40  # names per test: a failure stays readable, a chunk stays a few seconds

# Examples building inputs of 10^6..10^8 elements (nn.Conv3d's randn(20, 16, 10, 50, 100), a full nn.Transformer):
# a second or more each, up to a minute on a shared machine. They match; sweep them by hand:
# ``python tests/doc_examples.py torch.nn torch.nn.functional``.
_SLOW = frozenset({
    "torch.nn.ReplicationPad3d", "torch.nn.LPPool3d", "torch.nn.ConvTranspose3d", "torch.nn.Transformer",
    "torch.nn.CircularPad3d", "torch.nn.Conv3d", "torch.nn.MaxPool3d", "torch.nn.TransformerDecoder",
    "torch.nn.BatchNorm3d", "torch.nn.AvgPool3d", "torch.nn.InstanceNorm3d", "torch.nn.MaxUnpool3d",
    "torch.nn.functional.fractional_max_pool3d", "torch.nn.functional.fractional_max_pool3d_with_indices",
    "torch.nn.TransformerEncoder", "torch.nn.TransformerDecoderLayer", "torch.nn.ConvTranspose2d",
    "torch.nn.AdaptiveAvgPool1d", "torch.nn.Bilinear", "torch.nn.TransformerEncoderLayer",
    "torch.nn.FractionalMaxPool3d",
})


def _chunks():
    for namespace in doc_examples.MORE_NAMESPACES:
        names = [n for n in doc_examples.names_in(namespace) if n not in _SLOW]
        for start in range(0, len(names), _CHUNK):
            yield pytest.param(names[start:start + _CHUNK], id=f"{namespace}[{start}]")


@pytest.mark.parametrize("paths", list(_chunks()))
def test_doc_examples_match_torch(paths):
    results = doc_examples.sweep(paths)
    differing = [r for r in results if r.status == "differ"]
    assert not differing, doc_examples.report(differing)


def test_the_sweep_compares_many_names():
    """Not vacuous: the module classes, functions, distributions ... are found and most of them compared."""
    names = {ns: doc_examples.names_in(ns) for ns in ("torch.nn", "torch.distributions", "torch.nn.init")}
    assert len(names["torch.nn"]) > 120 and len(names["torch.distributions"]) > 30
    results = doc_examples.sweep(names["torch.nn.init"] + names["torch.distributions"][:10])
    assert sum(r.status == "equal" for r in results) >= 18, doc_examples.report(results, verbose=True)


def test_optimizer_examples_run_with_a_model_and_training_loop():
    """The lr_scheduler / optimizer examples PyTorch skips for want of ``model``, ``optimizer``, ``train(...)``
    run with the harness's (a small model trained on a fixed batch) and end printing the lr and the weights."""
    for path in ("torch.optim.lr_scheduler.ReduceLROnPlateau", "torch.optim.lr_scheduler.SequentialLR",
                 "torch.optim.SGD", "torch.optim.swa_utils.AveragedModel", "torch.nn.Module.parameters"):
        result = doc_examples.compare(path)
        assert result.status == "equal", doc_examples.report([result], verbose=True)
    setup, probe = doc_examples._FIXTURES["torch.optim"]
    exs = doc_examples.examples(setup) + doc_examples.examples(">>> for _ in range(3): train()\n")
    records = doc_examples.run(torch, exs + doc_examples.examples(probe))
    assert records[-2].output.startswith("[0.05] ") and records[-1].error is None


def test_names_in_skips_what_a_module_imports():
    """typing.TypedDict in lr_scheduler, enum.Enum in parametrizations, the distribution classes kl imports:
    swept where they are defined, or not at all."""
    assert "torch.optim.lr_scheduler.TypedDict" not in doc_examples.names_in("torch.optim.lr_scheduler")
    assert "torch.nn.utils.parametrizations.Enum" not in doc_examples.names_in("torch.nn.utils.parametrizations")
    assert doc_examples.names_in("torch.distributions.kl") == []
    assert "torch.optim.lr_scheduler.StepLR" in doc_examples.names_in("torch.optim.lr_scheduler")
    assert "torch.distributions.Normal" in doc_examples.names_in("torch.distributions")


def test_distribution_examples_are_not_taken_for_torch_distributed():
    result = doc_examples.compare("torch.distributions.Normal")
    assert result.status == "equal", doc_examples.report([result], verbose=True)


def test_continuation_lines_written_with_prompts_are_joined():
    """``>>> def f(x):`` / ``>>>     return x`` and a call continued without a prompt run as one statement."""
    doc = """
    >>> def f(x):
    >>>     y = x + 1
    >>>     return y
    >>> f(1)
    2
    >>> g = max(1,
            5)
    >>> g
    5
    """
    exs = doc_examples.examples(doc)
    assert [e.source for e in exs] == ["def f(x):\n    y = x + 1\n    return y\n", "f(1)\n",
                                       "g = max(1,\n        5)\n", "g\n"]
    for path in ("torch.func.jacrev", "torch.nn.Unflatten", "torch.nn.Module.apply"):
        result = doc_examples.compare(path)
        assert result.status == "equal", doc_examples.report([result], verbose=True)


def test_function_reprs_compare_by_name():
    a = doc_examples.Record("torch.dot", output="<built-in method dot of type object at 0x7ffb6dccea40>\n")
    b = doc_examples.Record("torch.dot", output="<function dot at 0x7ffb4f9820c0>\n")
    c = doc_examples.Record("torch.dot", output="<function vdot at 0x7ffb4f9820c0>\n")
    assert a.key() == b.key() != c.key()


# ---- the argument errors of torch.linalg, torch.fft, torch.special (minigrad/_native_signatures.py) ------------

def _calls(L):
    t = L.ones(3, 3)
    return [("()", (), {}), ("(t * 8)", (t,) * 8, {}), ("(t, bogus=1)", (t,), {"bogus": 1}), ("('a')", ("a",), {}),
            ("(t, 'a')", (t, "a"), {}), ("(t, t, 'a')", (t, t, "a"), {}), ("(None)", (None,), {}),
            ("([1., 2.])", ([1., 2.],), {}), ("(t, out=1)", (t,), {"out": 1}), ("(t, dim='x')", (t,), {"dim": "x"}),
            ("(t, input=t)", (t,), {"input": t}), ("(x=t)", (), {"x": t}), ("(input=t, n=1)", (), {"input": t, "n": 1})]


def _outcome(f, args, kwargs):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f(*args, **kwargs)
        return "no error"
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("module", ["linalg", "fft", "special"])
def test_argument_errors_match_torch(module):
    """Missing, extra, unknown and mistyped arguments of every function both libraries have: PyTorch's parser
    errors (``linalg_solve_ex() missing 1 required positional arguments: "B"``), word for word."""
    theirs, mine = getattr(torch, module), getattr(minigrad, module)
    differing, compared = [], 0
    for name in sorted(set(dir(theirs)) & set(dir(mine))):
        fn = getattr(theirs, name)
        if name.startswith("_") or not callable(fn) or isinstance(fn, type):
            continue
        for (label, t_args, t_kwargs), (_, m_args, m_kwargs) in zip(_calls(torch), _calls(minigrad)):
            compared += 1
            a, b = _outcome(fn, t_args, t_kwargs), _outcome(getattr(mine, name), m_args, m_kwargs)
            if a != b:
                differing.append(f"{module}.{name}{label}\n  torch:    {a}\n  minigrad: {b}")
    assert compared > 200
    assert not differing, "\n".join(differing[:20])


def test_parsed_functions_take_torchs_keyword_names_and_options():
    same_as_torch("""
A = torch.tensor([[4., 1.], [1., 3.]])
print(torch.linalg.cholesky(input=A), torch.linalg.solve(A=A, B=torch.ones(2)), torch.linalg.det(A=A))
print(torch.fft.fftfreq(4, 0.5, requires_grad=None, pin_memory=False, layout=torch.strided, dtype=torch.float64))
print(torch.fft.rfftfreq(n=5), torch.special.xlogy(2, torch.tensor([1., 2.])))
print(torch.special.zeta(x=torch.tensor(2.), other=1.), torch.fft.fft(x=torch.ones(4)))
print(torch.linalg.vecdot(A, A, axis=0), torch.linalg.vector_norm(A, keepdims=True))
print(torch.linalg.multi_dot([A, A, A]), torch.linalg.norm(A, 'fro'), torch.linalg.norm(A, 2, (0, 1)))
E(lambda: torch.fft.fftfreq(4, pin_memory=True))
E(lambda: torch.fft.fftfreq(4, requires_grad=1))
E(lambda: torch.linalg.multi_dot([A, 1]))
E(lambda: torch.linalg.eig(A, out=1))
E(lambda: torch.linalg.matrix_exp(A, out=A))
E(lambda: torch.special.logsumexp(A, dim=(0, 'a')))
E(lambda: torch.linalg.vector_norm(A, ord='fro'))
E(lambda: torch.fft.fft(A, norm=1))
E(lambda: torch.linalg.solve_ex(A))
E(lambda: torch.linalg.norm(A, dim=0.5))
""")


def test_repeat_interleave_argument_errors():
    same_as_torch("""
t = torch.tensor([1, 2])
E(lambda: t.repeat_interleave())
E(lambda: torch.repeat_interleave())
E(lambda: t.repeat_interleave('a'))
E(lambda: t.repeat_interleave(2, 'x'))
E(lambda: t.repeat_interleave(2, 0, 3, 4))
E(lambda: t.repeat_interleave(2, bogus=1))
E(lambda: torch.repeat_interleave(t, 2.5))
E(lambda: t.repeat_interleave(t, dim=0, output_size='a'))
E(lambda: torch.repeat_interleave(2))
E(lambda: t.repeat_interleave(output_size=3))
E(lambda: torch.repeat_interleave(t, output_size=3, dim=0))
E(lambda: torch.repeat_interleave(t, None, 0))
E(lambda: torch.repeat_interleave(t, 2, output_size=2.0))
print(t.repeat_interleave(2), t.repeat_interleave(t), torch.repeat_interleave(t), t.repeat_interleave(repeats=2, dim=0))
print(torch.repeat_interleave(t, repeats=t, output_size=3), torch.repeat_interleave(t, 2, output_size=4))
print(t.repeat_interleave(torch.tensor(2), 0), torch.repeat_interleave(input=t, repeats=2))
""")


def test_clip_grad_module():
    """``from torch.nn.utils.clip_grad import clip_grad_norm_``: PyTorch's module of the clipping functions."""
    import torch.nn.utils.clip_grad as theirs

    import minigrad.nn.utils.clip_grad as mine
    assert mine.__all__ == theirs.__all__
    norms = []
    for L, module in ((torch, theirs), (minigrad, mine)):
        w = L.nn.Parameter(L.tensor([[3., -4.], [1., 2.]]))
        (w * L.tensor([[1., 2.], [3., 4.]])).sum().backward()
        total = module.clip_grad_norm_([w], 1.0)
        module.clip_grad_value_([w], 0.1)
        norms.append((total.item(), w.grad.tolist()))
    assert norms[0] == norms[1]
