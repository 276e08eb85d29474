//! Each StableHLO (and CHLO) op as an xlet expression (spec/import.md §7).
//! Ops whose xlet form is the same call with the same operands are in the
//! tables; the rest have a function each.

use super::attrs::{brace, int, ints, need, pair};
use super::{Cx, ops_more, tuple_expr};
use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::items::{Item, split_commas};
use crate::mlir::lexer::Tok;
use crate::mlir::op::Op;
use xlet_core::types::Type;

/// StableHLO's elementwise ops that are xlet's ops of the same operands.
const SAME: &[(&str, &str)] = &[
    ("abs", "Abs"),
    ("add", "Add"),
    ("and", "And"),
    ("atan2", "Atan2"),
    ("cbrt", "Cbrt"),
    ("ceil", "Ceil"),
    ("complex", "Complex"),
    ("cosine", "Cos"),
    ("count_leading_zeros", "Clz"),
    ("divide", "Div"),
    ("exponential", "Exp"),
    ("exponential_minus_one", "Expm1"),
    ("floor", "Floor"),
    ("imag", "Imag"),
    ("is_finite", "IsFinite"),
    ("log", "Log"),
    ("log_plus_one", "Log1p"),
    ("logistic", "Logistic"),
    ("maximum", "Max"),
    ("minimum", "Min"),
    ("multiply", "Mul"),
    ("negate", "Neg"),
    ("not", "Not"),
    ("or", "Or"),
    ("popcnt", "PopulationCount"),
    ("power", "Pow"),
    ("real", "Real"),
    ("remainder", "Rem"),
    ("round_nearest_afz", "RoundNearestAfz"),
    ("round_nearest_even", "RoundNearestEven"),
    ("rsqrt", "Rsqrt"),
    ("select", "Select"),
    ("shift_left", "ShiftLeft"),
    ("shift_right_arithmetic", "ShiftRightArithmetic"),
    ("shift_right_logical", "ShiftRightLogical"),
    ("sign", "Sign"),
    ("sine", "Sin"),
    ("sqrt", "Sqrt"),
    ("subtract", "Sub"),
    ("tan", "Tan"),
    ("tanh", "Tanh"),
    ("xor", "Xor"),
    ("clamp", "Clamp"),
    ("replica_id", "ReplicaId"),
    ("erf", "Erf"),
];

/// The prelude comp for a reduction written `applies stablehlo.add`.
fn prelude(op_name: &str) -> Option<&'static str> {
    Some(
        match op_name.strip_prefix("stablehlo.").unwrap_or(op_name) {
            "add" => "add",
            "multiply" => "mul",
            "maximum" => "max",
            "minimum" => "min",
            "and" => "and",
            "or" => "or",
            _ => return None,
        },
    )
}

pub fn expr(cx: &mut Cx, op: &Op) -> Result<String> {
    let name = op.name.as_str();
    let short = name
        .strip_prefix("stablehlo.")
        .or_else(|| name.strip_prefix("chlo."))
        .unwrap_or(name);
    if let Some((_, x)) = SAME.iter().find(|(s, _)| *s == short) {
        return Ok(format!("{x}({})", cx.values(&op.operands)?.join(", ")));
    }
    let v = cx.values(&op.operands)?;
    let least = min_operands(short);
    if v.len() < least {
        return Err(ImportError::at(
            op.span.clone(),
            format!(
                "`{}` takes at least {least} operand{}; {} written",
                op.name,
                if least == 1 { "" } else { "s" },
                v.len()
            ),
        ));
    }
    if name.starts_with("chlo.")
        && let Some(e) = super::special::expr(cx, op, short, &v)?
    {
        return Ok(e);
    }
    if name.starts_with("chlo.")
        && let Some(e) = super::gamma::expr(cx, op, short, &v)?
    {
        return Ok(e);
    }
    if name.starts_with("chlo.")
        && let Some(e) = super::chlo::expr(cx, op, short, &v)?
    {
        return Ok(e);
    }
    let out = || -> Result<&Type> {
        op.out_types.first().ok_or_else(|| {
            ImportError::at(
                op.span.clone(),
                format!("`{}` needs its result type written", op.name),
            )
        })
    };
    let out_array = || -> Result<&xlet_core::types::ArrayType> {
        out()?.as_array().ok_or_else(|| {
            ImportError::at(
                op.span.clone(),
                format!("`{}`'s result should be a tensor", op.name),
            )
        })
    };
    Ok(match short {
        "constant" => {
            let (body, ty, span) = match need(op, "value")? {
                Attr::Dense { body, ty, span } => (body, ty, span),
                _ => return Err(super::attrs::bad(op, "value", "a dense<...> constant")),
            };
            let ty = match ty.as_ref().or(op.out_types.first()) {
                Some(Type::Array(a)) => a.clone(),
                _ => out_array()?.clone(),
            };
            let hint = op
                .results
                .first()
                .map_or("cst", |(n, _)| n.as_str())
                .to_string();
            cx.constant(body, &ty, span.clone(), &format!("const_{hint}"))?
        }
        "compare" => compare(op, &v)?,
        "convert" => format!("ConvertElementType({}, {})", v[0], out_array()?.elem),
        "bitcast_convert" => format!("BitcastConvertType({}, {})", v[0], out_array()?.elem),
        "reshape" => format!("Reshape({}, {})", v[0], brace(&dims(out_array()?))),
        "broadcast_in_dim" => {
            let d = ints(op, key(op, "dims", "broadcast_dimensions"))?;
            format!(
                "BroadcastInDim({}, {}, {})",
                v[0],
                brace(&dims(out_array()?)),
                brace(&d)
            )
        }
        "broadcast" => format!(
            "Broadcast({}, {})",
            v[0],
            brace(&ints(op, "broadcast_sizes")?)
        ),
        "transpose" => {
            let d = ints(op, key(op, "dims", "permutation"))?;
            format!("Transpose({}, {})", v[0], brace(&d))
        }
        "reverse" => {
            let d = ints(op, key(op, "dims", "dimensions"))?;
            format!("Rev({}, {})", v[0], brace(&d))
        }
        "iota" => {
            let d = int(op, key(op, "dim", "iota_dimension"))?;
            format!("Iota({}, {d})", out()?)
        }
        "concatenate" => {
            let d = int(op, key(op, "dim", "dimension"))?;
            format!("Concatenate({{{}}}, {d})", v.join(", "))
        }
        "slice" => slice(op, &v)?,
        "dynamic_slice" => {
            let sizes = ints(op, key(op, "sizes", "slice_sizes"))?;
            format!(
                "DynamicSlice({}, {}, {})",
                v[0],
                index_vector(cx, op, 1)?,
                brace(&sizes)
            )
        }
        "dynamic_update_slice" => {
            format!(
                "DynamicUpdateSlice({}, {}, {})",
                v[0],
                v[1],
                index_vector(cx, op, 2)?
            )
        }
        "pad" => {
            let lo = ints(op, key(op, "low", "edge_padding_low"))?;
            let hi = ints(op, key(op, "high", "edge_padding_high"))?;
            let int_ = ints(op, key(op, "interior", "interior_padding"))?;
            let cfg: Vec<String> = lo
                .iter()
                .zip(&hi)
                .zip(&int_)
                .map(|((l, h), i)| format!("{{{l}, {h}, {i}}}"))
                .collect();
            format!("Pad({}, {}, {{{}}})", v[0], v[1], cfg.join(", "))
        }
        "get_tuple_element" => {
            let i = match op.attr("index") {
                Some(a) => a
                    .int()
                    .ok_or_else(|| super::attrs::bad(op, "index", "an integer"))?,
                None => op
                    .groups
                    .first()
                    .and_then(|g| g.first())
                    .and_then(Item::tok)
                    .and_then(|t| match t {
                        Tok::Number(n) => n.parse().ok(),
                        _ => None,
                    })
                    .ok_or_else(|| super::attrs::bad(op, "index", "an integer"))?,
            };
            format!("GetTupleElement({}, {i})", v[0])
        }
        "tuple" => tuple_expr(&v),
        "optimization_barrier" => match v.len() {
            1 => format!("OptimizationBarrier({})", v[0]),
            _ => format!("OptimizationBarrier({})", tuple_expr(&v)),
        },
        "dot" => format!("Dot({}, {})", v[0], v[1]),
        "dot_general" => dot_general(cx, op, &v)?,
        "reduce" => reduce(cx, op, &v)?,
        "while" => while_(cx, op, &v)?,
        "call" | "func.call" => call(cx, op, &v)?,
        "sort" => sort(cx, op, &v)?,
        "top_k" => format!("TopK({}, {})", v[0], int(op, "k")?),
        "gather" => ops_more::gather(op, &v)?,
        "scatter" => ops_more::scatter(cx, op, &v)?,
        "dynamic_gather" => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                "`stablehlo.dynamic_gather` (slice sizes given as a value; xlet's are static)"
                    .into(),
            ));
        }
        "convolution" => ops_more::convolution(op, &v)?,
        "reduce_window" => ops_more::reduce_window(cx, op, &v)?,
        "select_and_scatter" => ops_more::select_and_scatter(cx, op, &v)?,
        "case" => super::captures::case(cx, op, &v)?,
        "if" => super::captures::if_(cx, op, &v)?,
        "map" => super::ops_misc::map(cx, op, &v)?,
        "rng_bit_generator" => super::ops_misc::rng_bit_generator(op, &v)?,
        "rng" => super::ops_misc::rng(op, &v)?,
        "fft" => super::ops_misc::fft(op, &v)?,
        "cholesky" => super::ops_misc::cholesky(op, &v)?,
        "triangular_solve" => super::ops_misc::triangular_solve(op, &v)?,
        "batch_norm_training" => super::ops_misc::batch_norm(op, &v, "BatchNormTraining", 3)?,
        "batch_norm_inference" => super::ops_misc::batch_norm(op, &v, "BatchNormInference", 5)?,
        "batch_norm_grad" => super::ops_misc::batch_norm(op, &v, "BatchNormGrad", 5)?,
        "reduce_precision" => super::ops_misc::reduce_precision(op, &v)?,
        "custom_call" => super::ops_misc::custom_call(op, &v)?,
        "all_reduce" | "all_gather" | "all_to_all" | "reduce_scatter" | "collective_permute" => {
            super::ops_misc::collective(cx, op, &v, short)?
        }
        "composite" => super::ops_misc::composite(cx, op, &v)?,
        "uniform_quantize" | "uniform_dequantize" => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                format!("`{}` (xlet has no quantized element types)", op.name),
            ));
        }
        "get_dimension_size" => {
            let d = int(op, key(op, "dim", "dimension"))?;
            format!("GetDimensionSize({}, {d})", v[0])
        }
        _ => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                format!("the op `{}` (xlet cannot run it yet)", op.name),
            ));
        }
    })
}

/// The fewest operands each op's translation reads (by position), so that a
/// module that leaves them out is an error, not an out-of-range index.
fn min_operands(short: &str) -> usize {
    match short {
        "select_and_scatter" | "scatter" | "batch_norm_training" => 3,
        "batch_norm_inference" | "batch_norm_grad" => 5,
        "compare"
        | "dot"
        | "dot_general"
        | "pad"
        | "dynamic_update_slice"
        | "gather"
        | "convolution"
        | "reduce_window"
        | "triangular_solve"
        | "rng" => 2,
        "convert" | "bitcast_convert" | "reshape" | "broadcast_in_dim" | "broadcast"
        | "transpose" | "reverse" | "dynamic_slice" | "get_tuple_element" | "top_k"
        | "get_dimension_size" | "fft" | "cholesky" | "reduce_precision" | "rng_bit_generator"
        | "sort" | "case" | "if" | "map" | "all_reduce" | "all_gather" | "all_to_all"
        | "reduce_scatter" | "collective_permute" | "while" | "reduce" => 1,
        _ => 0,
    }
}

/// The attribute's name as written: the pretty form's short one (`dims`) or
/// the generic form's (`broadcast_dimensions`).
fn key(op: &Op, pretty: &'static str, generic: &'static str) -> &'static str {
    if op.attr(pretty).is_some() {
        pretty
    } else {
        generic
    }
}

fn dims(a: &xlet_core::types::ArrayType) -> Vec<i128> {
    a.dims.iter().map(|d| *d as i128).collect()
}

pub(crate) fn compare(op: &Op, v: &[String]) -> Result<String> {
    let dir = op
        .attr("comparison_direction")
        .and_then(Attr::word)
        .map(str::to_string)
        .or_else(|| op.words.first().cloned())
        .ok_or_else(|| super::attrs::bad(op, "comparison_direction", "EQ, NE, LT, LE, GT or GE"))?;
    let x = match dir.as_str() {
        "EQ" => "Eq",
        "NE" => "Ne",
        "LT" => "Lt",
        "LE" => "Le",
        "GT" => "Gt",
        "GE" => "Ge",
        _ => {
            return Err(super::attrs::bad(
                op,
                "comparison_direction",
                "EQ, NE, LT, LE, GT or GE",
            ));
        }
    };
    let ty = op
        .attr("compare_type")
        .and_then(Attr::word)
        .map(str::to_string)
        .or_else(|| op.words.get(1).cloned());
    Ok(match ty.as_deref() {
        Some("TOTALORDER") => format!("{x}({}, {}, type=TOTALORDER)", v[0], v[1]),
        _ => format!("{x}({}, {})", v[0], v[1]),
    })
}

fn slice(op: &Op, v: &[String]) -> Result<String> {
    if let Some(g) = op.groups.first() {
        // `[0:2, 1:3:1]`
        let (mut s, mut l, mut st) = (vec![], vec![], vec![]);
        for part in split_commas(g) {
            let nums: Vec<i128> = part
                .iter()
                .filter_map(Item::tok)
                .filter_map(|t| match t {
                    Tok::Number(n) => n.parse().ok(),
                    _ => None,
                })
                .collect();
            match nums.as_slice() {
                [a, b] => {
                    s.push(*a);
                    l.push(*b);
                    st.push(1);
                }
                [a, b, c] => {
                    s.push(*a);
                    l.push(*b);
                    st.push(*c);
                }
                _ => {
                    return Err(super::attrs::bad(
                        op,
                        "slice",
                        "ranges `start:limit[:stride]`",
                    ));
                }
            }
        }
        return Ok(format!(
            "Slice({}, {}, {}, {})",
            v[0],
            brace(&s),
            brace(&l),
            brace(&st)
        ));
    }
    let s = ints(op, "start_indices")?;
    let l = ints(op, "limit_indices")?;
    let st = match op.attr("strides") {
        Some(_) => ints(op, "strides")?,
        None => vec![1; s.len()],
    };
    Ok(format!(
        "Slice({}, {}, {}, {})",
        v[0],
        brace(&s),
        brace(&l),
        brace(&st)
    ))
}

/// DynamicSlice's scalar start indices (operands from `first`) as one rank-1 array.
fn index_vector(cx: &Cx, op: &Op, first: usize) -> Result<String> {
    let idx = &op.operands[first.min(op.operands.len())..];
    if idx.is_empty() {
        return Ok("s32[0] {}".into());
    }
    let parts: Vec<String> = idx
        .iter()
        .map(|u| cx.value(u).map(|e| format!("Reshape({e}, {{1}})")))
        .collect::<Result<_>>()?;
    Ok(format!("Concatenate({{{}}}, 0)", parts.join(", ")))
}

fn dot_general(_cx: &Cx, op: &Op, v: &[String]) -> Result<String> {
    let (lb, rb, lc, rc) = if let Some(d) = op.attr("dot_dimension_numbers") {
        let get = |k: &str| d.get(k).and_then(Attr::ints).unwrap_or_default();
        (
            get("lhs_batching_dimensions"),
            get("rhs_batching_dimensions"),
            get("lhs_contracting_dimensions"),
            get("rhs_contracting_dimensions"),
        )
    } else {
        let (lb, rb) = op.attr("batching_dims").and_then(pair).unwrap_or_default();
        let (lc, rc) = op
            .attr("contracting_dims")
            .and_then(pair)
            .unwrap_or_default();
        (lb, rb, lc, rc)
    };
    let mut s = format!(
        "DotGeneral({}, {}, lhs_contracting_dimensions={}, rhs_contracting_dimensions={}, lhs_batch_dimensions={}, rhs_batch_dimensions={}",
        v[0],
        v[1],
        brace(&lc),
        brace(&rc),
        brace(&lb),
        brace(&rb)
    );
    if let (Some(Type::Array(o)), Some(Type::Array(l))) =
        (op.out_types.first(), op.in_types.first())
        && o.elem != l.elem
    {
        s.push_str(&format!(", preferred_element_type={}", o.elem));
    }
    s.push(')');
    Ok(s)
}

/// The computation of a reduction: `applies stablehlo.add`, or its region.
pub(crate) fn reducer(cx: &mut Cx, op: &Op, hint: &str, scalar_types: &[Type]) -> Result<String> {
    if let Some(i) = op.words.iter().position(|w| w == "applies")
        && let Some(inner) = op.words.get(i + 1)
    {
        if let Some(p) = prelude(inner) {
            return Ok(p.to_string());
        }
        return Err(ImportError::unsupported(
            op.span.clone(),
            format!(
                "`applies {inner}` (xlet's prelude has add, multiply, maximum, minimum, and, or)"
            ),
        ));
    }
    let region = op.regions.first().ok_or_else(|| {
        ImportError::at(
            op.span.clone(),
            format!("`{}` needs its computation region", op.name),
        )
    })?;
    let mut arg_types = scalar_types.to_vec();
    arg_types.extend_from_slice(scalar_types);
    cx.region_comp(hint, region, &arg_types, false)
}

fn scalar_of(t: &Type) -> Type {
    match t {
        Type::Array(a) => Type::scalar(a.elem),
        other => other.clone(),
    }
}

fn reduce(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let (xs, inits): (Vec<String>, Vec<String>) = if op.inits.is_empty() {
        let n = v.len() / 2;
        (v[..n].to_vec(), v[n..].to_vec())
    } else {
        (v.to_vec(), cx.values(&op.inits)?)
    };
    let n = xs.len();
    if n == 0 || inits.len() != n {
        return Err(ImportError::at(
            op.span.clone(),
            format!(
                "`{}` needs as many init values as operands (and at least one of each)",
                op.name
            ),
        ));
    }
    let init_uses = if op.inits.is_empty() {
        op.operands[n..].to_vec()
    } else {
        op.inits.clone()
    };
    let scalar_types: Vec<Type> = init_uses
        .iter()
        .map(|u| cx.value_type(u).map(|t| scalar_of(&t)))
        .collect::<Option<_>>()
        .unwrap_or_default();
    let comp = reducer(cx, op, "reducer", &scalar_types)?;
    let d = ints(op, "dimensions")?;
    Ok(if n == 1 {
        format!("Reduce({}, {}, {comp}, {})", xs[0], inits[0], brace(&d))
    } else {
        format!(
            "Reduce({{{}}}, {{{}}}, {comp}, {})",
            xs.join(", "),
            inits.join(", "),
            brace(&d)
        )
    })
}

fn while_(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let tys: Vec<Type> = if op.out_types.len() == v.len() {
        op.out_types.clone()
    } else {
        op.operands
            .iter()
            .map(|u| cx.value_type(u))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                ImportError::at(
                    op.span.clone(),
                    "the while's state types are not written".into(),
                )
            })?
    };
    let (cond_r, body_r) = match op.regions.as_slice() {
        [c, b] => (c.clone(), b.clone()),
        _ => {
            return Err(ImportError::at(
                op.span.clone(),
                "a while has a cond and a body region".into(),
            ));
        }
    };
    let with_args = |mut r: crate::mlir::items::Region| {
        if r.args.is_empty() {
            r.args = op.iter_args.iter().map(|n| (n.clone(), vec![])).collect();
        }
        r
    };
    let tuple = v.len() != 1;
    let cond = cx.region_comp("cond", &with_args(cond_r), &tys, tuple)?;
    let body = cx.region_comp("body", &with_args(body_r), &tys, tuple)?;
    let init = if tuple { tuple_expr(v) } else { v[0].clone() };
    Ok(format!("While({cond}, {body}, {init})"))
}

fn call(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let callee = match op.attr("callee") {
        Some(Attr::Symbol(s)) => s.clone(),
        _ => return Err(super::attrs::bad(op, "callee", "a function `@name`")),
    };
    let sig = cx.funcs.get(&callee).cloned().ok_or_else(|| {
        ImportError::at(
            op.span.clone(),
            format!("no function @{callee} in the module"),
        )
    })?;
    Ok(format!("{}({})", sig.comp, v.join(", ")))
}

fn sort(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let dim = op.attr("dimension").and_then(Attr::int).unwrap_or(-1);
    let stable = op.attr("is_stable").and_then(Attr::bool).unwrap_or(false);
    let scalar_types: Vec<Type> = op
        .operands
        .iter()
        .map(|u| cx.value_type(u).map(|t| scalar_of(&t)))
        .collect::<Option<_>>()
        .unwrap_or_default();
    let region = op.regions.first().ok_or_else(|| {
        ImportError::at(op.span.clone(), "a sort needs its comparator region".into())
    })?;
    // The comparator takes (lhs_0, rhs_0, lhs_1, rhs_1, ...).
    let arg_types: Vec<Type> = scalar_types
        .iter()
        .flat_map(|t| [t.clone(), t.clone()])
        .collect();
    let comp = cx.region_comp("comparator", region, &arg_types, false)?;
    let dim = if dim < 0 {
        let rank = cx
            .value_type(&op.operands[0])
            .and_then(|t| t.as_array().map(|a| a.rank() as i128))
            .unwrap_or(1);
        rank + dim
    } else {
        dim
    };
    let ops = if v.len() == 1 {
        v[0].clone()
    } else {
        format!("{{{}}}", v.join(", "))
    };
    Ok(format!(
        "Sort({ops}, comparator={comp}, dimension={dim}, is_stable={stable})"
    ))
}
