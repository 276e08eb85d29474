//! The rule of Dot and DotGeneral (both run as one kernel with a `Plan`).
//!
//! With the result's dimensions ordered batch, lhs free, rhs free, each
//! operand's cotangent is itself a DotGeneral of the result's cotangent with
//! the other operand: batch with batch, and the cotangent's dimensions of the
//! *other* operand's free dimensions contracted with those. The product comes
//! out as batch, this operand's free dimensions, then its contracting ones
//! (in the other operand's order), and a Transpose puts them back in place.

use super::plan::Plan;
use xlet_ir::rule::{NoRule, RuleCx, brace};

/// One operand's side of the plan: its batch, free and contracting dimensions.
struct Side {
    batch: Vec<usize>,
    free: Vec<usize>,
    contracting: Vec<usize>,
}

fn sides(p: &Plan) -> (Side, Side) {
    let (nb, lf, c) = (p.batch_dims, p.lhs_free, p.contracting);
    let l = &p.lhs_order;
    let r = &p.rhs_order;
    (
        Side {
            batch: l[..nb].to_vec(),
            free: l[nb..nb + lf].to_vec(),
            contracting: l[nb + lf..].to_vec(),
        },
        Side {
            batch: r[..nb].to_vec(),
            contracting: r[nb..nb + c].to_vec(),
            free: r[nb + c..].to_vec(),
        },
    )
}

pub fn rule(cx: &mut RuleCx, p: &Plan) -> Result<(), NoRule> {
    if p.lhs_order.len() < p.batch_dims + p.lhs_free
        || p.rhs_order.len() < p.batch_dims + p.contracting
    {
        return Err(NoRule("internal: an inconsistent dot plan".into()));
    }
    let (l, r) = sides(p);
    let nb = p.batch_dims;
    let elem = cx.arg_array(0)?.elem;
    let mut ct = cx.ct.name.clone();
    if p.result.elem != elem {
        ct = cx.bind(format!("ConvertElementType({ct}, {})", elem.name()));
    }
    let batch: Vec<usize> = (0..nb).collect();
    // Positions of the lhs and rhs free dimensions in the result.
    let lhs_free_at: Vec<usize> = (nb..nb + l.free.len()).collect();
    let rhs_free_at: Vec<usize> = (nb + l.free.len()..nb + l.free.len() + r.free.len()).collect();
    for (i, (this, other, other_free_at, this_free_at)) in [
        (&l, &r, &rhs_free_at, &lhs_free_at),
        (&r, &l, &lhs_free_at, &rhs_free_at),
    ]
    .into_iter()
    .enumerate()
    {
        if !cx.is_active(i) {
            continue;
        }
        let _ = this_free_at;
        let other_name = cx.arg(1 - i)?.name.clone();
        let mut text = format!(
            "DotGeneral({ct}, {other_name}, lhs_contracting_dimensions={}, rhs_contracting_dimensions={}",
            brace(other_free_at),
            brace(&other.free)
        );
        if nb > 0 {
            text.push_str(&format!(
                ", lhs_batch_dimensions={}, rhs_batch_dimensions={}",
                brace(&batch),
                brace(&other.batch)
            ));
        }
        text.push(')');
        // The product's dimensions, as dimensions of this operand: batch, free,
        // then the other operand's contracting dimensions in ascending order,
        // each paired with this operand's contracting dimension.
        let mut other_c: Vec<(usize, usize)> = other
            .contracting
            .iter()
            .zip(&this.contracting)
            .map(|(&o, &t)| (o, t))
            .collect();
        other_c.sort_unstable();
        let mut at: Vec<usize> = this.batch.clone();
        at.extend(&this.free);
        at.extend(other_c.iter().map(|&(_, t)| t));
        let perm: Vec<usize> = (0..at.len())
            .map(|d| at.iter().position(|&x| x == d).unwrap_or(d))
            .collect();
        if perm.iter().enumerate().any(|(k, &d)| k != d) {
            let t = cx.bind(text);
            text = format!("Transpose({t}, {})", brace(&perm));
        }
        cx.send(i, text);
    }
    Ok(())
}
