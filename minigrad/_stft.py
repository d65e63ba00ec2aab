"""torch.stft and torch.istft, composed of tensor ops exactly as PyTorch composes them (SpectralOps.cpp), so
their graphs are PyTorch's: stft = pad, frame (as_strided), window, _fft_r2c, transpose_; istft = _fft_c2r,
window, overlap-add (unfold_backward), divide by the summed squared window.
"""
from __future__ import annotations

from . import _ops
from . import derivatives as D
from ._tensor import Tensor
from ._warn_once import warn_once
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast

_SOURCE = " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:{}.)"


def _warn_once(message: str, line: int) -> None:
    """PyTorch's TORCH_WARN_ONCE at ``line`` of SpectralOps.cpp: each of these warnings shows once per process."""
    warn_once(f"SpectralOps.cpp:{line}", message + _SOURCE.format(line))


def _describe(t: Tensor | None, braces: bool = True) -> str:
    """How PyTorch's error messages show a tensor argument: torch.FloatTensor{[8]} (or [40] without braces)."""
    if t is None:
        return "None"
    shape = str(list(t.shape))
    return _ops._tensor_type_name(t.dtype) + ("{" + shape + "}" if braces else shape)


def _flag(value) -> str:
    return "None" if value is None else str(int(value))


def stft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided: bool | None = None, return_complex: bool | None = None,
         align_to_window: bool | None = None) -> Tensor:
    """Short-time Fourier transform: the FFT of each windowed frame, (n_fft/2 + 1 or n_fft) × frames."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("stft", stft, **locals())
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:   # (PyTorch's Python part: pad n_fft // 2 on both sides, as a 3-D tensor)
        from .nn import functional as F
        signal_dim = input.dim()
        pad = int(n_fft // 2)
        input = F.pad(input.view([1] * (3 - signal_dim) + list(input.shape)), [pad, pad], pad_mode)
        input = input.view(input.shape[-signal_dim:])
    return _stft(input, n_fft, hop_length, win_length, window, normalized, onesided, return_complex, align_to_window)


def _stft(x: Tensor, n_fft: int, hop_length, win_length, window, normalized, onesided, return_complex,
          align_to_window) -> Tensor:
    """PyTorch's C++ stft (the frames of an already padded signal)."""
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if window is None:
        _warn_once("A window was not provided. A rectangular window will be applied,which is known to cause "
                   "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
                   "recommended to reduce spectral leakage.To suppress this warning and use a rectangular window, "
                   "explicitly set `window=torch.ones(n_fft, device=<device>)`.", 835)
    if return_complex is None:
        if not (x.dtype.is_complex or (window is not None and window.dtype.is_complex)):
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                               "require that return_complex=True in a future PyTorch release.")
        return_complex = True
    if not return_complex:
        _warn_once("stft with return_complex=False is deprecated. In a future pytorch release, stft will return "
                   "complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can "
                   "still call torch.view_as_real on the complex output to recover the old return format.", 874)
    prefix = (f"stft({_describe(x, False)}, n_fft={n_fft}, hop_length={hop}, win_length={win}, "
              f"window={_describe(window)}, normalized={int(normalized)}, onesided={_flag(onesided)}, "
              f"return_complex={int(return_complex)}, align_to_window={_flag(align_to_window)}) : ")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(prefix + "expected a tensor of floating point or complex values")
    if x.dim() not in (1, 2):
        raise RuntimeError(prefix + "expected a 1D or 2D tensor")
    frames_in = x.unsqueeze(0) if x.dim() == 1 else x
    batch, length = frames_in.shape
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(prefix + f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(prefix + f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(prefix + f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(prefix + f"expected a 1D window tensor of size equal to win_length={win}, but got "
                           f"window with size {list(window.shape)}")
    full_window = window
    if win < n_fft:   # the window centred in n_fft zeros (a CopySlices node when the window requires grad)
        from . import _creation
        left = (n_fft - win) // 2
        full_window = _creation.zeros(n_fft, dtype=(x if window is None else window).dtype)
        if window is None:
            full_window.narrow(0, left, win).fill_(1)
        else:
            full_window.narrow(0, left, win).copy_(window)
    if align_to_window:   # frames start where their window does: pad the signal by the window's offset
        left = (n_fft - win) // 2
        frames_in = D.constant_pad_nd(frames_in, pad=(left, n_fft - win - left), value=0.0)
        length = frames_in.shape[1]
    n_frames = 1 + (length - n_fft) // hop
    stride = frames_in.stride()
    frames = frames_in.as_strided((batch, n_frames, n_fft), (stride[0], hop * stride[1], stride[1]))
    if full_window is not None:
        frames = frames.mul(full_window)
    complex_fft = frames.dtype.is_complex
    one_sided = (not complex_fft) if onesided is None else bool(onesided)
    if complex_fft and one_sided:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    normalization = 1 if normalized else 0   # by_root_n or none
    if complex_fft:
        out = D.fft_c2c(frames, dim=(2,), normalization=normalization, forward=True)
    else:
        out = D.fft_r2c(frames, dim=(2,), normalization=normalization, onesided=one_sided)
    out.transpose_(1, 2)
    if x.dim() == 1:
        out.squeeze_(0)
    return out if return_complex else _ops.view_as_real(out)


def istft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
          window: Tensor | None = None, center: bool = True, normalized: bool = False, onesided: bool | None = None,
          length: int | None = None, return_complex: bool = False) -> Tensor:
    """Inverse short-time Fourier transform: inverse FFT of each frame, windowed, overlap-added, divided by the
    summed squared window."""
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not input.dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    kind = {"complex64": "ComplexFloat", "complex128": "ComplexDouble", "complex32": "ComplexHalf"}[
        str(input.dtype).replace("torch.", "")]
    prefix = (f"istft(CPU{kind}Type{list(input.shape)}, n_fft={n_fft}, hop_length={hop}, win_length={win}, "
              f"window={_describe(window)}, center={int(center)}, normalized={int(normalized)}, "
              f"onesided={_flag(onesided)}, length={'None' if length is None else length}, "
              f"return_complex={int(return_complex)})")
    x = _ops.view_as_real(input.resolve_conj())
    x_dim = x.dim()
    n_frames, fft_size = x.shape[-2], x.shape[-3]
    expected_len = n_fft + hop * (n_frames - 1)
    if x.numel() == 0:
        raise RuntimeError(prefix + " : istft input tensor cannot be empty")
    if x_dim not in (3, 4):
        raise RuntimeError(prefix + f" : expected a tensor with 3 or 4 dimensions of complex, but got {x_dim}")
    one_sided = (fft_size != n_fft) if onesided is None else bool(onesided)
    if one_sided and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(prefix + " : expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not one_sided and n_fft != fft_size:
        raise RuntimeError(prefix + " : expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win:
        raise RuntimeError(prefix + " : expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise RuntimeError(prefix + " : expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(prefix + " : Invalid window shape. window has to be 1D and length of `win_length`")
    if window is None:
        from . import _creation
        _warn_once("A window was not provided. A rectangular window will be applied.Please provide the same window "
                   "used by stft to make the inversion lossless.To suppress this warning and use a rectangular "
                   "window, explicitly set `window=torch.ones(n_fft, device=<device>)`.", 1035)
        window_tmp = _creation.ones(win, dtype=x.dtype)
    else:
        window_tmp = window
    if win != n_fft:   # centred in zeros
        left = (n_fft - win) // 2
        window_tmp = D.constant_pad_nd(window_tmp, pad=(left, n_fft - win - left), value=0.0)
    if x_dim == 3:
        x = x.unsqueeze(0)
    frames = _ops.view_as_complex(x.transpose(1, 2))
    normalization = 1 if normalized else 2   # by_root_n or by_n
    if return_complex:
        if one_sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = D.fft_c2c(frames, dim=(2,), normalization=normalization, forward=False)
    else:
        if window is not None and window.dtype.is_complex:
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not one_sided:
            frames = frames.narrow(-1, 0, n_fft // 2 + 1)
        frames = D.fft_c2r(frames, dim=(2,), normalization=normalization, last_dim_size=n_fft)
    y_tmp = frames * window_tmp.view(1, 1, n_fft)
    y = D.unfold_backward(y_tmp, input_sizes=(y_tmp.shape[0], expected_len), dim=1, size=n_fft, step=hop)
    squares = window_tmp.pow(2).expand(1, n_frames, n_fft)
    envelope = D.unfold_backward(squares, input_sizes=(1, expected_len), dim=1, size=n_fft, step=hop)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = -(n_fft // 2) if center else expected_len
    y = D.slice(y, dim=1, start=start, end=end, step=1)   # (a node even when it keeps everything, as PyTorch's)
    envelope = D.slice(envelope, dim=1, start=start, end=end, step=1)   # (likewise: SliceBackward0, no alias)
    if bool((envelope.abs().min() < 1e-11).item()):
        raise RuntimeError(prefix + " window overlap add min: 1\n[ CPUBoolType{} ]")
    y = y / envelope
    if x_dim == 3:
        y = y.squeeze(0)
    if end > expected_len:
        _warn_once("The length of signal is shorter than the length parameter. Result is being padded with zeros in "
                   "the tail. Please check your center and hop_length settings.", 1199)
        y = D.constant_pad_nd(y, pad=(0, end - expected_len), value=0.0)
    return y
