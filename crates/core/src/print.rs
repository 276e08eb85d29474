//! Values printed as typed literals that parse back to the same value
//! (spec/printing.md): `f32[2x3] {{8, 10, 12}, {11, 13, 15}}`, `s32 5`,
//! `(f32[2], s32) ({1, 2}, 5)`. Floats print the shortest text that reads back
//! to the same bits. Large arrays are elided numpy-style unless `full`.

use crate::config::interrupted;
use crate::value::{Array, Nd, Scalar, Value};
use crate::with_array;
use half::{bf16, f16};
use std::io::{self, Write};

pub mod summary;

#[derive(Clone, Debug)]
pub struct PrintOptions {
    /// Print every element, however many.
    pub full: bool,
    /// Above this many elements, elide.
    pub threshold: usize,
    /// Elements kept at each end of an elided dimension.
    pub edge: usize,
    /// Lines longer than this break rows onto their own lines.
    pub width: usize,
    /// At most this many significant digits per float (`--precision`,
    /// `:precision`); `None` prints the shortest text that reads back to
    /// the same value (spec/printing.md §5).
    pub precision: Option<u32>,
    /// An array that would be elided prints as its summary line instead
    /// (`--summary`, spec/printing.md §6).
    pub summary: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            full: false,
            threshold: 1000,
            edge: 3,
            width: 100,
            precision: None,
            summary: false,
        }
    }
}

/// Formats one element the way a literal of its type would be written.
pub trait FormatElem: Scalar {
    fn fmt_elem(self) -> String;
    /// The element with at most `digits` significant digits (floats; other
    /// types print as `fmt_elem`).
    fn fmt_prec(self, digits: u32) -> String {
        let _ = digits;
        self.fmt_elem()
    }
    /// `fmt_elem`, or `fmt_prec` when a precision is set.
    fn fmt_with(self, precision: Option<u32>) -> String {
        match precision {
            Some(d) => self.fmt_prec(d),
            None => self.fmt_elem(),
        }
    }
    /// The byte, for `u8`: the storage of the small types, which print from
    /// their own type (`Body::small`).
    fn byte(self) -> Option<u8> {
        None
    }
}

/// A small type's element: a float prints as the f32 of the same value (the
/// shortest text that reads back to it, hence to the same pattern), an
/// integer as its value.
pub fn fmt_small(t: crate::small::SmallType, b: u8) -> String {
    fmt_small_with(t, b, None)
}

/// `fmt_small` with a precision (spec/printing.md §5).
pub fn fmt_small_with(t: crate::small::SmallType, b: u8, precision: Option<u32>) -> String {
    if t.is_float() {
        (t.to_f64(b) as f32).fmt_with(precision)
    } else {
        t.to_i64(b).to_string()
    }
}

/// `full` (an element's full-precision text, of value `v`) with at most
/// `digits` significant digits: `full` itself when it has no more, else `v`
/// rounded to `digits` significant digits, printed as an f64 prints.
fn round_sig(full: String, v: f64, digits: u32) -> String {
    let digits = digits.clamp(1, 17);
    if !v.is_finite() || v == 0.0 {
        return full;
    }
    let mantissa = full.split('e').next().unwrap_or("");
    let significant = mantissa
        .chars()
        .filter(|c| c.is_ascii_digit())
        .skip_while(|&c| c == '0')
        .count();
    // Trailing zeros of a whole number are not significant digits to cut.
    let trailing_zeros = if mantissa.contains('.') {
        0
    } else {
        mantissa.len() - mantissa.trim_end_matches('0').len()
    };
    if significant.saturating_sub(trailing_zeros) <= digits as usize {
        return full;
    }
    match format!("{:.*e}", digits as usize - 1, v).parse::<f64>() {
        Ok(r) => tidy_float(format!("{r:?}")),
        Err(_) => full,
    }
}

macro_rules! fmt_int {
    ($($t:ty),*) => {$( impl FormatElem for $t { fn fmt_elem(self) -> String { self.to_string() } } )*};
}
fmt_int!(i8, i16, i32, i64, u16, u32, u64);

impl FormatElem for u8 {
    fn fmt_elem(self) -> String {
        self.to_string()
    }
    fn byte(self) -> Option<u8> {
        Some(self)
    }
}

impl FormatElem for bool {
    fn fmt_elem(self) -> String {
        self.to_string()
    }
}

/// Rust's `{:?}` of a float is the shortest text that parses back to the same value;
/// drop the `.0` of whole numbers and spell NaN the way the language reads it.
fn tidy_float(s: String) -> String {
    let s = match s.as_str() {
        "NaN" => return "nan".into(),
        "-NaN" => return "-nan".into(),
        _ => s,
    };
    if let Some(stripped) = s.strip_suffix(".0") {
        stripped.to_string()
    } else if let Some((mant, exp)) = s.split_once('e') {
        let mant = mant.strip_suffix(".0").unwrap_or(mant);
        format!("{mant}e{exp}")
    } else {
        s
    }
}

impl FormatElem for f32 {
    fn fmt_elem(self) -> String {
        tidy_float(format!("{self:?}"))
    }
    fn fmt_prec(self, digits: u32) -> String {
        round_sig(self.fmt_elem(), self as f64, digits)
    }
}
impl FormatElem for f64 {
    fn fmt_elem(self) -> String {
        tidy_float(format!("{self:?}"))
    }
    fn fmt_prec(self, digits: u32) -> String {
        round_sig(self.fmt_elem(), self, digits)
    }
}

/// The shortest decimal (by significant digits) that reads back to the same half value.
fn shortest_half<H: Copy + PartialEq>(x: H, to: fn(H) -> f32, from: fn(f64) -> H) -> String {
    let v = to(x);
    if !v.is_finite() || v == 0.0 {
        return v.fmt_elem();
    }
    for digits in 1..=9 {
        let s = format!("{:.*e}", digits - 1, v);
        if let Ok(back) = s.parse::<f64>()
            && from(back) == x
        {
            // Present it as f32 would (plain decimal where short).
            return (back as f32).fmt_elem();
        }
    }
    v.fmt_elem()
}

impl FormatElem for f16 {
    fn fmt_elem(self) -> String {
        if self.is_nan() {
            return "nan".into();
        }
        shortest_half(self, f16::to_f32, f16::from_f64)
    }
    fn fmt_prec(self, digits: u32) -> String {
        round_sig(self.fmt_elem(), self.to_f64(), digits)
    }
}
impl FormatElem for bf16 {
    fn fmt_elem(self) -> String {
        if self.is_nan() {
            return "nan".into();
        }
        shortest_half(self, bf16::to_f32, bf16::from_f64)
    }
    fn fmt_prec(self, digits: u32) -> String {
        round_sig(self.fmt_elem(), self.to_f64(), digits)
    }
}

// A complex element is `(re, im)`, each part as its real type prints it.
impl FormatElem for crate::value::c64 {
    fn fmt_elem(self) -> String {
        format!("({}, {})", self.re.fmt_elem(), self.im.fmt_elem())
    }
    fn fmt_prec(self, digits: u32) -> String {
        format!(
            "({}, {})",
            self.re.fmt_prec(digits),
            self.im.fmt_prec(digits)
        )
    }
}
impl FormatElem for crate::value::c128 {
    fn fmt_elem(self) -> String {
        format!("({}, {})", self.re.fmt_elem(), self.im.fmt_elem())
    }
    fn fmt_prec(self, digits: u32) -> String {
        format!(
            "({}, {})",
            self.re.fmt_prec(digits),
            self.im.fmt_prec(digits)
        )
    }
}

/// Why a print stopped early.
#[derive(Debug)]
pub enum PrintError {
    /// Ctrl-C (`config::interrupted`) was seen while printing.
    Interrupted,
    /// The writer failed (a closed pipe, a full disk).
    Io(io::Error),
}

impl From<io::Error> for PrintError {
    fn from(e: io::Error) -> Self {
        PrintError::Io(e)
    }
}

/// What `format_value` appends when Ctrl-C stops a print halfway.
pub const INTERRUPTED_MARK: &str = " ... ^C (printing interrupted)";

/// The value as a typed literal. Bounded by what it shows when elision is on; with
/// `full`, prefer `write_value`, which streams instead of building the text.
pub fn format_value(v: &Value, opts: &PrintOptions) -> String {
    let mut buf = Vec::new();
    let stopped = write_value(&mut buf, v, opts).is_err();
    let mut s = String::from_utf8(buf).unwrap_or_default();
    if stopped {
        s.push_str(INTERRUPTED_MARK);
    }
    s
}

/// Writes the value as a typed literal (without a trailing line break), streaming:
/// memory stays bounded whatever the value's size, and the time is proportional to
/// what is shown. Stops with `PrintError::Interrupted` when Ctrl-C is pressed.
pub fn write_value(w: &mut dyn Write, v: &Value, opts: &PrintOptions) -> Result<(), PrintError> {
    write_value_until(w, v, opts, &|| interrupted())
}

/// `format_value` for a value printed after `col` characters of its line
/// (`outfeed 3: VALUE`): broken lines align under the value's own brackets.
pub fn format_value_at(v: &Value, opts: &PrintOptions, col: usize) -> String {
    let mut buf = Vec::new();
    let stop = || interrupted();
    let stopped = write_value_from(&mut buf, v, opts, &stop, col).is_err();
    let mut s = String::from_utf8(buf).unwrap_or_default();
    if stopped {
        s.push_str(INTERRUPTED_MARK);
    }
    s
}

/// `write_value`, stopping when `stop` says so (checked every few thousand pieces).
fn write_value_until(
    w: &mut dyn Write,
    v: &Value,
    opts: &PrintOptions,
    stop: &dyn Fn() -> bool,
) -> Result<(), PrintError> {
    write_value_from(w, v, opts, stop, 0)
}

/// `write_value_until` for a value that starts at column `col` of its line.
fn write_value_from(
    w: &mut dyn Write,
    v: &Value,
    opts: &PrintOptions,
    stop: &dyn Fn() -> bool,
    col: usize,
) -> Result<(), PrintError> {
    let mut out = Out {
        w,
        ticks: 0,
        stop,
        col,
    };
    match v {
        Value::Array(a)
            if opts.summary && !opts.full && unelided_items(a.dims()) > opts.threshold =>
        {
            out.put(&summary::line(a, opts.precision))
        }
        Value::Array(a) => {
            let t = a.array_type();
            let head = if t.dims.is_empty() {
                t.elem.to_string()
            } else {
                t.to_string()
            };
            out.put(&head)?;
            out.put(" ")?;
            let at = out.col;
            array_body(&mut out, a, opts, at)
        }
        Value::Tuple(items) => {
            out.put(&v.ty().to_string())?;
            out.put(" ")?;
            tuple_body(&mut out, items, opts)
        }
    }
}

/// A tuple's elements without their types (the tuple's type already says them).
/// On one line when that fits the width; else, if an element is an array of
/// rank 1 or more or a tuple, each element on its own line, one column right
/// of the `(`, laid out in turn from there (as an array's rows are).
fn tuple_body(out: &mut Out, items: &[Value], opts: &PrintOptions) -> Result<(), PrintError> {
    let open = out.col;
    let room = opts.width.saturating_sub(open);
    let nested = items.iter().any(|v| match v {
        Value::Array(a) => !a.dims().is_empty(),
        Value::Tuple(_) => true,
    });
    let sep = if nested && tuple_flat_len(items, opts, room) > room {
        format!(",\n{}", " ".repeat(open + 1))
    } else {
        ", ".to_string()
    };
    out.put("(")?;
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.put(&sep)?;
        }
        match item {
            Value::Array(a) => {
                let at = out.col;
                array_body(out, a, opts, at)?
            }
            Value::Tuple(inner) => tuple_body(out, inner, opts)?,
        }
    }
    out.put(if items.len() == 1 { ",)" } else { ")" })
}

/// Length of a tuple body's one-line form, exact up to `cap` (anything above
/// is some length above `cap`; cost O(cap)).
fn tuple_flat_len(items: &[Value], opts: &PrintOptions, cap: usize) -> usize {
    let mut len = if items.len() == 1 { 3 } else { 2 };
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            len += 2;
        }
        if len > cap {
            return len;
        }
        let left = cap - len;
        len += match item {
            Value::Array(a) => {
                let elide = !opts.full && unelided_items(a.dims()) > opts.threshold;
                with_array!(a, x => {
                    let mut body = Body::new(x, elide, opts, a.elem().small());
                    body.flat_len(0, left)
                })
            }
            Value::Tuple(inner) => tuple_flat_len(inner, opts, left),
        };
    }
    len
}

/// The writer, checking for Ctrl-C every so many pieces written, and keeping
/// the column it is at (characters since the last line break).
struct Out<'w> {
    w: &'w mut dyn Write,
    ticks: u32,
    stop: &'w dyn Fn() -> bool,
    col: usize,
}

impl Out<'_> {
    /// `n` spaces, without a string of them.
    fn spaces(&mut self, mut n: usize) -> Result<(), PrintError> {
        const SPACES: &str = "                                                                ";
        while n > 0 {
            let k = n.min(SPACES.len());
            self.put(&SPACES[..k])?;
            n -= k;
        }
        Ok(())
    }

    fn put(&mut self, s: &str) -> Result<(), PrintError> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(4096) && (self.stop)() {
            return Err(PrintError::Interrupted);
        }
        self.w.write_all(s.as_bytes())?;
        match s.rfind('\n') {
            Some(at) => self.col = s[at + 1..].chars().count(),
            None => self.col += s.chars().count(),
        }
        Ok(())
    }
}

/// How many innermost brace lists or elements the body would show unelided: the
/// element count, or for an empty array the `{}` leaves before its first size-0
/// dimension (`f32[100000000x0]` has 10^8 of them, and is elided like a big array).
fn unelided_items(dims: &[usize]) -> usize {
    let mut n: usize = 1;
    for &d in dims {
        if d == 0 {
            break;
        }
        n = n.saturating_mul(d);
    }
    n
}

fn array_body(
    out: &mut Out,
    a: &Array,
    opts: &PrintOptions,
    indent: usize,
) -> Result<(), PrintError> {
    let elide = !opts.full && unelided_items(a.dims()) > opts.threshold;
    with_array!(a, x => {
        let mut body = Body::new(x, elide, opts, a.elem().small());
        body.layout(out, 0, opts.width.saturating_sub(indent), indent)
    })
}

/// The entries of a dimension of size `n` that are shown: `Some(i)`, or `None` for `...`.
fn entries(n: usize, elide: bool, edge: usize) -> impl Iterator<Item = Option<usize>> {
    let cut = elide && n > 2 * edge;
    let head = if cut { edge } else { n };
    let tail = if cut { n - edge..n } else { 0..0 };
    (0..head)
        .map(Some)
        .chain(cut.then_some(None))
        .chain(tail.map(Some))
}

/// An array's body, read element by element straight from the (possibly strided)
/// array: only the shown elements are ever formatted.
struct Body<'a, T> {
    a: &'a Nd<T>,
    dims: &'a [usize],
    elide: bool,
    edge: usize,
    /// The index being visited; `idx[..depth]` is fixed by the enclosing lists.
    idx: Vec<usize>,
    scratch: String,
    /// The small type whose patterns the (`u8`) elements are.
    small: Option<crate::small::SmallType>,
    precision: Option<u32>,
}

impl<'a, T> Body<'a, T> {
    /// The body of `a`, elided to `opts.edge` entries per end of a dimension when `elide`.
    fn new(
        x: &'a Nd<T>,
        elide: bool,
        opts: &PrintOptions,
        small: Option<crate::small::SmallType>,
    ) -> Self {
        Body {
            a: x,
            dims: x.shape(),
            elide,
            edge: opts.edge,
            idx: vec![0; x.ndim()],
            scratch: String::new(),
            small,
            precision: opts.precision,
        }
    }
}

impl<T: FormatElem> Body<'_, T> {
    /// The element at `idx` as text (in `scratch`).
    fn elem(&mut self) -> &str {
        #[cfg(test)]
        tests::FORMATTED.with(|c| c.set(c.get() + 1));
        self.scratch = match self.a.get(&self.idx[..]) {
            Some(&v) => match (self.small, v.byte()) {
                (Some(t), Some(b)) => fmt_small_with(t, b, self.precision),
                _ => v.fmt_with(self.precision),
            },
            None => String::new(),
        };
        &self.scratch
    }

    /// Length of the one-line form of the sub-array at `depth`, exact up to `cap`;
    /// anything above `cap` is reported as some length above `cap` (cost O(cap)).
    fn flat_len(&mut self, depth: usize, cap: usize) -> usize {
        if depth == self.dims.len() {
            return self.elem().len();
        }
        if cap < 2 {
            return cap + 1;
        }
        let mut len = 2;
        for (k, e) in entries(self.dims[depth], self.elide, self.edge).enumerate() {
            if k > 0 {
                len += 2;
            }
            len += match e {
                None => 3,
                Some(i) => {
                    self.idx[depth] = i;
                    self.flat_len(depth + 1, cap.saturating_sub(len))
                }
            };
            if len > cap {
                return len;
            }
        }
        len
    }

    fn flat(&mut self, out: &mut Out, depth: usize) -> Result<(), PrintError> {
        if depth == self.dims.len() {
            self.elem();
            return out.put(&self.scratch);
        }
        out.put("{")?;
        for (k, e) in entries(self.dims[depth], self.elide, self.edge).enumerate() {
            if k > 0 {
                out.put(", ")?;
            }
            match e {
                None => out.put("...")?,
                Some(i) => {
                    self.idx[depth] = i;
                    self.flat(out, depth + 1)?;
                }
            }
        }
        out.put("}")
    }

    /// One line when it fits in `width`; else each sub-list on its own line, aligned one
    /// column right of its opening brace (a list of elements is never broken).
    fn layout(
        &mut self,
        out: &mut Out,
        depth: usize,
        width: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let rank = self.dims.len();
        if depth + 1 >= rank || self.flat_len(depth, width) <= width {
            return self.flat(out, depth);
        }
        out.put("{")?;
        for (k, e) in entries(self.dims[depth], self.elide, self.edge).enumerate() {
            if k > 0 {
                // Written in pieces: a separator string per level, held while
                // the levels below print, would cost rank^2 bytes.
                out.put(",\n")?;
                out.spaces(indent + 1)?;
            }
            match e {
                None => out.put("...")?,
                Some(i) => {
                    self.idx[depth] = i;
                    self.layout(out, depth + 1, width.saturating_sub(1), indent + 1)?;
                }
            }
        }
        out.put("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Elements formatted on this thread: printing must cost what it shows.
        pub(super) static FORMATTED: Cell<usize> = const { Cell::new(0) };
    }

    fn iota_f32(dims: &[usize]) -> Value {
        let n: usize = dims.iter().product();
        let a = ndarray::ArrayD::from_shape_vec(
            ndarray::IxDyn(dims),
            (0..n).map(|i| i as f32).collect(),
        )
        .unwrap();
        Value::Array(Array::from_nd(a))
    }

    #[test]
    fn elided_print_formats_only_shown_elements() {
        let v = iota_f32(&[300, 400]);
        FORMATTED.with(|c| c.set(0));
        let s = format_value(&v, &PrintOptions::default());
        let formatted = FORMATTED.with(|c| c.get());
        assert!(formatted < 400, "formatted {formatted} elements to show 36");
        assert!(s.starts_with("f32[300x400] {{0, 1, 2, ..., 397, 398, 399},\n"));
        assert!(s.ends_with("{119600, 119601, 119602, ..., 119997, 119998, 119999}}"));
    }

    #[test]
    fn strided_views_print_in_logical_order() {
        let a = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2, 3]), vec![1, 2, 3, 4, 5, 6])
            .unwrap();
        let t = a.reversed_axes();
        let v = Value::Array(Array::from_nd::<i32>(t));
        assert_eq!(
            format_value(&v, &PrintOptions::default()),
            "s32[3x2] {{1, 4}, {2, 5}, {3, 6}}"
        );
    }

    #[test]
    fn empty_array_with_huge_outer_dimension_is_elided() {
        let a = ndarray::ArrayD::<f32>::zeros(ndarray::IxDyn(&[100_000_000, 0]));
        let v = Value::Array(Array::from_nd(a));
        assert_eq!(
            format_value(&v, &PrintOptions::default()),
            "f32[100000000x0] {{}, {}, {}, ..., {}, {}, {}}"
        );
        let small = Value::Array(Array::from_nd(ndarray::ArrayD::<f32>::zeros(
            ndarray::IxDyn(&[2, 0, 3]),
        )));
        assert_eq!(
            format_value(&small, &PrintOptions::default()),
            "f32[2x0x3] {{}, {}}"
        );
    }

    #[test]
    fn full_print_streams_and_stops_on_ctrl_c() {
        struct Sink(usize);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0 += b.len();
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let v = iota_f32(&[200, 300]);
        let opts = PrintOptions {
            full: true,
            ..Default::default()
        };
        let mut sink = Sink(0);
        write_value(&mut sink, &v, &opts).unwrap();
        assert!(sink.0 > 300_000);
        let r = write_value_until(&mut Sink(0), &v, &opts, &|| true);
        assert!(matches!(r, Err(PrintError::Interrupted)));
    }

    #[test]
    fn deep_rank_prints_in_linear_time() {
        let dims = vec![1usize; 3000];
        let a = ndarray::ArrayD::<i32>::zeros(ndarray::IxDyn(&dims));
        let v = Value::Array(Array::from_nd(a));
        FORMATTED.with(|c| c.set(0));
        let s = format_value(&v, &PrintOptions::default());
        assert!(s.ends_with(&format!("{}0{}", "{".repeat(3000), "}".repeat(3000))));
        // One element, looked at a bounded number of times per level.
        assert!(FORMATTED.with(|c| c.get()) < 3000 * 4);
    }

    #[test]
    fn precision_rounds_to_significant_digits() {
        assert_eq!((1.0f32 / 3.0).fmt_prec(4), "0.3333");
        assert_eq!(0.1f32.fmt_prec(4), "0.1");
        assert_eq!(123456789.0f64.fmt_prec(3), "123000000");
        assert_eq!(1.2345678e-7f64.fmt_prec(3), "1.23e-7");
        assert_eq!(1e30f32.fmt_prec(2), "1e30");
        assert_eq!(2.5f64.fmt_prec(1), "2");
        assert_eq!(f32::NAN.fmt_prec(3), "nan");
        assert_eq!((-0.0f64).fmt_prec(3), "-0");
        assert_eq!(1000000.0f32.fmt_prec(1), "1000000");
        assert_eq!(
            crate::value::c64::new(1.0 / 3.0, -2.0).fmt_prec(2),
            "(0.33, -2)"
        );
        let v = iota_f32(&[2]);
        let opts = PrintOptions {
            precision: Some(2),
            ..Default::default()
        };
        let a = Value::Array(Array::from_nd(
            ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2]), vec![1.0f64 / 3.0, 2.0]).unwrap(),
        ));
        assert_eq!(format_value(&a, &opts), "f64[2] {0.33, 2}");
        assert_eq!(format_value(&v, &opts), "f32[2] {0, 1}");
    }

    #[test]
    fn summary_replaces_an_elided_array_on_request() {
        let v = iota_f32(&[2000]);
        let opts = PrintOptions {
            summary: true,
            ..Default::default()
        };
        assert_eq!(
            format_value(&v, &opts),
            "f32[2000] summary: min 0, max 1999, mean 999.5, nan 0"
        );
        // Small arrays print as ever.
        assert_eq!(format_value(&iota_f32(&[2]), &opts), "f32[2] {0, 1}");
    }

    #[test]
    fn floats_print_shortest_and_round_trip() {
        assert_eq!(1.0f32.fmt_elem(), "1");
        assert_eq!(0.1f32.fmt_elem(), "0.1");
        assert_eq!(1e-7f32.fmt_elem(), "1e-7");
        assert_eq!(f32::NAN.fmt_elem(), "nan");
        assert_eq!(f32::NEG_INFINITY.fmt_elem(), "-inf");
        assert_eq!((-0.0f32).fmt_elem(), "-0");
        assert_eq!(f16::from_f32(0.1).fmt_elem(), "0.1");
        for x in [0.1f32, 1.0 / 3.0, 1e30, 1.175_494_4e-38, 1e-45, 16777216.0] {
            assert_eq!(x.fmt_elem().parse::<f32>().unwrap().to_bits(), x.to_bits());
        }
        for x in [0.1f64, 1.0 / 3.0, 1e300, 5e-324] {
            assert_eq!(x.fmt_elem().parse::<f64>().unwrap().to_bits(), x.to_bits());
        }
    }
}
