"""torch.special's Bessel, Airy and orthogonal-polynomial functions as PyTorch's CPU kernels compute them.

PyTorch (aten/src/ATen/native/Math.h, from the Cephes library) evaluates each element in the input's dtype ``T``
(float32 or float64): rational approximations (Horner sums ``p = p·z + c``), Chebyshev series (the Clenshaw
recurrence ``a = s·q - p + c``), power series run until the term is below machine epsilon, and for the
polynomials their three-term recurrences. The compiled kernels fuse each ``a·b + c`` into one FMA (checked
against PyTorch's bits), and call the C library's ``sin``/``cos``/``exp``/``log``/``acos`` (``sinf`` ... for
float32). Here every formula runs elementwise on NumPy arrays in ``T``, with ``np.where`` for the branches
and masks for the loops whose length differs per element.
"""
from __future__ import annotations

import numpy as np

from ._float_math import libm_double, libm_float
from ._fused import fma

# ---- the C library's functions, for float32 and float64 ------------------------------------------------------
_LIBM = {np.float32: {}, np.float64: {}}
for _name, _np in (("sin", np.sin), ("cos", np.cos), ("exp", np.exp), ("log", np.log), ("acos", np.arccos)):
    _LIBM[np.float32][_name] = libm_float(_name + "f", _np)
    _LIBM[np.float64][_name] = libm_double(_name, _np)
del _name, _np


def _c(name: str, x: np.ndarray) -> np.ndarray:
    """C's ``name`` (``namef`` for float32) of ``x``, elementwise."""
    T = x.dtype.type
    flat = np.ascontiguousarray(x).reshape(-1)
    return np.asarray(_LIBM[T][name](flat), dtype=T).reshape(x.shape)


def _fma(a, b, c, T):
    """a·b + c rounded once (the compiled kernel's FMA)."""
    return np.asarray(fma(a, b, c, T), dtype=T)


def _horner(z: np.ndarray, coefficients, T) -> np.ndarray:
    """Σ cᵢ zⁿ⁻ⁱ by Horner's rule, from 0 (``p = p·z + c`` per coefficient)."""
    p = np.zeros_like(z)
    for c in coefficients:
        p = _fma(p, z, T(c), T)
    return p


def _clenshaw(s: np.ndarray, coefficients, T) -> tuple[np.ndarray, np.ndarray]:
    """Cephes' Chebyshev recurrence ``a = s·q - p + c`` (``chbevl``): the last a and p."""
    a, q = np.full_like(s, T(coefficients[0])), np.zeros_like(s)
    p = q
    for c in coefficients[1:]:
        p, q = q, a
        a = _fma(s, q, -p, T) + T(c)
    return a, p


# ---- Bessel functions of the first and second kind ------------------------------------------------------------
_J0_PP = (7.96936729297347051624e-04, 8.28352392107440799803e-02, 1.23953371646414299388e+00,
          5.44725003058768775090e+00, 8.74716500199817011941e+00, 5.30324038235394892183e+00,
          9.99999999999999997821e-01)
_J0_PQ = (9.24408810558863637013e-04, 8.56288474354474431428e-02, 1.25352743901058953537e+00,
          5.47097740330417105182e+00, 8.76190883237069594232e+00, 5.30605288235394617618e+00,
          1.00000000000000000218e+00)
_J0_QP = (-1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
          -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
          -5.14105326766599330220e+01, -6.05014350600728481186e+00)
_J0_QQ = (6.43178256118178023184e+01, 8.56430025976980587198e+02, 3.88240183605401609683e+03,
          7.24046774195652478189e+03, 5.93072701187316984827e+03, 2.06209331660327847417e+03,
          2.42005740240291393179e+02)
_J0_RP = (-4.79443220978201773821e+09, 1.95617491946556577543e+12, -2.49248344360967716204e+14,
          9.70862251047306323952e+15)
_J0_RQ = (4.99563147152651017219e+02, 1.73785401676374683123e+05, 4.84409658339962045305e+07,
          1.11855537045356834862e+10, 2.11277520115489217587e+12, 3.10518229857422583814e+14,
          3.18121955943204943306e+16, 1.71086294081043136091e+18)
_J1_PP = (7.62125616208173112003e-04, 7.31397056940917570436e-02, 1.12719608129684925192e+00,
          5.11207951146807644818e+00, 8.42404590141772420927e+00, 5.21451598682361504063e+00,
          1.00000000000000000254e+00)
_J1_PQ = (5.71323128072548699714e-04, 6.88455908754495404082e-02, 1.10514232634061696926e+00,
          5.07386386128601488557e+00, 8.39985554327604159757e+00, 5.20982848682361821619e+00,
          9.99999999999999997461e-01)
_J1_QP = (5.10862594750176621635e-02, 4.98213872951233449420e+00, 7.58238284132545283818e+01,
          3.66779609360150777800e+02, 7.10856304998926107277e+02, 5.97489612400613639965e+02,
          2.11688757100572135698e+02, 2.52070205858023719784e+01)
_J1_QQ = (7.42373277035675149943e+01, 1.05644886038262816351e+03, 4.98641058337653607651e+03,
          9.56231892404756170795e+03, 7.99704160447350683650e+03, 2.82619278517639096600e+03,
          3.36093607810698293419e+02)
_J1_RP = (-8.99971225705559398224e+08, 4.52228297998194034323e+11, -7.27494245221818276015e+13,
          3.68295732863852883286e+15)
_J1_RQ = (6.20836478118054335476e+02, 2.56987256757748830383e+05, 8.35146791431949253037e+07,
          2.21511595479792499675e+10, 4.74914122079991414898e+12, 7.84369607876235854894e+14,
          8.95222336184627338078e+16, 5.32278620332680085395e+18)
_Y0_YP = (1.55924367855235737965e+04, -1.46639295903971606143e+07, 5.43526477051876500413e+09,
          -9.82136065717911466409e+11, 8.75906394395366999549e+13, -3.46628303384729719441e+15,
          4.42733268572569800351e+16, -1.84950800436986690637e+16)
_Y0_YQ = (1.04128353664259848412e+03, 6.26107330137134956842e+05, 2.68919633393814121987e+08,
          8.64002487103935000337e+10, 2.02979612750105546709e+13, 3.17157752842975028269e+15,
          2.50596256172653059228e+17)
_Y1_YP = (1.26320474790178026440e+09, -6.47355876379160291031e+11, 1.14509511541823727583e+14,
          -8.12770255501325109621e+15, 2.02439475713594898196e+17, -7.78877196265950026825e+17)
_Y1_YQ = (5.94301592346128195359e+02, 2.35564092943068577943e+05, 7.34811944459721705660e+07,
          1.87601316108706159478e+10, 3.88231277496238566008e+12, 6.20557727146953693363e+14,
          6.87141087355300489866e+16, 3.97270608116560655612e+18)
_PIO4, _3PIO4 = 0.785398163397448309615660845819875721, 2.356194490192344928846982537459627163
_SQ2OPI, _TWOOPI = 0.797884560802865355879892119868763737, 0.636619772367581343075535053490057448


def _far(x, z, pp, pq, qp, qq, shift, use_sin: bool, T):
    """The large-x form of J and Y: (P·cos(x - φ) ∓ (5/x)·Q·sin(x - φ))·√(2/π)/√x (P = pp/pq, Q = qp/qq)."""
    P = _horner(z, pp, T) / _horner(z, pq, T)
    Q = _horner(z, qp, T) / _horner(z, qq, T)
    w = x - T(shift)
    s, c = _c("sin", w), _c("cos", w)
    if use_sin:   # Y: P·sin + (5/x)·Q·cos
        inner = _fma(P, s, (T(5.0) / x) * Q * c, T)
    else:         # J: P·cos - (5/x)·Q·sin
        inner = _fma(P, c, -((T(5.0) / x) * Q * s), T)
    return inner * T(_SQ2OPI) / np.sqrt(x)


def bessel_j0(x: np.ndarray) -> np.ndarray:
    """J₀(x)."""
    T = x.dtype.type
    x = np.abs(x)
    xx = x * x
    near = ((xx - T(5.78318596294678452118e+00)) * (xx - T(3.04712623436620863991e+01))
            * _horner(xx, _J0_RP, T) / _horner(xx, _J0_RQ, T))
    tiny = T(1.0) - xx / T(4.0)
    far = _far(x, T(25.0) / xx, _J0_PP, _J0_PQ, _J0_QP, _J0_QQ, _PIO4, False, T)
    return np.where(x <= T(5.0), np.where(x < T(0.00001), tiny, near), far).astype(T)


def bessel_j1(x: np.ndarray) -> np.ndarray:
    """J₁(x) (odd: J₁(-x) = -J₁(x))."""
    T = x.dtype.type
    sign = np.where(x < T(0.0), T(-1.0), T(1.0))
    x = np.abs(x)
    xx = x * x
    near = (_horner(xx, _J1_RP, T) / _horner(xx, _J1_RQ, T) * x * (xx - T(1.46819706421238932572e+01))
            * (xx - T(4.92184563216946036703e+01)))
    z = T(5.0) / x * (T(5.0) / x)
    far = _far(x, z, _J1_PP, _J1_PQ, _J1_QP, _J1_QQ, _3PIO4, False, T)
    return (sign * np.where(x <= T(5.0), near, far)).astype(T)


def bessel_y0(x: np.ndarray) -> np.ndarray:
    """Y₀(x): -inf at 0, nan below."""
    T = x.dtype.type
    xx = x * x
    near = _fma(T(_TWOOPI) * _c("log", x), bessel_j0(x), _horner(xx, _Y0_YP, T) / _horner(xx, _Y0_YQ, T), T)
    near = np.where(x == T(0.0), T(-np.inf), np.where(x < T(0.0), T(np.nan), near))
    far = _far(x, T(25.0) / xx, _J0_PP, _J0_PQ, _J0_QP, _J0_QQ, _PIO4, True, T)
    return np.where(x <= T(5.0), near, far).astype(T)


def bessel_y1(x: np.ndarray) -> np.ndarray:
    """Y₁(x): -inf at 0, nan below."""
    T = x.dtype.type
    xx = x * x
    correction = T(_TWOOPI) * _fma(bessel_j1(x), _c("log", x), -(T(1.0) / x), T)
    near = _fma(x, _horner(xx, _Y1_YP, T) / _horner(xx, _Y1_YQ, T), correction, T)
    near = np.where(x == T(0.0), T(-np.inf), np.where(x <= T(0.0), T(np.nan), near))
    z = T(5.0) / x * (T(5.0) / x)
    far = _far(x, z, _J1_PP, _J1_PQ, _J1_QP, _J1_QQ, _3PIO4, True, T)
    return np.where(x <= T(5.0), near, far).astype(T)


def spherical_bessel_j0(x: np.ndarray) -> np.ndarray:
    """j₀(x) = sin(x)/x (a Taylor polynomial below |x| = 1/2; 0 at ±inf)."""
    T = x.dtype.type
    xx = x * x
    series = T(1.0) / T(6227020800.0)
    for c in (T(-1.0) / T(39916800.0), T(1.0) / T(362880.0), T(-1.0) / T(5040.0), T(1.0) / T(120.0),
              T(-1.0) / T(6.0), T(1.0)):
        series = _fma(xx, series, c, T)
    out = np.where(np.abs(x) < T(0.5), series, _c("sin", x) / x)
    return np.where(np.isinf(x), T(0.0), out).astype(T)


# ---- modified Bessel functions ---------------------------------------------------------------------------------
_I0_A = (-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
         1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
         -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
         9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-09,
         -1.30002500998624804212e-08, 6.04699502254191894932e-08, -2.67079385394061173391e-07,
         1.11738753912010371815e-06, -4.41673835845875056359e-06, 1.64484480707288970893e-05,
         -5.75419501008210370398e-05, 1.88502885095841655729e-04, -5.76375574538582365885e-04,
         1.63947561694133579842e-03, -4.32430999505057594430e-03, 1.05464603945949983183e-02,
         -2.37374148058994688156e-02, 4.93052842396707084878e-02, -9.49010970480476444210e-02,
         1.71620901522208775349e-01, -3.04682672343198398683e-01, 6.76795274409476084995e-01)
_I0_B = (-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
         3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
         1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
         -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
         7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
         -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
         3.39623202570838634515e-09, 2.26666899049817806459e-08, 2.04891858946906374183e-07,
         2.89137052083475648297e-06, 6.88975834691682398426e-05, 3.36911647825569408990e-03,
         8.04490411014108831608e-01)
_I1_A = (2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
         -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
         3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
         -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-09,
         9.38153738649577178388e-09, -4.44505912879632808065e-08, 2.00329475355213526229e-07,
         -8.56872026469545474066e-07, 3.47025130813767847674e-06, -1.32731636560394358279e-05,
         4.78156510755005422638e-05, -1.61760815825896745588e-04, 5.12285956168575772895e-04,
         -1.51357245063125314899e-03, 4.15642294431288815669e-03, -1.05640848946261981558e-02,
         2.47264490306265168283e-02, -5.29459812080949914269e-02, 1.02643658689847095384e-01,
         -1.76416518357834055153e-01, 2.52587186443633654823e-01)
_I1_B = (7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
         -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
         -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
         4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
         -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
         3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
         -3.83538038596423702205e-09, -2.63146884688951950684e-08, -2.51223623787020892529e-07,
         -3.88256480887769039346e-06, -1.10588938762623716291e-04, -9.76109749136146840777e-03,
         7.78576235018280120474e-01)
_K0_A = (1.37446543561352307156e-16, 4.25981614279661018399e-14, 1.03496952576338420167e-11,
         1.90451637722020886025e-09, 2.53479107902614945675e-07, 2.28621210311945178607e-05,
         1.26461541144692592338e-03, 3.59799365153615016266e-02, 3.44289899924628486886e-01,
         -5.35327393233902768720e-01)
_K0_B = (5.30043377268626276149e-18, -1.64758043015242134646e-17, 5.21039150503902756861e-17,
         -1.67823109680541210385e-16, 5.51205597852431940784e-16, -1.84859337734377901440e-15,
         6.34007647740507060557e-15, -2.22751332699166985548e-14, 8.03289077536357521100e-14,
         -2.98009692317273043925e-13, 1.14034058820847496303e-12, -4.51459788337394416547e-12,
         1.85594911495471785253e-11, -7.95748924447710747776e-11, 3.57739728140030116597e-10,
         -1.69753450938905987466e-09, 8.57403401741422608519e-09, -4.66048989768794782956e-08,
         2.76681363944501510342e-07, -1.83175552271911948767e-06, 1.39498137188764993662e-05,
         -1.28495495816278026384e-04, 1.56988388573005337491e-03, -3.14481013119645005427e-02,
         2.44030308206595545468e+00)
_K1_A = (-7.02386347938628759343e-18, -2.42744985051936593393e-15, -6.66690169419932900609e-13,
         -1.41148839263352776110e-10, -2.21338763073472585583e-08, -2.43340614156596823496e-06,
         -1.73028895751305206302e-04, -6.97572385963986435018e-03, -1.22611180822657148235e-01,
         -3.53155960776544875667e-01, 1.52530022733894777053e+00)
_K1_B = (-5.75674448366501715755e-18, 1.79405087314755922667e-17, -5.68946255844285935196e-17,
         1.83809354436663880070e-16, -6.05704724837331885336e-16, 2.03870316562433424052e-15,
         -7.01983709041831346144e-15, 2.47715442448130437068e-14, -8.97670518232499435011e-14,
         3.34841966607842919884e-13, -1.28917396095102890680e-12, 5.13963967348173025100e-12,
         -2.12996783842756842877e-11, 9.21831518760500529508e-11, -4.19035475934189648750e-10,
         2.01504975519703286596e-09, -1.03457624656780970260e-08, 5.74108412545004946722e-08,
         -3.50196060308781257119e-07, 2.40648494783721712015e-06, -1.93619797416608296024e-05,
         1.95215518471351631108e-04, -2.85781685962277938680e-03, 1.03923736576817238437e-01,
         2.72062619048444266945e+00)


def modified_bessel_i0(x: np.ndarray) -> np.ndarray:
    """I₀(x) (even)."""
    T = x.dtype.type
    ax = np.abs(x)
    a, p = _clenshaw(ax / T(2.0) - T(2.0), _I0_A, T)
    near = _c("exp", ax) * (T(0.5) * (a - p))
    b, p = _clenshaw(T(32.0) / ax - T(2.0), _I0_B, T)
    far = _c("exp", ax) * (T(0.5) * (b - p)) / np.sqrt(ax)
    return np.where(ax <= T(8.0), near, far).astype(T)


def modified_bessel_i1(x: np.ndarray) -> np.ndarray:
    """I₁(x) (odd)."""
    T = x.dtype.type
    ax = np.abs(x)
    a, p = _clenshaw(ax / T(2.0) - T(2.0), _I1_A, T)
    near = T(0.5) * (a - p) * ax * _c("exp", ax)
    b, p = _clenshaw(T(32.0) / ax - T(2.0), _I1_B, T)
    far = _c("exp", ax) * (T(0.5) * (b - p)) / np.sqrt(ax)
    out = np.where(ax <= T(8.0), near, far)
    return np.where(x < T(0.0), -out, out).astype(T)


def calc_i(nu: int, x: np.ndarray, scaled: bool) -> np.ndarray:
    """torch.i0 / special.i0e / special.i1 / special.i1e: PyTorch's calc_i0, calc_i0e, calc_i1, calc_i1e -- the
    same Chebyshev sums as modified_bessel_i0/i1 (A-series of |x|/2 - 2 up to |x| = 8, B-series of 32/|x| - 2 over
    √|x| beyond), times e^|x| unless ``scaled``. For float32 the I1 series are cut to their last 17 and 7
    coefficients (PyTorch's float tables: the rest is below float32's precision)."""
    T = x.dtype.type
    ax = np.abs(x)
    A, B = (_I0_A, _I0_B) if nu == 0 else (_I1_A[12:], _I1_B[18:]) if T is np.float32 else (_I1_A, _I1_B)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a, p = _clenshaw(ax / T(2.0) - T(2.0), A, T)
        b, q = _clenshaw(T(32.0) / ax - T(2.0), B, T)
        near, far = T(0.5) * (a - p), T(0.5) * (b - q)
        if nu == 1:
            near = near * ax if scaled else _c("exp", ax) * ax * near    # (I1 = e^x·x·A(y); I1e = A(y)·x)
        elif not scaled:
            near = _c("exp", ax) * near
        far = (far if scaled else _c("exp", ax) * far) / np.sqrt(ax)
    out = np.where(ax <= T(8.0), near, far)
    return (np.where(x < T(0.0), -out, out) if nu == 1 else out).astype(T)


def calc_i0e_half(x: np.ndarray) -> np.ndarray:
    """special.i0e of float16/bfloat16 on PyTorch's scalar path (a tail shorter than a vector block, strided
    inputs): calc_i0e<T> with T the half type itself, so the coefficients are rounded to it and every step of the
    Chebyshev recurrence b0 = y·b1 - b2 + c is rounded to it (no FMA); beyond |x| = 8 only the last division by
    √|x| is in float (std::sqrt of a half is the float function). Its vector path converts to float instead."""
    T = x.dtype.type
    ax = np.abs(x)

    def chbevl(y, coefficients):
        b0, b1 = np.full_like(y, T(coefficients[0])), np.zeros_like(y)
        b2 = b1
        for c in coefficients[1:]:
            b2, b1 = b1, b0
            b0 = y * b1 - b2 + T(c)     # (NumPy's half arithmetic rounds each operation, as c10::Half's)
        return T(0.5) * (b0 - b2)

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        near = chbevl(ax / T(2.0) - T(2.0), _I0_A)
        far = chbevl(T(32.0) / ax - T(2.0), _I0_B).astype(np.float32) / np.sqrt(ax.astype(np.float32))
    return np.where(ax <= T(8.0), near, far.astype(T))


# ---- the inverse of the normal CDF (calc_ndtri) -----------------------------------------------------------------
_NDTRI_P0 = (-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
             1.39312609387279679503e1, -1.23916583867381258016e0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
             -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
             1.59056225126211695515e1, -1.18331621121330003142e0)
_NDTRI_P1 = (4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
             4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
             -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
             1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
             -3.80806407691578277194e-2, -9.33259480895457427372e-4)
_NDTRI_P2 = (3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
             1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
             3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
             2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
             2.89247864745380683936e-6, 6.79019408009981274425e-9)


def calc_ndtri(y0: np.ndarray) -> np.ndarray:
    """Φ⁻¹(y) as PyTorch's calc_ndtri (Cephes): for |y - 1/2| ≤ 3/8 a rational function of (y - 1/2)², times
    √(2π); in the tails (y below e⁻² = 0.135, or 1 - y) x = √(-2 log y), x - log(x)/x - z·P(z)/Q(z) with z = 1/x
    (two tables, split at x = 8). The tails' ``::log``/``::sqrt`` are C's double functions even for float32
    (the float promoted, each result rounded back on assignment)."""
    T = y0.dtype.type
    one, e2 = T(1.0), T(0.13533528323661269189)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lower = ~(y0 > one - e2)                             # (the upper tail is mirrored: y = 1 - y0)
        y = np.where(lower, y0, one - y0)
        middle = y > e2
        h = y - T(0.5)
        h2 = h * h
        r = h2 * _horner(h2, _NDTRI_P0, T) / _horner(h2, _NDTRI_Q0, T)
        mid = _fma(h, r, h, T) * T(2.50662827463100050242)  # (y + y·r fused)
        ys = np.where(middle | (y <= 0), T(0.5), y).astype(np.float64)
        x = np.sqrt(-2.0 * _c("log", ys)).astype(T)
        x64 = x.astype(np.float64)
        x0 = (x64 - _c("log", x64) / x64).astype(T)
        z = one / x
        x1 = np.where(x < T(8.0), z * _horner(z, _NDTRI_P1, T) / _horner(z, _NDTRI_Q1, T),
                      z * _horner(z, _NDTRI_P2, T) / _horner(z, _NDTRI_Q2, T))
        tail = np.where(lower, x1 - x0, x0 - x1)
        out = np.where(middle, mid, tail)
    out = np.where(y0 == 0, -np.inf, np.where(y0 == 1, np.inf, out))
    return np.where((y0 < 0) | (y0 > 1) | np.isnan(y0), np.nan, out).astype(T)


def _k_series(x, A, B, T):
    """The Chebyshev sums of K₀/K₁: (0.5·(a - p) near 0, 0.5·(b - p) beyond 2)."""
    a, p = _clenshaw(_fma(x, x, -T(2.0), T), A, T)
    b, pb = _clenshaw(T(8.0) / x - T(2.0), B, T)
    return T(0.5) * (a - p), T(0.5) * (b - pb)


def _k_domain(x, out, T):
    """inf at 0, nan below 0."""
    return np.where(x == T(0.0), T(np.inf), np.where(x < T(0.0), T(np.nan), out)).astype(T)


def modified_bessel_k0(x: np.ndarray, scaled: bool = False) -> np.ndarray:
    """K₀(x) (``scaled``: eˣ·K₀(x))."""
    T = x.dtype.type
    near, far = _k_series(x, _K0_A, _K0_B, T)
    if scaled:
        near = _fma(-_c("log", T(0.5) * x), modified_bessel_i0(x), near, T) * _c("exp", x)
        far = far / np.sqrt(x)
    elif T is np.float32:  # (PyTorch's log(0.5 * x) has a double 0.5: this one step runs in double)
        x64 = x.astype(np.float64)
        near = (near.astype(np.float64) - _c("log", 0.5 * x64) * modified_bessel_i0(x).astype(np.float64)).astype(T)
        far = _c("exp", -x) * far / np.sqrt(x)
    else:
        near = _fma(-_c("log", 0.5 * x), modified_bessel_i0(x), near, T)
        far = _c("exp", -x) * far / np.sqrt(x)
    return _k_domain(x, np.where(x <= T(2.0), near, far), T)


def modified_bessel_k1(x: np.ndarray, scaled: bool = False) -> np.ndarray:
    """K₁(x) (``scaled``: eˣ·K₁(x))."""
    T = x.dtype.type
    near, far = _k_series(x, _K1_A, _K1_B, T)
    near = _fma(_c("log", T(0.5) * x), modified_bessel_i1(x), near / x, T)
    if scaled:
        near = near * _c("exp", x)
        far = far / np.sqrt(x)
    else:
        far = _c("exp", -x) * far / np.sqrt(x)
    return _k_domain(x, np.where(x <= T(2.0), near, far), T)


# ---- Airy's Ai ----------------------------------------------------------------------------------------------------
_AI_AN = (3.46538101525629032477e-01, 1.20075952739645805542e+01, 7.62796053615234516538e+01,
          1.68089224934630576269e+02, 1.59756391350164413639e+02, 7.05360906840444183113e+01,
          1.40264691163389668864e+01, 9.99999999999999995305e-01)
_AI_AD = (5.67594532638770212846e-01, 1.47562562584847203173e+01, 8.45138970141474626562e+01,
          1.77318088145400459522e+02, 1.64234692871529701831e+02, 7.14778400825575695274e+01,
          1.40959135607834029598e+01, 1.00000000000000000470e+00)
_AI_AFN = (-1.31696323418331795333e-01, -6.26456544431912369773e-01, -6.93158036036933542233e-01,
           -2.79779981545119124951e-01, -4.91900132609500318020e-02, -4.06265923594885404393e-03,
           -1.59276496239262096340e-04, -2.77649108155232920844e-06, -1.67787698489114633780e-08)
_AI_AFD = (1.33560420706553243746e+01, 3.26825032795224613948e+01, 2.67367040941499554804e+01,
           9.18707402907259625840e+00, 1.47529146771666414581e+00, 1.15687173795188044134e-01,
           4.40291641615211203805e-03, 7.54720348287414296618e-05, 4.51850092970580378464e-07)
_AI_AGN = (1.97339932091685679179e-02, 3.91103029615688277255e-01, 1.06579897599595591108e+00,
           9.39169229816650230044e-01, 3.51465656105547619242e-01, 6.33888919628925490927e-02,
           5.85804113048388458567e-03, 2.82851600836737019778e-04, 6.98793669997260967291e-06,
           8.11789239554389293311e-08, 3.41551784765923618484e-10)
_AI_AGD = (9.30892908077441974853e+00, 1.98352928718312140417e+01, 1.55646628932864612953e+01,
           5.47686069422975497931e+00, 9.54293611618961883998e-01, 8.64580826352392193095e-02,
           4.12656523824222607191e-03, 1.01259085116509135510e-04, 1.17166733214413521882e-06,
           4.91834570062930015649e-09)


def airy_ai(x: np.ndarray) -> np.ndarray:
    """Ai(x): an asymptotic form left of -2.09 and right of 2.09, the power series between."""
    if x.ndim == 0:  # (the series loop below updates masks in place: NumPy's 0-d comparisons give scalars)
        return airy_ai(x.reshape(1)).reshape(())
    T = x.dtype.type
    # left: oscillating, 1/(π^½ (-x)^¼)·(sin t·(1 + z²·F) - cos t·z·G), t = ζ + π/4, z = 1/ζ, ζ = (2/3)(-x)^(3/2)
    root = np.sqrt(-x)
    zeta = T(-2.0) * x * root / T(3.0)
    z = T(1.0) / zeta
    zz = z * z
    f = zz * _horner(zz, _AI_AFN, T) / _horner(zz, _AI_AFD, T) + T(1.0)
    g = z * _horner(zz, _AI_AGN, T) / _horner(zz, _AI_AGD, T)
    t = zeta + T(0.25) * T(np.pi)
    left = T(5.64189583547756286948e-01) / np.sqrt(root) * _fma(_c("sin", t), f, -(_c("cos", t) * g), T)
    # right: decaying, (an/ad)/(2 π^½ x^¼ e^ζ), ζ = (2/3) x^(3/2)
    zeta = T(2.0) * x * np.sqrt(x) / T(3.0)
    w = T(1.0) / zeta
    right = (T(5.64189583547756286948e-01) * (_horner(w, _AI_AN, T) / _horner(w, _AI_AD, T))
             / (T(2.0) * np.sqrt(np.sqrt(x)) * _c("exp", zeta)))
    # middle: Ai = c1·f - c2·g with the Maclaurin series f, g (summed until a term is below epsilon)
    mid = (x >= T(-2.09)) & (x < T(2.09))
    f, g, k = np.ones_like(x), x.copy(), np.ones_like(x)
    m, n, z3 = np.ones_like(x), x.copy(), x * x * x
    todo = mid.copy()
    eps = np.finfo(T).eps
    while todo.any():
        xs = z3[todo]
        mm, nn, kk = m[todo] * xs, n[todo] * xs, k[todo] + T(1.0)
        mm = mm / kk
        kk = kk + T(1.0)
        nn = nn / kk
        mm = mm / kk
        ff = f[todo] + mm
        kk = kk + T(1.0)
        nn = nn / kk
        gg = g[todo] + nn
        m[todo], n[todo], k[todo], f[todo], g[todo] = mm, nn, kk, ff, gg
        todo[todo] = np.abs(mm / ff) > eps
    middle = _fma(T(0.355028053887817239260), f, -(T(0.258819403792806798405) * g), T)
    out = np.where(x < T(-2.09), left, np.where(x >= T(2.09), right, middle))
    out = np.where(x > T(103.892), T(0.0), out)
    return np.where(np.isinf(x), T(np.nan), out).astype(T)


# ---- orthogonal polynomials: p = P_k, q = P_{k+1} ... by their three-term recurrences -------------------------------

def degrees(n: np.ndarray) -> np.ndarray:
    """A float degree as PyTorch's kernel casts it to int64 (nan, ±inf and out-of-range values: INT64_MIN)."""
    if n.dtype.kind in "iub":
        return n.astype(np.int64)
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(n) & (np.abs(n) < 2.0 ** 63)
        return np.where(ok, np.trunc(np.where(ok, n, 0)), np.iinfo(np.int64).min).astype(np.int64)


def _broadcast(x, n):
    x, n = np.broadcast_arrays(x, n)
    return x.copy(), n.copy()


def chebyshev(kind: str, x: np.ndarray, n: np.ndarray, shifted: bool = False) -> np.ndarray:
    """Chebyshev polynomials T, U, V, W of degree n at x (``shifted``: at 2x - 1)."""
    T = x.dtype.type
    x, n = _broadcast(x, n)
    y = x + x - T(1.0) if shifted else x          # the variable of the unshifted polynomial
    two_y = y + y
    nT = n.astype(T)
    with np.errstate(all="ignore"):
        # large degrees inside (-1, 1) take the trigonometric form below, the ends ±1 their values: the
        # recurrence r = 2y·q - p from P₀ = 1 and P₁ runs for the others only
        limit = {"t": 6, "u": 8, "v": 8, "w": 8} if not shifted else {"t": 6, "u": 6, "v": 6, "w": 4}
        inside = (n > limit[kind]) & (np.abs(y) < T(1.0))
        ends = (x == T(0.0)) | (x == T(1.0)) if shifted else np.abs(y) == T(1.0)
        first = {"t": y, "u": two_y, "v": two_y - T(1.0), "w": two_y + T(1.0)}[kind]
        p, q = np.ones_like(y), first.copy()
        r = np.full_like(y, T(np.nan))
        todo = (n >= 2) & ~np.isnan(q) & ~inside & ~ends
        k = 2
        while todo.any():
            rk = _fma(two_y[todo], q[todo], -p[todo], T)
            r[todo] = rk
            p[todo], q[todo] = q[todo], rk
            k += 1
            todo &= (k <= n) & ~np.isnan(q)
        out = np.where(n == 0, T(1.0), np.where(n == 1, first, r))
        # large degrees inside (-1, 1): the trigonometric form, with θ = acos(y)
        theta = _c("acos", y)
        odd = n % 2 != 0
        if kind == "t":
            trig = _c("cos", nT * theta)
        elif kind == "u":
            s = _c("sin", theta)
            n1 = (n + 1).astype(T)
            trig = np.where(s != T(0.0), _c("sin", n1 * theta) / s, n1 * _c("cos", n1 * theta) / y)
        elif kind == "v":
            half = theta / T(2.0)
            trig = np.where(_c("sin", half) != T(1.0), _c("cos", (nT + T(0.5)) * theta) / _c("cos", half),
                            np.where(odd, -(2 * n + 1).astype(T), (2 * n + 1).astype(T)))
        else:
            half = theta / T(2.0)
            edge = np.where(y > T(0.0), (2 * n + 1).astype(T), np.where(odd, T(-1.0), T(1.0)))
            if shifted:
                edge = np.where(odd, T(-1.0), T(1.0))
            trig = np.where(_c("cos", half) != T(1.0), _c("sin", (nT + T(0.5)) * theta) / _c("sin", half), edge)
        out = np.where(inside, trig, out)
        # the ends: y = ±1 (x = 1 or 0 when shifted)
        n1, n21 = (n + 1).astype(T), (2 * n + 1).astype(T)
        if kind == "t":
            hi, lo = T(1.0), np.where(odd, T(-1.0), T(1.0))
        elif kind == "u":
            hi, lo = n1, np.where(odd, -n1, n1)
        elif kind == "v":
            hi, lo = T(1.0), np.where(odd, -n21, n21)
        else:
            hi, lo = n21, np.where(odd, T(-1.0), T(1.0))
        if shifted:
            out = np.where(x == T(0.0), lo, out)
            out = np.where(x == T(1.0), hi, out)
        else:
            out = np.where(np.abs(y) == T(1.0), np.where(y > T(0.0), hi, lo), out)
        return np.where(n < 0, T(0.0), out).astype(T)


def hermite(x: np.ndarray, n: np.ndarray, physicists: bool) -> np.ndarray:
    """Hermite polynomials H (physicists': H_{k+1} = 2x·H_k - 2k·H_{k-1}) or He (He_{k+1} = x·He_k - k·He_{k-1})."""
    T = x.dtype.type
    x, n = _broadcast(x, n)
    with np.errstate(all="ignore"):
        first = x + x if physicists else x.copy()
        p, q = np.ones_like(x), first.copy()
        r = np.zeros_like(x) if physicists else np.full_like(x, T(np.nan))
        k = 2 if physicists else 1
        todo = (k < (n + n if physicists else n)) & (n > 1)
        while todo.any():
            kp = T(k) * p[todo]
            rk = _fma(first[todo], q[todo], -kp, T)   # (x + x)·q - k·p, or x·q - k·p
            r[todo] = rk
            p[todo], q[todo] = q[todo], rk
            k += 2 if physicists else 1
            todo &= k < (n + n if physicists else n)
        limit = 128 if T is np.float32 else 512
        out = np.where(n > limit, T(np.nan), r)
        out = np.where(n == 1, first, np.where(n == 0, T(1.0), out))
        return np.where(n < 0, T(0.0), out).astype(T)


def laguerre(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Laguerre polynomials: L_{k+1} = ((2k + 1 - x)·L_k - k·L_{k-1}) / (k + 1)."""
    T = x.dtype.type
    x, n = _broadcast(x, n)
    with np.errstate(all="ignore"):
        one_minus = T(1.0) - x
        p, q = np.ones_like(x), one_minus.copy()
        r = np.full_like(x, T(np.nan))
        k = 1
        todo = (k < n) & ~np.isnan(q)
        while todo.any():
            rk = _fma(T(k + k) + one_minus[todo], q[todo], -(T(k) * p[todo]), T) / T(k + 1)
            r[todo] = rk
            p[todo], q[todo] = q[todo], rk
            k += 1
            todo &= (k < n) & ~np.isnan(q)
        out = np.where(n == 1, one_minus, np.where(n == 0, T(1.0), r))
        out = np.where(np.abs(x) == T(0.0), T(1.0), out)
        return np.where(n < 0, T(0.0), out).astype(T)


def legendre(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Legendre polynomials: P_{k+1} = ((2k + 1)·x·P_k - k·P_{k-1}) / (k + 1)."""
    T = x.dtype.type
    x, n = _broadcast(x, n)
    with np.errstate(all="ignore"):
        p, q = np.ones_like(x), x.copy()
        r = np.full_like(x, T(np.nan))
        k = 1
        todo = (k < n) & ~np.isnan(q)
        while todo.any():
            rk = _fma(T(k + k + 1) * x[todo], q[todo], -(T(k) * p[todo]), T) / T(k + 1)
            r[todo] = rk
            p[todo], q[todo] = q[todo], rk
            k += 1
            todo &= (k < n) & ~np.isnan(q)
        out = np.where(n == 1, x, np.where(n == 0, T(1.0), r))
        out = np.where(np.abs(x) == T(1.0), np.where((x > T(0.0)) | (n % 2 == 0), T(1.0), T(-1.0)), out)
        return np.where(n < 0, T(0.0), out).astype(T)


# ---- Hurwitz's zeta ------------------------------------------------------------------------------------------------

def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """ζ(x, q) = Σₖ (q + k)⁻ˣ, as PyTorch's ``zeta`` (Cephes): summed in double (float32 too), ±inf/nan at the
    poles and outside the domain. The sum itself is _polygamma's, run once per distinct x."""
    from ._polygamma import _zeta
    T = x.dtype.type
    x, q = np.broadcast_arrays(x, q)
    out = np.full(x.shape, np.nan, dtype=np.float64)
    with np.errstate(all="ignore"):
        x_int = x == np.floor(x)
        q_int = q == np.floor(q)
        # (in PyTorch's order) x = 1: inf; x < 1: nan; q <= 0: inf at the integers, nan for a non-integer x
        rest = ~(x == T(1.0)) & ~(x < T(1.0))
        pole = rest & (q <= T(0.0)) & q_int
        out[(x == T(1.0)) | pole] = np.inf
        run = rest & ~pole & ~((q <= T(0.0)) & ~x_int) & ~np.isnan(x)   # (a nan x: nan)
        for value in np.unique(x[run]):
            where = run & (x == value)
            out[where] = _zeta(float(value), q[where], T, np.float64)
    return out.astype(T)
