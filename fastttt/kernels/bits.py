"""Bit tricks on uint64 bitboards usable inside kernels."""

import numpy as np
from numba import config, njit

from fastttt.config import JIT

if config.DISABLE_JIT:

    def ctz(x):
        """Index of the lowest set bit of a non-zero integer."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def clz(x):
        """Zero bits above the highest set bit of a non-zero uint64."""
        return 64 - int(x).bit_length()

    def popcount(x):
        """Number of set bits of a uint64."""
        return np.uint64(int(x).bit_count())

else:
    from numba import types
    from numba.core.extending import intrinsic
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

    @njit(**JIT)
    def ctz(x):
        """Index of the lowest set bit of a non-zero uint64."""
        return np.int64(trailing_zeros(np.uint64(x)))

    @njit(**JIT)
    def clz(x):
        """Zero bits above the highest set bit of a non-zero uint64."""
        return np.int64(leading_zeros(np.uint64(x)))

    @intrinsic
    def popcount(typingctx, x):
        """Number of set bits of a uint64 (LLVM ctpop)."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return sig, codegen
