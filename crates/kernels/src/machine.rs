//! What the machine reports about its caches, for the kernels whose tile sizes
//! depend on them (issue 26: tile sizes and streaming-store thresholds tuned on
//! one CPU did not carry over to another).
//!
//! Read once per process from Linux's `/sys/devices/system/cpu/cpu0/cache`
//! (each `indexN` directory gives a level, a type and a size); where that is
//! missing (another OS, a container hiding it) the sizes are the common ones
//! of x86 server cores. These are facts about the hardware, not settings of a
//! run, so they live in a process-wide cell rather than in the run
//! configuration; no result depends on them, only speed.

use std::sync::OnceLock;

/// Data cache sizes in bytes, per core for L1 and L2, shared for L3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    pub l1d: usize,
    pub l2: usize,
    pub l3: usize,
}

/// The sizes assumed when the system does not say: 32 KiB L1d, 512 KiB L2,
/// 8 MiB L3 (smaller than most current server parts, so tiles fit anyway).
pub const FALLBACK: Caches = Caches {
    l1d: 32 << 10,
    l2: 512 << 10,
    l3: 8 << 20,
};

/// This machine's caches (read once).
pub fn caches() -> Caches {
    static CACHES: OnceLock<Caches> = OnceLock::new();
    *CACHES.get_or_init(|| read_sysfs("/sys/devices/system/cpu/cpu0/cache").unwrap_or(FALLBACK))
}

/// The caches listed under `dir` (the sysfs layout); None if nothing is there.
/// A level the listing lacks keeps its fallback size.
pub fn read_sysfs(dir: &str) -> Option<Caches> {
    let mut c = FALLBACK;
    let mut any = false;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let read = |f: &str| std::fs::read_to_string(path.join(f)).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            continue;
        };
        let Some(bytes) = parse_size(size.trim()) else {
            continue;
        };
        match (level.trim(), kind.trim()) {
            ("1", "Data") => c.l1d = bytes,
            ("2", "Unified" | "Data") => c.l2 = bytes,
            ("3", "Unified" | "Data") => c.l3 = bytes,
            _ => continue,
        }
        any = true;
    }
    any.then_some(c)
}

/// "48K", "2048K", "32M", "1024" (bytes) as bytes.
pub fn parse_size(s: &str) -> Option<usize> {
    let (num, mul) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1 << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<usize>().ok()?.checked_mul(mul)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_the_sysfs_spelling() {
        assert_eq!(parse_size("48K"), Some(48 << 10));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("1024"), Some(1024));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("K"), None);
    }

    #[test]
    fn a_missing_listing_gives_none_and_the_machine_gives_sane_sizes() {
        assert_eq!(read_sysfs("/nonexistent/xlet/cache"), None);
        let c = caches();
        assert!(
            c.l1d >= 4 << 10 && c.l2 >= c.l1d && c.l3 >= 1 << 20,
            "{c:?}"
        );
    }
}
