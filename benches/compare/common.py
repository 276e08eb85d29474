# What the comparison scripts share: timing xlet as a user sees it (the
# REPL's :time, median of its runs, a fresh result each run) and timing a
# Python callable (median of n, jax results waited for).
import re
import subprocess
import time


def xlet_medians(binary, setup_lines, exprs, flags=()):
    """The REPL's :time median (ms) of each expression, after the setup lines."""
    src = "\n".join(list(setup_lines) + [f":time {e}" for e in exprs]) + "\n"
    out = subprocess.run([binary, *flags], input=src, capture_output=True, text=True).stdout
    scale = {"ns": 1e-6, "µs": 1e-3, "ms": 1.0, "s": 1e3}
    found = re.findall(r"median ([0-9.]+)(ns|µs|ms|s)\b", out)
    return [float(v) * scale[u] for v, u in found]


def median(f, n=11):
    """The median of n timed calls of f (ms), after one warm-up call."""
    f()
    t = []
    for _ in range(n):
        s = time.perf_counter()
        r = f()
        if hasattr(r, "block_until_ready"):
            r.block_until_ready()
        t.append(time.perf_counter() - s)
    return sorted(t)[n // 2] * 1e3
