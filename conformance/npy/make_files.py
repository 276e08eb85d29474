# How the .npy files of conformance/npy/ and conformance/infeed/ were made
# (numpy 2.4.6, ml_dtypes 0.6.0): run from conformance/ with
#   /work/pyenv/bin/python npy/make_files.py
import numpy as np, ml_dtypes, struct, os
d = 'infeed/'
np.save(d + 'm23.npy', np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32))
np.save(d + 's32_3.npy', np.array([7, 8, 9], dtype=np.int32))
n = 'npy/'
np.save(n + 'pred.npy', np.array([True, False, True]))
np.save(n + 's8.npy', np.array([-128, 0, 127], dtype=np.int8))
np.save(n + 's16.npy', np.array([-32768, 1, 32767], dtype=np.int16))
np.save(n + 's32.npy', np.array([-2**31, 2, 2**31 - 1], dtype=np.int32))
np.save(n + 's64.npy', np.array([-2**63, 3, 2**63 - 1], dtype=np.int64))
np.save(n + 'u8.npy', np.array([0, 1, 255], dtype=np.uint8))
np.save(n + 'u16.npy', np.array([0, 2, 65535], dtype=np.uint16))
np.save(n + 'u32.npy', np.array([0, 3, 2**32 - 1], dtype=np.uint32))
np.save(n + 'u64.npy', np.array([0, 4, 2**64 - 1], dtype=np.uint64))
np.save(n + 'f16.npy', np.array([0.5, -2, 65504], dtype=np.float16))
np.save(n + 'bf16.npy', np.array([1.5, -2, 3.140625], dtype=ml_dtypes.bfloat16))  # descr '<V2'
np.save(n + 'f32.npy', np.array([0.1, -2.5, 1e30], dtype=np.float32))
np.save(n + 'f64.npy', np.array([0.1, -2.5, 1e300], dtype=np.float64))
np.save(n + 'scalar_f32.npy', np.float32(2.5))
np.save(n + 'fortran_s32.npy', np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)))
np.save(n + 'big_endian_s32.npy', np.array([[1, -2, 3], [4, 5, -6]], dtype='>i4'))
np.save(n + 'big_endian_f64.npy', np.array([0.5, -1e300], dtype='>f8'))
np.save(n + 'empty_f32.npy', np.zeros((0, 3), dtype=np.float32))
np.save(n + 'complex64.npy', np.array([1 + 2j], dtype=np.complex64))
# truncated.npy: a valid f32[100] file cut to its 128-byte header plus 10 bytes
np.save(n + 'full.tmp.npy', np.arange(100, dtype=np.float32))
b = open(n + 'full.tmp.npy', 'rb').read()
os.remove(n + 'full.tmp.npy')
open(n + 'truncated.npy', 'wb').write(b[:128 + 10])
# huge_shape.npy: a header claiming f32[10^12] (4 TB) and no data at all
h = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }"
h = h + b' ' * (117 - len(h)) + b'\n'
open(n + 'huge_shape.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h)
# overflow_shape.npy: 2^32 * 2^32 * 16 elements, a count that overflows 64 bits
h = b"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }"
h = h + b' ' * (117 - len(h)) + b'\n'
open(n + 'overflow_shape.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h)
# huge_header.npy: version 2.0 claiming a 3 GB header, 20 bytes long
open(n + 'huge_header.npy', 'wb').write(
    b'\x93NUMPY\x02\x00' + struct.pack('<I', 3_000_000_000) + b"{'descr'")
# Complex (numpy's complex64 '<c8' and complex128 '<c16', real part first) and
# a dtype xlet has no element type for (datetime64, '<M8[D]').
np.save(n + 'complex128.npy', np.array([[1 + 2j, -0.5 - 1e300j], [0j, complex('nan+1j')]], dtype=np.complex128))
np.save(n + 'big_endian_c64.npy', np.array([3 - 4j, 0.25 + 0j], dtype='>c8'))
np.save(n + 'datetime.npy', np.array(['2020-01-01'], dtype='datetime64[D]'))
