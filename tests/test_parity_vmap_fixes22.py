"""Session 22 fixes of forward-AD and torch.func differences: an in-place op whose operand is self itself reads
self's tangent as it is (so the tangent's graph notices the write), a missing tangent is PyTorch's ZeroTensor (0·inf
is 0, a sum with it keeps a -0.), sgn's tangent of a real tensor is one too, and a dual gradient keeps its tangent
through as_strided's backward (a jvp over a backward pass: torch.func.jvp nested in jvp, after an in-place op on a
view).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values,
tangents, reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
fwAD = torch.autograd.forward_ad
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_inplace_op_on_itself_reads_the_tangent_as_it_is():
    # PyTorch clones self_t only (original_self_t); an operand that is self itself is the raw tangent, which
    # self_t.copy_(new) then writes: a tangent graph that saved it (x.mul_(x)'s other_t * original_self_p when
    # the primal requires grad) fails backward with the version-counter error, the tangent named CopyBackwards's
    # output. Its primal operand is self as written (hypot_: the tangent's error comes before the primal's)
    same_output(_E + r"""
x = torch.tensor([1., 2., 3.], requires_grad=True)
tt = torch.tensor([1., 1., 1.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone(), torch.tensor([1., 1., 1.]))
    d.mul_(d)
    p, t = fwAD.unpack_dual(d)
    print(t)
    E(lambda: torch.autograd.grad(t.sum(), x))
    for op in ['mul_', 'div_', 'add_', 'sub_', 'pow_', 'atan2_', 'hypot_', 'copysign_', 'clamp_', 'xlogy_', 'lerp_', 'addcmul_']:
        d = fwAD.make_dual(x * 1 + 1, tt * 1)
        if op == 'lerp_': d.lerp_(d, d)
        elif op == 'clamp_': d.clamp_(min=d)
        elif op == 'addcmul_': d.addcmul_(d, x)
        else: getattr(d, op)(d)
        p, t = fwAD.unpack_dual(d)
        print(op, end=' ')
        E(lambda: torch.autograd.grad(t.sum(), [x, tt], allow_unused=True))
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    d.mul_(d)
    print(fwAD.unpack_dual(d))
""")


def test_missing_tangent_is_a_zero_tensor():
    # x_dual / y with y = 0 somewhere: PyTorch's (x_t - y_t * result) / y has y_t a ZeroTensor, whose product with
    # the inf result is 0 (not nan), and ZeroTensor - v is -v (so -0. where v is +0.); the same in rsub, atan2,
    # addcdiv. xlogy's and xlog1py's self term is materialized (xlogy(ZeroTensor, y) is real zeros): -0. + 0 = 0
    same_output(_E + r"""
x = torch.tensor([1., -2., 0., 3.])
y = torch.tensor([2., 3., -1., 0.])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.tensor([1., 0., -1., 2.]))
    for name, f in [('x/y', lambda: xd / y), ('y/x', lambda: y / xd), ('x/0', lambda: xd / 0.), ('rsub', lambda: torch.rsub(xd, y)),
                    ('atan2', lambda: torch.atan2(y, xd)), ('addcdiv', lambda: torch.addcdiv(y, y, xd)), ('neg(y/x)', lambda: -(y / xd)),
                    ('x/y*-1', lambda: (xd / y) * -1), ('xlogy', lambda: torch.xlogy(y, xd)), ('xlog1py', lambda: torch.special.xlog1py(y, xd)),
                    ('y-x*2', lambda: y - xd * 2), ('x*0', lambda: xd * 0)]:
        t = fwAD.unpack_dual(f()).tangent
        print(name, t.tolist(), torch._is_zerotensor(t))
""")


def test_gradient_through_a_zero_tensor_term_is_one():
    # the backward through a tangent: ta·b's term of b's missing tangent (other_t · self_p) saves the ZeroTensor, so
    # the gradient of the dual's primal through it is a ZeroTensor in both libraries (when nothing else adds to it)
    same_output(_E + r"""
for shape in [(), (3,)]:
    a = torch.full(shape, -0.7, dtype=torch.float64, requires_grad=True)
    ta = torch.full(shape, 0.3, dtype=torch.float64, requires_grad=True)
    b, tg = torch.full(shape, 0.4, dtype=torch.float64), torch.full(shape, 1., dtype=torch.float64)
    with fwAD.dual_level():
        out = torch.nn.functional.margin_ranking_loss(fwAD.make_dual(a, ta), b, tg)
        p, t = fwAD.unpack_dual(out)
        t.backward(torch.tensor(0.7, dtype=torch.float64))
        print(torch._is_zerotensor(a.grad), ta.grad)
        E(lambda: a.grad.tolist())
""")


def test_sgn_tangent_of_a_real_tensor_is_a_zero_tensor():
    # PyTorch's sgn_backward gives an efficient zero tensor for a real input, kept as the tangent of a one-element
    # result only (its strides are 0: set_fw_grad's has_same_meta fails for more elements and copies it into
    # zeros, whose products keep signs: -0.): an in-place op on sgn(x) refuses to write its tangent
    # (self_t.copy_), after the primal was written; var of one element of it is 0 ((n - correction) = 0 divides
    # the ZeroTensor), not 0 / 0
    same_output(_E + r"""
b = torch.tensor([[2.66]], dtype=torch.float64, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(b, torch.ones(1, 1, dtype=torch.float64))
    v1 = torch.nn.functional.softmax(d, dim=1).sgn()
    print(torch._is_zerotensor(fwAD.unpack_dual(v1).tangent))
    E(lambda: v1.cos_())
    print(fwAD.unpack_dual(v1).primal)
    s = fwAD.make_dual(torch.tensor(0.18), torch.tensor(1.)).sgn()
    print(fwAD.unpack_dual(s.var(None)).tangent)
    for p in [torch.tensor(0.5), torch.tensor([0.5]), torch.tensor([1., -2.]), torch.ones(2, 3)]:
        s = fwAD.make_dual(p, torch.ones_like(p)).sgn()
        print(tuple(p.shape), torch._is_zerotensor(fwAD.unpack_dual(s).tangent))
    s = fwAD.make_dual(torch.tensor([-3.84, -2.3, 0.92]), torch.tensor([0., 1., 0.])).sgn()
    print(fwAD.unpack_dual(s * torch.tensor([-2., 0., 0.])).tangent)
""")


def test_dual_gradient_keeps_its_tangent_through_as_strided_backward():
    # autograd.grad with a dual grad_output inside a dual level: as_strided's backward scatters the tangent too
    # (it is linear in the gradient); so torch.func.jvp over the inner tangent of a jvp (the inner one runs as a
    # double vjp inside the outer level) of a function that writes a view in place gets its index 0
    same_output(_E + r"""
x = torch.tensor([0.5, -1.2, 2.0], requires_grad=True)
with fwAD.dual_level():
    for f in [lambda r: r.as_strided((1,), (1,), 0), lambda r: r.as_strided((2,), (1,), 1), lambda r: r.as_strided((2, 2), (1, 1), 0)]:
        region = f(x * 1)
        v = fwAD.make_dual(torch.ones(region.shape), torch.arange(1., region.numel() + 1).reshape(region.shape))
        g, = torch.autograd.grad(region, x, v)
        print(fwAD.unpack_dual(g))
    r = torch.empty_strided((3,), (1,))
    r.copy_(x * 1)
    region = r.as_strided((1,), (1,), 0)
    region.copy_(region.clone() * 2)
    g, = torch.autograd.grad(r, x, fwAD.make_dual(torch.ones(3), torch.tensor([0.2, -0.4, 1.1])))
    print(fwAD.unpack_dual(g))
from torch.func import jvp
def scale(x):
    y = x * 1
    y[0].mul_(2.)
    return y
def shift(x):
    y = x * 1
    y[0].add_(y[1])
    return y
x, t, u = torch.tensor([0.5, -1.2, 2.0]), torch.tensor([1.0, 0.3, -0.7]), torch.tensor([0.2, -0.4, 1.1])
for f in (scale, shift):
    print(jvp(lambda a: jvp(f, (x,), (a,))[1], (t,), (u,)))
""")


def test_detach_in_place_under_a_grad_transform_inside_vmap():
    # detach_ on a tensor the grad level tracks is that level's autograd kernel (it does not go on to vmap's
    # fallback, which detaches a slice: a view, refused); vmap alone still refuses, grad alone detaches
    same_output(_E + r"""
seen = []
def f(a, b):
    v0 = torch.cat((a, a * 2), dim=1)
    v0.detach_()
    seen.append((v0.requires_grad, v0.grad_fn))
    return (a * b).sum()
A, B = torch.ones(3, 2, 1, dtype=torch.float64), torch.full((3, 2, 1), 0.5, dtype=torch.float64)
E(lambda: torch.func.vmap(torch.func.grad(f))(A, B)[0])
print(seen[0])
E(lambda: torch.func.vmap(f)(A, B))
E(lambda: torch.func.grad(f)(A[0], B[0]))
""")


def test_unary_op_of_a_complex_tangent_of_another_dtype_takes_the_output_dtype():
    # (func seed 31327) PyTorch's auto_element_wise formulas (neg's too) end in .conj(), abs's in a real view: a
    # lazy view set_fw_grad copies into zeros of the output's dtype, so a complex128 tangent of a complex64 primal
    # (x * (1 + 0.5j) under torch.func.jvp: the lifted number) comes out complex64 / float32; real ones keep float64
    same_output(_E + r"""
with fwAD.dual_level():
    for dt, tdt, v in [(torch.complex64, torch.complex128, 0.7+0.2j), (torch.float32, torch.float64, 0.7)]:
        x = fwAD.make_dual(torch.full((2,), v, dtype=dt), torch.full((2,), v, dtype=tdt))
        print([(n, fwAD.unpack_dual(getattr(torch, n)(x)).tangent.dtype) for n in ['rsqrt', 'exp', 'abs', 'neg', 'sigmoid', 'log1p']])
c, d = torch.tensor([0.3, -1.2]), torch.tensor([1.1, 0.4])
o, t = torch.func.jvp(lambda c, d: (torch.dist(d, c) * (1 + 0.5j)).rsqrt().abs(), (c, d), (torch.ones(2), torch.ones(2)))
print(o.dtype, t.dtype, t)
""")
