//! Small helpers so messages read as English: "an s32 value", "1 dimension".

/// `word` with "a" or "an" before it, by how its first letter is spoken: element
/// types are read letter by letter ("an s32", "an f16", "a u8", "a pred").
pub fn a(word: &str) -> String {
    let spelled = word.len() > 1 && word[1..].starts_with(|c: char| c.is_ascii_digit());
    let first = word.chars().next().map(|c| c.to_ascii_lowercase());
    let vowel_sound = match first {
        Some('a' | 'e' | 'i' | 'o') => true,
        // Letters whose names start with a vowel sound, when read as letters.
        Some('f' | 'h' | 'l' | 'm' | 'n' | 'r' | 's' | 'x') => spelled,
        _ => false,
    };
    format!("{} {word}", if vowel_sound { "an" } else { "a" })
}

/// `n` and the noun, plural unless `n` is 1: "1 dimension", "3 dimensions", "0 entries".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y') {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles() {
        assert_eq!(a("s32"), "an s32");
        assert_eq!(a("f16"), "an f16");
        assert_eq!(a("u8"), "a u8");
        assert_eq!(a("bf16"), "a bf16");
        assert_eq!(a("pred"), "a pred");
        assert_eq!(a("s"), "a s");
        assert_eq!(a("integer"), "an integer");
    }

    #[test]
    fn counts() {
        assert_eq!(count(1, "dimension"), "1 dimension");
        assert_eq!(count(0, "dimension"), "0 dimensions");
        assert_eq!(count(2, "entry"), "2 entries");
        assert_eq!(count(1, "entry"), "1 entry");
    }
}
