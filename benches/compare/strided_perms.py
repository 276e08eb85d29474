# Every transposed view of rank 2-4 (and a few other views) timed with the
# REPL's :time, as a user sees it, and each median's ratio to the contiguous
# op (spec/performance.md §6.2). Usage: python3 strided_perms.py target/release/xlet
import itertools, re, subprocess, sys

lines = [
    "let Y = RngUniform(f32 -2.0, f32 2.0, f32[4096x4096])",
    "let D = RngUniform(f64 -2.0, f64 2.0, f64[4096x2048])",
    "let Y3 = Reshape(Y, {256, 256, 256})", "let Y4 = Reshape(Y, {64, 64, 64, 64})",
    "let D3 = Reshape(D, {128, 256, 256})", "let D4 = Reshape(D, {32, 64, 64, 64})",
    "let Z = Neg(Y)",
]
timed = ["Neg(Y)", "Neg(D)", "Add(Y, Z)"]
for name, rank in [("Y", 2), ("Y3", 3), ("Y4", 4), ("D", 2), ("D3", 3), ("D4", 4)]:
    for p in itertools.permutations(range(rank)):
        if list(p) != list(range(rank)):
            timed.append(f"Neg(Transpose({name}, {{{', '.join(map(str, p))}}}))")
timed += ["Neg(Rev(Y, {0, 1}))", "Neg(Slice(Y, {0, 0}, {4096, 4096}, {2, 2}))",
          "Neg(Slice(Y, {0, 0}, {4096, 4096}, {1, 2}))",
          "Add(Y, Transpose(Z, {1, 0}))", "Add(Transpose(Y, {1, 0}), Transpose(Z, {1, 0}))"]
src = "\n".join(lines + [f":time {t}" for t in timed]) + "\n"
out = subprocess.run([sys.argv[1]], input=src, capture_output=True, text=True).stdout
medians = [float(m) for m in re.findall(r"median ([0-9.]+)ms", out)]
base = dict(zip(["f32", "f64", "add"], medians[:3]))
for t, m in zip(timed, medians):
    b = base["add"] if t.startswith("Add") else base["f64" if "D" in t else "f32"]
    print(f"{t:55} {m:7.2f} ms  {m / b:.2f}x")
