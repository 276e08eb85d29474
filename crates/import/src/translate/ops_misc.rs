//! The long tail of StableHLO ops: map, random numbers, FFT, linear algebra,
//! batch norm, reduce_precision, custom calls, collectives, composite.

use super::Cx;
use super::attrs::{bad, brace, int, need};
use super::ops_more::scalar_types;
use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::op::Op;
use xlet_core::types::Type;

fn word<'a>(op: &'a Op, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| op.attr(k).and_then(Attr::word))
}

fn flag(op: &Op, key: &str) -> bool {
    op.attr(key).and_then(Attr::bool).unwrap_or(false)
}

fn result(op: &Op, i: usize) -> Result<&Type> {
    op.out_types.get(i).ok_or_else(|| {
        ImportError::at(
            op.span.clone(),
            format!("`{}` needs its result types written", op.name),
        )
    })
}

fn arity(op: &Op, v: &[String], n: usize) -> Result<()> {
    if v.len() == n {
        Ok(())
    } else {
        Err(ImportError::at(
            op.span.clone(),
            format!("`{}` takes {n} operands, not {}", op.name, v.len()),
        ))
    }
}

pub fn map(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let region = op.regions.first().ok_or_else(|| {
        ImportError::at(op.span.clone(), "a map needs its computation region".into())
    })?;
    let args = scalar_types(cx, op, 0..v.len());
    let comp = cx.region_comp("mapper", region, &args, false)?;
    let dims = match op.attr("dimensions") {
        Some(a) => a
            .ints()
            .ok_or_else(|| bad(op, "dimensions", "a list of integers"))?,
        None => vec![],
    };
    Ok(format!(
        "Map({{{}}}, {comp}, {})",
        v.join(", "),
        brace(&dims)
    ))
}

pub fn rng_bit_generator(op: &Op, v: &[String]) -> Result<String> {
    arity(op, v, 1)?;
    let alg = word(op, &["algorithm", "rng_algorithm"]).unwrap_or("DEFAULT");
    if !matches!(alg, "DEFAULT" | "THREE_FRY" | "PHILOX") {
        return Err(bad(op, "algorithm", "DEFAULT, THREE_FRY or PHILOX"));
    }
    Ok(format!(
        "RngBitGenerator({alg}, {}, {})",
        v[0],
        result(op, 1)?
    ))
}

/// `rng(a, b, shape)`: the shape operand is the result's shape, which the
/// result type already says, so it is not read.
pub fn rng(op: &Op, v: &[String]) -> Result<String> {
    arity(op, v, 3)?;
    let f = match word(op, &["rng_distribution", "distribution"]) {
        Some("UNIFORM") => "RngUniform",
        Some("NORMAL") => "RngNormal",
        _ => return Err(bad(op, "rng_distribution", "UNIFORM or NORMAL")),
    };
    Ok(format!("{f}({}, {}, {})", v[0], v[1], result(op, 0)?))
}

pub fn fft(op: &Op, v: &[String]) -> Result<String> {
    arity(op, v, 1)?;
    let ty = word(op, &["fft_type", "type"])
        .filter(|t| matches!(*t, "FFT" | "IFFT" | "RFFT" | "IRFFT"))
        .ok_or_else(|| bad(op, "fft_type", "FFT, IFFT, RFFT or IRFFT"))?;
    let len = ["fft_length", "length"]
        .iter()
        .find_map(|k| op.attr(k).and_then(Attr::ints))
        .ok_or_else(|| bad(op, "fft_length", "a list of integers"))?;
    Ok(format!("Fft({}, {ty}, {})", v[0], brace(&len)))
}

pub fn cholesky(op: &Op, v: &[String]) -> Result<String> {
    arity(op, v, 1)?;
    Ok(format!("Cholesky({}, lower={})", v[0], flag(op, "lower")))
}

pub fn triangular_solve(op: &Op, v: &[String]) -> Result<String> {
    arity(op, v, 2)?;
    let t = word(op, &["transpose_a"]).unwrap_or("NO_TRANSPOSE");
    if !matches!(t, "NO_TRANSPOSE" | "TRANSPOSE" | "ADJOINT") {
        return Err(bad(op, "transpose_a", "NO_TRANSPOSE, TRANSPOSE or ADJOINT"));
    }
    Ok(format!(
        "TriangularSolve({}, {}, left_side={}, lower={}, unit_diagonal={}, transpose_a={t})",
        v[0],
        v[1],
        flag(op, "left_side"),
        flag(op, "lower"),
        flag(op, "unit_diagonal")
    ))
}

/// `batch_norm_{training,inference,grad}`: the operands in StableHLO's order
/// are xlet's, then epsilon and feature_index.
pub fn batch_norm(op: &Op, v: &[String], f: &str, n: usize) -> Result<String> {
    arity(op, v, n)?;
    let eps = match need(op, "epsilon")? {
        Attr::Float(x) => *x,
        Attr::Int(i) => *i as f64,
        _ => return Err(bad(op, "epsilon", "a number")),
    };
    Ok(format!(
        "{f}({}, epsilon={eps:e}, feature_index={})",
        v.join(", "),
        int(op, "feature_index")?
    ))
}

/// `format = e5m10` (pretty) or `exponent_bits`/`mantissa_bits`.
pub fn reduce_precision(op: &Op, v: &[String]) -> Result<String> {
    arity(op, v, 1)?;
    let (e, m) = match op.attr("format").and_then(Attr::word) {
        Some(f) => f
            .strip_prefix('e')
            .and_then(|r| r.split_once('m'))
            .and_then(|(e, m)| Some((e.parse().ok()?, m.parse().ok()?)))
            .ok_or_else(|| bad(op, "format", "`eNmM`"))?,
        None => (int(op, "exponent_bits")?, int(op, "mantissa_bits")?),
    };
    Ok(format!(
        "ReducePrecision({}, exponent_bits={e}, mantissa_bits={m})",
        v[0]
    ))
}

/// A custom call xlet does not know: `CustomCall("target", {ops}, T)`; the
/// checker says whether xlet runs that target.
pub fn custom_call(op: &Op, v: &[String]) -> Result<String> {
    let target = super::custom_call_target(op)
        .ok_or_else(|| bad(op, "call_target_name", "a target name"))?;
    let ty = match op.out_types.len() {
        1 => op.out_types[0].clone(),
        _ => Type::Tuple(op.out_types.clone()),
    };
    Ok(format!(
        "CustomCall({target:?}, {{{}}}, {ty})",
        v.join(", ")
    ))
}

/// `dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>` as `{{0, 1}, {2, 3}}`.
fn groups(op: &Op, key: &str) -> Result<String> {
    let Some(a) = op.attr(key) else {
        return Ok("{}".into());
    };
    let flat = a
        .ints()
        .ok_or_else(|| bad(op, key, "a dense array of integers"))?;
    let width = match a {
        Attr::Dense {
            ty: Some(Type::Array(t)),
            ..
        } if t.dims.len() == 2 => t.dims[1],
        _ => flat.len(),
    };
    if width == 0 || flat.is_empty() {
        return Ok("{}".into());
    }
    let rows: Vec<String> = flat.chunks(width).map(brace).collect();
    Ok(format!("{{{}}}", rows.join(", ")))
}

pub fn collective(cx: &mut Cx, op: &Op, v: &[String], short: &str) -> Result<String> {
    arity(op, v, 1)?;
    let x = &v[0];
    let rg = groups(op, "replica_groups")?;
    let reducer = |cx: &mut Cx| {
        let t = scalar_types(cx, op, 0..1);
        super::ops::reducer(cx, op, "reducer", &t)
    };
    Ok(match short {
        "all_reduce" => format!("AllReduce({x}, {}, replica_groups={rg})", reducer(cx)?),
        "all_gather" => format!(
            "AllGather({x}, {}, replica_groups={rg})",
            int(op, "all_gather_dim")?
        ),
        "all_to_all" => format!(
            "AllToAll({x}, {}, {}, {}, replica_groups={rg})",
            int(op, "split_dimension")?,
            int(op, "concat_dimension")?,
            int(op, "split_count")?
        ),
        "reduce_scatter" => format!(
            "ReduceScatter({x}, {}, {}, replica_groups={rg})",
            reducer(cx)?,
            int(op, "scatter_dimension")?
        ),
        _ => format!(
            "CollectivePermute({x}, {})",
            groups(op, "source_target_pairs")?
        ),
    })
}

/// `composite "name" %x {decomposition = @f}`: a call of its decomposition.
pub fn composite(cx: &Cx, op: &Op, v: &[String]) -> Result<String> {
    let f = match op.attr("decomposition") {
        Some(Attr::Symbol(s)) => s.clone(),
        _ => return Err(bad(op, "decomposition", "a function `@name`")),
    };
    let comp = cx.func_comp_name(&f).ok_or_else(|| {
        ImportError::at(op.span.clone(), format!("no function @{f} in the module"))
    })?;
    Ok(format!("{comp}({})", v.join(", ")))
}
