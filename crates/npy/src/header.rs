//! The `.npy` header's dict (`{'descr': '<f4', 'fortran_order': False,
//! 'shape': (3, 4), }`), parsed in one pass: time linear in its length and
//! nesting at most `MAX_NESTING` deep, so that a hostile header (a list nested
//! forty deep, a megabyte of brackets) fails at once instead of making a
//! general Python-literal parser backtrack for ever.

/// How deeply a value in the header may nest: a structured dtype's fields with
/// sub-array shapes need three levels (`[('a', '<f4', (2,))]`); numpy's own
/// headers never need more than a few.
pub const MAX_NESTING: usize = 16;

/// What the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The dtype string (`<f4`), or `Err(text)` for a structured dtype written
    /// as a list, with its text for the message.
    pub descr: Result<String, String>,
    pub fortran: bool,
    pub shape: Vec<usize>,
}

/// A Python literal as numpy writes them in headers.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Lit {
    Str(String),
    Bool(bool),
    Int(u128),
    Seq(Vec<Lit>),
    Other,
}

struct P<'a> {
    s: &'a [u8],
    at: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn fail(&self, what: &str) -> String {
        format!("{what} at byte {} of the header's dict", self.at)
    }

    fn string(&mut self) -> Result<String, String> {
        let q = self.s[self.at];
        self.at += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.at) {
            self.at += 1;
            match c {
                b'\\' => {
                    if let Some(&e) = self.s.get(self.at) {
                        out.push(e);
                        self.at += 1;
                    }
                }
                c if c == q => return Ok(String::from_utf8_lossy(&out).into_owned()),
                c => out.push(c),
            }
        }
        Err(self.fail("an unterminated string"))
    }

    fn value(&mut self, depth: usize) -> Result<Lit, String> {
        if depth > MAX_NESTING {
            return Err(self.fail(&format!("values nested more than {MAX_NESTING} deep")));
        }
        match self.peek() {
            Some(b'\'' | b'"') => self.string().map(Lit::Str),
            Some(open @ (b'(' | b'[')) => {
                self.at += 1;
                let close = if open == b'(' { b')' } else { b']' };
                let mut items = vec![];
                loop {
                    if self.eat(close) {
                        return Ok(Lit::Seq(items));
                    }
                    items.push(self.value(depth + 1)?);
                    if !self.eat(b',') {
                        if self.eat(close) {
                            return Ok(Lit::Seq(items));
                        }
                        return Err(self.fail("expected `,` or a closing bracket"));
                    }
                }
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.at;
                while self.at < self.s.len() && self.s[self.at].is_ascii_digit() {
                    self.at += 1;
                }
                let digits = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
                // Python 2 wrote long integers with an L.
                if matches!(self.s.get(self.at), Some(b'L' | b'l')) {
                    self.at += 1;
                }
                digits
                    .parse::<u128>()
                    .map(Lit::Int)
                    .map_err(|_| self.fail("an integer too large"))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let start = self.at;
                while self.at < self.s.len() && self.s[self.at].is_ascii_alphanumeric() {
                    self.at += 1;
                }
                Ok(match &self.s[start..self.at] {
                    b"True" => Lit::Bool(true),
                    b"False" => Lit::Bool(false),
                    _ => Lit::Other,
                })
            }
            Some(b'-') => Err(self.fail("a negative number")),
            Some(_) => Err(self.fail("an unexpected character")),
            None => Err(self.fail("the end of the header")),
        }
    }
}

/// Parses the header's dict text (everything after the length field).
pub fn parse(text: &[u8]) -> Result<Parsed, String> {
    let mut p = P { s: text, at: 0 };
    if !p.eat(b'{') {
        return Err("the header is not a Python dict".into());
    }
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        if p.eat(b'}') {
            break;
        }
        if !matches!(p.peek(), Some(b'\'' | b'"')) {
            return Err(p.fail("expected a quoted key"));
        }
        let key = p.string()?;
        if !p.eat(b':') {
            return Err(p.fail("expected `:`"));
        }
        let start = {
            p.ws();
            p.at
        };
        let v = p.value(1)?;
        let raw = String::from_utf8_lossy(&text[start..p.at]).into_owned();
        match key.as_str() {
            "descr" => {
                descr = Some(match v {
                    Lit::Str(s) => Ok(s),
                    _ => Err(raw),
                })
            }
            "fortran_order" => match v {
                Lit::Bool(b) => fortran = Some(b),
                _ => return Err(format!("'fortran_order' is {raw}, not True or False")),
            },
            "shape" => {
                let Lit::Seq(items) = v else {
                    return Err(format!("'shape' is {raw}, not a tuple of sizes"));
                };
                let dims = items
                    .iter()
                    .map(|d| match d {
                        Lit::Int(n) => usize::try_from(*n).ok(),
                        _ => None,
                    })
                    .collect::<Option<Vec<usize>>>()
                    .ok_or_else(|| format!("'shape' is {raw}, not a tuple of sizes"))?;
                shape = Some(dims);
            }
            other => return Err(format!("unexpected key '{other}'")),
        }
        if !p.eat(b',') {
            if p.eat(b'}') {
                break;
            }
            return Err(p.fail("expected `,` or `}`"));
        }
    }
    p.ws();
    if p.at != text.len() {
        return Err(p.fail("text after the dict"));
    }
    match (descr, fortran, shape) {
        (Some(descr), Some(fortran), Some(shape)) => Ok(Parsed {
            descr,
            fortran,
            shape,
        }),
        _ => Err("the dict must have the keys 'descr', 'fortran_order' and 'shape'".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_headers_parse() {
        let p = parse(b"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }   \n").unwrap();
        assert_eq!(p.descr, Ok("<f4".to_string()));
        assert!(!p.fortran);
        assert_eq!(p.shape, [3, 4]);
        let p = parse(b"{\"shape\": (7,), \"fortran_order\": True, \"descr\": \"|b1\"}").unwrap();
        assert_eq!((p.shape, p.fortran), (vec![7], true));
        assert!(
            parse(b"{'descr':'<V2','fortran_order':False,'shape':()}")
                .unwrap()
                .shape
                .is_empty()
        );
        assert_eq!(
            parse(b"{'descr':'<i8','fortran_order':False,'shape':(2L, 3L)}")
                .unwrap()
                .shape,
            [2, 3]
        );
        let s = parse(
            b"{'descr': [('a', '<f4'), ('b', '<i4', (2,))], 'fortran_order': False, 'shape': (1,)}",
        )
        .unwrap();
        assert_eq!(
            s.descr,
            Err("[('a', '<f4'), ('b', '<i4', (2,))]".to_string())
        );
    }

    #[test]
    fn bad_headers_fail_fast() {
        for bad in [
            &b"{'descr': '<f4', 'fortran_order': False}"[..],
            b"{'descr': '<f4', 'fortran_order': 0, 'shape': ()}",
            b"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
            b"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}",
            b"{'descr': '<f4",
            b"[1]",
        ] {
            assert!(parse(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        // Nested forty deep: refused at once (a general parser took minutes).
        let deep = format!(
            "{{'descr': '<f4', 'fortran_order': False, 'shape': {}1{}}}",
            "[".repeat(40),
            "]".repeat(40)
        );
        let t = std::time::Instant::now();
        assert!(parse(deep.as_bytes()).unwrap_err().contains("nested"));
        // A megabyte of brackets: linear.
        let wide = format!("{{'shape': {}", "[".repeat(1 << 20));
        assert!(parse(wide.as_bytes()).is_err());
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
    }
}
