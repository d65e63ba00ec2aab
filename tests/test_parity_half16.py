"""Session 16 (H): float16/bfloat16 leftovers of session 15 and nn modules in half precision.

The focused tests check one fix each, live against torch (tests/opinfo_sweep.py --dtype float16|bfloat16 and
tests/moduleinfo_sweep.py --dtype float16|bfloat16 find such differences on PyTorch's own samples).
"""
from __future__ import annotations

from parity import ERROR_PRELUDE, same_as_torch, torch_or_skip

PRELUDE = ERROR_PRELUDE + """
def B(t):
    return t.detach().float().tolist()
"""


def test_arange_half_and_threads_as_pytorchs_kernel():
    """arange computes start + step·i in the accumulate type (float for float16/bfloat16, double for float32),
    runs of two 16-lane vectors from a base rounded to the dtype, the rest one by one; above 32768 elements each
    thread fills its own piece (its own runs and tail). Past 2048 (float16) / 256 (bfloat16) the bits differ."""
    same_as_torch("""
threads = torch.get_num_threads()
for n_threads in (1, 2):
    torch.set_num_threads(n_threads)
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        for args in ((0, 4100, 1.0003), (5000, -5000, -7.3), (1, 2100, 1.0000001), (0.1, 300.3, 0.7),
                     (-2616.2159, -635.4886, 1.1482477), (2047, 2049.5, 0.25), (0.1, 37000.47, 0.37)):
            t = torch.arange(*args, dtype=dtype)
            print(n_threads, dtype, args, t.shape, B(t[2040:2080]), hash(tuple(B(t))))   # (every value)
torch.set_num_threads(threads)
print(B(torch.arange(60000, 70000, 3.3, dtype=torch.float16)[-5:]))
""", PRELUDE)


def test_i0e_half_scalar_path_steps_in_the_half_type():
    """special.i0e of float16/bfloat16: the vector loop (blocks of 32) converts to float, the scalar loop (the
    tail, tensors under 32 elements, strided inputs) runs calc_i0e in the half type (each step rounded to it);
    the gradient reads that result."""
    same_as_torch("""
x = torch.linspace(-12, 12, 201)
for dtype in (torch.float16, torch.bfloat16):
    for v in (x[:5], x[:31], x[:97], x[::2], x[:200].view(2, 100).t()):
        h = v.to(dtype).requires_grad_()
        y = torch.special.i0e(h)
        y.backward(torch.ones_like(y))
        print(dtype, B(y), B(h.grad))
    print(B(torch.special.i0e(x.to(dtype)[::3])), B(torch.special.i0e(x.to(dtype)).view(-1)[::3]))
""", PRELUDE)


def test_matrix_exp_half_reads_double_constants_as_half_bits():
    """linalg.matrix_exp of float16/bfloat16 runs mexp_impl<double>: the double thetas pick the degree, and the
    polynomial coefficients (from_blob of the double arrays with the matrix's dtype) are the doubles' bytes read
    as 2-byte numbers, so PyTorch's results are mostly NaN/inf garbage: minigrad reproduces it (values and the
    backward of float16), and keeps 1x1 (exp) and degree 1/2 (tiny norms) right."""
    same_as_torch("""
g = torch.Generator().manual_seed(0)
for n, batch in ((2, ()), (3, ()), (5, ()), (3, (2,))):
    a = torch.randn(*batch, n, n, generator=g)
    for scale in (1e-9, 1e-5, 0.01, 0.2, 1.0, 3.0):
        for dtype in (torch.float16, torch.bfloat16):
            x = (a * scale).to(dtype).requires_grad_()
            y = torch.linalg.matrix_exp(x)
            if dtype == torch.float16 or n < 4:
                y.backward(torch.ones_like(y))
                print(n, scale, dtype, B(y), B(x.grad))
            else:
                print(n, scale, dtype, B(y))
print(B(torch.linalg.matrix_exp(torch.tensor([[0.5]], dtype=torch.float16))), B(torch.eye(2).bfloat16().matrix_exp()))
""", PRELUDE)


# Rows whose float32 sum sits on a half-type rounding tie (big + 1 with tiny terms of a quarter float32 ulp):
# the order in which a kernel adds them decides the rounding, so these show a summation order bit for bit.
ORDER_PRELUDE = PRELUDE + """
def probe(rows, k, big, dtype):
    j = torch.arange(k).float()
    r = torch.arange(rows).float()[:, None]
    tiny = ((j * j + r) % 5 == 0).float() * (((j + r) % 3) - 1) * (big * 2.0 ** -25)
    a = torch.where(j == (7 * r) % k, torch.full_like(tiny, big), tiny)
    a = torch.where(j == (7 * r + 3) % k, torch.ones_like(tiny), a)
    return a.to(dtype)
"""


def test_addmv_mv_dot_half_as_pytorchs_gemv_kernels():
    """float16/bfloat16 addmv/mv/dot: gemv 't' with α = 1 and a contiguous vector (bfloat16: β = 0 too) and dot of
    contiguous vectors are the float32 dot product in 8-lane vectors (blocks of 64, pairwise reductions, a
    16-wide tail, then one by one); other 't' calls sum in order in float and add (β·y in the half type);
    gemv 'n' (a column-major matrix) sums (α·x)·column in float and adds that sum rounded to the half type."""
    same_as_torch("""
for dtype, big in ((torch.float16, 2048.0), (torch.bfloat16, 256.0)):
    for k in (5, 17, 33, 64, 100, 130):
        a = probe(12, k, big, dtype)
        x = torch.ones(k, dtype=dtype)
        xs = torch.stack([x, x], 1)[:, 0]
        bias = (torch.arange(12.) % 5 - 2).to(dtype)
        for mat, vec in ((a, x), (a.t().contiguous().t(), x), (a, xs)):
            for beta, alpha in ((0, 1), (1, 1), (0.5, 2), (0, 0.3), (2, -1.5)):
                print(dtype, k, beta, alpha, B(torch.addmv(bias, mat, vec, beta=beta, alpha=alpha)))
        print(B(torch.mv(a, x)), [B(torch.dot(a[i], x)) for i in range(3)], B(torch.dot(a[0], xs)))
""", ORDER_PRELUDE)


def test_prod_half_multiplies_in_the_half_type():
    """prod of float16/bfloat16 rounds every multiplication to the type (NumPy's half prod keeps a float32
    running product): along a contiguous dim four 16-lane vectors take blocks of 64, then the lanes in order,
    then the rest one by one; down an outer dim each output is a running product. The gradient reads it."""
    same_as_torch("""
g = torch.Generator().manual_seed(0)
for dtype in (torch.float16, torch.bfloat16):
    for shape in ((7, 5), (3, 70), (4, 200), (130, 3), (2, 65, 3), (1000,)):
        x = (1 + 0.05 * torch.randn(*shape, generator=g)).to(dtype).requires_grad_()
        outs = [x.prod(), x.t().prod() if x.dim() == 2 else x.prod(-1)] + [x.prod(d, keepdim=d == 0)
                                                                           for d in range(x.dim())]
        print(dtype, shape, [B(o) for o in outs])
        outs[-1].sum().backward()
        print(B(x.grad))
""", PRELUDE)


def test_adaptive_avg_pool_backward_bfloat16_adds_in_its_type():
    """adaptive_avg_pool1d/2d backward of bfloat16 adds each output's share (grad / height / width) to its
    window in bfloat16 itself, like float16 (it went through a float32 matrix product): overlapping windows
    round as PyTorch's."""
    same_as_torch("""
g = torch.Generator().manual_seed(0)
for dtype in (torch.bfloat16, torch.float16):
    for shape, out in (((2, 3, 7), 4), ((1, 2, 9, 7), (4, 3)), ((1, 2, 5, 5), (2, 2))):
        x = torch.randn(*shape, generator=g).to(dtype).requires_grad_()
        f = torch.nn.functional.adaptive_avg_pool1d if len(shape) == 3 else torch.nn.functional.adaptive_avg_pool2d
        y = f(x, out)
        y.backward(torch.randn(y.shape, generator=g).to(dtype))
        print(dtype, B(y), B(x.grad))
""", PRELUDE)


def test_batch_norm_bfloat16_running_stats_in_bfloat16_arithmetic():
    """A bfloat16 BatchNorm (bfloat16 parameters) in training updates its running statistics with c10::BFloat16
    operations, each rounded (momentum too): m·mean + (1 - m)·running_mean, and the variance's
    m·(var_sum / (n - 1)) in float plus (1 - m)·running_var rounded to bfloat16. float16 stays as it was."""
    same_as_torch("""
g = torch.Generator().manual_seed(0)
for dtype in (torch.bfloat16, torch.float16):
    for i, shape in enumerate(((4, 3), (4, 3, 5), (2, 3, 4, 4), (8, 5, 7), (16, 4))):
        x = (torch.randn(*shape, generator=g) * 3 + 1).to(dtype)
        bn = (torch.nn.BatchNorm1d if len(shape) < 4 else torch.nn.BatchNorm2d)(shape[1], momentum=(0.1, 0.3)[i % 2])
        bn = bn.to(dtype)
        with torch.no_grad():
            bn.running_mean.copy_(torch.randn(shape[1], generator=g))
            bn.running_var.copy_(torch.rand(shape[1], generator=g) + 0.5)
        y = bn(x)
        print(dtype, B(y), B(bn.running_mean), B(bn.running_var))
""", PRELUDE)


def test_layer_norm_half_without_bias_backward():
    """LayerNorm(bias=False) in float16/bfloat16: the backward's half-precision parameter gradients only reshape
    the parameters that exist (the absent bias raised "cannot reshape array of size 20 into shape (0,)")."""
    same_as_torch("""
g = torch.Generator().manual_seed(0)
for dtype in (torch.float16, torch.bfloat16):
    ln = torch.nn.LayerNorm([2, 5], eps=1e-3, bias=False).to(dtype)
    x = torch.randn(4, 2, 2, 5, generator=g).to(dtype).requires_grad_()
    y = ln(x)
    y.backward(torch.randn(y.shape, generator=g).to(dtype))
    print(dtype, [n for n, _ in ln.named_parameters()], B(ln.weight.grad))
""", PRELUDE)


# (module, dtype) pairs whose ModuleInfo inputs (train mode, the first two) match PyTorch in half precision
# (tests/moduleinfo_sweep.py --dtype float16|bfloat16 runs them all by hand)
_HALF_MODULES = [
    ("Linear", "float16"), ("Linear", "bfloat16"), ("Conv2d", "bfloat16"), ("LayerNorm", "float16"),
    ("LayerNorm", "bfloat16"), ("BatchNorm2d", "bfloat16"), ("BatchNorm1d", "float16"),
    ("AdaptiveAvgPool2d", "bfloat16"), ("GELU", "bfloat16"), ("Softmax", "float16"), ("LogSoftmax", "bfloat16"),
    ("MSELoss", "float16"), ("NLLLoss", "bfloat16"), ("Embedding", "float16"), ("GRUCell", "float16"),
    ("AvgPool3d", "bfloat16"), ("MultiMarginLoss", "float16"), ("CTCLoss", "bfloat16"), ("InstanceNorm2d", "bfloat16"),
]


def test_modules_in_half_match_pytorch():
    """Construction, forward values/dtypes/grad_fns, buffers, parameter and input gradients of nn modules in
    float16/bfloat16 on PyTorch's own module inputs (refusals too: AvgPool3d, MultiMarginLoss and CTCLoss raise
    "not implemented for 'Half'/'BFloat16'" in both)."""
    torch_or_skip()
    import moduleinfo_sweep
    bad = {}
    for name, dtype in _HALF_MODULES:
        mi = moduleinfo_sweep.module_info(name)
        inputs = moduleinfo_sweep.module_inputs(mi, dtype, True)
        for i in range(min(2, len(inputs))):
            issues = moduleinfo_sweep.run_case(name, i, dtype, True, inputs=inputs)
            if issues:
                bad[(name, dtype, i)] = issues
    assert bad == {}


def test_pow_bfloat16_half_exponents_use_sqrt_rsqrt_reciprocal_kernels():
    """x.pow(±0.5) and x.pow(-1) of bfloat16 (not float16) are PyTorch's sqrt/rsqrt/reciprocal kernels: rsqrt's
    scalar path (the tail, strided tensors) rounds √x to bfloat16 before 1/that. Seen in LPPool's gradient."""
    same_as_torch("""
g = torch.Generator().manual_seed(0)
x0 = torch.rand(2000, generator=g) * 4 + 0.01
for dtype in (torch.bfloat16, torch.float16):
    x = x0.to(dtype)
    for e in (-0.5, 0.5, -1.0, -2.0):
        print(dtype, e, hash(tuple(B(x.pow(e)))), B(x[::3].pow(e)[-20:]), B(x[:17].pow(e)))
    v = torch.randn(1, 2, 6, 6, generator=g).to(dtype).requires_grad_()
    y = torch.nn.functional.lp_pool2d(v, 2, 3, 2)
    y.backward(torch.ones_like(y))
    print(B(y), B(v.grad))
""", PRELUDE)
