"""Recurrent layers: RNN, LSTM, GRU and their one-step cells (PyTorch's rnn.py and, for the arithmetic,
aten/src/ATen/native/RNN.cpp).

PyTorch's CPU kernels build a recurrent layer out of ordinary ops — a matrix product for the input of
every time step at once, then per step an addmm, an in-place add, the gates' nonlinearities — and so do
the functions below, in the same order: ``out.grad_fn`` is the same StackBackward0 over the same nodes,
and the gradients flow through them as through any other graph. The one exception is float32 nn.LSTM,
which PyTorch runs with oneDNN: one MkldnnRnnLayerBackward0 node per layer and direction
(``derivatives.mkldnn_rnn_layer``). A PackedSequence input runs PyTorch's packed layers (PackedLayer,
ReversedPackedLayer): the hidden state shrinks (forward) or grows (reverse) as sequences end, and float32
LSTM then uses the ordinary cell too (PyTorch's packed lstm has no oneDNN path).

Shapes: input (L, N, H_in), or (N, L, H_in) with batch_first, or (L, H_in) unbatched; the hidden state
(num_layers · num_directions, N, H_out). Gates are stacked in the weights' rows: (i, f, g, o) for LSTM,
(r, z, n) for GRU.
"""
from __future__ import annotations

import math
import numbers
import warnings

from ... import _arg_errors, _creation, _ops, _vmap_batched
from ... import derivatives as D
from ..._tensor import Tensor
from ..._warn_once import warn_once as _warn_once
from ...amp.autocast_mode import ON as _AUTOCAST
from ...amp.autocast_mode import run as _autocast
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

# =============================================================================================
# One time step (RNN.cpp's SimpleCell, LSTMCell, GRUCell; their CPU branch)
# =============================================================================================
# ``params`` is (w_ih, w_hh, b_ih, b_hh, w_hr), None where absent. ``pre_computed``: the input is already
# x·W_ihᵀ + b_ih (a layer computes that for the whole sequence before its time loop).


def _simple_cell(nonlinearity: str):
    """h' = act(h·W_hhᵀ + b_hh + x·W_ihᵀ + b_ih), act tanh or relu."""
    def cell(input: Tensor, hidden: Tensor, params, pre_computed: bool = False) -> Tensor:
        w_ih, w_hh, b_ih, b_hh, _ = params
        gates = F.linear(hidden, w_hh, b_hh).add_(input if pre_computed else F.linear(input, w_ih, b_ih))
        return gates.tanh() if nonlinearity == "tanh" else gates.relu()
    return cell


def _lstm_cell(input: Tensor, hidden: tuple, params, pre_computed: bool = False) -> tuple:
    """c' = σ(f)·c + σ(i)·tanh(g), h' = σ(o)·tanh(c') (then h'·W_hrᵀ with a projection)."""
    hx, cx = hidden
    w_ih, w_hh, b_ih, b_hh, w_hr = params
    gates = F.linear(hx, w_hh, b_hh).add_(input if pre_computed else F.linear(input, w_ih, b_ih))
    ingate, forgetgate, cellgate, outgate = gates.unsafe_chunk(4, 1)
    ingate, forgetgate = ingate.sigmoid_(), forgetgate.sigmoid_()
    cellgate, outgate = cellgate.tanh_(), outgate.sigmoid_()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    if w_hr is not None:
        hy = _ops.matmul(hy, w_hr.t())
    return hy, cy


def _gru_cell(input: Tensor, hidden: Tensor, params, pre_computed: bool = False) -> Tensor:
    """r = σ(x_r + h_r), z = σ(x_z + h_z), n = tanh(x_n + r·h_n), h' = (h - n)·z + n."""
    w_ih, w_hh, b_ih, b_hh, _ = params
    igates = (input if pre_computed else F.linear(input, w_ih, b_ih)).unsafe_chunk(3, 1)
    hgates = F.linear(hidden, w_hh, b_hh).unsafe_chunk(3, 1)
    reset_gate = hgates[0].add_(igates[0]).sigmoid_()
    input_gate = hgates[1].add_(igates[1]).sigmoid_()
    new_gate = igates[2].add(hgates[2].mul_(reset_gate)).tanh_()
    return (hidden - new_gate).mul_(input_gate).add_(new_gate)


_CELLS = {"RNN_TANH": _simple_cell("tanh"), "RNN_RELU": _simple_cell("relu"), "LSTM": _lstm_cell, "GRU": _gru_cell}


# =============================================================================================
# Layers over a sequence, and stacks of layers (RNN.cpp's FullLayer, FullBidirectionalLayer,
# apply_layer_stack)
# =============================================================================================

def _output_of(hidden):
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _steps(cell, step_inputs, hidden, params) -> tuple:
    """The cell over the (pre-computed) step inputs: every step's output, and the last hidden state."""
    outputs = []
    for step_input in step_inputs:
        hidden = cell(step_input, hidden, params, True)
        outputs.append(_output_of(hidden))
    if not outputs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    return outputs, hidden


def _layer(cell, input: Tensor, hidden, params, batch_sizes=None) -> tuple:
    """One direction: x·W_ihᵀ + b_ih for the whole sequence (one matrix product), then the time loop."""
    if batch_sizes is not None:
        return _packed_layer(cell, input, hidden, params, batch_sizes)
    outputs, hidden = _steps(cell, F.linear(input, params[0], params[2]).unbind(0), hidden, params)
    return _ops.stack(outputs, 0), hidden


def _hidden_slice(hidden, start: int, end: int):
    """Rows [start, end) of the hidden state (both of LSTM's)."""
    if isinstance(hidden, tuple):
        # (c before h: ATen's make_tuple(slice(h), slice(c)) evaluates right to left; the nodes' order)
        h, c = hidden
        c = c.narrow(0, start, end - start)
        return h.narrow(0, start, end - start), c
    return hidden.narrow(0, start, end - start)


def _hidden_cat(hiddens: list):
    if isinstance(hiddens[0], tuple):
        hs, cs = zip(*hiddens)
        c = _ops.cat(list(cs), 0)  # (c before h, as _hidden_slice)
        return _ops.cat(list(hs), 0), c
    return _ops.cat(hiddens, 0)


def _packed_layer(cell, data: Tensor, hidden, params, batch_sizes: list) -> tuple:
    """One direction over packed data: when sequences end, their rows of the hidden state are set aside."""
    step_inputs = F.linear(data, params[0], params[2])
    outputs, finished, offset, last = [], [], 0, batch_sizes[0]
    for n in batch_sizes:
        step_input = step_inputs.narrow(0, offset, n)
        offset += n
        if n < last:
            finished.append(_hidden_slice(hidden, n, last))
            hidden = _hidden_slice(hidden, 0, n)
        last = n
        hidden = cell(step_input, hidden, params, True)
        outputs.append(_output_of(hidden))
    finished.append(hidden)
    return _ops.cat(outputs, 0), _hidden_cat(finished[::-1])


def _reversed_packed_layer(cell, data: Tensor, input_hidden, params, batch_sizes: list) -> tuple:
    """The reverse direction over packed data: from the last step, rows joining as longer sequences start."""
    step_inputs = F.linear(data, params[0], params[2])
    offset, last = data.shape[0], batch_sizes[-1]
    hidden = _hidden_slice(input_hidden, 0, last)
    outputs = []
    for n in reversed(batch_sizes):
        if n > last:
            hidden = _hidden_cat([hidden, _hidden_slice(input_hidden, last, n)])
        step_input = step_inputs.narrow(0, offset - n, n)
        offset, last = offset - n, n
        hidden = cell(step_input, hidden, params, True)
        outputs.append(_output_of(hidden))
    return _ops.cat(outputs[::-1], 0), hidden


def _bidirectional_layer(cell, input: Tensor, hidden: tuple, params: tuple, batch_sizes=None) -> tuple:
    """Forward over the sequence, then backward; the two outputs side by side in the last dim."""
    if batch_sizes is not None:
        fw_output, fw_hidden = _packed_layer(cell, input, hidden[0], params[0], batch_sizes)
        rev_output, rev_hidden = _reversed_packed_layer(cell, input, hidden[1], params[1], batch_sizes)
        return _ops.cat([fw_output, rev_output], -1), (fw_hidden, rev_hidden)
    fw_outputs, fw_hidden = _steps(cell, F.linear(input, params[0][0], params[0][2]).unbind(0), hidden[0], params[0])
    fw_output = _ops.stack(fw_outputs, 0)
    rev_steps = F.linear(input, params[1][0], params[1][2]).unbind(0)[::-1]
    rev_outputs, rev_hidden = _steps(cell, rev_steps, hidden[1], params[1])
    rev_output = _ops.stack(rev_outputs[::-1], 0)
    return _ops.cat([fw_output, rev_output], fw_output.dim() - 1), (fw_hidden, rev_hidden)


def _layer_stack(cell, input: Tensor, hiddens: list, params: list, num_layers: int, dropout: float, train: bool,
                 bidirectional: bool, batch_sizes=None) -> tuple:
    """Each layer's output is the next one's input (with dropout between layers when training)."""
    if bidirectional:   # (hidden states and parameters come in (forward, reverse) pairs)
        if len(hiddens) % 2 or len(params) % 2:   # (RNN.cpp's pair_vec)
            raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
        hiddens = list(zip(hiddens[::2], hiddens[1::2]))
        params = list(zip(params[::2], params[1::2]))
    # (RNN.cpp's apply_layer_stack: the modules check the hidden state's shape first, except LSTM on a
    # PackedSequence, whose wrong-sized states reach these checks or fail in the cells' own ops)
    if len(hiddens) != num_layers:
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if len(params) != num_layers:
        raise RuntimeError("Expected more weights in stacked_rnn")
    final_hiddens = []
    for layer in range(num_layers):
        if bidirectional:
            input, hidden = _bidirectional_layer(cell, input, hiddens[layer], params[layer], batch_sizes)
            final_hiddens.extend(hidden)
        else:
            input, hidden = _layer(cell, input, hiddens[layer], params[layer], batch_sizes)
            final_hiddens.append(hidden)
        if dropout != 0 and train and layer < num_layers - 1:
            input = F.dropout(input, dropout, True)
    return input, final_hiddens


def _gather_params(flat: list, has_biases: bool, has_projections: bool = False) -> list:
    """The flat weight list as one (w_ih, w_hh, b_ih, b_hh, w_hr) tuple per layer and direction."""
    per_layer = 2 + 2 * has_biases + has_projections
    if len(flat) % per_layer:
        raise RuntimeError("got an incorrect number of RNN parameters")
    groups = [flat[i:i + per_layer] for i in range(0, len(flat), per_layer)]
    if has_biases:
        return [(g[0], g[1], g[2], g[3], g[4] if has_projections else None) for g in groups]
    return [(g[0], g[1], None, None, g[2] if has_projections else None) for g in groups]


def _rnn(mode: str, input: Tensor, hx: Tensor, flat_weights: list, has_biases: bool, num_layers: int,
         dropout: float, train: bool, bidirectional: bool, batch_first: bool, batch_sizes=None) -> tuple:
    """PyTorch's rnn_tanh / rnn_relu / gru: (output, h_n); with batch_sizes, input is packed data."""
    if _vmap_batched.DEPTH[0]:   # (refused inside vmap: _vmap_batched.rnn_fallback)
        _vmap_batched.rnn_fallback(f"{mode.lower()}.{'input' if batch_sizes is None else 'data'}", input, hx,
                                   *flat_weights)
    if batch_first and batch_sizes is None:
        input = input.transpose(0, 1)
    output, final_hiddens = _layer_stack(_CELLS[mode], input, list(hx.unbind(0)),
                                         _gather_params(flat_weights, has_biases), num_layers, dropout, train,
                                         bidirectional, batch_sizes)
    hy = _ops.stack(final_hiddens, 0)
    if batch_first and batch_sizes is None:
        output.transpose_(0, 1)
    return output, hy


def _lstm(input: Tensor, hx: tuple, flat_weights: list, has_biases: bool, num_layers: int, dropout: float,
          train: bool, bidirectional: bool, batch_first: bool, batch_sizes=None) -> tuple:
    """PyTorch's lstm: (output, h_n, c_n); with batch_sizes, input is packed data."""
    if _vmap_batched.DEPTH[0]:   # (refused inside vmap: _vmap_batched.rnn_fallback)
        _vmap_batched.rnn_fallback(f"lstm.{'input' if batch_sizes is None else 'data'}", input, *hx, *flat_weights)
    # (ATen's lstm: cell states of another size than the hidden states mean projections; size(2) raises
    # PyTorch's IndexError for states of fewer dims, which only a PackedSequence input lets through)
    has_projections = hx[0].size(2) != hx[1].size(2)
    if batch_sizes is not None:
        batch_first = False   # (packed data has no batch dim)
    elif input.dtype.name == "float32" and input.numel() != 0:   # PyTorch's use_mkldnn
        if not has_projections:
            return _lstm_onednn(input, hx[0], hx[1], flat_weights, has_biases, num_layers, dropout, train,
                                bidirectional, batch_first)
        _warn_once("lstm projections oneDNN",   # (TORCH_WARN_ONCE; shown at nn.LSTM's line, as torch's _VF.lstm)
                   "LSTM with projections is not supported with oneDNN. Using default implementation. (Triggered "
                   "internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)", stacklevel=2)
    if batch_first:
        input = input.transpose(0, 1)
    hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    output, final_hiddens = _layer_stack(_lstm_cell, input, hiddens,
                                         _gather_params(flat_weights, has_biases, has_projections), num_layers,
                                         dropout, train, bidirectional, batch_sizes)
    # (c_n before h_n: ATen's make_tuple(stack(h), stack(c)) evaluates right to left; the nodes' order)
    cy = _ops.stack([c for _, c in final_hiddens], 0)
    hy = _ops.stack([h for h, _ in final_hiddens], 0)
    if batch_first:
        output = output.transpose(0, 1)
    return output, hy, cy


def _mkldnn_rnn_layer(*tensors: Tensor, **args) -> tuple:
    """One fused LSTM layer (``D.mkldnn_rnn_layer``): an op of autocast's lists (bfloat16 under autocast)."""
    if _AUTOCAST[0]:
        return _autocast("mkldnn_rnn_layer", _mkldnn_rnn_layer, *tensors, **args)
    return D.mkldnn_rnn_layer(*tensors, **args)


def _lstm_onednn(input: Tensor, hx: Tensor, cx: Tensor, flat_weights: list, has_biases: bool, num_layers: int,
                 dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """PyTorch's mkldnn_rnn: one fused mkldnn_rnn_layer per layer and direction (float32 LSTM on CPU)."""
    # oneDNN's descriptors of states in another dtype than the input's (h0 made from NumPy: float64): a dtype it
    # lacks fails as its descriptor is made, a half one as the primitive is
    if any(t.dtype.name not in ("float32", "float16", "bfloat16") for t in (hx, cx)):
        raise RuntimeError("get_mkldnn_dtype: unsupported data type")
    if hx.dtype.name != "float32" or cx.dtype.name != "float32":
        raise RuntimeError("could not create a primitive descriptor for the LSTM forward propagation primitive. Run "
                           "workload with environment variable ONEDNN_VERBOSE=all to get additional diagnostic "
                           "information.")
    if batch_first:
        input = input.transpose(0, 1)
    layer_input, hx, cx = input.contiguous(), hx.contiguous(), cx.contiguous()
    per_layer = 4 if has_biases else 2
    directions = 2 if bidirectional else 1
    hy, cy = [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w = flat_weights[index * per_layer:(index + 1) * per_layer]
            # without biases, the layer still takes two tensors there (zeros, unused)
            b_ih = w[2] if has_biases else _creation.zeros(*w[0].shape, dtype=w[0].dtype)
            b_hh = w[3] if has_biases else _creation.zeros(*w[1].shape, dtype=w[1].dtype)
            output, h, c, _ = _mkldnn_rnn_layer(
                layer_input, w[0], w[1], b_ih, b_hh, hx[index], cx[index], reverse=direction > 0, batch_sizes=(),
                mode=2, hidden_size=hx.shape[2], num_layers=num_layers, has_biases=has_biases,
                bidirectional=bidirectional, batch_first=batch_first, train=train)
            outputs.append(output)
            hy.append(h)
            cy.append(c)
        layer_input = outputs[0] if directions == 1 else _ops.cat(outputs, -1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    # PyTorch's node order (which decides the order backward runs them in): the stacks, then the transpose
    hy = _ops.stack(hy, 0)
    cy = _ops.stack(cy, 0)
    return layer_input.transpose(0, 1) if batch_first else layer_input, hy, cy


# =============================================================================================
# The modules
# =============================================================================================

def _mini_batch(input: Tensor, batch_sizes, batch_first: bool) -> int:
    """The batch size: the first step's for packed data, else the input's batch dim."""
    if batch_sizes is not None:
        return int(batch_sizes[0])
    return input.size(0) if batch_first else input.size(1)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters of every layer and direction, their checks, the repr."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        for name, value in (("bias", bias), ("batch_first", batch_first)):
            if not isinstance(value, bool):
                raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gates = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}.get(mode)
        if gates is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = gates * hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                w_ih = Parameter(_creation.empty(gate_size, layer_input_size, dtype=dtype))
                w_hh = Parameter(_creation.empty(gate_size, real_hidden_size, dtype=dtype))
                b_ih = Parameter(_creation.empty(gate_size, dtype=dtype))
                b_hh = Parameter(_creation.empty(gate_size, dtype=dtype))   # (a second bias, as cuDNN has)
                layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"] + (["bias_ih_l{}{}", "bias_hh_l{}{}"] if bias else [])
                if proj_size > 0:
                    layer_params += (Parameter(_creation.empty(proj_size, hidden_size, dtype=dtype)),)
                    names.append("weight_hr_l{}{}")
                names = [n.format(layer, "_reverse" if direction == 1 else "") for n in names]
                for name, param in zip(names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self) -> None:
        self._flat_weights = [getattr(self, name, None) for name in self._flat_weights_names]

    def __setattr__(self, attr, value) -> None:
        if "_flat_weights_names" in self.__dict__ and attr in self._flat_weights_names:
            # keep self._flat_weights up to date when a weight is replaced (self.weight_ih_l0 = ...)
            self._flat_weights[self._flat_weights_names.index(attr)] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self) -> None:
        """A no-op on the CPU (PyTorch packs the weights for cuDNN here)."""

    def _apply(self, fn, recurse: bool = True) -> RNNBase:
        result = super()._apply(fn, recurse)
        self._init_flat_weights()
        return result

    def reset_parameters(self) -> None:
        """Every weight and bias U(-1/√hidden_size, 1/√hidden_size)."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self) -> list:
        """The parameters, one list per layer and direction."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    # ---- checks (PyTorch's messages) --------------------------------------------------------------
    def check_input(self, input: Tensor, batch_sizes=None) -> None:
        """The input's dtype, rank and feature size."""
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). Convert "
                             f"input: input.to({weight_dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes=None) -> tuple:
        """(num_layers · num_directions, batch, proj_size or hidden_size)."""
        mini_batch = _mini_batch(input, batch_sizes, self.batch_first)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size: tuple,
                          msg: str = "Expected hidden size {}, got {}") -> None:
        """The hidden state must have exactly the expected shape."""
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes=None) -> None:
        """check_input, then the hidden state's shape."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        """The hidden state in the batch order of the input (only PackedSequence input reorders it)."""
        return hx if permutation is None else hx.index_select(1, permutation)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ---- shared by the forwards ------------------------------------------------------------------
    def _batched(self, input: Tensor, name: str, suffix: str) -> tuple:
        """(input with a batch dim, whether it had one)."""
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D {suffix}")
        self._init_flat_weights()   # (a weight may have been replaced since the last call)
        is_batched = input.dim() == 3
        return (input if is_batched else input.unsqueeze(0 if self.batch_first else 1)), is_batched

    def _zeros(self, input: Tensor, size: int) -> Tensor:
        num_directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        return _creation.zeros(self.num_layers * num_directions, batch, size, dtype=input.dtype)

    def _one_hidden_forward(self, input: Tensor, hx, name: str, suffix: str) -> tuple:
        """RNN's and GRU's forward: (output, h_n)."""
        if isinstance(input, PackedSequence):
            self._init_flat_weights()
            data, batch_sizes, sorted_indices, unsorted_indices = input
            sizes = batch_sizes.tolist()
            hx = _creation.zeros(self.num_layers * (2 if self.bidirectional else 1), sizes[0], self.hidden_size,
                                 dtype=data.dtype) if hx is None else self.permute_hidden(hx, sorted_indices)
            self.check_forward_args(data, hx, batch_sizes)
            output, hidden = _rnn(self.mode, data, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                                  self.training, self.bidirectional, self.batch_first, sizes)
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        input, is_batched = self._batched(input, name, suffix)
        if hx is not None:
            if not is_batched and hx.dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
            if is_batched and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            hx = hx if is_batched else hx.unsqueeze(1)
        else:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx, None)
        output, hidden = _rnn(self.mode, input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                              self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hidden = hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """Elman RNN: h_t = act(x_t·W_ihᵀ + b_ih + h_(t-1)·W_hhᵀ + b_hh), act tanh (default) or relu."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple:
        return self._one_hidden_forward(input, hx, "RNN", "tensor instead")


class GRU(RNNBase):
    """Gated recurrent unit: r, z = σ(...), n = tanh(x·W_inᵀ + b_in + r·(h·W_hnᵀ + b_hn)), h' = (1 - z)·n + z·h."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple:
        return self._one_hidden_forward(input, hx, "GRU", "instead")


class LSTM(RNNBase):
    """Long short-term memory: gates i, f, o = σ(...), g = tanh(...); c' = f·c + i·g, h' = o·tanh(c')."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes=None) -> tuple:
        """(num_layers · num_directions, batch, hidden_size): the cell state is never projected."""
        mini_batch = _mini_batch(input, batch_sizes, self.batch_first)
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: tuple, batch_sizes=None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx: tuple, permutation) -> tuple:
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def _packed_forward(self, input: PackedSequence, hx) -> tuple:
        self._init_flat_weights()
        data, batch_sizes, sorted_indices, unsorted_indices = input
        sizes = batch_sizes.tolist()
        if hx is None:
            layers = self.num_layers * (2 if self.bidirectional else 1)
            hx = (_creation.zeros(layers, sizes[0], self.proj_size or self.hidden_size, dtype=data.dtype),
                  _creation.zeros(layers, sizes[0], self.hidden_size, dtype=data.dtype))
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        # (PyTorch's LSTM.forward runs no check_forward_args on a PackedSequence: wrong shapes fail in ATen's
        # lstm, as _lstm's: the parameters' count, the states' count per layer, then the first layer's input
        # projection data @ weight_ih_l0.T, the cells' matrix products and in-place adds)
        output, h, c = _lstm(data, hx, self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                             self.bidirectional, self.batch_first, sizes)
        return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                self.permute_hidden((h, c), unsorted_indices))

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        if isinstance(input, PackedSequence):
            return self._packed_forward(input, hx)
        input, is_batched = self._batched(input, "LSTM", "instead")
        if hx is None:
            hx = (self._zeros(input, self.proj_size if self.proj_size > 0 else self.hidden_size),
                  self._zeros(input, self.hidden_size))
        else:
            if is_batched and (hx[0].dim() != 3 or hx[1].dim() != 3):
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            if not is_batched:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        output, h, c = _lstm(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                             self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            h, c = h.squeeze(1), c.squeeze(1)
        return output, (h, c)


# =============================================================================================
# The cells: one time step as a module (input (N, H_in) or (H_in,))
# =============================================================================================

# RNN.cpp's check_rnn_cell_forward_{weights,input,hidden} (each cell runs them in its own order)

def _check_weights(w_ih: Tensor, w_hh: Tensor, gates: int) -> None:
    hidden_size = w_hh.shape[1]
    for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if w.shape[0] != gates * hidden_size:
            raise RuntimeError(f"{name} first dim must be {gates} * hidden_size = {gates * hidden_size}, but got "
                               f"{w.shape[0]}")


def _check_input(input: Tensor, w_ih: Tensor) -> None:
    # (sizes read with size(): a tensor of too few dims raises its IndexError, as PyTorch's sym_size)
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")


def _check_hidden(input: Tensor, hx: Tensor, hidden_size: int, label: int = 0) -> None:
    if input.size(0) != hx.size(0):
        raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size {hx.size(0)}")
    if hx.size(1) != hidden_size:
        raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, expected {hidden_size}")


class RNNCellBase(Module):
    """What the cells share: weight_ih (gates·H, H_in), weight_hh (gates·H, H), bias_ih, bias_hh (gates·H,)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_creation.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(_creation.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        """Every weight and bias U(-1/√hidden_size, 1/√hidden_size)."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _params(self) -> tuple:
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, None

    def _batched(self, input: Tensor, hx) -> tuple:
        """(input, hx, batched): a batch dim added to unbatched input (and hx), zeros for a missing hx."""
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched

    def _run(self, op: str, input: Tensor, hx, step):
        """``step()`` (the checks and step of _VF's cell ``op``); inside vmap as PyTorch's fallback runs the cell (no
        batch rule, _vmap_batched.rnn_fallback): on plain tensors, its result batched."""
        if not _vmap_batched.DEPTH[0]:
            return step()
        mask = _vmap_batched.rnn_fallback(op, input, *(hx if isinstance(hx, tuple) else (hx,)), *self.parameters())
        if not mask:
            return step()
        suspended, _vmap_batched.SUSPENDED[0] = _vmap_batched.SUSPENDED[0], True
        try:
            out = step()
        finally:
            _vmap_batched.SUSPENDED[0] = suspended
        _vmap_batched.mark(out, mask)
        return out


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = act(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        if input.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        input, hx, is_batched = self._batched(input, hx)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")

        def step():
            _check_weights(self.weight_ih, self.weight_hh, 1)
            _check_input(input, self.weight_ih)
            _check_hidden(input, hx, self.weight_hh.shape[1])
            return _simple_cell(self.nonlinearity)(input, hx, self._params())
        ret = self._run(f"rnn_{self.nonlinearity}_cell", input, hx, step)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h, c) → (h', c')."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        if not isinstance(hx, (list, tuple)):  # (a batched hx reaches _VF.lstm_cell's argument parser as it is)
            raise _arg_errors.must_be("lstm_cell", "hx", "tuple of Tensors", hx, 2)
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        if _vmap_batched.DEPTH[0]:   # (inside vmap: PyTorch's refusal, lstm_cell having no fallback)
            _vmap_batched.rnn_fallback("lstm_cell", input, *hx, *self.parameters())
        _check_input(input, self.weight_ih)
        _check_weights(self.weight_ih, self.weight_hh, 4)
        _check_hidden(input, hx[0], self.weight_hh.shape[1], 0)
        _check_hidden(input, hx[1], self.weight_hh.shape[1], 1)
        h, c = _lstm_cell(input, tuple(hx), self._params())
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h → h'."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        if input.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        input, hx, is_batched = self._batched(input, hx)

        def step():
            _check_input(input, self.weight_ih)
            _check_hidden(input, hx, self.weight_hh.shape[1])
            _check_weights(self.weight_ih, self.weight_hh, 3)
            return _gru_cell(input, hx, self._params())
        ret = self._run("gru_cell", input, hx, step)
        return ret if is_batched else ret.squeeze(0)
