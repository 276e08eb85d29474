//! Convolution dimension numbers: which operand dimension is the batch, the
//! feature and each spatial dimension, for lhs, rhs (kernel) and the result.
//! Read from XLA's compact string (`"b01f_01io->b01f"`) or from the separate
//! attributes of current XLA/StableHLO (`input_batch_dimension=0`, ...).

use super::rules::{Rule, Rules};
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_syntax::ast::{ExprKind, Span};

/// Where batch, feature and spatial dimensions sit in one array's dimensions.
/// For the kernel, `batch` is the output feature and `feature` the input feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub batch: usize,
    pub feature: usize,
    pub spatial: Vec<usize>,
}

impl Layout {
    /// batch, feature, then the spatial dimensions in order (NCHW / OIHW).
    pub fn canonical(rank: usize) -> Layout {
        Layout {
            batch: 0,
            feature: 1,
            spatial: (2..rank).collect(),
        }
    }

    /// The permutation that views an array of this layout as [batch, feature, spatial...].
    pub fn to_canonical(&self) -> Vec<usize> {
        let mut p = vec![self.batch, self.feature];
        p.extend(&self.spatial);
        p
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimNums {
    pub lhs: Layout,
    /// batch = kernel_output_feature_dimension, feature = kernel_input_feature_dimension.
    pub rhs: Layout,
    pub out: Layout,
}

impl DimNums {
    /// XLA's default (`bf01_oi01->bf01`): the layout of Conv and ConvWithGeneralPadding.
    pub fn default_for(rank: usize) -> DimNums {
        DimNums {
            lhs: Layout::canonical(rank),
            rhs: Layout::canonical(rank),
            out: Layout::canonical(rank),
        }
    }
}

/// The three parts of the compact form and their letters (batch, feature).
const PARTS: [(&str, char, char, Rule); 3] = [
    ("lhs", 'b', 'f', Rule::InputDims),
    ("rhs", 'o', 'i', Rule::KernelDims),
    ("output", 'b', 'f', Rule::OutputDims),
];

/// Reads `dimension_numbers="..."` or the separate attributes; none given means
/// XLA's default layout.
pub fn read(cx: &mut CallCtx, rules: &Rules, rank: usize) -> Result<DimNums, Diag> {
    let string = cx.take(None, "dimension_numbers")?;
    let sep = separate(cx, rules, rank)?;
    match (string, sep) {
        (Some(e), Some((_, span))) => Err(cx
            .err(
                rules.label(Rule::DimString),
                "give the dimension numbers either as `dimension_numbers` or as the separate attributes, not both",
                span,
            )
            .with_secondary(e.span.clone(), "`dimension_numbers` given here")),
        (Some(e), None) => {
            let text = match &e.kind {
                ExprKind::Str(s) => s.clone(),
                _ => {
                    return Err(cx
                        .err(
                            rules.label(Rule::DimString),
                            "`dimension_numbers` must be a string such as \"b01f_01io->b01f\"",
                            e.span.clone(),
                        )
                        .with_label("expected a string"));
                }
            };
            parse_string(cx, rules, rank, &text, &e.span)
        }
        (None, Some((d, _))) => Ok(d),
        (None, None) => Ok(DimNums::default_for(rank)),
    }
}

/// The span of character `i` (a byte offset into the string's text) of a string
/// literal written at `span`, when the source holds it verbatim; else the whole literal.
fn char_span(cx: &CallCtx, span: &Span, text: &str, i: usize) -> Span {
    let src = cx.text(span);
    let verbatim = src.len() == text.len() + 2 && src.get(1..src.len() - 1) == Some(text);
    if !verbatim {
        return span.clone();
    }
    let len = text[i..].chars().next().map_or(1, char::len_utf8);
    span.start + 1 + i..span.start + 1 + i + len
}

/// Parses XLA's compact form `LHS_RHS->OUT`: one letter per dimension, `b`/`f`
/// (batch, feature) for lhs and output, `o`/`i` (output, input feature) for the
/// kernel, and the digits `0`..`n-1` for the n spatial dimensions in order.
pub fn parse_string(
    cx: &CallCtx,
    rules: &Rules,
    rank: usize,
    text: &str,
    span: &Span,
) -> Result<DimNums, Diag> {
    let syntax = |at: usize, msg: String, label: &str| {
        cx.err(rules.label(Rule::DimString), msg, char_span(cx, span, text, at))
            .with_label(label.to_string())
            .with_help(format!(
                "write one letter per dimension for lhs, rhs and output, e.g. \"{}\" (NHWC input, HWIO kernel) or \"{}\" (NCHW, OIHW)",
                example(rank, true),
                example(rank, false)
            ))
    };
    let (us, out) = match text.find("->") {
        Some(i) => (i, i + 2),
        None => {
            return Err(syntax(
                text.len().saturating_sub(1),
                format!("`dimension_numbers` \"{text}\" has no `->` before the output's letters"),
                "expected `->`",
            ));
        }
    };
    let left = &text[..us];
    let Some(split) = left.find('_') else {
        return Err(syntax(
            us.saturating_sub(1),
            format!("`dimension_numbers` \"{text}\" has no `_` between the lhs and rhs letters"),
            "expected `_`",
        ));
    };
    let pieces = [
        (0, &left[..split]),
        (split + 1, &left[split + 1..]),
        (out, &text[out..]),
    ];
    let mut layouts = vec![];
    for ((start, piece), (part, b, f, rule)) in pieces.into_iter().zip(PARTS) {
        // Syntax first: every character must be a letter of this part or a digit.
        if let Some((i, c)) = piece
            .char_indices()
            .find(|&(_, c)| c != b && c != f && !c.is_ascii_digit())
        {
            return Err(syntax(
                start + i,
                format!(
                    "`dimension_numbers`: '{c}' is not a dimension letter of the {part} (use '{b}', '{f}' and the digits of the spatial dimensions)"
                ),
                "unexpected character",
            ));
        }
        layouts.push(layout_of(
            cx,
            rules,
            rank,
            text,
            span,
            start,
            piece,
            (part, b, f, rule),
        )?);
    }
    let mut it = layouts.into_iter();
    match (it.next(), it.next(), it.next()) {
        (Some(lhs), Some(rhs), Some(out)) => Ok(DimNums { lhs, rhs, out }),
        _ => Err(cx.err("internal", "dimension numbers", span.clone())),
    }
}

fn example(rank: usize, channels_last: bool) -> String {
    let digits: String = (0..rank.saturating_sub(2))
        .map(|d| char::from_digit(d as u32 % 10, 10).unwrap_or('0'))
        .collect();
    if channels_last {
        format!("b{digits}f_{digits}io->b{digits}f")
    } else {
        format!("bf{digits}_oi{digits}->bf{digits}")
    }
}

#[allow(clippy::too_many_arguments)]
fn layout_of(
    cx: &CallCtx,
    rules: &Rules,
    rank: usize,
    text: &str,
    span: &Span,
    start: usize,
    piece: &str,
    (part, b, f, rule): (&str, char, char, Rule),
) -> Result<Layout, Diag> {
    let err = |at: usize, msg: String, label: String| {
        cx.err(rules.label(rule), msg, char_span(cx, span, text, at))
            .with_label(label)
    };
    let n = piece.chars().count();
    if n != rank {
        let at = if n > rank {
            start + rank
        } else {
            start + piece.len().saturating_sub(1)
        };
        return Err(err(
            at,
            format!(
                "`dimension_numbers`: the {part} part \"{piece}\" names {n} dimensions, but the operands have {rank}"
            ),
            format!("expected {rank} letters"),
        ));
    }
    let spatial_n = rank - 2;
    let mut batch = None;
    let mut feature = None;
    let mut spatial: Vec<Option<usize>> = vec![None; spatial_n];
    for (dim, (i, c)) in piece.char_indices().enumerate() {
        let slot = if c == b {
            &mut batch
        } else if c == f {
            &mut feature
        } else {
            let d = c.to_digit(10).map_or(usize::MAX, |d| d as usize);
            match spatial.get_mut(d) {
                Some(s) => s,
                None => {
                    return Err(err(
                        start + i,
                        format!(
                            "`dimension_numbers`: the {part} part \"{piece}\" names spatial dimension {c}, but there are {spatial_n} (digits 0 to {})",
                            spatial_n as i64 - 1
                        ),
                        "no such spatial dimension".to_string(),
                    ));
                }
            }
        };
        if slot.is_some() {
            return Err(err(
                start + i,
                format!("`dimension_numbers`: the {part} part \"{piece}\" has '{c}' twice"),
                "named again here".to_string(),
            ));
        }
        *slot = Some(dim);
    }
    let missing = |what: String| {
        err(
            start,
            format!("`dimension_numbers`: the {part} part \"{piece}\" has no {what}"),
            format!("{what} missing"),
        )
    };
    let batch = batch.ok_or_else(|| missing(format!("'{b}'")))?;
    let feature = feature.ok_or_else(|| missing(format!("'{f}'")))?;
    let spatial = spatial
        .iter()
        .enumerate()
        .map(|(d, s)| s.ok_or_else(|| missing(format!("spatial dimension {d}"))))
        .collect::<Result<_, _>>()?;
    Ok(Layout {
        batch,
        feature,
        spatial,
    })
}

/// The separate attributes (StableHLO's names), if any is given: a missing one
/// takes its value from XLA's default layout. Returns the span of the first one.
fn separate(cx: &mut CallCtx, rules: &Rules, rank: usize) -> Result<Option<(DimNums, Span)>, Diag> {
    let groups: [(&str, &str, &str, Rule, &str); 3] = [
        (
            "input_batch_dimension",
            "input_feature_dimension",
            "input_spatial_dimensions",
            Rule::InputDims,
            "input",
        ),
        (
            "kernel_output_feature_dimension",
            "kernel_input_feature_dimension",
            "kernel_spatial_dimensions",
            Rule::KernelDims,
            "kernel",
        ),
        (
            "output_batch_dimension",
            "output_feature_dimension",
            "output_spatial_dimensions",
            Rule::OutputDims,
            "output",
        ),
    ];
    let mut first: Option<Span> = None;
    let mut layouts = vec![];
    for (bn, fname, sn, rule, what) in groups {
        let b = cx.int(None, bn)?;
        let f = cx.int(None, fname)?;
        let s = cx.int_list(None, sn)?;
        for sp in [
            b.as_ref().map(|a| &a.span),
            f.as_ref().map(|a| &a.span),
            s.as_ref().map(|a| &a.span),
        ]
        .into_iter()
        .flatten()
        {
            if first.as_ref().is_none_or(|f| sp.start < f.start) {
                first = Some(sp.clone());
            }
        }
        let span = [
            &b.as_ref().map(|a| a.span.clone()),
            &f.as_ref().map(|a| a.span.clone()),
            &s.as_ref().map(|a| a.span.clone()),
        ]
        .into_iter()
        .flatten()
        .next()
        .cloned()
        .unwrap_or(cx.span.clone());
        let def = Layout::canonical(rank);
        let bv = b.as_ref().map_or(def.batch as i64, |a| a.value);
        let fv = f.as_ref().map_or(def.feature as i64, |a| a.value);
        let sv: Vec<i64> = s.as_ref().map_or_else(
            || def.spatial.iter().map(|&d| d as i64).collect(),
            |a| a.value.clone(),
        );
        let named = [
            (bn, bv, b.as_ref().map(|a| a.span.clone())),
            (fname, fv, f.as_ref().map(|a| a.span.clone())),
        ];
        let err = |msg: String, at: Option<Span>| {
            cx.err(rules.label(rule), msg, at.unwrap_or_else(|| span.clone()))
        };
        if sv.len() != rank - 2 {
            return Err(err(
                format!(
                    "`{sn}` must name {} spatial dimensions (operand rank {rank} minus 2), found {}",
                    rank - 2,
                    sv.len()
                ),
                s.as_ref().map(|a| a.span.clone()),
            )
            .with_label(format!("expected {} entries", rank - 2)));
        }
        let mut all: Vec<(String, i64, Option<Span>)> = named
            .iter()
            .map(|(n, v, sp)| (n.to_string(), *v, sp.clone()))
            .collect();
        for (i, &v) in sv.iter().enumerate() {
            all.push((format!("{sn}[{i}]"), v, s.as_ref().map(|a| a.span.clone())));
        }
        for (k, (n, v, sp)) in all.iter().enumerate() {
            if *v < 0 || *v >= rank as i64 {
                return Err(err(
                    format!(
                        "`{n}` = {v} is not a dimension of the {what} (rank {rank}: 0 to {})",
                        rank - 1
                    ),
                    sp.clone(),
                )
                .with_label("out of range"));
            }
            if let Some((m, _, _)) = all[..k].iter().find(|(_, w, _)| w == v) {
                return Err(err(
                    format!(
                        "the {what} dimension numbers name dimension {v} twice (`{m}` and `{n}`); each dimension is batch, feature or one spatial dimension"
                    ),
                    sp.clone(),
                )
                .with_label("named twice")
                .with_help("a dimension number left out takes XLA's default (batch 0, feature 1, spatial 2...); give all of this group's numbers"));
            }
        }
        layouts.push(Layout {
            batch: bv as usize,
            feature: fv as usize,
            spatial: sv.iter().map(|&v| v as usize).collect(),
        });
    }
    let Some(first) = first else {
        return Ok(None);
    };
    let mut it = layouts.into_iter();
    match (it.next(), it.next(), it.next()) {
        (Some(lhs), Some(rhs), Some(out)) => Ok(Some((DimNums { lhs, rhs, out }, first))),
        _ => Ok(None),
    }
}
