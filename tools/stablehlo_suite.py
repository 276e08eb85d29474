#!/usr/bin/env python3
"""Run openxla/stablehlo's own test files through `xlet run` and count outcomes.

    python3 tools/stablehlo_suite.py STABLEHLO_DIR XLET [--json out.json] [options]

STABLEHLO_DIR is a directory holding `stablehlo/testdata/` and
`stablehlo/tests/interpret/` as files (a work tree, not a bare repository).
From the bare mirror of openxla/stablehlo either of

    git -C /work/.mirror/openxla+stablehlo/repo archive HEAD \\
        stablehlo/testdata stablehlo/tests/interpret | tar -x -C DIR
    git -C /work/.mirror/openxla+stablehlo/repo worktree add DIR HEAD

makes one (the first takes only the two test folders, about 32 MB; the
mirror lacks some large blobs outside them, e.g. docs/images, so a full
worktree checkout can fail there while the archive of the test folders
succeeds). /work/stablehlo-suite is such an extraction, with the commit in
/work/stablehlo-suite/COMMIT.

Files run (each once, `XLET run FILE`, in a fresh temporary directory, stdin
closed, NO_COLOR=1):
  stablehlo/testdata/**/*.mlir        (~2,840: @main calls @inputs/@expected and
                                       checks with custom_call @check.expect_*;
                                       dynamic/ and quantized/ are subfolders)
  stablehlo/tests/interpret/**/*.mlir (~100: programs split by `// -----`;
                                       xlet splits and reports each part itself)

Outcome from the exit status: 0 pass; 1 fail (a failed check or a runtime
error); 2 unsupported (a check error: an op, type or attribute xlet cannot
run); 3 usage (a usage or file error); timeout (past --timeout, the process
group killed); crash (any other status: 101 is a Rust panic, or a signal).
Each non-pass outcome is bucketed by a reason: the first line of stderr (for
a panic, the panic message) with the file's path, numbers, shapes, SSA names
and symbol names normalised, op names (`stablehlo.foo`) and element types kept.

Each file is also tagged with how upstream runs it, from its `// RUN` lines:
interpret (plain `stablehlo-translate --interpret`), chlo (after
--chlo-pre-serialization-pipeline or --chlo-legalize-to-stablehlo: upstream
decomposes the chlo ops first), filecheck (the printed output is checked, not
check ops: exit 0 proves less), args (needs --args), negative (`not ...` or
--verify-diagnostics: upstream expects an error), disabled (RUN-DISABLED:
upstream's interpreter fails it too), no-interpret (only a serialization round
trip upstream: testdata/dynamic with dynamic-shaped @main arguments).

Options:
  --json PATH        write per-file outcomes and the totals as JSON
  --jobs N           parallel workers (default 2)
  --timeout S        seconds per file (default 20)
  --mem-mb M         address-space limit per xlet process (default 4096; 0: none)
  --subset S         testdata | interpret | all (default all)
  --filter REGEX     only files whose path (relative to STABLEHLO_DIR) matches
  --limit N          only the first N files after filtering (smoke tests)
  --skip-upstream T  skip files whose upstream tag is T (repeatable), e.g.
                     --skip-upstream no-interpret --skip-upstream disabled
  --top N            how many reasons to list per outcome (default 25)
  --compare OLD.json also list files whose outcome changed since OLD.json
  --xlet-arg ARG     pass ARG to `xlet run` before FILE (repeatable)
Exit status: 0 when the run completed (whatever the outcomes), 2 on bad usage.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

OUTCOMES = ["pass", "fail", "unsupported", "usage", "timeout", "crash"]
SUBSETS = {
    "testdata": ["stablehlo/testdata"],
    "interpret": ["stablehlo/tests/interpret"],
}
SUBSETS["all"] = SUBSETS["testdata"] + SUBSETS["interpret"]
UPSTREAM_ORDER = ["no-interpret", "disabled", "args", "negative", "filecheck", "chlo", "interpret"]

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
OPNAME = r"(?:stablehlo|chlo|check|func|quant|mhlo|sdy|tensor|arith|math|shape)\.[A-Za-z_][\w.]*"


# ---------------------------------------------------------------------------
# what upstream does with a file


def upstream_tags(text):
    runs = [ln for ln in text.splitlines()[:40] if ln.startswith("// RUN")]
    active = [ln for ln in runs if ln.startswith("// RUN:")]
    interp = [ln for ln in active if "--interpret" in ln]
    tags = set()
    if not interp:
        disabled = [ln for ln in runs if ln.startswith("// RUN-DISABLED") and "--interpret" in ln]
        tags.add("disabled" if disabled else "no-interpret")
    for ln in interp:
        body = ln[len("// RUN:"):].strip()
        if body.startswith("not ") or "--verify-diagnostics" in body:
            tags.add("negative")
        if "--args" in body:
            tags.add("args")
        if "FileCheck" in body:
            tags.add("filecheck")
    if any("--verify-diagnostics" in ln for ln in active):
        tags.add("negative")
    if any("chlo-pre-serialization-pipeline" in ln or "chlo-legalize-to-stablehlo" in ln for ln in active):
        tags.add("chlo")
    if not tags:
        tags.add("interpret")
    primary = next(t for t in UPSTREAM_ORDER if t in tags)
    return primary, sorted(tags)


# ---------------------------------------------------------------------------
# reasons


def normalise(line, path=None):
    s = ANSI_RE.sub("", line).strip()
    if path:
        s = s.replace(str(path), "FILE").replace(Path(path).name, "FILE")
    s = re.sub(r"(?:[\w.+-]*/)+[\w.+-]+\.(?:mlir|rs|hlo|npy)", "FILE", s)
    s = re.sub(r"\b[\w.+-]+\.mlir\b", "FILE", s)
    s = re.sub(r"!quant\.uniform<[^<>]*(?:<[^<>]*>[^<>]*)*>", "!quant.uniform<…>", s)
    # tensor<4x?x3xf32> -> tensor<…xf32>; tensor<f32> stays
    s = re.sub(r"tensor<(?:[0-9?]+x)+", "tensor<…x", s)
    # xlet's own types: f32[2x3] -> f32[…]
    s = re.sub(r"\b([a-z]+[0-9]*(?:e[0-9]m[0-9][a-z]*)?)\[[0-9x, ]+\]", r"\1[…]", s)
    s = re.sub(r"%[\w#.$-]+", "%v", s)
    s = re.sub(r"\^[\w]+", "^bb", s)
    s = re.sub(r"@(?!main\b)(?![\w]*\.)[\w$-]+", "@f", s)
    s = re.sub(r'"([^"]{40,})"', '"…"', s)
    s = re.sub(r"\b0x[0-9A-Fa-f]+\b", "N", s)
    s = re.sub(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])", "N", s)
    s = re.sub(r"\[N(?:, N)+\]", "[N, …]", s)
    s = re.sub(r"\s+", " ", s)
    return s[:200]


def reason_of(outcome, rc, stderr, stdout, path):
    if outcome == "pass":
        return ""
    if outcome == "timeout":
        return "timeout"
    lines = [ANSI_RE.sub("", ln).rstrip() for ln in stderr.splitlines()]
    lines = [ln for ln in lines if ln.strip()]
    if outcome == "crash":
        for i, ln in enumerate(lines):
            if "panicked at" in ln:
                msg = lines[i + 1] if i + 1 < len(lines) and ln.rstrip().endswith(":") else ln
                where = re.search(r"panicked at ([^:]+)", ln)
                return f"panic at {where.group(1) if where else '?'}: {normalise(msg, path)}"
        if rc < 0:
            try:
                name = signal.Signals(-rc).name
            except ValueError:
                name = f"signal {-rc}"
            return f"killed by {name}" + (f": {normalise(lines[0], path)}" if lines else "")
        return f"exit {rc}" + (f": {normalise(lines[0], path)}" if lines else "")
    if not lines:
        out = [ln for ln in stdout.splitlines() if ln.strip()]
        return "(no stderr) " + (normalise(out[-1], path) if out else "(no output)")
    return normalise(lines[0], path)


def ops_in(reason):
    return re.findall(OPNAME, reason)


# ---------------------------------------------------------------------------
# running


def run_one(xlet, extra, path, timeout, mem_mb):
    env = dict(os.environ, NO_COLOR="1", RUST_BACKTRACE="0")
    with tempfile.TemporaryDirectory(prefix="shlo-suite-") as cwd:
        t0 = time.monotonic()
        try:
            p = subprocess.Popen([xlet, "run", *extra, str(path)], cwd=cwd, env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True)
        except OSError as e:
            return dict(rc=None, timed_out=False, seconds=0.0, stdout="", stderr=f"cannot start xlet: {e}")
        if mem_mb:
            # set from outside (no preexec_fn: workers are threads); the
            # child has had microseconds to allocate before this lands
            try:
                b = mem_mb * 1024 * 1024
                resource.prlimit(p.pid, resource.RLIMIT_AS, (b, b))
            except (OSError, ValueError):
                pass
        try:
            out, err = p.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = p.communicate()
            timed_out = True
        secs = time.monotonic() - t0
    return dict(rc=p.returncode, timed_out=timed_out, seconds=round(secs, 3),
                stdout=out.decode("utf-8", "replace"), stderr=err.decode("utf-8", "replace"))


def outcome_of(rc, timed_out):
    if timed_out:
        return "timeout"
    return {0: "pass", 1: "fail", 2: "unsupported", 3: "usage"}.get(rc, "crash")


def discover(root, subset, filt, limit):
    files = []
    for rel in SUBSETS[subset]:
        base = root / rel
        if not base.is_dir():
            sys.exit(f"stablehlo_suite: {base} is not a directory (see --help for making a work tree)")
        files += sorted(base.rglob("*.mlir"))
    rels = [f.relative_to(root).as_posix() for f in files]
    if filt:
        rx = re.compile(filt)
        rels = [r for r in rels if rx.search(r)]
    if limit:
        rels = rels[:limit]
    return rels


def subset_of(rel):
    parts = rel.split("/")
    if parts[1] == "testdata":
        return "testdata/" + parts[2] if len(parts) > 3 else "testdata"
    return "interpret/" + parts[3] if len(parts) > 4 else "interpret"


def commit_of(root):
    c = root / "COMMIT"
    if c.is_file():
        return c.read_text().strip()
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


# ---------------------------------------------------------------------------
# report


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    fmt = lambda r: "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([fmt(header), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows])


def report(results, top, compare=None):
    out = []
    n = len(results)
    counts = collections.Counter(r["outcome"] for r in results)
    out.append(f"{n} files: " + ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts[o]))
    for key, title in (("subset", "folder"), ("upstream", "upstream")):
        groups = collections.defaultdict(collections.Counter)
        for r in results:
            groups[r[key]][r["outcome"]] += 1
        rows = [[g] + [groups[g][o] for o in OUTCOMES] + [sum(groups[g].values())] for g in sorted(groups)]
        rows.append(["total"] + [counts[o] for o in OUTCOMES] + [n])
        out += ["", table(rows, [title] + OUTCOMES + ["files"])]
    for o in OUTCOMES[1:]:
        rs = [r for r in results if r["outcome"] == o]
        if not rs:
            continue
        reasons = collections.Counter(r["reason"] for r in rs)
        out += ["", f"top reasons: {o} ({len(rs)} files, {len(reasons)} distinct reasons)"]
        for reason, c in reasons.most_common(top):
            example = next(r["path"] for r in rs if r["reason"] == reason)
            out.append(f"  {c:5d}  {reason}")
            out.append(f"         e.g. {example}")
        ops = collections.Counter(op for r in rs for op in set(ops_in(r["reason"])))
        if ops:
            out.append(f"  dialect names in these reasons (files): "
                       + ", ".join(f"{op} {c}" for op, c in ops.most_common(top)))
    if compare is not None:
        old = {f["path"]: f["outcome"] for f in compare.get("files", [])}
        changed = [(r["path"], old[r["path"]], r["outcome"]) for r in results
                   if r["path"] in old and old[r["path"]] != r["outcome"]]
        moves = collections.Counter((a, b) for _, a, b in changed)
        out += ["", f"changed since the compared run: {len(changed)} files"]
        for (a, b), c in moves.most_common():
            out.append(f"  {c:5d}  {a} -> {b}")
        for p, a, b in changed[:top]:
            out.append(f"         {p}: {a} -> {b}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("stablehlo_dir", type=Path)
    ap.add_argument("xlet")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--mem-mb", type=int, default=4096)
    ap.add_argument("--subset", choices=sorted(SUBSETS), default="all")
    ap.add_argument("--filter")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--skip-upstream", action="append", default=[], choices=UPSTREAM_ORDER)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--compare", type=Path)
    ap.add_argument("--xlet-arg", action="append", default=[])
    a = ap.parse_args()
    if a.jobs < 1 or a.timeout <= 0:
        ap.error("--jobs and --timeout must be positive")
    root = a.stablehlo_dir.resolve()
    xlet = os.path.abspath(a.xlet) if os.sep in a.xlet else a.xlet
    if not shutil.which(xlet):
        ap.error(f"{a.xlet} is not an executable file")
    compare = json.loads(a.compare.read_text()) if a.compare else None

    rels = discover(root, a.subset, a.filter, a.limit)
    jobs = []
    for rel in rels:
        text = (root / rel).read_text(errors="replace")
        primary, tags = upstream_tags(text)
        if primary in a.skip_upstream:
            continue
        parts = 1 + len(re.findall(r"^// -----", text, re.M))
        jobs.append(dict(path=rel, subset=subset_of(rel), upstream=primary, tags=tags, parts=parts))
    print(f"running {len(jobs)} files from {root} with {xlet} ({a.jobs} workers, {a.timeout:g} s each)",
          file=sys.stderr)

    done = collections.Counter()
    lock = threading.Lock()
    t0 = time.monotonic()

    def work(job):
        r = run_one(xlet, a.xlet_arg, root / job["path"], a.timeout, a.mem_mb)
        if r["rc"] is None:
            outcome, reason = "usage", normalise(r["stderr"])
        else:
            outcome = outcome_of(r["rc"], r["timed_out"])
            reason = reason_of(outcome, r["rc"], r["stderr"], r["stdout"], root / job["path"])
        res = dict(job, outcome=outcome, rc=r["rc"], seconds=r["seconds"], reason=reason,
                   stderr_head="\n".join(ANSI_RE.sub("", r["stderr"]).splitlines()[:12])[:2000],
                   stdout_tail="\n".join(r["stdout"].splitlines()[-8:])[-2000:])
        with lock:
            done[outcome] += 1
            k = sum(done.values())
            if k % 100 == 0 or k == len(jobs):
                print(f"  {k}/{len(jobs)} ({time.monotonic() - t0:.0f} s): "
                      + ", ".join(f"{done[o]} {o}" for o in OUTCOMES if done[o]), file=sys.stderr)
        return res

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(work, jobs))

    text = report(results, a.top, compare)
    print(text)
    if a.json:
        totals = collections.Counter(r["outcome"] for r in results)
        doc = dict(stablehlo_dir=str(root), stablehlo_commit=commit_of(root), xlet=xlet,
                   xlet_args=a.xlet_arg, timeout_s=a.timeout, jobs=a.jobs,
                   wall_s=round(time.monotonic() - t0, 1),
                   totals={o: totals[o] for o in OUTCOMES}, files=results)
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"\nper-file outcomes: {a.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
