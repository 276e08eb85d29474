"""Type stubs for the extension module (see xlet/__init__.py)."""

from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

Value = Union[np.ndarray, tuple["Value", ...]]

class XletError(Exception):
    """An xlet diagnostic. ``str(e)`` is the rendered diagnostic."""

    code: str
    """The rule broken: ``"Add: C4"``, ``"syntax"``, ``"assert"``, ..."""
    line: int
    """1-based line in the source (0 when there is no position)."""
    column: int
    """1-based column, in characters."""
    diagnostics: list[tuple[str, str, int, int]]
    """Every diagnostic as (code, message, line, column)."""

def eval(source: str, **arrays: npt.ArrayLike) -> Optional[Value]:
    """Run ``source`` in a fresh session with each keyword array bound to its
    name; return the value of the last bare expression (None if there is none).
    Raises XletError for syntax, check and runtime errors and failed assertions."""

def run_module(text: str, *arrays: npt.ArrayLike) -> tuple[np.ndarray, ...]:
    """Run a StableHLO (MLIR) or HLO text module's entry function on
    ``arrays`` in parameter order; return its results (tuples flattened)."""

def translate(text: str) -> str:
    """The xlet program a StableHLO or HLO text module translates to."""

def lent_buffers() -> int:
    """How many numpy buffers xlet holds without a copy right now."""

class Session:
    """Bindings and comps that persist from one ``run`` to the next."""

    def __init__(self, *, max_steps: Optional[int] = None, seed: int = 0) -> None: ...
    def run(self, source: str, **arrays: npt.ArrayLike) -> Optional[Value]:
        """Run statements with the keyword arrays bound first; return the last
        bare expression's value or None. On an error nothing changes."""
    def __getitem__(self, name: str) -> Value: ...
    def __setitem__(self, name: str, array: npt.ArrayLike) -> None: ...
    def __delitem__(self, name: str) -> None: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...
    def names(self) -> list[str]:
        """The bound values' names, sorted."""
    def bindings(self) -> list[tuple[str, str]]:
        """(name, type) of every value, then (name, signature) of every comp."""
    def type_of(self, name: str) -> str:
        """A binding's xlet type, e.g. ``f32[2x3]``."""
