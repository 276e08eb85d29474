"""The ``%%xlet`` cell magic (``%load_ext xlet``).

    %%xlet [NAME ...] [-o NAME ...]
    let y = x * 2.0
    Reduce(y, 0.0, add, dimensions={0})

Every ``%%xlet`` cell of a notebook runs in one xlet session, so bindings
and comps made in one cell are seen by the next. The Python variables named
on the magic's line are bound first (numpy arrays, or anything
``numpy.asarray`` takes); ``-o NAME`` copies xlet bindings back into Python
variables after the cell runs. The cell's last expression is its result
(shown as ``Out``). The session is the Python variable ``xlet_session``:
``xlet_session["y"]`` reads any binding. An xlet error shows its diagnostic
only, without a Python traceback.
"""

from ._xlet import Session, XletError

SESSION_VARIABLE = "xlet_session"


def _parse_line(line):
    """The magic line's input names and output names (after ``-o``)."""
    inputs, outputs = [], []
    target = inputs
    for word in line.replace(",", " ").split():
        if word in ("-o", "--out"):
            target = outputs
        else:
            target.append(word)
    return inputs, outputs


def load(ipython):
    from IPython.core.magic import Magics, cell_magic, magics_class

    if not isinstance(ipython.user_ns.get(SESSION_VARIABLE), Session):
        ipython.user_ns[SESSION_VARIABLE] = Session()

    @magics_class
    class XletMagics(Magics):
        @cell_magic
        def xlet(self, line, cell):
            """%%xlet [NAME ...] [-o NAME ...]: run the cell as xlet."""
            ns = self.shell.user_ns
            session = ns.get(SESSION_VARIABLE)
            if not isinstance(session, Session):
                session = ns[SESSION_VARIABLE] = Session()
            inputs, outputs = _parse_line(line)
            missing = [n for n in inputs if n not in ns]
            if missing:
                raise NameError(
                    "%%xlet: no Python variable named " + ", ".join(missing)
                )
            arrays = {n: ns[n] for n in inputs}
            result = session.run(cell, **arrays)
            for n in outputs:
                ns[n] = session[n]
            return result

    def show_xlet_error(shell, etype, value, tb, tb_offset=None):
        # The diagnostic says where and why; a traceback through the magic
        # machinery would only hide it.
        print(str(value), file=__import__("sys").stderr)
        return None

    ipython.register_magics(XletMagics)
    ipython.set_custom_exc((XletError,), show_xlet_error)
