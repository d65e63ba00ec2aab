"""Parity programs from an eleventh hunt: data loading, seeded randomness, distributions and the RL/classic tutorials.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch) and
both stdouts must be identical once object addresses are masked. The areas: torch.utils.data (datasets, DataLoader
shuffling under the global seed and under an explicit generator, drop_last, collate_fn, default_collate and
default_convert of dicts/tuples/NumPy arrays and scalars/numbers, random_split, Subset, ConcatDataset, samplers),
the random functions and in-place random fills under a seed, Generator state, nn.init and dropout masks,
torch.distributions (sampling under a seed, log_prob/entropy, rsample gradients, validate_args errors, reprs,
kl_divergence, transforms), and the tutorials: REINFORCE, DQN, "Training a classifier", "Datasets & DataLoaders",
"Optimizing model parameters" on synthetic data. Programs marked "fixed:" printed something different from
PyTorch before this hunt's fix; the others matched from the start and guard the behaviour.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['dataloader_shuffle_seed_and_generator'] = r'''
import torch
from torch.utils.data import TensorDataset, DataLoader, Dataset
x = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
print(len(ds), ds[3])
torch.manual_seed(0)
dl = DataLoader(ds, batch_size=3, shuffle=True)
for xb, yb in dl:
    print(yb.tolist(), xb.dtype, xb.shape)
for xb, yb in dl:
    print(yb.tolist())
print(len(dl))
dl = DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(0))
print([b[1].tolist() for b in dl])
print([b[1].tolist() for b in dl])
dl = DataLoader(ds, batch_size=4, shuffle=False, drop_last=True)
print([b[1].tolist() for b in dl], len(dl))
print(torch.randn(2))
print(torch.initial_seed())
'''

PROGRAMS['default_collate_dict_numpy_numbers'] = r'''
import torch
import numpy as np
from torch.utils.data import DataLoader, Dataset, default_collate
class D(Dataset):
    def __init__(self): self.n = 5
    def __len__(self): return self.n
    def __getitem__(self, i):
        return {'a': i, 'b': float(i) / 2, 'c': np.array([i, i+1]), 'd': torch.tensor([i]), 'e': 'name%d' % i, 'f': (i, np.float32(i)), 'g': np.int64(i), 'h': True}
dl = DataLoader(D(), batch_size=2)
for b in dl:
    for k, v in b.items():
        print(k, v, getattr(v, 'dtype', None), type(v).__name__)
print(default_collate([1, 2, 3]))
print(default_collate([1.5, 2.0]))
print(default_collate([np.float64(1.5), np.float64(2.0)]))
print(default_collate([np.array(1.5, dtype=np.float32), np.array(2.0, dtype=np.float32)]))
print(default_collate([(1, 'a'), (2, 'b')]))
print(default_collate([[1, 2], [3, 4]]))
from collections import namedtuple
P = namedtuple('P', 'x y')
print(default_collate([P(1, 2.0), P(3, 4.0)]))
dl = DataLoader(list(range(7)), batch_size=3, collate_fn=lambda b: sum(b))
print(list(dl))
dl = DataLoader(list(range(7)), batch_size=None)
print(list(dl))
dl = DataLoader([torch.ones(2) * i for i in range(4)], batch_size=2)
print(list(dl))
'''

PROGRAMS['random_split_subset_concat_samplers'] = r'''
import torch
from torch.utils.data import random_split, Subset, ConcatDataset, TensorDataset, DataLoader
from torch.utils.data import WeightedRandomSampler, SubsetRandomSampler, BatchSampler, SequentialSampler, RandomSampler
ds = TensorDataset(torch.arange(10))
a, b = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
print(len(a), len(b), a.indices, b.indices, type(a).__name__)
torch.manual_seed(1)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2])
print(a.indices, b.indices, c.indices)
a, b, c = random_split(range(11), [0.5, 0.3, 0.2])
print(a.indices, b.indices, c.indices)
a, b = random_split(range(10), [3, 7])
print(a.indices, b.indices, a[0], list(b))
try:
    random_split(range(10), [3, 6])
except Exception as e:
    print(type(e).__name__, e)
s = Subset(ds, [1, 3, 5])
print(len(s), s[1])
c = ConcatDataset([ds, s, range(3)])
print(len(c), c[10], c[12], c[13], c.cumulative_sizes)
torch.manual_seed(3)
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 8)))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 3, replacement=False)))
print(list(SubsetRandomSampler([10, 20, 30, 40])))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
print(list(RandomSampler(range(5))))
print(list(RandomSampler(range(5), replacement=True, num_samples=8)))
print(list(RandomSampler(range(5), num_samples=12)))
g = torch.Generator().manual_seed(5)
print(list(RandomSampler(range(6), generator=g)))
dl = DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler(torch.ones(10), 10, generator=g))
print([b[0].tolist() for b in dl])
dl = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 3, False))
print([b[0].tolist() for b in dl])
print(torch.rand(1))
'''

# fixed: default_collate refused NumPy string/object arrays with the wrong message
PROGRAMS['dataloader_errors_attrs_iterable_collate'] = r'''
import torch
from torch.utils.data import *
import torch.utils.data as tud
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
ds = TensorDataset(torch.arange(6), torch.arange(6) * 2)
E(lambda: DataLoader(ds, shuffle=True, sampler=SequentialSampler(ds)))
E(lambda: DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(SequentialSampler(ds), 2, False)))
E(lambda: DataLoader(ds, batch_size=None, drop_last=True))
E(lambda: DataLoader(ds, num_workers=-1))
E(lambda: DataLoader(ds, prefetch_factor=2))
E(lambda: DataLoader(ds, persistent_workers=True))
E(lambda: DataLoader(ds, timeout=-1))
E(lambda: TensorDataset(torch.ones(2), torch.ones(3)))
E(lambda: BatchSampler(range(3), 0, False))
E(lambda: BatchSampler(range(3), 2, 'no'))
E(lambda: RandomSampler(range(3), replacement=1))
E(lambda: RandomSampler(range(3), num_samples=0))
E(lambda: WeightedRandomSampler([1., 2.], 0))
E(lambda: WeightedRandomSampler([1., 2.], 3, replacement=False))
E(lambda: list(WeightedRandomSampler([1., 2.], 3, replacement=False)))
E(lambda: WeightedRandomSampler(torch.ones(2, 2), 3))
E(lambda: random_split(range(5), [0.5, 0.6]))
E(lambda: random_split(range(5), [-1, 6]))
E(lambda: Subset(ds, [0, 9])[1])
E(lambda: ConcatDataset([]))
E(lambda: ConcatDataset([ds])[-1])
E(lambda: ConcatDataset([ds])[-7])
E(lambda: ds[10])
E(lambda: len(DataLoader(ds, batch_size=4)))
E(lambda: len(DataLoader(ds, batch_size=4, drop_last=True)))
E(lambda: DataLoader(ds).batch_size)
E(lambda: DataLoader(ds).sampler.__class__.__name__)
E(lambda: DataLoader(ds, shuffle=True).sampler.__class__.__name__)
E(lambda: DataLoader(ds).batch_sampler.__class__.__name__)
E(lambda: (DataLoader(ds).num_workers, DataLoader(ds).drop_last, DataLoader(ds).pin_memory, DataLoader(ds).timeout))
E(lambda: DataLoader(ds).collate_fn.__name__)
E(lambda: DataLoader(ds, batch_size=None).collate_fn.__name__)
E(lambda: type(iter(DataLoader(ds))).__name__)
E(lambda: next(iter(DataLoader(ds, batch_size=4))))
class It(IterableDataset):
    def __iter__(self): return iter(range(5))
E(lambda: list(DataLoader(It(), batch_size=2)))
E(lambda: DataLoader(It(), shuffle=True))
E(lambda: DataLoader(It(), sampler=[0, 1]))
E(lambda: len(DataLoader(It())))
E(lambda: list(ChainDataset([It(), It()])))
E(lambda: list(It() + It()))
E(lambda: len(ds + ds))
E(lambda: StackDataset(ds, ds)[1])
E(lambda: StackDataset(a=ds, b=range(6))[2])
E(lambda: tud.get_worker_info())
E(lambda: tud.default_convert([1, 2]))
import numpy as np
E(lambda: tud.default_convert(np.array([1, 2])))
E(lambda: tud.default_collate([np.array(['a'])]))
E(lambda: tud.default_collate([{'a': 1}, {'b': 2}]))
E(lambda: tud.default_collate([torch.ones(2), torch.ones(3)]))
E(lambda: tud.default_collate([[1, 2], [3]]))
E(lambda: tud.default_collate([object()]))
E(lambda: tud.default_collate([None]))
E(lambda: tud.default_collate([torch.tensor(1), torch.tensor(2)]))
E(lambda: tud.default_collate([True, False]))
E(lambda: tud.default_collate(['a', 'b']))
E(lambda: tud.default_collate([b'a']))
E(lambda: tud.default_collate([np.int32(1), np.int32(2)]))
E(lambda: tud.default_collate([np.bool_(True)]))
E(lambda: tud.default_collate([1.0 + 2j]))
E(lambda: tud.default_collate([torch.ones(2, dtype=torch.float64)]).dtype)
'''

# fixed: default_collate/default_convert: NumPy scalars (dtype inferred from the whole batch, converted with batch_size=None), OrderedDict kept, string arrays left alone
PROGRAMS['default_collate_convert_numpy_scalars_mappings'] = r'''
import torch
import numpy as np
from collections import OrderedDict, defaultdict
from torch.utils.data import DataLoader, default_collate, default_convert
def E(f):
    try:
        r = f(); print('ok', type(r).__name__, r)
    except Exception as e:
        print(type(e).__name__, str(e))
E(lambda: default_collate([np.array(['a'])]))
E(lambda: default_collate([np.array([object()])]))
E(lambda: default_collate([np.str_('a'), np.str_('b')]))
E(lambda: default_collate([OrderedDict(a=1, b=2.0), OrderedDict(a=3, b=4.0)]))
E(lambda: default_collate([np.float64(1.5), np.float64(2.0)]))
E(lambda: default_collate([np.float32(1.5), 2.0]))
E(lambda: default_collate([np.int8(1), np.int8(2)]))
E(lambda: default_convert(np.float64(1.5)))
E(lambda: default_convert(np.int32(3)))
E(lambda: default_convert((np.array([1]), 2)))
E(lambda: default_convert(np.array(['x'])))
E(lambda: default_convert(OrderedDict(a=np.ones(2))))
E(lambda: default_convert(np.str_('a')))
E(lambda: default_convert(range(3)))
E(lambda: list(DataLoader([np.float32(i) for i in range(3)], batch_size=None)))
E(lambda: list(DataLoader([(np.int64(i), np.ones(1)) for i in range(2)], batch_size=None)))
E(lambda: list(DataLoader([{'x': np.ones(2) * i} for i in range(2)], batch_size=2)))
E(lambda: default_collate([torch.ones(2, requires_grad=True), torch.zeros(2)]))
E(lambda: default_collate([[np.array(1.5), 2], [np.array(2.5), 3]]))
'''

# fixed: random_split warned nothing for an empty split and accepted fractions outside [0, 1]; DistributedSampler was missing (torch.utils.data.distributed)
PROGRAMS['distributed_sampler_getitems_random_split_warning'] = r'''
import torch
import torch.utils.data as tud
from torch.utils.data import DataLoader, Dataset, Sampler, TensorDataset
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10))
from torch.utils.data.distributed import DistributedSampler
s = DistributedSampler(ds, num_replicas=3, rank=1, shuffle=True, seed=5)
print(list(s), len(s))
s.set_epoch(1); print(list(s))
print(list(DistributedSampler(ds, num_replicas=3, rank=2, shuffle=False)))
print(list(DistributedSampler(ds, num_replicas=3, rank=0, shuffle=False, drop_last=True)))
E(lambda: DistributedSampler(ds, num_replicas=3, rank=3))
E(lambda: DistributedSampler(ds))
class EvenSampler(Sampler):
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(0, self.n, 2))
    def __len__(self): return (self.n + 1) // 2
print([b[0].tolist() for b in DataLoader(ds, batch_size=2, sampler=EvenSampler(10))])
print([b[0].tolist() for b in DataLoader(ds, batch_size=3, sampler=[9, 1, 5, 3])])
class G(Dataset):
    def __init__(self): self.calls = []
    def __len__(self): return 5
    def __getitem__(self, i): self.calls.append(('one', i)); return i
    def __getitems__(self, idx): self.calls.append(('many', list(idx))); return [i * 10 for i in idx]
g = G()
print(list(DataLoader(g, batch_size=2)), g.calls)
g = G()
print(list(DataLoader(g, batch_size=None)), g.calls)
print(tud.Subset(g, [1, 2]).__getitems__([0, 1]))
a, b = tud.random_split(range(3), [0.5, 0.5], generator=torch.Generator().manual_seed(0))
print(list(a), list(b))
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    parts = tud.random_split(range(2), [0.1, 0.1, 0.8], generator=torch.Generator().manual_seed(0))
print([list(p) for p in parts], [str(w.message) for w in ws])
dl = DataLoader(ds, batch_size=4, shuffle=True)
it = iter(dl)
print(len(it), next(it), it._num_yielded)
print(type(dl.dataset).__name__, dl.dataset is ds)
class Sq(tud.IterableDataset):
    def __init__(self, n): self.n = n
    def __iter__(self):
        info = tud.get_worker_info()
        return iter(i * i for i in range(self.n))
print(list(DataLoader(Sq(5), batch_size=2, drop_last=True)), list(DataLoader(Sq(3), batch_size=None)))
print(list(DataLoader(Sq(3))))
print(next(iter(DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(7)))))
print(torch.rand(2))
E(lambda: tud.random_split(range(4), [1.5, -0.5]))
import warnings
def w():
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        tud.random_split(range(1), [0.5, 0.5])
    return [(w.filename == __file__ or w.filename, w.lineno) for w in ws]
E(w)
from torch.utils.data import DistributedSampler as DS2
print(DS2 is DistributedSampler, DS2.__name__, DS2)
for drop in (False, True):
    for r in range(4):
        s = DS2(range(10), num_replicas=4, rank=r, drop_last=drop, seed=3)
        s.set_epoch(2)
        print(drop, r, list(s), len(s), s.total_size, s.num_samples)
print(list(DS2(range(2), num_replicas=5, rank=4)), list(DS2(range(2), num_replicas=5, rank=4, shuffle=False)))
dl = DataLoader(ds, batch_size=2, sampler=DS2(ds, num_replicas=2, rank=0))
for epoch in range(2):
    dl.sampler.set_epoch(epoch)
    print([b[0].tolist() for b in dl])
E(lambda: DS2(ds, num_replicas=2))
E(lambda: DS2(ds, num_replicas=2, rank=-1))
print(torch.rand(2))
'''

PROGRAMS['random_functions_seeded'] = r'''
import torch
torch.manual_seed(0)
print(torch.randperm(10))
print(torch.randperm(10, dtype=torch.float32))
print(torch.randperm(3000)[:10])
print(torch.multinomial(torch.tensor([0.1, 0.5, 0.4]), 5, replacement=True))
print(torch.multinomial(torch.tensor([0.1, 0.5, 0.4, 1.0]), 3))
print(torch.multinomial(torch.tensor([[0.1, 0.5, 0.4], [1., 1., 1.]]), 2))
print(torch.multinomial(torch.tensor([[0.1, 0.5, 0.4], [1., 1., 1.]]), 6, replacement=True))
print(torch.bernoulli(torch.full((6,), 0.3)))
print(torch.bernoulli(torch.ones(3, 2) * 0.5, p=0.9))
print(torch.randint(10, (5,)))
print(torch.randint(3, 10, (2, 3)))
print(torch.randint(-5, 5, (4,), dtype=torch.float32))
print(torch.normal(0., 1., (3,)))
print(torch.normal(torch.zeros(3), 2.))
print(torch.normal(1., torch.ones(3)))
print(torch.normal(torch.arange(3.), torch.arange(1., 4.)))
t = torch.empty(5)
print(t.uniform_(-1, 1))
print(t.normal_(2, 3))
print(t.exponential_())
print(t.exponential_(3.))
print(t.geometric_(0.3))
print(t.log_normal_())
print(t.log_normal_(1, 0.5))
print(t.cauchy_())
print(t.random_())
print(t.random_(10))
print(t.random_(3, 8))
d = torch.empty(4, dtype=torch.float64)
print(d.uniform_(), d.normal_(), d.exponential_(), d.geometric_(0.5), d.log_normal_(), d.cauchy_(), d.random_())
i = torch.empty(4, dtype=torch.int64)
print(i.random_(), i.random_(100), i.random_(-3, 3))
print(torch.empty(3, dtype=torch.int32).random_())
print(torch.empty(3, dtype=torch.uint8).random_())
print(torch.empty(3, dtype=torch.bool).random_())
print(torch.empty(3, dtype=torch.float16).random_())
print(torch.empty(3, dtype=torch.bfloat16).uniform_())
print(torch.rand_like(torch.ones(2, 2, dtype=torch.float64)))
print(torch.randn_like(torch.ones(3)))
print(torch.randint_like(torch.ones(3), 7))
print(torch.randint_like(torch.ones(3), 2, 7))
print(torch.rand(2, 3, dtype=torch.float64))
print(torch.randn(17))
print(torch.randn(3, dtype=torch.float64))
'''

PROGRAMS['generator_state_fork_rng_seed'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(7)
s = torch.get_rng_state()
print(s.dtype, s.shape, s[:10], s[-10:])
a = torch.rand(3)
torch.set_rng_state(s)
print(torch.equal(a, torch.rand(3)))
g = torch.Generator()
print(g.initial_seed(), g.device)
g.manual_seed(123)
print(g.initial_seed())
st = g.get_state()
print(st.shape, st[:8])
x = torch.randn(3, generator=g)
g.set_state(st)
print(torch.equal(x, torch.randn(3, generator=g)))
print(torch.initial_seed())
with torch.random.fork_rng():
    torch.manual_seed(99)
    print(torch.rand(2))
print(torch.rand(2))
print(torch.random.initial_seed())
E(lambda: torch.manual_seed(-1))
E(lambda: torch.manual_seed(2**64))
E(lambda: torch.manual_seed(1.5))
torch.manual_seed(2**63)
print(torch.rand(2), torch.initial_seed())
torch.manual_seed(-5)
print(torch.rand(2), torch.initial_seed())
E(lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8)))
E(lambda: g.set_state(torch.zeros(5056)))
print(type(torch.default_generator).__name__)
print(torch.default_generator.initial_seed())
g2 = torch.Generator().manual_seed(3)
print(type(g2).__name__, g2 is not None)
print(torch.rand(2, generator=g2), torch.randint(5, (3,), generator=g2), torch.randperm(4, generator=g2))
print(torch.normal(0, 1, (2,), generator=g2))
print(torch.multinomial(torch.ones(4), 2, generator=g2), torch.bernoulli(torch.ones(3) / 2, generator=g2))
print(torch.empty(3).uniform_(generator=g2))
s1 = torch.seed()
print(type(s1).__name__, s1 == torch.initial_seed())
E(lambda: torch.rand(2, generator=5))
'''

PROGRAMS['nn_init_and_dropout_masks_seeded'] = r'''
import torch, torch.nn as nn
torch.manual_seed(0)
w = torch.empty(4, 3)
for f in [nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.orthogonal_, nn.init.trunc_normal_, nn.init.uniform_, nn.init.normal_]:
    print(f.__name__, f(w))
print(nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'))
print(nn.init.kaiming_uniform_(w, a=0.2, nonlinearity='leaky_relu'))
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('tanh')))
print(nn.init.trunc_normal_(w, mean=1, std=2, a=-1, b=2))
print(nn.init.sparse_(torch.empty(5, 3), sparsity=0.4))
print(nn.init.sparse_(torch.empty(6, 2), sparsity=0.5, std=0.1))
print(nn.init.orthogonal_(torch.empty(3, 5), gain=2))
print(nn.init.orthogonal_(torch.empty(2, 3, 2)))
print(nn.init.eye_(torch.empty(2, 3)), nn.init.dirac_(torch.empty(2, 2, 3)))
print(nn.init.constant_(w, 0.3), nn.init.ones_(torch.empty(2)), nn.init.zeros_(torch.empty(2)))
print(nn.init.kaiming_uniform_(torch.empty(2, 3, 3, 3)).flatten()[:5])
print(nn.init.xavier_normal_(torch.empty(3, 2, 5, dtype=torch.float64)).flatten()[:5])
print([nn.init.calculate_gain(n) for n in ['linear', 'conv2d', 'sigmoid', 'tanh', 'relu', 'selu']], nn.init.calculate_gain('leaky_relu', 0.3))
d = nn.Dropout(0.3)
x = torch.ones(3, 5)
print(d(x))
print(nn.Dropout(0.5, inplace=True)(torch.ones(4)))
print(nn.functional.dropout(torch.ones(2, 3, dtype=torch.float64), 0.4))
print(nn.Dropout2d(0.5)(torch.ones(2, 3, 2, 2)))
print(nn.Dropout1d(0.5)(torch.ones(2, 3, 2)))
print(nn.AlphaDropout(0.2)(torch.ones(2, 4)))
print(nn.FeatureAlphaDropout(0.2)(torch.ones(2, 3, 2)))
d.eval(); print(d(x))
print(nn.Linear(3, 2).weight, nn.Conv2d(1, 2, 2).bias, nn.Embedding(3, 2).weight)
print(nn.LSTM(2, 2).weight_hh_l0[:2], nn.BatchNorm1d(2).weight)
print(nn.Bilinear(2, 2, 1).weight)
print(nn.MultiheadAttention(4, 2).in_proj_weight[0])
print(nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=4).encoder.layers[0].linear1.weight)
'''

# fixed: randperm(-1) gave randperm_out's message instead of the empty tensor's
PROGRAMS['random_edge_dtypes_errors'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
print(torch.randint(0, 2**40, (3,)))
print(torch.randint(-2**62, 2**62, (3,)))
print(torch.randint(0, 2**33, (3,), dtype=torch.float64))
print(torch.empty(3, dtype=torch.int64).random_(0, 2**40))
print(torch.empty(3, dtype=torch.int64).random_(-2**63, 2**63 - 1))
print(torch.empty(3, dtype=torch.float64).random_(2**54, 2**55))
print(torch.randperm(50000)[:6], torch.randperm(50000, dtype=torch.int32)[-3:])
print(torch.randperm(0), torch.randperm(1))
print(torch.randn(20).sum(), torch.randn(15)[-1], torch.randn(33, dtype=torch.float64)[-1])
x = torch.empty(4, 6)
x.t().normal_()
print(x)
y = torch.empty(4, 6)[:, ::2]
print(y.normal_(), y.uniform_(), y.exponential_())
print(torch.empty(20).normal_(3., 0.))
print(torch.empty(20).bernoulli_(0.3))
print(torch.empty(5).bernoulli_(torch.tensor([0.1, 0.9, 0.5, 0.5, 1.0])))
print(torch.empty(5, dtype=torch.float64).bernoulli_(0.5))
print(torch.bernoulli(torch.rand(20, dtype=torch.float64)))
print(torch.empty(3, dtype=torch.int64).bernoulli_(0.5))
print(torch.empty(3, dtype=torch.bool).bernoulli_(0.5))
print(torch.multinomial(torch.tensor([0., 1., 0., 2.]), 2))
print(torch.multinomial(torch.rand(3, 300), 10))
print(torch.multinomial(torch.rand(300), 100, replacement=True)[-5:])
print(torch.multinomial(torch.rand(5, dtype=torch.float64), 5))
E(lambda: torch.multinomial(torch.tensor([0., 1.]), 3))
E(lambda: torch.multinomial(torch.tensor([0., 1., 0.]), 2))
E(lambda: torch.multinomial(torch.tensor([-1., 1.]), 1))
E(lambda: torch.multinomial(torch.tensor([0., 0.]), 1))
E(lambda: torch.multinomial(torch.tensor([1., 1.]), 0))
E(lambda: torch.multinomial(torch.tensor([1, 1]), 1))
E(lambda: torch.multinomial(torch.ones(2, 2, 2), 1))
E(lambda: torch.bernoulli(torch.tensor([1.5])))
E(lambda: torch.empty(2).bernoulli_(1.5))
E(lambda: torch.empty(2).uniform_(2, 1))
E(lambda: torch.empty(2).normal_(0, -1))
E(lambda: torch.empty(2).exponential_(-1))
E(lambda: torch.empty(2).geometric_(0))
E(lambda: torch.empty(2).geometric_(1.5))
E(lambda: torch.empty(2).log_normal_(0, 0))
E(lambda: torch.empty(2).random_(5, 5))
E(lambda: torch.empty(2, dtype=torch.uint8).random_(0, 300))
E(lambda: torch.randint(5, 3, (2,)))
E(lambda: torch.randint(5, (2,), dtype=torch.bool))
E(lambda: torch.randperm(-1))
E(lambda: torch.normal(torch.zeros(2), torch.tensor([1., -1.])))
E(lambda: torch.normal(0., 1.))
E(lambda: torch.rand(2, dtype=torch.int64))
E(lambda: torch.randn(2, dtype=torch.int32))
E(lambda: torch.randn(2, requires_grad=True))
E(lambda: torch.empty(2).cauchy_(0, -1))
print(torch.empty(3, dtype=torch.float16).normal_(), torch.empty(3, dtype=torch.bfloat16).normal_())
print(torch.empty(3, dtype=torch.float16).exponential_(), torch.empty(3, dtype=torch.float16).geometric_(0.4))
print(torch.randn(2, dtype=torch.complex64), torch.rand(2, dtype=torch.complex128))
print(torch.empty(2, dtype=torch.complex64).normal_())
print(torch.rand(3) > 0.5)
print(torch.randn(2, 3, 4).std())
'''

# fixed: randperm accepted bool/complex dtypes and n beyond the dtype's range or precision
PROGRAMS['randperm_dtype_checks'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
E(lambda: torch.randperm(-1))
E(lambda: torch.randperm(-1, out=torch.empty(0, dtype=torch.int64)))
E(lambda: torch.randperm(-1, dtype=torch.float32))
for dt in [torch.bool, torch.bfloat16, torch.complex64, torch.float16, torch.int8, torch.uint8, torch.int16, torch.float64]:
    E(lambda: torch.randperm(5, dtype=dt))
E(lambda: torch.randperm(300, dtype=torch.uint8))
E(lambda: torch.randperm(256, dtype=torch.uint8)[:5])
E(lambda: torch.randperm(129, dtype=torch.int8))
E(lambda: torch.randperm(2050, dtype=torch.float16))
E(lambda: torch.randperm(2049, dtype=torch.float16)[:4])
E(lambda: torch.randperm(0, dtype=torch.bool))
E(lambda: torch.randperm(1, dtype=torch.bool))
E(lambda: torch.randperm(2, dtype=torch.bool))
o = torch.empty(2, dtype=torch.int32)
E(lambda: torch.randperm(4, out=o))
E(lambda: o)
E(lambda: torch.randperm(4, requires_grad=True))
E(lambda: torch.randperm(4, dtype=torch.float32, requires_grad=True))
'''

PROGRAMS['normal_cache_in_generator_state'] = r'''
import torch
torch.manual_seed(0)
print(torch.randn(1), torch.randn(1), torch.randn(1, dtype=torch.float64))
s = torch.get_rng_state()
print(s[-24:])
a = torch.randn(3)
torch.set_rng_state(s)
print(a, torch.randn(3))
g = torch.Generator().manual_seed(1)
print(torch.randn(1, generator=g))
st = g.get_state()
print(st[-24:])
print(torch.randn(2, generator=g))
g.set_state(st)
print(torch.randn(2, generator=g))
g2 = torch.Generator()
g2.set_state(st)
print(torch.randn(2, generator=g2), g2.initial_seed())
print(torch.empty(1).normal_(generator=g), torch.normal(0., 1., (1,), generator=g))
x = torch.empty(3)
print(x.cauchy_(generator=g), x.log_normal_(generator=g), x.exponential_(generator=g), x.geometric_(0.5, generator=g), x.random_(generator=g), x.random_(5, generator=g), x.bernoulli_(0.5, generator=g))
print(g.seed() == g.initial_seed())
torch.manual_seed(3)
with torch.random.fork_rng(enabled=False):
    torch.rand(1)
print(torch.rand(1))
torch.manual_seed(3)
torch.rand(1)
print(torch.rand(1))
@torch.random.fork_rng()
def f():
    return torch.rand(1)
print(f)
'''

PROGRAMS['distributions_basic_sampling'] = r'''
import torch
from torch.distributions import *
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
n = Normal(0., 1.)
print(n, n.sample(), n.sample((2,)), n.rsample((2, 2)))
print(n.log_prob(torch.tensor(0.5)), n.entropy(), n.cdf(torch.tensor(0.3)), n.icdf(torch.tensor(0.3)))
print(n.mean, n.stddev, n.variance, n.batch_shape, n.event_shape, n.support, n.arg_constraints)
n2 = Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
print(n2, n2.sample(), n2.expand((3, 2)).batch_shape)
c = Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(c, c.sample(), c.sample((5,)), c.log_prob(torch.tensor(2)), c.entropy(), c.probs, c.logits, c.param_shape, c.enumerate_support())
c = Categorical(logits=torch.tensor([[1., 2., 0.], [0., 0., 0.]]))
print(c, c.sample(), c.sample((2,)), c.log_prob(torch.tensor([0, 1])), c.entropy(), c.probs, c.logits, c.mean if False else None)
b = Bernoulli(0.3)
print(b, b.sample((4,)), b.log_prob(torch.tensor(1.)), b.entropy())
b = Bernoulli(logits=torch.tensor([0., 1.]))
print(b, b.sample(), b.probs, b.enumerate_support())
u = Uniform(0., 2.)
print(u, u.sample((3,)), u.rsample(), u.log_prob(torch.tensor(0.5)), u.entropy(), u.cdf(torch.tensor(0.5)))
print(Beta(2., 3.), Beta(2., 3.).sample((3,)), Beta(2., 3.).log_prob(torch.tensor(0.4)), Beta(2., 3.).entropy(), Beta(2., 3.).mean)
print(Gamma(2., 3.), Gamma(2., 3.).sample((3,)), Gamma(2., 3.).log_prob(torch.tensor(0.4)), Gamma(2., 3.).entropy())
print(Gamma(torch.tensor([0.5, 5.]), 1.).rsample())
d = Dirichlet(torch.tensor([1., 2., 3.]))
print(d, d.sample(), d.sample((2,)), d.log_prob(torch.tensor([0.2, 0.3, 0.5])), d.entropy(), d.mean)
'''

PROGRAMS['distributions_mvn_transformed_relaxed_kl_rsample'] = r'''
import torch
from torch.distributions import *
from torch.distributions.transforms import *
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(1)
m = MultivariateNormal(torch.zeros(2), torch.tensor([[2., 0.5], [0.5, 1.]]))
print(m, m.sample(), m.sample((3,)), m.rsample(), m.log_prob(torch.tensor([0.1, 0.2])), m.entropy())
print(m.scale_tril, m.covariance_matrix, m.precision_matrix, m.mean, m.variance)
m2 = MultivariateNormal(torch.ones(2), scale_tril=torch.tensor([[1., 0.], [0.3, 2.]]))
print(m2, m2.sample())
m3 = MultivariateNormal(torch.ones(2), precision_matrix=torch.tensor([[1., 0.2], [0.2, 2.]]))
print(m3.covariance_matrix, m3.sample())
i = Independent(Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)
print(i, i.batch_shape, i.event_shape, i.sample().shape, i.log_prob(torch.zeros(3, 2)), i.entropy())
t = TransformedDistribution(Normal(0., 1.), [ExpTransform()])
print(t, t.sample((2,)), t.log_prob(torch.tensor(1.5)), t.rsample())
t2 = TransformedDistribution(Uniform(0., 1.), [SigmoidTransform().inv, AffineTransform(loc=1., scale=2.)])
print(t2, t2.sample((3,)), t2.log_prob(torch.tensor(0.5)))
o = OneHotCategorical(torch.tensor([0.2, 0.3, 0.5]))
print(o, o.sample(), o.sample((2,)), o.log_prob(torch.tensor([0., 1., 0.])), o.entropy(), o.enumerate_support())
r = RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3, 0.8]))
print(r, r.sample(), r.rsample((2,)), r.log_prob(torch.tensor([0.2, 0.9])), r.temperature)
rc = RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.3, 0.7]))
print(rc, rc.rsample(), rc.log_prob(torch.tensor([0.2, 0.8])))
print(kl_divergence(Normal(0., 1.), Normal(1., 2.)))
print(kl_divergence(Categorical(torch.tensor([0.2, 0.8])), Categorical(torch.tensor([0.5, 0.5]))))
print(kl_divergence(Bernoulli(0.3), Bernoulli(0.6)), kl_divergence(Beta(1., 2.), Beta(2., 2.)), kl_divergence(Gamma(1., 2.), Gamma(2., 2.)))
print(kl_divergence(Dirichlet(torch.tensor([1., 2.])), Dirichlet(torch.tensor([2., 2.]))))
print(kl_divergence(m, m2), kl_divergence(Uniform(0., 1.), Normal(0., 1.)), kl_divergence(i, i))
print(kl_divergence(OneHotCategorical(torch.tensor([0.2, 0.8])), OneHotCategorical(torch.tensor([0.5, 0.5]))))
E(lambda: kl_divergence(Normal(0., 1.), Uniform(0., 1.)))
E(lambda: kl_divergence(Beta(1., 2.), Normal(0., 1.)))
mu = torch.tensor(0.5, requires_grad=True); sd = torch.tensor(2., requires_grad=True)
x = Normal(mu, sd).rsample((4,))
x.sum().backward(); print(x, mu.grad, sd.grad, x.grad_fn)
a = torch.tensor([2., 3.], requires_grad=True)
y = Gamma(a, 1.).rsample(); y.sum().backward(); print(y, a.grad, y.grad_fn)
a = torch.tensor([2., 3.], requires_grad=True)
y = Dirichlet(a).rsample(); y[0].backward(); print(y, a.grad, y.grad_fn)
a = torch.tensor(2., requires_grad=True)
y = Beta(a, 1.5).rsample(); y.backward(); print(y, a.grad)
p = torch.tensor([0.3, 0.6], requires_grad=True)
y = RelaxedBernoulli(torch.tensor(0.5), probs=p).rsample(); y.sum().backward(); print(y, p.grad)
E(lambda: Categorical(torch.tensor([0.1, 0.2])).sample().backward())
E(lambda: Normal(0., 1.).sample().requires_grad)
'''

PROGRAMS['distributions_validate_args_errors_reprs'] = r'''
import torch
from torch.distributions import *
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
E(lambda: Normal(0., -1.))
E(lambda: Normal(torch.tensor([0., 1.]), torch.tensor([1., -1.])))
E(lambda: Normal(0., 1.).log_prob(torch.tensor([1., 2.])))
E(lambda: Categorical(torch.tensor([0.1, -0.2])))
E(lambda: Categorical(torch.tensor([0.1, 0.2]), logits=torch.tensor([1., 2.])))
E(lambda: Categorical())
E(lambda: Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(3)))
E(lambda: Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(0.5)))
E(lambda: Bernoulli(1.5))
E(lambda: Bernoulli(0.5).log_prob(torch.tensor(0.5)))
E(lambda: Uniform(1., 0.))
E(lambda: Uniform(0., 1.).log_prob(torch.tensor(2.)))
E(lambda: Beta(-1., 1.))
E(lambda: Gamma(1., 0.))
E(lambda: Dirichlet(torch.tensor([1., -2.])))
E(lambda: Dirichlet(torch.tensor(1.)))
E(lambda: Dirichlet(torch.tensor([0.5, 0.5])).log_prob(torch.tensor([0.3, 0.3])))
E(lambda: MultivariateNormal(torch.zeros(2)))
E(lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [2., 1.]])))
E(lambda: MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2)))
E(lambda: MultivariateNormal(torch.zeros(3), torch.eye(2)))
E(lambda: Independent(Normal(0., 1.), 1))
E(lambda: Normal(0., 1.).rsample(5))
E(lambda: Normal(0., 1., validate_args=False).log_prob(torch.tensor(float('nan'))))
E(lambda: Normal(torch.tensor(float('nan')), 1.))
E(lambda: Bernoulli())
E(lambda: OneHotCategorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor([0.5, 0.5])))
E(lambda: Categorical(torch.tensor(0.5)))
E(lambda: Normal(0., 1.).sample().shape)
E(lambda: Normal('a', 1.))
E(lambda: Normal(torch.zeros(2), torch.ones(3)))
E(lambda: Bernoulli(0.5).cdf(torch.tensor(0.)))
E(lambda: Categorical(torch.tensor([0.5, 0.5])).mean)
E(lambda: Categorical(torch.tensor([0.5, 0.5])).rsample())
torch.manual_seed(0)
E(lambda: Normal(0., 1.).expand((2,)).sample())
E(lambda: repr(Normal(torch.zeros(20), torch.ones(20))))
E(lambda: repr(Categorical(torch.ones(3, 2))))
E(lambda: repr(Independent(Normal(torch.zeros(20), torch.ones(20)), 1)))
E(lambda: repr(MultivariateNormal(torch.zeros(2), torch.eye(2))))
E(lambda: Exponential(2.).sample((2,)))
E(lambda: Poisson(3.).sample((3,)))
E(lambda: Binomial(10, 0.3).sample((3,)))
E(lambda: Geometric(0.3).sample((3,)))
E(lambda: Laplace(0., 1.).sample((3,)))
E(lambda: StudentT(3.).sample((3,)))
E(lambda: Multinomial(5, torch.tensor([0.2, 0.8])).sample())
E(lambda: LogNormal(0., 1.).sample())
'''

PROGRAMS['distributions_all_families_seeded'] = r'''
import torch
from torch.distributions import *
from torch.distributions import constraints, transforms as T
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
print(Normal(0., 1.).sample((2, 3)).shape, Normal(torch.zeros(2), 1.).rsample((4,)).shape)
print(Normal(torch.tensor(0., dtype=torch.float64), 1.).sample())
print(Categorical(torch.ones(1000)).sample((4,)))
print(Categorical(logits=torch.randn(2, 3, 4)).sample((2,)))
print(Categorical(torch.tensor([[0.2, 0.8]])).entropy(), Categorical(logits=torch.tensor([-float('inf'), 0.])).entropy())
print(Bernoulli(torch.tensor([0.1, 0.9], dtype=torch.float64)).sample((2,)))
print(Uniform(torch.tensor([0., 1.]), torch.tensor([1., 3.])).sample((2,)))
print(Beta(torch.tensor([0.5, 2.]), torch.tensor([0.5, 7.])).sample((3,)))
print(Gamma(torch.tensor([0.1, 1., 10.]), torch.tensor([1., 2., 3.])).sample((2,)))
print(Dirichlet(torch.tensor([[0.1, 0.1], [10., 1.]])).sample())
print(Chi2(3.).sample((2,)), StudentT(2., 1., 2.).rsample((2,)))
print(Exponential(torch.tensor([1., 0.5])).rsample(), Laplace(0., 1.).rsample((3,)))
print(Cauchy(0., 1.).sample((3,)), Gumbel(0., 1.).sample((3,)), HalfNormal(1.).sample((2,)), HalfCauchy(1.).sample((2,)))
print(LogNormal(0., 1.).sample((2,)), Pareto(1., 2.).sample((2,)), Weibull(1., 2.).sample((2,)), Kumaraswamy(2., 3.).sample((2,)))
print(Poisson(torch.tensor([0.5, 5., 50.])).sample((2,)))
print(Binomial(torch.tensor([5., 50.]), torch.tensor([0.3, 0.7])).sample((2,)))
print(NegativeBinomial(5., 0.4).sample((3,)), Geometric(torch.tensor([0.2, 0.9])).sample((2,)))
print(Multinomial(10, torch.tensor([0.2, 0.3, 0.5])).sample((2,)))
print(VonMises(0., 2.).sample((3,)))
print(LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)).sample((2,)))
print(ContinuousBernoulli(0.3).sample((3,)), FisherSnedecor(3., 5.).sample((2,)))
print(LKJCholesky(2, 1.).sample())
print(Wishart(3., torch.eye(2)).sample())
print(MixtureSameFamily(Categorical(torch.ones(2)), Normal(torch.tensor([-1., 1.]), torch.ones(2))).sample((3,)))
print(RelaxedOneHotCategorical(1., logits=torch.zeros(3)).sample((2,)))
print(InverseGamma(2., 1.).sample((2,)), GeneralizedPareto(0., 1., 0.2).sample((2,)))
print(LogisticNormal(torch.zeros(2), torch.ones(2)).sample())
print(Normal(0., 1.).sample_n(2) if hasattr(Normal, 'sample_n') else None)
print(T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0., 2.)]), T.StickBreakingTransform()(torch.zeros(2)))
print(constraints.positive, constraints.interval(0, 1), constraints.simplex, constraints.real_vector)
print(biject_to(constraints.positive), transform_to(constraints.simplex), biject_to(constraints.interval(0., 2.)))
'''

PROGRAMS['distributions_properties_transforms_constraints'] = r'''
import torch
from torch.distributions import *
from torch.distributions import constraints, transforms as T
from torch.distributions.kl import register_kl
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
for d in [Normal(0., 1.), Categorical(torch.tensor([0.2, 0.8])), Bernoulli(0.3), Uniform(0., 1.), Beta(2., 3.), Gamma(2., 1.), Dirichlet(torch.ones(3)), MultivariateNormal(torch.zeros(2), torch.eye(2)), Exponential(1.), Poisson(2.), Geometric(0.3), Binomial(5, 0.3), Laplace(0., 1.), LogNormal(0., 1.), OneHotCategorical(torch.ones(3))]:
    name = type(d).__name__
    print(name, d.has_rsample, d.has_enumerate_support, d.support, d.batch_shape, d.event_shape)
    E(lambda: d.mode)
    E(lambda: d.mean)
    E(lambda: d.variance)
    E(lambda: d.entropy())
    E(lambda: d.perplexity())
    E(lambda: d.cdf(d.sample()))
    E(lambda: d.icdf(torch.tensor(0.3)))
    E(lambda: d.log_prob(d.sample((2,))))
    E(lambda: d.expand((2,) + tuple(d.batch_shape)).batch_shape)
print(T.ExpTransform(), T.AffineTransform(1., 2.), T.SigmoidTransform(), T.TanhTransform(), T.SoftmaxTransform(), T.PowerTransform(2.), T.AbsTransform(), T.LowerCholeskyTransform(), T.StickBreakingTransform())
t = T.AffineTransform(1., -2.)
x = torch.tensor([0.5, 1.5])
print(t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x)), t.sign, t.domain, t.codomain, t.bijective, t.event_dim)
print(T.ExpTransform().inv, T.ExpTransform().inv.inv, T.ComposeTransform([T.ExpTransform(), t]).inv)
print(T.SigmoidTransform()(x), T.TanhTransform()(x), T.SoftmaxTransform()(x), T.StickBreakingTransform()(x), T.StickBreakingTransform().inv(torch.tensor([0.2, 0.3, 0.5])))
print(T.TanhTransform().log_abs_det_jacobian(x, T.TanhTransform()(x)), T.SigmoidTransform().log_abs_det_jacobian(x, None))
print(constraints.positive.check(torch.tensor([1., -1., 0.])), constraints.simplex.check(torch.tensor([0.2, 0.8])), constraints.unit_interval.check(torch.tensor(0.5)))
print(constraints.interval(0., 1.), constraints.greater_than(2.), constraints.less_than(3.), constraints.integer_interval(0, 5), constraints.nonnegative_integer, constraints.boolean, constraints.positive_definite, constraints.lower_cholesky, constraints.independent(constraints.real, 1))
class MyDist(Distribution):
    arg_constraints = {}
    def __init__(self): super().__init__(torch.Size([2]), validate_args=False)
    def sample(self, sample_shape=torch.Size()): return torch.zeros(sample_shape + self.batch_shape)
print(MyDist(), MyDist().sample((3,)).shape)
E(lambda: MyDist().log_prob(torch.zeros(2)))
E(lambda: MyDist().rsample())
class A(Normal): pass
@register_kl(A, A)
def _kl_aa(p, q): return torch.tensor(42.)
print(kl_divergence(A(0., 1.), A(1., 1.)), kl_divergence(A(0., 1.), Normal(1., 1.)))
Distribution.set_default_validate_args(False)
print(Normal(0., -1.))
Distribution.set_default_validate_args(True)
print(Normal(0., 1.)._validate_args)
print(TransformedDistribution(Normal(0., 1.), T.ExpTransform()).support, LogNormal(0., 1.).base_dist, LogNormal(0., 1.).transforms)
print(Independent(Normal(torch.zeros(2, 3), 1.), 2).support, Independent(Normal(torch.zeros(2, 3), 1.), 1).mean)
'''

PROGRAMS['tutorial_reinforce'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical
import numpy as np
from itertools import count

class Env:
    """A 1-D corridor: state is position one-hot-ish, action 0 left, 1 right; reward 1 at the right end."""
    def __init__(self): self.pos = 0; self.t = 0
    def reset(self, seed=None):
        self.pos = 2; self.t = 0
        return np.array([self.pos / 4, 1.0, 0.5, -0.5], dtype=np.float32), {}
    def step(self, a):
        self.pos += 1 if a == 1 else -1
        self.t += 1
        done = self.pos <= 0 or self.pos >= 4 or self.t >= 10
        r = 1.0 if self.pos >= 4 else 0.1
        return np.array([self.pos / 4, 1.0, 0.5 * self.t, -0.5], dtype=np.float32), r, done, False, {}

gamma = 0.99
env = Env()
torch.manual_seed(543)

class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 128)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(128, 2)
        self.saved_log_probs = []
        self.rewards = []
    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)

policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = np.finfo(np.float32).eps.item()

def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()

def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    print('loss', policy_loss.item(), returns[:3])
    del policy.rewards[:]
    del policy.saved_log_probs[:]

running_reward = 10
for i_episode in range(1, 8):
    state, _ = env.reset(seed=543)
    ep_reward = 0
    for t in range(1, 10000):
        action = select_action(state)
        state, reward, done, _, _ = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    finish_episode()
    print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}'.format(i_episode, ep_reward, running_reward))
print(policy.affine2.weight[:, :4])
'''

PROGRAMS['tutorial_dqn'] = r'''
import math
import random
from collections import namedtuple, deque
from itertools import count
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))

class ReplayMemory(object):
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)
    def push(self, *args):
        self.memory.append(Transition(*args))
    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)
    def __len__(self):
        return len(self.memory)

class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super(DQN, self).__init__()
        self.layer1 = nn.Linear(n_observations, 128)
        self.layer2 = nn.Linear(128, 128)
        self.layer3 = nn.Linear(128, n_actions)
    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)

class Env:
    def reset(self):
        self.s = [0.1, -0.2, 0.05, 0.0]; self.t = 0
        return self.s, {}
    def step(self, a):
        self.t += 1
        d = 0.1 if a == 1 else -0.1
        self.s = [self.s[0] + d, self.s[1] * 0.9 + d, self.s[2] - d / 2, self.t / 10]
        term = abs(self.s[0]) > 0.5
        return self.s, 1.0, term, self.t >= 12, {}

BATCH_SIZE = 8
GAMMA = 0.99
EPS_START = 0.9
EPS_END = 0.05
EPS_DECAY = 1000
TAU = 0.005
LR = 1e-4
env = Env()
n_actions = 2
state, info = env.reset()
n_observations = len(state)
policy_net = DQN(n_observations, n_actions).to(device)
target_net = DQN(n_observations, n_actions).to(device)
target_net.load_state_dict(policy_net.state_dict())
optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(10000)
steps_done = 0

def select_action(state):
    global steps_done
    sample = random.random()
    eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1. * steps_done / EPS_DECAY)
    steps_done += 1
    if sample > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    else:
        return torch.tensor([[random.randrange(n_actions)]], device=device, dtype=torch.long)

def optimize_model():
    if len(memory) < BATCH_SIZE:
        return
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), device=device, dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE, device=device)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss

for i_episode in range(4):
    state, info = env.reset()
    state = torch.tensor(state, dtype=torch.float32, device=device).unsqueeze(0)
    for t in count():
        action = select_action(state)
        observation, reward, terminated, truncated, _ = env.step(action.item())
        reward = torch.tensor([reward], device=device)
        done = terminated or truncated
        if terminated:
            next_state = None
        else:
            next_state = torch.tensor(observation, dtype=torch.float32, device=device).unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        loss = optimize_model()
        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key]*TAU + target_net_state_dict[key]*(1-TAU)
        target_net.load_state_dict(target_net_state_dict)
        if done:
            print(i_episode, t + 1, loss)
            break
print(target_net.layer3.bias, policy_net.layer3.bias)
print(optimizer.state_dict()['state'][5])
print(optimizer)
'''

PROGRAMS['tutorial_training_a_classifier'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
images = torch.randn(40, 3, 32, 32)
labels = torch.randint(0, 10, (40,))
trainset = TensorDataset(images, labels)
batch_size = 4
trainloader = torch.utils.data.DataLoader(trainset, batch_size=batch_size, shuffle=True, num_workers=0)
testloader = torch.utils.data.DataLoader(trainset, batch_size=batch_size, shuffle=False, num_workers=0)
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
dataiter = iter(trainloader)
images_, labels_ = next(dataiter)
print(' '.join(f'{classes[labels_[j]]:5s}' for j in range(batch_size)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 5 == 4:
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 5:.3f}')
            running_loss = 0.0
print('Finished Training')
import io
PATH = io.BytesIO()
torch.save(net.state_dict(), PATH)
PATH.seek(0)
net = Net()
net.load_state_dict(torch.load(PATH, weights_only=True))
outputs = net(images_)
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))
correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print(f'Accuracy of the network on the 40 test images: {100 * correct // total} %')
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predictions = torch.max(outputs, 1)
        for label, prediction in zip(labels, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    if total_pred[classname]:
        accuracy = 100 * float(correct_count) / total_pred[classname]
        print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')
'''

PROGRAMS['tutorial_datasets_dataloaders_optimization'] = r'''
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader
import numpy as np
torch.manual_seed(0)
class FakeFashion(Dataset):
    def __init__(self, n, train=True, transform=None, target_transform=None):
        g = torch.Generator().manual_seed(1 if train else 2)
        self.img = torch.rand(n, 1, 28, 28, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g).tolist()
        self.transform = transform
        self.target_transform = target_transform
    def __len__(self):
        return len(self.labels)
    def __getitem__(self, idx):
        image = self.img[idx]
        label = self.labels[idx]
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label
labels_map = {0: "T-Shirt", 1: "Trouser", 2: "Pullover", 3: "Dress", 4: "Coat", 5: "Sandal", 6: "Shirt", 7: "Sneaker", 8: "Bag", 9: "Ankle Boot"}
training_data = FakeFashion(64, target_transform=lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1))
test_data = FakeFashion(32, train=False)
for i in range(1, 4):
    sample_idx = torch.randint(len(training_data), size=(1,)).item()
    img, label = training_data[sample_idx]
    print(sample_idx, label, img.shape, img.squeeze().shape)
train_dataloader = DataLoader(training_data, batch_size=16, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=16, shuffle=True)
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
img = train_features[0].squeeze()
label = train_labels[0]
print(f"Label: {label}")
tf, tl = next(iter(test_dataloader))
print(tl, type(tl), tl.dtype, labels_map[tl[0].item()])

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(28*28, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits
training_data = FakeFashion(64)
model = NeuralNetwork()
learning_rate = 1e-3
batch_size = 16
epochs = 3
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
'''

# fixed: IterableDataset() could be instantiated, Dataset[...]/Sampler[...] were not subscriptable, Sampler() took a data_source argument PyTorch 2.13 removed; DataLoader.multiprocessing_context and ConcatDataset.cumsum/cummulative_sizes were missing
PROGRAMS['dataloader_reprs_iterable_generic_samplers'] = r'''
import torch
import torch.utils.data as tud
from torch.utils.data import *
import warnings
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    for w in ws:
        print('warn', w.category.__name__, str(w.message))
    return r
ds = TensorDataset(torch.arange(6.), torch.arange(6))
print(ds.tensors[0], type(ds.tensors))
for o in [ds, DataLoader(ds), SequentialSampler(ds), RandomSampler(ds), BatchSampler(SequentialSampler(ds), 2, False), Subset(ds, [0]), ConcatDataset([ds]), WeightedRandomSampler([1.], 1), SubsetRandomSampler([1]), iter(DataLoader(ds)), Dataset()]:
    print(repr(o), type(o).__qualname__)
E(lambda: Dataset()[0])
E(lambda: len(Dataset()))
E(lambda: IterableDataset())
class T(Dataset[tuple]):
    def __len__(self): return 2
    def __getitem__(self, i): return (i, float(i))
print(list(DataLoader(T(), batch_size=2)), T)
class Ev(Sampler[int]):
    def __iter__(self): return iter([1, 0])
print(list(DataLoader(T(), sampler=Ev())))
class S2(Sampler):
    def __init__(self, ds): super().__init__(ds)
E(lambda: S2(1))
E(lambda: iter(Sampler()))
print(Sampler())
class It(IterableDataset[int]):
    def __iter__(self): yield 5
print(list(It()), isinstance(It(), IterableDataset), isinstance(T(), IterableDataset))
E(lambda: W(lambda: DataLoader(ds, pin_memory=True)))
E(lambda: [b for b in W(lambda: DataLoader(ds, batch_size=4, pin_memory=True))])
E(lambda: W(lambda: len(DataLoader(tud.IterableDataset()))))
class L(tud.IterableDataset):
    def __iter__(self): return iter(range(5))
    def __len__(self): return 3
E(lambda: W(lambda: len(DataLoader(L(), batch_size=2))))
E(lambda: W(lambda: list(DataLoader(L(), batch_size=2))))
E(lambda: W(lambda: list(DataLoader(L()))))
E(lambda: SequentialSampler(ds).data_source is ds)
E(lambda: RandomSampler(ds).num_samples)
E(lambda: (RandomSampler(ds).replacement, RandomSampler(ds).generator))
E(lambda: WeightedRandomSampler([1., 2.], 2).weights)
E(lambda: len(BatchSampler(range(7), 3, False)))
E(lambda: len(BatchSampler(range(7), 3, True)))
E(lambda: len(SubsetRandomSampler([4, 5])))
E(lambda: len(WeightedRandomSampler([1., 2.], 5)))
E(lambda: DataLoader(ds, batch_size=2).batch_sampler.batch_size)
E(lambda: DataLoader(ds, batch_size=2, sampler=[0, 2]).sampler)
E(lambda: Subset(ds, torch.tensor([1, 3]))[0])
E(lambda: Subset(ds, torch.tensor([1, 3])).indices)
E(lambda: ds[torch.tensor(2)])
E(lambda: ds[1:3])
E(lambda: ds[[0, 2]])
E(lambda: ConcatDataset([ds, ds])[torch.tensor(7)])
E(lambda: ConcatDataset([ds, ds])[1:3])
E(lambda: ConcatDataset([L()]))
E(lambda: list(DataLoader(range(5), batch_size=2)))
E(lambda: list(DataLoader(['a', 'b', 'c'], batch_size=2)))
E(lambda: list(DataLoader([[1, 2], [3, 4]], batch_size=2)))
E(lambda: list(DataLoader([(torch.ones(1), 'x', 1.5)] * 2, batch_size=2)))
E(lambda: list(DataLoader([{'a': [1, 2]}] * 2, batch_size=2)))
E(lambda: list(DataLoader([torch.tensor(1.5)] * 3, batch_size=2)))
E(lambda: list(DataLoader([None] * 3, batch_size=2)))
E(lambda: list(DataLoader([torch.ones(2, 2, dtype=torch.float16)] * 2, batch_size=2)))
E(lambda: DataLoader(ds).multiprocessing_context)
E(lambda: DataLoader(ds, multiprocessing_context='spawn'))
E(lambda: W(lambda: ConcatDataset([ds, ds]).cummulative_sizes))
E(lambda: ConcatDataset.cumsum([ds, range(3)]))
'''

PROGRAMS['distributions_bits_precision8'] = r'''
import torch
from torch.distributions import *
torch.set_printoptions(precision=8)
torch.manual_seed(0)
ds = [Normal(torch.tensor([0.3, -1.]), torch.tensor([1.5, 0.2])), Uniform(torch.tensor([0.1]), torch.tensor([2.3])), Beta(torch.tensor([0.7, 2.5]), torch.tensor([1.3, 0.4])),
      Gamma(torch.tensor([0.3, 4.5]), torch.tensor([1.7, 0.9])), Dirichlet(torch.tensor([0.4, 1.7, 3.1])), Exponential(torch.tensor([0.6, 3.])),
      Laplace(torch.tensor([0.2]), torch.tensor([1.3])), LogNormal(torch.tensor([0.1]), torch.tensor([0.7])), StudentT(torch.tensor([2.5, 7.]), torch.tensor([0.1, 0.]), torch.tensor([1.2, 2.])),
      Chi2(torch.tensor([3.3])), Cauchy(torch.tensor([0.5]), torch.tensor([2.])), Gumbel(torch.tensor([0.5]), torch.tensor([2.])), HalfNormal(torch.tensor([1.7])),
      Weibull(torch.tensor([1.2]), torch.tensor([0.8])), Pareto(torch.tensor([1.2]), torch.tensor([2.8])), Kumaraswamy(torch.tensor([1.2]), torch.tensor([2.8])),
      RelaxedBernoulli(torch.tensor(0.7), logits=torch.tensor([0.3, -2.])), RelaxedOneHotCategorical(torch.tensor(0.7), logits=torch.tensor([0.3, -2., 1.])),
      MultivariateNormal(torch.tensor([0.1, 0.2]), torch.tensor([[1.3, 0.4], [0.4, 0.9]])), LowRankMultivariateNormal(torch.tensor([0.1, 0.2]), torch.tensor([[0.3], [0.5]]), torch.tensor([0.7, 1.1])),
      FisherSnedecor(torch.tensor([3.]), torch.tensor([5.5])), InverseGamma(torch.tensor([2.5]), torch.tensor([1.5])), ContinuousBernoulli(torch.tensor([0.3, 0.5]))]
for d in ds:
    params = [v for k, v in d.__dict__.items() if isinstance(v, torch.Tensor) and v.is_floating_point()]
    x = d.rsample((2,))
    print(type(d).__name__, x, x.grad_fn is not None)
    lp = d.log_prob(x.detach())
    print(' lp', lp)
    try:
        print(' H', d.entropy())
    except NotImplementedError:
        print(' H n/a')
for d in [Categorical(logits=torch.tensor([0.3, -2., 1.])), Bernoulli(logits=torch.tensor([0.3, -2.])), Poisson(torch.tensor([0.3, 20.])), Binomial(7, torch.tensor([0.3, 0.9])), Geometric(torch.tensor([0.3, 0.9])), NegativeBinomial(torch.tensor([3.5]), torch.tensor([0.3])), Multinomial(6, torch.tensor([0.2, 0.3, 0.5])), OneHotCategorical(logits=torch.tensor([0.3, -2., 1.]))]:
    x = d.sample((3,))
    print(type(d).__name__, x, d.log_prob(x))
    try:
        print(' H', d.entropy())
    except NotImplementedError:
        print(' H n/a')
'''

PROGRAMS['distributions_param_grads_precision8'] = r'''
import torch
from torch.distributions import *
torch.set_printoptions(precision=8)
torch.manual_seed(0)
def P(*v): return [torch.tensor(x, requires_grad=True) for x in v]
mk = [lambda a, b: Beta(a, b), lambda a, b: Gamma(a, b), lambda a, b: Dirichlet(torch.stack([a, b])), lambda a, b: StudentT(a, 0.5, b), lambda a, b: FisherSnedecor(a, b),
      lambda a, b: Kumaraswamy(a, b), lambda a, b: Normal(a, b), lambda a, b: Chi2(a + b), lambda a, b: InverseGamma(a, b), lambda a, b: Weibull(a, b),
      lambda a, b: RelaxedBernoulli(a, probs=b / 4), lambda a, b: LogNormal(a, b), lambda a, b: Laplace(a, b), lambda a, b: Uniform(a - 3, b)]
for f in mk:
    a, b = P(1.3, 2.2)
    d = f(a, b)
    x = d.rsample((3,))
    (x * torch.arange(1., 1. + x.numel()).reshape(x.shape)).sum().backward()
    print(type(d).__name__, x.detach(), a.grad, b.grad)
    a, b = P(1.3, 2.2)
    d = f(a, b)
    y = d.log_prob(x.detach()).sum()
    y.backward()
    print('  lp grad', a.grad, b.grad)
    try:
        a, b = P(1.3, 2.2)
        f(a, b).entropy().sum().backward()
        print('  H grad', a.grad, b.grad)
    except NotImplementedError:
        pass
a, b = P(0.5, 1.5)
print(torch.autograd.grad(kl_divergence(Beta(a, b), Beta(b, a)), [a, b]))
print(torch.autograd.grad(kl_divergence(Gamma(a, b), Gamma(b, a)), [a, b]))
print(torch.autograd.grad(kl_divergence(Normal(a, b), Normal(b, a)), [a, b]))
print(torch.autograd.grad(kl_divergence(Bernoulli(a), Bernoulli(b / 2)), [a, b]))
'''

PROGRAMS['tutorial_actor_critic_and_gaussian_policy'] = r'''
import numpy as np
from collections import namedtuple
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical, Normal

torch.manual_seed(543)
SavedAction = namedtuple('SavedAction', ['log_prob', 'value'])

class Env:
    def reset(self, seed=None):
        self.t = 0; self.x = 0.0
        return np.array([0.0, 0.1, -0.1, 0.2]), {}
    def step(self, a):
        self.t += 1; self.x += 0.3 if a else -0.2
        obs = np.array([self.x, 0.1 * self.t, -0.1, np.sin(self.x)])
        return obs, 1.0 - abs(self.x) / 3, abs(self.x) > 1.0, self.t >= 15, {}

class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 128)
        self.action_head = nn.Linear(128, 2)
        self.value_head = nn.Linear(128, 1)
        self.saved_actions = []
        self.rewards = []
    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values

model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)
eps = np.finfo(np.float32).eps.item()
gamma = 0.99

def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()

def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss

env = Env()
running_reward = 10
for i_episode in range(6):
    state, _ = env.reset()
    ep_reward = 0
    for t in range(1, 10000):
        action = select_action(state)
        state, reward, done, trunc, _ = env.step(action)
        model.rewards.append(reward)
        ep_reward += reward
        if done or trunc:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}'.format(i_episode, ep_reward, running_reward), loss)

# a Gaussian policy for a continuous action
torch.manual_seed(0)
mu_net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
log_std = nn.Parameter(torch.zeros(1))
opt = optim.RMSprop(list(mu_net.parameters()) + [log_std], lr=1e-2)
for ep in range(4):
    s = torch.randn(5, 2)
    dist = Normal(mu_net(s), log_std.exp())
    a = dist.sample()
    r = -(a - s[:, :1]).pow(2)
    loss = -(dist.log_prob(a) * (r - r.mean())).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(ep, loss.item(), log_std.data, a.squeeze())
'''

PROGRAMS['tutorial_vae_and_mixture_fit'] = r'''
import torch
from torch import nn, optim
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.distributions import Normal, kl_divergence, MixtureSameFamily, Categorical, Independent
torch.manual_seed(1)
data = torch.rand(64, 1, 8, 8)
train_loader = DataLoader(TensorDataset(data, torch.zeros(64)), batch_size=16, shuffle=True)
class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)
    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5*logvar)
        eps = torch.randn_like(std)
        return mu + eps*std
    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar
model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-3)
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD
for epoch in range(1, 3):
    model.train()
    train_loss = 0
    for batch_idx, (d, _) in enumerate(train_loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(d)
        loss = loss_function(recon_batch, d, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % 2 == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(epoch, batch_idx * len(d), len(train_loader.dataset), 100. * batch_idx / len(train_loader), loss.item() / len(d)))
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(train_loader.dataset)))
with torch.no_grad():
    sample = torch.randn(4, 4)
    sample = model.decode(sample)
    print(sample[:, :5])
mu, logvar = model.encode(data[:3].view(-1, 64))
q = Normal(mu, (0.5 * logvar).exp())
print(kl_divergence(q, Normal(torch.zeros_like(mu), torch.ones_like(mu))).sum(-1))
print(Independent(q, 1).rsample().shape)
# a mixture fitted by gradient descent
torch.manual_seed(0)
x = torch.cat([torch.randn(50) - 2, torch.randn(50) * 0.5 + 1])
logits = torch.zeros(2, requires_grad=True)
locs = torch.tensor([-1., 0.5], requires_grad=True)
log_scales = torch.zeros(2, requires_grad=True)
opt = optim.Adam([logits, locs, log_scales], lr=0.1)
for step in range(30):
    mix = MixtureSameFamily(Categorical(logits=logits), Normal(locs, log_scales.exp()))
    nll = -mix.log_prob(x).mean()
    opt.zero_grad(); nll.backward(); opt.step()
    if step % 10 == 0:
        print(step, nll.item(), locs.data, log_scales.exp().data)
print(mix, mix.mean, mix.variance, mix.sample((3,)))
'''

PROGRAMS['gumbel_rrelu_poisson_dropout_out_args'] = r'''
import torch
import torch.nn.functional as F
import torch.nn as nn
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
logits = torch.randn(3, 4)
E(lambda: F.gumbel_softmax(logits, tau=0.5))
E(lambda: F.gumbel_softmax(logits, tau=1, hard=True))
E(lambda: F.gumbel_softmax(logits, dim=0))
E(lambda: F.rrelu(torch.randn(6), training=True))
E(lambda: nn.RReLU()(torch.randn(2, 3)))
E(lambda: nn.RReLU(0.1, 0.3).eval()(torch.randn(4)))
E(lambda: torch.poisson(torch.tensor([0.5, 3., 30., 0.])))
E(lambda: torch._standard_gamma(torch.tensor([0.5, 3.])))
E(lambda: torch._sample_dirichlet(torch.tensor([0.5, 3.])))
E(lambda: torch.binomial(torch.tensor([10., 100.]), torch.tensor([0.3, 0.9])))
E(lambda: F.dropout(torch.ones(4), training=False))
E(lambda: F.dropout(torch.ones(4), p=1.0))
E(lambda: F.dropout(torch.ones(4), p=0.0))
E(lambda: F.dropout(torch.ones(4), p=1.5))
E(lambda: nn.Dropout(-0.1))
E(lambda: F.dropout2d(torch.ones(2, 3, 4)))
E(lambda: F.dropout3d(torch.ones(1, 2, 2, 2, 2)))
E(lambda: F.alpha_dropout(torch.ones(5), 0.5, training=True))
E(lambda: F.feature_alpha_dropout(torch.ones(2, 2, 3), 0.5, training=True))
E(lambda: torch.dropout(torch.ones(3), 0.5, True))
E(lambda: torch.bernoulli(torch.ones(3) * 0.5, out=torch.empty(3)))
E(lambda: torch.normal(0., 1., (3,), out=torch.empty(3)))
E(lambda: torch.rand(3, out=torch.empty(2)))
E(lambda: torch.randint(3, (3,), out=torch.empty(3, dtype=torch.int64)))
E(lambda: torch.randn(2, 2, generator=torch.Generator().manual_seed(1), dtype=torch.float64))
x = torch.ones(6, requires_grad=True)
y = F.dropout(x, 0.5)
y.sum().backward()
print(y, x.grad, y.grad_fn)
'''

# fixed: torch.bernoulli had no out= argument
PROGRAMS['bernoulli_out'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
o = torch.empty(2)
E(lambda: torch.bernoulli(torch.ones(3)*0.5, out=o))
E(lambda: (o, o._version))
E(lambda: torch.bernoulli(torch.ones(3)*0.5, 0.3, out=o))
E(lambda: torch.bernoulli(torch.ones(3, dtype=torch.float64)*0.5, out=torch.empty(3, dtype=torch.int64)))
E(lambda: torch.bernoulli(torch.ones(3)*0.5, out=torch.empty(3, requires_grad=True)))
E(lambda: torch.bernoulli(torch.ones(3, requires_grad=True)*0.5, out=torch.empty(3)))
E(lambda: torch.bernoulli(torch.rand(2, 3), out=torch.empty(3, 2).t()))
with torch.no_grad():
    E(lambda: torch.bernoulli(torch.ones(3, requires_grad=True) * 0.5, out=torch.empty(3)))
E(lambda: torch.bernoulli(torch.ones(2, 2) * 0.5, generator=torch.Generator().manual_seed(3), out=torch.empty(0, dtype=torch.bool)))
E(lambda: torch.bernoulli(torch.tensor([0.2, 1.5]), out=torch.empty(2)))
'''

# fixed: Generator.clone_state/graphsafe_*/get_offset were missing, manual_seed(True) was accepted, Generator('meta'/'xpu'/0) gave the wrong errors
PROGRAMS['generator_api_devices_clone_state'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
g = torch.manual_seed(0)
print(g is torch.default_generator, repr(g)[:26], type(g))
E(lambda: torch.Generator('cpu').device)
E(lambda: torch.Generator(device='cpu').manual_seed(3).initial_seed())
E(lambda: torch.Generator(device=torch.device('cpu')).device)
E(lambda: torch.Generator('cuda'))
E(lambda: torch.Generator('meta'))
E(lambda: torch.Generator().manual_seed('a'))
E(lambda: torch.Generator().manual_seed(2**64 - 1).initial_seed())
E(lambda: torch.Generator().manual_seed(-1).initial_seed())
E(lambda: torch.Generator().manual_seed(-2**63 - 1))
E(lambda: torch.Generator().manual_seed(True).initial_seed())
E(lambda: torch.Generator().manual_seed(3.0))
E(lambda: torch.random.manual_seed(5).initial_seed())
E(lambda: torch.random.get_rng_state().shape)
E(lambda: torch.random.set_rng_state(torch.get_rng_state()))
E(lambda: torch.random.seed() == torch.random.initial_seed())
E(lambda: torch.get_rng_state().dtype)
E(lambda: torch.set_rng_state(torch.get_rng_state().float()))
E(lambda: torch.set_rng_state([1, 2]))
E(lambda: torch.Generator().get_state().is_contiguous())
E(lambda: torch.Generator().set_state(torch.get_rng_state()[:100]))
import pickle, copy
g = torch.Generator().manual_seed(9)
torch.rand(3, generator=g)
E(lambda: torch.rand(2, generator=copy.deepcopy(g)))
E(lambda: torch.rand(2, generator=pickle.loads(pickle.dumps(g))))
E(lambda: torch.rand(2, generator=g))
E(lambda: g.clone_state().initial_seed())
E(lambda: torch.rand(2, generator=torch.Generator().graphsafe_set_state(g)))
torch.manual_seed(1)
E(lambda: torch.randn(3, generator=torch.default_generator))
g = torch.Generator().manual_seed(4)
torch.randn(1, generator=g)
c = g.clone_state()
print(c is g, c.initial_seed(), torch.randn(3, generator=c), torch.randn(3, generator=g))
print(torch.equal(c.get_state(), g.get_state()))
c2 = torch.Generator().clone_state()
print(torch.rand(2, generator=c2), c2.initial_seed())
E(lambda: g.graphsafe_get_state())
E(lambda: g.graphsafe_set_state(5))
E(lambda: g.get_offset())
E(lambda: g.set_offset(2))
for d in ['mps', 'xpu', 'cuda:0', 5, 'foo']:
    E(lambda: torch.Generator(d))
E(lambda: torch.manual_seed(True).initial_seed())
E(lambda: torch.manual_seed(3.7).initial_seed())
E(lambda: torch.Generator().manual_seed(torch.tensor(5)).initial_seed())
'''

# fixed: torch.normal with tensor mean/std recorded no NormalBackward1/2/3 node (and no forward tangent)
PROGRAMS['normal_tensor_parameters_grad_fn_errors'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
E(lambda: torch.randint(10, (3,), dtype=torch.uint8))
E(lambda: torch.randint(low=2, high=5, size=(3,)))
E(lambda: torch.randint(high=5, size=(2,)))
E(lambda: torch.randint(3, 10, size=(2,)))
E(lambda: torch.randint(5.5, (2,)))
E(lambda: torch.randint(5, 2))
E(lambda: torch.randint(5))
E(lambda: torch.randint(0, 5, [2, 2], dtype=torch.float16))
E(lambda: torch.randint(-1, 5, (2,), dtype=torch.uint8))
E(lambda: torch.randint(0, 300, (2,), dtype=torch.uint8))
E(lambda: torch.randint(0, 2, (4,), dtype=torch.bool))
E(lambda: torch.randint(0, 1, (4,), dtype=torch.bool))
E(lambda: torch.rand(size=(2,)))
E(lambda: torch.rand((2, 3)).shape)
E(lambda: torch.rand([2]))
E(lambda: torch.rand(torch.Size([2])))
E(lambda: torch.rand(()))
E(lambda: torch.rand(2, 0))
E(lambda: torch.rand(-1))
E(lambda: torch.rand(2.0))
E(lambda: torch.randn(2, names=None))
E(lambda: torch.normal(mean=torch.zeros(2)))
E(lambda: torch.normal(2, 3, size=(2,)))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.float64), 1.))
E(lambda: torch.normal(0, 1, (2,), dtype=torch.float64))
E(lambda: torch.normal(torch.zeros(2), torch.ones(3)))
E(lambda: torch.normal(torch.zeros(2, 1), torch.ones(3)))
E(lambda: torch.normal(torch.zeros(2), torch.ones(2, dtype=torch.float64)))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.int64), 1.))
E(lambda: torch.normal(torch.zeros(3), 1., size=(3,)))
E(lambda: torch.normal(0., 1., size=(2,), out=torch.empty(5)))
E(lambda: torch.normal(torch.zeros(2), torch.ones(2), out=torch.empty(2)))
m = torch.zeros(3, requires_grad=True); s = torch.ones(3, requires_grad=True)
y = torch.normal(m, s)
E(lambda: y.grad_fn)
y.sum().backward()
E(lambda: (m.grad, s.grad))
y = torch.normal(m, 2.)
E(lambda: y.grad_fn)
y = torch.normal(1., s)
E(lambda: y.grad_fn)
E(lambda: torch.rand(3, requires_grad=True).grad_fn)
E(lambda: torch.randint(3, (2,), requires_grad=True))
E(lambda: torch.empty(3, requires_grad=True).uniform_())
x = torch.zeros(3, requires_grad=True).clone()
E(lambda: x.normal_().grad_fn)
E(lambda: x.uniform_().grad_fn)
E(lambda: x.bernoulli_(0.5).grad_fn)
E(lambda: x.exponential_().grad_fn)
E(lambda: x.random_().grad_fn)
E(lambda: x.geometric_(0.3).grad_fn)
E(lambda: x.cauchy_().grad_fn)
E(lambda: x.log_normal_().grad_fn)
x.sum().backward()
m = torch.zeros(2, 1, requires_grad=True); s = torch.ones(3, requires_grad=True)
y = torch.normal(m, s)
print(y.shape, y.grad_fn, y.grad_fn._saved_mean_sym_sizes, y.grad_fn._saved_std_sym_sizes, y.grad_fn.next_functions[0][0] is not None)
y.sum().backward(); print(m.grad, s.grad)
print(torch.normal(m.double(), s).dtype, torch.normal(m, s.double()).dtype, torch.normal(2., s).grad_fn, torch.normal(m, 3.).grad_fn._saved_mean_sym_sizes)
with torch.no_grad():
    print(torch.normal(m, s).grad_fn)
print(torch.autograd.grad(torch.normal(m, 1.).sum(), m))
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.zeros(2), torch.ones(2))
    print(fwAD.unpack_dual(torch.normal(d, 1.)).tangent, fwAD.unpack_dual(torch.normal(d, torch.ones(2))).tangent)
'''

# fixed: torch.normal with an integer/bool mean or std sampled instead of PyTorch's NotImplementedError; a shape mismatch raised NumPy's ValueError
PROGRAMS['normal_tensor_parameters_dtype_broadcast_errors'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
E(lambda: torch.normal(0., 1., size=(2,), out=torch.empty(5)))
E(lambda: torch.normal(torch.zeros(2), torch.ones(2), out=torch.empty(2)))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.int64), torch.ones(2)))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)))
E(lambda: torch.normal(0., torch.ones(2, dtype=torch.int64)))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.bool), 1.))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.float16), 1.))
E(lambda: torch.normal(torch.zeros(2, dtype=torch.complex64), 1.))
E(lambda: torch.normal(torch.zeros(2), torch.tensor([1., -1.])))
E(lambda: torch.normal(torch.zeros(2), -1.))
E(lambda: torch.normal(1., torch.tensor([1., -1.])))
E(lambda: torch.normal(torch.zeros(0), torch.ones(0)))
E(lambda: torch.normal(torch.zeros(2, 1), torch.ones(3)).shape)
E(lambda: torch.normal(torch.zeros(2), torch.ones(3)))
E(lambda: torch.normal(torch.zeros(4), torch.ones(2, 2)))
'''

PROGRAMS['dataloader_iterator_seed_order'] = r'''
import torch
from torch.utils.data import DataLoader, TensorDataset, RandomSampler, BatchSampler, WeightedRandomSampler, SubsetRandomSampler
ds = TensorDataset(torch.arange(8))
torch.manual_seed(0)
dl1 = DataLoader(ds, batch_size=3, shuffle=True)
dl2 = DataLoader(ds, batch_size=3, shuffle=True)
i1 = iter(dl1)
i2 = iter(dl2)
print(torch.rand(1))
print(next(i2)[0], next(i1)[0], next(i2)[0])
print(torch.rand(1))
g = torch.Generator().manual_seed(1)
dl = DataLoader(ds, batch_size=4, sampler=RandomSampler(ds), generator=g)
print([b[0].tolist() for b in dl], torch.rand(1), torch.rand(1, generator=g))
dl = DataLoader(ds, batch_size=4, sampler=RandomSampler(ds, generator=g))
print([b[0].tolist() for b in dl], torch.rand(1), torch.rand(1, generator=g))
s = RandomSampler(ds)
it = iter(s)
print(torch.rand(1))
print(next(it), torch.rand(1), list(it))
s = RandomSampler(ds, replacement=True, num_samples=70)
print(list(s)[-8:])
s = RandomSampler(ds, num_samples=20)
print(list(s))
w = WeightedRandomSampler(torch.tensor([1, 2, 3, 4], dtype=torch.float64), 6)
print(list(w), type(list(w)[0]).__name__)
print([type(i).__name__ for i in SubsetRandomSampler([3, 4])], [type(i).__name__ for i in RandomSampler(ds)][:1])
it = iter(DataLoader(ds, batch_size=2, shuffle=True))
print(torch.rand(1))
for b in it: print(b)
it = iter(DataLoader(ds, batch_size=2, shuffle=False))
print(torch.rand(1))
'''

PROGRAMS['tutorial_custom_dataset_transforms'] = r'''
import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader
np.random.seed(0)
torch.manual_seed(0)

class FaceLandmarksDataset(Dataset):
    """Face Landmarks dataset (synthetic images and landmarks)."""
    def __init__(self, n, transform=None):
        rng = np.random.RandomState(1)
        self.images = [rng.randint(0, 255, size=(20 + 2 * i, 16 + i, 3)).astype(np.uint8) for i in range(n)]
        self.landmarks = [rng.rand(4, 2) * np.array([16 + i, 20 + 2 * i]) for i in range(n)]
        self.names = ['face%d.jpg' % i for i in range(n)]
        self.transform = transform
    def __len__(self):
        return len(self.images)
    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        image = self.images[idx]
        landmarks = self.landmarks[idx].astype('float').reshape(-1, 2)
        sample = {'image': image, 'landmarks': landmarks, 'name': self.names[idx]}
        if self.transform:
            sample = self.transform(sample)
        return sample

class Rescale(object):
    def __init__(self, output_size):
        assert isinstance(output_size, (int, tuple))
        self.output_size = output_size
    def __call__(self, sample):
        image, landmarks = sample['image'], sample['landmarks']
        h, w = image.shape[:2]
        if isinstance(self.output_size, int):
            if h > w:
                new_h, new_w = self.output_size * h / w, self.output_size
            else:
                new_h, new_w = self.output_size, self.output_size * w / h
        else:
            new_h, new_w = self.output_size
        new_h, new_w = int(new_h), int(new_w)
        rows = (np.arange(new_h) * h / new_h).astype(int)
        cols = (np.arange(new_w) * w / new_w).astype(int)
        img = image[rows][:, cols] / 255.0
        landmarks = landmarks * [new_w / w, new_h / h]
        return {'image': img, 'landmarks': landmarks, 'name': sample['name']}

class RandomCrop(object):
    def __init__(self, output_size):
        if isinstance(output_size, int):
            self.output_size = (output_size, output_size)
        else:
            self.output_size = output_size
    def __call__(self, sample):
        image, landmarks = sample['image'], sample['landmarks']
        h, w = image.shape[:2]
        new_h, new_w = self.output_size
        top = np.random.randint(0, h - new_h + 1)
        left = np.random.randint(0, w - new_w + 1)
        image = image[top: top + new_h, left: left + new_w]
        landmarks = landmarks - [left, top]
        return {'image': image, 'landmarks': landmarks, 'name': sample['name']}

class ToTensor(object):
    def __call__(self, sample):
        image, landmarks = sample['image'], sample['landmarks']
        image = image.transpose((2, 0, 1))
        return {'image': torch.from_numpy(image), 'landmarks': torch.from_numpy(landmarks), 'name': sample['name']}

class Compose:
    def __init__(self, ts): self.ts = ts
    def __call__(self, s):
        for t in self.ts:
            s = t(s)
        return s

face_dataset = FaceLandmarksDataset(6)
for i, sample in enumerate(face_dataset):
    print(i, sample['image'].shape, sample['landmarks'].shape)
    if i == 2:
        break
transformed_dataset = FaceLandmarksDataset(6, transform=Compose([Rescale(16), RandomCrop(12), ToTensor()]))
for i, sample in enumerate(transformed_dataset):
    print(i, sample['image'].size(), sample['landmarks'].size(), sample['image'].dtype, sample['landmarks'].dtype)
    if i == 2:
        break
print(transformed_dataset[torch.tensor(1)]['landmarks'])
dataloader = DataLoader(transformed_dataset, batch_size=4, shuffle=True, num_workers=0)
for i_batch, sample_batched in enumerate(dataloader):
    print(i_batch, sample_batched['image'].size(), sample_batched['landmarks'].size(), sample_batched['name'])
    print(sample_batched['landmarks'][0], sample_batched['image'].mean())
    images_batch, landmarks_batch = sample_batched['image'], sample_batched['landmarks']
    batch_size = len(images_batch)
    im_size = images_batch.size(2)
    print(landmarks_batch[0, :, 0].numpy() + 0 * im_size + 2)
'''

PROGRAMS['nn_init_generator_errors_warnings'] = r'''
import torch, torch.nn as nn
import warnings
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    for w in ws:
        print('warn', w.category.__name__, str(w.message))
    return r
torch.manual_seed(0)
g = torch.Generator().manual_seed(3)
w = torch.empty(3, 4)
for f in [nn.init.uniform_, nn.init.normal_, nn.init.trunc_normal_, nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.orthogonal_]:
    E(lambda: f(w, generator=g))
E(lambda: nn.init.sparse_(w, 0.5, generator=g))
E(lambda: torch.rand(2))
E(lambda: nn.init.kaiming_uniform_(torch.empty(3)))
E(lambda: nn.init.xavier_normal_(torch.empty(3)))
E(lambda: nn.init.orthogonal_(torch.empty(3)))
E(lambda: nn.init.sparse_(torch.empty(2, 2, 2), 0.5))
E(lambda: nn.init.eye_(torch.empty(2, 2, 2)))
E(lambda: nn.init.dirac_(torch.empty(2, 2)))
E(lambda: nn.init.dirac_(torch.empty(4, 2, 3), groups=2))
E(lambda: nn.init.dirac_(torch.empty(3, 2, 3), groups=2))
E(lambda: nn.init.calculate_gain('foo'))
E(lambda: nn.init.calculate_gain('leaky_relu', 'a'))
E(lambda: nn.init.calculate_gain('leaky_relu', True))
E(lambda: nn.init.kaiming_normal_(torch.empty(2, 2), mode='fan_mid'))
E(lambda: nn.init.kaiming_normal_(torch.empty(2, 2), nonlinearity='bogus'))
E(lambda: W(lambda: nn.init.kaiming_normal_(torch.empty(0, 3))))
E(lambda: W(lambda: nn.init.kaiming_uniform_(torch.empty(0, 3))))
E(lambda: W(lambda: nn.init.xavier_uniform_(torch.empty(0, 3))))
E(lambda: W(lambda: nn.init.orthogonal_(torch.empty(0, 3))))
E(lambda: nn.init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 2)))
E(lambda: nn.init._calculate_correct_fan(torch.empty(4, 3, 2), 'fan_out'))
E(lambda: nn.init.trunc_normal_(torch.empty(1000), std=1.0).abs().max() <= 2)
E(lambda: W(lambda: nn.init.trunc_normal_(torch.empty(3), mean=5., std=1., a=-2., b=-1.)))
x = torch.empty(3, 3, requires_grad=True)
E(lambda: nn.init.normal_(x).requires_grad)
E(lambda: nn.init.constant_(x, 2).grad_fn)
E(lambda: nn.init.orthogonal_(torch.empty(2, 3, dtype=torch.float64)))
E(lambda: nn.init.orthogonal_(torch.empty(5, 2)))
E(lambda: nn.init.uniform_(torch.empty(2, dtype=torch.float16)))
E(lambda: nn.init.kaiming_uniform_(torch.empty(2, 2, dtype=torch.bfloat16)))
E(lambda: nn.init.normal_(torch.empty(2, dtype=torch.int64)))
E(lambda: nn.init.zeros_(torch.empty(2, dtype=torch.int64)))
E(lambda: nn.init.xavier_uniform(torch.empty(2, 2)))
E(lambda: nn.init.normal(torch.empty(2)))
'''

PROGRAMS['distributions_utils_multinomial_binomial_edges'] = r'''
import torch
from torch.distributions import *
U = torch.distributions.utils
probs_to_logits, logits_to_probs, clamp_probs, broadcast_all = U.probs_to_logits, U.logits_to_probs, U.clamp_probs, U.broadcast_all
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
c = Categorical(torch.tensor([2., 0., 6.]))
print(c.probs, c.logits, c.entropy(), c.log_prob(torch.tensor([0, 1, 2])), c.sample((6,)))
c = Categorical(logits=torch.tensor([[-float('inf'), 0., 1.], [5., 5., 5.]]))
print(c.probs, c.entropy(), c.log_prob(torch.tensor([[0], [1]])), c.log_prob(torch.tensor(2)))
E(lambda: c.log_prob(torch.tensor([0, 1, 2])))
print(probs_to_logits(torch.tensor([0.2, 0.8])), probs_to_logits(torch.tensor([0.2, 0.8]), is_binary=True), logits_to_probs(torch.tensor([0., 1.])), logits_to_probs(torch.tensor([0., 1.]), is_binary=True))
print(clamp_probs(torch.tensor([0., 1., 0.5])), broadcast_all(torch.ones(2), 3.), broadcast_all(1, 2.))
E(lambda: broadcast_all('a', 1.))
E(lambda: broadcast_all(torch.ones(2), torch.ones(3)))
m = Multinomial(4, probs=torch.tensor([0.2, 0.3, 0.5]))
print(m, m.sample(), m.log_prob(torch.tensor([1., 1., 2.])), m.mean, m.variance)
E(lambda: m.log_prob(torch.tensor([1., 1., 1.])))
E(lambda: Multinomial(torch.tensor(3), torch.tensor([0.5, 0.5])))
E(lambda: Multinomial(probs=torch.tensor([0.5, 0.5])).entropy())
E(lambda: Multinomial(3, torch.tensor([0.5, 0.5])).entropy())
b = Binomial(torch.tensor([3., 10.]), logits=torch.tensor([0.2, -1.]))
print(b, b.sample((2,)), b.log_prob(torch.tensor([1., 7.])), b.entropy() if False else b.mean, b.mode, b.variance, b.enumerate_support if False else None)
E(lambda: Binomial(3, 0.5).enumerate_support())
E(lambda: Binomial(torch.tensor([3, 4]), 0.5).enumerate_support())
E(lambda: Binomial(2.5, 0.5))
E(lambda: Binomial(3, 0.5).log_prob(torch.tensor(4.)))
E(lambda: Bernoulli(probs=torch.tensor([0., 1.])).entropy())
E(lambda: Bernoulli(probs=torch.tensor([0., 1.])).log_prob(torch.tensor([1., 0.])))
E(lambda: Categorical(probs=torch.tensor([[0.5, 0.5]])).expand((3, 1)).sample())
E(lambda: Categorical(probs=torch.tensor([0.5, 0.5])).expand((2,)).probs)
E(lambda: Normal(0., 1.).expand([3]).mean)
E(lambda: Normal(torch.zeros(2), 1.).expand((3,)))
E(lambda: Dirichlet(torch.ones(3)).expand((2,)).sample())
E(lambda: Poisson(torch.tensor([0., 2.])).log_prob(torch.tensor([0., 2.])))
E(lambda: Poisson(torch.tensor([0., 2.])).sample())
E(lambda: Geometric(logits=torch.tensor([0., 2.])).entropy())
E(lambda: OneHotCategorical(logits=torch.zeros(2, 3)).sample((2,)).shape)
E(lambda: Independent(Bernoulli(torch.full((2, 3), 0.5)), 1).log_prob(torch.ones(2, 3)))
E(lambda: Independent(Normal(torch.zeros(2), 1.), 1, validate_args=True).log_prob(torch.zeros(3)))
'''

# fixed: torch.multinomial had no out= argument
PROGRAMS['multinomial_layouts_dtypes_out'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
p = torch.rand(4, 6)
E(lambda: torch.multinomial(p.t(), 2))
E(lambda: torch.multinomial(p[:, ::2], 2, replacement=True))
E(lambda: p.multinomial(3))
E(lambda: p.double().multinomial(6))
E(lambda: torch.multinomial(p, 2, out=torch.empty(0, dtype=torch.int64)))
E(lambda: torch.multinomial(p, 2, out=torch.empty(0)))
E(lambda: torch.multinomial(torch.tensor([1., 2.], dtype=torch.float16), 2))
E(lambda: torch.multinomial(torch.tensor([1., 2.], dtype=torch.bfloat16), 4, True))
E(lambda: torch.multinomial(torch.tensor([1., float('inf')]), 1))
E(lambda: torch.multinomial(torch.tensor([1., float('nan')]), 1))
E(lambda: torch.multinomial(torch.zeros(0, 3), 2))
E(lambda: torch.multinomial(torch.ones(3, 0), 2))
E(lambda: torch.multinomial(torch.ones(2 ** 24 + 1), 1))
E(lambda: torch.multinomial(torch.ones(3), 2, replacement=True, generator=torch.Generator().manual_seed(5)))
E(lambda: torch.multinomial(torch.tensor([[0., 0.], [1., 1.]]), 1))
E(lambda: torch.multinomial(torch.tensor([1., 1.], requires_grad=True), 1))
E(lambda: torch.multinomial(torch.ones(3), -1))
E(lambda: torch.multinomial(torch.ones(3), 2.5))
E(lambda: torch.multinomial(torch.ones(()), 1))
E(lambda: torch.rand(5).multinomial(5, True))
'''

PROGRAMS['transforms_caching_shapes_biject_to'] = r'''
import torch
from torch.distributions import *
from torch.distributions import transforms as T, constraints
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
x = torch.randn(2, 3)
ts = [T.ExpTransform(cache_size=1), T.SoftplusTransform(), T.ReshapeTransform((2, 3), (3, 2)), T.IndependentTransform(T.ExpTransform(), 1),
      T.CatTransform([T.ExpTransform(), T.AffineTransform(0., 2.)], dim=1, lengths=[1, 2]), T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0),
      T.CumulativeDistributionTransform(Normal(0., 1.)), T.CorrCholeskyTransform(), T.PositiveDefiniteTransform(), T.LowerCholeskyTransform(), T.SoftmaxTransform(), T.StickBreakingTransform(), T.TanhTransform(), T.PowerTransform(torch.tensor(2.)), T.AbsTransform()]
inputs = [x, x, x, x, x, x, x, torch.randn(3), torch.randn(2, 2), torch.randn(2, 2), x, x, x, x.abs(), x]
for t, v in zip(ts, inputs):
    print(t)
    E(lambda: t(v))
    E(lambda: t.inv(t(v)))
    E(lambda: t.log_abs_det_jacobian(v, t(v)))
    E(lambda: (t.domain, t.codomain, t.bijective, t.event_dim))
    E(lambda: t.forward_shape(v.shape))
    E(lambda: t.inverse_shape(v.shape))
t = T.ExpTransform(cache_size=1)
y = t(x)
print(t.inv(y) is x, t(x) is y)
E(lambda: T.ExpTransform(cache_size=2))
E(lambda: T.ExpTransform().with_cache(1))
E(lambda: (T.ExpTransform() == T.ExpTransform(), T.AffineTransform(0., 1.) == T.AffineTransform(0., 1.)))
E(lambda: T.identity_transform)
E(lambda: T.ComposeTransform([]) == T.identity_transform)
E(lambda: T.ComposeTransform([T.ExpTransform(), T.ExpTransform()]).log_abs_det_jacobian(x, T.ExpTransform()(T.ExpTransform()(x))))
E(lambda: biject_to(constraints.simplex)(torch.zeros(2)))
E(lambda: biject_to(constraints.corr_cholesky)(torch.zeros(3)))
E(lambda: transform_to(constraints.positive_definite)(torch.zeros(3)))
E(lambda: transform_to(constraints.lower_cholesky)(torch.ones(2, 2)))
E(lambda: transform_to(constraints.greater_than(2.))(torch.zeros(2)))
E(lambda: transform_to(constraints.less_than(2.))(torch.zeros(2)))
E(lambda: transform_to(constraints.interval(-1., 1.))(torch.zeros(2)))
E(lambda: biject_to(constraints.real_vector)(torch.zeros(2)))
E(lambda: biject_to(constraints.integer_interval(0, 2)))
E(lambda: biject_to(constraints.independent(constraints.positive, 1)))
'''

PROGRAMS['dropout_bernoulli_masks_big_and_strided'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(300, 400)
y = F.dropout(x, 0.37)
print(y.sum(), y[17, 100:110], (y == 0).nonzero()[:5].tolist())
print(F.dropout(torch.ones(50, dtype=torch.float64), 0.2).nonzero().flatten().tolist())
print(F.dropout(torch.ones(40, dtype=torch.bfloat16), 0.3))
print(F.dropout(torch.ones(40, dtype=torch.float16), 0.3))
print(F.dropout(torch.ones(6, 5).t(), 0.5))
print(F.dropout(torch.arange(12.).reshape(3, 4)[:, 1:3], 0.5))
print(F.dropout2d(torch.ones(3, 4, 2, 2), 0.5)[:, :, 0, 0])
print(F.dropout1d(torch.ones(3, 4, 2), 0.5)[..., 0])
print(F.dropout3d(torch.ones(2, 3, 1, 1, 2), 0.5)[..., 0, 0, 0])
print(F.alpha_dropout(torch.ones(20), 0.3, True))
print(F.feature_alpha_dropout(torch.ones(2, 5, 2), 0.3, True)[..., 0])
z = torch.ones(8, requires_grad=True)
out = nn.Dropout(0.5)(z * 2)
out.sum().backward()
print(out, z.grad, out.grad_fn.next_functions)
m = nn.Sequential(nn.Linear(10, 10), nn.Dropout(0.2), nn.ReLU(), nn.Linear(10, 2))
print(m(torch.randn(3, 10)))
m.eval(); print(m(torch.ones(1, 10)))
print(torch.bernoulli(torch.full((3000,), 0.7)).sum(), torch.empty(3000).bernoulli_(0.3).sum(), torch.empty(3000, dtype=torch.float64).bernoulli_(0.6).sum())
print(torch.empty(100, dtype=torch.int32).bernoulli_(0.5)[-10:], torch.empty(100, dtype=torch.uint8).bernoulli_(0.5)[:10])
print(torch.empty(5, 7).t().bernoulli_(0.5))
'''

# fixed: torch.tensor of an int beyond int64 raised OverflowError instead of ValueError; default_collate of a tensor batch stacked it instead of failing
PROGRAMS['default_collate_number_dtypes_overflow'] = r'''
import torch
import numpy as np
from torch.utils.data import default_collate, DataLoader
def E(f):
    try:
        r = f(); print('ok', type(r).__name__, r, getattr(r, 'dtype', None))
    except Exception as e:
        print(type(e).__name__, str(e))
E(lambda: default_collate([1, 2.5]))
E(lambda: default_collate([2.5, 1]))
E(lambda: default_collate([True, 1]))
E(lambda: default_collate([1, True]))
E(lambda: default_collate([2 ** 63, 1]))
E(lambda: default_collate([2 ** 70]))
E(lambda: default_collate([1.5, float('nan')]))
E(lambda: default_collate([np.array(True), np.array(False)]))
E(lambda: default_collate([np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)]))
E(lambda: default_collate([np.array([1, 2], dtype=np.float16)]))
E(lambda: default_collate([np.array(1.5)]))
E(lambda: default_collate([np.zeros((2, 2), dtype=np.float32).T]))
E(lambda: default_collate([np.array([1, 2]), np.array([1, 2, 3])]))
E(lambda: default_collate([np.complex64(1 + 2j)]))
E(lambda: default_collate([np.array([1 + 2j])]))
E(lambda: default_collate([torch.tensor([1, 2]), torch.tensor([1., 2.])]))
E(lambda: default_collate([torch.tensor(1), torch.tensor(2.5, dtype=torch.float64)]))
E(lambda: default_collate([torch.ones(2, 3).t(), torch.zeros(3, 2)]).stride())
E(lambda: default_collate([(1, [2.0, np.int8(3)]), (4, [5.0, np.int8(6)])]))
E(lambda: default_collate([{'a': {'b': 1}}, {'a': {'b': 2}}]))
E(lambda: default_collate([]))
E(lambda: default_collate(torch.ones(3)))
E(lambda: default_collate(np.ones(3)))
E(lambda: default_collate([range(2), range(2)]))
E(lambda: default_collate([torch.tensor([1., 2.], requires_grad=True)]))
E(lambda: list(DataLoader(np.arange(6.).reshape(3, 2), batch_size=2)))
E(lambda: list(DataLoader(np.arange(4), batch_size=None)))
E(lambda: list(DataLoader(torch.arange(4), batch_size=3)))
E(lambda: list(DataLoader([1.0, 2.0, 3.0], batch_size=2)))
E(lambda: list(DataLoader({'x': 1}, batch_size=1)))
'''

PROGRAMS['distributions_unvalidated_and_float64'] = r'''
import torch
from torch.distributions import *
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
c = Categorical(torch.tensor([0.2, 0.8]), validate_args=False)
E(lambda: c.log_prob(torch.tensor(5)))
E(lambda: c.log_prob(torch.tensor(-1)))
E(lambda: c.log_prob(torch.tensor(1.7)))
E(lambda: c.log_prob(torch.tensor([[0, 1], [1, 1]])))
E(lambda: Bernoulli(0.3, validate_args=False).log_prob(torch.tensor(0.5)))
E(lambda: Normal(0., 1., validate_args=False).log_prob(torch.tensor(1, dtype=torch.int64)))
E(lambda: Normal(0., 1.).log_prob(torch.tensor(1)))
E(lambda: Normal(0., 1.).log_prob(1.0))
E(lambda: Normal(0., 1.).log_prob(torch.tensor(1., dtype=torch.float64)))
E(lambda: Normal(torch.tensor(0., dtype=torch.float64), 1.).log_prob(torch.tensor(1.)))
E(lambda: Normal(torch.tensor(0., dtype=torch.float64), torch.tensor(1.)).scale.dtype)
E(lambda: Normal(0, 1).loc.dtype)
E(lambda: Normal(torch.tensor([0, 1]), 1.))
E(lambda: Uniform(0., torch.tensor([1., 2.])).sample((2,)))
E(lambda: Gamma(torch.tensor([1., 2.], dtype=torch.float64), 1.).sample())
E(lambda: Beta(torch.tensor([1.], dtype=torch.float64), torch.tensor([2.], dtype=torch.float64)).rsample())
E(lambda: Dirichlet(torch.tensor([1., 2.], dtype=torch.float64)).sample())
E(lambda: Categorical(torch.tensor([0.2, 0.8], dtype=torch.float64)).sample((3,)))
E(lambda: Categorical(torch.tensor([0.2, 0.8], dtype=torch.float64)).entropy())
E(lambda: Bernoulli(torch.tensor([0.2], dtype=torch.float64)).sample())
E(lambda: MultivariateNormal(torch.zeros(2, dtype=torch.float64), torch.eye(2, dtype=torch.float64)).sample())
E(lambda: Poisson(torch.tensor([2.], dtype=torch.float64)).sample((3,)))
E(lambda: Exponential(torch.tensor([2.], dtype=torch.float64)).rsample((2,)))
E(lambda: Normal(torch.zeros(2, dtype=torch.float64), 1.).rsample((2,)))
E(lambda: Laplace(torch.zeros(2, dtype=torch.float64), 1.).rsample((2,)))
E(lambda: Cauchy(torch.zeros(2, dtype=torch.float64), 1.).rsample())
E(lambda: Gumbel(torch.zeros(2, dtype=torch.float64), 1.).rsample())
E(lambda: Binomial(10, torch.tensor([0.3], dtype=torch.float64)).sample())
E(lambda: Geometric(torch.tensor([0.3], dtype=torch.float64)).sample())
E(lambda: StudentT(torch.tensor([3.], dtype=torch.float64)).rsample())
'''

# fixed: use_deterministic_algorithms accepted a non-bool mode/warn_only
PROGRAMS['reproducibility_recipe_bootstrap'] = r'''
import torch
import random
import numpy as np
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)
g = torch.Generator()
g.manual_seed(0)
train_dataset = TensorDataset(torch.arange(10.), torch.arange(10))
dl = DataLoader(train_dataset, batch_size=4, num_workers=0, worker_init_fn=seed_worker, generator=g, shuffle=True)
for xb, yb in dl:
    print(xb, yb)
print(torch.initial_seed() % 2**32, g.initial_seed())
torch.use_deterministic_algorithms(False)
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print(torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode('warn')
print(torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode(0)
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
E(lambda: torch.set_deterministic_debug_mode('bogus'))
E(lambda: torch.use_deterministic_algorithms('yes'))
E(lambda: torch.use_deterministic_algorithms(True, warn_only='x'))
E(lambda: torch.use_deterministic_algorithms(1))
print(torch.are_deterministic_algorithms_enabled())
# bootstrap confidence interval
torch.manual_seed(1)
data = torch.randn(50) * 2 + 1
means = torch.stack([data[torch.randint(0, 50, (50,))].mean() for _ in range(200)])
print(means.mean(), torch.quantile(means, torch.tensor([0.025, 0.975])))
# Monte Carlo pi
pts = torch.rand(10000, 2)
print(4 * (pts.pow(2).sum(1) <= 1).float().mean())
idx = list(torch.utils.data.RandomSampler(range(10), replacement=True, num_samples=5, generator=torch.Generator().manual_seed(2)))
print(idx)
'''

PROGRAMS['random_fills_every_dtype_layout_precision10'] = r'''
import torch
import torch.nn as nn
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
# random tensors through every path a teacher uses, seeded and printed at full precision
torch.set_printoptions(precision=10)
print(torch.rand(3), torch.rand(3, dtype=torch.float64))
print(torch.randn(20)[-3:], torch.randn(20, dtype=torch.float64)[-3:])
print(torch.empty(20).uniform_(-3, 7)[-3:], torch.empty(3).uniform_(-3, 7))
print(torch.empty(20).normal_(2, 0.5)[-3:], torch.empty(3, dtype=torch.float64).normal_(2, 0.5))
print(torch.empty(5).exponential_(0.3), torch.empty(5, dtype=torch.float64).exponential_(0.3))
print(torch.empty(5).log_normal_(0.1, 0.2), torch.empty(5, dtype=torch.float64).cauchy_(1, 2))
print(torch.empty(17).cauchy_(), torch.empty(17).log_normal_()[-2:])
print(torch.empty(3, dtype=torch.float16).uniform_(-1, 1), torch.empty(3, dtype=torch.bfloat16).exponential_())
print(torch.empty(3, dtype=torch.float16).cauchy_(), torch.empty(3, dtype=torch.bfloat16).log_normal_())
print(torch.empty(4, dtype=torch.complex64).uniform_(), torch.empty(2, dtype=torch.complex128).normal_())
print(torch.randn(3, dtype=torch.complex128), torch.randn(9, dtype=torch.complex64)[-1])
print(torch.randn(2, 3, dtype=torch.float16), torch.rand(2, dtype=torch.bfloat16))
print(torch.randn(1, 16, dtype=torch.float16), torch.randn(16, dtype=torch.bfloat16)[-4:])
print(torch.empty(33).uniform_()[-3:], torch.empty(2, 17).normal_()[1, -3:])
print(torch.empty(6, 3).t().uniform_(), torch.empty(20, 3).t().normal_()[0, -3:])
e = torch.empty(4, 8)[:, ::2]
print(e.normal_(), e.uniform_(2, 3))
x = torch.empty(2, 3, 4).permute(2, 0, 1)
print(x.normal_()[0], torch.randn_like(x)[0], torch.rand_like(x)[1])
print(torch.randn(0), torch.rand(2, 0).uniform_())
'''

PROGRAMS['distributions_default_dtype_float64'] = r'''
import torch
from torch.distributions import *
from torch.utils.data import default_collate, TensorDataset, DataLoader
torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
print(Normal(0., 1.).sample((2,)), Uniform(0, 1).sample(), Categorical(torch.tensor([0.5, 0.5])).probs.dtype)
print(Gamma(2., 1.).rsample((2,)), Beta(2, 3).sample(), Dirichlet(torch.tensor([1., 2.])).sample())
print(Bernoulli(0.3).sample((3,)), Exponential(1.).sample(), Poisson(3.).sample((2,)))
print(MultivariateNormal(torch.zeros(2), torch.eye(2)).sample(), kl_divergence(Normal(0., 1.), Normal(1., 1.)))
print(default_collate([1.5, 2.5]).dtype, default_collate([1, 2]).dtype, torch.tensor([1.5]).dtype)
print(torch.rand(2), torch.randn(2), torch.empty(2).uniform_(), torch.randint(3, (2,)).dtype, torch.randint(3, (2,), dtype=torch.get_default_dtype()))
print(torch.nn.Linear(2, 2).weight, torch.nn.init.trunc_normal_(torch.empty(3)))
print(torch.nn.functional.dropout(torch.ones(5), 0.5), torch.bernoulli(torch.full((4,), 0.5)))
print(torch.normal(0., 1., (3,)), torch.normal(torch.zeros(2), 1.).dtype)
torch.set_default_dtype(torch.float32)
print(Normal(0., 1.).sample((2,)).dtype)
'''

PROGRAMS['distributions_log_prob_numbers_grads'] = r'''
import torch
from torch.distributions import *
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
c = Categorical(logits=torch.tensor([0.1, 0.2, 0.3]))
E(lambda: c.log_prob(1))
E(lambda: Categorical(logits=torch.tensor([0.1, 0.2]), validate_args=False).log_prob(1))
E(lambda: Normal(0., 1.).log_prob(0.5))
E(lambda: Normal(0., 1., validate_args=False).log_prob(0.5))
E(lambda: Normal(0., 1.).cdf(0.5))
E(lambda: Normal(0., 1.).icdf(0.5))
E(lambda: Normal(0., 1.).icdf(torch.tensor(1.5)))
E(lambda: Uniform(0., 1.).icdf(torch.tensor(1.5)))
E(lambda: Normal(0., 1.).sample([2, 2]).shape)
E(lambda: Normal(0., 1.).sample(torch.Size([3])).shape)
E(lambda: Normal(0., 1.).sample(3))
E(lambda: c.sample().item())
E(lambda: type(c.sample().item()))
E(lambda: c.sample().dtype)
E(lambda: c.log_prob(c.sample()).requires_grad)
E(lambda: Categorical(logits=torch.tensor([0.1, 0.2], requires_grad=True)).log_prob(torch.tensor(1)).grad_fn)
E(lambda: Categorical(probs=torch.tensor([0.1, 0.9], requires_grad=True)).log_prob(torch.tensor(1)).grad_fn)
E(lambda: Categorical(probs=torch.tensor([0.1, 0.9], requires_grad=True)).entropy().grad_fn)
E(lambda: Normal(torch.tensor(0., requires_grad=True), 1.).log_prob(torch.tensor(0.3)).grad_fn)
E(lambda: Normal(torch.tensor(0., requires_grad=True), 1.).rsample().grad_fn)
E(lambda: Normal(torch.tensor(0., requires_grad=True), 1.).sample().grad_fn)
p = torch.tensor([0.3, 0.7], requires_grad=True)
d = Categorical(p)
lp = d.log_prob(torch.tensor([0, 1, 1]))
lp.sum().backward()
print(p.grad)
lg = torch.tensor([0.3, -0.7], requires_grad=True)
Categorical(logits=lg).entropy().backward()
print(lg.grad)
'''

# fixed: WeightedRandomSampler with a negative weight gave multinomial's up-front message instead of the sampler-with-replacement kernel's
PROGRAMS['samplers_arguments_and_weights'] = r'''
import torch
import numpy as np
from torch.utils.data import *
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
E(lambda: WeightedRandomSampler(np.array([1, 2, 3]), 4).weights)
E(lambda: list(WeightedRandomSampler(np.array([1, 2, 3]), 4)))
E(lambda: WeightedRandomSampler(torch.tensor([1, 2]), 2).weights)
E(lambda: WeightedRandomSampler((0.5, 0.5), 2, generator=torch.Generator().manual_seed(1)).weights)
E(lambda: list(WeightedRandomSampler((0.5, 0.5), 2, generator=torch.Generator().manual_seed(1))))
E(lambda: WeightedRandomSampler([1.], 2.5))
E(lambda: WeightedRandomSampler([1.], True))
E(lambda: WeightedRandomSampler([1.], 2, replacement='x'))
E(lambda: WeightedRandomSampler([-1., 1.], 2))
E(lambda: list(WeightedRandomSampler([-1., 1.], 2)))
E(lambda: list(WeightedRandomSampler([0., 0.], 2)))
E(lambda: list(SubsetRandomSampler(range(5), generator=torch.Generator().manual_seed(2))))
E(lambda: list(SubsetRandomSampler(torch.tensor([7, 8, 9]))))
E(lambda: SubsetRandomSampler([1, 2]).indices)
E(lambda: list(BatchSampler([5, 6, 7], 2, False)))
E(lambda: BatchSampler([5, 6, 7], 2.0, False))
E(lambda: BatchSampler([5, 6, 7], True, False))
E(lambda: RandomSampler(range(3), num_samples=2.5))
E(lambda: RandomSampler(range(3), num_samples=-1))
E(lambda: len(RandomSampler(range(0))))
E(lambda: list(RandomSampler(range(0))))
E(lambda: list(RandomSampler(range(3), replacement=True)))
E(lambda: len(RandomSampler(range(3), num_samples=7)))
E(lambda: list(RandomSampler([], replacement=True, num_samples=2)))
E(lambda: list(SequentialSampler('abc')))
E(lambda: len(SequentialSampler('abc')))
E(lambda: list(DataLoader(range(5), batch_size=2, sampler=WeightedRandomSampler([1.] * 5, 5, replacement=False))))
'''

# fixed: multinomial with replacement (more than one sample) checked rows up front with the other path's messages; PyTorch checks each row as it samples (earlier rows consume draws)
PROGRAMS['multinomial_invalid_rows_every_path'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for rep in (True, False):
        for n in (1, 2):
            for v in ([-1., 1.], [float('inf'), 1.], [float('nan'), 1.], [0., 0.], [[1., 1.], [0., 0.]], [[1., 1.], [-1., 2.]], [[1., float('inf')], [1., 1.]], [[1., 2.], [float('inf'), -1.]], [[1., 2.], [-1., float('nan')]]):
                print(dt, rep, n, v, end=' ')
                E(lambda: torch.multinomial(torch.tensor(v, dtype=dt), n, rep))
            print(torch.rand(1))
'''

# fixed: bernoulli with a p outside [0, 1] drew nothing before failing (PyTorch's entries before the bad one draw); normal accepted a NaN std; _standard_gamma/_sample_dirichlet of a negative alpha raised Python's math domain error instead of returning the dtype's tiny
PROGRAMS['invalid_parameters_draws_and_nan_checks'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
E(lambda: torch.bernoulli(torch.tensor([0.5, 0.5, 1.5])))
print(torch.rand(2))
E(lambda: torch.bernoulli(torch.tensor([0.5, 0.5, 0.3, float('nan')], dtype=torch.float64)))
print(torch.rand(2))
E(lambda: torch.empty(4).bernoulli_(torch.tensor([0.5, -0.1, 0.2, 0.3])))
print(torch.rand(2))
E(lambda: torch.empty(4).uniform_(float('nan'), 1))
E(lambda: torch.empty(4).uniform_(0, float('inf')))
E(lambda: torch.empty(4).normal_(float('nan'), 1))
E(lambda: torch.empty(4).normal_(0, float('inf')))
E(lambda: torch.empty(4).normal_(0, float('nan')))
E(lambda: torch.normal(torch.zeros(3), torch.tensor([1., float('nan'), 1.])))
print(torch.rand(2))
E(lambda: torch.poisson(torch.tensor([1., -1., 2.])))
print(torch.rand(2))
E(lambda: torch.poisson(torch.tensor([1., float('nan'), 2.])))
print(torch.rand(2))
E(lambda: torch._standard_gamma(torch.tensor([1., -1., 2.])))
print(torch.rand(2))
E(lambda: torch.binomial(torch.tensor([5., 5.]), torch.tensor([0.5, 1.5])))
print(torch.rand(2))
E(lambda: torch._sample_dirichlet(torch.tensor([1., -1.])))
print(torch.rand(2))
E(lambda: torch.empty(3).exponential_(0))
E(lambda: torch.empty(3).exponential_(float('inf')))
print(torch.rand(2))
E(lambda: torch.empty(3).geometric_(1))
E(lambda: torch.empty(3).random_(0, 2**24 + 1))
E(lambda: torch.empty(3, dtype=torch.float16).random_(0, 2**11 + 2))
print(torch.rand(2))
'''

PROGRAMS['tutorial_text_classification_collate_padding'] = r'''
import torch
from torch import nn
from torch.utils.data import DataLoader
from torch.utils.data.dataset import random_split
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
import time
torch.manual_seed(0)
vocab = {w: i for i, w in enumerate('<unk> the a cat dog sat on mat ran fast slow big small'.split())}
text_pipeline = lambda x: [vocab.get(t, 0) for t in x.split()]
label_pipeline = lambda x: int(x) - 1
sents = ['the cat sat on the mat', 'a dog ran fast', 'the big dog sat', 'a small cat ran slow', 'the mat', 'dog cat dog', 'a big big mat', 'the cat ran on the mat fast']
train_iter = [(1 + i % 4, s) for i, s in enumerate(sents * 3)]
def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(label_pipeline(_label))
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets
dataloader = DataLoader(train_iter, batch_size=4, shuffle=False, collate_fn=collate_batch)
print(next(iter(dataloader)))
class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()
    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)
model = TextClassificationModel(len(vocab), 8, 4)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
num_train = int(len(train_iter) * 0.75)
split_train_, split_valid_ = random_split(train_iter, [num_train, len(train_iter) - num_train])
train_dataloader = DataLoader(split_train_, batch_size=4, shuffle=True, collate_fn=collate_batch)
valid_dataloader = DataLoader(split_valid_, batch_size=4, shuffle=True, collate_fn=collate_batch)
def train(dataloader):
    model.train()
    total_acc, total_count = 0, 0
    for idx, (label, text, offsets) in enumerate(dataloader):
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
    return total_acc / total_count, loss.item()
def evaluate(dataloader):
    model.eval()
    total_acc, total_count = 0, 0
    with torch.no_grad():
        for idx, (label, text, offsets) in enumerate(dataloader):
            predicted_label = model(text, offsets)
            total_acc += (predicted_label.argmax(1) == label).sum().item()
            total_count += label.size(0)
    return total_acc / total_count
total_accu = None
for epoch in range(1, 4):
    acc, l = train(train_dataloader)
    accu_val = evaluate(valid_dataloader)
    if total_accu is not None and total_accu > accu_val:
        scheduler.step()
    else:
        total_accu = accu_val
    print('| end of epoch {:3d} | train acc {:8.3f} | loss {:.5f} | valid accuracy {:8.3f} | lr {}'.format(epoch, acc, l, accu_val, scheduler.get_last_lr()))
# padding collate for an RNN
def pad_collate(batch):
    seqs = [torch.tensor(text_pipeline(t)) for _, t in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=0), lengths, torch.tensor([label_pipeline(l) for l, _ in batch])
rnn = nn.GRU(8, 5, batch_first=True)
emb = nn.Embedding(len(vocab), 8, padding_idx=0)
for x, lengths, y in DataLoader(train_iter[:8], batch_size=4, shuffle=True, collate_fn=pad_collate):
    packed = pack_padded_sequence(emb(x), lengths, batch_first=True, enforce_sorted=False)
    out, h = rnn(packed)
    padded, lens = pad_packed_sequence(out, batch_first=True)
    print(x, lengths, padded.shape, lens, h[0, :, :2])
'''

PROGRAMS['distributions_extreme_parameters_seeded'] = r'''
import torch
from torch.distributions import *
torch.manual_seed(0)
c = Categorical(torch.tensor([10., 30., 60.]))
s = c.sample((1000,))
print(torch.bincount(s), s[:10])
c = Categorical(logits=torch.randn(4, 5))
print(c.sample((3,)), c.sample((2, 2)).shape)
st = OneHotCategoricalStraightThrough(logits=torch.tensor([0.1, 0.5, -0.3], requires_grad=True))
x = st.rsample((2,))
print(x, x.grad_fn)
(x * torch.tensor([1., 2., 3.])).sum().backward()
print(st.logits.grad)
print(Bernoulli(probs=torch.full((3, 4), 0.3)).sample().sum(), Bernoulli(logits=torch.randn(20)).sample())
print(Binomial(100, torch.tensor([0.01, 0.5, 0.99])).sample((3,)))
print(Poisson(torch.tensor([0.001, 9.9, 10., 100., 1e4])).sample((2,)))
print(Gamma(torch.tensor([1e-3, 0.5, 1., 1e3]), 1.).sample((2,)))
print(Beta(torch.tensor([1e-2, 1e2]), torch.tensor([1e-2, 1.])).sample((2,)))
print(Dirichlet(torch.full((2, 4), 0.05)).sample())
print(Geometric(torch.tensor([1e-4, 0.5, 0.9999])).sample((2,)))
print(NegativeBinomial(torch.tensor([0.5, 50.]), logits=torch.tensor([-1., 2.])).sample((2,)))
print(VonMises(torch.tensor([0., 3.]), torch.tensor([0.01, 100.])).sample((2,)))
'''

PROGRAMS['nn_init_half_dtypes_orthogonal_sparse'] = r'''
import torch, torch.nn as nn
torch.manual_seed(0)
torch.set_printoptions(precision=6)
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.float32):
    print(dt, nn.init.trunc_normal_(torch.empty(5, dtype=dt), std=0.02), nn.init.trunc_normal_(torch.empty(20, dtype=dt), mean=1., std=3., a=0., b=2.)[-3:])
    print(nn.init.kaiming_uniform_(torch.empty(2, 3, dtype=dt)), nn.init.xavier_normal_(torch.empty(2, 3, dtype=dt)))
    print(nn.init.uniform_(torch.empty(3, dtype=dt), -2, 2), nn.init.normal_(torch.empty(3, dtype=dt), 1, 2))
print(nn.init.orthogonal_(torch.empty(6, 4, dtype=torch.float64)))
print(nn.init.orthogonal_(torch.empty(3, 8)))
q = nn.init.orthogonal_(torch.empty(16, 16))
print((q @ q.T - torch.eye(16)).abs().max() < 1e-5, q[0, :4])
print(nn.init.sparse_(torch.empty(8, 3), 0.25, std=0.5))
'''

PROGRAMS['tutorial_dcgan_small'] = r'''
import random
import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data
manualSeed = 999
print("Random Seed: ", manualSeed)
random.seed(manualSeed)
torch.manual_seed(manualSeed)
torch.use_deterministic_algorithms(True)
batch_size = 4
image_size = 8
nc = 1
nz = 5
ngf = 4
ndf = 4
num_epochs = 2
lr = 0.0002
beta1 = 0.5
data = torch.rand(12, nc, image_size, image_size) * 2 - 1
dataset = torch.utils.data.TensorDataset(data, torch.zeros(12))
dataloader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=0)
device = torch.device("cpu")
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False), nn.Tanh())
    def forward(self, input):
        return self.main(input)
class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 2, 1, 0, bias=False), nn.Sigmoid())
    def forward(self, input):
        return self.main(input)
netG = Generator().to(device)
netG.apply(weights_init)
print(netG)
netD = Discriminator().to(device)
netD.apply(weights_init)
criterion = nn.BCELoss()
fixed_noise = torch.randn(4, nz, 1, 1, device=device)
real_label = 1.
fake_label = 0.
optimizerD = optim.Adam(netD.parameters(), lr=lr, betas=(beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=lr, betas=(beta1, 0.999))
G_losses = []
D_losses = []
iters = 0
for epoch in range(num_epochs):
    for i, data in enumerate(dataloader, 0):
        netD.zero_grad()
        real_cpu = data[0].to(device)
        b_size = real_cpu.size(0)
        label = torch.full((b_size,), real_label, dtype=torch.float, device=device)
        output = netD(real_cpu).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()
        noise = torch.randn(b_size, nz, 1, 1, device=device)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()
        print('[%d/%d][%d/%d]\tLoss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f'
              % (epoch, num_epochs, i, len(dataloader), errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
        G_losses.append(errG.item())
        D_losses.append(errD.item())
        iters += 1
with torch.no_grad():
    fake = netG(fixed_noise).detach().cpu()
print(fake[0, 0, :2], len(G_losses))
torch.use_deterministic_algorithms(False)
'''

PROGRAMS['nested_subsets_concat_stack_datasets'] = r'''
import torch
from torch.utils.data import *
torch.manual_seed(0)
a = TensorDataset(torch.arange(5), torch.arange(5) * 10)
b = TensorDataset(torch.arange(5, 8), torch.arange(5, 8) * 10)
c = ConcatDataset([a, b])
s = Subset(Subset(c, [7, 6, 5, 4, 3]), [0, 2, 4])
print(len(s), s[1], s.__getitems__([0, 1]))
for x, y in DataLoader(s, batch_size=2):
    print(x, y)
for x, y in DataLoader(c, batch_size=3, shuffle=True):
    print(x, y)
st = StackDataset(a=a, b=list('abcde'))
print(st[2], len(st))
print(list(DataLoader(StackDataset(a, list('abcde')), batch_size=2)))
print(list(DataLoader(StackDataset(x=a, y=list('abcde')), batch_size=3)))
tr, va, te = random_split(c, [0.6, 0.2, 0.2])
print(tr.indices, va.indices, te.indices)
print([y.tolist() for _, y in DataLoader(tr, batch_size=4, shuffle=True)])
print(len(tr), tr.dataset is c)
'''

PROGRAMS['mvn_lowrank_grads_precision8'] = r'''
import torch
from torch.distributions import *
torch.set_printoptions(precision=8)
torch.manual_seed(0)
loc = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)
A = torch.tensor([[1.0, 0.2, 0.1], [0.2, 2.0, 0.3], [0.1, 0.3, 1.5]], requires_grad=True)
m = MultivariateNormal(loc, A)
x = m.rsample((4,))
lp = m.log_prob(x.detach())
(x.sum() + lp.sum() + m.entropy()).backward()
print(x, lp, loc.grad, A.grad)
L = torch.tensor([[1.0, 0., 0.], [0.5, 1.2, 0.], [-0.3, 0.1, 0.8]], requires_grad=True)
m2 = MultivariateNormal(torch.zeros(2, 3), scale_tril=L)
y = m2.rsample()
(y.pow(2).sum() + m2.log_prob(torch.ones(3)).sum()).backward()
print(y, L.grad)
P = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
m3 = MultivariateNormal(torch.zeros(2), precision_matrix=P)
z = m3.rsample((2,))
z.sum().backward()
print(z, P.grad, m3.covariance_matrix, m3.scale_tril)
lr = LowRankMultivariateNormal(torch.zeros(3), torch.tensor([[0.5], [0.2], [-0.1]]), torch.tensor([1.0, 0.5, 2.0]))
print(lr.log_prob(torch.tensor([0.3, 0.1, -0.2])), lr.entropy(), lr.covariance_matrix, lr.precision_matrix, lr.scale_tril)
print(kl_divergence(m3, MultivariateNormal(torch.ones(2), torch.eye(2))), kl_divergence(lr, MultivariateNormal(torch.zeros(3), torch.eye(3))))
'''

PROGRAMS['distribution_reprs_params_with_grad'] = r'''
import torch
from torch.distributions import *
a = torch.tensor(0.5, requires_grad=True)
print(Normal(a, 1.), Normal(a * 2, torch.tensor([1.])), Normal(torch.tensor([[0.5]], dtype=torch.float64), 1.))
print(Categorical(logits=torch.tensor([0.5])), Bernoulli(logits=a), Beta(a, a), Uniform(torch.tensor(-1, dtype=torch.float64), 2.))
print(Normal(torch.tensor(1e-8), 1e8), Normal(float('nan'), 1., validate_args=False), Gamma(torch.tensor([3.]), 2))
print(f'{torch.tensor(0.5, requires_grad=True)}', f'{torch.tensor([0.5])}', f'{torch.tensor(3)}', f'{torch.tensor(0.5):.3f}')
print(MixtureSameFamily(Categorical(torch.ones(2)), Normal(torch.zeros(2), 1.)))
print(Independent(Normal(torch.zeros(2), 1.), 1), TransformedDistribution(Normal(0., 1.), []), LogNormal(0., 1.))
print(RelaxedBernoulli(torch.tensor(2.), torch.tensor(0.3)), RelaxedOneHotCategorical(torch.tensor(2.), torch.tensor([0.3, 0.7])))
print(Multinomial(3, torch.tensor([0.5, 0.5])), Binomial(3, torch.tensor(0.5)), Wishart(torch.tensor(3.), torch.eye(2)))
print(LKJCholesky(3, 0.5), VonMises(0., 1.), LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)))
'''

PROGRAMS['checkpoint_dropout_rng_preserved'] = r'''
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
lin = nn.Linear(6, 6)
drop = nn.Dropout(0.5)
def block(x):
    return drop(torch.relu(lin(x)))
x = torch.randn(3, 6, requires_grad=True)
for reentrant in (True, False):
    lin.zero_grad(); x.grad = None
    y = checkpoint(block, x, use_reentrant=reentrant)
    y.sum().backward()
    print(reentrant, y, x.grad, lin.weight.grad[0])
    print(torch.rand(2))
y = checkpoint(block, x, use_reentrant=False, preserve_rng_state=False)
y.sum().backward()
print(y.sum(), x.grad.sum(), torch.rand(1))
seq = nn.Sequential(nn.Linear(6, 6), nn.Dropout(0.3), nn.ReLU(), nn.Linear(6, 6), nn.Dropout(0.3))
out = checkpoint_sequential(seq, 2, x, use_reentrant=False)
out.sum().backward()
print(out, seq[0].weight.grad[0], torch.rand(1))
'''

# fixed: an IterableDataset yielding more than the len(dataloader) it reported gave no warning; iterating a pin_memory=True loader gave no 'no accelerator' (nor pin_memory_device) warning
PROGRAMS['iterable_dataset_length_warning_iterators'] = r'''
import torch
import warnings
from torch.utils.data import DataLoader, IterableDataset, TensorDataset
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    for w in ws:
        print('warn', w.category.__name__, str(w.message))
    return r
class L(IterableDataset):
    def __iter__(self): return iter(range(5))
    def __len__(self): return 3
dl = DataLoader(L(), batch_size=2)
print(len(dl))
print(W(lambda: list(dl)))
dl = DataLoader(L())
print(len(dl))
print(W(lambda: list(dl)))
dl = DataLoader(L(), batch_size=2, drop_last=True)
print(len(dl), W(lambda: list(dl)))
ds = TensorDataset(torch.arange(5))
dl = DataLoader(ds, batch_size=2)
it = iter(dl)
print(len(it), next(it), next(it), next(it))
try:
    next(it)
except StopIteration:
    print('StopIteration')
it1, it2 = iter(dl), iter(dl)
print(next(it1), next(it2), next(it1))
print(type(it1).__name__, it1._num_yielded)
print(W(lambda: list(DataLoader(list(range(4)), batch_size=2, pin_memory=True))))
print(W(lambda: list(DataLoader(list(range(4)), batch_size=2, pin_memory=True, pin_memory_device='cpu'))))
print(W(lambda: list(DataLoader(list(range(4)), batch_size=2, pin_memory_device='cpu'))))
dl = W(lambda: DataLoader(list(range(4)), pin_memory=True))
print(dl.pin_memory, dl.pin_memory_device, dl.in_order)
'''

# fixed: a generator= that is no torch.Generator crashed with AttributeError in DataLoader/RandomSampler/random_split instead of PyTorch's TypeErrors
PROGRAMS['generator_argument_errors_data'] = r'''
import torch
from torch.utils.data import DataLoader, RandomSampler, random_split
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
E(lambda: list(DataLoader(range(4), shuffle=True, generator=5)))
E(lambda: list(RandomSampler(range(4), generator='g')))
E(lambda: random_split(range(4), [2, 2], generator=3))
E(lambda: torch.randperm(4, generator=3))
E(lambda: torch.rand(2, generator=torch.default_generator))
E(lambda: torch.randint(5, (2,), generator=None))
E(lambda: torch.multinomial(torch.ones(3), 1, generator='x'))
E(lambda: torch.bernoulli(torch.ones(2) / 2, generator=1.5))
E(lambda: torch.empty(2).uniform_(generator=[1]))
E(lambda: torch.normal(0., 1., (2,), generator=object()))
E(lambda: torch.nn.init.normal_(torch.empty(2), generator=5))
E(lambda: torch.randn(2, generator=torch.Generator('cpu'), device='cpu'))
E(lambda: torch.rand(2, device='cuda'))
E(lambda: torch.Generator().manual_seed(2).get_state()[-20:])
'''

# fixed: uniform_/normal_/exponential_/geometric_/log_normal_/cauchy_/random_/bernoulli(_)/multinomial/poisson/binomial/_standard_gamma/_sample_dirichlet/randint_like/nn.init did not check generator= (AttributeError instead of PyTorch's TypeError)
PROGRAMS['generator_argument_errors_every_sampler'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
x = torch.empty(3)
for name, f in [('uniform_', lambda: x.uniform_(generator=5)), ('uniform_2', lambda: x.uniform_(0, 1, generator='a')),
                ('normal_', lambda: x.normal_(generator=5)), ('exponential_', lambda: x.exponential_(generator=5)),
                ('geometric_', lambda: x.geometric_(0.5, generator=5)), ('log_normal_', lambda: x.log_normal_(generator=5)),
                ('cauchy_', lambda: x.cauchy_(generator=5)), ('random_', lambda: x.random_(generator=5)), ('random_2', lambda: x.random_(3, generator=5)),
                ('random_3', lambda: x.random_(1, 3, generator=5)), ('bernoulli_', lambda: x.bernoulli_(0.5, generator=5)), ('bernoulli_t', lambda: x.bernoulli_(torch.ones(3) / 2, generator=5)),
                ('bernoulli', lambda: torch.bernoulli(x.uniform_(), generator=5)), ('bernoulli_p', lambda: torch.bernoulli(x, 0.5, generator=5)),
                ('multinomial', lambda: torch.multinomial(torch.ones(3), 1, generator=5)), ('mmethod', lambda: torch.ones(3).multinomial(1, generator=5)),
                ('rand', lambda: torch.rand(2, generator=5)), ('randn', lambda: torch.randn(2, generator=5)), ('randint', lambda: torch.randint(3, (2,), generator=5)),
                ('randint2', lambda: torch.randint(0, 3, (2,), generator=5)), ('randperm', lambda: torch.randperm(3, generator=5)),
                ('normal', lambda: torch.normal(torch.zeros(2), 1., generator=5)), ('normal2', lambda: torch.normal(torch.zeros(2), torch.ones(2), generator=5)),
                ('poisson', lambda: torch.poisson(torch.ones(2), generator=5)), ('rand_like', lambda: torch.rand_like(x, generator=5)),
                ('randn_like', lambda: torch.randn_like(x, generator=5)), ('randint_like', lambda: torch.randint_like(x, 3, generator=5)),
                ('std_gamma', lambda: torch._standard_gamma(torch.ones(2), generator=5)), ('binomial', lambda: torch.binomial(torch.ones(2), torch.ones(2) / 2, generator=5)),
                ('dirichlet', lambda: torch._sample_dirichlet(torch.ones(2), generator=5)), ('dropout', lambda: torch.nn.functional.dropout(x, generator=5) if False else 'skip'),
                ('init', lambda: torch.nn.init.uniform_(x, generator=5)), ('init_n', lambda: torch.nn.init.kaiming_normal_(torch.empty(2, 2), generator='x')),
                ('orth', lambda: torch.nn.init.orthogonal_(torch.empty(2, 2), generator='x')), ('sparse', lambda: torch.nn.init.sparse_(torch.empty(2, 2), 0.5, generator='x')),
                ('trunc', lambda: torch.nn.init.trunc_normal_(torch.empty(2, 2), generator='x'))]:
    print(name, end=' ')
    E(f)
print(torch.rand(1))
'''

# fixed: randint_like(x, high=5) failed; randint_like had no argument parser
PROGRAMS['randint_like_overloads'] = r'''
import torch
import numpy as np
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
x = torch.ones(2, 3)
E(lambda: torch.randint_like(x, 5))
E(lambda: torch.randint_like(x, 2, 5))
E(lambda: torch.randint_like(x, high=5))
E(lambda: torch.randint_like(x, low=1, high=5))
E(lambda: torch.randint_like(x, 5, dtype=torch.int64))
E(lambda: torch.randint_like(x, np.int64(4)))
E(lambda: torch.randint_like(x, torch.tensor(4)))
E(lambda: torch.randint_like(x, 5, generator=torch.Generator().manual_seed(1)))
E(lambda: torch.randint_like(x, 5.5))
E(lambda: torch.randint_like(x, 5, requires_grad=True))
E(lambda: torch.randint_like(x.t(), 5).stride())
E(lambda: torch.randint_like(x))
E(lambda: torch.randint_like(x, 5, 2))
'''

# fixed: uniform_/normal_/exponential_/geometric_/log_normal_/cauchy_ with a str/None/complex argument raised NumPy/Python errors (normal_ after drawing); multinomial/poisson/bernoulli of a non-tensor, multinomial(replacement='yes') and bernoulli(x, 'a') lacked PyTorch's TypeErrors
PROGRAMS['sampler_argument_type_errors'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
x = torch.empty(3)
for name, f in [('u1', lambda: x.uniform_('a', 1)), ('u2', lambda: x.uniform_(0, None)), ('u3', lambda: x.uniform_(torch.tensor(0.), 1)), ('u4', lambda: x.uniform_(1j)),
                ('n1', lambda: x.normal_(mean='a')), ('n2', lambda: x.normal_(0, torch.tensor(1.))), ('n3', lambda: x.normal_(0, 1, 2)),
                ('e1', lambda: x.exponential_('a')), ('e2', lambda: x.exponential_(lambd=None)), ('g1', lambda: x.geometric_('a')), ('g2', lambda: x.geometric_(p=0.5)),
                ('ln', lambda: x.log_normal_(std='s')), ('c1', lambda: x.cauchy_(None)), ('b1', lambda: x.bernoulli_('a')), ('b2', lambda: x.bernoulli_(p=0.3)),
                ('m1', lambda: torch.multinomial(x.fill_(1), 'a')), ('m2', lambda: torch.multinomial(x, 1, 'yes')), ('m3', lambda: torch.multinomial([1., 2.], 1)),
                ('p1', lambda: torch.poisson('a')), ('p2', lambda: torch.poisson(torch.ones(2), None)), ('rp', lambda: torch.randperm(3, dtype='float')),
                ('ms', lambda: torch.manual_seed('a')), ('ms2', lambda: torch.manual_seed('12')), ('gms', lambda: torch.Generator().manual_seed(1.5)),
                ('bern', lambda: torch.bernoulli(0.5)), ('bern2', lambda: torch.bernoulli(torch.ones(2), 'a')), ('rl', lambda: torch.rand_like([1.])),
                ('ri', lambda: torch.randint(3, (2,), dtype='int')), ('rn', lambda: torch.randn(2, 'a')), ('rand_', lambda: torch.rand(2, 3.0))]:
    print(name, end=' ')
    E(f)
print(torch.rand(1))
'''

# fixed: torch.poisson of an integer/bool/complex tensor sampled instead of PyTorch's NotImplementedError; linalg.cholesky_ex/inv_ex named themselves in the checks PyTorch reports as linalg.cholesky/linalg.inv (MultivariateNormal with an integer covariance)
PROGRAMS['distributions_integer_and_half_parameters'] = r'''
import torch
from torch.distributions import *
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
E(lambda: Categorical(torch.tensor([1, 3])).probs)
E(lambda: Categorical(torch.tensor([1, 3])).sample((3,)))
E(lambda: Categorical(logits=torch.tensor([1, 3])).probs)
E(lambda: Bernoulli(torch.tensor([0, 1])).sample())
E(lambda: Normal(torch.tensor([0, 1]), torch.tensor([1, 2])).sample())
E(lambda: Uniform(torch.tensor(0), torch.tensor(2)).sample())
E(lambda: Beta(torch.tensor(2), torch.tensor(3)).sample())
E(lambda: Poisson(torch.tensor([2, 3])).sample())
E(lambda: Dirichlet(torch.tensor([1, 2])).sample())
E(lambda: OneHotCategorical(torch.tensor([1, 1])).sample())
E(lambda: MultivariateNormal(torch.zeros(2), torch.eye(2, dtype=torch.int64)))
E(lambda: Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.], dtype=torch.float64)).sample().dtype)
E(lambda: Normal(torch.tensor(0., dtype=torch.float16), 1.).sample())
E(lambda: Categorical(torch.tensor([0.3, 0.7], dtype=torch.float16)).sample((4,)))
E(lambda: Bernoulli(torch.tensor([0.3], dtype=torch.bfloat16)).sample((3,)))
a = torch.ones(2, 3)
for f in [lambda: torch.linalg.cholesky_ex(a), lambda: torch.linalg.inv_ex(a), lambda: torch.linalg.inv_ex(torch.eye(2, dtype=torch.int64)), lambda: torch.poisson(torch.ones(2, dtype=torch.int32)), lambda: torch.poisson(torch.ones(2, dtype=torch.bool))]:
    E(f)
'''

# fixed: torch.binomial sampled half-precision tensors (PyTorch: not implemented), gave a ValueError for bfloat16 and accepted count/prob of different dtypes
PROGRAMS['native_samplers_dtype_checks'] = r'''
import torch
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16, torch.int64, torch.float64]:
    E(lambda: torch._standard_gamma(torch.ones(2, dtype=dt)))
    E(lambda: torch.binomial(torch.ones(2, dtype=dt) * 5, torch.ones(2, dtype=dt) / 2))
    E(lambda: torch._sample_dirichlet(torch.ones(2, dtype=dt)))
    E(lambda: torch.poisson(torch.ones(2, dtype=dt) * 3))
E(lambda: torch.binomial(torch.ones(2) * 5, torch.ones(2, dtype=torch.float64) / 2))
E(lambda: torch.binomial(torch.ones(2) * 5, torch.ones(3) / 2))
E(lambda: torch.binomial(torch.ones(2, 1) * 5, torch.ones(3) / 2))
E(lambda: torch.poisson(torch.ones(2, requires_grad=True)).grad_fn)
E(lambda: torch._standard_gamma(torch.ones(2, requires_grad=True)).grad_fn)
E(lambda: torch._sample_dirichlet(torch.ones(2, requires_grad=True)).grad_fn)
E(lambda: torch.binomial(torch.ones(2, requires_grad=True), torch.ones(2) / 2).grad_fn)
print(torch.rand(1))
'''

PROGRAMS['kl_divergence_registry_and_edges'] = r'''
import torch
import warnings
from torch.distributions import *
from torch.distributions.kl import register_kl
def E(f):
    try: print('ok', f())
    except Exception as e: print(type(e).__name__, e)
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    for w in ws:
        print('warn', w.category.__name__, str(w.message))
    return r
class A(Normal): pass
class B(Normal): pass
@register_kl(A, Normal)
def _a(p, q): return torch.tensor(1.)
@register_kl(Normal, B)
def _b(p, q): return torch.tensor(2.)
E(lambda: W(lambda: kl_divergence(A(0., 1.), B(0., 1.))))
E(lambda: kl_divergence(Normal(torch.zeros(2), 1.), Normal(torch.zeros(3), 1.)))
E(lambda: kl_divergence(Normal(torch.zeros(2, 1), 1.), Normal(torch.zeros(3), 1.)))
E(lambda: kl_divergence(Categorical(torch.ones(3)), Categorical(torch.ones(4))))
E(lambda: kl_divergence(MultivariateNormal(torch.zeros(2), torch.eye(2)), MultivariateNormal(torch.zeros(3), torch.eye(3))))
E(lambda: kl_divergence(Independent(Normal(torch.zeros(2), 1.), 1), Normal(torch.zeros(2), 1.)))
E(lambda: kl_divergence(Uniform(0., 2.), Uniform(0., 1.)))
E(lambda: kl_divergence(Uniform(0., 1.), Uniform(0., 2.)))
E(lambda: kl_divergence(Bernoulli(0.), Bernoulli(0.5)))
E(lambda: kl_divergence(Bernoulli(0.5), Bernoulli(0.)))
E(lambda: kl_divergence(Categorical(torch.tensor([0., 1.])), Categorical(torch.tensor([0.5, 0.5]))))
E(lambda: kl_divergence(Categorical(torch.tensor([0.5, 0.5])), Categorical(torch.tensor([0., 1.]))))
E(lambda: kl_divergence(Exponential(1.), Gamma(1., 1.)))
E(lambda: kl_divergence(Normal(0., 1.), Laplace(0., 1.)) if False else kl_divergence(Laplace(0., 1.), Normal(0., 1.)))
E(lambda: kl_divergence(Poisson(2.), Poisson(3.)))
E(lambda: kl_divergence(Geometric(0.3), Geometric(0.6)))
E(lambda: kl_divergence(Beta(2., 3.), Uniform(0., 1.)))
E(lambda: kl_divergence(Gumbel(0., 1.), Normal(0., 1.)))
E(lambda: kl_divergence(TransformedDistribution(Normal(0., 1.), []), TransformedDistribution(Normal(1., 1.), [])))
E(lambda: kl_divergence(LogNormal(0., 1.), LogNormal(1., 2.)))
E(lambda: kl_divergence(Binomial(5, 0.3), Binomial(5, 0.6)))
E(lambda: kl_divergence(Binomial(5, 0.3), Binomial(6, 0.6)))
'''

PROGRAMS['native_sampler_generator_state_bytes'] = r'''
import torch
from torch.distributions import *
torch.manual_seed(0)
Gamma(torch.tensor([0.5, 2., 7.]), 1.).sample()
s = torch.get_rng_state()
print(s[-16:].tolist(), s[:8].tolist(), int(s.sum()))
Poisson(torch.tensor([3., 30.])).sample()
print(int(torch.get_rng_state().sum()))
Binomial(10, torch.tensor([0.2, 0.7])).sample()
Dirichlet(torch.tensor([0.3, 2.])).sample()
print(int(torch.get_rng_state().sum()), torch.get_rng_state()[-24:].tolist())
torch.set_rng_state(s)
print(Poisson(torch.tensor([3., 30.])).sample())
g = torch.Generator().manual_seed(3)
x = torch._standard_gamma(torch.tensor([0.7, 1.5]), generator=g)
print(x, int(g.get_state().sum()))
print(torch.randn(3), torch.randn(1), int(torch.get_rng_state().sum()))
'''

PROGRAMS['multinomial_zero_weights_ties'] = r'''
import torch
from torch.utils.data import WeightedRandomSampler
torch.manual_seed(0)
print(list(WeightedRandomSampler([0., 0., 1., 0., 2.], 4, replacement=False)))
print(torch.multinomial(torch.tensor([0., 0., 1., 0., 2., 0., 0.]), 5))
print(torch.multinomial(torch.tensor([[0., 0., 1., 0.], [1., 0., 0., 0.]]), 3))
print(torch.multinomial(torch.tensor([0., 1e-30, 1., 0.]), 3))
print(torch.multinomial(torch.tensor([0., 0., 1., 0.], dtype=torch.float64), 4))
print(torch.multinomial(torch.tensor([0., 0., 1., 0.], dtype=torch.float16), 4))
print(torch.multinomial(torch.tensor([0., 0., 1., 0.], dtype=torch.bfloat16), 4))
print(torch.multinomial(torch.zeros(40).index_fill_(0, torch.tensor([3, 17]), 1.), 10))
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
