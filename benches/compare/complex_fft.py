# Issue 23's speed targets for complex numbers and Fft: xlet as a user sees it
# (the REPL's :time, median, a fresh result each run) beside numpy and jax.jit
# (medians of 11), in one sitting. Usage:
#   python3 benches/compare/complex_fft.py target/release/xlet
# (numpy and jax installed: pip install numpy jax jaxlib).
# Elementwise c64 is set against f32 of the same bytes: c64[2048x2048] and
# f32[2048x4096] are both 32 MiB.
import os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import median, xlet_medians  # noqa: E402

U = "RngUniform(f32 -1.0, f32 1.0, f32[{}])"
lines = [
    f"let A = Complex({U.format('2048x2048')}, {U.format('2048x2048')})",
    f"let B = Complex({U.format('2048x2048')}, {U.format('2048x2048')})",
    f"let P = {U.format('2048x4096')}",
    f"let Q = {U.format('2048x4096')}",
    f"let X = Complex({U.format('1024x1024')}, {U.format('1024x1024')})",
    f"let R = {U.format('4096x4096')}",
]
timed = [
    ("add c64[2048x2048]", "A + B", lambda d: d["A"] + d["B"], lambda a, b: a + b, ("A", "B")),
    ("add f32[2048x4096]", "P + Q", lambda d: d["P"] + d["Q"], lambda a, b: a + b, ("P", "Q")),
    ("mul c64[2048x2048]", "A * B", lambda d: d["A"] * d["B"], lambda a, b: a * b, ("A", "B")),
    ("mul f32[2048x4096]", "P * Q", lambda d: d["P"] * d["Q"], lambda a, b: a * b, ("P", "Q")),
    ("exp c64[2048x2048]", "Exp(A)", lambda d: np.exp(d["A"]), "exp", ("A",)),
    ("exp f32[2048x4096]", "Exp(P)", lambda d: np.exp(d["P"]), "exp", ("P",)),
    ("fft c64[1024x1024] rows", "Fft(X, FFT, {1024})", lambda d: np.fft.fft(d["X"]), "fft", ("X",)),
    ("ifft c64[1024x1024] rows", "Fft(X, IFFT, {1024})", lambda d: np.fft.ifft(d["X"]), "ifft", ("X",)),
    ("fft2 c64[1024x1024]", "Fft(X, FFT, {1024, 1024})", lambda d: np.fft.fft2(d["X"]), "fft2", ("X",)),
    ("rfft f32[4096x4096] rows", "Fft(R, RFFT, {4096})", lambda d: np.fft.rfft(d["R"]), "rfft", ("R",)),
]


def others():
    import jax, jax.numpy as jnp
    rng = np.random.default_rng(0)
    u = lambda *s: rng.uniform(-1, 1, s).astype(np.float32)
    d = {
        "A": (u(2048, 2048) + 1j * u(2048, 2048)).astype(np.complex64),
        "B": (u(2048, 2048) + 1j * u(2048, 2048)).astype(np.complex64),
        "P": u(2048, 4096), "Q": u(2048, 4096),
        "X": (u(1024, 1024) + 1j * u(1024, 1024)).astype(np.complex64),
        "R": u(4096, 4096),
    }
    jd = {k: jnp.asarray(v) for k, v in d.items()}
    fns = {"exp": jnp.exp, "fft": jnp.fft.fft, "ifft": jnp.fft.ifft, "fft2": jnp.fft.fft2,
           "rfft": jnp.fft.rfft}
    out = []
    for name, _, npf, jf, args in timed:
        f = jax.jit(fns[jf] if isinstance(jf, str) else jf)
        a = [jd[k] for k in args]
        out.append((median(lambda: npf(d)), median(lambda: f(*a))))
    return out


x = xlet_medians(sys.argv[1], lines, [t[1] for t in timed])
o = others()
for (name, *_), xt, (nt, jt) in zip(timed, x, o):
    print(f"{name:26s} xlet {xt:8.2f}  numpy {nt:8.2f}  jax.jit {jt:8.2f} ms")
