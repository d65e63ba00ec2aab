"""torch.nn.utils.rnn: batches of sequences of different lengths, padded or packed.

A padded batch is (T, B, *) (or (B, T, *) with batch_first), shorter sequences filled with a padding
value. A PackedSequence keeps only the real steps: ``data`` holds time step 0 of every sequence, then
step 1 of those still running, and so on (sequences sorted longest first); ``batch_sizes[t]`` says how
many sequences step t has. The recurrent layers run a packed batch without computing the padding.
As in PyTorch, the functions are ordinary ops (copies into slices, index_select) except packing, which
is one node (PackPaddedSequenceBackward0).
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable

from ... import _creation, _dtypes, _ops, _ops_sorting
from ... import derivatives as D
from ..._class_names import TorchNamed
from ..._tensor import Tensor
from ...autograd import forward_ad

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"]),
                     metaclass=TorchNamed):
    """The real steps of a batch of sequences, time step by time step (see the module docstring)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:   # (PyTorch checks its device: a list of sizes fails with AttributeError)
            if batch_sizes.device.type != "cpu":
                raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                                 "created manually. They should be instantiated by functions like pack_sequence and "
                                 "pack_padded_sequences in nn.utils.rnn. "
                                 "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        else:   # PackedSequence((data, batch_sizes), ...)
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """The same sequence with ``data`` converted (batch_sizes stay int64 on the CPU)."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes, self.sorted_indices,
                                                         self.unsorted_indices)

    def cpu(self, *args, **kwargs) -> PackedSequence:
        return self.to(*args, **kwargs)

    def double(self) -> PackedSequence:
        return self.to(dtype=_dtypes.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=_dtypes.float32)

    def half(self) -> PackedSequence:
        return self.to(dtype=_dtypes.float16)

    def long(self) -> PackedSequence:
        return self.to(dtype=_dtypes.int64)

    def int(self) -> PackedSequence:
        return self.to(dtype=_dtypes.int32)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    output = _creation.empty_like(permutation)
    output.scatter_(0, permutation, _creation.arange(0, permutation.numel()))
    return output


def _check_lengths(lengths: Tensor, name: str) -> None:
    if lengths.dim() != 1 or lengths.dtype is not _dtypes.int64:
        raise RuntimeError(f"'{name}' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D cpu "
                           f"{_ops._legacy(lengths.dtype)} tensor")


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False, enforce_sorted: bool = True
                         ) -> PackedSequence:
    """Pack a padded batch whose sequences have the given lengths (sorted longest first unless not enforced)."""
    if isinstance(lengths, Tensor):
        lengths = lengths.to(dtype=_dtypes.int64)
    else:
        lengths = _creation.as_tensor(lengths, dtype=_dtypes.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = _ops_sorting.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    # (_pack_padded_sequence has no forward formula: a tangent is refused before its checks)
    forward_ad.refuse_before_kernel(D.pack_padded_sequence, input)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    _check_lengths(lengths, "lengths")
    batch_size = input.shape[0 if batch_first else 1]
    if lengths.shape[0] != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths.shape[0]} "
                           f"(batch_size={batch_size})")
    values = lengths.tolist()
    if values[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if any(a < b for a, b in zip(values, values[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You "
                           "can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep "
                           "this requirement if you do not need ONNX exportability.")
    data, batch_sizes = D.pack_padded_sequence(input, lengths=tuple(values), batch_first=batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple:
    """(the padded batch, each sequence's length): the inverse of pack_padded_sequence."""
    batch_sizes = sequence.batch_sizes.tolist()
    max_seq_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    # (PyTorch's at::full inside a C++ function is empty + fill_: the result starts at _version 1)
    output = _creation.empty((max_seq_length, batch_sizes[0], *data.shape[1:]), dtype=data.dtype)
    output.fill_(padding_value)
    # PyTorch's kernel: one copy per run of steps with the same batch size (their rows are one block of data)
    offset, start = 0, 0
    for t in range(1, len(batch_sizes) + 1):
        if t == len(batch_sizes) or batch_sizes[t] != batch_sizes[start]:
            rows = batch_sizes[start] * (t - start)
            block = data[offset:offset + rows].view(t - start, batch_sizes[start], *data.shape[1:])
            output[start:t, :batch_sizes[start]].copy_(block)
            offset, start = offset + rows, t
    lengths = [sum(1 for n in batch_sizes if n > b) for b in range(batch_sizes[0])]
    lengths = _creation.tensor(lengths, dtype=_dtypes.int64)
    if batch_first:
        output = output.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        return (output.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices])
    return output, lengths


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0, padding_side: str = "right"
                 ) -> Tensor:
    """Stack sequences of different lengths into one (T, B, *) batch (B, T, * with batch_first), padded."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.shape[0] for s in sequences)
    size = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = _creation.empty(size + tuple(sequences[0].shape[1:]), dtype=sequences[0].dtype)
    out.fill_(padding_value)   # (empty + fill_, as PyTorch's at::full in C++: the result starts at _version 1)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    for i, seq in enumerate(sequences):
        start = max_len - seq.shape[0] if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, seq.shape[0]).copy_(seq)
        else:
            out.narrow(0, start, seq.shape[0]).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> list:
    """The list of sequences in a padded batch, each cut to its length (transposes the input in place if not
    batch_first, as PyTorch does)."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    # (as PyTorch's, ``lengths`` must be a tensor: its device is read, which a list fails on)
    idx = _creation.arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences: list, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences of different lengths (pad_sequence, then pack_padded_sequence)."""
    lengths = _creation.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    """The list of sequences in a PackedSequence."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
