"""minigrad.nn: layers, losses and the functional API (torch.nn's autograd-relevant part)."""
from . import functional  # noqa: F401
from . import init  # noqa: F401
from . import utils  # noqa: F401
from .modules import (  # noqa: F401
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, Flatten, GELU, Identity, L1Loss, LeakyReLU, Linear,
    LogSoftmax, Module, ModuleList, MSELoss, NLLLoss, ReLU, Sequential, Sigmoid, SiLU, Softmax, Tanh,
)
from .modules import (  # noqa: F401
    CELU, ELU, SELU, CosineSimilarity, Embedding, Hardsigmoid, Hardswish, Hardtanh, HuberLoss, KLDivLoss,
    LayerNorm, LogSigmoid, Mish, ModuleDict, PairwiseDistance, ParameterDict, ParameterList, ReLU6, SmoothL1Loss,
    Softmin, Softplus, Softsign, Tanhshrink,
)
from .parameter import Parameter  # noqa: F401
