//! The rule of the convolutions (ConvGeneralDilated, ConvWithGeneralPadding
//! and Conv share one kernel and one `Geometry`): spec/grad.md §4.7.
//!
//! Both cotangents are convolutions again, written as ConvGeneralDilated with
//! explicit padding pairs and dimension numbers:
//!
//! - lhs: the cotangent convolved with the kernel reversed in space and with
//!   its input and output features swapped; the forward stride becomes the lhs
//!   dilation (the cotangent spread out), the forward lhs dilation the stride,
//!   and the padding `lhs_padding`.
//! - rhs: the lhs convolved with the cotangent as the kernel, with the lhs's
//!   batch dimension playing the feature (so it is summed over) and its
//!   feature dimension the batch; the forward stride becomes the rhs dilation
//!   and the forward rhs dilation the stride.
//!
//! Feature groups: the lhs side regroups the kernel (its output features
//! split into the groups, each group's input features made outputs); the rhs
//! side becomes a batch-grouped convolution. Batch groups are the mirror
//! image: a feature-grouped convolution for the rhs, and for the lhs the
//! regrouped kernel with the groups moved from the result's features back
//! into its batch.

use crate::conv_general_dilated::dims::Layout;
use crate::conv_general_dilated::geometry::Geometry;
use xlet_ir::rule::{NoRule, RuleCx, brace, filled};
pub use xlet_ops_common::window_grad::{dilated, lhs_padding, pairs};

/// A layout as letters of the compact form: `b`, `f` (or `o`, `i` for a
/// kernel) at the batch and feature positions, digit k at spatial dimension k.
fn letters(l: &Layout, batch: char, feature: char) -> String {
    let rank = l.spatial.len() + 2;
    let mut s = vec!['?'; rank];
    if let Some(c) = s.get_mut(l.batch) {
        *c = batch;
    }
    if let Some(c) = s.get_mut(l.feature) {
        *c = feature;
    }
    for (k, &d) in l.spatial.iter().enumerate() {
        if let Some(c) = s.get_mut(d) {
            *c = char::from_digit(k as u32, 10).unwrap_or('?');
        }
    }
    s.into_iter().collect()
}

/// `ConvGeneralDilated(lhs, rhs, strides, padding, lhs_dilation, rhs_dilation, ...)`.
struct Call<'a> {
    lhs: &'a str,
    rhs: &'a str,
    strides: Vec<usize>,
    padding: Vec<(i64, i64)>,
    lhs_dilation: Vec<usize>,
    rhs_dilation: Vec<usize>,
    dims: String,
    feature_groups: usize,
    batch_groups: usize,
}

impl Call<'_> {
    fn text(&self) -> String {
        let mut t = format!(
            "ConvGeneralDilated({}, {}, {}, {}, {}, {}, dimension_numbers=\"{}\"",
            self.lhs,
            self.rhs,
            brace(&self.strides),
            pairs(&self.padding),
            brace(&self.lhs_dilation),
            brace(&self.rhs_dilation),
            self.dims
        );
        if self.feature_groups > 1 {
            t.push_str(&format!(", feature_group_count={}", self.feature_groups));
        }
        if self.batch_groups > 1 {
            t.push_str(&format!(", batch_group_count={}", self.batch_groups));
        }
        t.push(')');
        t
    }
}

/// `perm` as a Transpose, or the name itself when it is the identity.
fn transpose(cx: &mut RuleCx, name: &str, perm: &[usize]) -> String {
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return name.to_string();
    }
    cx.bind(format!("Transpose({name}, {})", brace(perm)))
}

pub fn rule(cx: &mut RuleCx, g: &Geometry) -> Result<(), NoRule> {
    let n = g.spatial_rank();
    if n > 10 {
        return Err(NoRule(format!(
            "a convolution with {n} spatial dimensions has no gradient rule (the dimension-number string has one digit per spatial dimension)"
        )));
    }
    let l = cx.arg_array(0)?.clone();
    let r = cx.arg_array(1)?.clone();
    let out = cx.out_array()?.clone();
    if [&l, &r, &out].iter().any(|a| a.dims.contains(&0)) {
        // Nothing is summed into any output.
        cx.send(0, filled(&l, 0.0));
        cx.send(1, filled(&r, 0.0));
        return Ok(());
    }
    let mut ct = cx.ct.name.clone();
    if out.elem != l.elem {
        // preferred_element_type: the operands were converted to it first.
        ct = cx.bind(format!("ConvertElementType({ct}, {})", l.elem.name()));
    }
    if cx.is_active(0) {
        let t = lhs_cotangent(cx, g, &ct)?;
        cx.send(0, t);
    }
    if cx.is_active(1) {
        let t = rhs_cotangent(cx, g, &ct)?;
        cx.send(1, t);
    }
    Ok(())
}

/// Per spatial dimension: dilated input, dilated window, dilated output sizes.
fn sizes(g: &Geometry, d: usize) -> (i64, i64, i64) {
    (
        dilated(g.in_spatial[d], g.lhs_dilation[d]),
        dilated(g.kernel_spatial[d], g.rhs_dilation[d]),
        dilated(g.out_spatial[d], g.strides[d]),
    )
}

fn lhs_cotangent(cx: &mut RuleCx, g: &Geometry, ct: &str) -> Result<String, NoRule> {
    let n = g.spatial_rank();
    let dn = &g.dn;
    let padding: Vec<(i64, i64)> = (0..n)
        .map(|d| {
            let (di, wd, dout) = sizes(g, d);
            lhs_padding(di, wd, dout, g.padding[d].0)
        })
        .collect();
    let rhs_name = cx.arg(1)?.name.clone();
    let groups = g.groups();
    let out_letters = letters(&dn.out, 'b', 'f');
    let lhs_letters = letters(&dn.lhs, 'b', 'f');
    let call = |rhs: &str, dims: String, feature_groups: usize| {
        Call {
            lhs: ct,
            rhs,
            strides: g.lhs_dilation.clone(),
            padding: padding.clone(),
            lhs_dilation: g.strides.clone(),
            rhs_dilation: g.rhs_dilation.clone(),
            dims,
            feature_groups,
            batch_groups: 1,
        }
        .text()
    };
    let spatial_reversed = |cx: &mut RuleCx, name: &str, dims: &[usize]| {
        if g.kernel_spatial.iter().all(|&k| k == 1) {
            name.to_string()
        } else {
            cx.bind(format!("Rev({name}, {})", brace(dims)))
        }
    };
    if groups == 1 {
        // The kernel read with its input and output feature letters swapped.
        let k = spatial_reversed(cx, &rhs_name, &dn.rhs.spatial);
        let dims = format!(
            "{out_letters}_{}->{lhs_letters}",
            letters(&dn.rhs, 'i', 'o')
        );
        return Ok(call(&k, dims, 1));
    }
    // Regroup the kernel [O, I, k...] (canonical) as [groups·I, O/groups, k...]:
    // group j's input features become outputs, its output features inputs.
    let i = g.kernel_in_features;
    let per = g.out_per_group();
    let k0 = transpose(cx, &rhs_name, &dn.rhs.to_canonical());
    let mut split = vec![groups, per, i];
    split.extend(&g.kernel_spatial);
    let k1 = cx.bind(format!("Reshape({k0}, {})", brace(&split)));
    let mut swap = vec![0, 2, 1];
    swap.extend(3..n + 3);
    let k2 = cx.bind(format!("Transpose({k1}, {})", brace(&swap)));
    let mut joined = vec![groups * i, per];
    joined.extend(&g.kernel_spatial);
    let k3 = cx.bind(format!("Reshape({k2}, {})", brace(&joined)));
    let k4 = spatial_reversed(cx, &k3, &(2..n + 2).collect::<Vec<_>>());
    let canonical = letters(&Layout::canonical(n + 2), 'o', 'i');
    if g.batch_groups <= 1 {
        let dims = format!("{out_letters}_{canonical}->{lhs_letters}");
        return Ok(call(&k4, dims, groups));
    }
    // Batch groups: the result comes out [B/groups, groups·C, x...]; the
    // groups go back in front of the batch.
    let bf = letters(&Layout::canonical(n + 2), 'b', 'f');
    let dims = format!("{out_letters}_{canonical}->{bf}");
    let y = cx.bind(call(&k4, dims, groups));
    let ob = g.out_batch();
    let c = g.in_features;
    let mut a = vec![ob, groups, c];
    a.extend(&g.in_spatial);
    let y1 = cx.bind(format!("Reshape({y}, {})", brace(&a)));
    let mut swap = vec![1, 0, 2];
    swap.extend(3..n + 3);
    let y2 = cx.bind(format!("Transpose({y1}, {})", brace(&swap)));
    let mut b = vec![g.batch, c];
    b.extend(&g.in_spatial);
    let y3 = cx.bind(format!("Reshape({y2}, {})", brace(&b)));
    // Canonical [batch, feature, spatial...] into the lhs's own order.
    let mut perm = vec![0; n + 2];
    perm[dn.lhs.batch] = 0;
    perm[dn.lhs.feature] = 1;
    for (k, &d) in dn.lhs.spatial.iter().enumerate() {
        perm[d] = 2 + k;
    }
    Ok(transpose(cx, &y3, &perm))
}

fn rhs_cotangent(cx: &mut RuleCx, g: &Geometry, ct: &str) -> Result<String, NoRule> {
    let n = g.spatial_rank();
    let dn = &g.dn;
    // The window now slides over the (padded, dilated) lhs with the cotangent
    // as kernel, stepping by the rhs dilation: k positions, so the high side
    // ends where the last forward window ended.
    let padding: Vec<(i64, i64)> = (0..n)
        .map(|d| {
            let (di, wd, dout) = sizes(g, d);
            let lo = g.padding[d].0;
            (lo, wd + dout - 1 - lo - di)
        })
        .collect();
    let lhs_name = cx.arg(0)?.name.clone();
    let dims = format!(
        "{}_{}->{}",
        letters(&dn.lhs, 'f', 'b'),
        letters(&dn.out, 'i', 'o'),
        letters(&dn.rhs, 'f', 'b')
    );
    Ok(Call {
        lhs: &lhs_name,
        rhs: ct,
        strides: g.rhs_dilation.clone(),
        padding,
        lhs_dilation: g.lhs_dilation.clone(),
        rhs_dilation: g.strides.clone(),
        dims,
        feature_groups: g.batch_groups,
        batch_groups: g.feature_groups,
    }
    .text())
}
