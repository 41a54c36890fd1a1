"""Numba kernels: functions over ints and NumPy arrays, no validation, no exceptions."""
