"""Writes chlo_bessel_i1e.mlir, chlo_zeta_polygamma.mlir, chlo_erf64.mlir,
chlo_complex_trig.mlir and chlo_complex_hyperbolic.mlir: each op on edge values, checked against jax 0.10.2 on
CPU (XLA runs CHLO's own legalisation of these ops, which xlet follows).

    /work/V/bin/python conformance/import_ops/gen_chlo_special.py

Each file names the jax call and the tolerance in its header.
"""

import pathlib

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

jax.config.update("jax_enable_x64", True)

HERE = pathlib.Path(__file__).parent
MLIR = {np.float16: "f16", ml_dtypes.bfloat16: "bf16", np.float32: "f32", np.float64: "f64",
        np.complex64: "complex<f32>", np.complex128: "complex<f64>"}
BITS = {np.float16: np.uint16, ml_dtypes.bfloat16: np.uint16, np.float32: np.uint32,
        np.float64: np.uint64}


def real(v, dt):
    """One element: repr when finite (round-trips), else its bit pattern."""
    v = np.asarray(v, dt)
    if np.isfinite(v):
        f = float(v)
        return repr(f) if f != 0 or not np.signbit(f) else "-0.0"
    return "0x%X" % int(v.view(BITS[dt]))


def elems(a, dt):
    a = np.asarray(a, dt)
    if dt in (np.complex64, np.complex128):
        part = np.float32 if dt == np.complex64 else np.float64
        return ", ".join("(%s, %s)" % (real(z.real, part), real(z.imag, part)) for z in a)
    return ", ".join(real(v, dt) for v in a)


def ty(n, dt):
    return "tensor<%dx%s>" % (n, MLIR[dt])


class Module:
    def __init__(self, name, doc):
        self.name, self.doc, self.lines, self.snippets, self.n = name, doc, [], [], 0

    def case(self, op, args, dt, fn, tol, snippet):
        """`op` applied to `args` (arrays of dtype dt), checked against fn(*args)."""
        args = [np.asarray(a, dt) for a in args]
        want = np.asarray(jax.jit(fn)(*args))
        assert want.dtype == dt, (want.dtype, dt)
        n = len(args[0])
        t = ty(n, dt)
        names = []
        for a in args:
            self.n += 1
            names.append("%%a%d" % self.n)
            self.lines.append("    %s = stablehlo.constant dense<[%s]> : %s" % (names[-1], elems(a, dt), t))
        self.n += 1
        r = "%%r%d" % self.n
        self.lines.append("    %s = chlo.%s %s : %s -> %s" % (r, op, ", ".join(names), ", ".join([t] * len(args)), t))
        self.lines.append("    check.expect_almost_eq_const %s, dense<[%s]> : %s {tolerance = %g}"
                          % (r, elems(want, dt), t, tol))
        self.snippets.append("%s on %s, tolerance %g: %s" % (op, MLIR[dt], tol, snippet))
        self.last = (r, t)

    def write(self):
        head = ["// %s" % l for l in self.doc.splitlines()]
        head.append("// Expected values from jax %s on CPU (conformance/import_ops/gen_chlo_special.py):" % jax.__version__)
        head += ["//   %s" % s for s in self.snippets]
        r, t = self.last
        body = (["module @m {", "  func.func public @main() -> %s {" % t] + self.lines
                + ["    return %s : %s" % (r, t), "  }", "}"])
        (HERE / (self.name + ".mlir")).write_text("\n".join(head + body) + "\n")


import jax.scipy.special as sp
from jax import lax

F = np.float32
D = np.float64
inf, nan = np.inf, np.nan

m = Module("chlo_bessel_i1e", "chlo.bessel_i1e on f16, bf16, f32 and f64: 0, signs, the series' seam at 8, large, inf, NaN.")
xs = [-inf, -1e4, -8.5, -8.0, -1.0, -1e-3, -0.0, 0.0, 1e-30, 0.5, 3.0, 7.999, 8.0, 8.001, 20.0, 1e4, 3e38, inf, nan]
m.case("bessel_i1e", [xs], F, lax.bessel_i1e, 2e-6, "lax.bessel_i1e(x)")
m.case("bessel_i1e", [xs[:-3] + [1e300, inf, nan]], D, lax.bessel_i1e, 1e-14, "lax.bessel_i1e(x)")
hs = [-inf, -30.0, -8.0, -1.0, -0.0, 0.0, 0.25, 2.0, 9.0, 1000.0, inf, nan]
m.case("bessel_i1e", [hs], np.float16, lax.bessel_i1e, 1e-3, "lax.bessel_i1e(x)")
m.case("bessel_i1e", [hs], ml_dtypes.bfloat16, lax.bessel_i1e, 8e-3, "lax.bessel_i1e(x)")
m.write()

m = Module("chlo_zeta_polygamma", "chlo.zeta(x, q) and chlo.polygamma(n, x) on f32 and f64: the series and the\n"
           "domain cases (x < 1, x = 1, q <= 0 at and off the poles, non-integer or negative n, NaN).")
zx = [2.0, 2.0, 3.0, 1.5, 4.0, 10.0, 1.0, 0.5, 2.0, 3.0, 2.5, 2.0, 30.0, 2.0, nan, 2.0, inf]
zq = [1.0, 0.5, 2.0, 1e-3, 100.0, 1.5, 3.0, 2.0, -2.0, -2.0, -1.5, -1.5, 1.0, 1e6, 1.0, nan, 2.0]
m.case("zeta", [zx, zq], F, sp.zeta, 1e-5, "jax.scipy.special.zeta(x, q)")
m.case("zeta", [zx, zq], D, sp.zeta, 1e-13, "jax.scipy.special.zeta(x, q)")
pn = [0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 2.0, 4.0, 1.5, -1.0, 0.0, 1.0, 1.0, nan, 1.0]
px = [1.0, -0.5, 1.0, 0.5, 3.0, 0.25, 1e4, 20.0, 1.5, 2.0, 2.0, -2.0, -2.0, -2.5, 1.0, nan]
m.case("polygamma", [pn, px], F, lax.polygamma, 1e-5, "lax.polygamma(n, x)")
m.case("polygamma", [pn, px], D, lax.polygamma, 1e-12, "lax.polygamma(n, x)")
m.case("zeta", [zx[:8], zq[:8]], np.float16, sp.zeta, 2e-3, "jax.scipy.special.zeta(x, q)")
m.case("polygamma", [pn[:10], px[:10]], ml_dtypes.bfloat16, lax.polygamma, 1e-2, "lax.polygamma(n, x)")
m.write()

m = Module("chlo_erf64", "chlo.erf_inv and chlo.erfc on f64: erf_inv over its three ranges (w < 6.25, < 16,\n"
           "above), ±1, past 1, NaN; erfc over |x| < 1, [1, 8), >= 8, the underflow to 0, the negative side.")
ex = [-1.0, -0.9999999999999999, -0.99999999, -0.999, -0.5, -1e-300, -0.0, 0.0, 1e-10, 0.3, 0.9, 0.99999,
      0.9999999999, 1.0, 1.5, -inf, nan]
m.case("erf_inv", [ex], D, lax.erf_inv, 1e-14, "lax.erf_inv(x)")
cx = [-inf, -30.0, -5.0, -1.0, -0.999, -0.5, -1e-20, 0.0, 0.3, 0.999, 1.0, 2.0, 7.99, 8.0, 10.0, 26.0, 26.6,
      27.3, 30.0, inf, nan]
m.case("erfc", [cx], D, lax.erfc, 1e-13, "lax.erfc(x)")
m.write()

m = Module("chlo_complex_trig", "chlo.asin, acos, atan, asinh, acosh, atanh on complex64 and complex128: 0, the axes,\n"
           "the branch points ±1 and ±i, both sides of the cuts, small and large magnitudes, inf and NaN.")
pts = [0, 1e-30j, 0.5, -0.5 + 0.25j, 1, -1, 1j, -1j, 2, -2 - 0j, 3j, -3j, 1 + 1j, -2 + 3j, 0.7 - 1e-20j,
       1e-20 + 1e-20j, 1e20 + 1e20j, -1e20 + 5j, 5 - 1e20j, 1e30 + 1e-5j, complex(inf, 1), complex(1, inf),
       complex(-inf, -inf), complex(nan, 1), complex(1, nan)]
big = [1e300 + 1e300j, -1e300 + 1j, 1e-300 + 1e-300j, 1e154 + 1e154j]
for op, fn in [("asin", jnp.arcsin), ("acos", jnp.arccos), ("atan", jnp.arctan), ("asinh", jnp.arcsinh),
               ("acosh", jnp.arccosh), ("atanh", jnp.arctanh)]:
    m.case(op, [pts], np.complex64, fn, 1e-5, "jnp.arc%s(z)" % op[1:] if op.startswith("a") else op)
    m.case(op, [pts + big], np.complex128, fn, 1e-13, "jnp.arc%s(z)" % op[1:])
m.write()

m = Module("chlo_complex_hyperbolic", "chlo.sinh and chlo.cosh on complex64 and complex128: the axes, both signs,\n"
           "moderate and large parts (CHLO's exp(x + log 1/2) form; no tiny |z|, where it cancels).")
hyp = [0, 0.5, -0.5 + 0.25j, 1 + 1j, -2 + 3j, 1j, 3j, -1j, 10 - 5j, -7 + 100j, 20 + 0.5j, 0.25 - 2j]
for op, fn in [("sinh", jnp.sinh), ("cosh", jnp.cosh)]:
    m.case(op, [hyp], np.complex64, fn, 1e-5, "jnp.%s(z)" % op)
    m.case(op, [hyp], np.complex128, fn, 1e-13, "jnp.%s(z)" % op)
m.write()
