"""TEMPORARY: nn/functional.py still imports xlogy from here; removed once it imports _ops_math."""
from ._ops_math import xlogy  # noqa: F401
