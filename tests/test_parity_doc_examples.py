"""PyTorch's own docstring examples run with torch and with minigrad must print the same (tests/doc_examples.py).

One test per chunk of names of each namespace; a failure lists the differing examples with both outputs. Plus
focused tests for the fixes the sweep led to, where the docstring example alone does not pin them.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

pytest.importorskip("torch", reason="PyTorch not installed: parity test skipped")

import doc_examples  # noqa: E402  (tests/doc_examples.py: needs torch)

_CHUNK = 40  # names per test: a failure stays readable, a chunk stays a few seconds


def _chunks():
    for namespace in doc_examples.NAMESPACES:
        names = doc_examples.names_in(namespace)
        for start in range(0, len(names), _CHUNK):
            yield pytest.param(names[start:start + _CHUNK], id=f"{namespace}[{start}]")


@pytest.mark.parametrize("paths", list(_chunks()))
def test_doc_examples_match_torch(paths):
    results = doc_examples.sweep(paths)
    differing = [r for r in results if r.status == "differ"]
    assert not differing, doc_examples.report(differing)


def test_harness_compares():
    """Not vacuous: the sweeps cover hundreds of names, and a plain example runs in both libraries and matches."""
    assert len(doc_examples.names_in("torch")) > 300 and len(doc_examples.names_in("torch.Tensor")) > 30
    result = doc_examples.compare("torch.cumsum")
    assert result.status == "equal", doc_examples.report([result])


def test_harness_sees_a_difference():
    """The comparison is not vacuous: a record that differs from torch's is reported."""
    a = doc_examples.Record("x", output="tensor([1.])\n")
    b = doc_examples.Record("x", output="tensor([1.0001])\n")
    assert a.key() != b.key()
    c = doc_examples.Record("x", output="<object at 0x7f00>\n")
    d = doc_examples.Record("x", output="<object at 0x5500>\n")
    assert c.key() == d.key()


def test_uninitialized_memory_is_not_compared_where_it_is_shown():
    """``a = torch.empty_strided(...)`` then ``a``: the second example shows torch's uninitialized memory too (CI
    saw -6.4e19 in torch, zeros in minigrad); ``a.stride()`` after it is still compared."""
    exs = doc_examples.examples(doc_examples.docstring("torch.empty_strided"))
    assert [e.source.strip() for e in exs] == ["a = torch.empty_strided((2, 3), (1, 2))", "a", "a.stride()",
                                                "a.size()"]
    assert doc_examples._uninitialized(exs) == {0, 1}


def test_lstsq_rank_and_singular_values_have_As_batch_shape():
    same_as_torch("""
torch.manual_seed(0)
for a, b in [((1, 3, 3), (2, 3, 3)), ((2, 1, 4, 3), (2, 3, 4, 2)), ((3, 4, 3), (1, 4, 2)), ((4, 3), (4, 2))]:
    A, B = torch.randn(*a, dtype=torch.float64), torch.randn(*b, dtype=torch.float64)
    for driver in ('gelsy', 'gelsd', 'gelss', 'gels'):
        r = torch.linalg.lstsq(A, B, driver=driver)
        print(driver, [tuple(x.shape) for x in r], r.rank, r.singular_values)
""")


def test_repeat_interleave_of_counts():
    same_as_torch("""
t = torch.tensor
print(torch.repeat_interleave(t([1, 2, 3])), torch.repeat_interleave(t([0, 2], dtype=torch.int32)))
print(torch.repeat_interleave(t([1, 2]), output_size=3), torch.repeat_interleave(t([], dtype=torch.int64)))
E(lambda: torch.repeat_interleave(t([[1, 2]])))
E(lambda: torch.repeat_interleave(t([1., 2])))
E(lambda: torch.repeat_interleave(t([1, -2])))
E(lambda: torch.repeat_interleave(t([1, 2]), output_size=4))
""")


def test_ldexp_integer_exponent_resize_warning():
    same_as_torch("""
import warnings
t = torch.tensor
for a, b in [(t([1.0, 2.0]), t(3)), (t(1.0), t([3, 4])), (t([1]), t([3, 4])), (t([1.], dtype=torch.float64), t([3, 4])),
             (t([1.0]), t([3., 4])), (t([1.0], dtype=torch.float16), t([3, 4])), (torch.ones(0, 1), t([3, 4])),
             (t([1.0 + 1j]), t([3, 4])), (t([1.0]), t([3, 4], dtype=torch.uint8))]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = torch.ldexp(a, b)
    print(r, [str(x.message) for x in w])
""")


def test_diag_embed_any_dims():
    same_as_torch("""
torch.manual_seed(0)
a = torch.randn(2, 3, requires_grad=True)
for off in (-1, 0, 2):
    for d1, d2 in [(0, 2), (2, 0), (1, 0), (-1, 0), (0, 1), (-2, -1), (-1, -2)]:
        y = torch.diag_embed(a, off, d1, d2)
        g, = torch.autograd.grad((y * torch.arange(y.numel()).view(y.shape)).sum(), a)
        print(off, d1, d2, tuple(y.shape), y.stride(), y.sum().item(), g.tolist(), y.grad_fn.name())
E(lambda: torch.diag_embed(a, 0, 1, 1))
E(lambda: torch.diag_embed(a, 0, 0, 3))
""")


def test_einsum_sublist_format():
    same_as_torch("""
torch.manual_seed(0)
a, b, c = torch.randn(3, 2, 5), torch.randn(3, 5, 4), torch.randn(4)
print(torch.einsum(a, [..., 0, 1], b, [..., 1, 2], [..., 0, 2]).sum().item())
print(torch.einsum(a, [0, 1, 2], b, [0, 2, 30]).shape, torch.einsum(a, [0, 1, 2], [2]))
print(torch.einsum(c, [0], c, [0], c, [0], []))
E(lambda: torch.einsum(a, [0, 1, 52]))
E(lambda: torch.einsum(c, [-1]))
""")


def test_asarray_copy_and_requires_grad():
    same_as_torch("""
import numpy as np
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a + 2
leaf = torch.tensor([1., 2.])
print(torch.asarray(b, requires_grad=True) is b, torch.asarray(b, requires_grad=False), torch.asarray(b, copy=True))
print(torch.asarray(leaf, copy=True, requires_grad=True), torch.asarray(b, dtype=torch.float64))
print(torch.asarray(leaf, requires_grad=True) is leaf, leaf.requires_grad)
print(torch.asarray(a, requires_grad=False) is a, a.requires_grad)
print(torch.asarray(np.float64(0.5)), torch.asarray(np.array([1., 2]), requires_grad=True))
n = np.array([1., 2]); r = torch.asarray(n, copy=True); r[0] = 5; print(n)
r = torch.asarray(n); r[0] = 5; print(n)
E(lambda: torch.asarray(b, copy=False, dtype=torch.float64))
E(lambda: torch.asarray([1, 2], requires_grad=True))
E(lambda: torch.asarray([1, 2], copy=False))
E(lambda: torch.asarray(np.array([1, 2]), copy=False, dtype=torch.float32))
E(lambda: torch.asarray(torch.tensor([1, 2]), requires_grad=True))
""")


def test_scatter_legacy_reduce():
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")  # (the deprecation warning is once per process: its order is test-order dependent)
i = torch.tensor([[2, 2], [3, 0]])
a = torch.full((2, 4), 2., requires_grad=True)
s = torch.ones(2, 2, requires_grad=True)
print(torch.full((2, 4), 2.).scatter(1, i, torch.tensor([[1., 2], [3, 4]]), reduce='add'))
print(torch.full((2, 4), 2).scatter(1, i, torch.tensor([[1, 2], [3, 4]]), reduce='multiply'))
print(torch.full((2, 4), 2).scatter(1, i, 3, reduce='add'))
print(torch.full((2, 4), 2.).scatter_(0, torch.tensor([[1, 0, 1, 1]]), 1.5, reduce='multiply'))
for y in (a.scatter(1, i, s, reduce='add'), a.scatter(1, i, 2.0, reduce='add'),
          (a * 1).scatter_(1, i, s, reduce='multiply')):
    print(y, len(y.grad_fn.next_functions))
    E(lambda: y.sum().backward())
E(lambda: torch.ones(2, 4).scatter(1, i, torch.ones(2, 2), reduce='sum'))
E(lambda: torch.ones(2, 4).scatter(1, i, 2.0, reduce='mean'))
E(lambda: torch.ones(2, 4).scatter(1, i, torch.ones(2, 2, dtype=torch.float64), reduce='add'))
E(lambda: torch.ones(2, 4).scatter(1, i + 5, 1., reduce='add'))
""")


def test_unique_dim():
    same_as_torch("""
x = torch.tensor([[1., 2, 1], [1, 2, 1], [0, 3, 1]], requires_grad=True)
r = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
print(r, r[0].grad_fn.name())
print(torch.unique(x, dim=1, return_inverse=True, return_counts=True, sorted=False), x.unique(dim=-1))
torch.manual_seed(0)
y = torch.randint(0, 2, (6, 3, 2))
print(torch.unique(y, dim=0, return_inverse=True), torch.unique(y, dim=1, return_counts=True), torch.unique(y, dim=2))
print(torch.unique(torch.empty(0, 3), dim=0, return_inverse=True, return_counts=True))
E(lambda: torch.unique(x, dim=2))
E(lambda: torch.unique(torch.empty(0, 3), dim=1))
E(lambda: torch.unique(torch.tensor(3.), dim=0))
E(lambda: torch.unique(torch.tensor([1 + 1j]), dim=0))
E(lambda: torch.unique(x, dim=0).sum().backward())
""")


def test_dim_order_ambiguity_check():
    same_as_torch("""
for shape in [(2, 3, 5, 7), (1, 2, 3, 4), (2, 1, 3)]:
    x = torch.empty(shape)
    for check in (False, True, [torch.contiguous_format, torch.channels_last], [torch.contiguous_format], []):
        E(lambda: print(x.dim_order(ambiguity_check=check)))
E(lambda: torch.empty(2, 3).dim_order(ambiguity_check="ILLEGAL"))
E(lambda: torch.empty(2, 3).dim_order(ambiguity_check=[1]))
print(torch.empty(2, 3, 4).transpose(0, 2).dim_order(ambiguity_check=True))
""")


def test_post_accumulate_grad_hook_may_return_the_tensor():
    same_as_torch("""
for hook in [lambda p: p.add_(p.grad, alpha=-0.01), lambda p: p, lambda p: None, lambda p: p.detach(),
             lambda p: p.double(), lambda p: 'x', lambda p: torch.ones(2)]:
    v = torch.tensor([0., 0., 0.], requires_grad=True)
    v.register_post_accumulate_grad_hook(hook)
    E(lambda: v.backward(torch.tensor([1., 2., 3.])))
    print(v)
""")


def test_complex_small_bmm_bits():
    """Below 400 multiply-adds PyTorch's bmm is its own loop, with c10::complex products (no FMA)."""
    same_as_torch("""
torch.manual_seed(0)
for shape_a, shape_b in [((3, 2, 2), (3, 2, 2)), ((3, 5, 5), (3, 5, 5)), ((2, 3, 4), (2, 4, 5)), ((4, 2, 3), (3, 2))]:
    for dt in (torch.complex128, torch.complex64):
        a, b = torch.randn(*shape_a, dtype=dt), torch.randn(*shape_b, dtype=dt)
        print((a @ b).tolist())
        if len(shape_b) == 3:
            print(torch.bmm(a, b).tolist(), torch.baddbmm(torch.randn(1, dtype=dt), a, b).tolist())
""")


def test_eig_conjugate_pair_vectors_keep_negative_zero():
    """A real A's complex pair v ± i·w: the conjugate's imaginary part is -w exactly (-0 where w is 0)."""
    same_as_torch("""
torch.manual_seed(2)
A = torch.randn(3, 2, 2, dtype=torch.float64)
L, V = torch.linalg.eig(A)
print(V.tolist(), torch.dist(V @ torch.diag_embed(L) @ torch.linalg.inv(V), A))
print(torch.linalg.eig(torch.tensor([[0., -1.], [1., 0.]])).eigenvectors.tolist())
""")
