"""run_module keeps a module translated and checked for the next call with
the same text (spec/python.md §1): calls agree with a fresh translation,
see their own arrays, start the RNG from the seed each time, never alias
an input, and fall back to the plain path for what it must report."""

import time

import numpy as np
import pytest
import xlet

# v is returned as it came: the result must not be the caller's buffer.
MODULE = """
func.func @main(%x: tensor<64x64xf32>, %v: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %s = stablehlo.add %x, %v : tensor<64x64xf32>
  %t = stablehlo.tanh %s : tensor<64x64xf32>
  return %t, %v : tensor<64x64xf32>, tensor<64x64xf32>
}
"""


def test_repeated_calls_see_their_own_arrays():
    rng = np.random.default_rng(1)
    for _ in range(5):
        x = rng.standard_normal((64, 64), dtype=np.float32)
        v = rng.standard_normal((64, 64), dtype=np.float32)
        t, w = xlet.run_module(MODULE, x, v)
        np.testing.assert_allclose(t, np.tanh(x + v), rtol=2e-6, atol=1e-7)
        np.testing.assert_array_equal(w, v)
        # 16 KiB inputs are lent to xlet; the result is a copy, not v itself.
        w[0, 0] = 1234.0
        assert v[0, 0] != 1234.0


def test_a_second_call_does_not_translate_again():
    # A module big enough that translating and checking it is most of a call.
    lines = ["func.func @main(%a0: tensor<4xf32>) -> tensor<4xf32> {"]
    for i in range(400):
        lines.append(f"  %a{i + 1} = stablehlo.negate %a{i} : tensor<4xf32>")
    lines.append("  return %a400 : tensor<4xf32>\n}")
    text = "\n".join(lines)
    # 400 negations give the input back.
    x = np.float32([1, 0, -1, 0.5])
    t0 = time.perf_counter()
    (first,) = xlet.run_module(text, x)
    t1 = time.perf_counter()
    (again,) = xlet.run_module(text, x)
    t2 = time.perf_counter()
    np.testing.assert_array_equal(first, [1, 0, -1, 0.5])
    np.testing.assert_array_equal(again, first)
    assert t2 - t1 < (t1 - t0) / 2, (t1 - t0, t2 - t1)


RNG = """
func.func @main(%n: tensor<f32>) -> tensor<3xf32> {
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %shape = stablehlo.constant dense<3> : tensor<1xi64>
  %r = stablehlo.rng %lo, %n, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"""


def test_each_call_starts_the_rng_from_the_seed():
    a = xlet.run_module(RNG, np.float32(1))[0]
    b = xlet.run_module(RNG, np.float32(1))[0]
    np.testing.assert_array_equal(a, b)


def test_errors_after_a_cached_call_still_name_the_parameter():
    x = np.zeros((64, 64), np.float32)
    xlet.run_module(MODULE, x, x)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        xlet.run_module(MODULE, x)
    with pytest.raises(TypeError, match=r"f32\[64x64\]"):
        xlet.run_module(MODULE, x, np.zeros(4, np.float32))
    t, _ = xlet.run_module(MODULE, x, x)
    np.testing.assert_array_equal(t, np.zeros((64, 64), np.float32))


CHECKED = """
func.func @main() -> () {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
  check.expect_eq %a, %b : tensor<2xf32>
  return
}
"""


def test_check_ops_still_report_through_the_plain_path():
    for _ in range(2):
        with pytest.raises(xlet.XletError):
            xlet.run_module(CHECKED)
