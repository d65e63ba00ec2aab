"""minigrad.optim: optimizers that update parameters from their ``.grad`` (torch.optim)."""
from . import lr_scheduler, swa_utils  # noqa: F401  (swa_utils: AveragedModel, SWALR, update_bn)
from .adafactor import Adafactor  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .adamax_adadelta import Adadelta, Adamax  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .muon import Muon  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .radam import RAdam  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .rprop_asgd import ASGD, Rprop  # noqa: F401
from .sgd import SGD  # noqa: F401
from .sparse_adam import SparseAdam  # noqa: F401

# As PyTorch's torch/optim/__init__.py, the optimizers' files are no names of the namespace (``torch.optim.adam``
# is an AttributeError there); they stay importable (``from minigrad.optim import adam``).
del adafactor, adagrad, adam, adamax_adadelta, lbfgs, muon, nadam, optimizer, radam, rmsprop, rprop_asgd, sgd  # noqa: F821
del sparse_adam  # noqa: F821
