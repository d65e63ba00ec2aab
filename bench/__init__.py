"""Benchmarks: ``python -m bench`` (see ``bench/__main__.py``); not part of the minigrad package."""
