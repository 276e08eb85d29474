"""Every xlet element type goes in from numpy and comes back, both ways."""

import numpy as np
import pytest

import xlet

ml_dtypes = pytest.importorskip("ml_dtypes")

NATIVE = [
    (np.bool_, "pred"),
    (np.int8, "s8"),
    (np.int16, "s16"),
    (np.int32, "s32"),
    (np.int64, "s64"),
    (np.uint8, "u8"),
    (np.uint16, "u16"),
    (np.uint32, "u32"),
    (np.uint64, "u64"),
    (np.float16, "f16"),
    (np.float32, "f32"),
    (np.float64, "f64"),
    (np.complex64, "c64"),
    (np.complex128, "c128"),
]

ML = [
    ("bfloat16", "bf16"),
    ("float8_e4m3fn", "f8e4m3fn"),
    ("float8_e5m2", "f8e5m2"),
    ("float8_e4m3fnuz", "f8e4m3fnuz"),
    ("float8_e5m2fnuz", "f8e5m2fnuz"),
    ("float8_e4m3b11fnuz", "f8e4m3b11fnuz"),
    ("float8_e4m3", "f8e4m3"),
    ("float8_e3m4", "f8e3m4"),
    ("float8_e8m0fnu", "f8e8m0fnu"),
    ("float6_e2m3fn", "f6e2m3fn"),
    ("float6_e3m2fn", "f6e3m2fn"),
    ("float4_e2m1fn", "f4e2m1fn"),
    ("int4", "s4"),
    ("uint4", "u4"),
    ("int2", "s2"),
    ("uint2", "u2"),
]


def sample(dtype, n=6):
    d = np.dtype(dtype)
    if d.kind == "b":
        return np.array([True, False, True, True, False, False][:n])
    if d.kind == "c":
        return (np.arange(n) - 2.5 + 1j * (np.arange(n) * 0.5)).astype(d)
    if d.kind in "iu" and d.itemsize >= 1 and d.names is None and d.kind != "V":
        info = np.iinfo(d)
        return np.array([info.min, info.max, 0, 1, 2, 3][:n], dtype=d)
    return (np.arange(n) - 2.5).astype(d)


def ml_sample(name, n=6):
    t = getattr(ml_dtypes, name)
    if name.startswith("int") or name.startswith("uint"):
        info = ml_dtypes.iinfo(t)
        return np.array([int(info.min), int(info.max), 0, 1, 0, 1][:n]).astype(t)
    vals = np.array([1.0, -1.0, 0.5, 2.0, 4.0, 0.25][:n])
    if name == "float8_e8m0fnu":
        vals = np.abs(vals)
    return vals.astype(t)


@pytest.mark.parametrize("dtype,xlet_type", NATIVE)
@pytest.mark.parametrize("shape", [(), (6,), (2, 3), (1, 2, 3)])
def test_native_types_round_trip(dtype, xlet_type, shape):
    a = sample(dtype, int(np.prod(shape)) if shape else 1).reshape(shape)
    s = xlet.Session()
    s.run("", x=a)
    assert s.type_of("x") == f"{xlet_type}[{'x'.join(map(str, shape))}]" if shape else xlet_type
    back = s["x"]
    assert back.dtype == a.dtype and back.shape == a.shape
    np.testing.assert_array_equal(back, a)


@pytest.mark.parametrize("dtype,xlet_type", NATIVE)
def test_native_types_compute(dtype, xlet_type):
    a = sample(dtype)
    if xlet_type == "pred":
        r = xlet.eval("Not(x)", x=a)
        np.testing.assert_array_equal(r, ~a)
    else:
        r = xlet.eval("Reverse(x, dimensions={0})", x=a)
        np.testing.assert_array_equal(r, a[::-1])
    assert r.dtype == a.dtype


@pytest.mark.parametrize("name,xlet_type", ML)
def test_ml_dtypes_round_trip(name, xlet_type):
    a = ml_sample(name)
    s = xlet.Session()
    s.run("let y = Reverse(x, dimensions={0})", x=a)
    assert s.type_of("x") == f"{xlet_type}[6]"
    back = s["x"]
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back.view(np.uint8 if a.itemsize == 1 else np.uint16),
                                  a.view(np.uint8 if a.itemsize == 1 else np.uint16))
    np.testing.assert_array_equal(s["y"].astype(np.float64), a[::-1].astype(np.float64))


@pytest.mark.parametrize("name,xlet_type", ML)
def test_ml_dtypes_convert_as_ml_dtypes_does(name, xlet_type):
    a = ml_sample(name)
    r = xlet.eval(f"ConvertElementType(x, f32)", x=a)
    np.testing.assert_array_equal(r, a.astype(np.float32))
    f = np.float32([1.0, -1.0, 0.5, 2.0, 3.0, 0.25])
    if name.startswith("int") or name.startswith("uint"):
        # In range of the narrowest (int2: -2..1, uint2: 0..3): out-of-range
        # conversions are where XLA (saturating) and C casts differ.
        f = np.float32([1, -1, 0, 1, -2, 0]) if name.startswith("int") else np.float32([1, 3, 0, 2, 1, 0])
    elif name == "float8_e8m0fnu":
        f = np.abs(f)
    r = xlet.eval(f"ConvertElementType(x, {xlet_type})", x=f)
    assert r.dtype == np.dtype(getattr(ml_dtypes, name))
    np.testing.assert_array_equal(r.astype(np.float64), f.astype(getattr(ml_dtypes, name)).astype(np.float64))


def test_non_contiguous_inputs_are_read_by_value():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_array_equal(xlet.eval("x", x=a.T), a.T)
    np.testing.assert_array_equal(xlet.eval("x", x=a[:, ::2]), a[:, ::2])
    np.testing.assert_array_equal(xlet.eval("x", x=a[::-1]), a[::-1])


def test_bool_views_with_other_bytes_read_as_numpy_reads_them():
    raw = np.array([0, 1, 2, 255], np.uint8).view(np.bool_)
    np.testing.assert_array_equal(xlet.eval("x", x=raw), [False, True, True, True])


def test_empty_arrays():
    r = xlet.eval("x", x=np.zeros((0, 3), np.float32))
    assert r.shape == (0, 3) and r.dtype == np.float32
