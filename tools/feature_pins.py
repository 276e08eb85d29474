#!/usr/bin/env python3
"""Check that the test build and the Python build give every shared crate the
same features (spec/build.md). Cargo compiles a crate once per feature set, so
a crate whose features differ between the two builds, and every xlet crate
above it, is compiled twice in CI. crates/workspace-hack pins the features
pyo3 adds; this check names any new difference and the pin that fixes it.

Usage: python3 tools/feature_pins.py   (from the repository root; offline)
Exit 0 when the feature sets agree, 1 when they differ, 2 when cargo fails.
"""
import subprocess
import sys


def features(args):
    """{(package, version, proc-macro?): set of features} for one cargo tree."""
    cmd = ["cargo", "tree", "--locked", "--offline", "--prefix", "none",
           "-f", "{p}|{f}"] + args
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write(f"feature_pins: `{' '.join(cmd)}` failed: {e}\n")
        sys.exit(2)
    seen = {}
    for line in out.splitlines():
        if "|" not in line:
            continue
        pkg, feats = line.rsplit("|", 1)
        pkg = pkg.replace(" (*)", "").strip()
        feats = feats.replace(" (*)", "").strip()
        seen.setdefault(pkg, set()).update(f for f in feats.split(",") if f)
    return seen


def main():
    tests = features(["-e", "normal,build,dev", "--workspace",
                      "--exclude", "xlet-python", "--exclude", "xlet-bench"])
    python = features(["-e", "normal,build", "-p", "xlet-python",
                       "-F", "pyo3/extension-module"])
    bad = []
    for pkg in sorted(set(tests) & set(python)):
        if tests[pkg] != python[pkg]:
            only_py = sorted(python[pkg] - tests[pkg])
            only_tests = sorted(tests[pkg] - python[pkg])
            bad.append(f"  {pkg}: only the Python build has {only_py}, "
                       f"only the test build has {only_tests}")
    if bad:
        print("feature_pins: these crates get other features in the Python "
              "build, so CI compiles them (and every xlet crate above them) "
              "twice; pin them in crates/workspace-hack/Cargo.toml:")
        print("\n".join(bad))
        return 1
    print(f"feature_pins: {len(set(tests) & set(python))} shared crates, "
          "the same features in both builds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
