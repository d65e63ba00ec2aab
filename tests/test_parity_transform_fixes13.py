"""Session 13 fixes of transform differences found with ``fuzz_transforms.py`` and the hand-written programs.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs, call counts and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_custom_function_vmap_staticmethod_is_called_once_with_the_batch():
    # fixed: minigrad's vmap (a loop over slices) ran forward once per slice and never called the Function's vmap
    # staticmethod; PyTorch calls it once per vmap with VmapInfo(batch_size, randomness), the in_dims (None for
    # unbatched and non-tensor arguments) and the whole batch, and hands each example its slice of the outputs
    # at out_dims (an input given back is the input itself; out_dim None: unbatched)
    same_output(r"""
import torch
calls = {'fwd': 0, 'vmap': 0, 'bwd': 0}
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        calls['fwd'] += 1
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, g):
        calls['bwd'] += 1
        return g * ctx.k, None
    @staticmethod
    def vmap(info, in_dims, x, k):
        calls['vmap'] += 1
        print('rule', info, type(info).__name__, info.batch_size, info.randomness, in_dims, tuple(x.shape), k)
        return Mul.apply(x, k) + 100, in_dims[0]
x = torch.arange(6.).reshape(2, 3)
for ind in (0, 1, -1):
    print(torch.func.vmap(lambda a: Mul.apply(a, 2.0).sin(), in_dims=ind)(x if ind == 0 else x.t()), calls)
print(torch.func.vmap(Mul.apply, in_dims=(0, None))(x, 3.0), calls)
print(torch.func.vmap(lambda a: Mul.apply(Mul.apply(a.cos(), 2.0), 3.0), randomness='same')(x), calls)
print(torch.func.vmap(lambda a, b: Mul.apply(a, 2.0) + b, in_dims=(0, None))(x, torch.ones(3)), calls)
print(torch.func.vmap(lambda a: (Mul.apply(a, 2.0), a.sum()), out_dims=(1, 0))(x), calls)
print(torch.func.vmap(lambda a: Mul.apply(a[1:], 2.0), in_dims=1)(x), calls)
# autograd through the rule's result: backward once, on the batch
y = torch.ones(3, requires_grad=True)
o = torch.func.vmap(lambda a: Mul.apply(a * y, 2.0))(x)
o.sum().backward()
print(y.grad, calls)
xr = x.clone().requires_grad_()
torch.func.vmap(lambda a: Mul.apply(a, 2.0))(xr).sum().backward()
print(xr.grad, calls)
# a torch.func transform inside the vmap: the rule still runs once
print(torch.func.vmap(torch.func.grad(lambda a: Mul.apply(a, 2.0).sum()))(x), calls['vmap'])
print(torch.func.jacrev(lambda a: Mul.apply(a, 2.0))(x[0]), calls['vmap'])
# what the rule returns: PyTorch's checks
class Id(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.clone()
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vmap(info, in_dims, x):
        return R[0](x)
R = [None]
for r in (lambda x: x, lambda x: (x, 0, 0), lambda x: (x, (0, 1)), lambda x: ((x, x * 2), (0, None)), lambda x: (x, None),
          lambda x: (x * 3, None), lambda x: (x.t(), 1), lambda x: ([x, x + 1], 0), lambda x: ((x + 1, 'aux'), (0, None))):
    R[0] = r
    try:
        print(torch.func.vmap(Id.apply)(x))
    except Exception as e:
        print(type(e).__name__, e)
""")


def test_custom_function_without_vmap_support_and_generate_vmap_rule():
    # PyTorch's errors for a Function that cannot be vmapped (checked before looking at the inputs, so an
    # unbatched call raises too), for one with both generate_vmap_rule=True and a vmap staticmethod, the base
    # class's vmap staticmethod called directly, and generate_vmap_rule's values
    same_output(r"""
import torch
x = torch.arange(6.).reshape(2, 3)
class Gen(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
print(torch.func.vmap(Gen.apply)(x))
print(torch.func.vmap(torch.func.grad(lambda a: Gen.apply(a).sum()))(x))
class Neither(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
class Both(Gen):
    @staticmethod
    def vmap(info, in_dims, x):
        return x, 0
class NoSetup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        return g
for F in (Neither, Both, NoSetup):
    for f in (lambda: torch.func.vmap(F.apply)(x), lambda: torch.func.vmap(lambda a: F.apply(torch.ones(2)) + a)(x[:, :2]),
              lambda: F.vmap(None, (0,), x)):
        try:
            print(f())
        except Exception as e:
            print(type(e).__name__, e)
""")


def test_tangent_shared_by_frac_and_alias_changes_with_inplace_view_ops():
    # fixed (forward_ad seed 26677): frac's (and alias's: x[:, :], x[...]) output tangent is its input's tangent
    # itself, and PyTorch's in-place view ops (t_, swapdims_, unsqueeze_, squeeze_, as_strided_) change the tangent
    # in place: the input's tangent changes shape too, and median's jvp then gathers from a misfit tangent
    same_output(r"""
import torch
fa = torch.autograd.forward_ad
x = torch.tensor([[1.5, -2.25, 0.5]], dtype=torch.float64)
ops = {'t_': lambda v: v.t_(), 'swapdims_': lambda v: v.swapdims_(0, 1), 'unsqueeze_': lambda v: v.unsqueeze_(0),
       'squeeze_': lambda v: v.squeeze_(), 'squeeze_0': lambda v: v.squeeze_(0), 'as_strided_': lambda v: v.as_strided_((3, 1), (1, 1))}
for name, op in ops.items():
    for how in ('own', 'frac', 'contiguous', 'full_slices', 'ellipsis', 'slice', 'view'):
        with fa.dual_level():
            t = torch.tensor([[1., 2., 3.]], dtype=torch.float64)
            a = fa.make_dual(x.clone(), t)
            ta = fa.unpack_dual(a).tangent
            v = {'own': lambda: a, 'frac': lambda: a.frac(), 'contiguous': lambda: a.contiguous(), 'full_slices': lambda: a[:, :],
                 'ellipsis': lambda: a[...], 'slice': lambda: a[:, 1:], 'view': lambda: a.view(1, 3)}[how]()
            tv = fa.unpack_dual(v).tangent
            print(name, how, tv is ta, tv._base is ta)
            try:
                op(v)
            except Exception as e:
                print('  ', type(e).__name__, e)
                continue
            p2, t2 = fa.unpack_dual(v)
            pa, ta2 = fa.unpack_dual(a)
            print('  ', tuple(t2.shape), t2.stride(), t2 is tv, ta2 is ta, tuple(ta2.shape), ta2.stride(), t._version, tuple(a.shape))
with fa.dual_level():
    a = fa.make_dual(torch.tensor([[0.5, -1.5]], dtype=torch.float64), torch.tensor([[1., 2.]], dtype=torch.float64))
    v = a.frac()
    v.swapdims_(0, -1)
    for f in (lambda: a.median(0, keepdim=True), lambda: a.median(1), lambda: a.sort(1), lambda: a.flatten()):
        try:
            print([fa.unpack_dual(r) if isinstance(r, torch.Tensor) else r for r in (f() if isinstance(f(), tuple) else (f(),))])
        except Exception as e:
            print(type(e).__name__, e)
""")


def test_float_chunk_size_errors_of_jacrev_and_vmap():
    # fixed: PyTorch splits the work into chunks with [chunk_size] * (n // chunk_size), which a float chunk_size
    # fails (vmap: always, at the call; jacrev: when it is smaller than the output's size); minigrad ignored it
    same_output(r"""
import torch
x = torch.tensor([1.0, 2.0, 3.0])
f = lambda a: a.sin() * a
for cs in (1.0, 2.5, 3.0, 4.0, 0, -1, 0.0, '2', None, 2, 1, 3, 4):
    for name in ('jacrev', 'vmap', 'jacrev_scalar'):
        try:
            if name == 'jacrev':
                r = torch.func.jacrev(f, chunk_size=cs)(x)
            elif name == 'vmap':
                r = torch.func.vmap(f, chunk_size=cs)(x)
            else:
                r = torch.func.jacrev(lambda a: f(a).sum(), chunk_size=cs)(x)
            print(name, cs, r)
        except Exception as e:
            print(name, repr(cs), type(e).__name__, e)
""")


def test_add_sub_alpha_tangent_is_rounded_product_then_sum():
    # fixed: PyTorch's formula is self_t + maybe_multiply(other_t, alpha): other_t * alpha is rounded on its own
    # (for an int alpha too), and without self's tangent (a ZeroTensor) it is the tangent: float16 last bits
    same_output(r"""
import torch
fa = torch.autograd.forward_ad
g = torch.Generator().manual_seed(0)
for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    x = torch.randn(64, generator=g).to(dt); y = torch.randn(64, generator=g).to(dt)
    tx = torch.randn(64, generator=g).to(dt); ty = torch.randn(64, generator=g).to(dt)
    for alpha in (0.3, 2.5, -1.7, 3, -2, 0.1):
        with fa.dual_level():
            a, b = fa.make_dual(x, tx), fa.make_dual(y, ty)
            outs = {'add': torch.add(a, b, alpha=alpha), 'sub': torch.sub(a, b, alpha=alpha), 'add_': a.clone().add_(b, alpha=alpha),
                    'no_b': torch.add(a, y, alpha=alpha), 'no_a': torch.add(x, b, alpha=alpha), 'sub_no_a': torch.sub(x, b, alpha=alpha),
                    'mixed': torch.add(a, fa.make_dual(y.double(), ty.double()), alpha=alpha)}
            for k, o in outs.items():
                t = fa.unpack_dual(o).tangent
                print(dt, alpha, k, t.dtype, t.double().sum().item(), t[:3].tolist())
""")


def test_vmap_inplace_op_with_python_number_on_integer_examples():
    # fixed (vmap seed 26828): inside vmap, x.mul_(0.5j) on integer examples named ComplexDouble: the Python number
    # was promoted as a 0-d tensor (a batched 0-d example against an unbatched 0-d tensor is PyTorch's case for
    # that rule); a Python number stays a wrapped number, so the error names ComplexFloat (Float for 0.5)
    same_output(r"""
import torch
for f in (lambda: torch.func.vmap(lambda r: r[0].mul_(0.5j))(torch.tensor([[3, 4], [1, 2]])),
          lambda: torch.func.vmap(lambda r: r.mul_(0.5j))(torch.tensor([3, 4])),
          lambda: torch.func.vmap(lambda r: r.add_(0.5j))(torch.tensor([3, 4])),
          lambda: torch.func.vmap(lambda r: r.mul_(0.5))(torch.tensor([3, 4])),
          lambda: torch.func.vmap(lambda r: r.sub_(1.5))(torch.tensor([3, 4], dtype=torch.int32)),
          lambda: torch.func.vmap(lambda r: r.mul_(torch.tensor(0.5j)))(torch.tensor([3, 4])),
          lambda: torch.func.vmap(lambda r: r.mul_(torch.tensor(0.5, dtype=torch.float64)))(torch.tensor([3., 4.])),
          lambda: torch.func.vmap(lambda r: r.mul_(0.5j))(torch.tensor([3., 4.])),
          lambda: torch.func.vmap(lambda r: r.mul_(2))(torch.tensor([3, 4], dtype=torch.int16)),
          lambda: torch.func.vmap(lambda r: r.div_(2.5))(torch.tensor([3., 4.], dtype=torch.float16)),
          lambda: torch.func.vmap(lambda r: r * 0.5j)(torch.tensor([3, 4]))):
    try:
        r = f()
        print(r.dtype, r)
    except Exception as e:
        print(type(e).__name__, e)
""")


def test_inplace_on_an_input_of_nested_transforms_is_refused_as_a_leaf():
    # fixed (nested runner, seed 12): grad(grad(f)), jacrev(jacrev(f)), vjp of vjp, grad of vmap and grad of an input
    # that requires grad outside: the inner transform's stand-in for the input is a leaf at its level in PyTorch
    # (minigrad's is a view of the outer one, which said "a view of a leaf Variable"); its views stay views
    same_output(r"""
import torch
import torch.func as ft
x = torch.tensor([0.5, 1.5], dtype=torch.float64)
y = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
def f(a):
    a.mul_(2)
    return (a * a).sum()
def g(a):
    a.add_(1)
    return a * a
for name, tr in (('grad', lambda: ft.grad(f)(x.clone())), ('grad_grad', lambda: ft.grad(ft.grad(f))(x.clone())),
                 ('jacrev_jacrev', lambda: ft.jacrev(ft.jacrev(g))(x.clone())), ('jacfwd_jacrev', lambda: ft.jacfwd(ft.jacrev(g))(x.clone())),
                 ('vjp_vjp', lambda: ft.vjp(lambda b: ft.vjp(g, b)[1](torch.ones(2)), x.clone())[0]), ('hessian', lambda: ft.hessian(f)(x.clone())),
                 ('vmap_grad', lambda: ft.vmap(ft.grad(f))(torch.ones(3, 2))), ('grad_vmap', lambda: ft.grad(lambda b: ft.vmap(g)(b).sum())(torch.ones(3, 2))),
                 ('leaf_outside', lambda: ft.grad(f)(y)), ('nonleaf_outside', lambda: ft.grad(f)(y * 2)),
                 ('view_inside', lambda: ft.grad(lambda a: f(a[:1]))(x * 2)), ('grad_grad_view', lambda: ft.grad(ft.grad(lambda a: f(a[:1])))(x * 2)),
                 ('vmap_leaf', lambda: ft.vmap(lambda r: r.mul_(2))(y.detach().expand(3, 2).clone().requires_grad_())),
                 ('vmap_leaf_view', lambda: ft.vmap(lambda r: r[:1].mul_(2))(torch.ones(3, 2, requires_grad=True))),
                 ('vmap_plain', lambda: ft.vmap(lambda r: r.mul_(2))(torch.ones(3, 2))), ('grad_ok', lambda: ft.grad(lambda a: (a.clone().mul_(2) * a).sum())(x))):
    try:
        print(name, tr())
    except Exception as e:
        print(name, type(e).__name__, e)
""")


def test_linearize_traces_with_plain_forward_ad():
    # fixed (nested runner, seed 69): PyTorch's linearize runs func, then traces it under plain forward AD (its own
    # dual_level, no torch.func level: a write to a captured tensor is allowed and happens) and replays the trace
    # for each jvp_fn call; minigrad's ran torch.func.jvp in jvp_fn, which refused the write
    same_output(r"""
import torch
import torch.func as ft
x = torch.tensor([1.0, 2.0])
c = torch.zeros(2)
def f(a):
    c.add_(1)
    return a * 2 + c, (a * c).sin()
out, jvp_fn = ft.linearize(f, x)
print(out, c)
print(jvp_fn(torch.ones(2)), c)
print(jvp_fn(torch.tensor([0.5, -1.0])), c)
for name, tr in (('jvp', lambda: ft.jvp(f, (x,), (torch.ones(2),))), ('vjp', lambda: ft.vjp(f, x)[0])):
    try:
        print(name, tr(), c)
    except Exception as e:
        print(name, type(e).__name__, e, c)
out, jvp_fn = ft.linearize(lambda a, b: (a * b, a.sum() * 2.5), x, torch.tensor([3.0, 4.0]))
print(out, jvp_fn(torch.ones(2), torch.zeros(2)))
for t in ((torch.ones(3), torch.ones(2)), (torch.ones(2),), (torch.ones(2, dtype=torch.float64), torch.ones(2))):
    try:
        print(jvp_fn(*t))
    except Exception as e:
        print(type(e).__name__, e)
""")
