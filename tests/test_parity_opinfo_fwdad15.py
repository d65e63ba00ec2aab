"""Forward-mode AD on PyTorch's OpInfo samples (tests/opinfo_fwdad.py), and the fixes that sweep led to.

Each test compares minigrad with the installed PyTorch live: tangents (values, dtype, shape, strides, None-ness),
forward-AD errors, and the gradients of backward through the tangents (reverse over forward).
"""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import minigrad  # noqa: E402

fwdad = pytest.importorskip("opinfo_fwdad")

# A curated set that matches PyTorch on its first samples (float64 and complex128, every check of the sweep):
# elementwise, in-place variants, reductions, losses with in-place clamps, pooling, norms, linear algebra.
CLEAN = [
    ("mul", "float64", 4), ("abs", "complex128", None), ("clamp_min", "float64", 4),
    ("nn.functional.margin_ranking_loss", "float64", 8),
    ("linalg.det", "float64", 4), ("linalg.slogdet", "float64", 4),
    ("lu", "float64", 3), ("lu_unpack", "complex128", 3),
    ("nn.functional.max_unpool2d", "float64", 1), ("atanh", "float64", None),
]


@pytest.mark.parametrize("label,dtype,n", CLEAN, ids=[f"{a}-{b}" for a, b, _ in CLEAN])
def test_opinfo_samples_forward_ad_match_pytorch(label, dtype, n):
    n_run, lines = fwdad.sweep_lines(label, dtype, max_samples=n)
    assert n_run > 0
    assert lines == []


def _both(fn):
    """fn(lib) for torch and minigrad; the results as NumPy arrays (None stays None)."""
    out = []
    for lib in (torch, minigrad):
        r = fn(lib)
        out.append([None if x is None else np.array(x.detach().resolve_conj().numpy()) if hasattr(x, "detach")
                    else x for x in r])
    return out


def _assert_same(a, b, rtol=1e-12):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert (x is None) == (y is None)
        if x is not None and not isinstance(x, np.ndarray):
            assert x == y
        elif x is not None:
            np.testing.assert_allclose(x, y, rtol=rtol, atol=rtol)


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def test_inplace_op_on_a_dual_records_the_tangent_write():
    # clamp_min_ on a dual tensor whose tangent has a history: PyTorch writes the new tangent with copy_
    # (recorded), so backward through the tangent sees the clamp's mask
    def run(lib):
        fw = lib.autograd.forward_ad
        p = lib.tensor(_data(0, 5))
        tan = lib.tensor(_data(1, 5), requires_grad=True)
        with fw.dual_level():
            x = fw.make_dual(p, tan * 1)
            x.clamp_min_(0)
            t = fw.unpack_dual(x).tangent
            t.sum().backward()
        return [t, tan.grad, type(t.grad_fn).__name__]
    _assert_same(*_both(run))


def test_inplace_op_on_a_dual_whose_tangent_is_a_leaf_requiring_grad_is_refused():
    msgs = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        tan = lib.ones(3, dtype=lib.float64, requires_grad=True)
        with fw.dual_level():
            x = fw.make_dual(lib.zeros(3, dtype=lib.float64), tan)
            with pytest.raises(RuntimeError) as e:
                x.mul_(2)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


def test_complex_abs_tangent_keeps_its_history_and_layout():
    def run(lib):
        fw = lib.autograd.forward_ad
        p = lib.tensor(_data(2, 3, 4) + 1j * _data(3, 3, 4))
        tan = lib.tensor(_data(4, 3, 4) + 1j * _data(5, 3, 4), requires_grad=True)
        with fw.dual_level():
            t = fw.unpack_dual(lib.abs(fw.make_dual(p, tan))).tangent
            assert t.requires_grad
            stride = t.stride()
            (t * t).sum().backward()
        return [t, tan.grad, stride]
    _assert_same(*_both(run))


def test_forward_ad_refusal_names_the_inplace_overload():
    msgs = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor([0.1, 0.2], dtype=lib.float64), lib.tensor([1.0, 1.0], dtype=lib.float64))
            row = []
            i = lib.tensor([0, 0])
            for f in (lambda x=x: x.clone().atanh_(),
                      lambda x=x, i=i: x.clone().index_reduce(0, i, x, "amax"),
                      lambda x=x, i=i: x.clone().index_reduce_(0, i, x, "amax")):
                with pytest.raises(NotImplementedError) as e:
                    f()
                row.append(str(e.value))
        msgs.append(row)
    assert msgs[0] == msgs[1]


def test_output_tangent_is_laid_out_as_its_primal():
    # PyTorch's set_fw_grad copies a tangent into its primal's layout (the LU factor and inverse are
    # column-major): same strides, and the copy is recorded for backward through the tangent
    def run(lib):
        fw = lib.autograd.forward_ad
        a = lib.tensor(_data(6, 4, 4) + 4 * np.eye(4), requires_grad=True)
        tan = lib.tensor(_data(7, 4, 4), requires_grad=True)
        with fw.dual_level():
            lu, piv = lib.linalg.lu_factor(fw.make_dual(a, tan))
            inv, _ = lib.linalg.inv_ex(fw.make_dual(a, tan))
            t1, t2 = fw.unpack_dual(lu).tangent, fw.unpack_dual(inv).tangent
            strides = (t1.stride(), t2.stride())
            (t1.sum() + t2.sum()).backward()
        return [t1, t2, strides, tan.grad]
    _assert_same(*_both(run))


def test_make_dual_with_a_differently_laid_out_tangent_requiring_grad_keeps_its_history():
    def run(lib):
        fw = lib.autograd.forward_ad
        p = lib.tensor(_data(8, 3, 3)).mT     # column-major primal
        tan = lib.tensor(_data(9, 3, 3), requires_grad=True)   # row-major tangent: copied
        with fw.dual_level():
            t = fw.unpack_dual(fw.make_dual(p, tan).exp()).tangent
            t.sum().backward()
        return [t, tan.grad]
    _assert_same(*_both(run))


def test_backward_through_solve_det_slogdet_tangents_treats_the_lu_as_a_constant():
    # PyTorch's jvps apply A⁻¹ through the forward's LU, a non-differentiable output
    def run(lib):
        fw = lib.autograd.forward_ad
        out = []
        for f in (lambda a: lib.linalg.solve(a, lib.tensor(_data(18, 3, 2))), lambda a: lib.linalg.det(a),
                  lambda a: lib.linalg.slogdet(a)[1], lambda a: lib.logdet(a @ a.mT)):
            A = lib.tensor(_data(19, 3, 3) + 3 * np.eye(3), requires_grad=True)
            with fw.dual_level():
                t = fw.unpack_dual(f(fw.make_dual(A, lib.tensor(_data(20, 3, 3))))).tangent
                if t.requires_grad:   # (slogdet's tangent is computed from the LU alone: no graph to A)
                    t.sum().backward()
            out += [t, t.requires_grad, A.grad]
        return out
    _assert_same(*_both(run), rtol=1e-10)
