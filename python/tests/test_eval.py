"""eval, Session and run_module as surface.md's "Python" section fixes them."""

import numpy as np
import pytest

import xlet


def test_the_surface_example():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = np.array([7, 8, 9], np.float32)
    y = xlet.eval("Add(x, v, broadcast_dimensions={1})", x=x, v=v)
    assert isinstance(y, np.ndarray)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, x + v)


def test_eval_returns_the_last_bare_expression_or_none():
    assert xlet.eval("let a = f32 1") is None
    r = xlet.eval("let a = f32 1\nlet b = a + f32 2\nb\nb * f32 10")
    assert r.shape == () and r.dtype == np.float32 and r == 30


def test_a_tuple_value_is_a_tuple_of_arrays():
    r = xlet.eval("(x, x + 1)", x=np.int32([1, 2]))
    assert isinstance(r, tuple) and len(r) == 2
    np.testing.assert_array_equal(r[1], [2, 3])


def test_python_scalars_and_lists_go_through_numpy_asarray():
    assert xlet.eval("x * 2.0", x=1.5) == 3.0
    np.testing.assert_array_equal(xlet.eval("x + 1", x=[1, 2, 3]), [2, 3, 4])


def test_session_keeps_bindings_and_reads_them_back():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    s = xlet.Session()
    assert s.run("let z = x * 2.0", x=x) is None
    np.testing.assert_array_equal(s["z"], x * 2)
    assert s.names() == ["x", "z"]
    assert ("z", "f32[2x3]") in s.bindings()
    assert s.type_of("z") == "f32[2x3]"
    assert "z" in s and "nope" not in s
    s.run("comp twice(a: f32[2x3]) -> f32[2x3] { a + a }")
    np.testing.assert_array_equal(s.run("twice(z)"), x * 4)
    assert any(name == "twice" for name, _ in s.bindings())
    del s["z"]
    assert "z" not in s
    with pytest.raises(KeyError):
        s["z"]
    s["w"] = np.float64([1, 2])
    assert s.type_of("w") == "f64[2]"


def test_a_failed_run_leaves_the_session_as_it_was():
    s = xlet.Session()
    s.run("let a = s32 1")
    with pytest.raises(xlet.XletError):
        s.run("let a = s32 2\nlet b = a\nthen b == s32 3", q=np.int32(5))
    assert s["a"] == 1
    assert "b" not in s and "q" not in s


def test_returned_arrays_are_the_callers_own():
    x = np.ones(100_000, np.float32)
    s = xlet.Session()
    y = s.run("x", x=x)
    y[0] = 5
    assert x[0] == 1 and s["x"][0] == 1
    z = xlet.eval("x", x=x)
    z[1] = 7
    assert x[1] == 1


def test_rng_ops_follow_the_seed():
    src = "RngUniform(f32 0, f32 1, f32[4])"
    a = xlet.Session(seed=3).run(src)
    b = xlet.Session(seed=3).run(src)
    c = xlet.Session(seed=4).run(src)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_max_steps_bounds_a_while():
    s = xlet.Session(max_steps=10)
    src = (
        "comp cond(i: s32) -> pred { i < 100 }\n"
        "comp body(i: s32) -> s32 { i + 1 }\n"
        "While(cond, body, s32 0)"
    )
    with pytest.raises(xlet.XletError, match="more than 10 iterations"):
        s.run(src)
    assert xlet.Session().run(src) == 100


MODULE = """
func.func @main(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %s = stablehlo.add %x, %b : tensor<2x3xf32>
  return %s, %v : tensor<2x3xf32>, tensor<3xf32>
}
"""


def test_run_module_runs_stablehlo_text():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = np.float32([7, 8, 9])
    out = xlet.run_module(MODULE, x, v)
    assert isinstance(out, tuple) and len(out) == 2
    np.testing.assert_array_equal(out[0], x + v)
    np.testing.assert_array_equal(out[1], v)
    assert "Add" in xlet.translate(MODULE)


def test_run_module_argument_errors_name_the_parameter():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        xlet.run_module(MODULE, x)
    with pytest.raises(TypeError, match=r"f32\[3\]"):
        xlet.run_module(MODULE, x, np.zeros(4, np.float32))
    with pytest.raises(xlet.XletError):
        xlet.run_module("func.func @main() -> () { stablehlo.frobnicate }")


HLO = """HloModule m
ENTRY main {
  p = f32[3] parameter(0)
  ROOT n = f32[3] negate(p)
}
"""


def test_run_module_runs_hlo_text():
    (r,) = xlet.run_module(HLO, np.float32([1, -2, 3]))
    np.testing.assert_array_equal(r, [-1, 2, -3])
