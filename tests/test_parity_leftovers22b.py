"""Session 22 leftovers, second round: 0-dim (or one-element) integer tensors where PyTorch's parser reads an int or a
list of ints; None for an ``int`` of a one-overload function; a str index; index_add/index_copy/index_fill of an
empty tensor; ``//=`` into a float tensor with a complex number; an unpack hook changing tanh's or sigmoid's saved
result; the dtype errors of convolutions; a sequence times a ``torch.Size``.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_zero_dim_integer_tensors_as_int_dims():
    # PyTorch: its parser reads a 0-dim integer tensor as an ``int`` (dims of softmax, cumsum, argmax, topk ...);
    # minigrad said "argument 'dim' must be int, not Tensor" (and saved a tensor as the node's dim); a 1-dim one
    # is refused
    same_as_torch("""
x = torch.arange(12.).reshape(3, 4)
i0, i1, i2 = torch.tensor(0), torch.tensor(1), torch.tensor(2)
F = torch.nn.functional
print(x.softmax(i1), x.log_softmax(i1).sum(), torch.softmax(x, i1).sum(), F.log_softmax(x, i1).sum())
print(F.softmax(x, dim=i1).sum(), x.cumsum(i1), x.cumprod(i0).sum(), x.argmax(i1), x.argmin(i0))
print(x.topk(i2, i0), x.kthvalue(i2, i1), x.median(i1), x.mode(i1), x.cummax(i1).values.sum())
print(x.prod(i1), x.sort(i0, descending=True).values.sum(), x.argsort(i0), x.rot90(i1).shape)
print(x.transpose(i0, i1).shape, x.unsqueeze(i1).shape, x.reshape(3, 1, 4).squeeze(i1).shape)
print(x.movedim(i0, i1).shape, x.moveaxis(i0, i1).shape, x.topk(torch.tensor([2])).values)
y = x.clone().requires_grad_()
z = y.cumsum(i1)
print(z.grad_fn._saved_dim, type(z.grad_fn._saved_dim).__name__)
# (the ops handing the tensor on: their nodes show PyTorch's int, the index tensor stays one)
for z in [torch.cat([y, y], i1), y.index_select(i1, torch.tensor([0])), y.narrow(i0, i0, i2), y.select(i1, i2),
          y.chunk(i2, i1)[0], torch.nn.functional.glu(y, i1), y.index_select(i0, i1)]:
    print(z.grad_fn._saved_dim, type(z.grad_fn._saved_dim).__name__, getattr(z.grad_fn, '_saved_index', None))
print(y.narrow(i0, i0, i2).grad_fn._saved_end, y.unfold(i1, i2, i1).grad_fn._saved_dimension)
l1 = torch.tensor([1])
E(lambda: x.softmax(l1))
E(lambda: x.unsqueeze(l1))
E(lambda: x.transpose(l1 - 1, l1))
E(lambda: x.softmax(torch.tensor(True)))
""")


def test_one_element_integer_tensors_in_lists_of_ints():
    # PyTorch: an element of a ``tuple of ints`` may be any one-element integer tensor (flip's dims, roll's shifts,
    # repeat's, permute's and view's sizes, given one by one or in a list); minigrad refused them
    same_as_torch("""
x = torch.arange(12.).reshape(3, 4)
i1, l1 = torch.tensor(1), torch.tensor([1])
print(x.flip(i1), x.flip(l1).sum(), x.flip([l1]).sum(), torch.flip(x, (i1,)).sum(), x.sum(l1), x.sum((l1,)))
print(x.roll(l1, l1), x.repeat(l1 + 1, l1).shape, x.permute(l1, l1 - 1).shape, x.view(l1 * 12).shape)
print(x[:1].expand(l1 + 1, 4).shape, x.reshape(i1 * 2, 6).shape, x.mean(l1), x.std(l1))
E(lambda: x.flip([1.5]))
E(lambda: x.view(torch.tensor(2.), 6))
""")


def test_none_for_an_int_argument():
    # PyTorch: an ``int`` (not ``int?``) refuses None: "cat(): argument 'dim' must be int, not NoneType"
    # (minigrad's cat and stack compared None with ints: "'<=' not supported ..."); argmax's ``int? dim`` takes it
    same_as_torch("""
a = torch.ones(2, 3)
E(lambda: torch.cat((a,), dim=None))
E(lambda: torch.cat((a, a), None))
E(lambda: torch.stack((a,), dim=None))
E(lambda: a.select(None, 0))
E(lambda: torch.select(a, None, 0))
print(torch.argmax(a, None), torch.cat((a, a), 1).shape)
""")


def test_str_index_counts_its_characters():
    # PyTorch: a str is a sequence of sequences, so x['abc'] is x['a', 'b', 'c']: "too many indices" comes first
    # (minigrad said "new(): invalid data type 'str'"); a list of strs fails as torch.tensor(['a']) does
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
E(lambda: torch.ones(3)['abc'])
E(lambda: torch.ones(3)[0, 'abc'])
E(lambda: torch.tensor(3.)['a'])
E(lambda: torch.ones(3)['a'])
E(lambda: torch.ones(2, 3)[0, 'a'])
E(lambda: torch.ones(3)[['a']])
def f():
    x = torch.ones(3)
    x['ab'] = 1
E(f)
""")


def test_index_ops_of_an_empty_tensor_check_no_index():
    # PyTorch: index_add, index_copy and index_fill of an empty (2-d or more) tensor return it, whatever the index
    # (minigrad raised its bounds error); a 1-d empty tensor is still checked
    same_as_torch("""
i5 = torch.tensor([5])
print(torch.zeros(0, 3).index_add(1, i5, torch.ones(0, 1)), torch.zeros(2, 0).index_add(1, i5, torch.ones(2, 1)))
print(torch.zeros(0, 3).index_copy(1, i5, torch.ones(0, 1)), torch.zeros(0, 3).index_fill(1, i5, 1.))
print(torch.zeros(0, 3, 2).index_add_(1, torch.tensor([-5]), torch.ones(0, 1, 2), alpha=2))
print(torch.zeros(3, 0).index_fill_(0, i5, 1), torch.zeros(0, 3).index_copy_(1, i5, torch.ones(0, 1)))
E(lambda: torch.zeros(0).index_add(0, i5, torch.ones(1)))
E(lambda: torch.zeros(2, 3).index_add(1, i5, torch.ones(2, 1)))
""")


def test_floor_divide_in_place_checks_the_cast_first():
    # PyTorch: x //= 1j into a float tensor is TensorIterator's cast error, before the kernel's "div_floor_cpu"
    same_as_torch("""
def ip(a, b):
    def f():
        x = a.clone()
        x //= b
        print(x)
    return f
E(ip(torch.ones(2), 1j))
E(ip(torch.ones(2), torch.tensor([1j, 2j])))
E(ip(torch.ones(2), torch.ones(2, 2)))
E(ip(torch.ones(2, dtype=torch.long), 0.5))
E(ip(torch.ones(2, dtype=torch.bool), True))
E(ip(torch.ones(2, dtype=torch.complex64), 2))
E(ip(torch.ones(2), 2))
""")


def test_unpack_hook_of_another_shape_for_tanh_and_sigmoid():
    # PyTorch: tanh_backward / sigmoid_backward broadcast the gradient with the saved result: a result of another
    # shape is the broadcast RuntimeError (minigrad's raised NumPy's ValueError)
    same_as_torch("""
for op in ['tanh', 'sigmoid']:
    x = torch.ones(3, requires_grad=True)
    y = getattr(x, op)()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: torch.ones(4))
    E(lambda: y.sum().backward())
    x = torch.ones(3, requires_grad=True)
    y = getattr(x, op)()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: torch.full((1,), 0.5))
    y.sum().backward()
    print(x.grad)
""")


def test_convolution_dtype_errors():
    # PyTorch: a bfloat16 input takes oneDNN's kernel, whose error names its type CPUBFloat16Type; a bool input is the
    # slow kernel's dtype error before the weight's type, as int32 and uint8 are for a transposed convolution
    same_as_torch("""
F = torch.nn.functional
for a, b in [(torch.bfloat16, torch.float32), (torch.bfloat16, torch.float64), (torch.float32, torch.bfloat16),
             (torch.bool, torch.float32), (torch.bool, torch.int64), (torch.int32, torch.float32),
             (torch.uint8, torch.float32), (torch.float64, torch.float32)]:
    for fn, s, w, kw in [(F.conv2d, (1, 2, 3, 3), (2, 2, 1, 1), {}), (F.conv1d, (1, 2, 3), (2, 2, 1), {}),
                         (F.conv3d, (1, 2, 3, 3, 3), (2, 2, 1, 1, 1), {}),
                         (F.conv2d, (1, 4, 3, 3), (4, 1, 2, 2), {'groups': 4}),
                         (F.conv_transpose2d, (1, 2, 3, 3), (2, 2, 1, 1), {}),
                         (F.conv_transpose1d, (1, 2, 3), (2, 2, 1), {})]:
        E(lambda: fn(torch.ones(*s, dtype=a), torch.ones(*w, dtype=b), **kw))
""")


def test_sequence_times_size():
    # PyTorch: a str, list or tuple times a torch.Size is Python's error naming the Size (minigrad's named the str)
    same_as_torch("""
s = torch.Size([2])
E(lambda: 'a' * s)
E(lambda: [1] * s)
E(lambda: (1,) * s)
E(lambda: s * 'a')
print(2 * s, s * 2, s * torch.tensor(2))
""")
