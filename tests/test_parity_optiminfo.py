"""minigrad.optim against PyTorch's own optimizer test database (``optim_db``), compared live.

Each case builds the same parameters in both libraries (several shapes, a 0-d one, one without a gradient), takes
the same seeded gradients for a few steps (a closure for LBFGS) and compares bit for bit the parameters after every
step, ``optimizer.state``, ``state_dict()`` (saved midway and loaded into a fresh optimizer that keeps stepping),
``param_groups`` and repr (tests/optiminfo_sweep.py, which sweeps every case by hand). The curated list below holds
configurations that match now: every configuration index of each optimizer appears with one of five dtypes.
Then every ErrorOptimizerInput, every scheduler_inputs entry, and one focused test per fix of session 14.
"""
from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from parity import torch_or_skip

torch = torch_or_skip()

import optiminfo_sweep as S  # noqa: E402

import minigrad as mg  # noqa: E402

# optimizer -> "configuration index:dtype ..." (indices into _get_optim_inputs_including_global_cliquey_kwargs)
CURATED = {
    "ASGD": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
            "9:bfloat16 10:float32 11:float64 12:complex64 13:float16",
    "Adadelta": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
                "9:bfloat16 10:float32 11:float64",
    "Adafactor": "0:float32 1:float64 3:float16 4:bfloat16",
    "Adagrad": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 6:float64 7:complex64 9:bfloat16 10:float32 "
               "11:float64 12:complex64 13:float16 15:float32 16:float64 17:complex64 18:float16 19:bfloat16 "
               "20:float32",
    "Adam": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 6:float64 7:complex64 9:bfloat16 10:float32 "
            "12:complex64 13:float16",
    "AdamW": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 6:float64 7:complex64 9:bfloat16 10:float32 "
             "12:complex64 13:float16",
    "Adamax": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
              "9:bfloat16",
    "LBFGS": "0:float64 0:complex64 4:float64 4:complex64",
    "Muon": "0:float32 1:float64 3:float16 4:bfloat16 5:float32 6:float64",
    "NAdam": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
             "9:bfloat16 10:float32 11:float64 12:complex64 13:float16",
    "RAdam": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
             "9:bfloat16 10:float32 11:float64",
    "RMSprop": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
               "9:bfloat16 10:float32 11:float64 12:complex64 13:float16 14:bfloat16 15:float32",
    "Rprop": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
             "9:bfloat16",
    "SGD": "0:float32 1:float64 2:complex64 3:float16 4:bfloat16 5:float32 6:float64 7:complex64 8:float16 "
           "9:bfloat16 10:float32 11:float64 12:complex64 13:float16 15:float32 16:float64 17:complex64 18:float16 "
           "19:bfloat16 21:float64 22:complex64 24:bfloat16 25:float32",
    "SparseAdam": "0:float32 1:float64 3:float16",
}
CASES = [(name, int(item.split(":")[0]), item.split(":")[1]) for name, items in CURATED.items()
         for item in items.split()]
INFOS = {info.optim_cls.__name__: info for info in S.optim_infos()}


@pytest.mark.parametrize("name,index,dtype", CASES, ids=[f"{n}-{i}-{d}" for n, i, d in CASES])
def test_optim_input(name, index, dtype):
    info = INFOS[name]
    optim_input = S.config_inputs(info, dtype)[index]
    if name == "LBFGS":   # (each LBFGS step runs up to 20 iterations: fewer steps)
        S.run_config(info, optim_input.kwargs, dtype, steps=2, reload_at=1)
    else:
        S.run_config(info, optim_input.kwargs, dtype)


ERRORS = [(name, i) for name, info in INFOS.items() if info.optim_error_inputs_func is not None
          for i in range(len(info.optim_error_inputs_func("cpu", torch.float32)))]


@pytest.mark.parametrize("name,index", ERRORS, ids=[f"{n}-{i}" for n, i in ERRORS])
def test_error_input(name, index):
    info = INFOS[name]
    S.run_error_input(info, info.optim_error_inputs_func("cpu", torch.float32)[index])


SCHEDULERS = [(name, i) for name, info in INFOS.items() if not info.only_supports_sparse_grads
              and name != "LBFGS" for i in range(len(info.scheduler_inputs))]


@pytest.mark.parametrize("name,index", SCHEDULERS, ids=[f"{n}-{i}" for n, i in SCHEDULERS])
def test_scheduler_inputs(name, index):
    info = INFOS[name]
    S.run_schedulers(info, info.optim_inputs_func("cpu", torch.float32)[0].kwargs, info.scheduler_inputs[index])


# ---- one focused test per fix --------------------------------------------------------------------------------
def _same(fn_torch, fn_mg, what="call"):
    """Run both; the same exception (type, message) or both fine, and the same warnings; returns the values."""
    res = S.run_both(fn_torch, fn_mg)
    S.compare_outcomes(*res, what)
    return res[0][0], res[1][0]


@pytest.mark.parametrize("name", ["Adadelta", "Adagrad", "ASGD", "LBFGS", "RMSprop", "Rprop", "SparseAdam"])
def test_tensor_lr_must_be_one_element(name):
    # every optimizer checks a Tensor lr's size first (before comparing it with 0)
    _same(lambda: getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)], lr=torch.tensor([1e-3, 1e-3])),
          lambda: getattr(mg.optim, name)([mg.zeros(2, requires_grad=True)], lr=mg.tensor([1e-3, 1e-3])))


def test_named_parameters():
    # (name, tensor) pairs: the group lists "param_names" (in param_groups, state_dict and repr), a state_dict
    # saved without names keeps the group's names, and groups with and without names do not mix
    def program(lib):
        lin = lib.nn.Linear(3, 2)
        with lib.no_grad():
            for p in lin.parameters():
                p.copy_(lib.arange(p.numel(), dtype=lib.float32).reshape(p.shape) / 7)
        opt = lib.optim.Adam(lin.named_parameters(), lr=0.1)
        lin(lib.ones(4, 3)).sum().backward()
        opt.step()
        sd = opt.state_dict()
        plain = lib.optim.Adam(list(lin.parameters()), lr=0.1)
        plain.load_state_dict(copy.deepcopy(sd))            # the names come with the saved groups
        named = lib.optim.Adam(lin.named_parameters(), lr=0.1)
        unnamed_sd = copy.deepcopy(sd)
        del unnamed_sd["param_groups"][0]["param_names"]
        named.load_state_dict(unnamed_sd)                     # a saved dict without names keeps the group's
        errors = []
        for params in ([("w", lin.weight), lin.bias], [{"params": [lin.weight]}, {"params": [("b", lin.bias)]}],
                       [{"params": [("w", lin.weight)]}, {"params": [lin.bias]}]):
            try:
                lib.optim.SGD(params, lr=0.1)
            except ValueError as e:
                errors.append(str(e))
        return (sd["param_groups"], repr(opt), plain.param_groups[0]["param_names"],
                named.param_groups[0]["param_names"], list(named.param_groups[0]), errors, list(lin.parameters()))
    t, m = program(torch), program(mg)
    S.compare(t, m, "named parameters")


def test_state_dict_positions_with_a_parameter_listed_twice():
    # state_dict numbers the parameters by position: one listed twice takes two positions (PyTorch's enumerate)
    def program(lib):
        a, b = lib.ones(2, requires_grad=True), lib.ones(3, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            opt = lib.optim.SGD([{"params": [a, a, b]}, {"params": [lib.ones(1, requires_grad=True)]}],
                                lr=0.1, momentum=0.9)
        for p in (a, b):
            p.grad = lib.ones_like(p)
        opt.step()
        sd = opt.state_dict()
        return [g["params"] for g in sd["param_groups"]], sorted(sd["state"])
    S.compare(program(torch), program(mg), "state_dict positions")


def test_sparse_adam_refuses_complex_parameters():
    _same(lambda: torch.optim.SparseAdam([torch.zeros(2, dtype=torch.complex64), torch.zeros(2)]),
          lambda: mg.optim.SparseAdam([mg.zeros(2, dtype=mg.complex64), mg.zeros(2)]))


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Adagrad"])
def test_fused_refuses_complex_parameters(name):
    # fused=True takes floating point parameters only: the error comes with the first step
    def program(lib):
        ps = [lib.ones(2, requires_grad=True), lib.ones(2, dtype=lib.complex64, requires_grad=True)]
        opt = getattr(lib.optim, name)(ps, lr=0.1, fused=True)
        for p in ps:
            p.grad = lib.ones_like(p)
        return opt.step()
    _same(lambda: program(torch), lambda: program(mg))


@pytest.mark.parametrize("name", ["Adam", "Adadelta", "Adagrad", "Adamax", "ASGD", "NAdam", "RAdam", "RMSprop",
                                  "Rprop", "SGD"])
def test_complex_zero_dim_parameter(name):
    # a 0-d complex parameter is updated as one (real, imaginary) pair
    S.run_config(INFOS[name], {"weight_decay": 0.1} if name not in ("Rprop",) else {}, "complex64")


@pytest.mark.parametrize("name", ["Adam", "AdamW", "NAdam"])
def test_differentiable_complex_parameters(name):
    # differentiable=True runs PyTorch's differentiable branch on (real, imaginary) views of complex parameters
    S.run_config(INFOS[name], {"lr": 0.01, "weight_decay": 0.1, "differentiable": True}, "complex64")


def test_asgd_eta_and_mu_after_loading_a_float64_state():
    # after load_state_dict η and μ are float64 (the parameters' dtype); PyTorch copies torch.as_tensor(number)
    # into them: numbers rounded to the default dtype first
    S.run_config(INFOS["ASGD"], {"lambd": 0.1, "t0": 2}, "float64", steps=6, reload_at=2)


def test_asgd_tensor_lr_makes_eta_without_numpy_warnings():
    def program(lib):
        p = lib.ones(3, requires_grad=True)
        opt = lib.optim.ASGD([p], lr=lib.tensor(0.01))
        p.grad = lib.ones(3)
        opt.step()
        return opt.state[p]["eta"], opt.state[p]["step"], p
    S.compare(*_same(lambda: program(torch), lambda: program(mg)))


def test_add_alpha_keeps_the_sign_of_zero():
    # a float64 fused multiply-add rounds -0 + α·(±0) as the hardware does (LBFGS directions of parameters
    # without gradient are -0)
    def program(lib):
        z = lib.zeros(4, dtype=lib.float64)
        n = z.neg()
        out = [n.clone().add_(z, alpha=-0.5), n.clone().add_(n, alpha=0.2), n.clone().add_(n, alpha=-0.2),
               lib.full((4,), 3.0, dtype=lib.float64).add_(lib.full((4,), -1.5, dtype=lib.float64), alpha=2.0)]
        return [np.signbit(o.numpy()).tolist() for o in out] + out
    S.compare(program(torch), program(mg), "signs")


def test_lbfgs_zero_gradient_entries_and_complex_parameters():
    S.run_config(INFOS["LBFGS"], {"history_size": 3}, "float64", steps=2, reload_at=1)
    S.run_config(INFOS["LBFGS"], {"line_search_fn": "strong_wolfe"}, "complex64", steps=2, reload_at=1)


def test_muon_tensor_lr_float64():
    # a Tensor lr stays a float32 tensor: 1 - lr·wd and the adjusted lr are rounded there
    S.run_config(INFOS["Muon"], {"lr": torch.tensor(0.01), "weight_decay": 0.2}, "float64")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["Adam", "RMSprop", "SGD", "Adagrad"])
def test_half_precision_steps_round_as_tensor_ops(name, dtype):
    # float16/bfloat16: add(alpha=), mul, addcmul ... round as PyTorch's vector code on blocks of 32 and its
    # scalar code on the rest, which minigrad's ops model (larger parameters: both paths)
    kwargs = {"weight_decay": 0.1, "momentum": 0.9} if name in ("SGD", "RMSprop") else {"weight_decay": 0.1}
    saved = S.SHAPES
    S.SHAPES = [(5, 9), (), (40,), (3,)]
    try:
        S.run_config(INFOS[name], kwargs, dtype)
    finally:
        S.SHAPES = saved


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_nadam_mu_product_in_half_precision(dtype):
    # after load_state_dict the μ product has the parameters' dtype: its mul_ by a number rounds there
    S.run_config(INFOS["NAdam"], {"eps": 0.1}, dtype, steps=6)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_sparse_adam_half_precision_and_tensor_lr(dtype):
    S.run_config(INFOS["SparseAdam"], {"lr": torch.tensor(0.01), "eps": 0.1}, dtype)
    S.run_config(INFOS["SparseAdam"], {"maximize": True, "eps": 0.1}, dtype)
