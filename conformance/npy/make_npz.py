# How the .npz archives and the ml_dtypes small-type .npy files of
# conformance/npy/ were made (numpy 2.4.6, ml_dtypes 0.6.0): run from
# conformance/ with
#   /work/h23/V/bin/python npy/make_npz.py
# The hostile archives are np.savez output changed in one place each.
import numpy as np, ml_dtypes, struct, io
n = 'npy/'
a = np.array([[1.5, -2, 3], [4, 5, 6.25]], dtype=np.float32)
b = np.array([7, -8, 9], dtype=np.int64)
c = np.array([1 + 2j, -0.5j], dtype=np.complex64)
h = np.array([1.5, -2, 3.140625], dtype=ml_dtypes.bfloat16)  # '<V2'
np.savez(n + 'arrays.npz', a=a, b=b, c=c, h=h)            # stored entries
np.savez_compressed(n + 'arrays_deflate.npz', a=a, b=b, c=c, h=h)  # deflate
# Small types: np.save writes every one as '<V1', one byte per element
# holding the pattern in its low bits.
np.save(n + 'f8e4m3fn.npy', np.array([1.5, -2, 448, 0.015625], dtype=ml_dtypes.float8_e4m3fn))
np.save(n + 'f4e2m1fn.npy', np.array([0.5, -6, 3], dtype=ml_dtypes.float4_e2m1fn))
np.save(n + 's4.npy', np.array([-8, -1, 7], dtype=ml_dtypes.int4))
np.savez_compressed(n + 'small.npz', e4m3=np.array([1.5, -2], dtype=ml_dtypes.float8_e4m3fn))

def savez_bytes(compress, **arrays):
    buf = io.BytesIO()
    (np.savez_compressed if compress else np.savez)(buf, **arrays)
    return bytearray(buf.getvalue())

big = np.zeros(100000, dtype=np.float64)  # 800128 bytes, deflates to ~800
# bomb.npz: the directory and local header declare 1000 bytes of content for
# an entry that inflates to 800128 (a zip bomb's lie).
z = savez_bytes(True, x=big)
cd = z.rindex(b'PK\x01\x02')
lh = z.index(b'PK\x03\x04')
real = struct.unpack_from('<I', z, cd + 24)[0]
assert real == 800128, real
struct.pack_into('<I', z, cd + 24, 1000)
struct.pack_into('<I', z, lh + 22, 1000)
open(n + 'bomb.npz', 'wb').write(z)
# truncated.npz: arrays.npz cut in half (no end-of-archive record).
z = open(n + 'arrays.npz', 'rb').read()
open(n + 'truncated.npz', 'wb').write(z[:len(z) // 2])
# bad_crc.npz: a stored entry with one data byte changed.
z = savez_bytes(False, x=np.arange(4, dtype=np.int32))
z[z.index(b'PK\x01\x02') - 1] ^= 0xFF
open(n + 'bad_crc.npz', 'wb').write(z)
