"""Session 11 (second wave) fixes of transform leftovers found with ``fuzz_transforms.py``.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_addcmul_addcdiv_tangent_dtype_when_a_tensor_operand_has_no_tangent():
    # fixed (seed 25481): PyTorch's formula multiplies the ZeroTensor term of a missing tangent by value, and a
    # ZeroTensor op promotes on meta copies where the Python number is a plain 0-d double: with all operands 0-d,
    # a float value (not 1) or a complex one makes the tangent float64 / complex128 (float16 and bfloat16 too)
    same_output(r"""
import torch
fa = torch.autograd.forward_ad
f32, f64, f16, c64, bf = torch.float32, torch.float64, torch.float16, torch.complex64, torch.bfloat16
for op in ['addcmul', 'addcdiv']:
  for dts in [(f32,f32,f32),(f16,f16,f16),(c64,c64,c64),(bf,bf,bf),(f32,f32,f64),(f64,f32,f32),(c64,f32,f32),(f32,c64,f32)]:
    for shapes in [((),(),()),((2,),(),()),((),(2,),()),((),(),(2,)),((2,),(2,),(2,))]:
      for value in [0.5, 2, 1, 1.0, True, 0.5+1j] + ([1+0j] if torch.result_type(torch.ones((), dtype=dts[0]), torch.ones((), dtype=dts[1])).is_complex else []):
        for tangents in [(0,),(1,),(2,),(0,1),(1,2),(0,1,2)]:
          with fa.dual_level():
            args = []
            for i, (dt, sh) in enumerate(zip(dts, shapes)):
              x = torch.ones(sh, dtype=dt) * (i + 2)
              if i in tangents: x = fa.make_dual(x, torch.ones(sh, dtype=dt) * 0.5)
              args.append(x)
            try:
              p, t = fa.unpack_dual(getattr(torch, op)(*args, value=value))
              print(op, dts, shapes, value, tangents, p.dtype, t.dtype, t.tolist())
            except Exception as e:
              print(op, dts, shapes, value, tangents, type(e).__name__, e)
a = torch.tensor(-0.83); b = torch.tensor(1.5)
print(torch.func.jvp(lambda a: torch.addcmul(torch.complex(a, b), torch.complex(a, b), b, value=0.5), (a,), (torch.tensor(0.3),)))
""")


def test_gelu_backward_has_a_forward_formula():
    # fixed (seed 24167): gelu_backward had no forward formula, so torch.func.jvp of grad (jacfwd, hessian) took
    # the double-vjp route, where a nan grad_output's tangent came out nan; PyTorch's formula is
    # gelu_backward(grad_output_t, self) + gelu_double_backward(self_t, grad_output, self)
    same_output(r"""
import torch
F = torch.nn.functional
a = torch.tensor([[-2.62, -1.46]])
for approx in ('none', 'tanh'):
    f = lambda v: torch.var_mean(F.gelu(v, approximate=approx).logcumsumexp(-1), 0)[0].sum()
    print(torch.func.hessian(f)(a))
    print(torch.func.jacfwd(torch.func.grad(f))(a))
    g = lambda v: (F.gelu(v, approximate=approx) ** 3).sum()
    x = torch.tensor([-3.0, -1.2, -0.3, 0.0, 0.4, 1.7, 5.0], dtype=torch.float64)
    print(torch.func.hessian(g)(x).diagonal())
    print(torch.func.jvp(torch.func.grad(g), (x.float(),), (torch.linspace(-1, 1, 7),)))
fa = torch.autograd.forward_ad
with fa.dual_level():
    x = fa.make_dual(torch.tensor([-1.0, 0.5, 2.0], requires_grad=True), torch.tensor([0.3, -0.2, 1.0]))
    gx, = torch.autograd.grad(F.gelu(x).sum() * 2, x, create_graph=True)
    print(fa.unpack_dual(gx).tangent.tolist(), gx.grad_fn.name())
""")


def test_vmap_dot_of_vectors_of_different_sizes_raises_the_batch_rules_matmul_error():
    # fixed: vmap's dot (and 1-d @ 1-d) batch rule computes through matmul on the physical tensors: both batched a
    # bmm, one batched an mv (batched first operand) or a 1-d @ 2-d mm (batched second operand)
    same_output(r"""
import torch
vmap = torch.func.vmap
cases = [
 lambda: vmap(lambda x, y: x @ y)(torch.ones(3, 2), torch.ones(3, 4)),
 lambda: vmap(lambda x, y: x @ y, in_dims=(0, None))(torch.ones(3, 2), torch.ones(4)),
 lambda: vmap(lambda x, y: x @ y, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 4)),
 lambda: vmap(torch.matmul, in_dims=(1, 0))(torch.ones(2, 5), torch.ones(5, 4)),
 lambda: vmap(torch.dot)(torch.ones(3, 2), torch.ones(3, 4)),
 lambda: vmap(torch.dot, in_dims=(0, None))(torch.ones(3, 2), torch.ones(4)),
 lambda: vmap(lambda x: torch.dot(x, torch.ones(5)))(torch.ones(3, 2)),
 lambda: vmap(lambda x, y: torch.dot(x, y))(torch.ones(3, 2), torch.ones(3, 2)),
 lambda: torch.ones(2) @ torch.ones(4),
]
for f in cases:
    try: print(f())
    except RuntimeError as e: print('RuntimeError', e)
""")


def test_no_argument_methods_refuse_arguments_as_cpython_does():
    # fixed: PyTorch binds a Tensor method whose only parameter is self as METH_NOARGS, so CPython refuses any
    # argument with "Tensor.<name>() takes no arguments (N given)" (keywords first: "takes no keyword
    # arguments"); the operator slots name the method they share (Tensor.neg for __neg__). Methods with optional
    # parameters (clone, cpu, float) and those written in Python (is_shared, norm) are not of this kind.
    same_output(r"""
import torch
x = torch.ones(2, requires_grad=True)
y = torch.ones(2) * 2
names = ['retain_grad', 'detach', 'detach_', 'item', 't', 't_', 'numel', 'nelement', 'dim', 'ndimension', 'element_size',
         'tolist', 'abs', 'neg', 'negative', 'exp', 'sigmoid', 'zero_', 'data_ptr', 'storage_offset', 'is_floating_point',
         'is_complex', 'is_conj', 'is_neg', 'resolve_conj', 'resolve_neg', 'conj', 'sign', 'sqrt', 'relu', 'get_device',
         'is_inference', 'is_signed', 'cos', 'tanh', 'log', 'floor', 'isnan', 'isfinite', 'logical_not', 'ravel',
         'reciprocal', 'positive', 'angle', 'is_nonzero', 'untyped_storage', '__neg__', '__abs__', '__pos__',
         '__bool__', '__float__', '__int__', '__index__', '__invert__', 'exp_', 'sigmoid_', 'trunc', 'frac', 'msort']
for name in names:
    for args, kwargs in [((1,), {}), ((1, 2), {}), ((), {'foo': 1}), ((1,), {'foo': 1})]:
        try:
            getattr(y if name in ('__invert__', 'zero_', 'exp_', 'sigmoid_', 't_', 'detach_') else x, name)(*args, **kwargs)
            print(name, 'ok')
        except TypeError as e:
            print(name, args, kwargs, 'TypeError', e)
        except Exception as e:
            print(name, args, kwargs, type(e).__name__)
print(x.detach(), x.item() if x.numel() == 1 else x.sum().item(), x.dim(), -x, abs(x), +x, x.t())
""")


def test_tril_triu_in_place_on_an_expanded_tensor_zero_where_they_are():
    # fixed (vmap seed 24294): PyTorch's tril_ / triu_ write only the zeros, in place, into a tensor of at most
    # 3 dims (vmap's batch dim counted) or one whose batch dims hold one matrix after another: no check of shared
    # elements, and a location stays 0 once any element sharing it is zeroed. Other layouts are refused.
    same_output(r"""
import torch
def show(f):
    try: print(f())
    except RuntimeError as e: print('RuntimeError', e)
for make, op in [(lambda: torch.tensor([1., 2., 3.]).expand(2, 3), lambda v: v.tril_()),
                 (lambda: torch.tensor([1., 2., 3.]).expand(2, 3), lambda v: v.triu_(1)),
                 (lambda: torch.tensor([1., 2., 3.]).expand(3, 3), lambda v: v.triu_()),
                 (lambda: torch.tensor([1., 2., 3.]).expand(3, 3), lambda v: v.tril_(-1)),
                 (lambda: torch.tensor([[1.], [2.]]).expand(2, 3), lambda v: v.tril_()),
                 (lambda: torch.tensor([1., 2., 3.]).expand(2, 2, 3), lambda v: v.tril_()),
                 (lambda: torch.tensor([1., 2., 3.]).expand(2, 2, 2, 3), lambda v: v.tril_()),
                 (lambda: torch.arange(12.).view(2, 1, 2, 3).expand(2, 2, 2, 3), lambda v: v.triu_()),
                 (lambda: torch.arange(12.).view(1, 2, 2, 3).expand(2, 2, 2, 3), lambda v: v.tril_())]:
    def run():
        v = make()
        op(v)
        return v._base if v._base is not None else v
    show(run)
vmap = torch.func.vmap
def f1(b):
    v = b.expand(2, 1); v.tril_(); return v
def f3(b):
    v = b.expand(2, 3); v.tril_(); return v
def f4(b):
    v = b.expand(2, 2, 3); v.triu_(); return v
show(lambda: vmap(f1)(torch.arange(3.).view(3, 1) + 1))
show(lambda: vmap(f3)(torch.arange(3.).view(3, 1) + 1))
show(lambda: vmap(f3)(torch.arange(9.).view(3, 3) + 1))
show(lambda: vmap(f4)(torch.arange(9.).view(3, 3) + 1))
b = torch.tensor([1.5, 2.5], dtype=torch.complex64)
print(vmap(lambda b: (b / 2).expand(2, 1).tril_())(b.view(2, 1)))
""")


def test_vmap_binary_in_place_of_a_batched_value_into_an_expanded_unbatched_tensor():
    # fixed (vmap seed 23547): the ops PyTorch's vmap fallback runs on the physical tensors (atan2_, add_ ...)
    # refuse an expanded (self-overlapping) output before they compare its shape with the batched broadcast one
    same_output(r"""
import torch
def show(f):
    try: print(f())
    except RuntimeError as e: print('RuntimeError', e)
vmap = torch.func.vmap
a = torch.ones(3, 4, 1); b = torch.arange(3.)
show(lambda: vmap(lambda a, b: a.expand(2, 3, 4, 1).atan2_(b), in_dims=(None, 0))(a, b))
show(lambda: vmap(lambda a, b: a.expand(2, 3, 4, 1).mul_(b), in_dims=(None, 0))(a, b))
show(lambda: vmap(lambda a, b: a.expand(2, 3, 4, 1).add_(b), in_dims=(None, 0))(a, b))
show(lambda: vmap(lambda a, b: a.clone().atan2_(b), in_dims=(None, 0))(a, b))
show(lambda: vmap(lambda a, b: a[:1].expand(3, 4, 1).atan2_(b), in_dims=(None, 0))(a, b))
show(lambda: vmap(lambda a, b: a.expand(2, 3, 4, 1).atan2_(b), in_dims=(0, 0))(torch.ones(3, 3, 4, 1), b))
""")


def test_vmap_mm_mv_and_matmul_size_mismatch_raise_the_batch_rules_errors():
    # fixed: vmap's mm / mv batch rules (and matmul's, which uses them) multiply the physical tensors: a batched
    # first matrix folds its batch into its rows ([B·n, k]), a batched vector becomes a matrix, both or a batched
    # second matrix make a bmm
    same_output(r"""
import torch
vmap = torch.func.vmap
def show(n, f):
    try: print(n, f())
    except RuntimeError as e: print(n, 'RuntimeError', e)
M, V = torch.ones(3, 5, 2), torch.ones(3, 4)
show("mv 0,0", lambda: vmap(torch.mv)(M, V))
show("mv 0,N", lambda: vmap(torch.mv, in_dims=(0, None))(M, torch.ones(4)))
show("mv N,0", lambda: vmap(torch.mv, in_dims=(None, 0))(torch.ones(5, 2), V))
show("mm 0,0", lambda: vmap(torch.mm)(M, torch.ones(3, 4, 6)))
show("mm 0,N", lambda: vmap(torch.mm, in_dims=(0, None))(M, torch.ones(4, 6)))
show("mm N,0", lambda: vmap(torch.mm, in_dims=(None, 0))(torch.ones(5, 2), torch.ones(3, 4, 6)))
show("mat@vec 0,0", lambda: vmap(torch.matmul)(M, V))
show("mat@vec 0,N", lambda: vmap(torch.matmul, in_dims=(0, None))(M, torch.ones(4)))
show("mat@vec N,0", lambda: vmap(torch.matmul, in_dims=(None, 0))(torch.ones(5, 2), V))
show("vec@mat 0,0", lambda: vmap(torch.matmul)(torch.ones(3, 2), torch.ones(3, 4, 5)))
show("vec@mat 0,N", lambda: vmap(torch.matmul, in_dims=(0, None))(torch.ones(3, 2), torch.ones(4, 5)))
show("vec@mat N,0", lambda: vmap(torch.matmul, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 4, 5)))
show("mat@mat 0,0", lambda: vmap(torch.matmul)(M, torch.ones(3, 4, 6)))
show("mat@mat 0,N", lambda: vmap(torch.matmul, in_dims=(0, None))(M, torch.ones(4, 6)))
show("mat@mat N,0", lambda: vmap(lambda a, b: a @ b, in_dims=(None, 0))(torch.ones(5, 2), torch.ones(3, 4, 6)))
show("mm ok", lambda: vmap(torch.mm)(torch.ones(3, 5, 2), torch.ones(3, 2, 1)))
show("plain", lambda: torch.ones(5, 2) @ torch.ones(4))
""")
