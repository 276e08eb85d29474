"""The %%xlet cell magic, through IPython's own API."""

import numpy as np
import pytest

IPython = pytest.importorskip("IPython")


@pytest.fixture()
def ip():
    # IPython's test shell: one per process, started on first use.
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    shell.run_line_magic("load_ext", "xlet")
    yield shell
    shell.user_ns.pop("xlet_session", None)


def test_cells_share_one_session_and_take_python_variables(ip):
    ip.user_ns["x"] = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = ip.run_cell_magic("xlet", "x", "let y = x * 2.0\ny")
    np.testing.assert_array_equal(r, ip.user_ns["x"] * 2)
    r = ip.run_cell_magic("xlet", "-o z", "let z = y + y")
    np.testing.assert_array_equal(ip.user_ns["z"], ip.user_ns["x"] * 4)
    np.testing.assert_array_equal(ip.user_ns["xlet_session"]["y"], ip.user_ns["x"] * 2)


def test_an_xlet_error_shows_the_diagnostic(ip, capsys):
    result = ip.run_cell("%%xlet\nAdd(f32[2] {1, 2}, f32[3] {1, 2, 3})")
    assert not result.success
    err = capsys.readouterr().err
    assert "Add" in err and "f32[3]" in err
    assert "Traceback" not in err


def test_a_missing_python_variable_is_a_name_error(ip):
    with pytest.raises(NameError):
        ip.run_cell_magic("xlet", "nothing_here", "1")
