"""Forward-mode AD, session 16 (tests/opinfo_fwdad.py leftovers): each test compares minigrad with the installed
PyTorch live, bit for bit where the sweep now matches (tangents, errors, backward through the tangents).
"""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import minigrad  # noqa: E402

fwdad = pytest.importorskip("opinfo_fwdad")


def _arrays(seed, dtype, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def _bits_equal(a, b):
    """Same shape, same bits (NaNs and signed zeros included)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.tobytes() == b.tobytes(), f"{a.ravel()[:6]} vs {b.ravel()[:6]}"


def _dual_run(lib, fn, primals, tangents, grad_out):
    """fn(*duals) in a dual level; the output's tangent, then backward through it: grads of primals and tangents."""
    fw = lib.autograd.forward_ad
    ps = [lib.tensor(a, requires_grad=True) for a in primals]
    ts = [lib.tensor(a, requires_grad=True) for a in tangents]
    with fw.dual_level():
        out = fn(lib, *[fw.make_dual(p, t) for p, t in zip(ps, ts)])
        tangent = fw.unpack_dual(out).tangent
        tangent.backward(lib.tensor(grad_out))
    return [tangent.detach().numpy()] + [None if v.grad is None else v.grad.numpy() for v in ps + ts]


NORMS = {
    # training batch norm with running statistics (result1/result2 of the kernel), 3-d and 4-d
    "batch_norm": ((4, 3, 5), lambda L, x, w, b: L.nn.functional.batch_norm(
        x, L.zeros(3, dtype=x.dtype), L.ones(3, dtype=x.dtype), w, b, training=True)),
    "batch_norm_4d": ((2, 3, 2, 3), lambda L, x, w, b: L.nn.functional.batch_norm(
        x, None, None, w, b, training=True)),
    "layer_norm": ((4, 3, 5), lambda L, x, w, b: L.nn.functional.layer_norm(x, (5,), w, b)),
    "group_norm": ((4, 6, 5), lambda L, x, w, b: L.nn.functional.group_norm(x, 3, w, b)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(NORMS))
def test_norm_tangents_and_backward_through_them_use_the_saved_statistics(name, dtype):
    # PyTorch's batch_norm_jvp / layer_norm_jvp / group_norm_jvp read the forward's mean and rstd (result1/result2),
    # so the float32 tangents carry the kernel's statistics' bits; backward through the tangent reaches the input
    # directly (batch/layer norm drop their statistics' gradients) or also through them (group norm)
    shape, fn = NORMS[name]
    pshape = (shape[-1],) if name == "layer_norm" else (shape[1],)
    x, t, g = _arrays(1, dtype, shape, shape, shape)
    w, wt, b, bt = _arrays(2, dtype, pshape, pshape, pshape, pshape)
    theirs = _dual_run(torch, fn, [x, w, b], [t, wt, bt], g)
    mine = _dual_run(minigrad, fn, [x, w, b], [t, wt, bt], g)
    for a, c in zip(mine, theirs):
        assert (a is None) == (c is None)
        if a is not None:
            _bits_equal(a, c)


def test_group_norm_sweep_samples_match_bit_for_bit():
    # the OpInfo samples (weights, biases, eps 0.5, one group or several), values bit-equal
    old = fwdad.RTOL[0]
    fwdad.RTOL[0] = 0
    try:
        n_run, lines = fwdad.sweep_lines("nn.functional.group_norm", "float64", max_samples=4)
    finally:
        fwdad.RTOL[0] = old
    assert n_run == 4 and lines == []


def test_group_norm_gradient_of_only_one_statistic_is_dropped():
    # infinitely_differentiable_native_group_norm_backward adds the statistics' term only when both mean and rstd
    # have a gradient: backward from one of them leaves the input's .grad None
    x_np, = _arrays(3, np.float64, (2, 4, 3))
    got = []
    for lib in (torch, minigrad):
        row = []
        for which in ((1,), (2,), (1, 2)):
            x = lib.tensor(x_np, requires_grad=True)
            out = lib.native_group_norm(x, None, None, 2, 4, 3, 2, 1e-5)
            sum(out[i].sum() for i in which).backward()
            row.append(None if x.grad is None else x.grad.numpy())
        got.append(row)
    for a, c in zip(*got):
        assert (a is None) == (c is None)
        if a is not None:
            _bits_equal(a, c)


def test_eval_batch_norm_tangent_and_dual_running_stats_refused():
    x, t, rm, rv, w, wt = _arrays(4, np.float32, (4, 3), (4, 3), (3,), (3,), (3,), (3,))
    rv = np.abs(rv) + 0.5
    got = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        T = lib.tensor
        with fw.dual_level():
            y = lib.nn.functional.batch_norm(fw.make_dual(T(x), T(t)), T(rm), T(rv), fw.make_dual(T(w), T(wt)),
                                             None, training=False)
            tangent = fw.unpack_dual(y).tangent.numpy()
            try:
                lib.nn.functional.batch_norm(fw.make_dual(T(x), T(t)), fw.make_dual(T(rm), T(t[0])), T(rv),
                                             training=False)
                err = None
            except RuntimeError as e:
                err = str(e)
        got.append((tangent, err))
    _bits_equal(got[1][0], got[0][0])
    assert got[1][1] == got[0][1] and got[0][1] is not None


def test_layer_norm_tangent_signed_zero_follows_which_parameters_have_tangents():
    # a one-element row: the normalized tangent is 0·w = -0. for a negative weight. PyTorch leaves a weight without
    # tangent out (ZeroTensor: -0. stays) but adds a given bias's ZeroTensor in place (-0. + 0 = 0)
    out = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        T = lambda v, lib=lib: lib.tensor([v], dtype=lib.float64)  # noqa: E731
        row = []
        with fw.dual_level():
            x = fw.make_dual(T(0.7), T(1.3))
            for kw in (dict(weight=T(-0.5)), dict(weight=T(-0.5), bias=T(0.2)),
                       dict(weight=fw.make_dual(T(-0.5), T(-0.))), {}):
                row.append(fw.unpack_dual(lib.nn.functional.layer_norm(x, (1,), **kw)).tangent.numpy())
        out.append(row)
    for a, c in zip(*out):
        _bits_equal(a, c)


def test_linear_layer_norm_model_tangents_in_float32():
    # the hunt11 program's model (Conv2d, Linear, LayerNorm, Tanh, Linear with dual parameters): addmm's tangent
    # is PyTorch's three terms added left to right, the layer norm's uses the saved statistics
    outs = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        nn, fw = lib.nn, lib.autograd.forward_ad
        model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 4), nn.LayerNorm(4),
                              nn.Tanh(), nn.Linear(4, 3))
        x = lib.randn(2, 1, 4, 4)
        params = dict(model.named_parameters())
        tangents = {k: lib.rand_like(p) for k, p in params.items()}
        with fw.dual_level():
            out = lib.func.functional_call(model, {k: fw.make_dual(p.detach(), tangents[k])
                                                   for k, p in params.items()}, (x,))
            loss = lib.nn.functional.cross_entropy(out, lib.tensor([0, 2]))
            outs.append([fw.unpack_dual(out).tangent.detach().numpy(), fw.unpack_dual(loss).tangent.numpy()])
    for a, c in zip(*outs):
        _bits_equal(a, c)


@pytest.mark.parametrize("name", ["addmm", "baddbmm", "addmv", "addbmm"])
def test_fused_product_jvp_raises_for_the_last_term_first(name):
    # a float32 primal with float64 tangents: PyTorch's compiled a + b + c evaluates c (primal @ tangent) first,
    # so its dtype error is the one raised
    calls = {"addmm": lambda L, d: L.addmm(d(3, 1), d(3, 4), d(4, 1)),
             "baddbmm": lambda L, d: L.baddbmm(d(1, 3, 1), d(1, 3, 4), d(1, 4, 1)),
             "addmv": lambda L, d: L.addmv(d(3), d(3, 4), d(4)),
             "addbmm": lambda L, d: L.addbmm(d(3, 5), d(2, 3, 4), d(2, 4, 5))}
    msgs = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            def d(*s, lib=lib, fw=fw):
                return fw.make_dual(lib.ones(*s), lib.ones(*s, dtype=lib.float64))
            with pytest.raises(RuntimeError) as info:
                calls[name](lib, d)
        msgs.append(str(info.value))
    assert msgs[1] == msgs[0]


def test_addmm_and_baddbmm_tangents_in_float32():
    got = []
    a = _arrays(5, np.float32, (4,), (4,), (2, 7), (2, 7), (7, 4), (7, 4), (3, 2, 4), (3, 2, 4), (3, 2, 5),
                (3, 2, 5), (3, 5, 4), (3, 5, 4))
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            d = [fw.make_dual(lib.tensor(a[i]), lib.tensor(a[i + 1])) for i in range(0, len(a), 2)]
            got.append([fw.unpack_dual(lib.addmm(d[0], d[1], d[2])).tangent.numpy(),
                        fw.unpack_dual(lib.addmm(d[0], d[1], d[2], beta=0.5, alpha=2.5)).tangent.numpy(),
                        fw.unpack_dual(lib.baddbmm(d[3], d[4], d[5])).tangent.numpy()])
    for x, y in zip(*got):
        _bits_equal(x, y)


INPLACE_JVPS = {
    # PyTorch's formulas write into their temporaries in place: logsumexp_jvp (softmax, log_softmax, cross_entropy,
    # softmin) and logcumsumexp_jvp multiply exp's result by the tangent, norm_jvp(p=1) (vector_norm, renorm)
    # sgn's result; backward through such a tangent then finds that saved result modified
    "logsumexp": lambda L, x: L.logsumexp(x, 1),
    "softmin": lambda L, x: L.nn.functional.softmin(x, 1),
    "cross_entropy": lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, 2, 1])),
    "logcumsumexp": lambda L, x: L.logcumsumexp(x, 1),
    "vector_norm_1": lambda L, x: L.linalg.vector_norm(x, 1, 1),
    "renorm_1": lambda L, x: L.renorm(x, 1, 0, 0.5),
    "vector_norm_2": lambda L, x: L.linalg.vector_norm(x, 2, 1),   # (no in-place write on a saved result)
    # sdpa's math path: _safe_softmax's jvp is safe_logsumexp_jvp (logsumexp_jvp, 0 on all -inf rows)
    "sdpa": lambda L, x: L.nn.functional.scaled_dot_product_attention(
        x[None], x[None] * 2, x[None] - 1, attn_mask=L.tensor([[True, False, True], [False] * 3, [True] * 3])),
}


@pytest.mark.parametrize("name", sorted(INPLACE_JVPS))
def test_backward_through_tangents_written_in_place_raises_as_pytorch(name):
    x_np, t_np = _arrays(6, np.float64, (3, 4), (3, 4))
    got = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        x, t = lib.tensor(x_np, requires_grad=True), lib.tensor(t_np, requires_grad=True)
        with fw.dual_level():
            tangent = fw.unpack_dual(INPLACE_JVPS[name](lib, fw.make_dual(x, t))).tangent
            value = tangent.detach().numpy()
            try:
                tangent.sum().backward()
                err = None
            except RuntimeError as e:
                err = str(e)
        got.append((value, err, None if t.grad is None else t.grad.numpy()))
    np.testing.assert_allclose(got[1][0], got[0][0], rtol=1e-13, atol=1e-15)
    assert got[1][1] == got[0][1]
    if got[0][1] is None:
        np.testing.assert_allclose(got[1][2], got[0][2], rtol=1e-13, atol=1e-15)


def test_softmax_jvp_under_torch_func_takes_the_out_of_place_branch():
    # under torch.func PyTorch's tensors are wrappers (areAnyTensorSubclassLike): its formulas write nothing in
    # place, so the gradient of a jvp's tangent (reverse over forward) works there
    x_np, t_np = _arrays(7, np.float64, (3, 4), (3, 4))
    got = []
    for lib in (torch, minigrad):
        t = lib.tensor(t_np)

        def tangent_sum(a, lib=lib, t=t):
            return lib.func.jvp(lambda b: lib.log_softmax(b, 1), (a,), (t,))[1].sum()
        got.append(lib.func.grad(tangent_sum)(lib.tensor(x_np)).numpy())
    np.testing.assert_allclose(got[1], got[0], rtol=1e-13, atol=1e-15)


def _outcome(fn):
    """('ok', tangent list or None) or (exception type name, message) of fn()."""
    try:
        t = fn()
        return "ok", None if t is None else t.tolist()
    except Exception as e:  # noqa: BLE001 - the error is what we compare
        return type(e).__name__, str(e)


def test_refusals_to_sparse_normal_broadcast_mean_scatter_reduce_prod_in_place():
    got = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        T = lambda a, lib=lib: lib.tensor(a, dtype=lib.float64)  # noqa: E731
        row = []
        with fw.dual_level():
            x = fw.make_dual(T([[1., 0, 3], [0, 5, 6]]), T([[1., 2, 3], [4, 5, 6]]))
            row.append(_outcome(lambda x=x: x.to_sparse()))          # _to_sparse: no forward formula
            row.append(_outcome(lambda x=x: x.to_sparse(1)))
            mean = fw.make_dual(T([1., 2, 3]), T([1., 1, 1]))
            std = T([[1., 2, 3], [4, 5, 6]])
            # normal(Tensor, Tensor)'s tangent zeros_like(mean_t) has mean's size, not the broadcast result's
            row.append(_outcome(lambda fw=fw, lib=lib, mean=mean, std=std: fw.unpack_dual(
                lib.normal(mean, std)).tangent))
            row.append(_outcome(lambda fw=fw, lib=lib, mean=mean, std=std: fw.unpack_dual(
                lib.normal(mean, std[0])).tangent))
            idx = lib.tensor([[0, 1, 0], [1, 1, 2]])
            for reduce in ("prod", "sum", "amax"):
                # in place on a dual self: self_t.copy_(formula), and prod's formula gives no tangent
                y = fw.make_dual(T([[1., 2, 3], [4, 5, 6]]), T([[1., 1, 1], [1, 1, 1]]))
                row.append(_outcome(lambda y=y, r=reduce, fw=fw, T=T, idx=idx: fw.unpack_dual(
                    y.scatter_reduce_(1, idx, T([[7., 8, 9], [1, 2, 3]]), r)).tangent))
        got.append(row)
    assert got[1] == got[0]


def test_tangent_of_a_primal_inside_a_larger_buffer_gets_its_strides():
    # lstsq's solution is the first n rows of its (m, k) column-major result: PyTorch's set_fw_grad copies the
    # tangent into _new_zeros_with_same_feature_meta (the primal's strides, storage size and offset)
    got = []
    a_np, b_np = _arrays(8, np.float64, (4, 3), (4, 2))
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        A, B = lib.tensor(a_np), lib.tensor(b_np)
        with fw.dual_level():
            r = lib.linalg.lstsq(fw.make_dual(A, lib.ones_like(A)), fw.make_dual(B, lib.ones_like(B)))
            p, t = fw.unpack_dual(r.solution)
            got.append((p.stride(), t.stride(), t.untyped_storage().nbytes(), t.numpy().copy()))
    assert got[1][:3] == got[0][:3]
    np.testing.assert_allclose(got[1][3], got[0][3], rtol=1e-12, atol=1e-12)


def test_in_place_write_of_a_tangent_into_a_plain_views_base_is_recorded():
    # F.pad(mode='circular') copies a dual input into a view of a fresh tensor: the fresh tensor's tangent (zeros,
    # then the written region) is PyTorch's CopySlices, so backward through it reaches the input's tangent
    got = []
    x_np, t_np = _arrays(9, np.float64, (1, 2, 3), (1, 2, 3))
    g_np, = _arrays(10, np.float64, (1, 2, 6))
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        x, t = lib.tensor(x_np, requires_grad=True), lib.tensor(t_np, requires_grad=True)
        with fw.dual_level():
            tan = fw.unpack_dual(lib.nn.functional.pad(fw.make_dual(x, t), (1, 2), mode="circular")).tangent
            name = type(tan.grad_fn).__name__
            tan.backward(lib.tensor(g_np))
        got.append((name, tan.detach().numpy(), t.grad.numpy()))
    assert got[1][0] == got[0][0]
    _bits_equal(got[1][1], got[0][1])
    _bits_equal(got[1][2], got[0][2])


def test_in_place_op_resizing_a_dual_self_refuses_the_tangent_write():
    # addbmm_ grows a broadcastable self (1,) to (5, 10); PyTorch's self_t.copy_(new_t) then fails
    got = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        row = []
        for dual_args in (False, True):
            s = lib.ones(1, dtype=lib.float64)
            b1, b2 = lib.ones(3, 5, 4, dtype=lib.float64), lib.ones(3, 4, 10, dtype=lib.float64)
            with fw.dual_level():
                s = fw.make_dual(s, lib.ones_like(s))
                if dual_args:
                    b1, b2 = fw.make_dual(b1, lib.ones_like(b1)), fw.make_dual(b2, lib.ones_like(b2))
                row.append(_outcome(lambda s=s, b1=b1, b2=b2, fw=fw: fw.unpack_dual(s.addbmm_(b1, b2)).tangent))
        got.append(row)
    assert got[1] == got[0]
