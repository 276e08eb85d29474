from ._xlet import Session as Session
from ._xlet import XletError as XletError
from ._xlet import eval as eval
from ._xlet import run_module as run_module
from ._xlet import translate as translate

__all__ = ["Session", "XletError", "eval", "run_module", "translate"]

def load_ipython_extension(ipython: object) -> None: ...
