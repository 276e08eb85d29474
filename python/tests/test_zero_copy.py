"""Large C-contiguous inputs are lent to xlet, not copied (spec/python.md §3).

Peak memory is measured in a fresh process (ru_maxrss only grows), around
binding and using a 256 MiB float32 array.
"""

import json
import subprocess
import sys
import textwrap

import numpy as np

import xlet

MIB = 1 << 20


def run_child(code):
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_256_mib_input_is_not_duplicated():
    r = run_child(
        """
        import json, resource, numpy as np, xlet
        def peak(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        a = np.ones((8192, 8192), np.float32)   # 256 MiB, pages touched
        base = peak()
        s = xlet.Session()
        s.run("let y = Slice(x, start_indices={0, 0}, limit_indices={2, 2}, strides={1, 1})", x=a)
        total = xlet.eval("Reduce(x, f32 0, add, dimensions={0, 1})", x=a)
        lent = xlet._lent_buffers()
        after = peak()
        print(json.dumps({"base": base, "after": after, "lent": lent, "total": float(total)}))
        """
    )
    grew = r["after"] - r["base"]
    # A copy would add 256 MiB; allow for the interpreter's own pages.
    assert grew < 32 * MIB, f"peak memory grew by {grew / MIB:.1f} MiB"
    assert r["lent"] == 1  # the session's binding; eval's has been given back
    assert r["total"] == 8192 * 8192


def test_lent_buffers_are_given_back():
    before = xlet._lent_buffers()
    a = np.arange(1 << 20, dtype=np.float32)
    s = xlet.Session()
    s.run("let y = x", x=a)
    assert xlet._lent_buffers() == before + 1
    del s
    assert xlet._lent_buffers() == before


def test_a_lent_input_is_never_written():
    a = np.zeros(1 << 20, np.float32)
    s = xlet.Session()
    s.run(
        "let y = DynamicUpdateSlice(x, f32[2] {7, 7}, {s32 0})\n"
        "let x = DynamicUpdateSlice(x, f32[2] {9, 9}, {s32 0})",
        x=a,
    )
    assert a[0] == 0 and a[1] == 0
    assert s["x"][0] == 9 and s["y"][0] == 7


def test_a_fresh_result_is_handed_over_without_a_copy():
    a = np.ones(1 << 22, np.float32)
    r = xlet.eval("x + x", x=a)
    # numpy does not own the memory: it is xlet's buffer, kept by a capsule.
    assert not r.flags.owndata
    assert r.base is not None
    assert r[0] == 2
