"""Parity programs from a twenty-fourth hunt: autograd in threads, anomaly mode and the profiler.

The "Autograd mechanics" multithreading section (concurrent backward passes in threads on shared and separate
graphs, retain_graph across threads, grad mode / no_grad / inference_mode / set_grad_enabled being per thread,
tensor hooks and custom Functions running in threads, torch.autograd.grad with inputs in threads, optimizer steps
per thread), anomaly mode (detect_anomaly with and without check_nan, set_detect_anomaly, nested, the NaN errors of
several backward nodes) and torch.autograd.profiler (event names in order, counts, deterministic table columns).
Threads are joined and their results printed in a fixed order. Each program must print exactly what PyTorch prints
(hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

# (runs fn(arg) in one thread per arg, joins them, returns the results in the order of args)
THR = PRE + r'''
import threading
def in_threads(fn, args):
    out = [None] * len(args)
    def run(i, a):
        try:
            out[i] = fn(a)
        except Exception as e:
            out[i] = (type(e).__name__, str(e))
    ts = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(args)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out
'''

PROGRAMS: dict[str, str] = {}

# ---- threads

PROGRAMS['thr_separate_graphs_backward'] = THR + r'''
def train(k):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1
    x.retain_grad()
    y = (x * k).pow(2).sum()
    y.backward()
    return x.grad.tolist(), y.item()
for r in in_threads(train, [1.0, 2.0, 3.0]):
    print(r)
'''

PROGRAMS['thr_shared_leaf_accumulates'] = THR + r'''
w = torch.tensor([0.5, -1.0], requires_grad=True)
def work(k):
    for _ in range(5):
        (w * k).sum().backward()
    return k
print(in_threads(work, [1.0, 2.0, 3.0]))
print(w.grad)
'''

PROGRAMS['thr_shared_graph_retain_graph'] = THR + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * x).sum()
def work(_):
    y.backward(retain_graph=True)
    return 'ok'
print(in_threads(work, [0, 1, 2, 3]))
print(x.grad)
z = x.sin().sum()
z.backward()
print(x.grad)
'''

PROGRAMS['thr_shared_graph_without_retain'] = THR + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
def work(_):
    y.backward()
print(in_threads(work, [0]))
print(x.grad)
'''

PROGRAMS['thr_no_grad_is_per_thread'] = THR + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
def work(_):
    return torch.is_grad_enabled(), (x * 2).requires_grad
with torch.no_grad():
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
    print(in_threads(work, [0, 1]))
print(torch.is_grad_enabled())
'''

PROGRAMS['thr_set_grad_enabled_inside'] = THR + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
def work(flag):
    torch.set_grad_enabled(flag)
    y = x * 3
    return torch.is_grad_enabled(), y.requires_grad, y.grad_fn is None
print(in_threads(work, [False, True]))
print(torch.is_grad_enabled(), (x * 3).requires_grad)
'''

PROGRAMS['thr_inference_mode_per_thread'] = THR + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
def work(inf):
    if inf:
        with torch.inference_mode():
            y = x * 2
            return torch.is_inference_mode_enabled(), y.is_inference(), y.requires_grad
    y = x * 2
    return torch.is_inference_mode_enabled(), y.is_inference(), y.requires_grad
with torch.inference_mode():
    print(in_threads(work, [True, False]))
    print(torch.is_inference_mode_enabled())
print(torch.is_inference_mode_enabled())
'''

PROGRAMS['thr_tensor_hook_runs_in_thread'] = THR + r'''
seen = []
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
def work(k):
    y = x * k
    y.register_hook(lambda g: g * 10)
    g, = torch.autograd.grad(y.sum(), x)
    return g.tolist()
print(in_threads(work, [1.0, 2.0]))
print(x.grad)
'''

PROGRAMS['thr_custom_function'] = THR + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
def work(v):
    x = torch.tensor([v, v + 1], requires_grad=True)
    y = Cube.apply(x)
    y.sum().backward()
    return y.grad_fn.name(), x.grad.tolist()
for r in in_threads(work, [1.0, 2.0, 3.0]):
    print(r)
'''

PROGRAMS['thr_autograd_grad_inputs'] = THR + r'''
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
def work(which):
    y = (a * b).sin().sum()
    if which == 'a':
        return [g.tolist() for g in torch.autograd.grad(y, a)]
    if which == 'b':
        return [g.tolist() for g in torch.autograd.grad(y, [b])]
    return [g.tolist() for g in torch.autograd.grad(y, (a, b))]
for r in in_threads(work, ['a', 'b', 'ab']):
    print(r)
print(a.grad, b.grad)
'''

PROGRAMS['thr_create_graph_double_backward'] = THR + r'''
def work(v):
    x = torch.tensor(v, requires_grad=True)
    y = x ** 4
    g, = torch.autograd.grad(y, x, create_graph=True)
    h, = torch.autograd.grad(g, x)
    return g.item(), h.item(), g.grad_fn.name()
for r in in_threads(work, [1.0, 2.0, -0.5]):
    print(r)
'''

PROGRAMS['thr_optimizer_step_per_thread'] = THR + r'''
def train(lr):
    torch.manual_seed(0)
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
    opt = torch.optim.SGD([w], lr=lr, momentum=0.9)
    for _ in range(3):
        opt.zero_grad()
        loss = ((w - 1.0) ** 2).sum()
        loss.backward()
        opt.step()
    return [round(v, 6) for v in w.tolist()]
for r in in_threads(train, [0.1, 0.01]):
    print(r)
'''

PROGRAMS['thr_error_in_thread_backward'] = THR + r'''
def work(kind):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    if kind == 'nograd':
        return torch.autograd.grad(x.detach().sum(), x)
    if kind == 'nonscalar':
        (x * 2).backward()
    y = x.sum()
    return torch.autograd.grad(y, x)[0].tolist()
for r in in_threads(work, ['nograd', 'nonscalar', 'ok']):
    print(r)
'''

PROGRAMS['thr_default_dtype_is_global'] = THR + r'''
def work(_):
    return str(torch.get_default_dtype()), str(torch.tensor([1.0]).dtype)
torch.set_default_dtype(torch.float64)
print(in_threads(work, [0]))
torch.set_default_dtype(torch.float32)
print(in_threads(work, [0]))
'''

PROGRAMS['thr_enable_grad_inside_no_grad_thread'] = THR + r'''
x = torch.tensor([2.0], requires_grad=True)
def work(_):
    with torch.no_grad():
        a = x * 2
        with torch.enable_grad():
            b = x * 2
    return a.requires_grad, b.requires_grad, b.grad_fn.name()
print(in_threads(work, [0, 1]))
'''

PROGRAMS['thr_anomaly_mode_is_global'] = THR + r'''
def work(_):
    return torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
print(in_threads(work, [0]))
torch.autograd.set_detect_anomaly(True, check_nan=False)
print(in_threads(work, [0]))
torch.autograd.set_detect_anomaly(False)
print(in_threads(work, [0]))
'''

PROGRAMS['thr_queue_callback_per_thread'] = THR + r'''
from torch.autograd import Variable
def work(k):
    log = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * k
    def hook(g):
        Variable._execution_engine.queue_callback(lambda: log.append('cb %s' % k))
        return g
    y.register_hook(hook)
    y.sum().backward()
    log.append(x.grad.tolist())
    return log
for r in in_threads(work, [1.0, 2.0, 3.0]):
    print(r)
'''

# ---- anomaly mode

PROGRAMS['anom_nan_in_div_backward'] = PRE + r'''
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x / x
    E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['anom_check_nan_false'] = PRE + r'''
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=False):
    y = x.sqrt() * 0
    y.sum().backward()
print(x.grad)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
'''

PROGRAMS['anom_sqrt_pow_log_nan'] = PRE + r'''
for name, f in [('sqrt', lambda t: t.sqrt()), ('log', lambda t: t.log()), ('pow', lambda t: t.pow(0.5)),
                ('acos', lambda t: t.acos())]:
    x = torch.tensor([-1.0, 0.5], requires_grad=True)
    with torch.autograd.detect_anomaly():
        y = f(x)
        E(lambda: y.sum().backward())
'''

PROGRAMS['anom_set_detect_anomaly_ctx'] = PRE + r'''
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.set_detect_anomaly(False):
        print(torch.is_anomaly_enabled())
    with torch.autograd.detect_anomaly(check_nan=False):
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled())
'''

PROGRAMS['anom_custom_function_nan'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, str(m).splitlines()[0])  # (no stack)
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = Bad.apply(x)
    E(lambda: y.sum().backward())
    z = Bad.apply(x)
    E(lambda: torch.autograd.grad(z.sum(), x))
'''

PROGRAMS['anom_decorator_and_nested'] = PRE + r'''
E(lambda: torch.autograd.detect_anomaly()(lambda: 1))
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    with torch.autograd.detect_anomaly(check_nan=False):
        x = torch.tensor([0.0], requires_grad=True)
        x.sqrt().mul(0).backward()
        print(x.grad)
    print(torch.is_anomaly_check_nan_enabled())
'''

PROGRAMS['anom_nan_forward_value_is_fine'] = PRE + r'''
x = torch.tensor([float('nan'), 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x * 2
    y.sum().backward()
    print(x.grad)
    z = (x * 2).sum() * x
    E(lambda: z.sum().backward())
'''

PROGRAMS['anom_mse_and_linear_nan'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, str(m).splitlines()[0])  # (no stack)
w = torch.tensor([[1.0, float('inf')]], requires_grad=True)
x = torch.tensor([[1.0, 0.0]])
with torch.autograd.detect_anomaly():
    y = torch.nn.functional.linear(x, w)
    loss = torch.nn.functional.mse_loss(y, torch.zeros(1, 1))
    print(loss)
    E(lambda: loss.backward())
'''

# ---- profiler

PROGRAMS['prof_names_in_order'] = PRE + r'''
from torch.autograd import profiler
x = torch.tensor([1.0, 2.0], requires_grad=True)
with profiler.profile() as prof:
    with profiler.record_function("fwd"):
        y = (x * 2).sin().sum()
    with profiler.record_function("bwd"):
        pass
names = [e.name for e in prof.function_events]
print([n for n in names if n in ('fwd', 'bwd', 'aten::mul', 'aten::sin', 'aten::sum')])
print(names.count('fwd'), names.count('bwd'))
'''

PROGRAMS['prof_record_function_counts'] = PRE + r'''
from torch.autograd import profiler
with profiler.profile() as prof:
    for i in range(3):
        with profiler.record_function("step"):
            with profiler.record_function("inner"):
                pass
avg = {e.key: e.count for e in prof.key_averages()}
print(avg['step'], avg['inner'])
ev = [e for e in prof.function_events if e.name == 'step'][0]
print([c.name for c in ev.cpu_children])
print(ev.cpu_parent)
'''

PROGRAMS['prof_record_function_decorator_in_threads'] = THR + r'''
from torch.autograd import profiler
@profiler.record_function("job")
def job(k):
    return (torch.ones(2) * k).sum().item()
print(in_threads(job, [1.0, 2.0]))
with profiler.profile() as prof:
    print(in_threads(job, [3.0]))
    print(job(4.0))
print(sum(e.name == 'job' for e in prof.function_events))
'''

PROGRAMS['prof_disabled_and_repr'] = PRE + r'''
from torch.autograd import profiler
with profiler.profile(enabled=False) as prof:
    y = torch.ones(3) * 2
print(prof)
with profiler.profile() as prof:
    pass
print(len(prof.function_events))
E(lambda: profiler.profile().key_averages())
'''

PROGRAMS['prof_backward_nodes_recorded'] = PRE + r'''
from torch.autograd import profiler
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).exp().sum()
with profiler.profile() as prof:
    y.backward()
names = [e.name for e in prof.function_events]
for n in ['autograd::engine::evaluate_function: SumBackward0', 'autograd::engine::evaluate_function: ExpBackward0',
          'autograd::engine::evaluate_function: MulBackward0', 'SumBackward0', 'ExpBackward0', 'MulBackward0']:
    print(n, names.count(n))
print(x.grad)
'''

PROGRAMS['prof_backward_event_fields'] = PRE + r'''
from torch.autograd import profiler
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 3).sum()
base = y.grad_fn._sequence_nr()   # (sequence numbers are process-wide: printed relative to the root's)
with profiler.profile() as prof:
    y.backward()
for e in prof.function_events:
    if 'Backward' in e.name or 'AccumulateGrad' in e.name:
        seq = e.sequence_nr - base if e.sequence_nr >= 0 else e.sequence_nr
        print(e.name, e.cpu_parent.name if e.cpu_parent else None, seq, e.fwd_thread)
print(x.grad)
'''


# ---- more profiler, anomaly and thread programs

PROGRAMS['prof_key_averages_counts_backward'] = PRE + r'''
from torch.autograd import profiler
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with profiler.profile() as prof:
    for _ in range(2):
        y = (x * x).tanh().sum()
        y.backward()
avg = prof.key_averages()
for k in ['aten::mul', 'aten::tanh', 'aten::sum', 'MulBackward0', 'TanhBackward0', 'SumBackward0',
          'autograd::engine::evaluate_function: TanhBackward0', 'aten::tanh_backward', 'torch::autograd::AccumulateGrad']:
    print(k, [e.count for e in avg if e.key == k])
'''
PROGRAMS['prof_table_names_column'] = PRE + r'''
from torch.autograd import profiler
with profiler.profile() as prof:
    for _ in range(3):
        with profiler.record_function("blockA"):
            pass
    with profiler.record_function("blockB"):
        pass
t = prof.key_averages().table(sort_by="count")
lines = t.splitlines()
print(lines[0].replace('-', '').strip() == '')
print(lines[1].split())
for line in lines[3:5]:
    print(line.split()[0], line.split()[-1])
'''
PROGRAMS['prof_custom_function_events'] = PRE + r'''
from torch.autograd import profiler
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1.0, 2.0], requires_grad=True)
with profiler.profile() as prof:
    y = Sq.apply(x).sum()
    y.backward()
names = [e.name for e in prof.function_events]
print([n for n in names if 'Sq' in n])
print(x.grad)
'''
PROGRAMS['anom_double_backward_parent_trace'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, '|'.join(l for l in str(m).splitlines() if 'File' not in l and not l.startswith('   ')))
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.pow(1.5).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    print(g)
    E(lambda: torch.autograd.grad(g.sqrt().sum(), x))
'''
PROGRAMS['anom_nan_index_and_where'] = PRE + r'''
x = torch.tensor([4.0, 0.0, 9.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = torch.where(x > 0, x.sqrt(), torch.zeros(3))
    E(lambda: y.sum().backward())
    x = torch.tensor([4.0, 1.0, 9.0], requires_grad=True)
    z = x.sqrt()[[0, 2]]
    z.sum().backward()
    print(x.grad)
    w = x.rsqrt()
    E(lambda: w.sum().backward())
'''
PROGRAMS['anom_error_in_backward_not_nan'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, str(m).splitlines()[0])
class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        raise ValueError('boom')
x = torch.tensor([1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    E(lambda: Boom.apply(x).sum().backward())
E(lambda: Boom.apply(x).sum().backward())
'''
PROGRAMS['thr_inference_tensor_across_threads'] = THR + r'''
with torch.inference_mode():
    t = torch.ones(2) * 3
x = torch.tensor([1.0, 2.0], requires_grad=True)
def work(k):
    y = x * t
    y.sum().backward()
    return t.is_inference(), y.is_inference(), torch.is_inference_mode_enabled()
print(in_threads(work, [0]))
print(x.grad)
def bad(k):
    t.add_(1)
print(in_threads(bad, [0]))
'''
PROGRAMS['thr_no_grad_decorator_in_thread'] = THR + r'''
@torch.no_grad()
def evaluate(w):
    return (w * 2).requires_grad, torch.is_grad_enabled()
w = torch.tensor([1.0], requires_grad=True)
print(in_threads(evaluate, [w, w]))
print(torch.is_grad_enabled(), (w * 2).requires_grad)
'''
PROGRAMS['thr_module_training_per_thread'] = THR + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -0.25, 1.0]]))
    lin.bias.fill_(0.1)
xs = [torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[0.0, 1.0, -1.0]])]
def work(i):
    out = lin(xs[i])
    g = torch.autograd.grad(out.sum(), [lin.weight, lin.bias])
    return [t.tolist() for t in g], out.grad_fn.name()
for r in in_threads(work, [0, 1]):
    print(r)
print(lin.weight.grad)
'''
PROGRAMS['thr_backward_hooks_post_accumulate'] = THR + r'''
logs = {}
def work(k):
    w = torch.tensor([float(k)], requires_grad=True)
    log = []
    w.register_post_accumulate_grad_hook(lambda p: log.append(('post', p.grad.tolist())))
    (w * w).sum().backward()
    (w * 3).sum().backward()
    return log
for r in in_threads(work, [1, 2]):
    print(r)
'''


PROGRAMS['prof_started_in_a_thread'] = THR + r'''
from torch.autograd import profiler
def work(k):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with profiler.profile() as prof:
        with profiler.record_function("inside%d" % k):
            y = (x * k).sum()
        y.backward()
    names = [e.name for e in prof.function_events]
    return [n for n in names if n.startswith('inside')], names.count('aten::mul'), names.count('SumBackward0')
print(in_threads(work, [1]))
'''
PROGRAMS['prof_event_tree'] = PRE + r'''
from torch.autograd import profiler
x = torch.tensor([1.0, 2.0])
with profiler.profile() as prof:
    with profiler.record_function("outer"):
        with profiler.record_function("mid"):
            y = x.exp()
        z = x.neg()
evs = prof.function_events
outer = [e for e in evs if e.name == 'outer'][0]
print([c.name for c in outer.cpu_children])
mid = [e for e in evs if e.name == 'mid'][0]
print([c.name for c in mid.cpu_children], mid.cpu_parent.name)
print(outer.count, outer.key, outer.is_async, outer.device_type)
print(len(evs), [e.name for e in evs])
'''
PROGRAMS['prof_record_function_args_and_repr'] = PRE + r'''
from torch.autograd import profiler
with profiler.profile() as prof:
    with profiler.record_function("tagged", "some args") as rf:
        print(type(rf).__name__)
e = prof.function_events[0]
print(e.name, e.input_shapes, e.stack, e.scope, e.node_id, e.is_remote)
print(e.cpu_memory_usage, e.self_cpu_memory_usage, e.is_legacy, e.flops)
'''
PROGRAMS['thr_grad_allow_unused_materialize'] = THR + r'''
def work(mode):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    y = (a * 2).sum()
    if mode == 0:
        return torch.autograd.grad(y, [a, b])
    if mode == 1:
        return torch.autograd.grad(y, [a, b], allow_unused=True)
    return torch.autograd.grad(y, [a, b], allow_unused=True, materialize_grads=True)
for r in in_threads(work, [0, 1, 2]):
    print(r)
'''
PROGRAMS['thr_saved_tensor_hooks_per_thread'] = THR + r'''
def work(k):
    log = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    def pack(t):
        log.append('pack %s' % list(t.shape))
        return t
    def unpack(t):
        log.append('unpack')
        return t
    if k:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (x * x).sum()
    else:
        y = (x * x).sum()
    y.backward()
    return log, x.grad.tolist()
for r in in_threads(work, [1, 0]):
    print(r)
'''
PROGRAMS['anom_grad_mode_and_warning_once'] = PRE + r'''
x = torch.tensor([-1.0], requires_grad=True)
for i in range(2):
    with torch.autograd.detect_anomaly():
        y = x.log()
        E(lambda: y.backward())
print(torch.is_anomaly_enabled())
'''
PROGRAMS['prof_event_scope_and_kind'] = PRE + r'''
from torch.autograd import profiler
x = torch.tensor([1.0, 2.0], requires_grad=True)
with profiler.profile() as prof:
    with profiler.record_function("fwd"):
        y = x.exp().sum()
    y.backward()
for e in prof.function_events:
    if e.name in ('fwd', 'aten::exp', 'ExpBackward0', 'autograd::engine::evaluate_function: ExpBackward0'):
        print(e.name, e.scope, e.is_user_annotation, e.activity_type, e.self_cpu_memory_usage, e.device_time,
              e.device_time_str, e.self_device_time_total, e.input_dtypes, e.kwinputs, e.python_id, e.event_metadata)
'''


PROGRAMS['anom_nan_output_index'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, str(m).splitlines()[0])
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    E(lambda: (a / b).sum().backward())
    E(lambda: torch.atan2(a * 0, b).sum().backward())
    E(lambda: (b ** a).sum().backward())
    E(lambda: torch.mm(a.view(1, 2), (b.log()).view(2, 1)).sum().backward())
    E(lambda: torch.nn.functional.softplus(a * float('inf')).sum().backward())
    E(lambda: torch.cat([a, b.sqrt() * 0]).sum().backward())
print(a.grad, b.grad)
'''
PROGRAMS['anom_inf_is_not_nan'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, str(m).splitlines()[0])
x = torch.tensor([0.0, 4.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    x.sqrt().sum().backward()
    print(x.grad)
    y = torch.tensor([0.0], requires_grad=True)
    E(lambda: (y.sqrt() * torch.tensor([float('nan')])).sum().backward())
    print(y.grad)
'''
PROGRAMS['anom_set_detect_anomaly_function_form'] = PRE + r'''
warnings.showwarning = lambda m, c, *a, **k: print('W', c.__name__, str(m).splitlines()[0])
torch.autograd.set_detect_anomaly(True)
x = torch.tensor([-1.0], requires_grad=True)
E(lambda: x.sqrt().sum().backward())
torch.autograd.set_detect_anomaly(True, check_nan=False)
x.grad = None
x.sqrt().sum().backward()
print(x.grad)
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
'''
PROGRAMS['thr_retain_graph_then_free_in_thread'] = THR + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x * x).sum()
def first(_):
    y.backward(retain_graph=True)
    return x.grad.tolist()
print(in_threads(first, [0]))
def second(_):
    y.backward()
    return x.grad.tolist()
print(in_threads(second, [0]))
print(in_threads(second, [0]))
'''
PROGRAMS['thr_reentrant_backward_in_custom_fn'] = THR + r'''
class Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with torch.enable_grad():
            xd = x.detach().requires_grad_()
            gx, = torch.autograd.grad((xd ** 3).sum(), xd)
        return g * gx
def work(v):
    x = torch.tensor([v, 2 * v], requires_grad=True)
    Inner.apply(x).sum().backward()
    return x.grad.tolist()
print(in_threads(work, [1.0, 2.0]))
'''


@pytest.fixture(autouse=True, scope="module")
def _forward_ad_warmed_up():
    """PyTorch's first profile imports modules and may warn once per process: done here, silently, so that no
    program's output depends on whether it runs first."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.profiler.profile():
            torch.ones(1) * 2


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
