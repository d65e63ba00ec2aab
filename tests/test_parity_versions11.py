"""``_version`` of op results and of the gradients formulas produce, swept against PyTorch over tests/op_cases.py.

PyTorch's kernels and backward formulas sometimes fill a fresh tensor in place after making it, and what the
version counter shows then depends on where that write is dispatched:

(a) plain tensors: the kernel's writes into its own result run below autograd: version 0;
(b) tensors requiring grad: the same for the outputs; the gradients a formula fills in place (``zeros`` then
    ``scatter_`` for sort's values, ``index_add_`` for index_select) keep the versions those writes gave them,
    and ``x.grad._version`` shows them (minigrad: _dispatch._GRAD_VERSIONS);
(c) inference tensors used outside inference mode: no input has autograd keys, so the kernel runs with no
    guard and every in-place or ``out=`` call into its (normal) result counts (``abs`` → 1, ``mean`` → 2,
    ``x.max(1)`` → 2; minigrad: _dispatch._INFERENCE_RESULT_VERSIONS).

Every case of ``op_cases.CASES`` runs in the three modes with minigrad and with PyTorch, on the same values;
the versions of every output (and, in mode (b), of every leaf's ``.grad`` after a backward) must agree, except
for the differences listed in KNOWN.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import test_parity_op_fuzz as FZ
from op_cases import CASES, make_array
from parity import same_as_torch, torch_or_skip

import minigrad

# Differences left, by (case id, mode), with why.
_COMPOSITE = "a composite whose kernels' in-place writes minigrad's formulas do not mirror"
KNOWN = {
    # (c) the kernel's path depends on more than the node's arguments
    **{(c, "inf"): "convolution's version depends on the backend PyTorch picks (conv1d 0, conv2d 2, "
                   "transposed 1)" for c in ("ConvolutionBackward0", "ConvolutionBackward0-1d-same",
                                             "ConvolutionBackward0-weight-bias", "ConvolutionBackward0-transposed")},
    **{(c, "inf"): _COMPOSITE for c in ("ViewBackward0-cdist-mm", "ViewBackward0-bilinear", "NormBackward0",
                                        "NormBackward0-p3", "LinalgEigBackward0-eigvals",
                                        "LinalgEigBackward0-eigvals-complex")},
    **{(c, "inf"): "matrix_exp's version depends on the values (the degree its norm picks)"
       for c in ("LinalgMatrixExpBackward0", "LinalgMatrixExpBackward0-complex")},
    # (b) gradients of formulas not in _GRAD_VERSIONS
    ("LinalgEighBackward0-eigvalsh-complex", "grad"): _COMPOSITE,
    ("PackPaddedSequenceBackward0", "grad"): _COMPOSITE,
    **{(c, "grad"): _COMPOSITE for c in (
        "MseLossBackwardBackward0", "MseLossBackwardBackward0-target", "BinaryCrossEntropyBackwardBackward0",
        "BinaryCrossEntropyBackwardBackward0-sum", "LinalgHouseholderProductBackward0",
        "LinalgHouseholderProductBackward0-orgqr-batched", "LinalgHouseholderProductBackward0-complex",
        "OrmqrBackward0", "OrmqrBackward0-right-transpose")},
}


def _tensors(x) -> list:
    if isinstance(x, (tuple, list)):
        return [t for e in x for t in _tensors(e)]
    return [x] if hasattr(x, "_version") else []


def versions(L, case, mode: str):
    """(versions of the outputs, versions of the leaves' gradients) of one case run with library ``L``;
    the exception's type name if it raises."""
    rng = np.random.default_rng(0)
    arrays = [make_array(spec, rng) for spec in case.inputs]

    def build():
        return [L.tensor(a, requires_grad=mode == "grad" and spec.grad and a.dtype.kind in "fc")
                for a, spec in zip(arrays, case.inputs)]

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if mode == "inf":
                with L.inference_mode():
                    inputs = build()
            else:
                inputs = build()
            outs = _tensors(case.fn(L, *inputs))
            seen = [o._version for o in outs]
            grads = []
            if mode == "grad":
                differentiable = [o for o in outs if o.requires_grad]
                if differentiable:
                    sum((o.abs() if o.is_complex() else o).sum() for o in differentiable).backward()
                    grads = [None if t.grad is None else t.grad._version for t in inputs if t.requires_grad]
    except Exception as e:  # noqa: BLE001 (the comparison is of what happens, errors included)
        return type(e).__name__
    return seen, grads


def sweep(mode: str) -> list[str]:
    torch = torch_or_skip()
    found = []
    for case in CASES:
        expected = versions(torch, case, mode)
        if expected == "AttributeError":  # (a case of a minigrad-only helper)
            continue
        got = versions(minigrad, case, mode)
        if got != expected and (case.id, mode) not in KNOWN:
            found.append(f"{case.id} [{mode}]: minigrad {got}, PyTorch {expected}")
    return found


@pytest.mark.parametrize("mode", ["plain", "grad", "inf"])
def test_versions_match_torch(mode):
    assert sweep(mode) == []


def test_known_differences_are_cases():
    ids = {c.id for c in CASES}
    assert [k for k in KNOWN if k[0] not in ids] == []


# ---- (c) over the op fuzz harnesses' cases: every dtype, odd shapes, empty tensors, Python numbers --------------
# Here the check is one-sided: wherever minigrad gives a result made from inference tensors a nonzero version (a
# rule of _INFERENCE_RESULT_VERSIONS fired), PyTorch's must be the same. (Many kernels not in that table also
# write into their results for some dtypes only: logical ops across dtypes, floor of an integer tensor ...)
FUZZ_KNOWN = {
    "fft.": "the FFT kernels write a second time for a transform over a non-last dim, a norm or a resized signal",
    "F.unfold": "im2col of a bool tensor writes twice",
    "Tensor(args)": "Tensor.diff with n=0 of a bool tensor",
    "Tensor.amin": "amin over a dim of an integer tensor: no write",
    "Tensor.repeat": "repeat of an empty tensor to zero rows: no copy",
    "linalg.lu_factor": "lu_factor of empty matrices",
    "sum": "sum(x, keepdim=False) with no dim is PyTorch's TypeError (an argument-parser difference)",
    "prod": "prod(x, keepdim=False) with no dim: likewise",
}


def _inference_build(L, spec):
    if isinstance(spec, FZ.T):
        return L.from_numpy(np.array(spec.data)).to(getattr(L, spec.dtype)).clone()
    if isinstance(spec, (list, tuple)):
        return type(spec)(_inference_build(L, s) for s in spec)
    if isinstance(spec, dict):
        return {k: _inference_build(L, v) for k, v in spec.items()}
    return spec


def _inference_versions(L, call, args, kwargs):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with L.inference_mode():
                args, kwargs = _inference_build(L, args), _inference_build(L, kwargs)
            result = call(L, *args, **kwargs)
            return [None if t.is_inference() else t._version for t in _tensors(result)]
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def test_inference_versions_over_fuzz_cases():
    torch = torch_or_skip()
    import test_parity_op_fuzz2
    import test_parity_op_fuzz3
    import test_parity_op_fuzz4
    found = []
    for ops in (FZ.OPS, test_parity_op_fuzz2.OPS, test_parity_op_fuzz3.OPS, test_parity_op_fuzz4.OPS):
        for name, args, kwargs in FZ.cases(11, 1, ops):
            if name in FUZZ_KNOWN or name.startswith("fft."):
                continue
            got = _inference_versions(minigrad, ops[name][0], args, kwargs)
            if isinstance(got, list) and any(got):
                expected = _inference_versions(torch, ops[name][0], args, kwargs)
                if got != expected:
                    found.append(f"{name}{tuple(args)!r} {kwargs!r}: minigrad {got}, PyTorch {expected}")
    assert found == []


# Arguments the kernels' paths depend on (keepdim's squeeze_, a loss's reduction, which input is a number,
# a normal input among inference ones), dtypes, multi-output results, and gradients with create_graph.
PROGRAMS = {
    "inference_arguments": """
with torch.inference_mode():
    x = torch.randn(3, 4); y = torch.rand(3, 4); c = torch.randn(3, dtype=torch.complex64)
    n = torch.ones(3, dtype=torch.int64); bx = torch.randn(3, 2, 2)
normal = torch.ones(3, 4)
v = lambda r: [t._version for t in r] if isinstance(r, tuple) else r._version
for keepdim in (False, True):
    print(v(x.max(1, keepdim=keepdim)), v(x.min(0, keepdim=keepdim)), v(x.mode(1, keepdim=keepdim)),
          v(torch.aminmax(x, dim=1, keepdim=keepdim)), v(x.sum(1, keepdim=keepdim)), v(x.mean(1, keepdim=keepdim)))
print(v(x.max()), v(torch.aminmax(x)), v(x.var()), v(x.var(1)), v(x.std()), v(n.sum()), v(x.sum(dtype=torch.float64)))
print(v(x.sort(1)), v(x.topk(2)), v(x.kthvalue(2, 1)), v(x.cummax(1)), v(x.median(1)), v(x.frexp()))
print(v(x.abs()), v(c.abs()), v(x.angle()), v(c.angle()), v(torch.pow(2, x)), v(x ** 2), v(x + 1), v(x.exp()))
for r in ("none", "mean", "sum"):
    print(v(torch.nn.functional.mse_loss(x, y, reduction=r)), v(torch.nn.functional.smooth_l1_loss(x, y, reduction=r)),
          v(torch.nn.functional.binary_cross_entropy(y, y, reduction=r)))
print(v(torch.linalg.qr(x)), v(torch.linalg.qr(x.t())), v(torch.linalg.lu_factor_ex(x)))
print(v(torch.block_diag(x)), v(torch.block_diag(x, y, x)), v(torch.addbmm(x[:2, :2], bx, bx)))
print(v(x.masked_fill(y > 0.5, 1.0)), v(x.masked_fill(normal > 0, 1.0)), v(x.mean(1) + normal[0, :3]))
with torch.inference_mode():
    print(x.abs().is_inference(), x.sum().is_inference())
""",
    "gradient_versions": """
F = torch.nn.functional
x = torch.randn(3, 4, requires_grad=True)
for f in (lambda t: t.max(1).values, lambda t: t.min(1, keepdim=True).values, lambda t: t.sort(1).values,
          lambda t: t.topk(2).values, lambda t: t.kthvalue(2, 1).values, lambda t: t.median(1).values,
          lambda t: t.cummax(1).values, lambda t: t.index_select(0, torch.tensor([2, 0, 2])), lambda t: t.trace()):
    x.grad = None; f(x).sum().backward(); print(x.grad._version, end=" ")
    f(x).sum().backward(); print(x.grad._version, end=" ")
    g, = torch.autograd.grad(f(x).sum(), x); print(g._version, end=" ")
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True); print(g._version)
y = torch.rand(3, 4, requires_grad=True); p = torch.rand(3, 4, requires_grad=True); w = torch.rand(4)
for r in ("none", "mean", "sum"):
    for kw in ({}, {"pos_weight": w}):
        y.grad = p.grad = None
        F.binary_cross_entropy_with_logits(y, p, reduction=r, **kw).sum().backward()
        print(r, y.grad._version, p.grad._version, end="; ")
    y.grad = p.grad = None; F.binary_cross_entropy(p, y, reduction=r).sum().backward()
    print(p.grad._version, y.grad._version)
for f in (torch.copysign, torch.nextafter):
    a = torch.rand(2, 3, requires_grad=True); b = torch.rand(3, requires_grad=True)
    f(a, b).sum().backward(); print(a.grad._version, b.grad._version)
    print([g._version for g in torch.autograd.grad(f(a, b).sum(), [a, b], create_graph=True)])
""",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_torch(name):
    same_as_torch(PROGRAMS[name])
