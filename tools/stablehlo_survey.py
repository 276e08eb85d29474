#!/usr/bin/env python3
"""Survey openxla/stablehlo's test files: ops, element types, attribute forms.

    python3 tools/stablehlo_survey.py [STABLEHLO_DIR] [--out conformance/import/SUITE_NOTES.md]

STABLEHLO_DIR (default /work/stablehlo-suite) holds stablehlo/testdata/ and
stablehlo/tests/interpret/ as files; tools/stablehlo_suite.py's help says how
to make one from the bare mirror. Writes Markdown (to stdout without --out).
Deterministic for a given tree.

What counts as an op: a name in op position after comments are removed,
  - pretty form at the start of a statement: `%0 = stablehlo.add ...`,
    `%a, %b = chlo.top_k(...)`, `stablehlo.custom_call @check.expect_eq(...)`,
    `check.expect_eq_const ...`, `func.func ...`; bare `return` is
    func.return, bare `call @f` is func.call, `module` is builtin.module;
  - generic form anywhere: `"stablehlo.sort"(...)`;
  - the op named in a pretty reduce's `applies stablehlo.add`.
Attribute kinds (`#stablehlo.gather<...>`, `#stablehlo<comparison_direction>`)
are not ops.
"""

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

FOLDERS = ["testdata", "testdata/dynamic", "testdata/quantized", "interpret"]

NAME = r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+"
PRETTY_RE = re.compile(r"^\s*(?:%[^=\"]*=\s*)?(" + NAME + r"|return|call|module)\b(?![\".])")
GENERIC_RE = re.compile(r"\"(" + NAME + r")\"\s*\(")
APPLIES_RE = re.compile(r"\bapplies\s+(" + NAME + r")")
CUSTOM_TARGET_RE = re.compile(r"custom_call\s+@([\w.$-]+)|call_target_name\s*=\s*\"([^\"]*)\"")
KEY_RE = re.compile(r"(?<![\w.%#^])([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\s*=\s")
HASH_ATTR_RE = re.compile(r"#([a-z_]+(?:\.[a-z_]+)+)<|#([a-z_]+)<([a-z_]+)")
ARRAY_RE = re.compile(r"\barray<([a-z0-9]+)(:?)")
BARE = {"return": "func.return", "call": "func.call", "module": "builtin.module"}

# attribute and syntax forms, counted by files containing them
FORMS = [
    ("dense<\"0x...\"> hex constant", r"dense<\"0x"),
    ("dense<[...]> list literal", r"dense<\["),
    ("dense<N> numeric splat", r"dense<[-+]?[0-9]"),
    ("dense<0x...> unquoted hex splat", r"dense<0x"),
    ("dense<true|false> splat", r"dense<(?:true|false)>"),
    ("dense<(re, im)> complex splat", r"dense<\("),
    ("(re, im) complex in a list", r"dense<\[+\s*\("),
    ("dense<> empty", r"dense<>"),
    ("dense_resource<...>", r"dense_resource<"),
    ("<{...}> properties (generic op)", r"<\{"),
    ("{...} attribute dict after a generic op", r"\"\([^)]*\)\s*\{[a-z_]+\s*="),
    ("region in generic form ({ ... })", r"\(\{\s*$|\}\)\s*:|\},\s*\{\s*$"),
    ("^bb0(...) block arguments", r"\^bb\d*\("),
    ("loc(...) locations", r"\bloc\("),
    ("#loc aliases", r"#loc\d*\s*="),
    ("tensor<...x?x...> dynamic dimension", r"tensor<(?:[0-9]+x)*\?x"),
    ("tensor<*x...> unranked", r"tensor<\*x"),
    ("tensor<..., #stablehlo.bounds<...>> bounded", r"#stablehlo\.bounds<"),
    ("!stablehlo.token", r"!stablehlo\.token"),
    ("tuple<...> type", r"\btuple<"),
    ("!quant.uniform element type", r"!quant\.uniform<"),
    ("pretty `applies OP across dimensions = [...]` reduce", r"\bapplies\s"),
    ("pretty `dims = [...]` (broadcast_in_dim, transpose)", r"\bdims = \["),
    ("pretty `dim = N` (concatenate, ...)", r"\bdim = \d"),
    ("pretty `contracting_dims = [...] x [...]` dot_general", r"\bcontracting_dims = \["),
    ("pretty `batching_dims = [...] x [...]` dot_general", r"\bbatching_dims = \["),
    ("pretty `precision = [...]`", r"\bprecision = \["),
    ("pretty conv `dim_numbers = [b, 0, 1, f]x[...]->[...]`", r"\bdim_numbers = \["),
    ("pretty conv `window = {...}`", r"\bwindow = \{"),
    ("pretty `stablehlo.compare DIR, a, b, TYPE`", r"stablehlo\.compare\s+[A-Z]{2}\b"),
    ("pretty slice `%x [a:b, c:d:s]`", r"stablehlo\.slice\s+%[\w#]+\s*\["),
    ("pretty while `cond { } do { }`", r"stablehlo\.while\("),
    ("pretty `stablehlo.if`/`case` regions", r"\bstablehlo\.(?:if|case)\s+%"),
    ("pretty `stablehlo.constant dense<...>`", r"stablehlo\.constant\s+dense"),
    ("pretty `stablehlo.iota dim = N`", r"stablehlo\.iota\s+dim"),
    ("mhlo.* attributes", r"\bmhlo\.[a-z_]+\s*="),
    ("jax.* attributes", r"\bjax\.[a-z_]+\s*="),
    ("func.func private", r"func\.func\s+private\b"),
    ("func.func public", r"func\.func\s+public\b"),
    ("func.call / call @f", r"(?:^|\s)(?:func\.)?call\s+@"),
    ("`// -----` split into parts", r"^// -----"),
    ("@main with arguments", r"func\.func\s+(?:public\s+)?@main\(\s*%"),
]
FORMS = [(label, re.compile(rx, re.M)) for label, rx in FORMS]


def strip_comments(text):
    out = []
    for ln in text.splitlines():
        if "//" in ln:
            # cut at the first // outside a string
            q = False
            for i, ch in enumerate(ln):
                if ch == '"':
                    q = not q
                elif not q and ln.startswith("//", i):
                    ln = ln[:i]
                    break
        out.append(ln)
    return "\n".join(out)


def tensor_types(text):
    """(element type, dynamic?) for each tensor<...> in text, with balanced <>."""
    res = []
    for m in re.finditer(r"\btensor<", text):
        i, depth = m.end(), 1
        j = i
        while j < len(text) and depth:
            if text[j] == "<":
                depth += 1
            elif text[j] == ">" and text[j - 1] != "-":
                depth -= 1
            j += 1
        body = text[i:j - 1]
        dims = re.match(r"^(?:\*x|(?:(?:\d+|\?)x)*)", body).group(0)
        rest = body[len(dims):]
        # element type up to a top-level comma (an encoding follows)
        d, k = 0, 0
        for k, ch in enumerate(rest):
            if ch in "<(":
                d += 1
            elif ch in ">)":
                d -= 1
            elif ch == "," and d == 0:
                rest = rest[:k]
                break
        res.append((element_name(rest.strip()), "?" in dims))
    return res


def element_name(t):
    m = re.match(r"!quant\.uniform<([a-z0-9]+)(?:<[^>]*>)?:([a-z0-9]+)(:\d+)?", t)
    if m:
        return f"!quant.uniform<{m.group(1)}:{m.group(2)}{', per-axis' if m.group(3) else ''}>"
    return t


def folder_of(rel):
    p = rel.split("/")
    if p[1] == "testdata":
        return "testdata/" + p[2] if len(p) > 3 else "testdata"
    return "interpret"


def survey(root):
    files = []
    for base in ("stablehlo/testdata", "stablehlo/tests/interpret"):
        d = root / base
        if not d.is_dir():
            sys.exit(f"stablehlo_survey: {d} is not a directory")
        files += sorted(d.rglob("*.mlir"))
    per_folder = collections.Counter()
    op_files = collections.defaultdict(collections.Counter)   # op -> folder -> files
    op_occ = collections.Counter()
    gen_occ = collections.Counter()
    gen_files = collections.Counter()
    pretty_occ = collections.Counter()
    files_with_generic = collections.Counter()
    elt_files = collections.defaultdict(collections.Counter)
    elt_occ = collections.Counter()
    form_files = collections.defaultdict(collections.Counter)
    hash_files = collections.Counter()
    array_files = collections.Counter()
    key_files = collections.Counter()
    targets = collections.Counter()
    total_ops = 0
    file_ops = {}
    for f in files:
        rel = f.relative_to(root).as_posix()
        folder = folder_of(rel)
        per_folder[folder] += 1
        raw = f.read_text(errors="replace")
        text = strip_comments(raw)
        ops_here = collections.Counter()
        generic_here = collections.Counter()
        for ln in text.splitlines():
            for op in GENERIC_RE.findall(ln):
                generic_here[op] += 1
            m = PRETTY_RE.match(ln)
            if m:
                op = BARE.get(m.group(1), m.group(1))
                ops_here[op] += 1
                pretty_occ[op] += 1
            for op in APPLIES_RE.findall(ln):
                ops_here[op] += 1
                pretty_occ[op] += 1
        for op, c in generic_here.items():
            ops_here[op] += c
            gen_occ[op] += c
            gen_files[op] += 1
        if generic_here:
            files_with_generic[folder] += 1
        file_ops[rel] = (folder, frozenset(ops_here))
        for op, c in ops_here.items():
            op_files[op][folder] += 1
            op_occ[op] += c
            total_ops += c
        seen = set()
        for elt, _dyn in tensor_types(text):
            elt_occ[elt] += 1
            if elt not in seen:
                seen.add(elt)
                elt_files[elt][folder] += 1
        for label, rx in FORMS:
            if rx.search(raw if label.startswith("`// -----`") else text):
                form_files[label][folder] += 1
        for m in set(HASH_ATTR_RE.findall(text)):
            hash_files["#" + (m[0] + "<" if m[0] else f"{m[1]}<{m[2]} ...>")] += 1
        for m in set(ARRAY_RE.findall(text)):
            array_files[f"array<{m[0]}{m[1]}" + (" ...>" if m[1] else ">")] += 1
        for k in set(KEY_RE.findall(text)):
            key_files[k] += 1
        for m in set(CUSTOM_TARGET_RE.findall(text)):
            targets[m[0] or m[1]] += 1
    return dict(files=len(files), per_folder=per_folder, op_files=op_files, op_occ=op_occ,
                gen_occ=gen_occ, gen_files=gen_files, files_with_generic=files_with_generic,
                elt_files=elt_files, elt_occ=elt_occ, form_files=form_files, hash_files=hash_files,
                array_files=array_files, key_files=key_files, targets=targets, total_ops=total_ops,
                file_ops=file_ops)


BASE = ["builtin.module", "func.func", "func.return", "func.call", "stablehlo.return",
        "stablehlo.constant", "stablehlo.custom_call"]


def greedy_order(file_ops, limit):
    """Ops in the order that completes the most files soonest.

    Start from BASE; at each step add the op that completes the most files
    (every op the file uses then supported); where no op completes any file,
    the op used by the most not-yet-complete files."""
    remaining = {p: set(ops) - set(BASE) for p, ops in file_ops.items()}
    done = sum(1 for r in remaining.values() if not r)
    steps = []
    while len(steps) < limit:
        live = [r for r in remaining.values() if r]
        if not live:
            break
        finish = collections.Counter(next(iter(r)) for r in live if len(r) == 1)
        users = collections.Counter(o for r in live for o in r)
        op = max(users, key=lambda o: (finish[o], users[o], o))
        for r in live:
            r.discard(op)
        done += finish[op]
        steps.append((op, finish[op], done))
    return steps


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def render(s, root, commit):
    F = FOLDERS
    pf = s["per_folder"]
    out = ["# What openxla/stablehlo's test files use",
           "",
           f"Written by `tools/stablehlo_survey.py` from openxla/stablehlo "
           f"{'commit ' + commit[:12] if commit else '(commit unknown)'}: "
           f"{s['files']} files, " + ", ".join(f"{pf[f]} in {f}" for f in F) + ".",
           "`testdata` is `stablehlo/testdata/*.mlir` (JAX-exported: `@main` calls `@inputs` and",
           "`@expected` and checks with `custom_call @check.expect_*`), `testdata/dynamic` and",
           "`testdata/quantized` its subfolders (dynamic: dynamic-shaped `@main` arguments, only",
           "round-tripped upstream, never interpreted; quantized: `!quant.uniform` types),",
           "`interpret` is `stablehlo/tests/interpret/**/*.mlir` (hand-written, split by `// -----`,",
           "`check.expect_*` ops). Counts are files using the thing, per folder, unless marked.",
           "Regenerate: `python3 tools/stablehlo_survey.py /work/stablehlo-suite --out conformance/import/SUITE_NOTES.md`.",
           ""]
    # headline
    ops_sorted = sorted(s["op_files"], key=lambda o: (-sum(s["op_files"][o].values()), o))
    gen_total = sum(s["gen_occ"].values())
    gfiles = sum(s["files_with_generic"].values())
    out += ["## Headline", ""]
    top = ops_sorted[:40]
    out.append("Top 40 ops by files using them: " + ", ".join(
        f"{o} {sum(s['op_files'][o].values())}" for o in top) + ".")
    out.append("")
    elts = sorted(s["elt_files"], key=lambda e: (-sum(s["elt_files"][e].values()), e))
    plain = [e for e in elts if not e.startswith("!quant")]
    quant = [e for e in elts if e.startswith("!quant")]
    out.append("Element types (files): " + ", ".join(f"{e} {sum(s['elt_files'][e].values())}" for e in plain)
               + f"; and {len(quant)} distinct `!quant.uniform` storage:expressed kinds, in "
               + f"{sum(s['form_files']['!quant.uniform element type'].values())} files.")
    out.append("")
    for dialect in ("chlo", "check", "interpreter"):
        names = [o for o in ops_sorted if o.startswith(dialect + ".")]
        out.append(f"`{dialect}.*` ops (files): " + ", ".join(
            f"{o} {sum(s['op_files'][o].values())}" for o in names) + ".")
        out.append("")
    out.append(f"Generic form: {gen_total} of {s['total_ops']} op occurrences "
               f"({100 * gen_total / max(1, s['total_ops']):.1f}%) are quoted `\"dialect.op\"(...)`, in "
               f"{gfiles} of {s['files']} files ({100 * gfiles / max(1, s['files']):.0f}%): "
               + ", ".join(f"{o} {c}" for o, c in sorted(s['gen_files'].items(), key=lambda x: (-x[1], x[0]))[:12])
               + " (files). Every other op is printed in its pretty form.")
    out.append("")
    # greedy order
    scope = {p: ops for p, (folder, ops) in s["file_ops"].items() if folder != "testdata/dynamic"}
    steps = greedy_order(scope, 60)
    out += ["## An order to add ops in", "",
            f"Over the {len(scope)} files upstream interprets or could (all but testdata/dynamic), "
            f"starting from {', '.join(BASE)} (which complete "
            f"{sum(1 for ops in scope.values() if ops <= set(BASE))} files): each step adds the op that "
            "completes the most files (a file is complete when every op it uses is supported; element "
            "types and attributes are not considered), or, where none completes any, the op the most "
            "incomplete files use. `+files` is what the step completes, `files` the running total.", ""]
    rows = [[i + 1, f"`{op}`", gain, total, f"{100 * total / max(1, len(scope)):.0f}%"]
            for i, (op, gain, total) in enumerate(steps)]
    out.append(md_table(["step", "op", "+files", "files", "share"], rows))
    out.append("")
    # ops
    out += ["## Ops", "",
            f"{len(ops_sorted)} distinct op names; `occurrences` counts every use, "
            f"`generic` the quoted ones among them.", ""]
    rows = []
    for o in ops_sorted:
        fc = s["op_files"][o]
        rows.append([f"`{o}`", sum(fc.values())] + [fc[f] for f in F] + [s["op_occ"][o], s["gen_occ"][o]])
    out.append(md_table(["op", "files"] + F + ["occurrences", "generic"], rows))
    out.append("")
    out += ["## custom_call targets", ""]
    out.append(md_table(["target", "files"], [[f"`{t}`", c] for t, c in
                                              sorted(s["targets"].items(), key=lambda x: (-x[1], x[0]))]))
    out.append("")
    # element types
    out += ["## Element types in `tensor<...>`", "",
            "Files using each, and occurrences of `tensor<...>` with it. `!quant.uniform` types are",
            "grouped by storage:expressed type (scales and zero points dropped).", ""]
    rows = [[f"`{e}`", sum(s["elt_files"][e].values())] + [s["elt_files"][e][f] for f in F] + [s["elt_occ"][e]]
            for e in elts]
    out.append(md_table(["element type", "files"] + F + ["occurrences"], rows))
    out.append("")
    # forms
    out += ["## Attribute and syntax forms", ""]
    rows = [[lbl, sum(s["form_files"][lbl].values())] + [s["form_files"][lbl][f] for f in F]
            for lbl, _ in FORMS]
    out.append(md_table(["form", "files"] + F, rows))
    out.append("")
    out.append("`#dialect.attr<...>` and `#dialect<kind ...>` attributes (files): " + ", ".join(
        f"`{k}` {c}" for k, c in sorted(s["hash_files"].items(), key=lambda x: (-x[1], x[0]))) + ".")
    out.append("")
    out.append("`array<...>` forms (files): " + ", ".join(
        f"`{k}` {c}" for k, c in sorted(s["array_files"].items(), key=lambda x: (-x[1], x[0]))) + ".")
    out.append("")
    keys = sorted(s["key_files"].items(), key=lambda x: (-x[1], x[0]))
    out.append(f"Attribute names written `name = value` ({len(keys)} distinct; files): " + ", ".join(
        f"`{k}` {c}" for k, c in keys) + ".")
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stablehlo_dir", nargs="?", default="/work/stablehlo-suite", type=Path)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    root = a.stablehlo_dir.resolve()
    commit = None
    if (root / "COMMIT").is_file():
        commit = (root / "COMMIT").read_text().strip()
    else:
        r = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True)
        commit = r.stdout.strip() or None
    text = render(survey(root), root, commit)
    if a.out:
        a.out.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
