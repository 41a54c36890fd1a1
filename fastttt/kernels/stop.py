"""The stop word that long kernels poll: ``uint8[1]``, set by another thread on Ctrl-C
(:mod:`fastttt.interrupt`)."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def is_stopped(typingctx, stop):
    """``stop[0] != 0``, read from memory at every call: an atomic (monotonic) load, which the
    compiler may not hoist out of a loop whose body never writes ``stop`` (a plain load would
    be read once per loop, and the kernel would never see the word change)."""
    if not isinstance(stop, types.Array):
        return None
    sig = types.boolean(stop)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        value = builder.load_atomic(array.data, "monotonic", 1)
        return builder.icmp_unsigned("!=", value, ir.Constant(value.type, 0))

    return sig, codegen
