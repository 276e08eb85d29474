//! The StableHLO ops with structured attributes or regions beyond the
//! elementwise ones (spec/import.md §7): gather and scatter, convolution,
//! windows, control flow, and the rest of the op table's long tail.

use super::Cx;
use super::attrs::{bad, brace, need};
use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::items::{Item, split_commas};
use crate::mlir::lexer::Tok;
use crate::mlir::op::Op;
use xlet_core::types::Type;

/// The element types of `op`'s operands in `range`, as scalars (the
/// block-argument types of a region that combines elements).
pub(crate) fn scalar_types(cx: &Cx, op: &Op, range: std::ops::Range<usize>) -> Vec<Type> {
    op.operands
        .get(range)
        .unwrap_or_default()
        .iter()
        .filter_map(|u| cx.value_type(u))
        .map(|t| match t {
            Type::Array(a) => Type::scalar(a.elem),
            other => other,
        })
        .collect()
}

/// One integer list of a dimension-numbers dictionary; absent is `{}`.
fn dims_of(op: &Op, d: &Attr, key: &str) -> Result<String> {
    match d.get(key) {
        Some(a) => a
            .ints()
            .map(|v| brace(&v))
            .ok_or_else(|| bad(op, key, "a list of integers")),
        None => Ok("{}".into()),
    }
}

/// An integer field of a `#stablehlo.gather/scatter<...>`; StableHLO's printer
/// leaves out a field at its default (`index_vector_dim = 0`).
fn int_of(op: &Op, d: &Attr, key: &str) -> Result<i128> {
    match d.get(key) {
        None => Ok(0),
        Some(a) => a.int().ok_or_else(|| bad(op, key, "an integer")),
    }
}

fn flag(op: &Op, key: &str) -> bool {
    op.attr(key).and_then(Attr::bool).unwrap_or(false)
}

fn ints_attr(op: &Op, key: &str) -> Result<Vec<i128>> {
    need(op, key)?
        .ints()
        .ok_or_else(|| bad(op, key, "a list of integers"))
}

pub(crate) fn gather(op: &Op, v: &[String]) -> Result<String> {
    if v.len() != 2 {
        return Err(ImportError::at(
            op.span.clone(),
            "a gather takes an operand and the start indices".into(),
        ));
    }
    let d = need(op, "dimension_numbers")?;
    Ok(format!(
        "Gather({}, {}, offset_dims={}, collapsed_slice_dims={}, start_index_map={}, \
         index_vector_dim={}, slice_sizes={}, operand_batching_dims={}, \
         start_indices_batching_dims={}, indices_are_sorted={})",
        v[0],
        v[1],
        dims_of(op, d, "offset_dims")?,
        dims_of(op, d, "collapsed_slice_dims")?,
        dims_of(op, d, "start_index_map")?,
        int_of(op, d, "index_vector_dim")?,
        brace(&ints_attr(op, "slice_sizes")?),
        dims_of(op, d, "operand_batching_dims")?,
        dims_of(op, d, "start_indices_batching_dims")?,
        flag(op, "indices_are_sorted"),
    ))
}

/// `scatter(operands..., indices, updates...)`: N operands and N updates.
pub(crate) fn scatter(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    if v.len() < 3 || v.len().is_multiple_of(2) {
        return Err(ImportError::at(
            op.span.clone(),
            "a scatter takes N operands, the indices and N updates".into(),
        ));
    }
    let n = (v.len() - 1) / 2;
    let d = need(op, "scatter_dimension_numbers")?;
    let region = op.regions.first().ok_or_else(|| {
        ImportError::at(op.span.clone(), "a scatter needs its update region".into())
    })?;
    // The region takes every operand's current element, then every update.
    let mut args = scalar_types(cx, op, 0..n);
    args.extend(scalar_types(cx, op, n + 1..2 * n + 1));
    let comp = cx.region_comp("update", region, &args, false)?;
    let group = |xs: &[String]| {
        if n == 1 {
            xs[0].clone()
        } else {
            format!("{{{}}}", xs.join(", "))
        }
    };
    Ok(format!(
        "Scatter({}, {}, {}, {comp}, update_window_dims={}, inserted_window_dims={}, \
         scatter_dims_to_operand_dims={}, index_vector_dim={}, input_batching_dims={}, \
         scatter_indices_batching_dims={}, indices_are_sorted={}, unique_indices={})",
        group(&v[..n]),
        v[n],
        group(&v[n + 1..]),
        dims_of(op, d, "update_window_dims")?,
        dims_of(op, d, "inserted_window_dims")?,
        dims_of(op, d, "scatter_dims_to_operand_dims")?,
        int_of(op, d, "index_vector_dim")?,
        dims_of(op, d, "input_batching_dims")?,
        dims_of(op, d, "scatter_indices_batching_dims")?,
        flag(op, "indices_are_sorted"),
        flag(op, "unique_indices"),
    ))
}

/// `padding`/`pad` as n (lo, hi) pairs: `[[1, 1], [0, 2]]`, `dense<[[..]]>`
/// or a splat `dense<0> : tensor<2x2xi64>`; absent is no padding.
fn pad_pairs(op: &Op, a: Option<&Attr>, n: usize) -> Result<Vec<(i128, i128)>> {
    let Some(a) = a else {
        return Ok(vec![(0, 0); n]);
    };
    let mut flat = match a {
        Attr::List(rows) => rows
            .iter()
            .map(Attr::ints)
            .collect::<Option<Vec<_>>>()
            .map(|r| r.concat()),
        other => other.ints(),
    }
    .ok_or_else(|| bad(op, "padding", "pairs of integers"))?;
    if flat.len() == 1 {
        flat = vec![flat[0]; 2 * n];
    }
    if flat.len() != 2 * n {
        return Err(bad(op, "padding", &format!("{n} pairs of integers")));
    }
    Ok(flat.chunks(2).map(|c| (c[0], c[1])).collect())
}

fn pad_text(p: &[(i128, i128)]) -> String {
    let s: Vec<String> = p.iter().map(|(l, h)| format!("{{{l}, {h}}}")).collect();
    format!("{{{}}}", s.join(", "))
}

/// An optional integer list (the first of `keys` written), `fill` repeated
/// n times when absent; a single number is splat.
fn list_or(
    op: &Op,
    keys: &[&str],
    window: Option<&Attr>,
    n: usize,
    fill: i128,
) -> Result<Vec<i128>> {
    let found = keys.iter().find_map(|k| {
        op.attr(k)
            .or_else(|| window.and_then(|w| w.get(k)))
            .map(|a| (k, a))
    });
    match found {
        None => Ok(vec![fill; n]),
        Some((k, a)) => {
            let v = a.ints().ok_or_else(|| bad(op, k, "a list of integers"))?;
            Ok(if v.len() == 1 && n != 1 {
                vec![v[0]; n]
            } else {
                v
            })
        }
    }
}

/// Where batch, feature and spatial dimensions sit in one array of a
/// convolution: `[b, 0, 1, f]` (lhs and result) or `[0, 1, i, o]` (kernel).
struct Layout {
    /// lhs/result: batch; kernel: output feature.
    a: i128,
    /// lhs/result: feature; kernel: input feature.
    b: i128,
    spatial: Vec<i128>,
}

fn layout(op: &Op, item: &Item, a: &str, b: &str) -> Result<Layout> {
    let err = || {
        bad(
            op,
            "dimension_numbers",
            "`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`",
        )
    };
    let Item::Group {
        open: '[', items, ..
    } = item
    else {
        return Err(err());
    };
    let (mut la, mut lb, mut sp) = (None, None, vec![]);
    for (pos, part) in split_commas(items).into_iter().enumerate() {
        let pos = pos as i128;
        match part.first().and_then(Item::tok) {
            Some(Tok::Ident { name, angle: None }) if name == a => la = Some(pos),
            Some(Tok::Ident { name, angle: None }) if name == b => lb = Some(pos),
            Some(Tok::Number(k)) => {
                let k: usize = k.parse().map_err(|_| err())?;
                // A spatial index names one of the group's dimensions: at most
                // the group's length (bounds the vector by the text).
                if k >= items.len() {
                    return Err(err());
                }
                if sp.len() <= k {
                    sp.resize(k + 1, -1);
                }
                sp[k] = pos;
            }
            _ => return Err(err()),
        }
    }
    match (la, lb) {
        (Some(a), Some(b)) if !sp.contains(&-1) => Ok(Layout { a, b, spatial: sp }),
        _ => Err(err()),
    }
}

/// The three layouts of `[..]x[..]->[..]`.
fn conv_layouts(op: &Op) -> Result<[Layout; 3]> {
    let a = op
        .attr("dim_numbers")
        .or_else(|| op.attr("dimension_numbers"))
        .ok_or_else(|| bad(op, "dimension_numbers", "written"))?;
    let Attr::Items(items) = a else {
        return Err(bad(
            op,
            "dimension_numbers",
            "`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`",
        ));
    };
    let groups: Vec<&Item> = items
        .iter()
        .filter(|i| matches!(i, Item::Group { open: '[', .. }))
        .collect();
    let [l, k, o] = groups.as_slice() else {
        return Err(bad(
            op,
            "dimension_numbers",
            "`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`",
        ));
    };
    Ok([
        layout(op, l, "b", "f")?,
        layout(op, k, "o", "i")?,
        layout(op, o, "b", "f")?,
    ])
}

pub(crate) fn convolution(op: &Op, v: &[String]) -> Result<String> {
    if v.len() != 2 {
        return Err(ImportError::at(
            op.span.clone(),
            "a convolution takes lhs and rhs".into(),
        ));
    }
    let [l, k, o] = conv_layouts(op)?;
    let n = l.spatial.len();
    let window = op.attr("window");
    let reversed = list_or(op, &["window_reversal", "reverse"], window, n, 0)?;
    if reversed.iter().any(|r| *r != 0) {
        return Err(ImportError::unsupported(
            op.span.clone(),
            "a convolution with window reversal (xlet's ConvGeneralDilated has none)".into(),
        ));
    }
    let strides = list_or(op, &["window_strides", "stride"], window, n, 1)?;
    let pad = pad_pairs(
        op,
        op.attr("padding")
            .or_else(|| window.and_then(|w| w.get("pad"))),
        n,
    )?;
    let lhs_d = list_or(op, &["lhs_dilation", "lhs_dilate"], window, n, 1)?;
    let rhs_d = list_or(op, &["rhs_dilation", "rhs_dilate"], window, n, 1)?;
    let count = |k: &str| op.attr(k).and_then(Attr::int).unwrap_or(1);
    let mut s = format!(
        "ConvGeneralDilated({}, {}, {}, {}, {}, {}, input_batch_dimension={}, \
         input_feature_dimension={}, input_spatial_dimensions={}, \
         kernel_output_feature_dimension={}, kernel_input_feature_dimension={}, \
         kernel_spatial_dimensions={}, output_batch_dimension={}, \
         output_feature_dimension={}, output_spatial_dimensions={}, \
         feature_group_count={}, batch_group_count={}",
        v[0],
        v[1],
        brace(&strides),
        pad_text(&pad),
        brace(&lhs_d),
        brace(&rhs_d),
        l.a,
        l.b,
        brace(&l.spatial),
        k.a,
        k.b,
        brace(&k.spatial),
        o.a,
        o.b,
        brace(&o.spatial),
        count("feature_group_count"),
        count("batch_group_count"),
    );
    if let (Some(Type::Array(out)), Some(Type::Array(lhs))) =
        (op.out_types.first(), op.in_types.first())
        && out.elem != lhs.elem
    {
        s.push_str(&format!(", preferred_element_type={}", out.elem));
    }
    s.push(')');
    Ok(s)
}

/// `reduce_window(inputs..., inits...)`.
pub(crate) fn reduce_window(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    if v.len() < 2 || !v.len().is_multiple_of(2) {
        return Err(ImportError::at(
            op.span.clone(),
            "a reduce_window takes N inputs and N init values".into(),
        ));
    }
    let n = v.len() / 2;
    let scalars = scalar_types(cx, op, n..2 * n);
    let comp = super::ops::reducer(cx, op, "reducer", &scalars)?;
    let win = ints_attr(op, "window_dimensions")?;
    let r = win.len();
    let strides = list_or(op, &["window_strides"], None, r, 1)?;
    let pad = pad_pairs(op, op.attr("padding"), r)?;
    let base = list_or(op, &["base_dilations"], None, r, 1)?;
    let wd = list_or(op, &["window_dilations"], None, r, 1)?;
    let (xs, inits) = if n == 1 {
        (v[0].clone(), v[1].clone())
    } else {
        (
            format!("{{{}}}", v[..n].join(", ")),
            format!("{{{}}}", v[n..].join(", ")),
        )
    };
    Ok(format!(
        "ReduceWindow({xs}, {inits}, {comp}, {}, {}, {}, base_dilations={}, window_dilations={})",
        brace(&win),
        brace(&strides),
        pad_text(&pad),
        brace(&base),
        brace(&wd)
    ))
}

/// `select_and_scatter(operand, source, init)` with select and scatter regions.
pub(crate) fn select_and_scatter(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let ([x, source, init], [sel, sct]) = (v, op.regions.as_slice()) else {
        return Err(ImportError::at(
            op.span.clone(),
            "a select_and_scatter takes operand, source and init, and two regions".into(),
        ));
    };
    let t = scalar_types(cx, op, 0..1);
    let pair: Vec<Type> = t.iter().chain(&t).cloned().collect();
    let select = cx.region_comp("select", sel, &pair, false)?;
    let scatter = cx.region_comp("scatter", sct, &pair, false)?;
    let win = ints_attr(op, "window_dimensions")?;
    let r = win.len();
    let strides = list_or(op, &["window_strides"], None, r, 1)?;
    let pad = pad_pairs(op, op.attr("padding"), r)?;
    Ok(format!(
        "SelectAndScatter({x}, {select}, {}, {}, {}, {source}, {init}, {scatter})",
        brace(&win),
        brace(&strides),
        pad_text(&pad)
    ))
}
