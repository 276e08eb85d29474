#!/bin/sh
# A stand-in for the xlet binary, to test tools/stablehlo_suite.py's plumbing
# before xlet can import StableHLO: `fake_xlet.sh run FILE` exits with a
# status picked from a checksum of FILE's name, printing the kind of first
# stderr line xlet would. FAKE_XLET_SLOW=1 makes 1 file in 20 hang (timeouts)
# instead of dying by SIGSEGV.
#   python3 tools/stablehlo_suite.py /work/stablehlo-suite tools/fake_xlet.sh --json /tmp/fake.json
[ "$1" = run ] || { echo "usage: fake_xlet.sh run FILE" >&2; exit 3; }
shift
while [ $# -gt 1 ]; do shift; done
f=$1
[ -r "$f" ] || { echo "error: cannot read $f" >&2; exit 3; }
case $f in
*/testdata/dynamic/*)
    echo "error: @main has 3 parameters and 0 --arg files were given (parameter 0: tensor<i64>) ($f)" >&2
    exit 3 ;;
esac
n=$(( $(basename "$f" | cksum | cut -d' ' -f1) % 20 ))
op=$(grep -o 'stablehlo\.[a-z_0-9]*' "$f" | grep -v 'stablehlo\.\(constant\|return\|custom_call\)' | head -n 1)
line=$(grep -n "$op" "$f" | tail -n 1 | cut -d: -f1)
if [ $n -lt 10 ]; then
    echo "ok: $(grep -c 'check\.' "$f") checks held"
    exit 0
elif [ $n -lt 13 ]; then
    echo "[check.expect_close] Error: check failed: max relative error 0.25 at index [3, 7] ($f:$line:5)" >&2
    exit 1
elif [ $n -lt 16 ]; then
    if grep -q 'quant.uniform' "$f"; then
        echo "[import] Error: unsupported element type \`!quant.uniform<i8:f32, 0.1:-3>\` ($f:$line:12)" >&2
    else
        echo "[import] Error: unsupported op \`$op\` ($f:$line:10)" >&2
    fi
    echo "   ╭─[ $f:$line:10 ]" >&2
    exit 2
elif [ $n -lt 17 ]; then
    echo "error: unknown option --frobnicate" >&2
    exit 3
elif [ $n -lt 19 ]; then
    echo "thread 'main' panicked at src/import/mlir.rs:$line:9:" >&2
    echo "index out of bounds: the len is $n but the index is $line" >&2
    exit 101
elif [ -n "$FAKE_XLET_SLOW" ]; then
    sleep 60
    exit 0
else
    kill -SEGV $$
fi
