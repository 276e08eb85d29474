//! Reading program text: a file, or standard input, as UTF-8, at most
//! `MAX_SOURCE_BYTES` (spec/commands.md §1.1). `xlet run`, `xlet check` and the
//! REPL's `:load` read through here, so they all refuse the same inputs the same way.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest program text xlet reads: 64 MiB. Pasted weights run to a few MB;
/// anything bigger is a mistake that must fail fast, not after reading
/// gigabytes (special files such as `/dev/zero` are refused before reading).
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// Why a program text could not be read. Rendered as `error: cannot read NAME: WHY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The file's name as given, or `<stdin>`.
    pub name: String,
    pub why: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "cannot read {}: {}", self.name, self.why)
    }
}

/// Reads a file, or stdin when `path` is `None` or `-`. Returns the name to show in
/// diagnostics (`<stdin>` for standard input) and the text.
pub fn read(path: Option<&Path>) -> Result<(String, String), ReadError> {
    match path {
        Some(p) if p != Path::new("-") => read_file(p).map(|s| (p.display().to_string(), s)),
        _ => read_from("<stdin>", std::io::stdin().lock()).map(|s| ("<stdin>".to_string(), s)),
    }
}

/// Opens a file for reading only if it is a regular file. A FIFO nobody writes
/// would block the open (and then the read) in a system call that Ctrl-C does
/// not interrupt, and a device can be endless: both are refused. The open
/// itself cannot block (O_NONBLOCK, which changes nothing for a regular file).
/// `xlet run`, `:load`, `--infeed` and `LoadNpy` all open through here.
pub fn open_regular(p: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(p)?;
    let t = f.metadata()?.file_type();
    if t.is_file() {
        return Ok(f);
    }
    let kind = if t.is_dir() {
        "a directory"
    } else {
        special_kind(&t)
    };
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "it is {kind}, not a regular file (xlet reads programs and data from regular files; `-` reads standard input)"
        ),
    ))
}

#[cfg(unix)]
fn special_kind(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_t: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Reads one file (the REPL's `:load` after it has expanded `~`).
pub fn read_file(p: &Path) -> Result<String, ReadError> {
    let name = p.display().to_string();
    match open_regular(p) {
        Ok(f) => read_from(&name, f),
        Err(e) => Err(ReadError {
            name,
            why: e.to_string(),
        }),
    }
}

/// Reads at most `MAX_SOURCE_BYTES` (plus one, to know there was more) from `r`.
pub fn read_from(name: &str, r: impl Read) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    let limit = MAX_SOURCE_BYTES as u64 + 1;
    if let Err(e) = r.take(limit).read_to_end(&mut bytes) {
        return Err(ReadError {
            name: name.to_string(),
            why: e.to_string(),
        });
    }
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(ReadError {
            name: name.to_string(),
            why: format!(
                "it is larger than {} MiB, the most xlet reads as a program",
                MAX_SOURCE_BYTES >> 20
            ),
        });
    }
    decode(name, bytes)
}

/// The bytes as UTF-8 text, without a leading byte-order mark (editors on
/// Windows write one; it is not part of the program); where they are not
/// UTF-8, the line and column (in characters) of the first bad byte.
pub fn decode(name: &str, mut bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        // The prefix is valid UTF-8 by definition.
        let before = std::str::from_utf8(&bytes[..at]).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col = before[line_start..].chars().count() + 1;
        ReadError {
            name: name.to_string(),
            why: format!(
                "invalid UTF-8 at line {line}, column {col} (byte {at} is 0x{:02x}); a program must be UTF-8 text",
                bytes[at]
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_names_line_and_column() {
        let e = decode("f.xlet", b"let a = 1\nlet \xc3\xa9b\xff = 2\n".to_vec()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read f.xlet: invalid UTF-8 at line 2, column 7 (byte 17 is 0xff); a program must be UTF-8 text"
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let bom = |s: &str| [&b"\xef\xbb\xbf"[..], s.as_bytes()].concat();
        assert_eq!(decode("f", bom("let a = 1\n")).unwrap(), "let a = 1\n");
        assert_eq!(read_from("<stdin>", &bom("a")[..]).unwrap(), "a");
        assert_eq!(decode("f", bom("")).unwrap(), "");
        // Only at the start: one later is an ordinary (non-ASCII) character.
        assert_eq!(decode("f", bom("a\u{feff}")).unwrap(), "a\u{feff}");
    }

    #[test]
    fn reading_stops_at_the_cap() {
        // An endless reader (like /dev/zero) is refused after the cap, not read to the end.
        let e = read_from("<stdin>", std::io::repeat(b' ')).unwrap_err();
        assert!(e.why.contains("larger than 64 MiB"), "{e}");
        assert_eq!(
            read_from("x", &b"let a = 1"[..]).unwrap(),
            "let a = 1".to_string()
        );
    }
}
