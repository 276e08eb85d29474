"""XletError: code, line, column and the rendered diagnostic."""

import numpy as np
import pytest

import xlet


def test_a_check_error_names_its_constraint_and_place():
    with pytest.raises(xlet.XletError) as e:
        xlet.eval("let a = x\nAdd(x, y)", x=np.float32([1, 2]), y=np.float32([1, 2, 3]))
    err = e.value
    assert err.code == "Add: C6"
    assert (err.line, err.column) == (2, 1)
    assert "f32[2]" in str(err) and "f32[3]" in str(err)
    assert err.diagnostics[0][0] == "Add: C6"


def test_a_syntax_error():
    with pytest.raises(xlet.XletError) as e:
        xlet.eval("let = 3")
    assert e.value.code == "syntax"
    assert e.value.line == 1


def test_a_failed_assertion():
    with pytest.raises(xlet.XletError) as e:
        xlet.eval("then x == f32[2] {1, 3}", x=np.float32([1, 2]))
    assert e.value.code == "assert"
    assert "values differ" in str(e.value)


def test_a_runtime_error():
    s = xlet.Session(max_steps=3)
    with pytest.raises(xlet.XletError) as e:
        s.run(
            "comp c(i: s32) -> pred { true }\ncomp b(i: s32) -> s32 { i }\n"
            "While(c, b, s32 0)"
        )
    assert e.value.line == 3


@pytest.mark.parametrize(
    "bad",
    [
        np.array(["ab", "c"]),
        np.array([object(), 1], dtype=object),
        np.zeros(2, dtype=np.longdouble)
        if np.dtype(np.longdouble).itemsize > 8
        else np.zeros(2, dtype="datetime64[s]"),
        np.zeros(2, dtype=[("a", np.int32), ("b", np.float32)]),
    ],
)
def test_a_dtype_xlet_lacks_is_a_type_error_naming_it(bad):
    with pytest.raises(TypeError, match="no element type for numpy dtype"):
        xlet.eval("x", x=bad)


def test_big_endian_input_is_refused_with_a_fix():
    with pytest.raises(TypeError, match="byte order"):
        xlet.eval("x", x=np.arange(3, dtype=">f4"))


def test_names_that_cannot_be_bound():
    with pytest.raises(ValueError, match="not a name"):
        xlet.eval("1", **{"1x": np.int32(1)})
    with pytest.raises(ValueError, match="not a name"):
        xlet.eval("1", **{"let": np.int32(1)})


def test_hostile_sources_raise_never_crash():
    for src in ["(" * 100_000, "{" * 50_000 + "1", "let x = " + "-" * 200_000 + "1",
                "\x00\xff", "Reshape(", "f32[99999999999x99999999999] 0"]:
        with pytest.raises(xlet.XletError):
            xlet.eval(src)
