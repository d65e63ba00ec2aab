"""Tensors given for Number, float, int and SymInt arguments, as PyTorch's argument parser takes them
(python_arg_parser.cpp): a Number or float only from a 0-dim tensor outside autograd, an int only from a 0-dim
integer tensor, a SymInt from any one-element integer tensor (minigrad's scalar_arg)."""
from parity import same_as_torch

PRELUDE = """
import torch.nn.functional as F
w = torch.tensor(2., requires_grad=True)   # (requires grad: no Number or float)
c = torch.tensor(2.)                       # (0-dim, no grad: a Number or float)
ci = torch.tensor(2)                       # (0-dim integer: an int)
i = torch.tensor([1])                      # (one element, 1-dim: a SymInt only)
x = torch.arange(12.).reshape(3, 4) / 10 + 0.3
t = torch.arange(32.).reshape(2, 4, 2, 2)
def V(f):   # the result's values, or the error
    try:
        r = f()
        r = r if isinstance(r, (tuple, list)) else (r,)
        print('ok', [round(float(p.detach().double().sum()), 4) for p in r])
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_float_and_number_slots_refuse_a_tensor_that_requires_grad():
    same_as_torch(PRELUDE + """
V(lambda: torch.norm(x, p=w))
V(lambda: torch.norm(x, w, 1))
V(lambda: x.norm(w))
V(lambda: torch.linalg.vector_norm(x, ord=w))
V(lambda: F.normalize(x, p=w))
V(lambda: torch.nan_to_num(x, nan=w))
V(lambda: torch.nan_to_num(x, posinf=w))
V(lambda: x.nan_to_num(neginf=w))
V(lambda: torch.nan_to_num(torch.tensor([1, 2]), nan=w))   # (the parser first: before the integer input's copy)
V(lambda: x.clone().nan_to_num_(w))
V(lambda: torch.tensor([1, 2]).nan_to_num_(0., 1., w))
V(lambda: torch.scalar_tensor(w))
V(lambda: torch.scalar_tensor(torch.tensor([2.])))
V(lambda: F.pdist(x, w))
V(lambda: F.pdist(x, p=w))
V(lambda: F.pairwise_distance(x, x, p=w))
V(lambda: F.pairwise_distance(x, x, 2, w))
V(lambda: F.cosine_similarity(x, x, eps=w))
V(lambda: x.clone().fill_diagonal_(w))
V(lambda: x.clone().fill_diagonal_(torch.tensor([1.])))
V(lambda: F.margin_ranking_loss(x[0], x[1], torch.ones(4), margin=w))
V(lambda: F.embedding(torch.tensor([0, 1]), x.clone(), max_norm=w))
V(lambda: F.embedding(torch.tensor([0, 1]), x.clone(), max_norm=1., norm_type=w))
V(lambda: torch.addcmul(x, x, x, value=torch.tensor([2.])))
V(lambda: torch.addcmul(x, x, x, value=w))
V(lambda: x.clone().addcmul_(x, x, value=w))
V(lambda: x.clone().addcdiv_(x, x, value=torch.tensor([1.])))
V(lambda: F.smooth_l1_loss(x, x * 2, beta=w))
V(lambda: F.huber_loss(x, x * 2, delta=w))
V(lambda: F.huber_loss(x, x * 2, delta=w, weight=torch.ones(3, 4)))
V(lambda: F.pad(x, (1, 1), value=w))
V(lambda: F.triplet_margin_loss(x, x, x, margin=w))
V(lambda: F.triplet_margin_loss(x, x, x, p=w))
V(lambda: F.triplet_margin_loss(x, x, x, eps=w))
""")


def test_float_and_number_slots_take_a_0dim_tensor_outside_autograd():
    same_as_torch(PRELUDE + """
V(lambda: torch.norm(x, c))
V(lambda: F.normalize(x, c))
V(lambda: torch.nan_to_num(x.log() * float('nan'), c, posinf=c))
V(lambda: torch.scalar_tensor(c))
V(lambda: F.pdist(x, c))
V(lambda: F.pairwise_distance(x, x * 2, c, eps=c))
V(lambda: F.cosine_similarity(x, x, eps=c))
V(lambda: x.clone().fill_diagonal_(c))
V(lambda: F.margin_ranking_loss(x[0], x[1], torch.ones(4), c))
V(lambda: F.embedding(torch.tensor([0, 2]), x.clone(), max_norm=c))
V(lambda: torch.addcmul(x, x, x, value=c))
V(lambda: torch.addcdiv(x, x, x, value=c))
V(lambda: F.smooth_l1_loss(x, x * 2, beta=c))
V(lambda: F.huber_loss(x, x * 2, delta=c))
V(lambda: F.pad(x, (1, 1), value=c))
V(lambda: F.triplet_margin_loss(x, x * 2, x, margin=c))
""")


def test_int_slots_take_only_a_0dim_integer_tensor():
    same_as_torch(PRELUDE + """
V(lambda: torch.mvlgamma(x + 2, ci))
V(lambda: torch.mvlgamma(x, w))
V(lambda: x.mvlgamma(w))
V(lambda: torch.polygamma(ci, x))
V(lambda: torch.polygamma(w, x))
V(lambda: x.polygamma(w))
V(lambda: torch.diag_embed(x, ci))
V(lambda: torch.diag_embed(x, w))
V(lambda: torch.diag_embed(x, i))
V(lambda: torch.diag_embed(x, offset=w))
V(lambda: F.pixel_shuffle(t, ci))
V(lambda: F.pixel_shuffle(t, torch.tensor([2])))
V(lambda: F.pixel_unshuffle(t, ci))
V(lambda: F.pixel_unshuffle(t, w))
V(lambda: F.glu(t, ci))
V(lambda: F.glu(t, i))
V(lambda: F.glu(t, dim=torch.tensor([1])))
""")


def test_symint_slots_take_a_one_element_integer_tensor():
    same_as_torch(PRELUDE + """
V(lambda: torch.tril(x, i))
V(lambda: torch.tril(x, torch.tensor([1.])))
V(lambda: torch.triu(x, torch.tensor([-1])))
V(lambda: x.clone().tril_(torch.tensor([-1])))
V(lambda: x.clone().triu_(ci))
V(lambda: torch.kthvalue(x, i))
V(lambda: torch.kthvalue(x, torch.tensor([1, 2])))
V(lambda: x.kthvalue(w))
""")


def test_split_reads_a_tensor_size_with_int():
    # (PyTorch's Python Tensor.split: int(split_size) for a tensor, which takes a float or one that requires grad)
    same_as_torch(PRELUDE + """
V(lambda: x.split(i))
V(lambda: x.split(torch.tensor(1.5)))
V(lambda: x.split(w))
V(lambda: x.split(torch.tensor(True)))
V(lambda: x.split(torch.tensor([1, 2])))
V(lambda: torch.split(x, ci, 1))
""")


def test_repeat_interleave_refuses_float_counts():
    same_as_torch(PRELUDE + """
V(lambda: x.repeat_interleave(w))
V(lambda: x.repeat_interleave(torch.tensor(2.)))
V(lambda: x.repeat_interleave(torch.tensor([-1])))
V(lambda: x.repeat_interleave(torch.tensor([1, 0, 2]), dim=0))
V(lambda: torch.repeat_interleave(torch.tensor([1., 2.])))
V(lambda: torch.repeat_interleave(torch.tensor([1, -2])))
""")


def test_inplace_int_slots_take_a_0dim_integer_tensor():
    same_as_torch(PRELUDE + """
V(lambda: (x + 2).mvlgamma_(ci))
V(lambda: (x + 2).mvlgamma_(w))
V(lambda: x.clone().polygamma_(torch.tensor(1)))
V(lambda: x.clone().polygamma_(i))
""")
