"""The stop word that long kernels poll: ``uint8[1]``, set by another thread on Ctrl-C
(:mod:`fastttt.interrupt`)."""

from llvmlite import ir
from numba import config, types
from numba.extending import intrinsic


def _is_stopped_python(stop):
    """``stop[0] != 0`` (NUMBA_DISABLE_JIT=1: kernels run as plain Python)."""
    return stop[0] != 0


@intrinsic
def _is_stopped(typingctx, stop):
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


is_stopped = _is_stopped_python if config.DISABLE_JIT else _is_stopped
