//! `.npz` archives (spec/npy.md §npz): what `np.savez` (stored entries) and
//! `np.savez_compressed` (deflate) write, a zip file of `.npy` members.
//!
//! A reader of our own over `miniz_oxide`'s raw inflate instead of the `zip`
//! crate: `zip`'s deflate feature brings zopfli, flate2 and zlib-rs and its
//! defaults bzip2, lzma, zstd and AES, for archives that hold two methods;
//! and the bounds xlet needs (nothing allocated that the archive only claims,
//! at most the declared size inflated) are simplest where the reading is ours.
//!
//! Every size an archive states is checked against the file's length or
//! admitted under the memory budget before it is used; an entry inflates into
//! a buffer of its declared size plus one byte, so an entry that holds more
//! than it declares (a zip bomb) is caught after one byte too many.

use super::{NpyError, err};
use miniz_oxide::inflate::stream::{InflateState, inflate};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use xlet_core::alloc;

/// The largest central directory read (np.savez writes ~100 bytes per array).
pub const MAX_DIRECTORY_BYTES: u64 = 16 << 20;

/// One member of the archive, from its central directory entry.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    method: u16,
    flags: u16,
    crc: u32,
    comp_size: u64,
    pub size: u64,
    local_offset: u64,
}

/// Whether `path`'s file is a zip archive (starts with `PK\x03\x04`, or is
/// an empty archive); a file that cannot be opened is that error, not "not
/// a zip".
pub fn is_zip(path: &Path) -> Result<bool, NpyError> {
    let mut magic = [0u8; 4];
    let mut f = xlet_core::source::open_regular(path)
        .map_err(|e| err(path, format!("cannot open: {e}")))?;
    Ok(f.read_exact(&mut magic).is_ok() && (&magic == b"PK\x03\x04" || &magic == b"PK\x05\x06"))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// An open archive: the file and its members.
pub struct Archive {
    file: File,
    len: u64,
    pub entries: Vec<Entry>,
}

fn bad(path: &Path, what: impl std::fmt::Display) -> NpyError {
    err(path, format!("is not a readable .npz archive: {what}"))
}

fn read_at(file: &mut File, at: u64, buf: &mut [u8], path: &Path) -> Result<(), NpyError> {
    file.seek(SeekFrom::Start(at))
        .and_then(|_| file.read_exact(buf))
        .map_err(|e| {
            bad(
                path,
                format!("cannot read {} bytes at {at}: {e}", buf.len()),
            )
        })
}

impl Archive {
    pub fn open(path: &Path) -> Result<Archive, NpyError> {
        let mut file = xlet_core::source::open_regular(path)
            .map_err(|e| err(path, format!("cannot open: {e}")))?;
        let len = file
            .metadata()
            .map_err(|e| err(path, format!("cannot read: {e}")))?
            .len();
        // The end record is in the last 22 + 65535 (its comment) bytes.
        let tail_len = len.min(22 + 65535) as usize;
        let mut tail = alloc::try_filled(tail_len, 0u8, &"an archive's end")
            .map_err(|e| err(path, e.message))?;
        read_at(&mut file, len - tail_len as u64, &mut tail, path)?;
        let end = (0..tail_len.saturating_sub(21))
            .rev()
            .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))
            .ok_or_else(|| bad(path, "no end-of-archive record (truncated?)"))?;
        let e = &tail[end..];
        let mut count = u16_at(e, 10) as u64;
        let mut dir_size = u32_at(e, 12) as u64;
        let mut dir_offset = u32_at(e, 16) as u64;
        if count == 0xFFFF || dir_size == 0xFFFF_FFFF || dir_offset == 0xFFFF_FFFF {
            // Zip64: a locator just before the end record points at the
            // zip64 end record, which has the 64-bit counts.
            let at = end
                .checked_sub(20)
                .filter(|&l| tail[l..].starts_with(b"PK\x06\x07"))
                .ok_or_else(|| bad(path, "a zip64 archive without its locator"))?;
            let rec = u64_at(&tail, at + 8);
            let mut z = [0u8; 56];
            if rec.checked_add(56).is_none_or(|e| e > len) {
                return Err(bad(path, "its zip64 end record lies outside the file"));
            }
            read_at(&mut file, rec, &mut z, path)?;
            if !z.starts_with(b"PK\x06\x06") {
                return Err(bad(path, "no zip64 end record where the locator says"));
            }
            count = u64_at(&z, 32);
            dir_size = u64_at(&z, 40);
            dir_offset = u64_at(&z, 48);
        }
        if dir_offset.checked_add(dir_size).is_none_or(|e| e > len) {
            return Err(bad(
                path,
                format!(
                    "its directory ({dir_size} bytes at {dir_offset}) lies outside the file ({len} bytes)"
                ),
            ));
        }
        if dir_size > MAX_DIRECTORY_BYTES {
            return Err(bad(
                path,
                format!("a directory of {dir_size} bytes; xlet reads up to {MAX_DIRECTORY_BYTES}"),
            ));
        }
        let mut dir = alloc::try_filled(dir_size as usize, 0u8, &"an archive's directory")
            .map_err(|e| err(path, e.message))?;
        read_at(&mut file, dir_offset, &mut dir, path)?;
        let entries = parse_directory(&dir, count).map_err(|w| bad(path, w))?;
        Ok(Archive { file, len, entries })
    }

    /// The member holding the array `key` (`x` or `x.npy`).
    pub fn find(&self, key: &str, path: &Path) -> Result<&Entry, NpyError> {
        let with_ext = format!("{key}.npy");
        self.entries
            .iter()
            .find(|e| e.name == key || e.name == with_ext)
            .ok_or_else(|| {
                err(
                    path,
                    format!("has no array '{key}'; its arrays are {}", self.key_list()),
                )
            })
    }

    /// The arrays' names, for messages: `'a', 'b'` (the first 20).
    pub fn key_list(&self) -> String {
        if self.entries.is_empty() {
            return "none (the archive is empty)".into();
        }
        let mut s: Vec<String> = self
            .entries
            .iter()
            .take(20)
            .map(|e| format!("'{}'", e.name.strip_suffix(".npy").unwrap_or(&e.name)))
            .collect();
        if self.entries.len() > 20 {
            s.push(format!("and {} more", self.entries.len() - 20));
        }
        s.join(", ")
    }

    /// Where `e`'s data starts, after checking its local header.
    fn data_start(&mut self, e: &Entry, path: &Path) -> Result<u64, NpyError> {
        let mut h = [0u8; 30];
        if e.local_offset
            .checked_add(30)
            .is_none_or(|end| end > self.len)
        {
            return Err(bad(path, format!("'{}' starts outside the file", e.name)));
        }
        read_at(&mut self.file, e.local_offset, &mut h, path)?;
        if !h.starts_with(b"PK\x03\x04") {
            return Err(bad(path, format!("no local header for '{}'", e.name)));
        }
        let start = e.local_offset + 30 + u16_at(&h, 26) as u64 + u16_at(&h, 28) as u64;
        if start
            .checked_add(e.comp_size)
            .is_none_or(|end| end > self.len)
        {
            return Err(bad(
                path,
                format!(
                    "'{}' claims {} bytes beyond the end of the file (truncated?)",
                    e.name, e.comp_size
                ),
            ));
        }
        if e.flags & 1 != 0 {
            return Err(bad(path, format!("'{}' is encrypted", e.name)));
        }
        match e.method {
            0 if e.comp_size != e.size => Err(bad(
                path,
                format!(
                    "'{}' is stored uncompressed but states {} bytes stored and {} bytes of content",
                    e.name, e.comp_size, e.size
                ),
            )),
            0 | 8 => Ok(start),
            m => Err(bad(
                path,
                format!(
                    "'{}' is compressed with method {m}; xlet reads stored entries (np.savez) and deflate (np.savez_compressed)",
                    e.name
                ),
            )),
        }
    }

    /// The first `n` bytes (at most) of `e`'s content: enough for its header.
    pub fn head(&mut self, e: &Entry, n: usize, path: &Path) -> Result<Vec<u8>, NpyError> {
        let start = self.data_start(e, path)?;
        let n = n.min(usize::try_from(e.size).unwrap_or(usize::MAX));
        let mut out =
            alloc::try_filled(n, 0u8, &"an array's header").map_err(|x| err(path, x.message))?;
        self.file
            .seek(SeekFrom::Start(start))
            .map_err(|x| bad(path, x))?;
        if e.method == 0 {
            self.file
                .read_exact(&mut out)
                .map_err(|x| bad(path, format!("cannot read '{}': {x}", e.name)))?;
        } else {
            let mut r = (&mut self.file).take(e.comp_size);
            out.clear();
            let got = inflate_into(&mut r, &mut out, n)
                .map_err(|w| bad(path, format!("'{}': {w}", e.name)))?;
            out.truncate(got.written);
        }
        Ok(out)
    }

    /// `e`'s whole content, checked against its size and CRC; its size is
    /// admitted under the memory budget first. `f` reads it.
    pub fn with_content<T>(
        &mut self,
        e: &Entry,
        path: &Path,
        f: impl FnOnce(&mut dyn Read) -> Result<T, NpyError>,
    ) -> Result<T, NpyError> {
        let start = self.data_start(e, path)?;
        self.file
            .seek(SeekFrom::Start(start))
            .map_err(|x| bad(path, x))?;
        let mut src = (&mut self.file).take(e.comp_size);
        let (value, crc) = if e.method == 0 {
            let mut r = CrcReader {
                inner: &mut src,
                crc: !0,
            };
            let v = f(&mut r)?;
            (v, !r.crc)
        } else {
            // Declared size + 1: one byte more than declared is a lie.
            let size = usize::try_from(e.size)
                .ok()
                .and_then(|s| s.checked_add(1))
                .ok_or_else(|| bad(path, format!("'{}' claims {} bytes", e.name, e.size)))?;
            // Admitted whole first; allocated as the data arrives, so a
            // claim the data does not bear out costs nothing.
            alloc::admit(
                size,
                &format!("{}, array '{}' inflated", path.display(), e.name),
            )
            .map_err(|x| err(path, x.message))?;
            let mut buf = Vec::new();
            let got = inflate_into(&mut src, &mut buf, size)
                .map_err(|w| bad(path, format!("'{}': {w}", e.name)))?;
            if got.written as u64 != e.size || !got.ended {
                return Err(bad(
                    path,
                    format!(
                        "'{}' declares {} bytes of content but inflates to {}",
                        e.name,
                        e.size,
                        if got.written as u64 > e.size {
                            "more".to_string()
                        } else {
                            got.written.to_string()
                        }
                    ),
                ));
            }
            buf.truncate(got.written);
            let crc = crc32(!0, &buf);
            let v = f(&mut &buf[..])?;
            (v, !crc)
        };
        if crc != e.crc {
            return Err(bad(
                path,
                format!("'{}' fails its checksum (corrupt data)", e.name),
            ));
        }
        Ok(value)
    }
}

fn parse_directory(dir: &[u8], count: u64) -> Result<Vec<Entry>, String> {
    let mut out = vec![];
    let mut at = 0usize;
    for _ in 0..count {
        if at + 46 > dir.len() || !dir[at..].starts_with(b"PK\x01\x02") {
            return Err("its directory is cut short or corrupt".into());
        }
        let d = &dir[at..];
        let name_len = u16_at(d, 28) as usize;
        let extra_len = u16_at(d, 30) as usize;
        let comment_len = u16_at(d, 32) as usize;
        let end = 46 + name_len + extra_len + comment_len;
        if end > d.len() {
            return Err("its directory is cut short".into());
        }
        let name = String::from_utf8_lossy(&d[46..46 + name_len]).into_owned();
        let mut e = Entry {
            name,
            method: u16_at(d, 10),
            flags: u16_at(d, 8),
            crc: u32_at(d, 16),
            comp_size: u32_at(d, 20) as u64,
            size: u32_at(d, 24) as u64,
            local_offset: u32_at(d, 42) as u64,
        };
        zip64_extra(&mut e, &d[46 + name_len..46 + name_len + extra_len]);
        out.push(e);
        at += end;
    }
    Ok(out)
}

/// The zip64 extra field (id 1) holds, in order, the sizes and the offset
/// whose 32-bit fields are 0xFFFFFFFF.
fn zip64_extra(e: &mut Entry, mut extra: &[u8]) {
    while extra.len() >= 4 {
        let id = u16_at(extra, 0);
        let n = (u16_at(extra, 2) as usize).min(extra.len() - 4);
        let mut f = &extra[4..4 + n];
        if id == 1 {
            for v in [&mut e.size, &mut e.comp_size, &mut e.local_offset] {
                if *v == 0xFFFF_FFFF && f.len() >= 8 {
                    *v = u64_at(f, 0);
                    f = &f[8..];
                }
            }
        }
        extra = &extra[4 + n..];
    }
}

struct Inflated {
    written: usize,
    /// The deflate stream ended (else `out` filled first).
    ended: bool,
}

/// Inflates raw deflate data from `r` into `out` (which grows, through the
/// accounting allocator, as the data arrives), stopping when the stream ends
/// or `limit` bytes are out, whichever is first.
fn inflate_into(r: &mut impl Read, out: &mut Vec<u8>, limit: usize) -> Result<Inflated, String> {
    let mut state = InflateState::new_boxed(DataFormat::Raw);
    let mut input = [0u8; 1 << 15];
    let (mut from, mut to) = (0usize, 0usize);
    let mut eof = false;
    let mut written = 0;
    loop {
        if from == to && !eof {
            from = 0;
            to = loop {
                match r.read(&mut input) {
                    Ok(k) => break k,
                    Err(x) if x.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(x) => return Err(format!("cannot read: {x}")),
                }
            };
            eof = to == 0;
        }
        if written == out.len() {
            grow(out, limit)?;
        }
        let res = inflate(
            &mut state,
            &input[from..to],
            &mut out[written..],
            MZFlush::None,
        );
        from += res.bytes_consumed;
        written += res.bytes_written;
        match res.status {
            Ok(MZStatus::StreamEnd) => {
                return Ok(Inflated {
                    written,
                    ended: true,
                });
            }
            Ok(_) | Err(MZError::Buf) => {}
            Err(x) => return Err(format!("corrupt compressed data ({x:?})")),
        }
        if written == limit {
            return Ok(Inflated {
                written,
                ended: false,
            });
        }
        if res.bytes_consumed == 0 && res.bytes_written == 0 && (eof || from < to) {
            return Err("its compressed data ends early (truncated or corrupt)".into());
        }
    }
}

/// `out` longer (doubled, at least 64 KiB, at most `limit`), zero-filled.
fn grow(out: &mut Vec<u8>, limit: usize) -> Result<(), String> {
    let len = limit.min(out.len().saturating_mul(2).max(1 << 16));
    let mut v = alloc::try_output_vec::<u8>(len, &"inflated data").map_err(|x| x.message)?;
    v.extend_from_slice(out);
    v.extend(std::iter::repeat_n(0u8, len - out.len()));
    *out = v;
    Ok(())
}

/// Reads through, computing the CRC-32 of what passed.
struct CrcReader<'r> {
    inner: &'r mut dyn Read,
    crc: u32,
}

impl Read for CrcReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc = crc32(self.crc, &buf[..n]);
        Ok(n)
    }
}

const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// The zip CRC-32 continued over `bytes` (start with `!0`, finish with `!`).
pub fn crc32(mut crc: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        crc = CRC_TABLE[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc
}
