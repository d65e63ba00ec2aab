"""The signatures of torch.linalg, torch.fft and torch.special functions as PyTorch's argument parser prints them.

PyTorch binds these functions in C++ (``linalg_solve_ex``, ``fft_rfft``, ``special_xlogy`` ...): before anything
runs, its parser (torch/csrc/utils/python_arg_parser.cpp) matches the call against these overloads and raises its
own TypeErrors -- ``linalg_solve_ex() missing 1 required positional arguments: "B"``. _arg_errors.parsed_function
puts the same parser in front of minigrad's Python functions. The strings are PyTorch's: a function with several
overloads lists them in this order in its "invalid combination of arguments" error; a single overload is PyTorch's
native schema (native_functions.yaml) as the parser prints it (``self`` is ``input``, ``Scalar`` is ``Number``,
``int[]`` is ``tuple of ints``, the ``.out`` overload adds ``out``).
"""

_UNARY = "(Tensor input, *, Tensor out = None)"
_UNARY_X = "(Tensor x, *, Tensor out = None)"
# (a factory's Python binding adds requires_grad; pin_memory and requires_grad take None)
_FACTORY_OPTIONS = ("*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
                    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)")
_NORM_OPTIONS = "*, torch.dtype dtype = None, Tensor out = None)"

LINALG = {
    "cholesky": ("(Tensor input, *, bool upper = False, Tensor out = None)",),
    "cholesky_ex": ("(Tensor input, *, bool upper = False, bool check_errors = False, tuple of Tensors out = None)",),
    "cond": ("(Tensor input, Number p = None, *, Tensor out = None)", "(Tensor input, str p, *, Tensor out = None)"),
    "cross": ("(Tensor input, Tensor other, *, int dim = -1, Tensor out = None)",),
    "det": ("(Tensor A, *, Tensor out = None)",),
    "diagonal": ("(Tensor A, *, int offset = 0, int dim1 = -2, int dim2 = -1)",),
    "eig": ("(Tensor input, *, tuple of Tensors out = None)",),
    "eigh": ('(Tensor input, str UPLO = "L", *, tuple of Tensors out = None)',),
    "eigvals": (_UNARY,),
    "eigvalsh": ('(Tensor input, str UPLO = "L", *, Tensor out = None)',),
    "householder_product": ("(Tensor input, Tensor tau, *, Tensor out = None)",),
    "inv": ("(Tensor A, *, Tensor out = None)",),
    "inv_ex": ("(Tensor A, *, bool check_errors = False, tuple of Tensors out = None)",),
    "ldl_factor": ("(Tensor input, *, bool hermitian = False, tuple of Tensors out = None)",),
    "ldl_factor_ex": (
        "(Tensor input, *, bool hermitian = False, bool check_errors = False, tuple of Tensors out = None)",),
    "ldl_solve": ("(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian = False, Tensor out = None)",),
    "lstsq": ("(Tensor input, Tensor b, float rcond = None, *, str driver = None, tuple of Tensors out = None)",),
    "lu": ("(Tensor A, *, bool pivot = True, tuple of Tensors out = None)",),
    "lu_factor": ("(Tensor A, *, bool pivot = True, tuple of Tensors out = None)",),
    "lu_factor_ex": ("(Tensor A, *, bool pivot = True, bool check_errors = False, tuple of Tensors out = None)",),
    "lu_solve": ("(Tensor LU, Tensor pivots, Tensor B, *, bool left = True, bool adjoint = False, Tensor out = None)",),
    "matmul": ("(Tensor input, Tensor other, *, Tensor out = None)",),
    "matrix_exp": ("(Tensor input)",),  # (its .out overload is not bound in Python)
    "matrix_norm": (
        "(Tensor input, Number ord, tuple of ints dim = {-2,-1}, bool keepdim = False, " + _NORM_OPTIONS,
        '(Tensor input, str ord = "fro", tuple of ints dim = {-2,-1}, bool keepdim = False, ' + _NORM_OPTIONS),
    "matrix_power": ("(Tensor input, int n, *, Tensor out = None)",),
    "matrix_rank": (
        "(Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, Tensor out = None)",
        "(Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, Tensor out = None)",
        "(Tensor input, Tensor tol, bool hermitian = False, *, Tensor out = None)",
        "(Tensor input, float tol, bool hermitian = False, *, Tensor out = None)"),
    "multi_dot": ("(tuple of Tensors tensors, *, Tensor out = None)",),
    "norm": (
        "(Tensor input, Number ord = None, tuple of ints dim = None, bool keepdim = False, " + _NORM_OPTIONS,
        "(Tensor input, str ord, tuple of ints dim = None, bool keepdim = False, " + _NORM_OPTIONS),
    "pinv": (
        "(Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, Tensor out = None)",
        "(Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, Tensor out = None)",
        "(Tensor input, Tensor rcond, bool hermitian = False, *, Tensor out = None)",
        "(Tensor input, float rcond, bool hermitian = False, *, Tensor out = None)"),
    "qr": ('(Tensor A, str mode = "reduced", *, tuple of Tensors out = None)',),
    "slogdet": ("(Tensor A, *, tuple of Tensors out = None)",),
    "solve": ("(Tensor A, Tensor B, *, bool left = True, Tensor out = None)",),
    "solve_ex": ("(Tensor A, Tensor B, *, bool left = True, bool check_errors = False, tuple of Tensors out = None)",),
    "solve_triangular": (
        "(Tensor input, Tensor B, *, bool upper, bool left = True, bool unitriangular = False, Tensor out = None)",),
    "svd": ("(Tensor A, bool full_matrices = True, *, str driver = None, tuple of Tensors out = None)",),
    "svdvals": ("(Tensor A, *, str driver = None, Tensor out = None)",),
    "tensorinv": ("(Tensor input, int ind = 2, *, Tensor out = None)",),
    "tensorsolve": ("(Tensor input, Tensor other, tuple of ints dims = None, *, Tensor out = None)",),
    "vander": ("(Tensor x, *, int N = None)",),
    "vecdot": ("(Tensor x, Tensor y, *, int dim = -1, Tensor out = None)",),
    "vector_norm": (
        "(Tensor input, Number ord = 2, tuple of ints dim = None, bool keepdim = False, " + _NORM_OPTIONS,),
}
FFT = {
    "fft": ("(Tensor input, int n = None, int dim = -1, str norm = None, *, Tensor out = None)",),
    "fft2": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = {-2,-1}, str norm = None, *, Tensor out = None)",),
    "fftfreq": (
        "(int n, float d = 1., " + _FACTORY_OPTIONS,),
    "fftn": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = None, str norm = None, *, Tensor out = None)",),
    "fftshift": ("(Tensor input, tuple of ints dim = None)",),
    "hfft": ("(Tensor input, int n = None, int dim = -1, str norm = None, *, Tensor out = None)",),
    "hfft2": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = {-2,-1}, str norm = None, *, Tensor out = None)",),
    "hfftn": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = None, str norm = None, *, Tensor out = None)",),
    "ifft": ("(Tensor input, int n = None, int dim = -1, str norm = None, *, Tensor out = None)",),
    "ifft2": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = {-2,-1}, str norm = None, *, Tensor out = None)",),
    "ifftn": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = None, str norm = None, *, Tensor out = None)",),
    "ifftshift": ("(Tensor input, tuple of ints dim = None)",),
    "ihfft": ("(Tensor input, int n = None, int dim = -1, str norm = None, *, Tensor out = None)",),
    "ihfft2": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = {-2,-1}, str norm = None, *, Tensor out = None)",),
    "ihfftn": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = None, str norm = None, *, Tensor out = None)",),
    "irfft": ("(Tensor input, int n = None, int dim = -1, str norm = None, *, Tensor out = None)",),
    "irfft2": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = {-2,-1}, str norm = None, *, Tensor out = None)",),
    "irfftn": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = None, str norm = None, *, Tensor out = None)",),
    "rfft": ("(Tensor input, int n = None, int dim = -1, str norm = None, *, Tensor out = None)",),
    "rfft2": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = {-2,-1}, str norm = None, *, Tensor out = None)",),
    "rfftfreq": (
        "(int n, float d = 1., " + _FACTORY_OPTIONS,),
    "rfftn": (
        "(Tensor input, tuple of ints s = None, tuple of ints dim = None, str norm = None, *, Tensor out = None)",),
}
SPECIAL = {
    "airy_ai": (_UNARY_X,),
    "bessel_j0": (_UNARY,),
    "bessel_j1": (_UNARY,),
    "bessel_y0": (_UNARY,),
    "bessel_y1": (_UNARY,),
    "chebyshev_polynomial_t": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "chebyshev_polynomial_u": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "chebyshev_polynomial_v": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "chebyshev_polynomial_w": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "digamma": (_UNARY,),
    "entr": (_UNARY,),
    "erf": (_UNARY,),
    "erfc": (_UNARY,),
    "erfcx": (_UNARY,),
    "erfinv": (_UNARY,),
    "exp2": (_UNARY,),
    "expit": (_UNARY,),
    "expm1": (_UNARY,),
    "gammainc": ("(Tensor input, Tensor other, *, Tensor out = None)",),
    "gammaincc": ("(Tensor input, Tensor other, *, Tensor out = None)",),
    "gammaln": (_UNARY,),
    "hermite_polynomial_h": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "hermite_polynomial_he": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "i0": (_UNARY,),
    "i0e": (_UNARY,),
    "i1": (_UNARY,),
    "i1e": (_UNARY,),
    "laguerre_polynomial_l": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "legendre_polynomial_p": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "log1p": (_UNARY,),
    "log_ndtr": (_UNARY,),
    "log_softmax": ("(Tensor input, int dim, *, torch.dtype dtype = None)",),
    "logit": ("(Tensor input, float eps = None, *, Tensor out = None)",),
    "logsumexp": ("(Tensor input, tuple of ints dim, bool keepdim = False, *, Tensor out = None)",),
    "modified_bessel_i0": (_UNARY,),
    "modified_bessel_i1": (_UNARY,),
    "modified_bessel_k0": (_UNARY,),
    "modified_bessel_k1": (_UNARY,),
    "multigammaln": ("(Tensor input, int p, *, Tensor out = None)",),
    "ndtr": (_UNARY,),
    "ndtri": (_UNARY,),
    "polygamma": ("(int n, Tensor input, *, Tensor out = None)",),
    "psi": (_UNARY,),
    "round": ("(Tensor input, *, int decimals = 0, Tensor out = None)",),
    "scaled_modified_bessel_k0": (_UNARY_X,),
    "scaled_modified_bessel_k1": (_UNARY_X,),
    "shifted_chebyshev_polynomial_t": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "shifted_chebyshev_polynomial_u": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "shifted_chebyshev_polynomial_v": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "shifted_chebyshev_polynomial_w": (
        "(Tensor x, Tensor n, *, Tensor out = None)",
        "(Number x, Tensor n, *, Tensor out = None)",
        "(Tensor x, Number n, *, Tensor out = None)"),
    "sinc": (_UNARY,),
    "softmax": ("(Tensor input, int dim, torch.dtype dtype = None)",),
    "spherical_bessel_j0": (_UNARY_X,),
    "xlog1py": (
        "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Number self, Tensor other, *, Tensor out = None)",
        "(Tensor input, Number other, *, Tensor out = None)"),
    "xlogy": (
        "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Number self, Tensor other, *, Tensor out = None)",
        "(Tensor input, Number other, *, Tensor out = None)"),
    "zeta": (
        "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Number self, Tensor other, *, Tensor out = None)",
        "(Tensor input, Number other, *, Tensor out = None)"),
}
