"""Numba kernels: functions over ints and NumPy arrays, no validation, no exceptions.

Importing the package clears Numba's cache of the kernels when any of their modules changed
(:mod:`fastttt.kernels.stale_cache`)."""

from pathlib import Path

from fastttt.kernels.stale_cache import clear_if_stale

clear_if_stale(Path(__file__).parent)
