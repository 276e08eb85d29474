"""xlet from Python: XLA's operation semantics on numpy arrays, exactly.

    >>> import numpy as np, xlet
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> xlet.eval("Add(x, v, broadcast_dimensions={1})", x=x, v=np.float32([7, 8, 9]))
    array([[ 7.,  9., 11.],
           [10., 12., 14.]], dtype=float32)

- ``eval(source, **arrays)``: run a program in a fresh session, return the
  value of its last expression (numpy; a tuple of arrays for a tuple value).
- ``Session()``: bindings that persist across ``run`` calls, as in the REPL;
  ``s[name]`` reads one back, ``s.names()`` and ``s.bindings()`` list them.
- ``run_module(text, *arrays)``: run StableHLO or HLO text (e.g. what
  ``jax.jit(f).lower(...).as_text()`` prints); results as a tuple.
- ``translate(text)``: the xlet program such a module translates to.
- ``XletError``: raised for a syntax, check or runtime error and a failed
  assertion; ``str(e)`` is the diagnostic, ``e.code`` its label.
- ``%load_ext xlet`` in IPython/Jupyter enables the ``%%xlet`` cell magic.

Element types: numpy's bool, int8-64, uint8-64, float16/32/64 and
complex64/128, and ml_dtypes' bfloat16, float8/6/4 types and int4/uint4/
int2/uint2. See spec/python.md in the xlet repository.
"""

from ._xlet import Session, XletError, eval, run_module, translate
from ._xlet import lent_buffers as _lent_buffers

__all__ = ["Session", "XletError", "eval", "run_module", "translate"]


def load_ipython_extension(ipython):
    """Called by ``%load_ext xlet``: registers the ``%%xlet`` cell magic."""
    from .magic import load

    load(ipython)
