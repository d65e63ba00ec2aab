"""Random numbers identical to PyTorch's: the generator (mt19937), its state, and every sampler built on it.

Each parity test seeds both libraries the same way, runs the same calls, and asserts bit-identical results
(same dtype, shape and bytes) and that the two generators are still in step afterwards (a final
``rand(3)`` agrees, and so do the 5056-byte states). The first tests need no PyTorch: they pin values
PyTorch prints, so a regression shows even where torch is not installed.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from parity import run_both, torch_or_skip

import minigrad as mg
from minigrad import _random

# ---- without PyTorch: values PyTorch 2.13 prints ----------------------------------------------------


def test_randn_after_manual_seed_prints_pytorchs_values():
    mg.manual_seed(0)
    x = mg.randn(3, requires_grad=True)
    assert repr(x) == "tensor([ 1.5410, -0.2934, -2.1788], requires_grad=True)"
    assert mg.rand(2).tolist() == [0.455627977848053, 0.6323062777519226]


def test_linear_init_and_randint_match_pytorchs_values():
    mg.manual_seed(0)
    layer = mg.nn.Linear(3, 2)
    assert repr(layer.weight.data) == "tensor([[-0.0043,  0.3097, -0.4752],\n        [-0.4249, -0.2224,  0.1548]])"
    mg.manual_seed(0)
    assert mg.randint(0, 10, (6,)).tolist() == [4, 9, 3, 0, 3, 9]
    assert mg.randperm(6).tolist() == [1, 4, 3, 2, 5, 0]


def test_seeding_is_init_genrand():
    """NumPy's legacy seeding (used for speed) is exactly mt19937's init_genrand, which PyTorch uses."""
    for seed in (0, 1, 5489, 2**32 - 1, 2**32 + 7, 67280421310721):
        state = mg.Generator().manual_seed(seed)._engine.state["state"]
        assert state["pos"] == 624
        np.testing.assert_array_equal(state["key"], _random._init_genrand(seed))


def test_state_layout_and_round_trip():
    mg.manual_seed(3)
    mg.randn(5)  # leaves a cached Box-Muller sample in the state
    state = mg.get_rng_state()
    assert state.dtype == mg.uint8 and state.shape == (5056,)
    after = mg.randn(9).tolist()
    mg.set_rng_state(state)
    assert mg.randn(9).tolist() == after
    assert mg.initial_seed() == 3


def test_seed_arguments():
    assert mg.manual_seed(-1).initial_seed() == 2**64 - 1
    assert mg.manual_seed("7").initial_seed() == 7 and mg.manual_seed(2.9).initial_seed() == 2
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        mg.manual_seed(2**64)
    with pytest.raises(RuntimeError, match="manual_seed expected a long, but got float"):
        mg.Generator().manual_seed(1.5)
    g = mg.Generator()
    assert g.initial_seed() == 67280421310721 and str(g.device) == "cpu"
    new = g.seed()
    assert g.initial_seed() == new


def test_set_state_errors():
    with pytest.raises(TypeError, match="expected a torch.ByteTensor, but got list"):
        mg.set_rng_state([1, 2])
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        mg.set_rng_state(mg.zeros(5056))
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056 but found the input RNG "
                                           "state size to be 3"):
        mg.set_rng_state(mg.zeros(3, dtype=mg.uint8))
    bad = mg.get_rng_state()
    bad[8:12] = 0  # left_ = 0
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        mg.set_rng_state(bad)


def test_torch_random_namespace_and_fork_rng():
    mg.random.manual_seed(1)
    with mg.random.fork_rng():
        inside = mg.rand(2).tolist()
    assert mg.rand(2).tolist() == inside  # the block's draws were undone
    assert mg.random.initial_seed() == 1 and mg.random.default_generator is mg.default_generator


def test_avx_log_and_sincos_are_close_to_the_true_functions():
    """The float32 Cephes polynomials PyTorch's normal_ uses agree with log/sin/cos to a few ulps."""
    x = np.linspace(1e-6, 1, 10001, dtype=np.float32)
    np.testing.assert_allclose(_random._log256(x), np.log(x.astype(np.float64)), rtol=3e-7, atol=1e-7)
    theta = np.linspace(0, 2 * math.pi, 10001, dtype=np.float32)
    sin, cos = _random._sincos256(theta)
    np.testing.assert_allclose(sin, np.sin(theta.astype(np.float64)), atol=3e-7)
    np.testing.assert_allclose(cos, np.cos(theta.astype(np.float64)), atol=3e-7)


# ---- parity with PyTorch ------------------------------------------------------------------------------

def _bytes(t) -> tuple:
    """(dtype name, shape, raw bytes) of a minigrad or torch tensor (bfloat16 compared by its bits)."""
    if hasattr(t, "_data"):
        a = t._data
    else:
        import torch
        t = t.detach()
        a = (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy()
    if a.dtype.name == "bfloat16":
        a = a.view(np.int16)
    return a.dtype.name, a.shape, np.ascontiguousarray(a).tobytes()


def same(fn, seed: int = 0) -> None:
    """Seed both libraries, run ``fn(lib)`` (a list of tensors) with each: identical bits, generators in step."""
    torch = torch_or_skip()
    torch.manual_seed(seed)
    mg.manual_seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs, mine = fn(torch), fn(mg)
    assert len(mine) == len(theirs)
    for i, (a, b) in enumerate(zip(mine, theirs)):
        ma, mb = _bytes(a), _bytes(b)
        assert ma[:2] == mb[:2], f"result {i}: {ma[:2]} != {mb[:2]}"
        assert ma[2] == mb[2], f"result {i}: values differ"
    assert bytes(mg.get_rng_state()._data) == bytes(torch.get_rng_state().numpy()), "generator states differ"
    assert mg.rand(3).tolist() == torch.rand(3).tolist()


SIZES = [*range(1, 41), 100, 1000]
FLOATS = ["float32", "float64", "float16", "bfloat16"]


@pytest.mark.parametrize("n", SIZES)
def test_rand_randn_every_size(n):
    for seed in (0, 7):
        same(lambda T: [T.randn(n), T.rand(n), T.randn(n, dtype=T.float64), T.rand(n, dtype=T.float64), T.randn(n)],
             seed)


@pytest.mark.parametrize("dtype", FLOATS + ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 3, 15, 16, 17, 31, 33, 100])
def test_rand_randn_dtypes(dtype, n):
    same(lambda T: [T.randn(n, dtype=getattr(T, dtype)), T.rand(n, dtype=getattr(T, dtype)),
                    T.randn(2, n, dtype=getattr(T, dtype))], seed=n)


def test_large_tensors():
    same(lambda T: [T.randn(10**5), T.rand(10**5), T.randn(10**5 + 3, dtype=T.float64), T.randperm(10**5),
                    T.randint(-50, 50, (10**5,))], seed=11)


def test_call_sequences_keep_the_generator_in_step():
    # randn of fewer than 16 values caches the second Box-Muller sample for the next call
    same(lambda T: [T.randn(3), T.rand(5), T.randint(0, 10, (4,)), T.randn(1), T.randn(2), T.randn(20),
                    T.randn(1), T.randperm(7), T.empty(3, dtype=T.float64).normal_(), T.randn(1)])
    same(lambda T: [T.randn(3), T.empty(2).log_normal_(), T.randn(1), T.empty(1).normal_(2.0, 3.0)], seed=5)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**40 + 3, -5])
def test_seeds(seed):
    same(lambda T: [T.randn(4), T.rand(18), T.randint(3, (5,))], seed)


def test_generator_objects():
    same(lambda T: [T.randn(5, generator=T.Generator().manual_seed(5)), T.rand(3),
                    T.randperm(9, generator=T.Generator().manual_seed(9)),
                    T.randint(3, 9, (6,), generator=T.Generator().manual_seed(1)),
                    T.normal(2.0, 0.5, size=(3, 2), generator=T.Generator().manual_seed(7)),
                    T.empty(4).uniform_(generator=T.Generator().manual_seed(2))])


def test_states_match_pytorch_byte_for_byte():
    torch = torch_or_skip()
    for calls in (lambda T: None, lambda T: T.randn(3), lambda T: T.randn(4), lambda T: T.rand(624),
                  lambda T: T.rand(623), lambda T: T.empty(3, dtype=T.float64).normal_(1.0, 2.0)):
        torch.manual_seed(0)
        mg.manual_seed(0)
        calls(torch), calls(mg)
        assert bytes(mg.get_rng_state()._data) == bytes(torch.get_rng_state().numpy())
    torch.manual_seed(5)
    torch.randn(7)
    mg.set_rng_state(mg.tensor(torch.get_rng_state().numpy()))  # a PyTorch state drives minigrad
    assert mg.randn(5).tolist() == torch.randn(5).tolist()


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "bool"] + FLOATS)
@pytest.mark.parametrize("n", [1, 5, 17, 100])
def test_randint_and_random_(dtype, n):
    same(lambda T: [T.randint(0, 2, (n,), dtype=getattr(T, dtype)), T.randint(2, (n,), dtype=getattr(T, dtype)),
                    T.empty(n, dtype=getattr(T, dtype)).random_(), T.empty(n, dtype=getattr(T, dtype)).random_(2),
                    T.empty(n, dtype=getattr(T, dtype)).random_(0, 2)], seed=n)


def test_random_ranges_past_2_to_the_28():
    # ranges of 2**28 or more draw 64 bits per value; from=-2**63 with no 'to' is the whole 64-bit range
    same(lambda T: [T.randint(-2**40, 2**40, (9,)), T.randint(0, 2**28, (9,)), T.randint(0, 2**28 - 1, (9,)),
                    T.empty(9, dtype=T.int64).random_(-2**63, None), T.empty(9, dtype=T.int64).random_(-5, None),
                    T.empty(9).random_(-2**63, None), T.empty(9, dtype=T.float64).random_(-5, 7)])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 5, 16, 17, 40])
def test_in_place_samplers(dtype, n):
    def calls(T):
        def e():
            return T.empty(n, dtype=getattr(T, dtype))
        return [e().uniform_(), e().uniform_(-0.37, 0.37), e().normal_(), e().normal_(0.3, 1.7),
                e().exponential_(1.5), e().log_normal_(0.5, 0.7), e().cauchy_(0.5, 2.0), e().geometric_(0.3),
                e().bernoulli_(0.3), e().bernoulli_(T.full((n,), 0.6, dtype=getattr(T, dtype))),
                e().bernoulli_(T.full((n,), 0.6, dtype=T.float64)), e().random_(-5, 7)]
    same(calls, seed=n)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_in_place_samplers_on_integers(dtype):
    same(lambda T: [T.empty(20, dtype=getattr(T, dtype)).geometric_(0.3),
                    T.empty(20, dtype=getattr(T, dtype)).bernoulli_(0.4)])


@pytest.mark.parametrize("shape", [(4, 5), (6, 20), (3, 8, 7)])
def test_views_are_filled_in_memory_order(shape):
    def calls(T):
        z = T.zeros(shape)
        return [z.transpose(0, -1).uniform_(), T.zeros(shape).transpose(0, -1).normal_(),
                T.zeros(shape)[..., ::2].normal_(), T.zeros(shape).transpose(0, -1).exponential_(),
                T.zeros(shape, dtype=T.int64).transpose(0, -1).random_(0, 10),
                T.zeros(shape).transpose(0, -1).bernoulli_(T.rand(shape).transpose(0, -1)),
                T.rand_like(T.zeros(shape).transpose(0, -1)), T.randn_like(T.zeros(shape).transpose(0, -1)),
                T.randint_like(T.zeros(shape).transpose(0, -1), 0, 10), T.rand_like(T.zeros(shape)[..., ::2]),
                T.randn_like(T.zeros(shape, dtype=T.float64))]
    same(calls)


@pytest.mark.parametrize("n", [1, 5, 16, 40])
def test_normal_overloads(n):
    same(lambda T: [T.normal(T.arange(float(n)), 2.0), T.normal(0.5, T.arange(float(n))),
                    T.normal(T.arange(float(n)), T.arange(float(n))), T.normal(1.0, 3.0, (n,)),
                    T.normal(T.ones(n, dtype=T.float64), 0.3), T.normal(T.zeros(2, 1), T.ones(n))])


@pytest.mark.parametrize("n", [1, 5, 16, 40])
def test_bernoulli(n):
    same(lambda T: [T.bernoulli(T.rand(n)), T.bernoulli(T.rand(n, dtype=T.float64)), T.bernoulli(T.rand(n), 0.2),
                    T.rand(n).bernoulli(), T.bernoulli(T.rand(3, n).t()), T.bernoulli(T.rand(n, dtype=T.float16))])


def test_bernoulli_graph():
    torch = torch_or_skip()
    for lib in (mg, torch):
        x = lib.rand(3, requires_grad=True)
        y = lib.bernoulli(x)
        assert type(y.grad_fn).__name__ == "BernoulliBackward0"
        y.sum().backward()
        assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("n", [1, 2, 5, 16, 40])
def test_multinomial(n):
    same(lambda T: [T.multinomial(T.rand(n) + 0.01, 1), T.multinomial(T.rand(n) + 0.01, min(n, 3)),
                    T.multinomial(T.rand(n), 7, True), T.multinomial(T.rand(3, n), 4, True),
                    T.multinomial(T.rand(3, n) + 0.1, 1), T.multinomial(T.rand(3, n, dtype=T.float64), min(n, 2)),
                    T.multinomial(T.rand(2, n, dtype=T.float16), 5, True),
                    T.multinomial(T.tensor([0.0, 3.0, 0.0, 1.0]), 2)])


@pytest.mark.parametrize("p", [0.5, 0.1, 0.15, 0.33, 1.0, 0.0])
def test_dropout_masks(p):
    same(lambda T: [T.nn.functional.dropout(T.ones(40), p), T.nn.Dropout(p)(T.arange(12.0).reshape(3, 4)),
                    T.nn.functional.dropout(T.ones(5, dtype=T.float64), p),
                    T.nn.functional.dropout(T.ones(7, dtype=T.float16), p),
                    T.nn.functional.dropout2d(T.ones(2, 3, 4, 4), p), T.nn.functional.dropout(T.ones(0), p)])


def test_module_initialisation():
    for seed in (0, 3):
        same(lambda T: [T.nn.Linear(3, 2).weight, T.nn.Linear(3, 2).bias, T.nn.Linear(100, 40).weight,
                        T.nn.Linear(7, 5, dtype=T.float64).weight, T.nn.Conv2d(3, 4, 3).weight,
                        T.nn.Conv1d(2, 5, 4).bias, T.nn.Embedding(10, 3).weight, T.nn.ConvTranspose2d(2, 3, 3).weight,
                        *T.nn.LSTM(3, 4).parameters(), *T.nn.GRU(2, 3, bidirectional=True).parameters()], seed)


def test_nn_init():
    same(lambda T: [T.nn.init.uniform_(T.empty(3, 5), -1, 2), T.nn.init.normal_(T.empty(4, 5), 0.5, 2.0),
                    T.nn.init.xavier_uniform_(T.empty(3, 5)), T.nn.init.xavier_normal_(T.empty(3, 5)),
                    T.nn.init.kaiming_uniform_(T.empty(30, 5)), T.nn.init.kaiming_normal_(T.empty(30, 5))])


@pytest.mark.parametrize("seed", range(4))
def test_trunc_normal(seed):
    # a wide window redraws outliers; a narrow one (probability <= 0.3) is sampled by rejection
    same(lambda T: [T.nn.init.trunc_normal_(T.empty(3, 5)), T.nn.init.trunc_normal_(T.empty(40, 5), std=0.02),
                    T.nn.init.trunc_normal_(T.empty(7), 0.5, 1.0, 1.2, 1.5),
                    T.nn.init.trunc_normal_(T.empty(100), 0.0, 1.0, 2.0, 4.0),
                    T.nn.init.trunc_normal_(T.empty(100, dtype=T.float64), 0.0, 3.0, -0.1, 0.3)], seed)


def test_distributions_sample():
    same(lambda T: [T.distributions.Categorical(probs=T.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])).sample(),
                    T.distributions.Categorical(logits=T.zeros(2, 4)).sample((3,)),
                    T.distributions.Bernoulli(probs=T.tensor([0.3, 0.9])).sample((3,)),
                    T.distributions.Normal(T.tensor([0.0, 1.0]), T.tensor([1.0, 2.0])).sample((3,)),
                    T.distributions.Normal(T.tensor([0.0, 1.0]), T.tensor([1.0, 2.0])).rsample()])


def test_data_loading_draws_like_pytorch():
    # each pass over a DataLoader draws a 64-bit base seed; a shuffling sampler without a generator draws
    # another and seeds a fresh generator with it
    def calls(T):
        ds = T.utils.data.TensorDataset(T.arange(10.0))
        out = [b[0] for b in T.utils.data.DataLoader(ds, batch_size=4, shuffle=True)]
        out += [b[0] for b in T.utils.data.DataLoader(ds, batch_size=4, shuffle=True)]
        out += [b[0] for b in T.utils.data.DataLoader(ds, batch_size=3)]
        g = T.Generator().manual_seed(3)
        out += [b[0] for b in T.utils.data.DataLoader(ds, batch_size=5, shuffle=True, generator=g)]
        out.append(T.tensor(list(T.utils.data.RandomSampler(ds, replacement=True, num_samples=40))))
        out.append(T.tensor(T.utils.data.random_split(ds, [7, 3])[0].indices))
        return out
    same(calls)


def test_tutorial_program_prints_the_same():
    torch_or_skip()
    program = """import torch
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
print(x)
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Dropout(0.2), torch.nn.Linear(3, 1))
print(model[0].weight, model[3].bias)
y = model(torch.rand(5, 4))
print(y)
print(torch.randint(0, 10, (4,)), torch.randperm(5), torch.normal(0.0, 1.0, (2, 2)))
"""
    mine, theirs = run_both(program)
    assert mine == theirs and "tensor" in mine
