//! Reading and checking a convolution call: operands, window attributes,
//! dimension numbers, group counts and the result type. Shared by Conv,
//! ConvWithGeneralPadding and ConvGeneralDilated (each with its own labels).

use super::dims::{self, DimNums};
use super::geometry::{Geometry, padded_and_window, same_padding, windows};
use super::rules::{Rule, Rules};
use crate::dot_general::preferred_type;
use xlet_check::call::CallCtx;
use xlet_check::literal::flatten;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, fmt_dims};
use xlet_syntax::ast::{ExprKind, Span};

/// Which padding forms an op takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PaddingForms {
    /// `SAME` or `VALID` (Conv).
    Words,
    /// `{{lo, hi}, ...}` (ConvWithGeneralPadding).
    Pairs,
    /// Either (ConvGeneralDilated).
    Either,
}

/// What one of the three ops accepts.
pub struct OpForm {
    pub rules: Rules,
    pub padding: PaddingForms,
    /// lhs_dilation, rhs_dilation (positions 4 and 5).
    pub dilations: bool,
    /// dimension_numbers or the separate attributes.
    pub dimension_numbers: bool,
}

/// A checked convolution: its geometry, the operands' element type and the result's.
pub struct Conv {
    pub g: Geometry,
    pub elem: ElemType,
    pub result: ElemType,
}

enum Pad {
    Valid,
    Same(Span),
    Pairs(Vec<(i64, i64)>),
}

pub fn read(cx: &mut CallCtx, form: &OpForm) -> Result<Conv, Diag> {
    let r = &form.rules;
    let ops = cx.operands_alike(&[(0, "lhs"), (1, "rhs")], None)?;
    let lt = cx.array(&ops[0], r.label(Rule::Arrays), "lhs")?.clone();
    let rt = cx.array(&ops[1], r.label(Rule::Arrays), "rhs")?.clone();
    let rank = lt.rank();
    if rank != rt.rank() || rank < 2 {
        let msg = if rank != rt.rank() {
            format!(
                "lhs and rhs must have the same rank (2 + the number of spatial dimensions), found {lt} (rank {rank}) and {rt} (rank {})",
                rt.rank()
            )
        } else {
            format!(
                "the operands need a batch and a feature dimension (rank at least 2), found {lt} and {rt}"
            )
        };
        let at = if rank < 2 { &ops[0].span } else { &ops[1].span };
        return Err(cx
            .err(r.label(Rule::Rank), msg, at.clone())
            .with_label(format!("{}", ops[if rank < 2 { 0 } else { 1 }].ty))
            .with_secondary(ops[0].span.clone(), format!("lhs: {lt}")));
    }
    if lt.elem != rt.elem {
        return Err(cx
            .err(
                r.label(Rule::ElemType),
                format!(
                    "lhs and rhs must have the same element type, found {} and {}",
                    lt.elem, rt.elem
                ),
                ops[1].span.clone(),
            )
            .with_label(format!("{rt}"))
            .with_secondary(ops[0].span.clone(), format!("{lt}"))
            .with_help("convert one with ConvertElementType; preferred_element_type sets the result's type"));
    }
    let n = rank - 2;
    let strides = per_dim(
        cx,
        Some(2),
        "window_strides",
        n,
        r,
        (Rule::StridesLen, Rule::StridesPos),
        true,
    )?;
    let pad = padding(cx, form, n)?;
    let (lhs_dil, rhs_dil) = if form.dilations {
        (
            per_dim(
                cx,
                Some(4),
                "lhs_dilation",
                n,
                r,
                (Rule::LhsDilLen, Rule::LhsDilPos),
                false,
            )?,
            per_dim(
                cx,
                Some(5),
                "rhs_dilation",
                n,
                r,
                (Rule::RhsDilLen, Rule::RhsDilPos),
                false,
            )?,
        )
    } else {
        (vec![1; n], vec![1; n])
    };
    let dn = if form.dimension_numbers {
        dims::read(cx, r, rank)?
    } else {
        DimNums::default_for(rank)
    };
    let fgc = group_count(cx, "feature_group_count", r.label(Rule::FgcPos))?;
    let bgc = group_count(cx, "batch_group_count", r.label(Rule::BgcPos))?;
    let result = preferred(cx, r, lt.elem)?;
    let at = |d: &[usize], t: &ArrayType| d.iter().map(|&i| t.dims[i]).collect::<Vec<_>>();
    let (fg, fspan) = fgc.unwrap_or((1, cx.span.clone()));
    let (bg, bspan) = bgc.unwrap_or((1, cx.span.clone()));
    let g = Geometry {
        batch: lt.dims[dn.lhs.batch],
        in_features: lt.dims[dn.lhs.feature],
        out_features: rt.dims[dn.rhs.batch],
        kernel_in_features: rt.dims[dn.rhs.feature],
        in_spatial: at(&dn.lhs.spatial, &lt),
        kernel_spatial: at(&dn.rhs.spatial, &rt),
        out_spatial: vec![],
        strides,
        padding: vec![],
        lhs_dilation: lhs_dil,
        rhs_dilation: rhs_dil,
        feature_groups: fg,
        batch_groups: bg,
        dn,
    };
    let shapes = format!("lhs {lt}, rhs {rt}");
    let layout = layout_note(&g.dn, form.dimension_numbers);
    let count_err = |rule: Rule, msg: String, span: Span| {
        cx.err(r.label(rule), format!("{msg} ({shapes}{layout})"), span)
    };
    if fg > 1 && bg > 1 {
        return Err(count_err(
            Rule::BothGroups,
            format!(
                "feature_group_count ({fg}) and batch_group_count ({bg}) cannot both be above 1"
            ),
            bspan,
        )
        .with_secondary(fspan, "feature_group_count here"));
    }
    if !g.in_features.is_multiple_of(fg) {
        return Err(count_err(
            Rule::LhsFeatureDiv,
            format!(
                "feature_group_count {fg} must divide the lhs feature size {}",
                g.in_features
            ),
            fspan,
        )
        .with_label("does not divide the lhs features"));
    }
    if g.kernel_in_features * fg != g.in_features {
        let span = if fg > 1 { fspan } else { ops[1].span.clone() };
        let mut d = count_err(
            Rule::KernelInFeature,
            format!(
                "the kernel's input feature size ({}) times feature_group_count ({fg}) must equal the lhs feature size ({})",
                g.kernel_in_features, g.in_features
            ),
            span,
        )
        .with_label(format!("{} × {fg} ≠ {}", g.kernel_in_features, g.in_features))
        .with_secondary(ops[0].span.clone(), format!("lhs features: {}", g.in_features));
        // An NHWC input with an HWIO kernel read in the default NCHW layout.
        let current = layout_note(&g.dn, true);
        if let Some(fit) =
            fitting_layout(&lt.dims, &rt.dims, fg, bg).filter(|s| !current.ends_with(s.as_str()))
        {
            d = d.with_help(if form.dimension_numbers {
                format!(
                    "the operands fit another layout: dimension_numbers=\"{fit}\" (the default is bf01_oi01->bf01)"
                )
            } else {
                format!(
                    "{} reads the default layout bf01_oi01->bf01; the operands fit ConvGeneralDilated(..., dimension_numbers=\"{fit}\")",
                    cx.name()
                )
            });
        }
        return Err(d);
    }
    if !g.out_features.is_multiple_of(fg) {
        return Err(count_err(
            Rule::KernelOutFgc,
            format!(
                "feature_group_count {fg} must divide the kernel's output feature size {}",
                g.out_features
            ),
            fspan,
        )
        .with_label("does not divide the kernel's output features"));
    }
    if !g.batch.is_multiple_of(bg) {
        return Err(count_err(
            Rule::LhsBatchDiv,
            format!(
                "batch_group_count {bg} must divide the lhs batch size {}",
                g.batch
            ),
            bspan,
        )
        .with_label("does not divide the lhs batch"));
    }
    if !g.out_features.is_multiple_of(bg) {
        return Err(count_err(
            Rule::KernelOutBgc,
            format!(
                "batch_group_count {bg} must divide the kernel's output feature size {}",
                g.out_features
            ),
            bspan,
        )
        .with_label("does not divide the kernel's output features"));
    }
    if let Some(i) = g.kernel_spatial.iter().position(|&k| k == 0) {
        return Err(count_err(
            Rule::KernelSpatial,
            format!(
                "the kernel's spatial dimension {i} has size 0; a window needs at least one element"
            ),
            ops[1].span.clone(),
        )
        .with_label(format!("{rt}")));
    }
    finish_window(cx, form, g, pad, &ops[0].span, &shapes, &layout).map(|g| Conv {
        g,
        elem: lt.elem,
        result,
    })
}

/// A compact dimension-numbers string under which the lhs features equal the
/// kernel's input features × `fg` (and the group counts divide what they
/// must): NHWC / HWIO first (TensorFlow's), then other common layouts.
pub fn fitting_layout(lhs: &[usize], rhs: &[usize], fg: usize, bg: usize) -> Option<String> {
    let n = lhs.len().checked_sub(2)?;
    if n > 10 || rhs.len() != lhs.len() {
        return None;
    }
    let d: String = (0..n)
        .map(|k| char::from_digit(k as u32, 10).unwrap_or('?'))
        .collect();
    let lhs_forms = [format!("b{d}f"), format!("bf{d}")];
    let rhs_forms = [
        format!("{d}io"),
        format!("oi{d}"),
        format!("o{d}i"),
        format!("io{d}"),
        format!("{d}oi"),
    ];
    let at = |s: &str, c: char, dims: &[usize]| s.find(c).and_then(|i| dims.get(i).copied());
    for l in &lhs_forms {
        for r in &rhs_forms {
            let (Some(b), Some(f), Some(i), Some(o)) = (
                at(l, 'b', lhs),
                at(l, 'f', lhs),
                at(r, 'i', rhs),
                at(r, 'o', rhs),
            ) else {
                continue;
            };
            let spatial_ok = r
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .all(|(k, _)| rhs[k] >= 1);
            let fits = i * fg == f
                && f % fg == 0
                && o % fg == 0
                && b % bg == 0
                && o % bg == 0
                && spatial_ok;
            if fits {
                return Some(format!("{l}_{r}->{l}"));
            }
        }
    }
    None
}

/// " (layout bf01_oi01->bf01)" when the user could have chosen another.
fn layout_note(dn: &DimNums, shown: bool) -> String {
    if !shown {
        return String::new();
    }
    let part = |l: &dims::Layout, b: char, f: char| {
        let mut s = vec!['?'; l.spatial.len() + 2];
        s[l.batch] = b;
        s[l.feature] = f;
        for (i, &d) in l.spatial.iter().enumerate() {
            s[d] = char::from_digit(i as u32 % 10, 10).unwrap_or('?');
        }
        s.into_iter().collect::<String>()
    };
    format!(
        ", layout {}_{}->{}",
        part(&dn.lhs, 'b', 'f'),
        part(&dn.rhs, 'o', 'i'),
        part(&dn.out, 'b', 'f')
    )
}

/// Works out the padding (SAME from the sizes) and the output's spatial sizes,
/// rejecting negative padding that removes more than the input has.
fn finish_window(
    cx: &CallCtx,
    form: &OpForm,
    mut g: Geometry,
    pad: (Pad, Span),
    lhs_span: &Span,
    shapes: &str,
    layout: &str,
) -> Result<Geometry, Diag> {
    let r = &form.rules;
    let (pad, pad_span) = pad;
    let n = g.spatial_rank();
    g.padding = match pad {
        Pad::Valid => vec![(0, 0); n],
        Pad::Pairs(p) => p,
        Pad::Same(span) => {
            if let Some(i) = g.lhs_dilation.iter().position(|&d| d != 1) {
                return Err(cx
                    .err(
                        r.label(Rule::SameDilated),
                        format!(
                            "SAME padding is not defined with lhs_dilation (dimension {i} has {}); XLA computes SAME from the undilated input",
                            g.lhs_dilation[i]
                        ),
                        span,
                    )
                    .with_label("SAME with lhs_dilation")
                    .with_help("give the padding as explicit pairs {{lo, hi}, ...}"));
            }
            (0..n)
                .map(|i| {
                    same_padding(
                        g.in_spatial[i],
                        g.kernel_spatial[i],
                        g.strides[i],
                        g.rhs_dilation[i],
                    )
                    .ok_or_else(|| {
                        cx.err("size", "the window's size overflows 64 bits", span.clone())
                    })
                })
                .collect::<Result<_, _>>()?
        }
    };
    let mut out = vec![];
    for i in 0..n {
        let (padded, w) = padded_and_window(
            g.in_spatial[i],
            g.kernel_spatial[i],
            g.padding[i],
            g.lhs_dilation[i],
            g.rhs_dilation[i],
        )
        .ok_or_else(|| {
            cx.err(
                "size",
                "the window's sizes overflow 64 bits",
                cx.span.clone(),
            )
        })?;
        let (lo, hi) = g.padding[i];
        // A window larger than the padded input is not an error: XLA gives that
        // dimension no positions (`windows` is 0), as for an empty input.
        if padded < 0 {
            return Err(cx
                .err(
                    r.label(Rule::WindowFits),
                    format!(
                        "in spatial dimension {i}, negative padding ({lo}, {hi}) removes more than the {} dilated elements ({shapes}{layout})",
                        padded - lo - hi
                    ),
                    pad_span,
                )
                .with_label("more padding removed than there is input")
                .with_secondary(
                    lhs_span.clone(),
                    format!("spatial size {}", g.in_spatial[i]),
                )
                .with_help("remove fewer elements: the padded size lo + input + hi must not be negative"));
        }
        out.push(windows(padded, w, g.strides[i]));
    }
    g.out_spatial = out;
    let total = g
        .out_dims()
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .and_then(|m| m.checked_mul(g.reduction_size().max(1)));
    if total.is_none() {
        return Err(cx.err(
            "size",
            format!(
                "the result {} overflows 64-bit arithmetic",
                fmt_dims(&g.out_dims())
            ),
            cx.span.clone(),
        ));
    }
    Ok(g)
}

/// A static list of one integer ≥ 1 per spatial dimension.
fn per_dim(
    cx: &mut CallCtx,
    pos: Option<usize>,
    name: &str,
    n: usize,
    r: &Rules,
    (len_rule, pos_rule): (Rule, Rule),
    required: bool,
) -> Result<Vec<usize>, Diag> {
    let what = format!("spatial dimension ({n}: the operands' rank minus 2)");
    let labels = (r.label(len_rule), r.label(pos_rule));
    cx.positive_per_dim(pos, name, (n, &what), labels, required)
}

fn padding(cx: &mut CallCtx, form: &OpForm, n: usize) -> Result<(Pad, Span), Diag> {
    let label = form.rules.label(Rule::Padding);
    let e = cx.require(Some(3), "padding")?;
    let wanted = match form.padding {
        PaddingForms::Words => "SAME or VALID",
        PaddingForms::Pairs => "one pair {lo, hi} per spatial dimension, such as {{1, 1}, {0, 2}}",
        PaddingForms::Either => "SAME, VALID or one pair {lo, hi} per spatial dimension",
    };
    let bad = |cx: &CallCtx, span: Span| {
        let d = cx
            .err(label, format!("`padding` must be {wanted}"), span)
            .with_label(format!("expected {wanted}"));
        match form.padding {
            PaddingForms::Words => d.with_help(
                "ConvWithGeneralPadding and ConvGeneralDilated take explicit (lo, hi) pairs",
            ),
            PaddingForms::Pairs => d.with_help("Conv and ConvGeneralDilated take SAME and VALID"),
            PaddingForms::Either => d,
        }
    };
    let word = match &e.kind {
        ExprKind::Var(v) => Some(v.as_str()),
        ExprKind::Str(s) => Some(s.as_str()),
        _ => None,
    };
    if let Some(w) = word {
        let p = match w.to_ascii_uppercase().as_str() {
            "SAME" | "KSAME" => Pad::Same(e.span.clone()),
            "VALID" | "KVALID" => Pad::Valid,
            _ => return Err(bad(cx, e.span.clone())),
        };
        if form.padding == PaddingForms::Pairs {
            return Err(bad(cx, e.span.clone()));
        }
        return Ok((p, e.span.clone()));
    }
    if form.padding == PaddingForms::Words {
        return Err(bad(cx, e.span.clone()));
    }
    let flat = flatten(e).map_err(|_| bad(cx, e.span.clone()))?;
    let shape_ok = flat.dims == [n, 2] || (n == 0 && flat.is_empty());
    if !shape_ok {
        return Err(cx
            .err(
                label,
                format!(
                    "`padding` must be one pair {{lo, hi}} per spatial dimension ({n}), found a list of shape [{}]",
                    flat.dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
                ),
                e.span.clone(),
            )
            .with_label(format!("expected {n} pairs")));
    }
    let mut vals = vec![];
    for (a, span) in flat.atoms() {
        match a.integer() {
            // Bounded so that sizes plus padding never overflow.
            Some(v) if v.unsigned_abs() < 1 << 53 => vals.push(v),
            _ if a.is_integer_text() => {
                return Err(cx
                    .err(
                        label,
                        "padding counts must be of magnitude below 2^53 (9007199254740992)",
                        span,
                    )
                    .with_label("too large a padding count"));
            }
            _ => {
                return Err(cx
                    .err(
                        label,
                        "padding counts must be integers (of magnitude below 2^53)",
                        span,
                    )
                    .with_label("expected an integer"));
            }
        }
    }
    Ok((
        Pad::Pairs(vals.chunks(2).map(|p| (p[0], p[1])).collect()),
        e.span.clone(),
    ))
}

fn group_count(cx: &mut CallCtx, name: &str, label: &str) -> Result<Option<(usize, Span)>, Diag> {
    let Some(a) = cx.int(None, name)? else {
        return Ok(None);
    };
    if a.value < 1 {
        return Err(cx
            .err(
                label,
                format!("`{name}` must be at least 1, found {}", a.value),
                a.span.clone(),
            )
            .with_label("must be at least 1"));
    }
    Ok(Some((a.value as usize, a.span)))
}

/// `preferred_element_type`: the result's element type, under the rule Dot and
/// DotGeneral follow (`dot_general::preferred_type`).
fn preferred(cx: &mut CallCtx, r: &Rules, elem: ElemType) -> Result<ElemType, Diag> {
    Ok(preferred_type(cx, elem, r.label(Rule::Preferred))?.unwrap_or(elem))
}
