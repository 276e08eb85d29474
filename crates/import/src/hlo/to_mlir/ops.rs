//! One HLO instruction as a StableHLO op, by opcode: the operands, the
//! attributes HLO writes (`dimensions=`, `window={...}`, `dim_labels=`, ...)
//! in StableHLO's generic form, and the computations an op applies inlined
//! as its regions.

use super::*;

impl<'a> Em<'a> {
    pub(super) fn op(
        &mut self,
        cx: &Ctx,
        ins: &'a Instr,
        env: &mut Env,
        depth: usize,
        ops: &[Ref],
    ) -> Result<()> {
        let opc = ins.opcode.as_str();
        let need = |n: usize| -> Result<()> {
            if ops.len() == n {
                Ok(())
            } else {
                Err(ImportError::at(
                    ins.span.clone(),
                    format!("`{opc}` takes {n} operands, given {}", ops.len()),
                ))
            }
        };
        let unsupported =
            || ImportError::unsupported(ins.span.clone(), format!("the HLO op `{opc}`"));
        if let Some(name) = elementwise(opc) {
            let name = name.unwrap_or_else(|| format!("stablehlo.{}", opc.replace('-', "_")));
            return self.generic(depth, ins, env, &name, ops, &[], vec![], false);
        }
        let g = |s: &mut Self, env: &mut Env, name: &str, props: Vec<String>| {
            s.generic(depth, ins, env, name, ops, &props, vec![], false)
        };
        match opc {
            "constant" => {
                let body = literal(&ins.raw, &ins.raw_span)?;
                let n = self.fresh(&ins.name);
                self.line(
                    depth,
                    &format!(
                        "{n} = stablehlo.constant dense<{body}> : {}",
                        ins.shape.mlir()
                    ),
                    &ins.span,
                );
                self.alias(ins, env, (n, ins.shape.clone()));
                Ok(())
            }
            "copy" | "domain" => {
                need(1)?;
                self.alias(ins, env, ops[0].clone());
                Ok(())
            }
            "custom-call" => match cx.string("custom_call_target").as_deref() {
                Some("Sharding") if ops.len() == 1 => {
                    self.alias(ins, env, ops[0].clone());
                    Ok(())
                }
                Some(t) => Err(ImportError::unsupported(
                    ins.span.clone(),
                    format!("the HLO custom-call `{t}`"),
                )),
                None => Err(unsupported()),
            },
            "compare" => {
                need(2)?;
                let dir = cx.word("direction")?;
                let ty = match cx.opt_word("type") {
                    Some(t) => t,
                    None => compare_type(ops[0].1.elem().unwrap_or("f32")).to_string(),
                };
                g(
                    self,
                    env,
                    "stablehlo.compare",
                    vec![
                        format!("comparison_direction = #stablehlo<comparison_direction {dir}>"),
                        format!("compare_type = #stablehlo<comparison_type {ty}>"),
                    ],
                )
            }
            "convert" => g(self, env, "stablehlo.convert", vec![]),
            "bitcast-convert" => g(self, env, "stablehlo.bitcast_convert", vec![]),
            "reshape" => g(self, env, "stablehlo.reshape", vec![]),
            "bitcast" => {
                need(1)?;
                if ops[0].1.elem() == ins.shape.elem() {
                    g(self, env, "stablehlo.reshape", vec![])
                } else {
                    Err(unsupported())
                }
            }
            // One `dimensions=` list, under StableHLO's name for it.
            "broadcast" | "transpose" | "reverse" => {
                let (name, key) = match opc {
                    "broadcast" => ("stablehlo.broadcast_in_dim", "broadcast_dimensions"),
                    "transpose" => ("stablehlo.transpose", "permutation"),
                    _ => ("stablehlo.reverse", "dimensions"),
                };
                let d = cx.ints("dimensions")?;
                g(self, env, name, vec![format!("{key} = {}", arr(&d))])
            }
            "iota" => {
                let d = cx.int("iota_dimension")?;
                g(
                    self,
                    env,
                    "stablehlo.iota",
                    vec![format!("iota_dimension = {d} : i64")],
                )
            }
            "concatenate" => {
                let d = cx.ints("dimensions")?;
                let d = d.first().copied().unwrap_or(0);
                g(
                    self,
                    env,
                    "stablehlo.concatenate",
                    vec![format!("dimension = {d} : i64")],
                )
            }
            "slice" => {
                let (s, l, st) = cx.slice("slice")?;
                g(
                    self,
                    env,
                    "stablehlo.slice",
                    vec![
                        format!("start_indices = {}", arr(&s)),
                        format!("limit_indices = {}", arr(&l)),
                        format!("strides = {}", arr(&st)),
                    ],
                )
            }
            "dynamic-slice" => {
                let s = cx.ints("dynamic_slice_sizes")?;
                if ops.iter().skip(1).any(|(_, s)| !s.dims().is_empty()) {
                    return Err(ImportError::unsupported(
                        ins.span.clone(),
                        "a dynamic-slice with an index vector (the old form)".into(),
                    ));
                }
                g(
                    self,
                    env,
                    "stablehlo.dynamic_slice",
                    vec![format!("slice_sizes = {}", arr(&s))],
                )
            }
            "dynamic-update-slice" => {
                if ops.iter().skip(2).any(|(_, s)| !s.dims().is_empty()) {
                    return Err(ImportError::unsupported(
                        ins.span.clone(),
                        "a dynamic-update-slice with an index vector (the old form)".into(),
                    ));
                }
                g(self, env, "stablehlo.dynamic_update_slice", vec![])
            }
            "pad" => {
                let p = cx.padding("padding", ops.first().map_or(0, |o| o.1.dims().len()))?;
                let lo: Vec<i64> = p.iter().map(|x| x.0).collect();
                let hi: Vec<i64> = p.iter().map(|x| x.1).collect();
                let it: Vec<i64> = p.iter().map(|x| x.2).collect();
                g(
                    self,
                    env,
                    "stablehlo.pad",
                    vec![
                        format!("edge_padding_low = {}", arr(&lo)),
                        format!("edge_padding_high = {}", arr(&hi)),
                        format!("interior_padding = {}", arr(&it)),
                    ],
                )
            }
            "tuple" => {
                g(self, env, "stablehlo.tuple", vec![])?;
                if let Some(Val::One { parts, .. }) = env.get_mut(&ins.name) {
                    *parts = Some(ops.to_vec());
                }
                Ok(())
            }
            "get-tuple-element" => {
                need(1)?;
                let i = cx.int("index")?;
                let src = &ins.operands[0].0;
                if let Some(Val::Multi { base, shapes, .. }) = env.get(src).cloned() {
                    let s = shapes.get(i as usize).cloned().ok_or_else(|| {
                        ImportError::at(ins.span.clone(), format!("no element {i}"))
                    })?;
                    self.alias(ins, env, (format!("{base}#{i}"), s));
                    return Ok(());
                }
                if let Some(Val::One { parts: Some(p), .. }) = env.get(src).cloned()
                    && let Some(r) = p.get(i as usize)
                {
                    self.alias(ins, env, r.clone());
                    return Ok(());
                }
                g(
                    self,
                    env,
                    "stablehlo.get_tuple_element",
                    vec![format!("index = {i} : i32")],
                )
            }
            "dot" => {
                let lb = cx.ints_or_empty("lhs_batch_dims")?;
                let rb = cx.ints_or_empty("rhs_batch_dims")?;
                let lc = cx.ints_or_empty("lhs_contracting_dims")?;
                let rc = cx.ints_or_empty("rhs_contracting_dims")?;
                let mut parts = vec![];
                for (k, v) in [
                    ("lhs_batching_dimensions", &lb),
                    ("rhs_batching_dimensions", &rb),
                    ("lhs_contracting_dimensions", &lc),
                    ("rhs_contracting_dimensions", &rc),
                ] {
                    if !v.is_empty() {
                        parts.push(format!("{k} = {}", list(v)));
                    }
                }
                g(
                    self,
                    env,
                    "stablehlo.dot_general",
                    vec![format!(
                        "dot_dimension_numbers = #stablehlo.dot<{}>",
                        parts.join(", ")
                    )],
                )
            }
            "reduce" => {
                let d = cx.ints("dimensions")?;
                let comp = cx.comp("to_apply")?;
                let multi = ins.shape.parts().is_some();
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.reduce",
                    ops,
                    &[format!("dimensions = {}", arr(&d))],
                    vec![RegionSpec {
                        comp,
                        args: Args::Block,
                        flatten: multi,
                    }],
                    multi,
                )
            }
            "map" => {
                let d = cx.ints_or_empty("dimensions")?;
                let comp = cx.comp("to_apply")?;
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.map",
                    ops,
                    &[format!("dimensions = {}", arr(&d))],
                    vec![RegionSpec {
                        comp,
                        args: Args::Block,
                        flatten: false,
                    }],
                    false,
                )
            }
            "sort" => {
                let d = cx.ints("dimensions")?;
                let d = d.first().copied().unwrap_or(-1);
                let stable = cx.opt_word("is_stable").is_some_and(|w| w == "true");
                let comp = cx.comp("to_apply")?;
                let multi = ins.shape.parts().is_some();
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.sort",
                    ops,
                    &[
                        format!("dimension = {d} : i64"),
                        format!("is_stable = {stable}"),
                    ],
                    vec![RegionSpec {
                        comp,
                        args: Args::Block,
                        flatten: false,
                    }],
                    multi,
                )
            }
            "while" => {
                need(1)?;
                let cond = cx.comp("condition")?;
                let body = cx.comp("body")?;
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.while",
                    ops,
                    &[],
                    vec![
                        RegionSpec {
                            comp: cond,
                            args: Args::Block,
                            flatten: false,
                        },
                        RegionSpec {
                            comp: body,
                            args: Args::Block,
                            flatten: false,
                        },
                    ],
                    false,
                )
            }
            "call" => {
                let comp = cx.comp("to_apply")?;
                self.comp(&comp, &ins.span)?;
                if self.queued.insert(comp.clone()) {
                    self.queue.push(comp.clone());
                }
                let n = self.fresh(&ins.name);
                self.line(
                    depth,
                    &format!(
                        "{n} = func.call @{}({}) : ({}) -> {}",
                        symbol(&comp),
                        names(ops),
                        types(ops),
                        ins.shape.mlir()
                    ),
                    &ins.span,
                );
                self.alias(ins, env, (n, ins.shape.clone()));
                Ok(())
            }
            "conditional" => {
                if ops.is_empty() {
                    return Err(unsupported());
                }
                let (index, branches): (Ref, Vec<(String, Ref)>) = if cx.has("branch_computations")
                {
                    let comps = cx.comps("branch_computations")?;
                    need(comps.len() + 1)?;
                    (
                        ops[0].clone(),
                        comps.into_iter().zip(ops[1..].iter().cloned()).collect(),
                    )
                } else {
                    need(3)?;
                    let t = cx.comp("true_computation")?;
                    let f = cx.comp("false_computation")?;
                    // A pred selects branch 1 (true) or 0 (false).
                    let n = self.fresh(&format!("{}_index", ins.name));
                    let s = ops[0].1.with_elem("s32");
                    self.line(
                        depth,
                        &format!(
                            "{n} = \"stablehlo.convert\"({}) : ({}) -> {}",
                            ops[0].0,
                            ops[0].1.mlir(),
                            s.mlir()
                        ),
                        &ins.span,
                    );
                    ((n, s), vec![(f, ops[2].clone()), (t, ops[1].clone())])
                };
                let multi = ins.shape.parts().is_some();
                let regions = branches
                    .into_iter()
                    .map(|(comp, r)| RegionSpec {
                        comp,
                        args: Args::Bound(vec![r]),
                        flatten: multi,
                    })
                    .collect();
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.case",
                    &[index],
                    &[],
                    regions,
                    multi,
                )
            }
            "reduce-window" => {
                let rank = ops.first().map_or(0, |o| o.1.dims().len());
                let w = cx.window("window", rank)?;
                let comp = cx.comp("to_apply")?;
                let multi = ins.shape.parts().is_some();
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.reduce_window",
                    ops,
                    &[
                        format!("window_dimensions = {}", arr(&w.size)),
                        format!("window_strides = {}", arr(&w.stride)),
                        format!("base_dilations = {}", arr(&w.lhs_dilate)),
                        format!("window_dilations = {}", arr(&w.rhs_dilate)),
                        format!("padding = {}", pad_pairs(&w.pad)),
                    ],
                    vec![RegionSpec {
                        comp,
                        args: Args::Block,
                        flatten: multi,
                    }],
                    multi,
                )
            }
            "select-and-scatter" => {
                need(3)?;
                let w = cx.window("window", ops[0].1.dims().len())?;
                let sel = cx.comp("select")?;
                let sc = cx.comp("scatter")?;
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.select_and_scatter",
                    ops,
                    &[
                        format!("window_dimensions = {}", arr(&w.size)),
                        format!("window_strides = {}", arr(&w.stride)),
                        format!("padding = {}", pad_pairs(&w.pad)),
                    ],
                    vec![
                        RegionSpec {
                            comp: sel,
                            args: Args::Block,
                            flatten: false,
                        },
                        RegionSpec {
                            comp: sc,
                            args: Args::Block,
                            flatten: false,
                        },
                    ],
                    false,
                )
            }
            "scatter" => {
                let mut dn = vec![];
                for (k, out) in [
                    ("update_window_dims", "update_window_dims"),
                    ("inserted_window_dims", "inserted_window_dims"),
                    ("input_batching_dims", "input_batching_dims"),
                    (
                        "scatter_indices_batching_dims",
                        "scatter_indices_batching_dims",
                    ),
                    (
                        "scatter_dims_to_operand_dims",
                        "scatter_dims_to_operand_dims",
                    ),
                ] {
                    let v = cx.ints_or_empty(k)?;
                    if !v.is_empty() {
                        dn.push(format!("{out} = {}", list(&v)));
                    }
                }
                dn.push(format!(
                    "index_vector_dim = {}",
                    cx.int("index_vector_dim")?
                ));
                let comp = cx.comp("to_apply")?;
                let multi = ins.shape.parts().is_some();
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.scatter",
                    ops,
                    &[
                        format!("indices_are_sorted = {}", cx.flag("indices_are_sorted")),
                        format!(
                            "scatter_dimension_numbers = #stablehlo.scatter<{}>",
                            dn.join(", ")
                        ),
                        format!("unique_indices = {}", cx.flag("unique_indices")),
                    ],
                    vec![RegionSpec {
                        comp,
                        args: Args::Block,
                        flatten: multi,
                    }],
                    multi,
                )
            }
            "gather" => {
                let mut dn = vec![];
                for k in [
                    "offset_dims",
                    "collapsed_slice_dims",
                    "operand_batching_dims",
                    "start_indices_batching_dims",
                    "start_index_map",
                ] {
                    let v = cx.ints_or_empty(k)?;
                    if !v.is_empty() {
                        dn.push(format!("{k} = {}", list(&v)));
                    }
                }
                dn.push(format!(
                    "index_vector_dim = {}",
                    cx.int("index_vector_dim")?
                ));
                let sizes = cx.ints("slice_sizes")?;
                g(
                    self,
                    env,
                    "stablehlo.gather",
                    vec![
                        format!("dimension_numbers = #stablehlo.gather<{}>", dn.join(", ")),
                        format!("indices_are_sorted = {}", cx.flag("indices_are_sorted")),
                        format!("slice_sizes = {}", arr(&sizes)),
                    ],
                )
            }
            "convolution" => {
                need(2)?;
                let (lhs, rhs, out) = cx.dim_labels("dim_labels")?;
                let n = lhs.len().saturating_sub(2);
                let w = if cx.has("window") {
                    cx.window("window", n)?
                } else {
                    crate::hlo::attrs::Window::default_for(n)
                };
                let fg = cx.opt_int("feature_group_count")?.unwrap_or(1);
                let bg = cx.opt_int("batch_group_count")?.unwrap_or(1);
                let mut props = vec![
                    format!("batch_group_count = {bg} : i64"),
                    format!(
                        "dimension_numbers = #stablehlo.conv<{lhs}x{rhs}->{out}>",
                        lhs = lhs_text(&lhs),
                        rhs = lhs_text(&rhs),
                        out = lhs_text(&out)
                    ),
                    format!("feature_group_count = {fg} : i64"),
                    format!("lhs_dilation = {}", arr(&w.lhs_dilate)),
                    format!("padding = {}", pad_pairs(&w.pad)),
                    format!("rhs_dilation = {}", arr(&w.rhs_dilate)),
                    format!("window_strides = {}", arr(&w.stride)),
                ];
                if w.reversal.iter().any(|r| *r) {
                    let r: Vec<&str> = w
                        .reversal
                        .iter()
                        .map(|b| if *b { "true" } else { "false" })
                        .collect();
                    props.push(format!("window_reversal = array<i1: {}>", r.join(", ")));
                }
                g(self, env, "stablehlo.convolution", props)
            }
            "fft" => {
                let t = cx.word("fft_type")?;
                let l = cx.ints("fft_length")?;
                g(
                    self,
                    env,
                    "stablehlo.fft",
                    vec![
                        format!("fft_type = #stablehlo<fft_type {t}>"),
                        format!("fft_length = {}", arr(&l)),
                    ],
                )
            }
            "topk" => {
                let k = cx.int("k")?;
                if cx.opt_word("largest").is_some_and(|w| w == "false") {
                    return Err(ImportError::unsupported(
                        ins.span.clone(),
                        "topk with largest=false".into(),
                    ));
                }
                self.generic(
                    depth,
                    ins,
                    env,
                    "chlo.top_k",
                    ops,
                    &[format!("k = {k} : i64")],
                    vec![],
                    true,
                )
            }
            "rng-bit-generator" => {
                let a = match cx.opt_word("algorithm").as_deref() {
                    None | Some("rng_default") => "DEFAULT",
                    Some("rng_three_fry") => "THREE_FRY",
                    Some("rng_philox") => "PHILOX",
                    Some(_) => return Err(unsupported()),
                };
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.rng_bit_generator",
                    ops,
                    &[format!("rng_algorithm = #stablehlo<rng_algorithm {a}>")],
                    vec![],
                    true,
                )
            }
            "rng" => {
                need(2)?;
                let d = match cx.word("distribution")?.as_str() {
                    "rng_uniform" => "UNIFORM",
                    "rng_normal" => "NORMAL",
                    _ => return Err(unsupported()),
                };
                let dims: Vec<i64> = ins.shape.dims().iter().map(|d| *d as i64).collect();
                let s = self.fresh(&format!("{}_shape", ins.name));
                self.line(
                    depth,
                    &format!(
                        "{s} = stablehlo.constant dense<{}> : tensor<{}xi64>",
                        list(&dims),
                        dims.len()
                    ),
                    &ins.span,
                );
                let mut all = ops.to_vec();
                all.push((
                    s,
                    Shape::Array {
                        elem: "s64".into(),
                        dims: vec![dims.len() as u64],
                    },
                ));
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.rng",
                    &all,
                    &[format!(
                        "rng_distribution = #stablehlo<rng_distribution {d}>"
                    )],
                    vec![],
                    false,
                )
            }
            "reduce-precision" => {
                let e = cx.int("exponent_bits")?;
                let m = cx.int("mantissa_bits")?;
                g(
                    self,
                    env,
                    "stablehlo.reduce_precision",
                    vec![
                        format!("exponent_bits = {e} : i32"),
                        format!("mantissa_bits = {m} : i32"),
                    ],
                )
            }
            "cholesky" => {
                let lower = cx.flag("lower");
                g(
                    self,
                    env,
                    "stablehlo.cholesky",
                    vec![format!("lower = {lower}")],
                )
            }
            "triangular-solve" => {
                let t = cx
                    .opt_word("transpose_a")
                    .unwrap_or_else(|| "NO_TRANSPOSE".into());
                g(
                    self,
                    env,
                    "stablehlo.triangular_solve",
                    vec![
                        format!("left_side = {}", cx.flag("left_side")),
                        format!("lower = {}", cx.flag("lower")),
                        format!("transpose_a = #stablehlo<transpose {t}>"),
                        format!("unit_diagonal = {}", cx.flag("unit_diagonal")),
                    ],
                )
            }
            "batch-norm-training" | "batch-norm-inference" | "batch-norm-grad" => {
                let eps = cx.word("epsilon")?;
                let eps: f64 = eps.parse().map_err(|_| {
                    ImportError::at(ins.span.clone(), format!("bad epsilon `{eps}`"))
                })?;
                let f = cx.int("feature_index")?;
                let name = format!("stablehlo.{}", opc.replace('-', "_"));
                let multi = ins.shape.parts().is_some();
                self.generic(
                    depth,
                    ins,
                    env,
                    &name,
                    ops,
                    &[
                        format!("epsilon = {eps:e} : f32"),
                        format!("feature_index = {f} : i64"),
                    ],
                    vec![],
                    multi,
                )
            }
            "all-reduce" => {
                let groups = cx.groups("replica_groups", self.m.replicas)?;
                let comp = cx.comp("to_apply")?;
                let multi = ins.shape.parts().is_some();
                self.generic(
                    depth,
                    ins,
                    env,
                    "stablehlo.all_reduce",
                    ops,
                    &[format!("replica_groups = {groups}")],
                    vec![RegionSpec {
                        comp,
                        args: Args::Block,
                        flatten: false,
                    }],
                    multi,
                )
            }
            "collective-permute" => {
                let pairs = cx.groups("source_target_pairs", None)?;
                g(
                    self,
                    env,
                    "stablehlo.collective_permute",
                    vec![format!("source_target_pairs = {pairs}")],
                )
            }
            "replica-id" => g(self, env, "stablehlo.replica_id", vec![]),
            "partition-id" => g(self, env, "stablehlo.partition_id", vec![]),
            "opt-barrier" | "optimization-barrier" => {
                g(self, env, "stablehlo.optimization_barrier", vec![])
            }
            "get-dimension-size" => {
                let d = cx.ints("dimensions")?;
                let d = d.first().copied().unwrap_or(0);
                g(
                    self,
                    env,
                    "stablehlo.get_dimension_size",
                    vec![format!("dimension = {d} : i64")],
                )
            }
            _ => Err(unsupported()),
        }
    }
}

/// `[b, 0, 1, f]`.
fn lhs_text(letters: &[char]) -> String {
    let s: Vec<String> = letters.iter().map(|c| c.to_string()).collect();
    format!("[{}]", s.join(", "))
}

/// Elementwise opcodes: `Some(Some(name))` for a name that differs from
/// `stablehlo.<opcode with _>`, `Some(None)` for the rest.
fn elementwise(opc: &str) -> Option<Option<String>> {
    const SAME: &[&str] = &[
        "abs",
        "add",
        "and",
        "atan2",
        "cbrt",
        "ceil",
        "complex",
        "cosine",
        "count-leading-zeros",
        "divide",
        "exponential",
        "exponential-minus-one",
        "floor",
        "imag",
        "is-finite",
        "log",
        "log-plus-one",
        "logistic",
        "maximum",
        "minimum",
        "multiply",
        "negate",
        "not",
        "or",
        "popcnt",
        "power",
        "real",
        "remainder",
        "round-nearest-afz",
        "round-nearest-even",
        "rsqrt",
        "select",
        "shift-left",
        "shift-right-arithmetic",
        "shift-right-logical",
        "sign",
        "sine",
        "sqrt",
        "subtract",
        "tan",
        "tanh",
        "xor",
        "clamp",
    ];
    if SAME.contains(&opc) {
        return Some(None);
    }
    match opc {
        "erf" => Some(Some("chlo.erf".into())),
        _ => None,
    }
}

/// A constant's HLO literal as a `dense<...>` body: `{ {1, 2}, {3, 4} }` is
/// `[[1, 2], [3, 4]]`; scalars, `nan`, `-inf`, `true` and `(re, im)` stay.
fn literal(raw: &str, span: &Span) -> Result<String> {
    if raw.contains("...") {
        return Err(ImportError::unsupported(
            span.clone(),
            "a constant printed without its elements (`{...}`)".into(),
        ));
    }
    let mut s = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '{' => s.push('['),
            '}' => s.push(']'),
            c if c.is_ascii_alphanumeric() || " \n\t.,+-()_".contains(c) => {
                s.push(if c.is_whitespace() { ' ' } else { c })
            }
            _ => {
                return Err(ImportError::at(
                    span.clone(),
                    format!("cannot read `{c}` in a constant"),
                ));
            }
        }
    }
    let s = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("[ ", "[")
        .replace(" ]", "]");
    if s.is_empty() {
        return Err(ImportError::at(span.clone(), "an empty constant".into()));
    }
    Ok(s)
}
