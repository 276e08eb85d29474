# Checks that numpy and ml_dtypes read what xlet writes (spec/npy.md): runs
# xlet's SaveNpy on one array of each kind, then loads every file with numpy
# (the small types and bf16 through `.view(ml_dtypes.TYPE)`, as the spec
# says) and compares the values. Run from the repository root after a build:
#   /work/h23/V/bin/python conformance/npy/verify_written.py [target/release/xlet]
import numpy as np, ml_dtypes, subprocess, sys, tempfile, os
xlet = sys.argv[1] if len(sys.argv) > 1 else 'target/release/xlet'
d = tempfile.mkdtemp()
cases = [  # (xlet literal, numpy dtype to view as, expected values)
    ('f8e4m3fn[4] {1.5, -2, 448, 0.015625}', ml_dtypes.float8_e4m3fn, [1.5, -2, 448, 0.015625]),
    ('f8e5m2[2] {-0.5, 57344}', ml_dtypes.float8_e5m2, [-0.5, 57344]),
    ('f4e2m1fn[3] {0.5, -6, 3}', ml_dtypes.float4_e2m1fn, [0.5, -6, 3]),
    ('s4[3] {-8, -1, 7}', ml_dtypes.int4, [-8, -1, 7]),
    ('u4[2] {0, 15}', ml_dtypes.uint4, [0, 15]),
    ('bf16[3] {1.5, -2, 3.140625}', ml_dtypes.bfloat16, [1.5, -2, 3.140625]),
    ('c64[2] {(1, -2), (0.5, 3)}', None, [1 - 2j, 0.5 + 3j]),
    ('c128[1] {(1e300, -0.1)}', None, [1e300 - 0.1j]),
    ('f16[2] {0.5, 65504}', None, [0.5, 65504]),
    ('s64[2] {-9223372036854775808, 7}', None, [-2**63, 7]),
    ('pred[2] {true, false}', None, [True, False]),
]
prog = ''.join(f'let v{i} = SaveNpy({lit}, "{d}/v{i}.npy")\n' for i, (lit, _, _) in enumerate(cases))
subprocess.run([xlet, 'run', '-'], input=prog.encode(), check=True)
for i, (lit, view, want) in enumerate(cases):
    a = np.load(f'{d}/v{i}.npy')
    if view is not None:
        a = a.view(view)
    got = a.astype(np.complex128 if np.iscomplexobj(a) else np.float64).tolist()
    ok = got == [complex(w) if np.iscomplexobj(a) else float(w) for w in want]
    print(('ok  ' if ok else 'FAIL'), lit, np.load(f'{d}/v{i}.npy').dtype.str, got)
    if not ok:
        sys.exit(1)
for f in os.listdir(d):
    os.remove(os.path.join(d, f))
os.rmdir(d)
