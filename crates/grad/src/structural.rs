//! Rules of the ops that move data without arithmetic: each sends the
//! cotangent back to where the data came from (spec/grad.md §4).

use super::rule::{NoRule, RuleCx, Writer, brace, brace_names, scalar, tuple_text, zeros};
use xlet_core::types::Type;

/// `(a, b, ...)`: element `i`'s cotangent is element `i` of the tuple's.
pub fn tuple(active: &[bool], ct: &str, w: &mut Writer) -> Vec<Option<String>> {
    active
        .iter()
        .enumerate()
        .map(|(i, &a)| a.then(|| w.bind("d", format!("GetTupleElement({ct}, {i})"))))
        .collect()
}

/// `GetTupleElement(t, k)`: the cotangent in place `k`, zeros elsewhere.
pub fn get_tuple_element(cx: &mut RuleCx, k: usize) -> Result<(), NoRule> {
    let Type::Tuple(items) = &cx.arg(0)?.ty else {
        return Err(NoRule("internal: GetTupleElement of a non-tuple".into()));
    };
    let parts: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(i, t)| if i == k { cx.ct.name.clone() } else { zeros(t) })
        .collect();
    cx.send(0, tuple_text(parts));
    Ok(())
}

/// `Slice(x, start, limit, strides)`: the cotangent padded back to x's shape,
/// with stride - 1 zeros between its elements.
pub fn slice(cx: &mut RuleCx, ranges: &[(usize, usize, usize)]) -> Result<(), NoRule> {
    let x = cx.arg_array(0)?.clone();
    let out = cx.out_array()?.clone();
    let mut cfg = vec![];
    for (d, &(start, _, stride)) in ranges.iter().enumerate() {
        let n = out.dims.get(d).copied().unwrap_or(0);
        let covered = if n == 0 {
            0
        } else {
            start + (n - 1) * stride + 1
        };
        let low = if n == 0 { 0 } else { start };
        let high = x
            .dims
            .get(d)
            .copied()
            .unwrap_or(0)
            .saturating_sub(covered.max(low));
        let interior = if n == 0 { 0 } else { stride - 1 };
        // An empty slice: pad an empty dimension up to the whole size.
        let high = if n == 0 {
            x.dims.get(d).copied().unwrap_or(0)
        } else {
            high
        };
        cfg.push(format!("{{{low}, {high}, {interior}}}"));
    }
    cx.send(
        0,
        format!(
            "Pad({}, {}, padding_config={{{}}})",
            cx.ct.name,
            scalar(x.elem, 0.0),
            cfg.join(", ")
        ),
    );
    Ok(())
}

/// `Pad(x, v, config)`: x's elements are the cotangent with the padding cut
/// away (undo low/high, then take every interior + 1'th); the padding value
/// got everything else.
pub fn pad(cx: &mut RuleCx, cfg: &[(i64, i64, i64)]) -> Result<(), NoRule> {
    let x = cx.arg_array(0)?.clone();
    let out = cx.out_array()?.clone();
    let c = cx.ct.name.clone();
    let unpad: Vec<String> = cfg
        .iter()
        .map(|&(l, h, _)| format!("{{{}, {}, 0}}", -l, -h))
        .collect();
    let u = cx.bind(format!(
        "Pad({c}, {}, padding_config={{{}}})",
        scalar(x.elem, 0.0),
        unpad.join(", ")
    ));
    // The unpadded extent of dimension d: out - low - high.
    let limits: Vec<usize> = cfg
        .iter()
        .zip(&out.dims)
        .map(|(&(l, h, _), &o)| (o as i64 - l - h).max(0) as usize)
        .collect();
    let strides: Vec<usize> = cfg.iter().map(|&(_, _, i)| (i + 1) as usize).collect();
    let gx = format!(
        "Slice({u}, {}, {}, {})",
        brace(&vec![0; limits.len()]),
        brace(&limits),
        brace(&strides)
    );
    if cx.is_active(1) {
        let gx_name = cx.bind(gx.clone());
        let all: Vec<usize> = (0..out.rank()).collect();
        let z = scalar(x.elem, 0.0);
        let total = cx.bind(format!("Reduce({c}, {z}, add, {})", brace(&all)));
        let inner = cx.bind(format!(
            "Reduce({gx_name}, {z}, add, {})",
            brace(&(0..x.rank()).collect::<Vec<_>>())
        ));
        cx.send(1, format!("Sub({total}, {inner})"));
        cx.send(0, gx_name);
    } else {
        cx.send(0, gx);
    }
    Ok(())
}

/// `Concatenate(a, b, ..., dim)`: each operand gets its stretch of the cotangent.
pub fn concatenate(cx: &mut RuleCx, dim: usize) -> Result<(), NoRule> {
    let out = cx.out_array()?.clone();
    let mut at = 0;
    for i in 0..cx.args.len() {
        let a = cx.arg_array(i)?.clone();
        let n = a.dims.get(dim).copied().unwrap_or(0);
        let mut start = vec![0; out.rank()];
        let mut limit = out.dims.clone();
        start[dim] = at;
        limit[dim] = at + n;
        at += n;
        let t = format!(
            "Slice({}, {}, {})",
            cx.ct.name,
            brace(&start),
            brace(&limit)
        );
        cx.send(i, t);
    }
    Ok(())
}

/// `Rev(x, dims)`: reversed back.
pub fn rev(cx: &mut RuleCx, dims: &[usize]) -> Result<(), NoRule> {
    let t = format!("Rev({}, {})", cx.ct.name, brace(dims));
    cx.send(0, t);
    Ok(())
}

/// The start indices of a DynamicSlice / DynamicUpdateSlice, as written back:
/// the one rank-1 index operand's name, or a brace of the scalar ones.
fn starts(cx: &RuleCx, from: usize) -> Result<String, NoRule> {
    let idx: Vec<&str> = cx.args[from.min(cx.args.len())..]
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    let one_vector = idx.len() == 1 && cx.arg_array(from)?.rank() == 1;
    Ok(if one_vector {
        idx[0].to_string()
    } else {
        brace_names(&idx)
    })
}

/// `DynamicSlice(x, starts, sizes)`: the cotangent written into zeros at the
/// same (clamped) starts.
pub fn dynamic_slice(cx: &mut RuleCx) -> Result<(), NoRule> {
    let x = cx.arg_array(0)?.clone();
    let s = starts(cx, 1)?;
    let t = format!(
        "DynamicUpdateSlice({}, {}, {s})",
        super::rule::filled(&x, 0.0),
        cx.ct.name
    );
    cx.send(0, t);
    Ok(())
}

/// `DynamicUpdateSlice(x, u, starts)`: x gets the cotangent with the updated
/// block zeroed; u gets that block.
pub fn dynamic_update_slice(cx: &mut RuleCx) -> Result<(), NoRule> {
    let u = cx.arg_array(1)?.clone();
    let s = starts(cx, 2)?;
    let c = cx.ct.name.clone();
    cx.send(
        0,
        format!(
            "DynamicUpdateSlice({c}, {}, {s})",
            super::rule::filled(&u, 0.0)
        ),
    );
    cx.send(1, format!("DynamicSlice({c}, {s}, {})", brace(&u.dims)));
    Ok(())
}

/// `Select(p, a, b)` with a scalar `p`, which picks `a` or `b` whole (arrays
/// or tuples): the cotangent goes whole to the operand picked, zeros to the
/// other. `p` is pred and receives nothing.
pub fn whole_select(cx: &mut RuleCx) -> Result<(), NoRule> {
    let p = cx.arg(0)?.name.clone();
    let z = zeros(&cx.out.ty);
    let c = cx.ct.name.clone();
    cx.send(1, format!("Select({p}, {c}, {z})"));
    cx.send(2, format!("Select({p}, {z}, {c})"));
    Ok(())
}
