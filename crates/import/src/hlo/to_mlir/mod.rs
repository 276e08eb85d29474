//! HLO computations written out as StableHLO MLIR text: the ENTRY as
//! `@main`, computations `call`ed as private functions, and computations that
//! ops apply (reducers, comparators, while's condition and body, branches)
//! inlined as the ops' regions.

use super::attrs::{Ctx, IGNORED};
use super::reader::{Comp, Instr, Module};
use super::shape::{Shape, compare_type};
use crate::error::{ImportError, Result};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use xlet_core::span::Span;

/// A value in MLIR: `%x` or `%x#1`, with its shape.
pub type Ref = (String, Shape);

#[derive(Clone, Debug)]
enum Val {
    /// One MLIR value; `parts` when a `tuple` op made it (its elements).
    One { r: Ref, parts: Option<Vec<Ref>> },
    /// An op with several results standing for an HLO tuple.
    Multi {
        base: String,
        shapes: Vec<Shape>,
        tuple: Option<String>,
    },
}

type Env = HashMap<String, Val>;

/// How a region's computation gets its parameters.
enum Args {
    /// As the block's arguments.
    Block,
    /// Bound to values of the enclosing function (a conditional's branch operand).
    Bound(Vec<Ref>),
}

struct RegionSpec {
    comp: String,
    args: Args,
    /// Return a tuple root's elements (several results).
    flatten: bool,
}

pub struct Em<'a> {
    m: &'a Module,
    comps: HashMap<&'a str, &'a Comp>,
    pub out: String,
    pub map: Vec<(Range<usize>, Span)>,
    names: HashSet<String>,
    stack: Vec<String>,
    queue: Vec<String>,
    queued: HashSet<String>,
}

const MAX_NEST: usize = 64;

/// `name` as an MLIR suffix id.
fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, 'v');
    }
    s
}

pub fn symbol(comp: &str) -> String {
    let s = sanitize(comp);
    if s == "main" { "main_".into() } else { s }
}

fn types(refs: &[Ref]) -> String {
    refs.iter()
        .map(|(_, s)| s.mlir())
        .collect::<Vec<_>>()
        .join(", ")
}

fn names(refs: &[Ref]) -> String {
    refs.iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn outs(shapes: &[Shape]) -> String {
    match shapes {
        [one] => one.mlir(),
        _ => format!(
            "({})",
            shapes
                .iter()
                .map(Shape::mlir)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub fn arr(v: &[i64]) -> String {
    if v.is_empty() {
        return "array<i64>".into();
    }
    let s: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("array<i64: {}>", s.join(", "))
}

pub fn list(v: &[i64]) -> String {
    let s: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", s.join(", "))
}

/// `dense<[[lo, hi], ...]> : tensor<Nx2xi64>`.
pub fn pad_pairs(p: &[(i64, i64)]) -> String {
    let s: Vec<String> = p.iter().map(|(l, h)| format!("[{l}, {h}]")).collect();
    format!("dense<[{}]> : tensor<{}x2xi64>", s.join(", "), p.len())
}

impl<'a> Em<'a> {
    pub fn new(m: &'a Module) -> Em<'a> {
        Em {
            m,
            comps: m.comps.iter().map(|c| (c.name.as_str(), c)).collect(),
            out: String::new(),
            map: vec![],
            names: HashSet::new(),
            stack: vec![],
            queue: vec![],
            queued: HashSet::new(),
        }
    }

    fn line(&mut self, depth: usize, text: &str, span: &Span) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        let start = self.out.len();
        self.out.push_str(text);
        let end = self.out.len();
        self.out.push('\n');
        self.map.push((start..end, span.clone()));
    }

    fn fresh(&mut self, hlo: &str) -> String {
        let base = sanitize(hlo);
        let mut n = base.clone();
        let mut k = 1;
        while self.names.contains(&n) {
            n = format!("{base}_{k}");
            k += 1;
        }
        self.names.insert(n.clone());
        format!("%{n}")
    }

    fn comp(&self, name: &str, span: &Span) -> Result<&'a Comp> {
        self.comps
            .get(name)
            .copied()
            .ok_or_else(|| ImportError::at(span.clone(), format!("no computation `{name}`")))
    }

    pub fn module(&mut self) -> Result<()> {
        let m = self.m;
        let entry = m
            .comps
            .iter()
            .find(|c| c.entry)
            .or(m.comps.last())
            .ok_or_else(|| ImportError::at(0..0, "the HLO module has no computation".into()))?;
        let mut attrs = vec![];
        if let Some(p) = m.partitions {
            attrs.push(format!("mhlo.num_partitions = {p} : i32"));
        }
        if let Some(r) = m.replicas {
            attrs.push(format!("mhlo.num_replicas = {r} : i32"));
        }
        let head = if attrs.is_empty() {
            format!("module @{} {{", sanitize(&m.name))
        } else {
            format!(
                "module @{} attributes {{{}}} {{",
                sanitize(&m.name),
                attrs.join(", ")
            )
        };
        self.line(0, &head, &(0..0));
        self.func(entry, true)?;
        let mut i = 0;
        while i < self.queue.len() {
            let name = self.queue[i].clone();
            i += 1;
            let c = self.comp(&name, &entry.span)?;
            self.func(c, false)?;
        }
        self.line(0, "}", &(0..0));
        Ok(())
    }

    /// The parameters of a computation in `parameter(N)` order.
    fn params(&self, c: &'a Comp) -> Result<Vec<&'a Instr>> {
        let mut ps: Vec<(usize, &Instr)> = vec![];
        for ins in c.instrs.iter().filter(|i| i.opcode == "parameter") {
            let n: usize =
                ins.raw.trim().parse().map_err(|_| {
                    ImportError::at(ins.span.clone(), "a parameter's number".into())
                })?;
            ps.push((n, ins));
        }
        ps.sort_by_key(|(n, _)| *n);
        for (k, (n, ins)) in ps.iter().enumerate() {
            if *n != k {
                return Err(ImportError::at(
                    ins.span.clone(),
                    format!(
                        "parameter({n}) of `{}`: the parameters should be numbered 0, 1, ...",
                        c.name
                    ),
                ));
            }
        }
        Ok(ps.into_iter().map(|(_, i)| i).collect())
    }

    fn root(c: &Comp) -> Result<&Instr> {
        c.instrs
            .iter()
            .find(|i| i.root)
            .or(c.instrs.last())
            .ok_or_else(|| {
                ImportError::at(
                    c.span.clone(),
                    format!("the computation `{}` is empty", c.name),
                )
            })
    }

    fn result_shapes(c: &Comp, flatten: bool) -> Result<Vec<Shape>> {
        let r = Self::root(c)?;
        Ok(match (&r.shape, flatten) {
            (Shape::Tuple(p), true) => p.clone(),
            (s, _) => vec![s.clone()],
        })
    }

    fn func(&mut self, c: &'a Comp, entry: bool) -> Result<()> {
        self.names.clear();
        self.stack = vec![c.name.clone()];
        let mut env = Env::new();
        let mut args = vec![];
        for p in self.params(c)? {
            let n = self.fresh(&p.name);
            args.push(format!("{n}: {}", p.shape.mlir()));
            env.insert(
                p.name.clone(),
                Val::One {
                    r: (n, p.shape.clone()),
                    parts: None,
                },
            );
        }
        let res = Self::result_shapes(c, entry)?;
        let head = format!(
            "func.func {} @{}({}) -> ({}) {{",
            if entry { "public" } else { "private" },
            if entry {
                "main".into()
            } else {
                symbol(&c.name)
            },
            args.join(", "),
            res.iter().map(Shape::mlir).collect::<Vec<_>>().join(", ")
        );
        let span = c.span.clone();
        self.line(1, &head, &span);
        let refs = self.body(c, &mut env, 2, entry)?;
        let root_span = Self::root(c)?.span.clone();
        self.line(
            2,
            &format!("return {} : {}", names(&refs), types(&refs)),
            &root_span,
        );
        self.line(1, "}", &span);
        Ok(())
    }

    /// The computation's instructions (but its parameters); returns its root's values.
    fn body(
        &mut self,
        c: &'a Comp,
        env: &mut Env,
        depth: usize,
        flatten: bool,
    ) -> Result<Vec<Ref>> {
        for ins in &c.instrs {
            if ins.opcode == "parameter" {
                continue;
            }
            self.instr(ins, env, depth)?;
        }
        let root = Self::root(c)?;
        let v = env
            .get(&root.name)
            .cloned()
            .ok_or_else(|| ImportError::at(root.span.clone(), "the root has no value".into()))?;
        if !flatten || root.shape.parts().is_none() {
            return Ok(vec![self.use_val(&v, depth, &root.span)]);
        }
        Ok(match v {
            Val::One { parts: Some(p), .. } => p,
            Val::Multi { base, shapes, .. } => shapes
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("{base}#{i}"), s.clone()))
                .collect(),
            Val::One { r, parts: None } => {
                let shapes = r.1.parts().unwrap_or_default().to_vec();
                let mut out = vec![];
                for (i, s) in shapes.into_iter().enumerate() {
                    let n = self.fresh(&format!("{}_{i}", root.name));
                    self.line(
                        depth,
                        &format!(
                            "{n} = \"stablehlo.get_tuple_element\"({}) <{{index = {i} : i32}}> : ({}) -> {}",
                            r.0,
                            r.1.mlir(),
                            s.mlir()
                        ),
                        &root.span,
                    );
                    out.push((n, s));
                }
                out
            }
        })
    }

    /// A value as one MLIR value (a tuple made for an op's several results).
    fn use_val(&mut self, v: &Val, depth: usize, span: &Span) -> Ref {
        match v {
            Val::One { r, .. } => r.clone(),
            Val::Multi {
                base,
                shapes,
                tuple,
            } => {
                let sh = Shape::Tuple(shapes.clone());
                if let Some(t) = tuple {
                    return (t.clone(), sh);
                }
                let t = self.fresh(&format!("{}_tuple", &base[1..]));
                let parts: Vec<Ref> = shapes
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (format!("{base}#{i}"), s.clone()))
                    .collect();
                self.line(
                    depth,
                    &format!(
                        "{t} = \"stablehlo.tuple\"({}) : ({}) -> {}",
                        names(&parts),
                        types(&parts),
                        sh.mlir()
                    ),
                    span,
                );
                (t, sh)
            }
        }
    }

    fn operand(&mut self, env: &mut Env, name: &str, span: &Span, depth: usize) -> Result<Ref> {
        let v = env.get(name).cloned().ok_or_else(|| {
            ImportError::at(
                span.clone(),
                format!("`{name}` is used before it is defined"),
            )
        })?;
        let r = self.use_val(&v, depth, span);
        if let Val::Multi { base, shapes, .. } = v {
            env.insert(
                name.to_string(),
                Val::Multi {
                    base,
                    shapes,
                    tuple: Some(r.0.clone()),
                },
            );
        }
        Ok(r)
    }

    /// An op in the generic form, with its regions.
    #[allow(clippy::too_many_arguments)]
    fn generic(
        &mut self,
        depth: usize,
        ins: &Instr,
        env: &mut Env,
        op: &str,
        operands: &[Ref],
        props: &[String],
        regions: Vec<RegionSpec>,
        multi: bool,
    ) -> Result<()> {
        let shapes: Vec<Shape> = match (&ins.shape, multi) {
            (Shape::Tuple(p), true) => p.clone(),
            (s, _) => vec![s.clone()],
        };
        let n = self.fresh(&ins.name);
        let res = if multi {
            format!("{n}:{}", shapes.len())
        } else {
            n.clone()
        };
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" <{{{}}}>", props.join(", "))
        };
        let sig = format!("({}) -> {}", types(operands), outs(&shapes));
        let head = format!("{res} = \"{op}\"({}){props}", names(operands));
        if regions.is_empty() {
            self.line(depth, &format!("{head} : {sig}"), &ins.span);
        } else {
            self.line(depth, &format!("{head} ({{"), &ins.span);
            for (k, r) in regions.into_iter().enumerate() {
                if k > 0 {
                    self.line(depth, "}, {", &ins.span);
                }
                self.region(r, depth + 1, &ins.span)?;
            }
            self.line(depth, &format!("}}) : {sig}"), &ins.span);
        }
        let v = if multi {
            Val::Multi {
                base: n,
                shapes,
                tuple: None,
            }
        } else {
            Val::One {
                r: (n, ins.shape.clone()),
                parts: None,
            }
        };
        env.insert(ins.name.clone(), v);
        Ok(())
    }

    /// A computation inlined as a region.
    fn region(&mut self, r: RegionSpec, depth: usize, user: &Span) -> Result<()> {
        if self.stack.contains(&r.comp) || self.stack.len() > MAX_NEST {
            return Err(ImportError::unsupported(
                user.clone(),
                format!("the computation `{}` applies itself", r.comp),
            ));
        }
        let c = self.comp(&r.comp, user)?;
        self.stack.push(r.comp.clone());
        let params = self.params(c)?;
        let mut env = Env::new();
        match r.args {
            Args::Block => {
                let mut args = vec![];
                for p in &params {
                    let n = self.fresh(&p.name);
                    args.push(format!("{n}: {}", p.shape.mlir()));
                    env.insert(
                        p.name.clone(),
                        Val::One {
                            r: (n, p.shape.clone()),
                            parts: None,
                        },
                    );
                }
                self.line(depth - 1, &format!("^bb0({}):", args.join(", ")), &c.span);
            }
            Args::Bound(refs) => {
                if refs.len() != params.len() {
                    return Err(ImportError::at(
                        user.clone(),
                        format!(
                            "`{}` takes {} parameters, given {}",
                            c.name,
                            params.len(),
                            refs.len()
                        ),
                    ));
                }
                for (p, r) in params.iter().zip(refs) {
                    env.insert(p.name.clone(), Val::One { r, parts: None });
                }
            }
        }
        let refs = self.body(c, &mut env, depth, r.flatten)?;
        let root_span = Self::root(c)?.span.clone();
        self.line(
            depth,
            &format!("stablehlo.return {} : {}", names(&refs), types(&refs)),
            &root_span,
        );
        self.stack.pop();
        Ok(())
    }

    fn instr(&mut self, ins: &'a Instr, env: &mut Env, depth: usize) -> Result<()> {
        let cx = Ctx::new(ins);
        let mut ops = vec![];
        for (n, sp) in &ins.operands {
            ops.push(self.operand(env, n, sp, depth)?);
        }
        self.op(&cx, ins, env, depth, &ops)?;
        for a in &ins.attrs {
            if !cx.used(&a.key) && !IGNORED.contains(&a.key.as_str()) {
                return Err(ImportError::unsupported(
                    a.span.clone(),
                    format!("the attribute `{}` of the HLO op `{}`", a.key, ins.opcode),
                ));
            }
        }
        Ok(())
    }

    fn alias(&mut self, ins: &Instr, env: &mut Env, r: Ref) {
        env.insert(ins.name.clone(), Val::One { r, parts: None });
    }

    fn op(
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
            "broadcast" => {
                let d = cx.ints("dimensions")?;
                g(
                    self,
                    env,
                    "stablehlo.broadcast_in_dim",
                    vec![format!("broadcast_dimensions = {}", arr(&d))],
                )
            }
            "transpose" => {
                let d = cx.ints("dimensions")?;
                g(
                    self,
                    env,
                    "stablehlo.transpose",
                    vec![format!("permutation = {}", arr(&d))],
                )
            }
            "reverse" => {
                let d = cx.ints("dimensions")?;
                g(
                    self,
                    env,
                    "stablehlo.reverse",
                    vec![format!("dimensions = {}", arr(&d))],
                )
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
                    super::attrs::Window::default_for(n)
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
