"""The sweep over the derivative table: every case in ``tests/op_cases.py`` gets the same checks.

1. first derivatives against central differences (float64);
2. second derivatives (create_graph, then backward again) against central differences of the first;
3. PyTorch parity where torch is installed: values, gradients, grad_fn name, ``_saved_*`` names;
4. binary elementwise ops on hypothesis-drawn broadcastable shapes;
and a guard: every ``Op`` in ``minigrad.derivatives`` must have a case.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes
from op_cases import CASES, In, OpCase, make_array
from parity import HAVE_TORCH, torch_or_skip

import minigrad
from minigrad import derivatives as D
from minigrad._dispatch import Op

EPS = 1e-6


# ---- running a case ------------------------------------------------------------------------

def _rng(case: OpCase, salt: str = "") -> np.random.Generator:
    return np.random.default_rng(zlib.crc32((case.id + salt).encode()))


def _arrays(case: OpCase, shapes=None, salt="") -> list:
    rng = _rng(case, salt)
    specs = case.inputs if shapes is None else [In(s, spec.domain, spec.grad) for spec, s in zip(case.inputs, shapes)]
    return [make_array(spec, rng) for spec in specs]


def _tensors(T, case: OpCase, arrays, requires_grad=True) -> list:
    out = []
    for spec, a in zip(case.inputs, arrays):
        t = T.from_numpy(a.copy())
        if spec.grad and requires_grad:
            t.requires_grad_(True)
        out.append(t)
    return out


def _diff_positions(case: OpCase) -> list:
    return [i for i, spec in enumerate(case.inputs) if spec.grad]


def _pair(T, out, v: np.ndarray):
    """A real scalar from a (maybe complex) tensor: Σ Re(out)·Re(v) + Im(out)·Im(v)."""
    if out.is_complex():
        return (out.real * T.from_numpy(v.real.copy())).sum() + (out.imag * T.from_numpy(v.imag.copy())).sum()
    return (out * T.from_numpy(np.ascontiguousarray(v.real))).sum()


def _pair_np(g: np.ndarray, u: np.ndarray) -> float:
    return float(np.sum(g.real * u.real) + np.sum(np.imag(g) * np.imag(u)))


def _cotangent(case: OpCase, out_shape, complex_out: bool) -> np.ndarray:
    rng = _rng(case, "v")
    v = rng.uniform(-1, 1, out_shape)
    return np.asarray(v + 1j * rng.uniform(-1, 1, out_shape) if complex_out else v)


def _first_grads(T, case, arrays, v, create_graph=False):
    ts = _tensors(T, case, arrays)
    out = case.fn(T, *ts)
    diff = [ts[i] for i in _diff_positions(case)]
    loss = _pair(T, out, v)
    grads = T.autograd.grad(loss, diff, create_graph=create_graph, allow_unused=True)
    return ts, out, diff, grads


def _numeric_grad(f, arrays, positions) -> list:
    """Central differences of a real function of the arrays; complex entries get dRe + i·dIm."""
    result = []
    for i in positions:
        a = arrays[i]
        g = np.zeros_like(a)
        for k in range(a.size):
            for unit in ((1, 1j) if np.iscomplexobj(a) else (1,)):
                plus = [x.copy() for x in arrays]
                minus = [x.copy() for x in arrays]
                plus[i].reshape(-1)[k] += unit * EPS
                minus[i].reshape(-1)[k] -= unit * EPS
                g.reshape(-1)[k] += unit * (f(plus) - f(minus)) / (2 * EPS)
        result.append(g)
    return result


def _np(t, like):
    return np.zeros_like(like) if t is None else t.detach().numpy(force=True)


def _out_meta(case, arrays):
    with minigrad.no_grad():
        out = case.fn(minigrad, *_tensors(minigrad, case, arrays, requires_grad=False))
    return tuple(out.shape), out.is_complex()


def _graph_names(tensors) -> set:
    seen, names, stack = set(), set(), [t.grad_fn for t in tensors if t is not None and t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.add(type(node).__name__)
        stack.extend(n for n, _ in node.next_functions)
        if hasattr(node, "fn"):  # CopySlices wraps the op's own node
            stack.append(node.fn)
    return names


ids = [c.id for c in CASES]


# ---- 1. first derivatives ---------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=ids)
def test_first_derivatives(case: OpCase):
    arrays = _arrays(case)
    shape, is_complex = _out_meta(case, arrays)
    v = _cotangent(case, shape, is_complex)
    _, out, _, grads = _first_grads(minigrad, case, arrays, v)
    assert type(out.grad_fn).__name__ == case.name

    def loss(arrs):
        with minigrad.no_grad():
            out = case.fn(minigrad, *_tensors(minigrad, case, arrs, False))
            return _pair_np(out.resolve_conj().resolve_neg().numpy(), v)

    positions = _diff_positions(case)
    expected = _numeric_grad(loss, arrays, positions)
    for i, g, e in zip(positions, grads, expected):
        got = _np(g, arrays[i])
        assert got.shape == arrays[i].shape
        np.testing.assert_allclose(got, e, rtol=case.tol, atol=case.tol, err_msg=f"d/d input {i}")


# ---- 2. second derivatives --------------------------------------------------------------------

@pytest.mark.parametrize("case", [c for c in CASES if c.gradgrad], ids=[c.id for c in CASES if c.gradgrad])
def test_second_derivatives(case: OpCase):
    arrays = _arrays(case)
    shape, is_complex = _out_meta(case, arrays)
    v = _cotangent(case, shape, is_complex)
    positions = _diff_positions(case)
    rng = _rng(case, "u")
    us = [np.asarray(rng.uniform(-1, 1, arrays[i].shape) + (1j * rng.uniform(-1, 1, arrays[i].shape)
                                                             if np.iscomplexobj(arrays[i]) else 0))
          for i in positions]

    def loss2(arrs):
        _, _, _, grads = _first_grads(minigrad, case, arrs, v)
        return sum(_pair_np(_np(g, arrs[i]), u) for i, g, u in zip(positions, grads, us))

    _, _, diff, grads = _first_grads(minigrad, case, arrays, v, create_graph=True)
    terms = [_pair(minigrad, g, u) for g, u in zip(grads, us) if g is not None]
    total = sum(terms[1:], terms[0]) if terms else None
    if total is not None and total.requires_grad:
        second = minigrad.autograd.grad(total, diff, allow_unused=True)
    else:
        second = [None] * len(diff)
    expected = _numeric_grad(loss2, arrays, positions)
    for i, g, e in zip(positions, second, expected):
        np.testing.assert_allclose(_np(g, arrays[i]), e, rtol=10 * case.tol, atol=10 * case.tol,
                                   err_msg=f"d²/d input {i}")


@pytest.mark.parametrize("case", [c for c in CASES if c.gradgrad], ids=[c.id for c in CASES if c.gradgrad])
def test_grad_of_grad_wrt_cotangent(case: OpCase):
    """d/dv <vjp(v), u> is the forward derivative J·u (gradgradcheck's other half); it runs the helper ops."""
    arrays = _arrays(case)
    shape, is_complex = _out_meta(case, arrays)
    positions = _diff_positions(case)
    rng = _rng(case, "u")
    us = [np.asarray(rng.uniform(-1, 1, arrays[i].shape)) for i in positions]
    v = minigrad.from_numpy(_cotangent(case, shape, is_complex)).requires_grad_(True)
    ts = _tensors(minigrad, case, arrays)
    out = case.fn(minigrad, *ts)
    grads = minigrad.autograd.grad(out, [ts[i] for i in positions], grad_outputs=v, create_graph=True,
                                   allow_unused=True)
    missing = set(case.covers) - _graph_names(list(grads) + [out])
    assert not missing, f"double backward of {case.id} did not run {sorted(missing)}"
    if is_complex or any(np.iscomplexobj(a) for a in arrays):
        return  # the real pairing below is the whole story only for real tensors
    terms = [(g * minigrad.from_numpy(u)).sum() for g, u in zip(grads, us) if g is not None]
    if not terms or not sum(terms[1:], terms[0]).requires_grad:
        jvp = np.zeros(shape)
    else:
        (jvp,) = minigrad.autograd.grad(sum(terms[1:], terms[0]), [v], allow_unused=True)
        jvp = _np(jvp, np.zeros(shape))

    def f(step):
        arrs = [a.copy() for a in arrays]
        for i, u in zip(positions, us):
            arrs[i] = np.asarray(arrs[i] + step * u)
        with minigrad.no_grad():
            return case.fn(minigrad, *_tensors(minigrad, case, arrs, False)).resolve_conj().resolve_neg().numpy()

    np.testing.assert_allclose(jvp, (f(EPS) - f(-EPS)) / (2 * EPS), rtol=case.tol, atol=case.tol)


# ---- 3. PyTorch parity ----------------------------------------------------------------------

def _saved_names(node) -> set:
    return {a for a in dir(node) if a.startswith("_saved_")}


@pytest.mark.parametrize("case", [c for c in CASES if c.parity], ids=[c.id for c in CASES if c.parity])
def test_torch_parity(case: OpCase):
    torch = torch_or_skip()
    arrays = _arrays(case)
    shape, is_complex = _out_meta(case, arrays)
    v = _cotangent(case, shape, is_complex)
    _, out, _, grads = _first_grads(minigrad, case, arrays, v)
    _, tout, _, tgrads = _first_grads(torch, case, arrays, v)
    np.testing.assert_allclose(_np(out, None), _np(tout, None), rtol=1e-10, atol=1e-12)
    assert out.dtype.name == str(tout.dtype).replace("torch.", "")
    for i, g, tg in zip(_diff_positions(case), grads, tgrads):
        np.testing.assert_allclose(_np(g, arrays[i]), _np(tg, arrays[i]), rtol=1e-9, atol=1e-12)
    assert type(out.grad_fn).__name__ == type(tout.grad_fn).__name__
    expected = set(case.saved) if case.saved is not None else _saved_names(tout.grad_fn)
    assert _saved_names(out.grad_fn) == expected


# ---- 4. broadcasting (hypothesis) ---------------------------------------------------------------

BINARY = [c for c in CASES if c.binary]


@pytest.mark.parametrize("case", BINARY, ids=[c.id for c in BINARY])
@settings(max_examples=12, deadline=None)
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3),
       salt=st.integers(0, 1000))
def test_broadcasting(case: OpCase, shapes, salt):
    arrays = _arrays(case, shapes.input_shapes, salt=str(salt))
    shape, is_complex = _out_meta(case, arrays)
    assert shape == shapes.result_shape
    v = _cotangent(case, shape, is_complex)
    _, out, _, grads = _first_grads(minigrad, case, arrays, v)
    for a, g in zip(arrays, grads):
        assert _np(g, a).shape == a.shape

    def loss(arrs):
        with minigrad.no_grad():
            out = case.fn(minigrad, *_tensors(minigrad, case, arrs, False))
            return _pair_np(out.resolve_conj().resolve_neg().numpy(), v)

    for a, g, e in zip(arrays, grads, _numeric_grad(loss, arrays, [0, 1])):
        np.testing.assert_allclose(_np(g, a), e, rtol=case.tol, atol=case.tol)
    if HAVE_TORCH:
        import torch
        _, tout, _, tgrads = _first_grads(torch, case, arrays, v)
        np.testing.assert_allclose(_np(out, None), _np(tout, None), rtol=1e-10, atol=1e-12)
        for a, g, tg in zip(arrays, grads, tgrads):
            np.testing.assert_allclose(_np(g, a), _np(tg, a), rtol=1e-9, atol=1e-12)


# ---- the guard: no op without a case ------------------------------------------------------------

def test_every_table_op_has_a_case():
    ops = sorted({v.node_name for v in vars(D).values() if isinstance(v, Op)})
    covered = {c.name for c in CASES} | {n for c in CASES for n in c.covers}
    missing = [n for n in ops if n not in covered]
    assert not missing, f"ops without a case in tests/op_cases.py: {missing}"


def test_cases_name_real_nodes():
    """A case's name must be a node some table op (or PyTorch) really produces: catch typos."""
    names = {v.node_name for v in vars(D).values() if isinstance(v, Op)}
    assert [c.id for c in CASES if c.name not in names] == []
